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

import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import case, delete, event, func, inspect, text, tuple_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.engine import Engine as SAEngine
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, create_engine, select

from chatbot.core.ports import (
    LOBBY,
    RUNNING,
    ActionRec,
    Deadline,
    MatchRec,
    OutboxRow,
    RoomRec,
    SeatRec,
    StorageUnavailable,
    UserRec,
    chat_of,
)
from chatbot.core.types import Outbound
from chatbot.storage.tables import (
    ActionLog,
    ChatClaim,
    KeyValue,
    Match,
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
#: any number, the same in every worker: the key of the PostgreSQL lock around an upgrade
_UPGRADE_LOCK = 0x70656C69
PENDING, DONE, SUPERSEDED = "pending", "done", "superseded"
#: seconds an SQLite writer waits for the lock before the update is answered with an apology
SQLITE_BUSY_TIMEOUT = 5.0
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


def _now() -> datetime:
    return datetime.now(UTC)


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration without any file: the migrations of this package, and the
    connection to run them on."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade(engine: SAEngine) -> None:
    """Bring the schema to the newest migration, in one transaction.

    A database that ``create_all`` made before there were migrations has the tables but no
    ``alembic_version``: it is stamped with the first revision, not created again. On PostgreSQL
    workers that start together take turns (an advisory lock held to the commit).
    """
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _UPGRADE_LOCK})
        config = alembic_config(conn)
        if MigrationContext.configure(conn).get_current_revision() is None and inspect(conn).has_table(
            "match"
        ):
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


@dataclass
class _Unit:
    """The open transaction of one update, and what it has read (a match is loaded once)."""

    session: Session
    matches: dict[int, MatchRec] = field(default_factory=dict)
    users: dict[int, UserRec] = field(default_factory=dict)
    rooms: dict[int, RoomRec] = field(default_factory=dict)
    #: user id -> ids of their open matches (forgotten whenever seats change in the unit)
    user_matches: dict[int, list[int]] = field(default_factory=dict)


