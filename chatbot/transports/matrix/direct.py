"""Direct rooms: one per player, created by the bot or opened by the player, kept in ``m.direct``."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any
from urllib.parse import quote

from nio import RoomCreateError, RoomPreset

from chatbot.core import i18n
from chatbot.transports.matrix.base import MEGOLM, Stats, _check, _Permanent
from chatbot.transports.matrix.client import Session
from chatbot.transports.matrix.state import State

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


class DirectRooms:
    """Each player's direct room (the mapping is kept in :class:`State`; clients learn it from the
    bot's ``m.direct`` account data). With ``encrypt`` the rooms the bot opens are encrypted."""

    def __init__(self, state: State, session: Session, stats: Stats, *, encrypt: bool) -> None:
        self.state = state
        self.session = session
        self.stats = stats
        self.encrypt = encrypt
        #: user id -> direct room id
        self.rooms: dict[str, str] = {}
        self._lock = asyncio.Lock()
        #: encrypted direct rooms the bot created that no sync has shown yet
        self._new_encrypted: set[str] = set()

    async def load(self) -> None:
        self._lock = asyncio.Lock()
        self.rooms = dict(await self.state.get("dms") or {})

    def room_of(self, user_id: str) -> str | None:
        return self.rooms.get(user_id)

    def is_direct(self, room_id: str) -> bool:
        return room_id in self.rooms.values()

    def member(self, room_id: str) -> str | None:
        """The player whose direct room it is."""
        for user, room in self.rooms.items():
            if room == room_id:
                return user
        return None

    def can_send(self, room_id: str, user_id: str) -> bool:
        """Whether a message to the direct room can be read when sent: always in a plain room; in an
        encrypted one once the player has joined (the room's key is shared with joined members)."""
        client = self.session.client
        if not self.encrypt or client is None:
            return True
        room = client.rooms.get(room_id)
        if room is None:
            return room_id not in self._new_encrypted
        if not room.encrypted:
            return True
        return user_id in room.users and user_id not in room.invited_users

    async def open(self, user_id: str, lang: str = "fi") -> str:
        """The player's direct room, created (and the player invited) if there is none."""
        room_id = self.rooms.get(user_id)
        if room_id:
            return room_id
        async with self._lock:  # chats are delivered in parallel; m.direct is read-modify-write
            room_id = self.rooms.get(user_id)
            if room_id:
                return room_id
            client = self.session.client
            assert client is not None
            if not user_id.startswith("@"):
                raise _Permanent(f"not a Matrix user id: {user_id!r}")
            extra: dict[str, Any] = {}
            if self.encrypt:
                # encrypted from the first event; the topic is state, readable by every client, so a
                # player whose app cannot decrypt learns why the hand does not show
                t = i18n.translator(lang)
                extra["initial_state"] = [
                    {"type": "m.room.encryption", "state_key": "", "content": {"algorithm": MEGOLM}}
                ]
                extra["topic"] = t.gettext(
                    "Your cards come here encrypted. If you see only messages that cannot be decrypted, "
                    "use an app with encryption (for example Element) or verify this session."
                )
            resp = await client.room_create(
                is_direct=True, invite=[user_id], preset=RoomPreset.private_chat, **extra
            )
            if isinstance(resp, RoomCreateError):
                _check(resp, f"direct room for {user_id}")
            room_id = resp.room_id
            if self.encrypt:
                self._new_encrypted.add(room_id)
            self.stats.dms_created += 1
            await self.set(user_id, room_id)
            await self._mark_direct(user_id, room_id)
            return room_id

    async def set(self, user_id: str, room_id: str) -> None:
        self.rooms[user_id] = room_id
        await self.state.set("dms", dict(self.rooms))

    async def forget(self, user_id: str) -> None:
        if self.rooms.pop(user_id, None) is not None:
            await self.state.set("dms", dict(self.rooms))

    async def forget_room(self, room_id: str) -> None:
        user = self.member(room_id)
        if user is not None:
            await self.forget(user)

    async def _mark_direct(self, user_id: str, room_id: str) -> None:
        """Add the room to the bot's ``m.direct`` account data (clients show it as a direct chat)."""
        client = self.session.client
        assert client is not None
        path = f"/_matrix/client/v3/user/{quote(self.session.user_id)}/account_data/m.direct"
        headers = {"Authorization": f"Bearer {client.access_token}", "Content-Type": "application/json"}
        try:
            resp = await client.send("GET", path, headers=headers)
            data = await resp.json() if resp.status == 200 else {}
            rooms = [r for r in data.get(user_id, []) if r != room_id] + [room_id]
            data[user_id] = rooms
            resp = await client.send("PUT", path, json.dumps(data), headers=headers)
            if resp.status != 200:
                log.warning("could not update m.direct: HTTP %s", resp.status)
        except Exception as exc:  # cosmetic for clients; the kv store is what the bot relies on
            log.warning("could not update m.direct: %s", exc)
