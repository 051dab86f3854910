"""The database: engine, schema upgrade, and the unit of work (one update = one transaction).

Inside :meth:`Db.unit` every store method (in that thread) uses the unit's session and only
flushes; the unit commits once at its end, with the inbound update id, the change, its outbox rows
and the match's deadlines, or rolls all of it back. Outside a unit each method is a transaction of
its own. Database outages and lock timeouts surface as
:class:`~chatbot.core.ports.StorageUnavailable`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import event, inspect, text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.engine import Engine as SAEngine
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlmodel import Session, create_engine

from chatbot.core.ports import ChatQueue, MatchRec, RoomRec, StorageUnavailable, UpdateSeen, UserRec
from chatbot.core.types import Outbound
from chatbot.storage.compound import Compound, sqlite_setup
from chatbot.storage.statements import Statements

DEFAULT_DB = Path("data") / "pelipoyta.sqlite"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: the revision that is the schema ``create_all`` made before there were migrations
FIRST_REVISION = "0001"
#: the newest migration (tests/storage/test_migrations.py holds it to Alembic's head): a database
#: already there is opened without importing Alembic (11 MB of the process, a third of its start)
HEAD_REVISION = "0005"
#: any number, the same in every worker: the key of the PostgreSQL lock around an upgrade
_UPGRADE_LOCK = 0x70656C69
#: seconds an SQLite writer waits for the lock before the update is answered with an apology
SQLITE_BUSY_TIMEOUT = 5.0
#: the same on PostgreSQL, for a row lock
LOCK_TIMEOUT_MS = 5000
#: seconds a pooled PostgreSQL connection may sit unused before it is tested as it is taken again
IDLE_PING_AFTER = 1.0


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


def now() -> datetime:
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


#: the runtime's hook of the thread (see :meth:`Db.committing`)
Hook = Callable[[list[Outbound]], Callable[[], None] | None]
Wants = Callable[[Sequence[Outbound]], tuple[ChatQueue, int] | None]


@dataclass
class Unit:
    """The open transaction of one update, and what it has read (a match is loaded once)."""

    session: Session
    matches: dict[int, MatchRec] = field(default_factory=dict)
    users: dict[int, UserRec] = field(default_factory=dict)
    rooms: dict[int, RoomRec] = field(default_factory=dict)
    #: user id -> ids of their open matches (forgotten whenever seats change in the unit)
    user_matches: dict[int, list[int]] = field(default_factory=dict)
    #: private chats known to have no held rows at the unit's start (read with the speaker's context)
    none_held: set[str] = field(default_factory=set)
    #: match id -> the kinds of its deadlines as read with it (the unit's own writes kept up to date)
    deadline_kinds: dict[int, frozenset[str]] = field(default_factory=dict)
    #: the earliest due time of the deadlines stored in the unit (None: none stored)
    earliest_due: float | None = None
    #: the outbox rows the unit queued (for the thread's ``committing`` hook)
    queued: list[Outbound] = field(default_factory=list)
    #: PostgreSQL: the inbound update id (platform, key) to record with the unit's first statement
    #: (``context`` takes it along: one round trip for both); a redelivery raises UpdateSeen
    seen: tuple[str, str] | None = None
    #: match id -> its deadline rows, written with the unit's next statement (the outbox rows'
    #: insert takes them along: one round trip for both)
    deadline_writes: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    #: match id -> its whole meta after the unit's ``set_meta`` calls, written with the unit's next
    #: statement (the outbox rows' insert takes it along with the deadlines)
    meta_writes: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: PostgreSQL: (chat, limit, rows) read by the unit's outbox insert, as ``outbox_pending`` would
    #: read them now (the ``committing`` hook's read ahead then needs no statement of its own)
    ahead: tuple[str, int, list[Any]] | None = None
    #: match id -> (its version after the unit's newest action, that action's key)
    acted: dict[int, tuple[int, tuple[int, int, str]]] = field(default_factory=dict)
    #: ids of the matches whose version the unit raised (an action, new seats, a start)
    bumped: set[int] = field(default_factory=set)
    #: action key tails to keep once the unit has committed (see ``GameStore.action_keys``)
    tails: dict[int, tuple[int, int, tuple[tuple[int, int, str], ...]]] = field(default_factory=dict)
    #: called after the commit, and after a rollback
    after_commit: list[Callable[[], None]] = field(default_factory=list)
    after_rollback: list[Callable[[], None]] = field(default_factory=list)


class _Local(threading.local):
    """Per thread: the open unit, and the runtime's ``committing`` hook."""

    unit: Unit | None = None
    hook: Hook | None = None
    wants: Wants | None = None