class SqlRepository:
    """Repository over any SQLAlchemy URL; brings the schema up to date on first use."""

    def __init__(self, url: str | None = None) -> None:
        self.url = database_url(url)
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT}
        else:
            # after an outage the pooled connections are dead: test each one as it is taken
            kwargs["pool_pre_ping"] = True
            # a statement that waits longer than this for a row lock fails (an apology, not a hang)
            kwargs["connect_args"] = {"connect_timeout": 5, "options": f"-c lock_timeout={LOCK_TIMEOUT_MS}"}
        self.engine: SAEngine = create_engine(self.url, **kwargs)
        self.dialect = self.engine.dialect.name
        if self.dialect == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._local = threading.local()
        #: what ``outbox_pending`` read along (the chat and key of each row, the refs of the keys), so
        #: that delivering a row needs no read; only the chat's one sender uses them
        self._row_keys: dict[int, tuple[str, str | None]] = {}
        self._refs: dict[str, dict[str, str | None]] = {}
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
        was recorded before (a redelivery: do nothing) and its writes are then discarded. An exception
        rolls everything back. A unit inside a unit joins the outer one."""
        if self._unit() is not None:
            yield True
            return
        try:
            with Session(self.engine, expire_on_commit=False) as session:
                self._local.unit = _Unit(session)
                try:
                    fresh = True
                    if update is not None:
                        # the first statement writes: on SQLite the transaction holds the write lock
                        # from here, so it never has to upgrade a read snapshot later
                        fresh = self._record_update(session, *update)
                    yield fresh
                    if fresh:
                        session.commit()
                    else:
                        session.rollback()
                except BaseException:
                    session.rollback()
                    raise
                finally:
                    self._local.unit = None
        except DBAPIError as exc:
            if unavailable(exc):
                raise StorageUnavailable(str(exc.orig)) from exc
            raise

    def _record_update(self, s: Session, platform: str, key: str) -> bool:
        values = {"platform": platform, "key": key, "at": _now()}
        stmt = self._insert(SeenUpdate).values(**values).on_conflict_do_nothing()
        return bool(s.exec(stmt).rowcount == 1)

    def _insert(self, table: Any) -> Any:
        return (pg_insert if self.dialect == "postgresql" else sqlite_insert)(table)

    @contextmanager
    def _session(self) -> Iterator[Session]:
        """The unit's session inside a unit, else a session of its own; driver errors of an outage
        become StorageUnavailable."""
        unit = self._unit()
        if unit is not None:
            yield unit.session  # unit errors are mapped where the unit ends
            return
        try:
            with Session(self.engine, expire_on_commit=False) as session:
                yield session
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
        if unit is not None and match_id in unit.matches:
            unit.matches[match_id] = replace(unit.matches[match_id], **changes)

    # --- users and rooms ------------------------------------------------------------------------
    def user(self, platform: str, ext_id: str, name: str) -> UserRec:
        with self._session() as s:
            row = s.exec(select(User).where(User.platform == platform, User.ext_id == ext_id)).first()
            if row is None:
                row = User(platform=platform, ext_id=ext_id, name=name)
                s.add(row)
                self._done(s)
            elif name and row.name != name:
                row.name = name
                s.add(row)
                self._done(s)
            return self._user_cached(_user(row))

    def _user_cached(self, rec: UserRec) -> UserRec:
        unit = self._unit()
        if unit is not None:
            unit.users[rec.id] = rec
        return rec

    def find_user(self, platform: str, ext_id: str) -> UserRec | None:
        """The user, or None for someone the bot has never met (nothing is created)."""
        with self._session() as s:
            row = s.exec(select(User).where(User.platform == platform, User.ext_id == ext_id)).first()
            return self._user_cached(_user(row)) if row else None

    def user_by_id(self, user_id: int) -> UserRec:
        unit = self._unit()
        if unit is not None and user_id in unit.users:
            return unit.users[user_id]
        with self._session() as s:
            row = s.get(User, user_id)
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
        with self._session() as s:
            row = s.exec(select(Room).where(Room.platform == platform, Room.ext_id == ext_id)).first()
            if row is None:
                row = Room(platform=platform, ext_id=ext_id)
                s.add(row)
                self._done(s)
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
        with self._session() as s:
            row = s.get(Room, room_id)
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
    def _match_recs(self, s: Session, rows: Sequence[tuple[Match, Snapshot | None, Room]]) -> list[MatchRec]:
        """Records of the given match rows, their seats (with the seated users) in one more query."""
        if not rows:
            return []
        ids = [m.id for m, _, _ in rows]
        seat_rows = s.exec(
            select(Seat, User)
            .outerjoin(User, col(Seat.user_id) == col(User.id))
            .where(col(Seat.match_id).in_(ids))
            .order_by(col(Seat.match_id), col(Seat.seat))
        ).all()
        seats: dict[int, list[SeatRec]] = {}
        for seat, user in seat_rows:
            seats.setdefault(seat.match_id, []).append(
                SeatRec(seat=seat.seat, name=seat.name, user_id=seat.user_id, ai=seat.ai)
            )
            if user is not None:
                self._user_cached(_user(user))
        out = []
        for row, snap, room in rows:
            assert row.id is not None
            self._room_cached(_room(room))
            rec = MatchRec(
                id=row.id,
                room_id=row.room_id,
                game=row.game,
                options=dict(row.options or {}),
                seed=row.seed,
                version=row.version,
                status=row.status,
                state=dict(snap.state) if snap else None,
                host_user_id=row.host_user_id,
                seats=tuple(seats.get(row.id, ())),
                meta=dict(row.meta or {}),
            )
            out.append(self._cached(rec))
        return out

    def _with_snapshot(self) -> Any:
        """A match with its snapshot and its room in one query (the room goes to the unit's cache)."""
        return (
            select(Match, Snapshot, Room)
            .outerjoin(Snapshot, col(Snapshot.match_id) == col(Match.id))
            .join(Room, col(Room.id) == col(Match.room_id))
        )

    def active_match(self, room_id: int) -> MatchRec | None:
        unit = self._unit()
        if unit is not None:
            for rec in unit.matches.values():
                if rec.room_id == room_id and rec.status in {LOBBY, RUNNING}:
                    return rec
        with self._session() as s:
            row = s.exec(
                self._with_snapshot()
                .where(Match.room_id == room_id, col(Match.status).in_([LOBBY, RUNNING]))
                .order_by(col(Match.id).desc())
                .limit(1)
            ).first()
            recs = self._match_recs(s, [tuple(row)] if row else [])
            return recs[0] if recs else None

    def match(self, match_id: int) -> MatchRec | None:
        unit = self._unit()
        if unit is not None and match_id in unit.matches:
            return unit.matches[match_id]
        with self._session() as s:
            row = s.exec(self._with_snapshot().where(col(Match.id) == match_id)).first()
            recs = self._match_recs(s, [tuple(row)] if row else [])
            return recs[0] if recs else None

    def running_matches(self) -> list[MatchRec]:
        with self._session() as s:
            rows = s.exec(self._with_snapshot().where(Match.status == RUNNING).order_by(col(Match.id))).all()
            return self._match_recs(s, [tuple(r) for r in rows])

    def running_versions(self) -> list[tuple[int, int]]:
        """(id, version) of every running match, without loading seats or snapshots."""
        with self._session() as s:
            rows = s.exec(select(Match.id, Match.version).where(Match.status == RUNNING)).all()
            return [(int(i), int(v)) for i, v in rows if i is not None]

    def matches_without_deadlines(self) -> list[MatchRec]:
        """Running matches that have no deadline at all (made before deadlines were stored)."""
        with self._session() as s:
            has = select(DeadlineRow.match_id).where(col(DeadlineRow.match_id) == col(Match.id))
            rows = s.exec(
                self._with_snapshot().where(Match.status == RUNNING, ~has.exists()).order_by(col(Match.id))
            ).all()
            return self._match_recs(s, [tuple(r) for r in rows])

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
        with self._session() as s:
            mine = select(Seat.match_id).where(Seat.user_id == user_id)
            rows = s.exec(
                self._with_snapshot()
                .where(col(Match.id).in_(mine), col(Match.status).in_([LOBBY, RUNNING]))
                .order_by(col(Match.id))
            ).all()
            return self._match_recs(s, [tuple(r) for r in rows])

    def create_match(
        self,
        room_id: int,
        game: str,
        options: dict[str, Any],
        seed: str,
        host_user_id: int | None,
        seats: tuple[SeatRec, ...],
    ) -> MatchRec:
        with self._session() as s:
            row = Match(
                room_id=room_id,
                game=game,
                options=dict(options),
                seed=seed,
                version=0,
                status=LOBBY,
                host_user_id=host_user_id,
                meta={},
            )
            s.add(row)
            s.flush()
            assert row.id is not None
            self._write_seats(s, row.id, seats, fresh=True)
            self._done(s)
            rec = MatchRec(
                id=row.id,
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
        self, s: Session, match_id: int, seats: tuple[SeatRec, ...], fresh: bool = False
    ) -> None:
        unit = self._unit()
        if unit is not None:
            unit.user_matches.clear()
        if not fresh:
            s.exec(delete(Seat).where(col(Seat.match_id) == match_id))
        if seats:
            s.exec(
                Seat.__table__.insert(),  # type: ignore[attr-defined]
                params=[
                    {"match_id": match_id, "seat": x.seat, "name": x.name, "user_id": x.user_id, "ai": x.ai}
                    for x in seats
                ],
            )

    def _bump(self, s: Session, match_id: int, seen_version: int, **values: Any) -> bool:
        result = s.exec(
            update(Match)
            .where(col(Match.id) == match_id, col(Match.version) == seen_version)
            .values(version=seen_version + 1, updated_at=_now(), **values)
        )
        return bool(result.rowcount == 1)

    def update_lobby(
        self,
        match_id: int,
        seen_version: int,
        seats: tuple[SeatRec, ...],
        status: str = LOBBY,
        options: dict[str, Any] | None = None,
    ) -> bool:
        with self._session() as s:
            values: dict[str, Any] = {"status": status}
            if options is not None:
                values["options"] = dict(options)
            if not self._bump(s, match_id, seen_version, **values):
                return False  # nothing written (outside a unit the session closes unused)
            self._write_seats(s, match_id, seats)
            self._done(s)
        self._refresh(match_id, version=seen_version + 1, seats=tuple(seats), **values)
        return True

    def start_match(
        self, match_id: int, seen_version: int, seats: tuple[SeatRec, ...], state: dict[str, Any], seed: str
    ) -> bool:
        with self._session() as s:
            if not self._bump(s, match_id, seen_version, status=RUNNING, seed=seed):
                return False
            self._write_seats(s, match_id, seats)
            self._write_snapshot(s, match_id, seen_version + 1, state)
            self._done(s)
        self._refresh(
            match_id, version=seen_version + 1, status=RUNNING, seed=seed, seats=tuple(seats), state=state
        )
        return True

    def _write_snapshot(self, s: Session, match_id: int, version: int, state: dict[str, Any]) -> None:
        stmt = self._insert(Snapshot).values(match_id=match_id, version=version, state=state)
        s.exec(
            stmt.on_conflict_do_update(index_elements=["match_id"], set_={"version": version, "state": state})
        )

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
        with self._session() as s:
            if not self._bump(s, match_id, seen_version, status=status):
                return False
            ply = int(state.get("ply", seen_version + 1))
            s.add(ActionLog(match_id=match_id, ply=ply, seat=seat, notation=notation, events=list(events)))
            s.flush()
            self._write_snapshot(s, match_id, seen_version + 1, state)
            if seats is not None:
                self._write_seats(s, match_id, seats)
            self._done(s)
        changes: dict[str, Any] = {"version": seen_version + 1, "status": status, "state": state}
        if seats is not None:
            changes["seats"] = tuple(seats)
        self._refresh(match_id, **changes)
        return True

    def actions(self, match_id: int, since_ply: int = 0) -> list[ActionRec]:
        with self._session() as s:
            rows = s.exec(
                select(ActionLog)
                .where(ActionLog.match_id == match_id, ActionLog.ply > since_ply)
                .order_by(col(ActionLog.ply))
            ).all()
            return [
                ActionRec(ply=r.ply, seat=r.seat, notation=r.notation, events=list(r.events)) for r in rows
            ]

    def set_meta(self, match_id: int, key: str, value: Any) -> None:
        with self._session() as s:
            row = s.get(Match, match_id)
            assert row is not None
            meta = {**(row.meta or {}), key: value}
            row.meta = meta  # a new dict, so the change is saved
            s.add(row)
            self._done(s)
        self._refresh(match_id, meta=meta)

    # --- key/value ---------------------------------------------------------------------------
    def kv_get(self, namespace: str, key: str) -> Any:
        with self._session() as s:
            row = s.get(KeyValue, (namespace, key))
            return row.value if row else None

    def kv_set(self, namespace: str, key: str, value: Any) -> None:
        with self._session() as s:
            stmt = self._insert(KeyValue).values(namespace=namespace, key=key, value=value)
            s.exec(stmt.on_conflict_do_update(index_elements=["namespace", "key"], set_={"value": value}))
            self._done(s)

    # --- the outbox ----------------------------------------------------------------------------
    def outbox_add(self, outs: Sequence[Outbound]) -> None:
        """Queue messages for delivery, in this order (one statement however many)."""
        if not outs:
            return
        with self._session() as s:
            now = _now()
            s.exec(
                Outbox.__table__.insert(),  # type: ignore[attr-defined]
                params=[
                    {
                        "platform": o.platform,
                        "chat": chat_of(o),
                        "key": o.key,
                        "payload": o.to_json(),
                        "created_at": now,
                        "state": PENDING,
                        "attempts": 0,
                        "not_before": 0.0,
                        "held": False,
                    }
                    for o in outs
                ],
            )
            self._done(s)

    def outbox_hold(self, chat: str) -> int:
        """Keep a chat's pending rows back (a private chat the user has not opened yet)."""
        with self._session() as s:
            result = s.exec(
                update(Outbox)
                .where(col(Outbox.chat) == chat, col(Outbox.state) == PENDING, ~col(Outbox.held))
                .values(held=True)
            )
            self._done(s)
            return int(result.rowcount)

    def outbox_unhold(self, chat: str) -> int:
        """Release a chat's held rows (the user opened it); how many there were."""
        with self._session() as s:
            result = s.exec(
                update(Outbox)
                .where(col(Outbox.chat) == chat, col(Outbox.state) == PENDING, col(Outbox.held))
                .values(held=False)
            )
            self._done(s)
            return int(result.rowcount)

    def outbox_claim(self, platform: str, worker: str, now: float, lease: float, limit: int) -> list[str]:
        """Chats with something to send now that no other worker is sending (a lease until
        ``now + lease``), freshest first. The claim is an upsert guarded by the lease's end, atomic on
        both databases (PostgreSQL waits on a row another claim holds and then re-checks)."""
        with self._session() as s:
            others = select(ChatClaim.chat).where(ChatClaim.until >= now, ChatClaim.worker != worker)
            rows = s.exec(
                select(Outbox.chat)
                .where(
                    Outbox.platform == platform,
                    Outbox.state == PENDING,
                    ~col(Outbox.held),
                    Outbox.not_before <= now,
                    col(Outbox.chat).not_in(others),
                )
                .group_by(col(Outbox.chat))
                .order_by(func.max(Outbox.id).desc())
                .limit(limit)
            ).all()
            claimed = []
            for chat in rows:
                stmt = self._insert(ChatClaim).values(chat=chat, worker=worker, until=now + lease)
                stmt = stmt.on_conflict_do_update(
                    index_elements=["chat"],
                    set_={"worker": worker, "until": now + lease},
                    where=(col(ChatClaim.until) < now) | (col(ChatClaim.worker) == worker),
                )
                if s.exec(stmt).rowcount == 1:
                    claimed.append(chat)
            self._done(s)
            return claimed

    def outbox_pending(self, chat: str, now: float, limit: int = 20) -> list[OutboxRow]:
        """The chat's rows to send now, in commit order; a row waiting for a retry stops the list
        there, so nothing overtakes it. The references of their keys are read along."""
        with self._session() as s:
            rows = s.exec(
                select(Outbox, MessageRef.ref)
                .outerjoin(
                    MessageRef,
                    (col(MessageRef.chat) == col(Outbox.chat)) & (col(MessageRef.key) == col(Outbox.key)),
                )
                .where(Outbox.chat == chat, Outbox.state == PENDING, ~col(Outbox.held))
                .order_by(col(Outbox.id))
                .limit(limit)
            ).all()
            out = []
            refs: dict[str, str | None] = {}
            for row, ref in rows:
                if row.not_before > now:
                    break
                assert row.id is not None
                self._row_keys[row.id] = (row.chat, row.key)
                if row.key is not None:
                    refs[row.key] = ref
                out.append(OutboxRow(row.id, row.chat, Outbound.from_json(row.payload), row.attempts))
            self._refs[chat] = refs
            return out

    def outbox_done(self, row_id: int, ref: str | None) -> None:
        """Delivered (the platform accepted it): remember the message's reference under its key, and
        mark older pending rows with the same key superseded (this newer one already replaced them)."""
        with self._session() as s:
            known = self._row_keys.pop(row_id, None)
            if known is None:
                row = s.get(Outbox, row_id)
                if row is None:
                    return
                known = (row.chat, row.key)
            chat, key = known
            if key is None:
                s.exec(update(Outbox).where(col(Outbox.id) == row_id).values(state=DONE))
            else:  # this row done and older pending ones of the same key superseded: one statement
                s.exec(
                    update(Outbox)
                    .where(
                        col(Outbox.chat) == chat,
                        col(Outbox.key) == key,
                        (col(Outbox.id) == row_id)
                        | ((col(Outbox.id) < row_id) & (col(Outbox.state) == PENDING)),
                    )
                    .values(state=case((col(Outbox.id) == row_id, DONE), else_=SUPERSEDED))
                )
                if ref is not None:
                    stmt = self._insert(MessageRef).values(chat=chat, key=key, ref=ref)
                    s.exec(stmt.on_conflict_do_update(index_elements=["chat", "key"], set_={"ref": ref}))
                    self._refs.setdefault(chat, {})[key] = ref
            self._done(s)

    def outbox_superseded(self, row_ids: Sequence[int]) -> None:
        """Rows that will never be sent (a newer row with the same key replaces them)."""
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
        with self._session() as s:
            s.exec(
                update(Outbox)
                .where(col(Outbox.id) == row_id)
                .values(not_before=not_before, attempts=col(Outbox.attempts) + 1)
            )
            self._done(s)

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
        with self._session() as s:
            s.exec(delete(ChatClaim).where(col(ChatClaim.chat) == chat, col(ChatClaim.worker) == worker))
            self._done(s)

    def message_ref(self, chat: str, key: str) -> str | None:
        known = self._refs.get(chat)
        if known is not None and key in known:  # read along with the chat's pending rows
            return known[key]
        with self._session() as s:
            row = s.get(MessageRef, (chat, key))
            return row.ref if row else None

    def seen_update(self, platform: str, key: str) -> bool:
        with self._session() as s:
            return s.get(SeenUpdate, (platform, key)) is not None

    # --- deadlines -------------------------------------------------------------------------------
    def set_deadlines(self, match_id: int, deadlines: Sequence[Deadline]) -> None:
        """The match's deadlines are now exactly these (every change of a match sets them)."""
        with self._session() as s:
            s.exec(delete(DeadlineRow).where(col(DeadlineRow.match_id) == match_id))
            if deadlines:
                s.exec(
                    DeadlineRow.__table__.insert(),  # type: ignore[attr-defined]
                    params=[
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
                    ],
                )
            self._done(s)

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
        with self._session() as s:
            value = s.exec(select(func.min(DeadlineRow.due))).first()
            return float(value) if value is not None else None


def _deadline(row: DeadlineRow) -> Deadline:
    return Deadline(row.match_id, row.kind, row.due, row.version, tuple(int(x) for x in row.seats or ()))


def _user(row: User) -> UserRec:
    assert row.id is not None
    return UserRec(id=row.id, platform=row.platform, ext_id=row.ext_id, name=row.name, lang=row.lang)


def _room(row: Room) -> RoomRec:
    assert row.id is not None
    return RoomRec(id=row.id, platform=row.platform, ext_id=row.ext_id, lang=row.lang)
