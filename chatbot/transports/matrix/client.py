"""Logging in and receiving: the session, ``/sync`` and a timeline gap filled from ``/messages``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from nio import (
    AsyncClient,
    AsyncClientConfig,
    LoginResponse,
    MegolmEvent,
    MessageDirection,
    RoomMessagesError,
    SyncError,
    WhoamiError,
)
from nio.exceptions import EncryptionError, LocalProtocolError

from chatbot.transports.matrix.base import PLATFORM, SYNC_FILTER, LoginFailed, MatrixBase

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


class Client(MatrixBase):
    """Login, session and sync."""

    async def _login(self) -> None:
        session = await self._kv_get("session") or {}
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
                await self._save_session(who.user_id, device, token)
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
        await self._save_session(resp.user_id, resp.device_id, resp.access_token)

    async def _save_session(self, user_id: str, device_id: str, token: str) -> None:
        await self._kv_set("session", {"user_id": user_id, "device_id": device_id, "access_token": token})

    async def _set_display_name(self) -> None:
        assert self.client is not None
        if not self.display_name:
            return
        with contextlib.suppress(Exception):
            current = await self.client.get_displayname(self.user_id)
            if getattr(current, "displayname", None) != self.display_name:
                await self.client.set_displayname(self.display_name)

    # ------------------------------------------------------------------------------------------
    # receiving

    async def _sync(self, timeout: int, full_state: bool = False) -> Any:
        assert self.client is not None
        backoff = 0.5
        while True:
            resp = await self.client.sync(
                timeout=timeout,
                sync_filter=SYNC_FILTER,
                since=self._token,
                full_state=full_state or None,
                set_presence="offline",
            )
            if not isinstance(resp, SyncError):
                return resp
            if resp.status_code == "M_UNKNOWN_TOKEN" and self.password and not self.access_token:
                log.warning("access token expired; logging in again")
                old = self.client
                # the same device again, so that its encryption keys stay valid
                await self._kv_set("session", {"device_id": old.device_id if old else None})
                await self._login()
                if old is not None and old is not self.client:
                    await old.close()
                continue
            delay = (resp.retry_after_ms or 0) / 1000 or backoff
            log.warning("sync failed (%s); again in %.1f s", resp, delay)
            await asyncio.sleep(delay)
            backoff = min(backoff * 2, 30.0)

    async def _sync_loop(self) -> None:
        while not self._stopping:
            resp = await self._sync(timeout=self.sync_timeout_ms)
            await self._process_sync(resp)

    async def _process_sync(self, resp: Any, skip_messages: bool = False) -> None:
        """Handle one sync response, then remember its token (and only then)."""
        await self._crypto_housekeeping()
        for room_id, info in resp.rooms.invite.items():
            await self._on_invite(room_id, info.invite_state)
        for room_id, info in resp.rooms.join.items():
            events = list(info.timeline.events)
            if info.timeline.limited and not skip_messages and self._token and info.timeline.prev_batch:
                events = await self._backfill(room_id, info.timeline.prev_batch, self._token) + events
            for event in events:
                try:
                    await self._on_room_event(room_id, event, skip_messages)
                except Exception:  # one bad event must not stop the bot, nor come back after a restart
                    log.exception("could not handle event %s in %s", getattr(event, "event_id", "?"), room_id)
                    if getattr(event, "event_id", None):
                        self._remember_handled(event.event_id)
        for room_id in resp.rooms.leave:
            if room_id in self._dms.values():
                await self._forget_dm_room(room_id)
            else:  # kicked or banned from a table room: its match waits until the bot is back
                await self.runtime.perform(self.core.bot_presence, PLATFORM, room_id, False)
        await self._retry_undecrypted()
        self._token = resp.next_batch
        await self._kv_set("sync", {"next_batch": self._token, "counters": self._counters})

    async def _backfill(self, room_id: str, prev_batch: str, since: str) -> list[Any]:
        """The events of a timeline gap (between our last token and ``prev_batch``), oldest first."""
        assert self.client is not None
        found: list[Any] = []
        start: str | None = prev_batch
        for _ in range(20):  # at most 2,000 events
            resp = await self.client.room_messages(
                room_id, start=start, end=since, direction=MessageDirection.back, limit=100
            )
            if isinstance(resp, RoomMessagesError) or not resp.chunk:
                break
            found.extend(resp.chunk)
            if not resp.end or resp.end == start:
                break
            start = resp.end
        found.reverse()
        out = []
        for event in found:
            if isinstance(event, MegolmEvent) and self._olm:
                event.room_id = room_id
                with contextlib.suppress(EncryptionError, LocalProtocolError):
                    event = self.client.decrypt_event(event)
            out.append(event)
        log.info("filled a gap of %d events in %s", len(out), room_id)
        return out
