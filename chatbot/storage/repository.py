"""The SQLModel implementation of the core's :class:`~chatbot.core.ports.Repository` and of the
runtime's :class:`~chatbot.core.ports.RuntimeStore`: one :class:`SqlRepository` over one database.

It is made of parts that share one :class:`~chatbot.storage.db.Db` (the engine, the prebuilt
statements of :mod:`~chatbot.storage.statements` and the unit of work: one update is one
transaction): :class:`~chatbot.storage.game_store.GameStore` (users, rooms, matches, actions),
:class:`~chatbot.storage.record_store.RecordStore` (results, key/value),
:class:`~chatbot.storage.runtime_store.OutboxStore` (the outbox, claims,
message references, update ids) and :class:`~chatbot.storage.deadline_store.DeadlineStore`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from chatbot.core.ports import RoomRec
from chatbot.storage.db import (
    FIRST_REVISION,
    HEAD_REVISION,
    Db,
    alembic_config,
    database_url,
    unavailable,
    upgrade,
)
from chatbot.storage.deadline_store import DeadlineStore
from chatbot.storage.game_store import GameStore
from chatbot.storage.record_store import RecordStore
from chatbot.storage.runtime_store import OutboxStore
from chatbot.storage.statements import DONE, PENDING, SUPERSEDED

__all__ = [
    "DONE",
    "FIRST_REVISION",
    "HEAD_REVISION",
    "PENDING",
    "SUPERSEDED",
    "SqlRepository",
    "alembic_config",
    "database_url",
    "unavailable",
    "upgrade",
]


class SqlRepository(GameStore, RecordStore, OutboxStore, DeadlineStore):
    """Repository over any SQLAlchemy URL; brings the schema up to date on first use."""

    def __init__(self, url: str | None = None) -> None:
        db = Db(url)
        GameStore.__init__(self, db)
        RecordStore.__init__(self, db)
        OutboxStore.__init__(self, db)
        DeadlineStore.__init__(self, db)
        self.url = db.url
        self.engine = db.engine
        self.dialect = db.dialect

    @contextmanager
    def unit(self, update: tuple[str, str] | None = None) -> Iterator[bool]:
        """One transaction for everything the block does through this repository in this thread
        (see :meth:`Db.unit <chatbot.storage.db.Db.unit>`)."""
        with self.db.unit(update) as fresh:
            yield fresh

    def move_room(self, platform: str, old_ext: str, new_ext: str) -> RoomRec | None:
        """The chat ``old_ext`` became ``new_ext`` (a Telegram group upgraded to a supergroup): its
        room, its matches and its undelivered messages move there, and the messages of the old chat
        are forgotten (they cannot be edited from the new one). None when there is nothing (any more)
        at ``old_ext``: a second notice of the same move does nothing."""
        with self.db.unit():
            room = self._move_room(platform, old_ext, new_ext)
            if room is not None:
                self._move_queue(platform, old_ext, new_ext)
            return room
