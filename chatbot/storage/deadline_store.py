"""The deadlines in SQL: one row per match and kind under an index on the due time, claimed by one
worker when due (the deadline part of the core's :class:`~chatbot.core.ports.Repository` and of the
runtime's :class:`~chatbot.core.ports.RuntimeStore`), and the pruning of what was delivered."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import delete, tuple_, update
from sqlmodel import col, select

from chatbot.core.ports import Deadline
from chatbot.storage.db import Db
from chatbot.storage.statements import DONE, SUPERSEDED
from chatbot.storage.tables import Deadline as DeadlineRow
from chatbot.storage.tables import Outbox, SeenUpdate


class DeadlineStore:
    """Deadlines over one :class:`Db`."""

    def __init__(self, db: Db) -> None:
        self.db = db
        #: workers whose own leftover deadline claims ``due_deadlines`` has taken back
        self._started: set[str] = set()

    def set_deadlines(self, match_id: int, deadlines: Sequence[Deadline]) -> None:
        """The match's deadlines are now exactly these (every change of a match sets them)."""
        rows = [
            {
                "match_id": d.match_id,
                "kind": d.kind,
                "due": d.due,
                "version": d.version,
                "seats": list(d.seats),
                "claimed_by": None,
                "claimed_until": None,
            }
            for d in deadlines
        ]
        unit = self.db.current()
        if deadlines and unit is not None:
            soonest = min(d.due for d in deadlines)
            if unit.earliest_due is None or soonest < unit.earliest_due:
                unit.earliest_due = soonest
        if unit is not None and all(r["match_id"] == match_id for r in rows):
            # written with the unit's next statement: usually the insert of the outbox rows at its
            # end, which takes them along (one statement for both); no statement now, so the held
            # writes of the unit (a meta) wait for that insert too
            unit.deadline_writes[match_id] = rows
            return
        with self.db.conn() as c:
            if all(r["match_id"] == match_id for r in rows):
                self.db.compound.replace_deadlines(c, match_id, rows)
            else:
                c.execute(self.db.sql.deadlines_delete, {"m": match_id})
                if rows:
                    c.execute(self.db.sql.deadlines_insert, rows)

    def unit_earliest_due(self) -> float | None:
        """The earliest due time of the deadlines stored so far in the open unit (None: none)."""
        unit = self.db.current()
        return unit.earliest_due if unit is not None else None

    def drop_deadline(self, deadline: Deadline, worker: str | None = None) -> bool:
        """Remove one deadline if it is still the one given (same version, still claimed by
        ``worker``); False when someone else changed or took it meanwhile."""
        with self.db.session() as s:
            conditions = [
                col(DeadlineRow.match_id) == deadline.match_id,
                col(DeadlineRow.kind) == deadline.kind,
                col(DeadlineRow.version) == deadline.version,
            ]
            if worker is not None:
                conditions.append(col(DeadlineRow.claimed_by) == worker)
            result = s.exec(delete(DeadlineRow).where(*conditions))
            self.db.done(s)
            return bool(result.rowcount == 1)

    def deadlines(self, match_id: int) -> list[Deadline]:
        with self.db.session() as s:
            rows = s.exec(
                select(DeadlineRow).where(DeadlineRow.match_id == match_id).order_by(col(DeadlineRow.due))
            ).all()
            return [_deadline(r) for r in rows]

    def due_deadlines(self, now: float, worker: str, lease: float, limit: int) -> list[Deadline]:
        """Claim what is due: each deadline goes to one worker. A claim moves ``due`` to the end of
        the lease, so a worker that dies lets another take it over then.

        The first call for ``worker`` in this repository (a process that starts) also takes the
        deadlines still claimed under that name at once: a process restarted under the name of one
        that died (kill -9) gets its claims back without waiting for the lease. Only the first call
        looks (there is no index on the claimant; a live worker performs or drops what it claims).

        PostgreSQL: ``FOR UPDATE SKIP LOCKED`` and the update in one transaction; SQLite (one writer
        at a time): an update guarded by the due time seen, checked row by row."""
        until = now + lease
        due_for_me = col(DeadlineRow.due) <= now
        first = worker not in self._started
        if first:
            due_for_me = due_for_me | (col(DeadlineRow.claimed_by) == worker)
        with self.db.session() as s:
            query = select(DeadlineRow).where(due_for_me).order_by(col(DeadlineRow.due)).limit(limit)
            if self.db.dialect == "postgresql":
                rows = s.exec(query.with_for_update(skip_locked=True)).all()
                if rows:
                    s.exec(
                        update(DeadlineRow)
                        .where(
                            tuple_(col(DeadlineRow.match_id), col(DeadlineRow.kind)).in_(
                                [(r.match_id, r.kind) for r in rows]
                            )
                        )
                        .values(due=until, claimed_by=worker, claimed_until=until)
                    )
                claimed = [_deadline(r) for r in rows]
            else:
                claimed = []
                for r in s.exec(query).all():
                    result = s.exec(
                        update(DeadlineRow)
                        .where(
                            col(DeadlineRow.match_id) == r.match_id,
                            col(DeadlineRow.kind) == r.kind,
                            # the row as it was seen: a change of the match may have replaced it
                            # meanwhile by one at the same due time
                            col(DeadlineRow.version) == r.version,
                            col(DeadlineRow.due) == r.due,
                            due_for_me,
                        )
                        .values(due=until, claimed_by=worker, claimed_until=until)
                    )
                    if result.rowcount == 1:
                        claimed.append(_deadline(r))
            self.db.done(s)
            if first and len(claimed) < limit:  # all of them taken back (else look again next time)
                self._started.add(worker)
            return claimed

    def prune(self, done_before: float, seen_before: float) -> int:
        """Forget delivered (or superseded) outbox rows created before ``done_before`` and inbound ids
        recorded before ``seen_before`` (epoch seconds): the tables stay small. The last reference of
        every message stays in ``messageref``."""
        done = datetime.fromtimestamp(done_before, UTC)
        seen = datetime.fromtimestamp(seen_before, UTC)
        with self.db.session() as s:
            rows = s.exec(
                delete(Outbox).where(col(Outbox.state).in_([DONE, SUPERSEDED]), col(Outbox.created_at) < done)
            ).rowcount
            rows += s.exec(delete(SeenUpdate).where(col(SeenUpdate.at) < seen)).rowcount
            self.db.done(s)
            return int(rows)

    def release_deadlines(self, worker: str, now: float) -> int:
        """A worker (re)starts under its name: what an earlier process of that name had claimed is due
        again at once (it was due when claimed), instead of when the dead claim's lease ends."""
        with self.db.session() as s:
            result = s.exec(
                update(DeadlineRow)
                .where(col(DeadlineRow.claimed_by) == worker)
                .values(due=now, claimed_by=None, claimed_until=None)
            )
            self.db.done(s)
            return int(result.rowcount)

    def next_due(self) -> float | None:
        """The earliest due time (a claimed deadline counts at the end of its lease)."""
        with self.db.conn() as c:
            value = c.execute(self.db.sql.next_due).scalar()
            return float(value) if value is not None else None


def _deadline(row: DeadlineRow) -> Deadline:
    return Deadline(row.match_id, row.kind, row.due, row.version, tuple(int(x) for x in row.seats or ()))
