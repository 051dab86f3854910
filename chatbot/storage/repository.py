"""The SQLModel implementation of the core's :class:`~chatbot.core.ports.Repository` and of the
runtime's :class:`~chatbot.core.ports.RuntimeStore`.

One update is one transaction: inside :meth:`SqlRepository.unit` every method of this repository
(in that thread) uses the unit's session and only flushes; the unit commits once at its end, with
the inbound update id, the change, its outbox rows and the match's deadlines, or rolls all of it
back. Outside a unit each method is a transaction of its own. Inside a unit a match is read from the
database once and then served (and kept up to date by the unit's own writes) from the unit's cache.

Database outages and lock timeouts surface as :class:`~chatbot.core.ports.StorageUnavailable`.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
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
    event,
    func,
    inspect,
    literal_column,
    text,
    tuple_,
    update,
)
from sqlalchemy import select as core_select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.engine import Engine as SAEngine
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlmodel import Session, col, create_engine, select

from chatbot.core.ports import (
    LOBBY,
    OVER,
    RUNNING,
    ActionRec,
    Deadline,
    FinishedRec,
    MatchRec,
    OutboxRow,
    RoomRec,
    SeatRec,
    StorageUnavailable,
    UpdateSeen,
    UserRec,
    chat_of,
)
from chatbot.core.types import Outbound
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

DEFAULT_DB = Path("data") / "pelipoyta.sqlite"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: the revision that is the schema ``create_all`` made before there were migrations
FIRST_REVISION = "0001"
#: the newest migration (tests/storage/test_migrations.py holds it to Alembic's head): a database
#: already there is opened without importing Alembic (11 MB of the process, a third of its start)
HEAD_REVISION = "0005"
#: any number, the same in every worker: the key of the PostgreSQL lock around an upgrade
_UPGRADE_LOCK = 0x70656C69
PENDING, DONE, SUPERSEDED = "pending", "done", "superseded"
#: seconds an SQLite writer waits for the lock before the update is answered with an apology
SQLITE_BUSY_TIMEOUT = 5.0
#: matches whose newest action keys are kept (``SqlRepository.action_keys``)
TAIL_MEMORY = 4096
#: the same on PostgreSQL, for a row lock
LOCK_TIMEOUT_MS = 5000


def database_url(explicit: str | None = None) -> str:
    """``explicit``, else ``$DATABASE_URL``, else the embedded SQLite file ``data/pelipoyta.sqlite``."""
    url = explicit or os.environ.get("DATABASE_URL")
    if url:
        if "://" not in url:  # a plain path means an SQLite file
            Path(url).parent.mkdir(parents=True, exist_ok=True)
            return f"sqlite:///{url}"
        return url
    DEFAULT_DB.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{DEFAULT_DB}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL + synchronous=NORMAL: a committed action survives a killed process
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


#: seconds a pooled PostgreSQL connection may sit unused before it is tested as it is taken again
IDLE_PING_AFTER = 1.0


def _ping_idle(engine: SAEngine, idle_after: float = IDLE_PING_AFTER) -> None:
    """Test a pooled connection as it is taken only when it has sat unused over ``idle_after``
    seconds (a database restarted meanwhile left it dead), instead of ``pool_pre_ping``'s round
    trip at every checkout (issue #12: one per statement group of every update). A connection in
    steady use is not tested: if the database goes away under it, its statement fails, the update
    gets the outage apology and SQLAlchemy invalidates the whole pool, so the connections after
    are new ones."""

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop("idle_since", None)
        if since is None or time.monotonic() - since < idle_after:
            return
        try:
            cursor = dbapi.cursor()
            try:
                cursor.execute("SELECT 1")
            finally:
                cursor.close()
        except Exception as exc:  # the pool drops it and connects anew (up to three times)
            raise DisconnectionError(str(exc)) from exc


def _now() -> datetime:
    return datetime.now(UTC)


def alembic_config(connection: Connection | None = None) -> Any:
    """Alembic's configuration without any file: the migrations of this package, and the
    connection to run them on."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _revision(conn: Connection) -> str | None:
    """The database's Alembic revision (None: no ``alembic_version`` table, or an empty one)."""
    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: SAEngine) -> None:
    """Bring the schema to the newest migration, in one transaction.

    A database that ``create_all`` made before there were migrations has the tables but no
    ``alembic_version``: it is stamped with the first revision, not created again. On PostgreSQL
    workers that start together take turns (an advisory lock held to the commit). A database at
    :data:`HEAD_REVISION` is left as it is, without Alembic.
    """
    with engine.connect() as conn:
        if _revision(conn) == HEAD_REVISION:
            return
    from alembic import command

    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _UPGRADE_LOCK})
        config = alembic_config(conn)
        if _revision(conn) is None and inspect(conn).has_table("match"):
            command.stamp(config, FIRST_REVISION)
        command.upgrade(config, "head")


