"""Test players: a matrix-nio client per person that syncs in the background and records what it sees.

Every event a player's sync delivers is appended to ``player.messages`` once (an event consumed by a
sync is never delivered again, so tests search the record instead of waiting for "the next" event).
Every wait has a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nio import (
    AsyncClient,
    AsyncClientConfig,
    InviteMemberEvent,
    MegolmEvent,
    RoomCreateError,
    RoomPreset,
    RoomSendError,
    SyncError,
)
from nio.crypto import ENCRYPTION_ENABLED

from tests.matrix.homeserver import Account

SYNC_FILTER = {
    "presence": {"not_types": ["*"]},
    "room": {"timeline": {"limit": 200}, "ephemeral": {"not_types": ["*"]}},
}


@dataclass
class Msg:
    room_id: str
    event_id: str
    sender: str
    type: str
    content: dict[str, Any]
    received: float
    encrypted: bool = False
    undecryptable: bool = False

    @property
    def body(self) -> str:
        return str(self.content.get("body", ""))

    @property
    def msgtype(self) -> str | None:
        return self.content.get("msgtype")

    @property
    def relates(self) -> dict[str, Any]:
        return self.content.get("m.relates_to") or {}

    @property
    def reply_to(self) -> str | None:
        return (self.relates.get("m.in_reply_to") or {}).get("event_id")

    @property
    def replaces(self) -> str | None:
        return self.relates.get("event_id") if self.relates.get("rel_type") == "m.replace" else None


@dataclass
class Player:
    """One person at the table."""

    url: str
    account: Account
    store: Path | None = None
    e2e: bool = False
    auto_join: bool = True
    messages: list[Msg] = field(default_factory=list)
    client: AsyncClient | None = None
    invited_to: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._new = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._token: str | None = None

    @property
    def user_id(self) -> str:
        return self.account.user_id

    async def start(self) -> Player:
        encryption = self.e2e and ENCRYPTION_ENABLED
        if encryption:
            assert self.store is not None
            self.store.mkdir(parents=True, exist_ok=True)
        config = AsyncClientConfig(encryption_enabled=encryption, store_sync_tokens=False)
        self.client = AsyncClient(
            self.url,
            self.account.user_id,
            device_id=self.account.device_id,
            store_path=str(self.store) if self.store else "",
            config=config,
        )
        self.client.restore_login(self.account.user_id, self.account.device_id, self.account.access_token)
        await self._sync_once(timeout=0)
        self._task = asyncio.create_task(self._loop())
        return self

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.client is not None:
            await self.client.close()

    async def _loop(self) -> None:
        while True:
            await self._sync_once(timeout=30_000)

    async def _sync_once(self, timeout: int) -> None:
        assert self.client is not None
        client = self.client
        resp = await client.sync(timeout=timeout, sync_filter=SYNC_FILTER, since=self._token)
        if isinstance(resp, SyncError):
            await asyncio.sleep(0.1)
            return
        self._token = resp.next_batch
        now = time.monotonic()
        if client.olm is not None:
            if client.should_upload_keys:
                await client.keys_upload()
            if client.should_query_keys:
                await client.keys_query()
            if client.should_claim_keys:
                await client.keys_claim(client.get_users_for_key_claiming())
            await client.send_to_device_messages()
        for room_id, info in resp.rooms.invite.items():
            for event in info.invite_state:
                if isinstance(event, InviteMemberEvent) and event.state_key == self.user_id:
                    self.invited_to.append(room_id)
            if self.auto_join:
                await client.join(room_id)
        for room_id, info in resp.rooms.join.items():
            for event in info.timeline.events:
                source = event.source or {}
                self.messages.append(
                    Msg(
                        room_id=room_id,
                        event_id=source.get("event_id") or getattr(event, "event_id", ""),
                        sender=source.get("sender") or getattr(event, "sender", ""),
                        type=source.get("type", ""),
                        content=dict(source.get("content") or {}),
                        received=now,
                        encrypted=bool(getattr(event, "decrypted", False)),
                        undecryptable=isinstance(event, MegolmEvent),
                    )
                )
        self._new.set()

    # --- waiting -------------------------------------------------------------------------------
    async def wait_for(
        self, predicate: Callable[[Msg], bool], timeout: float = 20.0, start: int = 0, what: str = "a message"
    ) -> Msg:
        """The first recorded message from index ``start`` on that matches; waits up to ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        i = start
        while True:
            while i < len(self.messages):
                if predicate(self.messages[i]):
                    return self.messages[i]
                i += 1
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = "\n---\n".join(
                    f"[{m.room_id[:8]} {m.sender}] {m.body[:300]}" for m in self.messages[-6:]
                )
                raise AssertionError(
                    f"{self.user_id}: timed out waiting for {what}; last messages:\n{recent}"
                )
            self._new.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), remaining)

    def notices(self, room_id: str, sender: str | None = None) -> list[Msg]:
        """Original (not edit) notices in a room, in order."""
        return [
            m
            for m in self.messages
            if m.room_id == room_id
            and m.type == "m.room.message"
            and m.msgtype == "m.notice"
            and not m.replaces
            and (sender is None or m.sender == sender)
        ]

    def current(self, msg: Msg) -> str:
        """The text of a message after its latest edit."""
        body = msg.body
        for m in self.messages:
            if m.replaces == msg.event_id and m.sender == msg.sender:
                body = str((m.content.get("m.new_content") or {}).get("body", body))
        return body

    def edits(self, room_id: str) -> list[Msg]:
        return [m for m in self.messages if m.room_id == room_id and m.replaces]

    # --- acting --------------------------------------------------------------------------------
    async def say(self, room_id: str, text: str) -> str:
        assert self.client is not None
        resp = await self.client.room_send(
            room_id, "m.room.message", {"msgtype": "m.text", "body": text}, ignore_unverified_devices=True
        )
        assert not isinstance(resp, RoomSendError), resp
        return str(resp.event_id)

    async def react(self, room_id: str, event_id: str, key: str) -> str:
        """React to a message with ``key`` (an annotation, as a client's reaction button sends it)."""
        assert self.client is not None
        content = {"m.relates_to": {"rel_type": "m.annotation", "event_id": event_id, "key": key}}
        resp = await self.client.room_send(room_id, "m.reaction", content, ignore_unverified_devices=True)
        assert not isinstance(resp, RoomSendError), resp
        return str(resp.event_id)

    async def create_room(
        self, invite: list[str], name: str | None = None, direct: bool = False, encrypted: bool = False
    ) -> str:
        assert self.client is not None
        state = (
            [{"type": "m.room.encryption", "state_key": "", "content": {"algorithm": "m.megolm.v1.aes-sha2"}}]
            if encrypted
            else []
        )
        resp = await self.client.room_create(
            name=name,
            invite=invite,
            is_direct=direct,
            preset=RoomPreset.trusted_private_chat if direct else RoomPreset.private_chat,
            initial_state=state,
        )
        assert not isinstance(resp, RoomCreateError), resp
        return str(resp.room_id)

    async def wait_joined(self, room_id: str, user_id: str, timeout: float = 20.0) -> None:
        await self.wait_for(
            lambda m: (
                m.room_id == room_id
                and m.type == "m.room.member"
                and m.content.get("membership") == "join"
                and m.sender == user_id
            ),
            timeout,
            what=f"{user_id} to join",
        )

    async def leave(self, room_id: str) -> None:
        assert self.client is not None
        await self.client.room_leave(room_id)


async def players(url: str, accounts: list[Account], tmp: Path, e2e: bool = False) -> list[Player]:
    out = []
    for acc in accounts:
        out.append(await Player(url, acc, store=tmp / f"store-{acc.localpart}", e2e=e2e).start())
    return out
