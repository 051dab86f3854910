"""Direct rooms: one per player, created by the bot or opened by the player, kept in ``m.direct``."""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import quote

from nio import RoomCreateError, RoomPreset

from chatbot.core import i18n
from chatbot.transports.matrix.base import MEGOLM, MatrixBase, _check, _Permanent

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


class Direct(MatrixBase):
    """Direct rooms."""

    def _can_send_dm(self, room_id: str, user_id: str) -> bool:
        """Whether a message to the direct room can be read when sent: always in a plain room; in an
        encrypted one once the player has joined (the room's key is shared with joined members)."""
        if not self.encrypt_dms or self.client is None:
            return True
        room = self.client.rooms.get(room_id)
        if room is None:
            return room_id not in self._new_encrypted_dms
        if not room.encrypted:
            return True
        return user_id in room.users and user_id not in room.invited_users

    async def _dm_room(self, user_id: str, lang: str = "fi") -> str:
        room_id = self._dms.get(user_id)
        if room_id:
            return room_id
        async with self._dm_lock:  # chats are delivered in parallel; m.direct is read-modify-write
            room_id = self._dms.get(user_id)
            if room_id:
                return room_id
            assert self.client is not None
            if not user_id.startswith("@"):
                raise _Permanent(f"not a Matrix user id: {user_id!r}")
            extra: dict[str, Any] = {}
            if self.encrypt_dms:
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
            resp = await self.client.room_create(
                is_direct=True, invite=[user_id], preset=RoomPreset.private_chat, **extra
            )
            if isinstance(resp, RoomCreateError):
                _check(resp, f"direct room for {user_id}")
            room_id = resp.room_id
            if self.encrypt_dms:
                self._new_encrypted_dms.add(room_id)
            self.stats.dms_created += 1
            await self._set_dm(user_id, room_id)
            await self._mark_direct(user_id, room_id)
            return room_id

    async def _set_dm(self, user_id: str, room_id: str) -> None:
        self._dms[user_id] = room_id
        await self._kv_set("dms", dict(self._dms))

    async def _forget_dm(self, user_id: str) -> None:
        if self._dms.pop(user_id, None) is not None:
            await self._kv_set("dms", dict(self._dms))

    async def _forget_dm_room(self, room_id: str) -> None:
        user = self._dm_member(room_id)
        if user is not None:
            await self._forget_dm(user)

    async def _mark_direct(self, user_id: str, room_id: str) -> None:
        """Add the room to the bot's ``m.direct`` account data (clients show it as a direct chat)."""
        assert self.client is not None
        path = f"/_matrix/client/v3/user/{quote(self.user_id)}/account_data/m.direct"
        headers = {"Authorization": f"Bearer {self.client.access_token}", "Content-Type": "application/json"}
        try:
            resp = await self.client.send("GET", path, headers=headers)
            data = await resp.json() if resp.status == 200 else {}
            rooms = [r for r in data.get(user_id, []) if r != room_id] + [room_id]
            data[user_id] = rooms
            resp = await self.client.send("PUT", path, json.dumps(data), headers=headers)
            if resp.status != 200:
                log.warning("could not update m.direct: HTTP %s", resp.status)
        except Exception as exc:  # cosmetic for clients; the kv store is what the bot relies on
            log.warning("could not update m.direct: %s", exc)
