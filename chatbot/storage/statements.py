"""The statements of the hot paths, built once per repository (per dialect), and the compound
statements that do several writes in one round trip (issue #12, fast path).

Building a statement costs more than running it: every statement here is built once with named bind
parameters and runs on the unit's connection (Core, not the ORM: no identity map to keep in step).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    bindparam,
    case,
    delete,
    func,
    literal_column,
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
        # a match's seats with their users, as one JSON array of arrays (the order of
        # ``_SeatRow``'s fields): the seats need no round trip of their own
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

        def seats_json(match: Any) -> Any:
            return (
                core_select(packed)
                .select_from(seat.outerjoin(su, seat.c.user_id == su.c.id))
                .where(seat.c.match_id == match.c.id)
                .correlate(match)
                .scalar_subquery()
                .label("seats_json")
            )

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
            seats_json(m),
        ).select_from(m.outerjoin(snap, snap.c.match_id == m.c.id).join(r, r.c.id == m.c.room_id))
        self.matches = match_columns
        # a speaker's user, the room and its active match with its snapshot and seats, and whether
        # the speaker's private chat holds rows back (``held``), in one round trip
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
        held = (
            core_select(OUT.c.id)
            .where(OUT.c.state == PENDING, OUT.c.chat == _bp("uq"), OUT.c.held)
            .exists()
            .label("held")
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
            seats_json(cm),
            held,
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
