"""The SQLModel implementation of the core's :class:`~chatbot.core.ports.Repository`."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import event, inspect, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.engine import Engine as SAEngine
from sqlmodel import Session, col, create_engine, select

from chatbot.core.ports import LOBBY, RUNNING, ActionRec, MatchRec, RoomRec, SeatRec, UserRec
from chatbot.storage.tables import ActionLog, KeyValue, Match, Room, Seat, Snapshot, User

DEFAULT_DB = Path("data") / "pelipoyta.sqlite"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: the revision that is the schema ``create_all`` made before there were migrations
FIRST_REVISION = "0001"
#: any number, the same in every worker: the key of the PostgreSQL lock around an upgrade
_UPGRADE_LOCK = 0x70656C69


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


class SqlRepository:
    """Repository over any SQLAlchemy URL; brings the schema up to date on first use."""

    def __init__(self, url: str | None = None) -> None:
        self.url = database_url(url)
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: SAEngine = create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        upgrade(self.engine)

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session:
            yield session

    # --- users and rooms ------------------------------------------------------------------------
    def user(self, platform: str, ext_id: str, name: str) -> UserRec:
        with self._session() as s:
            row = s.exec(select(User).where(User.platform == platform, User.ext_id == ext_id)).first()
            if row is None:
                row = User(platform=platform, ext_id=ext_id, name=name)
                s.add(row)
                s.commit()
            elif name and row.name != name:
                row.name = name
                s.add(row)
                s.commit()
            return _user(row)

    def find_user(self, platform: str, ext_id: str) -> UserRec | None:
        """The user, or None for someone the bot has never met (nothing is created)."""
        with self._session() as s:
            row = s.exec(select(User).where(User.platform == platform, User.ext_id == ext_id)).first()
            return _user(row) if row else None

    def user_by_id(self, user_id: int) -> UserRec:
        with self._session() as s:
            row = s.get(User, user_id)
            assert row is not None
            return _user(row)

    def set_user_lang(self, user_id: int, lang: str) -> None:
        with self._session() as s:
            row = s.get(User, user_id)
            assert row is not None
            row.lang = lang
            s.add(row)
            s.commit()

    def room(self, platform: str, ext_id: str) -> RoomRec:
        with self._session() as s:
            row = s.exec(select(Room).where(Room.platform == platform, Room.ext_id == ext_id)).first()
            if row is None:
                row = Room(platform=platform, ext_id=ext_id)
                s.add(row)
                s.commit()
            return _room(row)

    def room_by_id(self, room_id: int) -> RoomRec:
        with self._session() as s:
            row = s.get(Room, room_id)
            assert row is not None
            return _room(row)

    def set_room_lang(self, room_id: int, lang: str) -> None:
        with self._session() as s:
            row = s.get(Room, room_id)
            assert row is not None
            row.lang = lang
            s.add(row)
            s.commit()

    # --- matches ----------------------------------------------------------------------------
    def _match_rec(self, s: Session, row: Match) -> MatchRec:
        seats = s.exec(select(Seat).where(Seat.match_id == row.id).order_by(col(Seat.seat))).all()
        snap = s.get(Snapshot, row.id)
        assert row.id is not None
        return MatchRec(
            id=row.id,
            room_id=row.room_id,
            game=row.game,
            options=dict(row.options or {}),
            seed=row.seed,
            version=row.version,
            status=row.status,
            state=dict(snap.state) if snap else None,
            host_user_id=row.host_user_id,
            seats=tuple(SeatRec(seat=x.seat, name=x.name, user_id=x.user_id, ai=x.ai) for x in seats),
            meta=dict(row.meta or {}),
        )

    def active_match(self, room_id: int) -> MatchRec | None:
        with self._session() as s:
            row = s.exec(
                select(Match)
                .where(Match.room_id == room_id, col(Match.status).in_([LOBBY, RUNNING]))
                .order_by(col(Match.id).desc())
            ).first()
            return self._match_rec(s, row) if row else None

    def match(self, match_id: int) -> MatchRec | None:
        with self._session() as s:
            row = s.get(Match, match_id)
            return self._match_rec(s, row) if row else None

    def running_matches(self) -> list[MatchRec]:
        with self._session() as s:
            rows = s.exec(select(Match).where(Match.status == RUNNING).order_by(col(Match.id))).all()
            return [self._match_rec(s, r) for r in rows]

    def running_versions(self) -> list[tuple[int, int]]:
        """(id, version) of every running match, without loading seats or snapshots."""
        with self._session() as s:
            rows = s.exec(select(Match.id, Match.version).where(Match.status == RUNNING)).all()
            return [(int(i), int(v)) for i, v in rows if i is not None]

    def matches_of_user(self, user_id: int) -> list[MatchRec]:
        with self._session() as s:
            rows = s.exec(
                select(Match)
                .join(Seat, col(Seat.match_id) == col(Match.id))
                .where(Seat.user_id == user_id, col(Match.status).in_([LOBBY, RUNNING]))
                .order_by(col(Match.id))
            ).all()
            unique = {r.id: r for r in rows}
            return [self._match_rec(s, r) for r in unique.values()]

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
            self._write_seats(s, row.id, seats)
            s.commit()
            return self._match_rec(s, row)

    def _write_seats(self, s: Session, match_id: int, seats: tuple[SeatRec, ...]) -> None:
        for old in s.exec(select(Seat).where(Seat.match_id == match_id)).all():
            s.delete(old)
        s.flush()
        for x in seats:
            s.add(Seat(match_id=match_id, seat=x.seat, name=x.name, user_id=x.user_id, ai=x.ai))

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
                s.rollback()
                return False
            self._write_seats(s, match_id, seats)
            s.commit()
            return True

    def start_match(
        self, match_id: int, seen_version: int, seats: tuple[SeatRec, ...], state: dict[str, Any], seed: str
    ) -> bool:
        with self._session() as s:
            if not self._bump(s, match_id, seen_version, status=RUNNING, seed=seed):
                s.rollback()
                return False
            self._write_seats(s, match_id, seats)
            s.merge(Snapshot(match_id=match_id, version=seen_version + 1, state=state))
            s.commit()
            return True

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
                s.rollback()
                return False
            ply = int(state.get("ply", seen_version + 1))
            s.add(ActionLog(match_id=match_id, ply=ply, seat=seat, notation=notation, events=list(events)))
            s.merge(Snapshot(match_id=match_id, version=seen_version + 1, state=state))
            if seats is not None:
                self._write_seats(s, match_id, seats)
            s.commit()
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
            row.meta = {**(row.meta or {}), key: value}  # a new dict, so the change is saved
            s.add(row)
            s.commit()

    # --- key/value ---------------------------------------------------------------------------
    def kv_get(self, namespace: str, key: str) -> Any:
        with self._session() as s:
            row = s.get(KeyValue, (namespace, key))
            return row.value if row else None

    def kv_set(self, namespace: str, key: str, value: Any) -> None:
        with self._session() as s:
            s.merge(KeyValue(namespace=namespace, key=key, value=value))
            s.commit()


def _user(row: User) -> UserRec:
    assert row.id is not None
    return UserRec(id=row.id, platform=row.platform, ext_id=row.ext_id, name=row.name, lang=row.lang)


def _room(row: Room) -> RoomRec:
    assert row.id is not None
    return RoomRec(id=row.id, platform=row.platform, ext_id=row.ext_id, lang=row.lang)
