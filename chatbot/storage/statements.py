"""The statements of the hot paths, built once per repository (per dialect), and the compound
statements that do several writes in one round trip (issue #12, fast path).

Building a statement costs more than running it: every statement here is built once with named bind
parameters and runs on the unit's connection (Core, not the ORM: no identity map to keep in step).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Integer,
    String,
    bindparam,
    case,
    cast,
    delete,
    func,
    literal_column,
    text,
    update,
)
from sqlalchemy import select as core_select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from chatbot.core.ports import LOBBY, RUNNING
from chatbot.storage.tables import (
    ActionLog,
    ChatClaim,
    KeyValue,
    Match,
    MatchResult,
    MessageRef,
    Outbox,
    Room,
    Seat,
    SeenUpdate,
    Snapshot,
    User,
)
from chatbot.storage.tables import Deadline as DeadlineRow

PENDING, DONE, SUPERSEDED = "pending", "done", "superseded"

#: the tables, as SQLAlchemy Core tables
U, R, M, SEAT, SNAP = (
    User.__table__,  # type: ignore[attr-defined]
    Room.__table__,  # type: ignore[attr-defined]
    Match.__table__,  # type: ignore[attr-defined]
    Seat.__table__,  # type: ignore[attr-defined]
    Snapshot.__table__,  # type: ignore[attr-defined]
)
ACT, KV, OUT, CLAIM, REF, DL, SEEN = (
    ActionLog.__table__,  # type: ignore[attr-defined]
    KeyValue.__table__,  # type: ignore[attr-defined]
    Outbox.__table__,  # type: ignore[attr-defined]
    ChatClaim.__table__,  # type: ignore[attr-defined]
    MessageRef.__table__,  # type: ignore[attr-defined]
    DeadlineRow.__table__,  # type: ignore[attr-defined]
    SeenUpdate.__table__,  # type: ignore[attr-defined]
)
RES = MatchResult.__table__  # type: ignore[attr-defined]


def _bp(name: str) -> Any:
    return bindparam(name)


class Statements:
    """The statements of the hot paths, built once per repository (per dialect) with named bind
    parameters: building a statement costs more than running it (issue #12, fast path). They run on
    the unit's connection (Core, not the ORM: no identity map to keep in step, no unit of work)."""

    def __init__(self, dialect: str) -> None:
        ins = pg_insert if dialect == "postgresql" else sqlite_insert
        u, r, m, seat, snap = U, R, M, SEAT, SNAP
        self.seen_insert = ins(SEEN).on_conflict_do_nothing()
        self.seen_select = core_select(SEEN.c.key).where(SEEN.c.platform == _bp("p"), SEEN.c.key == _bp("k"))
        self.user_by_ext = core_select(u).where(u.c.platform == _bp("p"), u.c.ext_id == _bp("e"))
        self.user_by_id = core_select(u).where(u.c.id == _bp("i"))
        self.user_insert = u.insert()
        self.room_insert = r.insert()
        self.user_rename = update(u).where(u.c.id == _bp("i")).values(name=_bp("n"))
        self.room_by_ext = core_select(r).where(r.c.platform == _bp("p"), r.c.ext_id == _bp("e"))
        self.room_by_id = core_select(r).where(r.c.id == _bp("i"))
        match_columns = core_select(
            m.c.id,
            m.c.room_id,
            m.c.game,
            m.c.options,
            m.c.seed,
            m.c.version,
            m.c.status,
            m.c.host_user_id,
            m.c.meta,
            snap.c.state,
            r.c.platform.label("room_platform"),
            r.c.ext_id.label("room_ext_id"),
            r.c.lang.label("room_lang"),
        ).select_from(m.outerjoin(snap, snap.c.match_id == m.c.id).join(r, r.c.id == m.c.room_id))
        self.matches = match_columns
        # a speaker's user, the room and its active match with its snapshot, in one round trip
        cu, cr, cm, cs = u.alias("cu"), r.alias("cr"), m.alias("cm"), snap.alias("cs")
        active_of = (
            core_select(m.c.id)
            .where(m.c.room_id == cr.c.id, m.c.status.in_([LOBBY, RUNNING]))
            .order_by(m.c.id.desc())
            .limit(1)
            .correlate(cr)
            .scalar_subquery()
        )
        one = core_select(literal_column("1").label("one")).subquery("one")
        # the active match's seats with their users, as one JSON array of arrays (the order of
        # ``SEAT_FIELDS``): the seats need no round trip of their own
        su = u.alias("su")
        fields = (
            seat.c.seat,
            seat.c.name,
            seat.c.user_id,
            seat.c.ai,
            su.c.platform,
            su.c.ext_id,
            su.c.name,
            su.c.lang,
        )
        if dialect == "postgresql":
            packed = func.json_agg(func.json_build_array(*fields))
        else:
            packed = func.json_group_array(func.json_array(*fields))
        seats_of_active = (
            core_select(packed)
            .select_from(seat.outerjoin(su, seat.c.user_id == su.c.id))
            .where(seat.c.match_id == cm.c.id)
            .correlate(cm)
            .scalar_subquery()
            .label("seats_json")
        )
        self.context = core_select(
            cu.c.id.label("u_id"),
            cu.c.name.label("u_name"),
            cu.c.lang.label("u_lang"),
            cr.c.id.label("r_id"),
            cr.c.lang.label("r_lang"),
            cm.c.id,
            cm.c.room_id,
            cm.c.game,
            cm.c.options,
            cm.c.seed,
            cm.c.version,
            cm.c.status,
            cm.c.host_user_id,
            cm.c.meta,
            cs.c.state,
            seats_of_active,
        ).select_from(
            one.outerjoin(cu, (cu.c.platform == _bp("p")) & (cu.c.ext_id == _bp("e")))
            .outerjoin(cr, (cr.c.platform == _bp("p")) & (cr.c.ext_id == _bp("c")))
            .outerjoin(cm, cm.c.id == active_of)
            .outerjoin(cs, cs.c.match_id == cm.c.id)
        )
        self.context_seen = None
        if dialect == "postgresql":
            # the inbound update id recorded by the same statement (``fresh`` 0: seen before)
            recorded = (
                pg_insert(SEEN)
                .values(platform=_bp("sp"), key=_bp("sk"), at=_bp("sa"))
                .on_conflict_do_nothing()
                .returning(SEEN.c.key)
                .cte("recorded")
            )
            fresh = core_select(func.count()).select_from(recorded).scalar_subquery().label("fresh")
            self.context_seen = self.context.add_columns(fresh).add_cte(recorded)
        self.match_by_id = match_columns.where(m.c.id == _bp("i"))
        self.active_match = (
            match_columns.where(m.c.room_id == _bp("room"), m.c.status.in_([LOBBY, RUNNING]))
            .order_by(m.c.id.desc())
            .limit(1)
        )
        self.matches_of_user = match_columns.where(
            m.c.id.in_(core_select(seat.c.match_id).where(seat.c.user_id == _bp("u"))),
            m.c.status.in_([LOBBY, RUNNING]),
        ).order_by(m.c.id)
        self.seats_of = (
            core_select(
                seat.c.match_id,
                seat.c.seat,
                seat.c.name,
                seat.c.user_id,
                seat.c.ai,
                u.c.platform.label("user_platform"),
                u.c.ext_id.label("user_ext_id"),
                u.c.name.label("user_name"),
                u.c.lang.label("user_lang"),
            )
            .select_from(seat.outerjoin(u, seat.c.user_id == u.c.id))
            .where(seat.c.match_id.in_(bindparam("ids", expanding=True)))
            .order_by(seat.c.match_id, seat.c.seat)
        )
        self.seats_delete = delete(seat).where(seat.c.match_id == _bp("m"))
        self.seats_insert = seat.insert()
        self.match_insert = m.insert()
        self.action_insert = ACT.insert()
        snap_upsert = ins(snap)
        self.snapshot_upsert = snap_upsert.on_conflict_do_update(
            index_elements=["match_id"],
            set_={"version": snap_upsert.excluded.version, "state": snap_upsert.excluded.state},
        )
        self.actions_since = (
            core_select(ACT.c.ply, ACT.c.seat, ACT.c.notation, ACT.c.events)
            .where(ACT.c.match_id == _bp("m"), ACT.c.ply > _bp("since"))
            .order_by(ACT.c.ply)
        )
        self.action_keys_since = (
            core_select(ACT.c.ply, ACT.c.seat, ACT.c.notation)
            .where(ACT.c.match_id == _bp("m"), ACT.c.ply > _bp("since"))
            .order_by(ACT.c.ply)
        )
        self.action_commit = action_commit() if dialect == "postgresql" else None
        self.meta_of = core_select(m.c.meta).where(m.c.id == _bp("i"))
        self.meta_set = update(m).where(m.c.id == _bp("i")).values(meta=_bp("mv"))
        self.kv_get = core_select(KV.c.value).where(KV.c.namespace == _bp("n"), KV.c.key == _bp("k"))
        kv_upsert = ins(KV)
        self.kv_upsert = kv_upsert.on_conflict_do_update(
            index_elements=["namespace", "key"], set_={"value": kv_upsert.excluded.value}
        )
        o = OUT
        self.outbox_insert = o.insert()
        self.outbox_hold = (
            update(o).where(o.c.chat == _bp("c"), o.c.state == PENDING, ~o.c.held).values(held=True)
        )
        self.outbox_unhold = (
            update(o).where(o.c.chat == _bp("c"), o.c.state == PENDING, o.c.held).values(held=False)
        )
        others = core_select(CLAIM.c.chat).where(CLAIM.c.until >= _bp("now"), CLAIM.c.worker != _bp("me"))
        self.claimable = (
            core_select(o.c.chat)
            .where(
                o.c.platform == _bp("platform"),
                o.c.state == PENDING,
                ~o.c.held,
                o.c.not_before <= _bp("now"),
                o.c.chat.not_in(others),
            )
            .group_by(o.c.chat)
            .order_by(func.max(o.c.id).desc())
            .limit(_bp("limit"))
        )
        claim = ins(CLAIM)
        self.claim_upsert = claim.on_conflict_do_update(
            index_elements=["chat"],
            set_={"worker": claim.excluded.worker, "until": claim.excluded.until},
            where=(CLAIM.c.until < _bp("w_now")) | (CLAIM.c.worker == _bp("w_me")),
        )
        self.pending = (
            core_select(
                o.c.id, o.c.chat, o.c.key, o.c.payload, o.c.attempts, o.c.not_before, o.c.sending, REF.c.ref
            )
            .select_from(o.outerjoin(REF, (REF.c.chat == o.c.chat) & (REF.c.key == o.c.key)))
            .where(o.c.chat == _bp("c"), o.c.state == PENDING, ~o.c.held)
            .order_by(o.c.id)
            .limit(_bp("limit"))
        )
        self.outbox_key_of = core_select(o.c.chat, o.c.key).where(o.c.id == _bp("i"))
        self.outbox_done = update(o).where(o.c.id == _bp("i")).values(state=DONE)
        self.outbox_done_sent = update(o).where(o.c.id == _bp("i")).values(state=DONE, sending=_bp("s"))
        self.outbox_sending = update(o).where(o.c.id == _bp("i")).values(sending=_bp("s"))
        self.outbox_done_keyed = (
            update(o)
            .where(
                o.c.chat == _bp("c"),
                o.c.key == _bp("k"),
                (o.c.id == _bp("i")) | ((o.c.id < _bp("i")) & (o.c.state == PENDING)),
            )
            .values(state=case((o.c.id == _bp("i"), DONE), else_=SUPERSEDED))
        )
        ref = ins(REF)
        self.ref_upsert = ref.on_conflict_do_update(
            index_elements=["chat", "key"], set_={"ref": ref.excluded.ref}
        )
        self.ref_of = core_select(REF.c.ref).where(REF.c.chat == _bp("c"), REF.c.key == _bp("k"))
        self.outbox_later = (
            update(o).where(o.c.id == _bp("i")).values(not_before=_bp("nb"), attempts=o.c.attempts + 1)
        )
        self.claim_release = delete(CLAIM).where(CLAIM.c.chat == _bp("c"), CLAIM.c.worker == _bp("me"))
        self.deadlines_delete = delete(DL).where(DL.c.match_id == _bp("m"))
        self.deadlines_insert = DL.insert()
        self.next_due = core_select(func.min(DL.c.due))
        self._bumps: dict[tuple[str, ...], Any] = {}

    def bump(self, names: tuple[str, ...]) -> Any:
        """``UPDATE match SET version, updated_at, <names> WHERE id AND version`` (one per set of names)."""
        stmt = self._bumps.get(names)
        if stmt is None:
            stmt = (
                update(M)
                .where(M.c.id == _bp("m"), M.c.version == _bp("seen"))
                .values(version=_bp("new"), updated_at=_bp("now"), **{n: _bp("v_" + n) for n in names})
            )
            self._bumps[names] = stmt
        return stmt


#: PostgreSQL: a match's deadlines become exactly the rows of ``:rows`` (a JSON array): the kinds not
#: set any more deleted, the others upserted (their claims dropped, as a new row has none). Written
#: as text over ``json_array_elements``: the same statement for any number of rows, compiled once
#: (SQLAlchemy does not cache a multi-row VALUES insert: it was compiled anew for every action)
_DEADLINES_CTES = """
WITH new_deadlines AS (
    SELECT d.value->>'kind' AS kind, CAST(d.value->>'due' AS float8) AS due,
           CAST(d.value->>'version' AS integer) AS version, d.value->'seats' AS seats
    FROM json_array_elements(CAST(:rows AS json)) AS d(value)
), gone AS (
    DELETE FROM deadline WHERE match_id = :m AND kind NOT IN (SELECT kind FROM new_deadlines)
)"""
_DEADLINES_UPSERT = """
INSERT INTO deadline (match_id, kind, due, version, seats, claimed_by, claimed_until)
SELECT :m, kind, due, version, seats, NULL, NULL FROM new_deadlines
ON CONFLICT (match_id, kind) DO UPDATE SET due = excluded.due, version = excluded.version,
    seats = excluded.seats, claimed_by = NULL, claimed_until = NULL"""
_DEADLINES_REPLACE = text(_DEADLINES_CTES + _DEADLINES_UPSERT)
#: the outbox rows of ``:outbox`` (a JSON array), inserted in its order
_OUTBOX_INSERT = """
INSERT INTO outbox (platform, chat, key, payload, created_at, state, attempts, not_before, held, sending)
SELECT o.value->>'platform', o.value->>'chat', o.value->>'key', o.value->'payload', :now, :pending,
       0, 0.0, false, NULL
FROM json_array_elements(CAST(:outbox AS json)) WITH ORDINALITY AS o(value, n)
ORDER BY o.n"""
_RETURNING = " RETURNING id, chat, key, payload, attempts, not_before, sending"
#: the pending rows of chat ``:c`` after the insert, as ``sql.pending`` reads them (the statement's
#: own rows are not in the table for its other parts: they come from the insert's RETURNING)
_PENDING_AFTER_INSERT = """
SELECT q.id, q.chat, q.key, q.payload, q.attempts, q.not_before, q.sending, r.ref
FROM (
    SELECT id, chat, key, payload, attempts, not_before, sending FROM outbox
    WHERE chat = :c AND state = :pending AND NOT held
    UNION ALL
    SELECT id, chat, key, payload, attempts, not_before, sending FROM inserted WHERE chat = :c
) AS q LEFT OUTER JOIN messageref AS r ON r.chat = q.chat AND r.key = q.key
ORDER BY q.id LIMIT :limit"""
#: (with deadlines, with the read of a chat queue) -> the outbox insert
_INSERTS: dict[tuple[bool, bool], Any] = {
    (False, True): text("WITH inserted AS (" + _OUTBOX_INSERT + _RETURNING + ")" + _PENDING_AFTER_INSERT),
    (True, False): text(_DEADLINES_CTES + ", upserted AS (" + _DEADLINES_UPSERT + ")" + _OUTBOX_INSERT),
    (True, True): text(
        _DEADLINES_CTES
        + ", upserted AS ("
        + _DEADLINES_UPSERT
        + "), inserted AS ("
        + _OUTBOX_INSERT
        + _RETURNING
        + ")"
        + _PENDING_AFTER_INSERT
    ),
}


def outbox_insert(
    rows: list[dict[str, Any]],
    now: datetime,
    deadlines: tuple[int, list[dict[str, Any]]] | None,
    wanted: tuple[str, int] | None,
) -> tuple[Any, dict[str, Any]]:
    """PostgreSQL: the statement (and its parameters) that inserts the outbox ``rows`` (platform,
    chat, key, payload) made at ``now`` and, in the same round trip, makes a match's deadlines
    exactly ``deadlines`` (match id, rows) and/or reads the pending rows of ``wanted`` (chat, limit)
    as they are after the insert."""
    params: dict[str, Any] = {"outbox": json.dumps(rows), "now": now, "pending": PENDING}
    if deadlines is not None:
        params.update(deadlines_replace(*deadlines)[1])
    if wanted is not None:
        params["c"], params["limit"] = wanted
    return _INSERTS[(deadlines is not None, wanted is not None)], params


def deadlines_replace(match_id: int, rows: list[dict[str, Any]]) -> tuple[Any, dict[str, Any]]:
    """PostgreSQL: the statement (and its parameters) that makes a match's deadlines exactly ``rows``."""
    wanted = [
        {"kind": r["kind"], "due": r["due"], "version": r["version"], "seats": r["seats"]} for r in rows
    ]
    return _DEADLINES_REPLACE, {"m": match_id, "rows": json.dumps(wanted)}


def action_commit() -> Any:
    """PostgreSQL's ``commit_action`` in one statement: ``WITH b AS (UPDATE match ... WHERE id AND
    version RETURNING id)``, the action row and the snapshot upsert inserted from ``b`` (nothing
    when the version had moved on), and the count of ``b``: 1 when the action was committed."""
    m, act, snap = M, ACT, SNAP
    bumped = (
        update(m)
        .where(m.c.id == _bp("m"), m.c.version == _bp("seen"))
        .values(version=_bp("new"), updated_at=_bp("now"), status=_bp("status"))
        .returning(m.c.id)
        .cte("bumped")
    )
    stamp = DateTime(timezone=True)
    action = (
        pg_insert(act)
        .from_select(
            ["match_id", "ply", "seat", "notation", "events", "at"],
            core_select(
                bumped.c.id,
                cast(bindparam("ply", type_=Integer), Integer),
                cast(bindparam("seat", type_=Integer), Integer),
                cast(bindparam("notation", type_=String), String),
                cast(bindparam("events", type_=JSON), JSON),
                cast(bindparam("now", type_=stamp), stamp),
            ),
        )
        .cte("action")
    )
    upsert = pg_insert(snap).from_select(
        ["match_id", "version", "state"],
        core_select(
            bumped.c.id,
            cast(bindparam("new", type_=Integer), Integer),
            cast(bindparam("state", type_=JSON), JSON),
        ),
    )
    snapshot = upsert.on_conflict_do_update(
        index_elements=["match_id"],
        set_={"version": upsert.excluded.version, "state": upsert.excluded.state},
    ).cte("snapshot")
    return core_select(func.count()).select_from(bumped).add_cte(action).add_cte(snapshot)
