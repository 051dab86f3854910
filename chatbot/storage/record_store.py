"""Finished matches' results (issue #16) and the key/value table in SQL: the rest of the core's
:class:`~chatbot.core.ports.Repository` besides :mod:`~chatbot.storage.game_store`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam
from sqlalchemy import select as core_select

from chatbot.core.ports import OVER, FinishedRec, SeatRec
from chatbot.storage.db import Db
from chatbot.storage.statements import KV, RES, SEAT, M


class RecordStore:
    """Results of finished matches and key/value pairs over one :class:`Db`."""

    def __init__(self, db: Db) -> None:
        self.db = db

    # --- results of finished matches (issue #16) ---------------------------------------------
    def finished_matches(
        self, room_id: int | None = None, user_id: int | None = None, limit: int | None = None
    ) -> list[FinishedRec]:
        """Finished matches, the latest first: of one room, of one user (a seat of theirs, in any
        room), or all; only what statistics and history read (two queries, however many matches)."""
        m, res, seat = M, RES, SEAT
        stmt = (
            core_select(m.c.id, m.c.room_id, m.c.game, m.c.updated_at, res.c.finished_at, res.c.result)
            .select_from(m.outerjoin(res, res.c.match_id == m.c.id))
            .where(m.c.status == OVER)
            .order_by(m.c.id.desc())
        )
        if room_id is not None:
            stmt = stmt.where(m.c.room_id == room_id)
        if user_id is not None:
            stmt = stmt.where(m.c.id.in_(core_select(seat.c.match_id).where(seat.c.user_id == user_id)))
        if limit is not None:
            stmt = stmt.limit(limit)
        seats_of = (
            core_select(seat.c.match_id, seat.c.seat, seat.c.name, seat.c.user_id, seat.c.ai)
            .where(seat.c.match_id.in_(bindparam("ids", expanding=True)))
            .order_by(seat.c.match_id, seat.c.seat)
        )
        with self.db.conn() as c:
            rows = c.execute(stmt).all()
            seats: dict[int, list[SeatRec]] = {}
            if rows:
                for x in c.execute(seats_of, {"ids": [r.id for r in rows]}):
                    seats.setdefault(x.match_id, []).append(
                        SeatRec(seat=x.seat, name=x.name, user_id=x.user_id, ai=x.ai)
                    )
        return [
            FinishedRec(
                id=row.id,
                room_id=row.room_id,
                game=row.game,
                seats=tuple(seats.get(row.id, ())),
                finished_at=_epoch(row.finished_at or row.updated_at),
                result=dict(row.result) if row.result is not None else None,
            )
            for row in rows
        ]

    def set_result(self, match_id: int, finished_at: float, result: dict[str, Any]) -> None:
        """The result of a finished match (written again, it replaces the one before)."""
        stmt = self.db.insert(RES)
        stmt = stmt.on_conflict_do_update(
            index_elements=["match_id"],
            set_={"finished_at": stmt.excluded.finished_at, "result": stmt.excluded.result},
        )
        with self.db.conn() as c:
            c.execute(
                stmt,
                {
                    "match_id": match_id,
                    "finished_at": datetime.fromtimestamp(finished_at, UTC),
                    "result": dict(result),
                },
            )

    # --- key/value ---------------------------------------------------------------------------
    def kv_get(self, namespace: str, key: str) -> Any:
        with self.db.conn() as c:
            return c.execute(self.db.sql.kv_get, {"n": namespace, "k": key}).scalar()

    def kv_set(self, namespace: str, key: str, value: Any) -> None:
        with self.db.conn() as c:
            c.execute(self.db.sql.kv_upsert, {"namespace": namespace, "key": key, "value": value})

    def kv_items(self, namespace: str, limit: int = 1000) -> dict[str, Any]:
        """Every key of ``namespace`` with its value (at most ``limit``, in key order): the members
        a room has seen (issue #27)."""
        stmt = core_select(KV.c.key, KV.c.value).where(KV.c.namespace == namespace).order_by(KV.c.key)
        with self.db.conn() as c:
            return {str(row.key): row.value for row in c.execute(stmt.limit(limit))}


def _epoch(at: datetime) -> float:
    """Epoch seconds of a stored time (SQLite gives it back without its zone, which is UTC)."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()
