"""Receiving: the sync loop, a sync answer handed to the parts, a timeline gap filled from
``/messages``, and the sync token (saved after each answer, so a restart neither replays nor loses
events)."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from nio import MegolmEvent, MessageDirection, RoomMessagesError
from nio.exceptions import EncryptionError, LocalProtocolError

from chatbot.transports.matrix.client import Session
from chatbot.transports.matrix.crypto import Crypto
from chatbot.transports.matrix.events import Events
from chatbot.transports.matrix.state import Inbox, RoomLog, State

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


class Sync:
    """The sync loop: each answer's invites, timelines and rooms left go to :class:`Events` (after
    the key maintenance of :class:`Crypto`), then the token and the rooms' positions are saved."""

    def __init__(
        self,
        session: Session,
        state: State,
        rooms: RoomLog,
        inbox: Inbox,
        events: Events,
        crypto: Crypto,
        *,
        timeout_ms: int,
    ) -> None:
        self.session = session
        self.state = state
        self.rooms = rooms
        self.inbox = inbox
        self.events = events
        self.crypto = crypto
        self.timeout_ms = timeout_ms
        #: the token of the last sync answer handled (None: the bot never synced)
        self.token: str | None = None

    async def load(self) -> None:
        """The saved token and positions, and the events an older bot saved as handled."""
        saved = await self.state.get("sync") or {}
        self.token = saved.get("next_batch")
        self.rooms.load(saved.get("counters") or {})
        for event_id in await self.state.get("handled") or []:
            self.inbox.skip(event_id)

    async def catch_up(self) -> None:
        """What happened while the bot was away (on the first start ever: the rooms, no messages)."""
        first = self.token is None
        resp = await self.session.sync(self.token, timeout=0, full_state=True)
        await self.process(resp, skip_messages=first)

    async def loop(self) -> None:
        while not self.inbox.stopping:
            resp = await self.session.sync(self.token, timeout=self.timeout_ms)
            await self.process(resp)

    async def process(self, resp: Any, skip_messages: bool = False) -> None:
        """Handle one sync answer, then remember its token (and only then)."""
        await self.crypto.housekeeping()
        for room_id, info in resp.rooms.invite.items():
            await self.events.on_invite(room_id, info.invite_state)
        for room_id, info in resp.rooms.join.items():
            events = list(info.timeline.events)
            if info.timeline.limited and not skip_messages and self.token and info.timeline.prev_batch:
                events = await self._backfill(room_id, info.timeline.prev_batch, self.token) + events
            for event in events:
                try:
                    await self.events.on_room_event(room_id, event, skip_messages)
                except Exception:  # one bad event must not stop the bot, nor come back after a restart
                    log.exception("could not handle event %s in %s", getattr(event, "event_id", "?"), room_id)
                    if getattr(event, "event_id", None):
                        self.inbox.skip(event.event_id)
        for room_id in resp.rooms.leave:
            await self.events.on_left(room_id)
        for room_id, event in await self.crypto.retry_undecrypted():
            await self.events.on_text(room_id, event)
        self.token = resp.next_batch
        await self.state.set("sync", {"next_batch": self.token, "counters": self.rooms.counters()})

    async def _backfill(self, room_id: str, prev_batch: str, since: str) -> list[Any]:
        """The events of a timeline gap (between our last token and ``prev_batch``), oldest first."""
        client = self.session.client
        assert client is not None
        found: list[Any] = []
        start: str | None = prev_batch
        for _ in range(20):  # at most 2,000 events
            resp = await client.room_messages(
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
            if isinstance(event, MegolmEvent) and self.session.olm:
                event.room_id = room_id
                with contextlib.suppress(EncryptionError, LocalProtocolError):
                    event = client.decrypt_event(event)
            out.append(event)
        log.info("filled a gap of %d events in %s", len(out), room_id)
        return out
