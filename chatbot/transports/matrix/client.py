"""The account's session on the homeserver: the nio client, logging in, one ``/sync`` request."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

from nio import AsyncClient, AsyncClientConfig, LoginResponse, SyncError, WhoamiError

from chatbot.transports.matrix.base import SYNC_FILTER, LoginFailed, _localpart
from chatbot.transports.matrix.state import State

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


class Session:
    """The nio client of the bot's account, logged in with a password or an access token (the
    session is saved in :class:`State` and reused after a restart, on the same device so that its
    encryption keys stay valid). A sync that meets an expired token logs in again, which replaces
    :attr:`client`: the other parts read ``session.client`` when they need it and never keep it."""

    def __init__(
        self,
        state: State,
        homeserver: str,
        user: str,
        *,
        password: str | None,
        access_token: str | None,
        encryption: bool,
        store_path: Path | None,
        device_name: str,
        display_name: str | None,
    ) -> None:
        self.state = state
        self.homeserver = homeserver
        self.user = user
        self.password = password
        self.access_token = access_token
        self.encryption = encryption
        self.store_path = store_path
        self.device_name = device_name
        self.display_name = display_name
        self.client: AsyncClient | None = None
        #: the account's full user id (the server's answer once logged in)
        self.user_id = user

    @property
    def olm(self) -> Any:
        """The client's encryption machine (None: no end-to-end encryption)."""
        return self.client.olm if self.client is not None else None

    async def login(self) -> None:
        session = await self.state.get("session") or {}
        config = AsyncClientConfig(
            max_limit_exceeded=0, encryption_enabled=self.encryption, store_sync_tokens=False
        )
        if self.store_path is not None:
            self.store_path.mkdir(parents=True, exist_ok=True)
        client = AsyncClient(
            self.homeserver,
            self.user,
            device_id=session.get("device_id"),
            store_path=str(self.store_path) if self.store_path else "",
            config=config,
        )
        self.client = client
        token = self.access_token or session.get("access_token")
        if token:
            client.access_token = token
            who = await client.whoami()
            if not isinstance(who, WhoamiError):
                device = who.device_id or session.get("device_id") or "UNKNOWN"
                client.restore_login(who.user_id, device, token)
                await self._save(who.user_id, device, token)
                self.user_id = who.user_id
                return
            if self.access_token or not self.password:
                await client.close()
                raise LoginFailed(f"the access token was refused: {who}")
            client.access_token = ""
        assert self.password
        resp = await client.login(self.password, device_name=self.device_name)
        if not isinstance(resp, LoginResponse):
            await client.close()
            raise LoginFailed(f"login failed: {resp}")
        self.user_id = resp.user_id
        await self._save(resp.user_id, resp.device_id, resp.access_token)

    async def _save(self, user_id: str, device_id: str, token: str) -> None:
        await self.state.set("session", {"user_id": user_id, "device_id": device_id, "access_token": token})

    async def set_display_name(self) -> None:
        assert self.client is not None
        if not self.display_name:
            return
        with contextlib.suppress(Exception):
            current = await self.client.get_displayname(self.user_id)
            if getattr(current, "displayname", None) != self.display_name:
                await self.client.set_displayname(self.display_name)

    async def close(self) -> None:
        if self.client is not None:
            await self.client.close()
        self.client = None

    async def sync(self, since: str | None, timeout: int, full_state: bool = False) -> Any:
        """One ``/sync`` answer since the token ``since``, however many tries it takes."""
        assert self.client is not None
        backoff = 0.5
        while True:
            resp = await self.client.sync(
                timeout=timeout,
                sync_filter=SYNC_FILTER,
                since=since,
                full_state=full_state or None,
                set_presence="offline",
            )
            if not isinstance(resp, SyncError):
                return resp
            if resp.status_code == "M_UNKNOWN_TOKEN" and self.password and not self.access_token:
                log.warning("access token expired; logging in again")
                old = self.client
                # the same device again, so that its encryption keys stay valid
                await self.state.set("session", {"device_id": old.device_id if old else None})
                await self.login()
                if old is not None and old is not self.client:
                    await old.close()
                continue
            delay = (resp.retry_after_ms or 0) / 1000 or backoff
            log.warning("sync failed (%s); again in %.1f s", resp, delay)
            await asyncio.sleep(delay)
            backoff = min(backoff * 2, 30.0)

    # ------------------------------------------------------------------------------------------
    # what the client knows of the rooms from the syncs

    def member_name(self, room_id: str, user_id: str) -> str:
        """A member's name in the room (the user id's local part when the room does not say)."""
        room = self.client.rooms.get(room_id) if self.client is not None else None
        member = room.users.get(user_id) if room is not None else None
        name = getattr(member, "display_name", None) if member is not None else None
        return name or _localpart(user_id)

    def own_names(self, room_id: str) -> list[str]:
        """The names a message may address the bot by in the room."""
        names = [self.user_id, _localpart(self.user_id), self.display_name or ""]
        if self.client is not None and room_id in self.client.rooms:
            names.append(self.client.rooms[room_id].user_name(self.user_id) or "")
        return names

    def room_encrypted(self, room_id: str) -> bool:
        """Whether messages to the room are encrypted (it is, and the bot can)."""
        room = self.client.rooms.get(room_id) if self.client is not None else None
        return bool(room is not None and room.encrypted and self.olm is not None)