def unavailable(exc: BaseException) -> bool:
    """Whether a driver error means "the database cannot be used now" (down, unreachable, locked)
    rather than a bug in a statement."""
    if not isinstance(exc, DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    names = {c.__name__ for c in type(exc.orig).__mro__} if exc.orig is not None else set()
    module = type(exc.orig).__module__ if exc.orig is not None else ""
    message = str(exc.orig).casefold()
    if module.startswith("sqlite3"):
        return any(word in message for word in ("locked", "busy", "unable to open", "disk i/o"))
    # psycopg2: OperationalError and its kin (no connection, server gone, deadlock, lock timeout)
    return bool(names & {"OperationalError", "InterfaceError", "TransactionRollbackError"}) or any(
        word in message for word in ("could not connect", "connection", "terminating")
    )


_U, _R, _M, _SEAT, _SNAP = (
    User.__table__,  # type: ignore[attr-defined]
    Room.__table__,  # type: ignore[attr-defined]
    Match.__table__,  # type: ignore[attr-defined]
    Seat.__table__,  # type: ignore[attr-defined]
    Snapshot.__table__,  # type: ignore[attr-defined]
)
_ACT, _KV, _OUT, _CLAIM, _REF, _DL, _SEEN = (
    ActionLog.__table__,  # type: ignore[attr-defined]
    KeyValue.__table__,  # type: ignore[attr-defined]
    Outbox.__table__,  # type: ignore[attr-defined]
    ChatClaim.__table__,  # type: ignore[attr-defined]
    MessageRef.__table__,  # type: ignore[attr-defined]
    DeadlineRow.__table__,  # type: ignore[attr-defined]
    SeenUpdate.__table__,  # type: ignore[attr-defined]
)
_RES = MatchResult.__table__  # type: ignore[attr-defined]


def _bp(name: str) -> Any:
    return bindparam(name)


class _Statements:
    """The statements of the hot paths, built once per repository (per dialect) with named bind
    parameters: building a statement costs more than running it (issue #12, fast path). They run on
    the unit's connection (Core, not the ORM: no identity map to keep in step, no unit of work)."""

    def __init__(self, dialect: str) -> None:
        ins = pg_insert if dialect == "postgresql" else sqlite_insert
        u, r, m, seat, snap = _U, _R, _M, _SEAT, _SNAP
        self.seen_insert = ins(_SEEN).on_conflict_do_nothing()
        self.seen_select = core_select(_SEEN.c.key).where(
            _SEEN.c.platform == _bp("p"), _SEEN.c.key == _bp("k")
        )
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
                pg_insert(_SEEN)
                .values(platform=_bp("sp"), key=_bp("sk"), at=_bp("sa"))
                .on_conflict_do_nothing()
                .returning(_SEEN.c.key)
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
        self.action_insert = _ACT.insert()
        snap_upsert = ins(snap)
        self.snapshot_upsert = snap_upsert.on_conflict_do_update(
            index_elements=["match_id"],
            set_={"version": snap_upsert.excluded.version, "state": snap_upsert.excluded.state},
        )
        self.actions_since = (
            core_select(_ACT.c.ply, _ACT.c.seat, _ACT.c.notation, _ACT.c.events)
            .where(_ACT.c.match_id == _bp("m"), _ACT.c.ply > _bp("since"))
            .order_by(_ACT.c.ply)
        )
        self.action_keys_since = (
            core_select(_ACT.c.ply, _ACT.c.seat, _ACT.c.notation)
            .where(_ACT.c.match_id == _bp("m"), _ACT.c.ply > _bp("since"))
            .order_by(_ACT.c.ply)
        )
        self.action_commit = _action_commit() if dialect == "postgresql" else None
        self.meta_of = core_select(m.c.meta).where(m.c.id == _bp("i"))
        self.meta_set = update(m).where(m.c.id == _bp("i")).values(meta=_bp("mv"))
        self.kv_get = core_select(_KV.c.value).where(_KV.c.namespace == _bp("n"), _KV.c.key == _bp("k"))
        kv_upsert = ins(_KV)
        self.kv_upsert = kv_upsert.on_conflict_do_update(
            index_elements=["namespace", "key"], set_={"value": kv_upsert.excluded.value}
        )
        o = _OUT
        self.outbox_insert = o.insert()
        self.outbox_hold = (
            update(o).where(o.c.chat == _bp("c"), o.c.state == PENDING, ~o.c.held).values(held=True)
        )
        self.outbox_unhold = (
            update(o).where(o.c.chat == _bp("c"), o.c.state == PENDING, o.c.held).values(held=False)
        )
        others = core_select(_CLAIM.c.chat).where(_CLAIM.c.until >= _bp("now"), _CLAIM.c.worker != _bp("me"))
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
        claim = ins(_CLAIM)
        self.claim_upsert = claim.on_conflict_do_update(
            index_elements=["chat"],
            set_={"worker": claim.excluded.worker, "until": claim.excluded.until},
            where=(_CLAIM.c.until < _bp("w_now")) | (_CLAIM.c.worker == _bp("w_me")),
        )
        self.pending = (
            core_select(
                o.c.id, o.c.chat, o.c.key, o.c.payload, o.c.attempts, o.c.not_before, o.c.sending, _REF.c.ref
            )
            .select_from(o.outerjoin(_REF, (_REF.c.chat == o.c.chat) & (_REF.c.key == o.c.key)))
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
        ref = ins(_REF)
        self.ref_upsert = ref.on_conflict_do_update(
            index_elements=["chat", "key"], set_={"ref": ref.excluded.ref}
        )
        self.ref_of = core_select(_REF.c.ref).where(_REF.c.chat == _bp("c"), _REF.c.key == _bp("k"))
        self.outbox_later = (
            update(o).where(o.c.id == _bp("i")).values(not_before=_bp("nb"), attempts=o.c.attempts + 1)
        )
        self.claim_release = delete(_CLAIM).where(_CLAIM.c.chat == _bp("c"), _CLAIM.c.worker == _bp("me"))
        self.deadlines_delete = delete(_DL).where(_DL.c.match_id == _bp("m"))
        self.deadlines_insert = _DL.insert()
        self.next_due = core_select(func.min(_DL.c.due))
        self._bumps: dict[tuple[str, ...], Any] = {}

    def bump(self, names: tuple[str, ...]) -> Any:
        """``UPDATE match SET version, updated_at, <names> WHERE id AND version`` (one per set of names)."""
        stmt = self._bumps.get(names)
        if stmt is None:
            stmt = (
                update(_M)
                .where(_M.c.id == _bp("m"), _M.c.version == _bp("seen"))
                .values(version=_bp("new"), updated_at=_bp("now"), **{n: _bp("v_" + n) for n in names})
            )
            self._bumps[names] = stmt
        return stmt


@dataclass
class _Unit:
    """The open transaction of one update, and what it has read (a match is loaded once)."""

    session: Session
    matches: dict[int, MatchRec] = field(default_factory=dict)
    users: dict[int, UserRec] = field(default_factory=dict)
    rooms: dict[int, RoomRec] = field(default_factory=dict)
    #: user id -> ids of their open matches (forgotten whenever seats change in the unit)
    user_matches: dict[int, list[int]] = field(default_factory=dict)
    #: the earliest due time of the deadlines stored in the unit (None: none stored)
    earliest_due: float | None = None
    #: the outbox rows the unit queued (for the thread's ``committing`` hook)
    queued: list[Outbound] = field(default_factory=list)
    #: ids of outbox rows read in the unit (forgotten again when it rolls back: SQLite reuses ids)
    read_rows: list[int] = field(default_factory=list)
    #: PostgreSQL: the inbound update id (platform, key) to record with the unit's first statement
    #: (``context`` takes it along: one round trip for both); a redelivery raises UpdateSeen
    seen: tuple[str, str] | None = None
    #: PostgreSQL: match id -> its deadline rows, written with the unit's next statement (the
    #: outbox rows' insert takes them along: one round trip for both)
    deadline_writes: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    #: PostgreSQL: (chat, limit, rows) read by the unit's outbox insert, as ``outbox_pending`` would
    #: read them now (the ``committing`` hook's read ahead then needs no statement of its own)
    ahead: tuple[str, int, list[Any]] | None = None
    #: match id -> (its version after the unit's newest action, that action's key)
    acted: dict[int, tuple[int, tuple[int, int, str]]] = field(default_factory=dict)
    #: ids of the matches whose version the unit raised (an action, new seats, a start)
    bumped: set[int] = field(default_factory=set)
    #: action key tails to keep once the unit has committed (see ``SqlRepository.action_keys``)
    tails: dict[int, tuple[int, int, tuple[tuple[int, int, str], ...]]] = field(default_factory=dict)


class SqlRepository:
    """Repository over any SQLAlchemy URL; brings the schema up to date on first use."""

    def __init__(self, url: str | None = None) -> None:
        self.url = database_url(url)
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT}
        else:
            # a statement that waits longer than this for a row lock fails (an apology, not a hang)
            kwargs["connect_args"] = {"connect_timeout": 5, "options": f"-c lock_timeout={LOCK_TIMEOUT_MS}"}
            # the connection used last is taken again (not the one that sat unused longest): it is
            # rarely idle long enough to be tested first (``_ping_idle``), and its server process is warm
            kwargs["pool_use_lifo"] = True
        self.engine: SAEngine = create_engine(self.url, **kwargs)
        self.dialect = self.engine.dialect.name
        self.sql = _Statements(self.dialect)
        if self.dialect == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            # after an outage the pooled connections are dead: test those that sat unused
            _ping_idle(self.engine)
        self._local = threading.local()
        #: what ``outbox_pending`` read along (the chat and key of each row, the refs of the keys), so
        #: that delivering a row needs no read; only the chat's one sender uses them
        self._row_keys: dict[int, tuple[str, str | None]] = {}
        self._refs: dict[str, dict[str, str | None]] = {}
        #: match id -> (version, floor, keys): the (ply, seat, notation) of every action after ply
        #: ``floor`` at that version, as committed (``action_keys`` without a query)
        self._tails: OrderedDict[int, tuple[int, int, tuple[tuple[int, int, str], ...]]] = OrderedDict()
        self._tails_lock = threading.Lock()
        #: workers whose own leftover deadline claims ``due_deadlines`` has taken back
        self._started: set[str] = set()
        try:
            upgrade(self.engine)
        except DBAPIError as exc:
            if unavailable(exc):
                raise StorageUnavailable(str(exc.orig)) from exc
            raise

    # --- transactions ---------------------------------------------------------------------------
    def _unit(self) -> _Unit | None:
        unit: _Unit | None = getattr(self._local, "unit", None)
        return unit

    @contextmanager
    def unit(self, update: tuple[str, str] | None = None) -> Iterator[bool]:
        """One transaction for everything the block does through this repository in this thread.

        With ``update`` (platform, key) the inbound id is recorded first; the block gets False when it
        was recorded before (a redelivery: do nothing) and its writes are then discarded. On
        PostgreSQL it is recorded with the block's first statement instead (``context`` reads the
        speaker's context in the same round trip), which raises UpdateSeen for a redelivery. An exception
        rolls everything back. A unit inside a unit joins the outer one.

        A unit that queued outbox rows calls this thread's ``committing`` hook with them right
        before its commit, inside the transaction, and what the hook returned after the commit."""
        if self._unit() is not None:
            yield True
            return
        try:
            with Session(self.engine, expire_on_commit=False) as session:
                unit = self._local.unit = _Unit(session)
                try:
                    fresh = True
                    if update is not None and self.sql.context_seen is not None:
                        # PostgreSQL: recorded with the unit's first statement (UpdateSeen then)
                        unit.seen = update
                    elif update is not None:
                        # the first statement writes: on SQLite the transaction holds the write lock
                        # from here, so it never has to upgrade a read snapshot later
                        fresh = self._record_update(session.connection(), *update)
                    yield fresh
                    if fresh:
                        self._write_held(unit, session.connection())
                        hook = getattr(self._local, "hook", None)
                        after = hook(unit.queued) if hook is not None and unit.queued else None
                        session.commit()
                        if unit.tails:
                            self._keep_tails(unit.tails)
                        if after is not None:
                            after()
                    else:
                        session.rollback()
                except BaseException:
                    session.rollback()
                    for row_id in unit.read_rows:
                        self._row_keys.pop(row_id, None)
                    raise
                finally:
                    self._local.unit = None
        except DBAPIError as exc:
            if unavailable(exc):
                raise StorageUnavailable(str(exc.orig)) from exc
            raise

    @contextmanager
    def committing(
        self,
        hook: Callable[[list[Outbound]], Callable[[], None] | None],
        wants: Callable[[Sequence[Outbound]], tuple[str, int] | None] | None = None,
    ) -> Iterator[None]:
        """While the block runs, a unit of this thread that queued outbox rows calls ``hook(rows)``
        inside its transaction, right before the commit (the runtime reads the first answer's chat
        queue there: no transaction of its own after the commit, issue #12), and the callable the
        hook returned once the commit has succeeded. Nothing is called for a unit that rolls back.

        ``wants(outs)``, asked as a unit queues ``outs``, may name a chat queue (and a limit) that
        the hook will read: on PostgreSQL the statement that inserts the rows reads it along."""
        before = getattr(self._local, "hook", None), getattr(self._local, "wants", None)
        self._local.hook, self._local.wants = hook, wants
        try:
            yield
        finally:
            self._local.hook, self._local.wants = before

    def _record_update(self, c: Connection, platform: str, key: str) -> bool:
        values = {"platform": platform, "key": key, "at": _now()}
        return bool(c.execute(self.sql.seen_insert, values).rowcount == 1)

    def _write_held(self, unit: _Unit, c: Connection) -> None:
        """What the unit holds back for its next statement (PostgreSQL: the update id, the deadline
        rows), written now: the next statement is not one that takes them along."""
        if unit.seen is not None:
            self._record_seen(unit, c)
        if unit.deadline_writes:
            self._write_deadlines(unit, c)

    def _record_seen(self, unit: _Unit, c: Connection) -> None:
        """The unit's update id, not taken along by a ``context`` read: recorded now."""
        seen, unit.seen = unit.seen, None
        if seen is not None and not self._record_update(c, *seen):
            raise UpdateSeen(f"update {seen[1]} of {seen[0]} was handled before")

    def _insert(self, table: Any) -> Any:
        return (pg_insert if self.dialect == "postgresql" else sqlite_insert)(table)

    @contextmanager
    def _session(self) -> Iterator[Session]:
        """The unit's session inside a unit, else a session of its own; driver errors of an outage
        become StorageUnavailable."""
        unit = self._unit()
        if unit is not None:
            self._write_held(unit, unit.session.connection())
            yield unit.session  # unit errors are mapped where the unit ends
            return
        try:
            with Session(self.engine, expire_on_commit=False) as session:
                yield session
        except DBAPIError as exc:
            if unavailable(exc):
                raise StorageUnavailable(str(exc.orig)) from exc
            raise

    @contextmanager
    def _conn(self) -> Iterator[Connection]:
        """The unit's connection inside a unit, else a transaction of its own (committed at the end
        of the block); driver errors of an outage become StorageUnavailable."""
        unit = self._unit()
        if unit is not None:
            c = unit.session.connection()
            self._write_held(unit, c)
            yield c  # unit errors are mapped where the unit ends
            return
        try:
            with self.engine.begin() as conn:
                yield conn
        except DBAPIError as exc:
            if unavailable(exc):
                raise StorageUnavailable(str(exc.orig)) from exc
            raise

    def _done(self, s: Session) -> None:
        """The end of a write: commit, or inside a unit only flush (the unit commits)."""
        if self._unit() is None:
            s.commit()
        else:
            s.flush()

    def _cached(self, rec: MatchRec) -> MatchRec:
        unit = self._unit()
        if unit is not None:
            unit.matches[rec.id] = rec
        return rec

    def _refresh(self, match_id: int, **changes: Any) -> None:
        """Keep the unit's copy of a match equal to what its own writes made of it."""
        unit = self._unit()
        if unit is not None and "version" in changes:
            unit.bumped.add(match_id)
        if unit is not None and match_id in unit.matches:
            unit.matches[match_id] = replace(unit.matches[match_id], **changes)

    # --- users and rooms ------------------------------------------------------------------------
    def user(self, platform: str, ext_id: str, name: str) -> UserRec:
        with self._conn() as c:
            row = c.execute(self.sql.user_by_ext, {"p": platform, "e": ext_id}).first()
            if row is None:
                values = {"platform": platform, "ext_id": ext_id, "name": name, "created_at": _now()}
                new_id = _new_id(c.execute(self.sql.user_insert, values))
                return self._user_cached(
                    UserRec(id=new_id, platform=platform, ext_id=ext_id, name=name, lang=None)
                )
            rec = _user(row)
            if name and rec.name != name:
                c.execute(self.sql.user_rename, {"i": rec.id, "n": name})
                rec = replace(rec, name=name)
            return self._user_cached(rec)

    def context(
        self, platform: str, ext_id: str, name: str, chat: str | None
    ) -> tuple[UserRec, RoomRec | None]:
        """``user(platform, ext_id, name)`` and, for a group message, ``room(platform, chat)``, with
        the room's active match and its seats (with their users, as JSON) read into the unit
        (``active_match`` then needs no query): one round trip for all of it (issue #12: a typed
        move's first answer on PostgreSQL). Someone or a room met the first time is created as usual."""
        unit = self._unit()
        seen = unit.seen if unit is not None else None
        if unit is not None:
            unit.seen = None  # recorded by this statement
        with self._conn() as c:
            if seen is not None:  # only set where ``context_seen`` exists (PostgreSQL)
                assert self.sql.context_seen is not None
                params = {"p": platform, "e": ext_id, "c": chat, "sp": seen[0], "sk": seen[1], "sa": _now()}
                row = c.execute(self.sql.context_seen, params).first()
                if row is None or not row.fresh:
                    raise UpdateSeen(f"update {seen[1]} of {seen[0]} was handled before")
            else:
                row = c.execute(self.sql.context, {"p": platform, "e": ext_id, "c": chat}).first()
            if row is None or row.u_id is None:
                user = self.user(platform, ext_id, name)
            else:
                user = UserRec(
                    id=row.u_id, platform=platform, ext_id=ext_id, name=row.u_name, lang=row.u_lang
                )
                if name and user.name != name:
                    c.execute(self.sql.user_rename, {"i": user.id, "n": name})
                    user = replace(user, name=name)
                self._user_cached(user)
            if chat is None:
                return user, None
            if row is None or row.r_id is None:
                return user, self.room(platform, chat)
            room = self._room_cached(RoomRec(id=row.r_id, platform=platform, ext_id=chat, lang=row.r_lang))
            if row.id is not None:
                unit = self._unit()
                if unit is not None and row.id not in unit.matches:
                    self._match_recs(c, [_ContextRow(row, room)], _seats_json(row.seats_json))
            return user, room

    def _user_cached(self, rec: UserRec) -> UserRec:
        unit = self._unit()
        if unit is not None:
            unit.users[rec.id] = rec
        return rec

    def find_user(self, platform: str, ext_id: str) -> UserRec | None:
        """The user, or None for someone the bot has never met (nothing is created)."""
        with self._conn() as c:
            row = c.execute(self.sql.user_by_ext, {"p": platform, "e": ext_id}).first()
            return self._user_cached(_user(row)) if row else None

    def user_by_id(self, user_id: int) -> UserRec:
        unit = self._unit()
        if unit is not None and user_id in unit.users:
            return unit.users[user_id]
        with self._conn() as c:
            row = c.execute(self.sql.user_by_id, {"i": user_id}).first()
            assert row is not None
            return self._user_cached(_user(row))

    def set_user_lang(self, user_id: int, lang: str) -> None:
        with self._session() as s:
            s.exec(update(User).where(col(User.id) == user_id).values(lang=lang))
            self._done(s)
        unit = self._unit()
        if unit is not None and user_id in unit.users:
            unit.users[user_id] = replace(unit.users[user_id], lang=lang)

    def room(self, platform: str, ext_id: str) -> RoomRec:
        with self._conn() as c:
            row = c.execute(self.sql.room_by_ext, {"p": platform, "e": ext_id}).first()
            if row is None:
                values = {"platform": platform, "ext_id": ext_id, "created_at": _now()}
                new_id = _new_id(c.execute(self.sql.room_insert, values))
                return self._room_cached(RoomRec(id=new_id, platform=platform, ext_id=ext_id, lang=None))
            return self._room_cached(_room(row))

    def _room_cached(self, rec: RoomRec) -> RoomRec:
        unit = self._unit()
        if unit is not None:
            unit.rooms[rec.id] = rec
        return rec

    def room_by_id(self, room_id: int) -> RoomRec:
        unit = self._unit()
        if unit is not None and room_id in unit.rooms:
            return unit.rooms[room_id]
        with self._conn() as c:
            row = c.execute(self.sql.room_by_id, {"i": room_id}).first()
            assert row is not None
            return self._room_cached(_room(row))

    def rooms_in(self, platform: str, chat: str) -> list[RoomRec]:
        """The rooms of one platform chat: the chat itself and each of its forum topics (``<chat>:<topic>``)."""
        with self._session() as s:
            rows = s.exec(
                select(Room).where(
                    Room.platform == platform,
                    (col(Room.ext_id) == chat) | col(Room.ext_id).startswith(f"{chat}:", autoescape=True),
                )
            ).all()
            return [self._room_cached(_room(r)) for r in rows]

    def move_room(self, platform: str, old_ext: str, new_ext: str) -> RoomRec | None:
        """The chat ``old_ext`` became ``new_ext`` (a Telegram group upgraded to a supergroup): its
        room, its matches and its undelivered messages move there, and the messages of the old chat
        are forgotten (they cannot be edited from the new one). None when there is nothing (any more)
        at ``old_ext``: a second notice of the same move does nothing."""
        old_chat, new_chat = f"{platform}:g:{old_ext}", f"{platform}:g:{new_ext}"
        self._refs.pop(old_chat, None)
        self._refs.pop(new_chat, None)
        for row_id, (chat, key) in list(self._row_keys.items()):  # rows this process is sending now
            if chat == old_chat:
                self._row_keys[row_id] = (new_chat, key)
        with self._session() as s:
            old = s.exec(select(Room).where(Room.platform == platform, Room.ext_id == old_ext)).first()
            if old is None:
                return None
            new = s.exec(select(Room).where(Room.platform == platform, Room.ext_id == new_ext)).first()
            if new is None:
                old.ext_id = new_ext
                s.add(old)
                room = old
            else:  # somebody wrote in the new chat first: one room, with the old one's matches
                s.exec(update(Match).where(col(Match.room_id) == old.id).values(room_id=new.id))
                if new.lang is None:
                    new.lang = old.lang
                    s.add(new)
                s.flush()
                s.delete(old)
                room = new
            for row in s.exec(
                select(Outbox).where(col(Outbox.chat) == old_chat, col(Outbox.state) == PENDING)
            ).all():
                row.chat = new_chat
                row.payload = {**row.payload, "chat_id": new_ext}
                s.add(row)
            s.exec(delete(MessageRef).where(col(MessageRef.chat) == old_chat))
            self._done(s)
            unit = self._unit()
            if unit is not None:
                unit.rooms.pop(old.id or 0, None)
                for mid, rec in list(unit.matches.items()):
                    if rec.room_id == old.id:
                        unit.matches[mid] = replace(rec, room_id=room.id or rec.room_id)
            return self._room_cached(_room(room))

    def set_room_lang(self, room_id: int, lang: str) -> None:
        with self._session() as s:
            s.exec(update(Room).where(col(Room.id) == room_id).values(lang=lang))
            self._done(s)
        unit = self._unit()
        if unit is not None and room_id in unit.rooms:
            unit.rooms[room_id] = replace(unit.rooms[room_id], lang=lang)

    # --- matches ----------------------------------------------------------------------------
    def _match_recs(
        self, c: Connection, rows: Sequence[Any], read_seats: Sequence[Any] | None = None
    ) -> list[MatchRec]:
        """Records of the given rows of ``sql.matches``, their seats (with the seated users) in one
        more query (or ``read_seats``, the one row's seats read along); the rooms and users go to
        the unit's cache."""
        if not rows:
            return []
        seats: dict[int, list[SeatRec]] = {}
        found = (
            c.execute(self.sql.seats_of, {"ids": [r.id for r in rows]})
            if read_seats is None
            else [_SeatRow(rows[0].id, *fields) for fields in read_seats]
        )
        for seat in found:
            seats.setdefault(seat.match_id, []).append(
                SeatRec(seat=seat.seat, name=seat.name, user_id=seat.user_id, ai=seat.ai)
            )
            if seat.user_id is not None:
                self._user_cached(
                    UserRec(
                        id=seat.user_id,
                        platform=seat.user_platform,
                        ext_id=seat.user_ext_id,
                        name=seat.user_name,
                        lang=seat.user_lang,
                    )
                )
        out = []
        for row in rows:
            self._room_cached(
                RoomRec(
                    id=row.room_id, platform=row.room_platform, ext_id=row.room_ext_id, lang=row.room_lang
                )
            )
            rec = MatchRec(
                id=row.id,
                room_id=row.room_id,
                game=row.game,
                options=dict(row.options or {}),
                seed=row.seed,
                version=row.version,
                status=row.status,
                state=dict(row.state) if row.state is not None else None,
                host_user_id=row.host_user_id,
                seats=tuple(seats.get(row.id, ())),
                meta=dict(row.meta or {}),
            )
            out.append(self._cached(rec))
        return out

    def _select_matches(self, stmt: Any, params: dict[str, Any] | None = None) -> list[MatchRec]:
        with self._conn() as c:
            return self._match_recs(c, c.execute(stmt, params or {}).all())

    def active_match(self, room_id: int) -> MatchRec | None:
        unit = self._unit()
        if unit is not None:
            for rec in unit.matches.values():
                if rec.room_id == room_id and rec.status in {LOBBY, RUNNING}:
                    return rec
        recs = self._select_matches(self.sql.active_match, {"room": room_id})
        return recs[0] if recs else None

    def match(self, match_id: int) -> MatchRec | None:
        unit = self._unit()
        if unit is not None and match_id in unit.matches:
            return unit.matches[match_id]
        recs = self._select_matches(self.sql.match_by_id, {"i": match_id})
        return recs[0] if recs else None

    def running_matches(self) -> list[MatchRec]:
        return self._select_matches(self.sql.matches.where(_M.c.status == RUNNING).order_by(_M.c.id))

    def running_versions(self) -> list[tuple[int, int]]:
        """(id, version) of every running match, without loading seats or snapshots."""
        with self._session() as s:
            rows = s.exec(select(Match.id, Match.version).where(Match.status == RUNNING)).all()
            return [(int(i), int(v)) for i, v in rows if i is not None]

    def matches_without_deadlines(self) -> list[MatchRec]:
        """Running matches that have no deadline at all (made before deadlines were stored)."""
        has = core_select(_DL.c.match_id).where(_DL.c.match_id == _M.c.id)
        return self._select_matches(
            self.sql.matches.where(_M.c.status == RUNNING, ~has.exists()).order_by(_M.c.id)
        )

    def matches_of_user(self, user_id: int) -> list[MatchRec]:
        unit = self._unit()
        if unit is not None and user_id in unit.user_matches:
            recs = [unit.matches.get(i) for i in unit.user_matches[user_id]]
            if all(r is not None for r in recs):
                return [r for r in recs if r is not None and r.status in {LOBBY, RUNNING}]
        found = self._matches_of_user(user_id)
        if unit is not None:
            unit.user_matches[user_id] = [r.id for r in found]
        return found

    def _matches_of_user(self, user_id: int) -> list[MatchRec]:
        return self._select_matches(self.sql.matches_of_user, {"u": user_id})

    def create_match(
        self,
        room_id: int,
        game: str,
        options: dict[str, Any],
        seed: str,
        host_user_id: int | None,
        seats: tuple[SeatRec, ...],
    ) -> MatchRec:
        with self._conn() as c:
            now = _now()
            values = {
                "room_id": room_id,
                "game": game,
                "options": dict(options),
                "seed": seed,
                "version": 0,
                "status": LOBBY,
                "host_user_id": host_user_id,
                "meta": {},
                "created_at": now,
                "updated_at": now,
            }
            match_id = _new_id(c.execute(self.sql.match_insert, values))
            self._write_seats(c, match_id, seats, fresh=True)
            rec = MatchRec(
                id=match_id,
                room_id=room_id,
                game=game,
                options=dict(options),
                seed=seed,
                version=0,
                status=LOBBY,
                state=None,
                host_user_id=host_user_id,
                seats=tuple(seats),
                meta={},
            )
            return self._cached(rec)

    def _write_seats(
        self, c: Connection, match_id: int, seats: tuple[SeatRec, ...], fresh: bool = False
    ) -> None:
        unit = self._unit()
        if unit is not None:
            unit.user_matches.clear()
        if not fresh:
            c.execute(self.sql.seats_delete, {"m": match_id})
        if seats:
            c.execute(
                self.sql.seats_insert,
                [
                    {"match_id": match_id, "seat": x.seat, "name": x.name, "user_id": x.user_id, "ai": x.ai}
                    for x in seats
                ],
            )

    def _bump(self, c: Connection, match_id: int, seen_version: int, **values: Any) -> bool:
        names = tuple(sorted(values))
        params = {"m": match_id, "seen": seen_version, "new": seen_version + 1, "now": _now()}
        params.update({"v_" + n: values[n] for n in names})
        result = c.execute(self.sql.bump(names), params)
        return bool(result.rowcount == 1)

    def update_lobby(
        self,
        match_id: int,
        seen_version: int,
        seats: tuple[SeatRec, ...],
        status: str = LOBBY,
        options: dict[str, Any] | None = None,
    ) -> bool:
        with self._conn() as c:
            values: dict[str, Any] = {"status": status}
            if options is not None:
                values["options"] = dict(options)
            if not self._bump(c, match_id, seen_version, **values):
                return False  # nothing written
            self._write_seats(c, match_id, seats)
        self._refresh(match_id, version=seen_version + 1, seats=tuple(seats), **values)
        return True

    def start_match(
        self, match_id: int, seen_version: int, seats: tuple[SeatRec, ...], state: dict[str, Any], seed: str
    ) -> bool:
        with self._conn() as c:
            if not self._bump(c, match_id, seen_version, status=RUNNING, seed=seed):
                return False
            self._write_seats(c, match_id, seats)
            self._write_snapshot(c, match_id, seen_version + 1, state)
        self._refresh(
            match_id, version=seen_version + 1, status=RUNNING, seed=seed, seats=tuple(seats), state=state
        )
        return True

    def _write_snapshot(self, c: Connection, match_id: int, version: int, state: dict[str, Any]) -> None:
        c.execute(self.sql.snapshot_upsert, {"match_id": match_id, "version": version, "state": state})

    def commit_action(
        self,
        match_id: int,
        seen_version: int,
        seat: int,
        notation: str,
        events: list[Any],
        state: dict[str, Any],
        status: str,
        seats: tuple[SeatRec, ...] | None = None,
    ) -> bool:
        """Action row, new snapshot and version bump in one transaction, or nothing at all."""
        with self._conn() as c:
            ply = int(state.get("ply", seen_version + 1))
            if self.sql.action_commit is not None and seats is None:
                # PostgreSQL: the version bump, the action and the snapshot in one statement (one
                # round trip instead of three; the action and the snapshot only if the bump took)
                params = {
                    "m": match_id,
                    "seen": seen_version,
                    "new": seen_version + 1,
                    "now": _now(),
                    "status": status,
                    "ply": ply,
                    "seat": seat,
                    "notation": notation,
                    "events": list(events),
                    "state": state,
                }
                if not c.execute(self.sql.action_commit, params).scalar_one():
                    return False
                self._refresh(match_id, version=seen_version + 1, status=status, state=state)
                self._acted(match_id, seen_version + 1, (ply, seat, notation))
                return True
            if not self._bump(c, match_id, seen_version, status=status):
                return False
            action = {
                "match_id": match_id,
                "ply": ply,
                "seat": seat,
                "notation": notation,
                "events": list(events),
                "at": _now(),
            }
            c.execute(self.sql.action_insert, action)
            self._write_snapshot(c, match_id, seen_version + 1, state)
            if seats is not None:
                self._write_seats(c, match_id, seats)
        changes: dict[str, Any] = {"version": seen_version + 1, "status": status, "state": state}
        if seats is not None:
            changes["seats"] = tuple(seats)
        self._refresh(match_id, **changes)
        self._acted(match_id, seen_version + 1, (ply, seat, notation))
        return True

    def _acted(self, match_id: int, version: int, key: tuple[int, int, str]) -> None:
        unit = self._unit()
        if unit is not None:
            unit.acted[match_id] = (version, key)

    def actions(self, match_id: int, since_ply: int = 0) -> list[ActionRec]:
        with self._conn() as c:
            rows = c.execute(self.sql.actions_since, {"m": match_id, "since": since_ply})
            return [
                ActionRec(ply=r.ply, seat=r.seat, notation=r.notation, events=list(r.events)) for r in rows
            ]

    def action_keys(self, match_id: int, since_ply: int = 0) -> list[tuple[int, int, str]]:
        """(ply, seat, notation) of the actions after ``since_ply``: ``actions`` without the events.

        Inside a unit the answer is kept per version of the match (issue #12, fast path: a table
        is rendered after every action): after the unit's own action (version v+1, the match row
        locked by its bump) the keys are those kept for version v plus that action, with no query;
        a query there is exact for v+1 and is kept too. What a unit keeps is kept only once it has
        committed; a version this process did not make (another worker's) is read again."""
        unit = self._unit()
        acted = None
        if unit is not None:
            acted = unit.acted.get(match_id)
            known = self._known_tail(unit, match_id, acted[0] if acted else None)
            if known is not None and known[0] == (acted[0] if acted else known[0]) and known[1] <= since_ply:
                return [k for k in known[2] if k[0] > since_ply]
            if acted is not None:
                version, key = acted
                if (
                    known is not None
                    and known[0] == version - 1
                    and known[1] <= since_ply
                    and key[0] > since_ply
                ):
                    keys = (*(k for k in known[2] if k[0] > since_ply), key)
                    unit.tails[match_id] = (version, since_ply, keys)
                    return list(keys)
        with self._conn() as c:
            rows = c.execute(self.sql.action_keys_since, {"m": match_id, "since": since_ply})
            found = [(int(r.ply), int(r.seat), str(r.notation)) for r in rows]
        if unit is not None and acted is not None:
            unit.tails[match_id] = (acted[0], since_ply, tuple(found))
        return found

    def _known_tail(
        self, unit: _Unit, match_id: int, acted_version: int | None
    ) -> tuple[int, int, tuple[tuple[int, int, str], ...]] | None:
        """The newest key tail of the match this unit may use: its own (made after its action), else
        the committed one when it is of the version the unit read (or acted upon)."""
        own = unit.tails.get(match_id)
        if own is not None:
            return own
        with self._tails_lock:
            kept = self._tails.get(match_id)
        if kept is None:
            return None
        if acted_version is None:
            rec = unit.matches.get(match_id)
            if rec is None or rec.version != kept[0]:
                return None
        return kept

    def _keep_tails(self, tails: dict[int, tuple[int, int, tuple[tuple[int, int, str], ...]]]) -> None:
        with self._tails_lock:
            for match_id, tail in tails.items():
                self._tails[match_id] = tail
                self._tails.move_to_end(match_id)
            while len(self._tails) > TAIL_MEMORY:
                self._tails.popitem(last=False)

    def set_meta(self, match_id: int, key: str, value: Any) -> None:
        with self._conn() as c:
            old = c.execute(self.sql.meta_of, {"i": match_id}).scalar_one()
            meta = {**(old or {}), key: value}
            c.execute(self.sql.meta_set, {"i": match_id, "mv": meta})
        self._refresh(match_id, meta=meta)

    # --- results of finished matches (issue #16) ---------------------------------------------
    def finished_matches(
        self, room_id: int | None = None, user_id: int | None = None, limit: int | None = None
    ) -> list[FinishedRec]:
        """Finished matches, the latest first: of one room, of one user (a seat of theirs, in any
        room), or all; only what statistics and history read (two queries, however many matches)."""
        m, res, seat = _M, _RES, _SEAT
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
        with self._conn() as c:
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
        stmt = self._insert(_RES)
        stmt = stmt.on_conflict_do_update(
            index_elements=["match_id"],
            set_={"finished_at": stmt.excluded.finished_at, "result": stmt.excluded.result},
        )
        with self._conn() as c:
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
        with self._conn() as c:
            return c.execute(self.sql.kv_get, {"n": namespace, "k": key}).scalar()

    def kv_set(self, namespace: str, key: str, value: Any) -> None:
        with self._conn() as c:
            c.execute(self.sql.kv_upsert, {"namespace": namespace, "key": key, "value": value})

    # --- who is who (issue #27): the members a room has seen, one key each -----------------------
    def kv_items(self, namespace: str, limit: int = 1000) -> dict[str, Any]:
        """Every key of ``namespace`` with its value (at most ``limit``, in key order)."""
        stmt = (
            core_select(_KV.c.key, _KV.c.value)
            .where(_KV.c.namespace == namespace)
            .order_by(_KV.c.key)
            .limit(limit)
        )
        with self._conn() as c:
            return {str(row.key): row.value for row in c.execute(stmt)}

    # --- the outbox ----------------------------------------------------------------------------
    def outbox_add(self, outs: Sequence[Outbound]) -> None:
        """Queue messages for delivery, in this order (one statement however many)."""
        if not outs:
            return
        now = _now()
        rows = [
            {"platform": o.platform, "chat": chat_of(o), "key": o.key, "payload": o.to_json()} for o in outs
        ]
        unit = self._unit()
        if unit is not None:
            unit.queued.extend(outs)
            unit.ahead = None
            if self.dialect == "postgresql":
                # the match's deadlines, set while its messages were made, go in the same statement,
                # and so does the read of the chat queue the runtime reads ahead (one round trip)
                wants = getattr(self._local, "wants", None)
                wanted = wants(outs) if wants is not None else None
                deadlines = None
                if len(unit.deadline_writes) == 1:
                    ((match_id, deadline_rows),) = unit.deadline_writes.items()
                    unit.deadline_writes.clear()
                    deadlines = (match_id, deadline_rows)
                if deadlines is not None or wanted is not None:
                    stmt, params = _outbox_insert(rows, now, deadlines, wanted)
                    with self._conn() as c:
                        result = c.execute(stmt, params)
                        if wanted is not None:
                            unit.ahead = (wanted[0], wanted[1], list(result))
                    return
        fresh = {"created_at": now, "state": PENDING, "attempts": 0, "not_before": 0.0, "held": False}
        with self._conn() as c:
            c.execute(self.sql.outbox_insert, [{**row, **fresh} for row in rows])

    def outbox_hold(self, chat: str) -> int:
        """Keep a chat's pending rows back (a private chat the user has not opened yet)."""
        self._forget_ahead()
        with self._conn() as c:
            return int(c.execute(self.sql.outbox_hold, {"c": chat}).rowcount)

    def outbox_unhold(self, chat: str) -> int:
        """Release a chat's held rows (the user opened it); how many there were."""
        self._forget_ahead()
        with self._conn() as c:
            return int(c.execute(self.sql.outbox_unhold, {"c": chat}).rowcount)

    def outbox_claim(self, platform: str, worker: str, now: float, lease: float, limit: int) -> list[str]:
        """Chats with something to send now that no other worker is sending (a lease until
        ``now + lease``), freshest first. The claim is an upsert guarded by the lease's end, atomic on
        both databases (PostgreSQL waits on a row another claim holds and then re-checks)."""
        with self._conn() as c:
            found = c.execute(
                self.sql.claimable, {"platform": platform, "now": now, "me": worker, "limit": limit}
            ).scalars()
            claimed = []
            for chat in list(found):
                params = {"chat": chat, "worker": worker, "until": now + lease, "w_now": now, "w_me": worker}
                if c.execute(self.sql.claim_upsert, params).rowcount == 1:
                    claimed.append(chat)
            return claimed

    def outbox_claim_chats(self, chats: Sequence[str], worker: str, now: float, lease: float) -> list[str]:
        """Claim these chats (those no other worker is sending), whatever they hold: the chats of
        an update just committed, claimed at once instead of by the next claim round's search
        over every chat's pending rows (after a restart with a backlog, that search and its wait
        were most of a new command's time to its answer)."""
        with self._conn() as c:
            claimed = []
            for chat in chats:
                params = {"chat": chat, "worker": worker, "until": now + lease, "w_now": now, "w_me": worker}
                if c.execute(self.sql.claim_upsert, params).rowcount == 1:
                    claimed.append(chat)
            return claimed

    def outbox_pending(self, chat: str, now: float, limit: int = 20) -> list[OutboxRow]:
        """The chat's rows to send now, in commit order; a row waiting for a retry stops the list
        there, so nothing overtakes it. The references of their keys are read along."""
        unit = self._unit()
        ahead = unit.ahead if unit is not None else None
        with self._conn() as c:
            rows: Sequence[Any]
            if ahead is not None and ahead[0] == chat and ahead[1] == limit:
                rows = ahead[2]  # read along by the unit's outbox insert, nothing written since
            else:
                rows = c.execute(self.sql.pending, {"c": chat, "limit": limit}).all()
            out = []
            refs: dict[str, str | None] = {}
            for row in rows:
                ref = row.ref
                if row.not_before > now:
                    break
                assert row.id is not None
                self._row_keys[row.id] = (row.chat, row.key)
                if unit is not None:
                    unit.read_rows.append(row.id)
                if row.key is not None:
                    refs[row.key] = ref
                payload = json.loads(row.payload) if isinstance(row.payload, str) else row.payload
                sending = json.loads(row.sending) if isinstance(row.sending, str) else row.sending
                out.append(OutboxRow(row.id, row.chat, Outbound.from_json(payload), row.attempts, sending))
            self._refs[chat] = refs
            return out

    def outbox_done(self, row_id: int, ref: str | None) -> None:
        """Delivered (the platform accepted it): remember the message's reference under its key, and
        mark older pending rows with the same key superseded (this newer one already replaced them)."""
        self._forget_ahead()
        with self._conn() as c:
            known = self._row_keys.pop(row_id, None)
            if known is None:
                row = c.execute(self.sql.outbox_key_of, {"i": row_id}).first()
                if row is None:
                    return
                known = (row.chat, row.key)
            chat, key = known
            sent = _sent_note(ref) if key is None else None
            if sent is not None:  # where the message landed, in place of the send's note
                c.execute(self.sql.outbox_done_sent, {"i": row_id, "s": sent})
            elif key is None:
                c.execute(self.sql.outbox_done, {"i": row_id})
            else:  # this row done and older pending ones of the same key superseded: one statement
                c.execute(self.sql.outbox_done_keyed, {"c": chat, "k": key, "i": row_id})
                if ref is not None:
                    c.execute(self.sql.ref_upsert, {"chat": chat, "key": key, "ref": ref})
                    self._refs.setdefault(chat, {})[key] = ref

    def outbox_sending(self, row_id: int, note: Any) -> None:
        """The row is about to be sent as a new message; ``note`` (JSON) is the transport's, for
        finding the message after a crash (see :attr:`OutboxRow.sending`)."""
        self._forget_ahead()
        with self._conn() as c:
            c.execute(self.sql.outbox_sending, {"i": row_id, "s": note})

    def outbox_notes(self, platform: str, limit: int = 200) -> list[tuple[str, Any]]:
        """The newest rows' send notes of ``platform`` (chat, note), newest first: what a transport
        knew of the platform's message ids when it last sent (kept on done rows too)."""
        o = _OUT
        stmt = (
            core_select(o.c.chat, o.c.sending)
            .where(o.c.platform == platform, o.c.sending.is_not(None))
            .order_by(o.c.id.desc())
            .limit(limit)
        )
        with self._conn() as c:
            return [(row.chat, row.sending) for row in c.execute(stmt).all() if row.sending is not None]

    def outbox_superseded(self, row_ids: Sequence[int]) -> None:
        """Rows that will never be sent (a newer row with the same key replaces them)."""
        self._forget_ahead()
        if not row_ids:
            return
        with self._session() as s:
            s.exec(
                update(Outbox)
                .where(col(Outbox.id).in_(list(row_ids)), col(Outbox.state) == PENDING)
                .values(state=SUPERSEDED)
            )
            for row_id in row_ids:
                self._row_keys.pop(row_id, None)
            self._done(s)

    def outbox_later(self, row_id: int, not_before: float) -> None:
        self._forget_ahead()
        with self._conn() as c:
            c.execute(self.sql.outbox_later, {"i": row_id, "nb": not_before})

    def outbox_renew(self, chats: Sequence[str], worker: str, now: float, lease: float) -> list[str]:
        """Extend this worker's claims of ``chats`` to ``now + lease``; the chats still claimed by it
        (a claim that ran out and was taken by another worker is not renewed, and is not listed)."""
        if not chats:
            return []
        with self._session() as s:
            mine = (col(ChatClaim.chat).in_(list(chats)), col(ChatClaim.worker) == worker)
            s.exec(update(ChatClaim).where(*mine).values(until=now + lease))
            held = list(s.exec(select(ChatClaim.chat).where(*mine)).all())
            self._done(s)
            return held

    def outbox_release(self, chat: str, worker: str) -> None:
        self._refs.pop(chat, None)  # another worker may send this chat next: read its refs afresh
        with self._conn() as c:
            c.execute(self.sql.claim_release, {"c": chat, "me": worker})

    def message_ref(self, chat: str, key: str) -> str | None:
        known = self._refs.get(chat)
        if known is not None and key in known:  # read along with the chat's pending rows
            return known[key]
        with self._conn() as c:
            ref: str | None = c.execute(self.sql.ref_of, {"c": chat, "k": key}).scalar()
            return ref

    def seen_update(self, platform: str, key: str) -> bool:
        with self._conn() as c:
            return c.execute(self.sql.seen_select, {"p": platform, "k": key}).first() is not None

    # --- deadlines -------------------------------------------------------------------------------
    def set_deadlines(self, match_id: int, deadlines: Sequence[Deadline]) -> None:
        """The match's deadlines are now exactly these (every change of a match sets them)."""
        with self._conn() as c:
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
            unit = self._unit()
            if self.dialect == "postgresql" and all(r["match_id"] == match_id for r in rows):
                if unit is not None:
                    # written with the unit's next statement: usually the insert of the outbox rows
                    # at its end, which takes them along (a round trip less)
                    unit.deadline_writes[match_id] = rows
                else:
                    c.execute(*_deadlines_replace(match_id, rows))
            else:
                c.execute(self.sql.deadlines_delete, {"m": match_id})
                if rows:
                    c.execute(self.sql.deadlines_insert, rows)
            if deadlines and unit is not None:
                soonest = min(d.due for d in deadlines)
                if unit.earliest_due is None or soonest < unit.earliest_due:
                    unit.earliest_due = soonest

    def _forget_ahead(self) -> None:
        unit = self._unit()
        if unit is not None:
            unit.ahead = None

    def _write_deadlines(self, unit: _Unit, c: Connection) -> None:
        """The deadline rows the unit holds back, written now (before its next statement)."""
        writes = list(unit.deadline_writes.items())
        unit.deadline_writes.clear()
        for match_id, rows in writes:
            c.execute(*_deadlines_replace(match_id, rows))

    def changed_matches(self) -> frozenset[int]:
        """The matches whose version the open unit raised so far (none outside a unit)."""
        unit = self._unit()
        return frozenset(unit.bumped) if unit is not None else frozenset()

    def unit_earliest_due(self) -> float | None:
        """The earliest due time of the deadlines stored so far in the open unit (None: none)."""
        unit = self._unit()
        return unit.earliest_due if unit is not None else None

    def drop_deadline(self, deadline: Deadline, worker: str | None = None) -> bool:
        """Remove one deadline if it is still the one given (same version, still claimed by
        ``worker``); False when someone else changed or took it meanwhile."""
        with self._session() as s:
            conditions = [
                col(DeadlineRow.match_id) == deadline.match_id,
                col(DeadlineRow.kind) == deadline.kind,
                col(DeadlineRow.version) == deadline.version,
            ]
            if worker is not None:
                conditions.append(col(DeadlineRow.claimed_by) == worker)
            result = s.exec(delete(DeadlineRow).where(*conditions))
            self._done(s)
            return bool(result.rowcount == 1)

    def deadlines(self, match_id: int) -> list[Deadline]:
        with self._session() as s:
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
        with self._session() as s:
            query = select(DeadlineRow).where(due_for_me).order_by(col(DeadlineRow.due)).limit(limit)
            if self.dialect == "postgresql":
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
            self._done(s)
            if first and len(claimed) < limit:  # all of them taken back (else look again next time)
                self._started.add(worker)
            return claimed

    def prune(self, done_before: float, seen_before: float) -> int:
        """Forget delivered (or superseded) outbox rows created before ``done_before`` and inbound ids
        recorded before ``seen_before`` (epoch seconds): the tables stay small. The last reference of
        every message stays in ``messageref``."""
        done = datetime.fromtimestamp(done_before, UTC)
        seen = datetime.fromtimestamp(seen_before, UTC)
        with self._session() as s:
            rows = s.exec(
                delete(Outbox).where(col(Outbox.state).in_([DONE, SUPERSEDED]), col(Outbox.created_at) < done)
            ).rowcount
            rows += s.exec(delete(SeenUpdate).where(col(SeenUpdate.at) < seen)).rowcount
            self._done(s)
            return int(rows)

    def release_deadlines(self, worker: str, now: float) -> int:
        """A worker (re)starts under its name: what an earlier process of that name had claimed is due
        again at once (it was due when claimed), instead of when the dead claim's lease ends."""
        with self._session() as s:
            result = s.exec(
                update(DeadlineRow)
                .where(col(DeadlineRow.claimed_by) == worker)
                .values(due=now, claimed_by=None, claimed_until=None)
            )
            self._done(s)
            return int(result.rowcount)

    def next_due(self) -> float | None:
        """The earliest due time (a claimed deadline counts at the end of its lease)."""
        with self._conn() as c:
            value = c.execute(self.sql.next_due).scalar()
            return float(value) if value is not None else None


def _epoch(at: datetime) -> float:
    """Epoch seconds of a stored time (SQLite gives it back without its zone, which is UTC)."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()


def _sent_note(ref: str | None) -> dict[str, Any] | None:
    """A delivered message's reference as a transport writes it, when it is a JSON object with an
    ``id``: kept as the row's note (see :meth:`SqlRepository.outbox_notes`)."""
    if not ref or not ref.startswith("{"):
        return None
    try:
        value = json.loads(ref)
    except ValueError:
        return None
    return value if isinstance(value, dict) and "id" in value else None


def _new_id(result: Any) -> int:
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def _deadline(row: DeadlineRow) -> Deadline:
    return Deadline(row.match_id, row.kind, row.due, row.version, tuple(int(x) for x in row.seats or ()))


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


def _outbox_insert(
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
        params.update(_deadlines_replace(*deadlines)[1])
    if wanted is not None:
        params["c"], params["limit"] = wanted
    return _INSERTS[(deadlines is not None, wanted is not None)], params


def _deadlines_replace(match_id: int, rows: list[dict[str, Any]]) -> tuple[Any, dict[str, Any]]:
    """PostgreSQL: the statement (and its parameters) that makes a match's deadlines exactly ``rows``."""
    wanted = [
        {"kind": r["kind"], "due": r["due"], "version": r["version"], "seats": r["seats"]} for r in rows
    ]
    return _DEADLINES_REPLACE, {"m": match_id, "rows": json.dumps(wanted)}


def _action_commit() -> Any:
    """PostgreSQL's ``commit_action`` in one statement: ``WITH b AS (UPDATE match ... WHERE id AND
    version RETURNING id)``, the action row and the snapshot upsert inserted from ``b`` (nothing
    when the version had moved on), and the count of ``b``: 1 when the action was committed."""
    m, act, snap = _M, _ACT, _SNAP
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


class _SeatRow:
    """A seat read along with ``sql.context`` as a row of ``sql.seats_of``."""

    __slots__ = (
        "ai",
        "match_id",
        "name",
        "seat",
        "user_ext_id",
        "user_id",
        "user_lang",
        "user_name",
        "user_platform",
    )

    def __init__(self, match_id: int, *fields: Any) -> None:
        self.match_id = match_id
        (
            self.seat,
            self.name,
            self.user_id,
            self.ai,
            self.user_platform,
            self.user_ext_id,
            self.user_name,
            self.user_lang,
        ) = fields


def _seats_json(value: Any) -> list[Any]:
    """The seats of ``sql.context`` (JSON; SQLite gives it as text), in seat order."""
    if value is None:
        return []
    if isinstance(value, str):
        value = json.loads(value)
    return sorted(value, key=lambda fields: int(fields[0]))


class _ContextRow:
    """A row of ``sql.context`` read as a row of ``sql.matches`` (for ``_match_recs``)."""

    def __init__(self, row: Any, room: RoomRec) -> None:
        self._row = row
        self.room_platform, self.room_ext_id, self.room_lang = room.platform, room.ext_id, room.lang

    def __getattr__(self, name: str) -> Any:
        return getattr(self._row, name)


def _user(row: Any) -> UserRec:
    assert row.id is not None
    return UserRec(id=row.id, platform=row.platform, ext_id=row.ext_id, name=row.name, lang=row.lang)


def _room(row: Any) -> RoomRec:
    assert row.id is not None
    return RoomRec(id=row.id, platform=row.platform, ext_id=row.ext_id, lang=row.lang)