class Db:
    """The engine, its prebuilt statements and the units of work of one database URL; brings the
    schema up to date on first use."""

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
        self.sql = Statements(self.dialect)
        self.compound = Compound(self.dialect)
        if self.dialect == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "checkout", sqlite_setup)
        else:
            # after an outage the pooled connections are dead: test those that sat unused
            _ping_idle(self.engine)
        self._local = _Local()
        try:
            upgrade(self.engine)
        except DBAPIError as exc:
            if unavailable(exc):
                raise StorageUnavailable(str(exc.orig)) from exc
            raise

    def current(self) -> Unit | None:
        """The unit open in this thread, if any."""
        return self._local.unit

    @property
    def wants(self) -> Wants | None:
        """The runtime's ``wants`` of this thread (see :meth:`committing`)."""
        return self._local.wants

    @contextmanager
    def unit(self, update: tuple[str, str] | None = None) -> Iterator[bool]:
        """One transaction for everything the block does through the stores in this thread.

        With ``update`` (platform, key) the inbound id is recorded first; the block gets False when it
        was recorded before (a redelivery: do nothing) and its writes are then discarded. On
        PostgreSQL it is recorded with the block's first statement instead (``context`` reads the
        speaker's context in the same round trip), which raises UpdateSeen for a redelivery. An exception
        rolls everything back. A unit inside a unit joins the outer one.

        A unit that queued outbox rows calls this thread's ``committing`` hook with them right
        before its commit, inside the transaction, and what the hook returned after the commit."""
        if self.current() is not None:
            yield True
            return
        try:
            with Session(self.engine, expire_on_commit=False) as session:
                unit = self._local.unit = Unit(session)
                try:
                    fresh = True
                    if update is not None and self.sql.context_seen is not None:
                        # PostgreSQL: recorded with the unit's first statement (UpdateSeen then)
                        unit.seen = update
                    elif update is not None:
                        # the first statement writes: on SQLite the transaction holds the write lock
                        # from here, so it never has to upgrade a read snapshot later
                        fresh = self.record_update(session.connection(), *update)
                    yield fresh
                    if fresh:
                        self.write_held(unit, session.connection())
                        hook = self._local.hook
                        after = hook(unit.queued) if hook is not None and unit.queued else None
                        session.commit()
                        for done in unit.after_commit:
                            done()
                        if after is not None:
                            after()
                    else:
                        session.rollback()
                except BaseException:
                    session.rollback()
                    for undo in unit.after_rollback:
                        undo()
                    raise
                finally:
                    self._local.unit = None
        except DBAPIError as exc:
            if unavailable(exc):
                raise StorageUnavailable(str(exc.orig)) from exc
            raise

    @contextmanager
    def committing(self, hook: Hook, wants: Wants | None = None) -> Iterator[None]:
        """While the block runs, a unit of this thread that queued outbox rows calls ``hook(rows)``
        inside its transaction, right before the commit (the runtime reads the first answer's chat
        queue there: no transaction of its own after the commit, issue #12), and the callable the
        hook returned once the commit has succeeded. Nothing is called for a unit that rolls back.

        ``wants(outs)``, asked as a unit queues ``outs``, may name a chat queue (and a limit) that
        the hook will read: on PostgreSQL the statement that inserts the rows reads it along."""
        before = self._local.hook, self._local.wants
        self._local.hook, self._local.wants = hook, wants
        try:
            yield
        finally:
            self._local.hook, self._local.wants = before

    def record_update(self, c: Connection, platform: str, key: str) -> bool:
        values = {"platform": platform, "key": key, "at": now()}
        return bool(c.execute(self.sql.seen_insert, values).rowcount == 1)

    def write_held(self, unit: Unit, c: Connection) -> None:
        """What the unit holds back for its next statement (PostgreSQL: the update id; the deadline
        rows, the match meta), written now: the next statement is not one that takes them along."""
        if unit.seen is not None:
            seen, unit.seen = unit.seen, None
            if not self.record_update(c, *seen):
                raise UpdateSeen(f"update {seen[1]} of {seen[0]} was handled before")
        if unit.deadline_writes:
            writes = list(unit.deadline_writes.items())
            unit.deadline_writes.clear()
            for match_id, rows in writes:
                self.compound.replace_deadlines(c, match_id, rows)
        if unit.meta_writes:
            metas = list(unit.meta_writes.items())
            unit.meta_writes.clear()
            for match_id, meta in metas:
                c.execute(self.sql.meta_set, {"i": match_id, "mv": meta})

    def insert(self, table: Any) -> Any:
        return (pg_insert if self.dialect == "postgresql" else sqlite_insert)(table)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """The unit's session inside a unit, else a session of its own; driver errors of an outage
        become StorageUnavailable."""
        unit = self.current()
        if unit is not None:
            self.write_held(unit, unit.session.connection())
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
    def conn(self) -> Iterator[Connection]:
        """The unit's connection inside a unit, else a transaction of its own (committed at the end
        of the block); driver errors of an outage become StorageUnavailable."""
        unit = self.current()
        if unit is not None:
            c = unit.session.connection()
            self.write_held(unit, c)
            yield c  # unit errors are mapped where the unit ends
            return
        try:
            with self.engine.begin() as conn:
                yield conn
        except DBAPIError as exc:
            if unavailable(exc):
                raise StorageUnavailable(str(exc.orig)) from exc
            raise

    def done(self, s: Session) -> None:
        """The end of a write: commit, or inside a unit only flush (the unit commits)."""
        if self.current() is None:
            s.commit()
        else:
            s.flush()


def new_id(result: Any) -> int:
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])
