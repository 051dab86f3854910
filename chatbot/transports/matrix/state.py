"""The small state that several parts of :class:`~chatbot.transports.matrix.bot.MatrixBot` use, each
as an object handed to them: the transport's key/value state (:class:`State`), the hand-over of
events to the runtime (:class:`Inbox`) and what the bot has seen in its rooms (:class:`RoomLog`).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from chatbot.core.types import Inbound
from chatbot.runtime import Runtime
from chatbot.transports.matrix.base import HANDLED_MEMORY, SENDER_MEMORY, Stats

T = TypeVar("T")

#: how many messages are remembered with their room, for threading an answer to them
REPLY_MEMORY = 2000


class State:
    """The transport's own small state (session, sync token, direct rooms, reaction keys), kept in
    the core's key/value store under the bot's namespace, through the runtime's database thread."""

    def __init__(self, runtime: Runtime, namespace: str) -> None:
        self.runtime = runtime
        self.namespace = namespace

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the runtime's database thread."""
        return await self.runtime.call(fn, *args)

    async def get(self, key: str) -> Any:
        return await self.runtime.kv_get(self.namespace, key)

    async def set(self, key: str, value: Any) -> None:
        await self.runtime.kv_set(self.namespace, key, value)


class Inbox:
    """Events handed to the runtime one at a time, each once: the ids of handled events are
    remembered (the newest :data:`HANDLED_MEMORY`), and :meth:`close` stops between two events,
    never inside one."""

    def __init__(self, runtime: Runtime, stats: Stats) -> None:
        self.runtime = runtime
        self.stats = stats
        self._handled: deque[str] = deque(maxlen=HANDLED_MEMORY)
        self._handled_set: set[str] = set()
        self._busy = asyncio.Lock()
        #: set by :meth:`close`: no more events are handed over
        self.stopping = False

    def open(self) -> None:
        """Take events again (a start, on the running loop)."""
        self.stopping = False
        self._busy = asyncio.Lock()

    async def close(self, then: Callable[[], None]) -> None:
        """Take no more events; ``then()`` runs once the event in progress (if any) is committed."""
        self.stopping = True
        async with self._busy:
            then()

    def seen(self, event_id: str) -> bool:
        """Whether the event was handled already."""
        return event_id in self._handled_set

    def skip(self, event_id: str) -> None:
        """Count the event as handled without handing it over (nothing to do, or it failed)."""
        if len(self._handled) == self._handled.maxlen:
            self._handled_set.discard(self._handled[0])
        self._handled.append(event_id)
        self._handled_set.add(event_id)

    async def dispatch(self, msg: Inbound, event_id: str) -> None:
        """Hand ``msg`` to the runtime with the event id as its update key (applied once)."""
        async with self._busy:  # close() stops only between two messages, never inside one
            if self.stopping:
                return
            await self.runtime.handle(replace(msg, update_key=event_id))
            self.skip(event_id)
            self.stats.handled += 1


class RoomLog:
    """What the bot has seen in its rooms: how far each room has moved on (its messages, not their
    edits: a table further back than ``repost_after`` is posted anew), who sent recent messages (a
    reply names the author of its target) and which room a message was in (an answer is threaded to
    it only there)."""

    def __init__(self) -> None:
        self._counters: dict[str, int] = {}
        #: event id of a message -> its sender (the bot's messages too)
        self.senders: OrderedDict[str, str] = OrderedDict()
        self._rooms: OrderedDict[str, str] = OrderedDict()  # event id -> room id

    def load(self, counters: dict[str, int]) -> None:
        self._counters = dict(counters)

    def counters(self) -> dict[str, int]:
        """The rooms' positions, to be saved with the sync token."""
        return self._counters

    def position(self, room_id: str) -> int:
        return self._counters.get(room_id, 0)

    def saw(self, room_id: str, event: Any) -> None:
        """An event of the room's timeline went by."""
        source = getattr(event, "source", None) or {}
        message = source.get("type") in {"m.room.message", "m.room.encrypted"}
        if (
            message
            and ((source.get("content") or {}).get("m.relates_to") or {}).get("rel_type") != "m.replace"
        ):
            # how far the room has moved on: edits do not push a message out of sight
            self._counters[room_id] = self._counters.get(room_id, 0) + 1
        sender = getattr(event, "sender", None)
        event_id = getattr(event, "event_id", None)
        if message and sender and event_id:
            self.senders[event_id] = sender  # whose message a later reply answers
            while len(self.senders) > SENDER_MEMORY:
                self.senders.popitem(last=False)

    def sender(self, event_id: str) -> str | None:
        return self.senders.get(event_id)

    def answerable(self, event_id: str, room_id: str) -> None:
        """A message the bot handed over: an answer to it is threaded to it in its room."""
        self._rooms[event_id] = room_id
        while len(self._rooms) > REPLY_MEMORY:
            self._rooms.popitem(last=False)

    def room_of(self, event_id: str) -> str | None:
        return self._rooms.get(event_id)
