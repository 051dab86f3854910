"""All tables in one module. JSON columns are replaced, never changed in place (SQLAlchemy does not
see in-place changes of a plain JSON column)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, Index, UniqueConstraint
from sqlmodel import Field, SQLModel


def _now() -> datetime:
    return datetime.now(UTC)


class User(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("platform", "ext_id"),)
    id: int | None = Field(default=None, primary_key=True)
    platform: str = Field(index=True)
    ext_id: str
    name: str
    lang: str | None = None
    created_at: datetime = Field(default_factory=_now)


class Room(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("platform", "ext_id"),)
    id: int | None = Field(default=None, primary_key=True)
    platform: str = Field(index=True)
    ext_id: str
    lang: str | None = None
    created_at: datetime = Field(default_factory=_now)


class Match(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    room_id: int = Field(foreign_key="room.id", index=True)
    game: str
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    seed: str
    #: optimistic concurrency: every change is ``UPDATE ... WHERE version = :seen``
    version: int = 0
    status: str = Field(index=True)
    host_user_id: int | None = Field(default=None, foreign_key="user.id")
    meta: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=_now)
    updated_at: datetime = Field(default_factory=_now)


class Seat(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("match_id", "seat"),)
    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    seat: int
    name: str
    user_id: int | None = Field(default=None, foreign_key="user.id", index=True)
    ai: str | None = None


class Snapshot(SQLModel, table=True):
    """The engine state after the latest action, as written by the engine's own ``dump``."""

    match_id: int = Field(foreign_key="match.id", primary_key=True)
    version: int
    state: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))


class ActionLog(SQLModel, table=True):
    """Append-only: one row per applied action, with the events it produced (codes, not text)."""

    __table_args__ = (UniqueConstraint("match_id", "ply"),)
    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    ply: int
    seat: int
    notation: str
    events: list[Any] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    at: datetime = Field(default_factory=_now)


class MatchResult(SQLModel, table=True):
    """A finished match's result (issue #16): when it ended, and the figures the statistics read
    (places, scores, winners and the game's own measure per seat), written with its last action.
    Matches finished before this table existed have none; the core makes it when first asked."""

    match_id: int = Field(foreign_key="match.id", primary_key=True)
    finished_at: datetime = Field(index=True)
    result: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))


class KeyValue(SQLModel, table=True):
    """Small transport state: sync tokens, direct-room ids, message ids to edit."""

    namespace: str = Field(primary_key=True)
    key: str = Field(primary_key=True)
    value: Any = Field(default=None, sa_column=Column(JSON))


# --- the runtime's tables (issue #12): outbox, chat claims, message refs, deadlines, inbound ids ---


class Outbox(SQLModel, table=True):
    """A committed outbound message, delivered afterwards in ``id`` order per ``chat``.

    ``state`` is pending, done or superseded (an older edit of the same ``key`` that a newer one
    made pointless); ``held`` rows wait for the recipient to open a private chat; ``not_before``
    (epoch seconds) delays a retry; ``sending`` marks a send that may have reached the platform."""

    __table_args__ = (
        Index("ix_outbox_chat_id", "chat", "id"),
        Index("ix_outbox_state_chat", "state", "chat"),
    )
    id: int | None = Field(default=None, primary_key=True)
    platform: str
    chat: str
    key: str | None = None
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=_now)
    state: str = "pending"
    attempts: int = 0
    not_before: float = 0.0
    held: bool = False
    #: set just before a new message is sent (the transport's note of where it would land); a
    #: pending row with it may have reached the platform already (see ``Runtime._deliver``)
    sending: Any = Field(default=None, sa_column=Column(JSON, nullable=True))


class ChatClaim(SQLModel, table=True):
    """The one worker sending a chat's queue, until ``until`` (epoch seconds): a lease."""

    chat: str = Field(primary_key=True)
    worker: str
    until: float


class MessageRef(SQLModel, table=True):
    """The platform's reference of the message last sent under ``key`` in ``chat`` (to edit it)."""

    chat: str = Field(primary_key=True)
    key: str = Field(primary_key=True)
    ref: str


class Deadline(SQLModel, table=True):
    """Something to do in a match when ``due`` (epoch seconds) has come, valid while the match is at
    ``version``. A claim by a worker moves ``due`` to the end of its lease, so that ``due <= now``
    alone (under the index) finds what may be taken."""

    match_id: int = Field(foreign_key="match.id", primary_key=True)
    kind: str = Field(primary_key=True)
    due: float = Field(index=True)
    version: int
    seats: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    claimed_by: str | None = None
    claimed_until: float | None = None


class SeenUpdate(SQLModel, table=True):
    """An inbound update already applied (Telegram update_id, Matrix event id): a redelivery is a no-op."""

    platform: str = Field(primary_key=True)
    key: str = Field(primary_key=True)
    at: datetime = Field(default_factory=_now)
