"""Who administers a room (issue #13): :class:`RoomPowers` and the core's ``Members`` port,
:class:`MatrixMembers`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chatbot.transports.matrix.client import Session

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


#: the power level from which a room member administers the room's games (Matrix "moderator")
ADMIN_LEVEL = 50


def _level(content: dict[str, Any], user_id: str) -> int:
    """A user's power level from the content of ``m.room.power_levels``."""
    users = content.get("users") or {}
    try:
        return int(users.get(user_id, content.get("users_default", 0)))
    except (TypeError, ValueError):
        return 0


def _creators_rule(room_version: str) -> bool:
    """Whether the room's creators have unlimited power (room version 12 and its previews)."""
    if room_version.startswith("org.matrix.hydra"):
        return True
    return room_version.isdigit() and int(room_version) >= 12


@dataclass(frozen=True, slots=True)
class RoomPowers:
    """What decides who administers a room: its power levels and, from room version 12 on, its
    creators (the ``m.room.create`` sender and ``additional_creators``), who are not listed there."""

    levels: dict[str, Any]
    creators: frozenset[str] = frozenset()

    @classmethod
    def from_state(cls, events: Iterable[dict[str, Any]]) -> RoomPowers:
        levels: dict[str, Any] = {}
        creators: set[str] = set()
        for event in events:
            kind, content = event.get("type"), event.get("content") or {}
            if kind == "m.room.power_levels" and event.get("state_key", "") == "":
                levels = dict(content)
            elif kind == "m.room.create" and _creators_rule(str(content.get("room_version", "1"))):
                creators = {str(event.get("sender", ""))} | {
                    str(u) for u in content.get("additional_creators") or ()
                }
        return cls(levels, frozenset(creators - {""}))

    def admin(self, user_id: str) -> bool:
        return user_id in self.creators or _level(self.levels, user_id) >= ADMIN_LEVEL


class MatrixMembers:
    """The core's :class:`~chatbot.core.ports.Members` port on Matrix: a room member with power level
    50 or more (or, from room version 12 on, a creator of the room) administers the room's games.
    The room's state is asked of the homeserver (the core waits on its own thread, at most
    ``timeout`` seconds) and remembered for ``ttl`` seconds per room."""

    def __init__(self, session: Session, ttl: float = 30.0, timeout: float = 5.0) -> None:
        self.session = session
        self.ttl = ttl
        self.timeout = timeout
        self.loop: asyncio.AbstractEventLoop | None = None
        self._rooms: OrderedDict[str, tuple[float, RoomPowers]] = OrderedDict()
        self.asked = 0

    def forget(self, room_id: str) -> None:
        self._rooms.pop(room_id, None)

    def is_admin(self, chat_id: str, user_id: str) -> bool | None:
        cached = self._rooms.get(chat_id)
        if cached is not None and cached[0] > time.monotonic():
            return cached[1].admin(user_id)
        powers = self._ask(chat_id)
        if powers is None:
            return None
        self._rooms[chat_id] = (time.monotonic() + self.ttl, powers)
        while len(self._rooms) > 1000:
            self._rooms.popitem(last=False)
        return powers.admin(user_id)

    def _ask(self, room_id: str) -> RoomPowers | None:
        loop, client = self.loop, self.session.client
        if loop is None or client is None or loop.is_closed():
            return None
        try:
            if asyncio.get_running_loop() is loop:
                return None  # an inline core cannot wait for its own loop
        except RuntimeError:
            pass
        self.asked += 1
        future = asyncio.run_coroutine_threadsafe(client.room_get_state(room_id), loop)
        try:
            resp = future.result(timeout=self.timeout)
        except Exception as exc:
            future.cancel()
            log.warning("the state of %s is unavailable: %s", room_id, exc)
            return None
        events = getattr(resp, "events", None)
        if not isinstance(events, list):
            log.warning("the state of %s is unavailable: %s", room_id, resp)
            return None
        return RoomPowers.from_state(events)
