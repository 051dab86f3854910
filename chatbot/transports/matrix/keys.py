"""Reaction keys: which button each key of a message presses, and the keys a message cannot take
again (Matrix refuses the same reaction by one person on one event twice)."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict

from nio import ErrorResponse, ReactionEvent
from nio.exceptions import LocalProtocolError

from chatbot.transports.matrix.base import BUTTON_MEMORY, KEY_INDEX, NO_REDACT_FOR, USED_MEMORY
from chatbot.transports.matrix.client import Session
from chatbot.transports.matrix.state import State

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


class ReactionKeys:
    """The buttons of the bot's messages in the order of their reaction keys (the newest
    :data:`BUTTON_MEMORY` in memory, every one in :class:`State`), and the messages on which someone's
    key stays because the bot may not take it back: their next edit numbers the options with a set of
    keys nobody used on them."""

    def __init__(self, state: State, session: Session) -> None:
        self.state = state
        self.session = session
        #: event id of a message with buttons -> their data in the order of its reaction keys
        self.buttons: OrderedDict[str, list[str]] = OrderedDict()
        #: messages on which someone's reaction keys stay (the bot could not redact them), with
        #: those keys
        self._used: OrderedDict[str, list[str]] = OrderedDict()
        #: rooms where a redaction was refused, until when they are not tried again
        self._no_redact: dict[str, float] = {}

    async def load(self) -> None:
        used = await self.state.get("used")
        self._used = OrderedDict(
            (str(e), [str(k) for k in keys]) for e, keys in (used.items() if isinstance(used, dict) else ())
        )

    async def remember(self, event_id: str, datas: list[str]) -> bool:
        """Keep a message's buttons (in the order of its keys); False when it has none, nor had."""
        if not datas and event_id not in self.buttons:
            return False
        changed = self.buttons.get(event_id) != datas
        self.buttons[event_id] = datas
        self.buttons.move_to_end(event_id)
        while len(self.buttons) > BUTTON_MEMORY:
            self.buttons.popitem(last=False)
        if changed:  # an edit with the same buttons (most table edits) writes nothing
            await self.state.set(f"buttons:{event_id}", datas)
        return True

    async def button(self, event_id: str, key: str) -> str | None:
        """The data of the button that ``key`` presses on the message (None: no such button)."""
        datas = self.buttons.get(event_id)
        if datas is None:
            stored = await self.state.get(f"buttons:{event_id}")
            datas = stored if isinstance(stored, list) else None
        index = KEY_INDEX.get(key)
        if datas is None or index is None or index >= len(datas):
            return None
        return str(datas[index])

    def taken(self, event_id: str, keyset: tuple[str, ...]) -> bool:
        """Whether someone's key of ``keyset`` stays on the message."""
        return bool(set(self._used.get(event_id, ())) & set(keyset))

    async def pressed(self, room_id: str, event: ReactionEvent) -> None:
        """A person's reaction pressed a button of ``event.reacts_to``. The same person cannot react
        with the same key on that message again while the reaction stands, and the message is edited
        in place with the next buttons: the reaction is taken back where the bot may do so, else the
        key is remembered, and the message's next edit numbers its options with unused keys."""
        if not await self._redact(room_id, event.event_id):
            self._used[event.reacts_to] = [*self._used.get(event.reacts_to, []), event.key]
            self._used.move_to_end(event.reacts_to)
            while len(self._used) > USED_MEMORY:
                self._used.popitem(last=False)
            await self.state.set("used", dict(self._used))

    async def _redact(self, room_id: str, event_id: str) -> bool:
        """Redact someone's event in the room; False when the room does not let the bot (remembered
        for a while, so a room without the power is not asked at every reaction)."""
        client = self.session.client
        if client is None or self._no_redact.get(room_id, 0.0) > time.monotonic():
            return False
        try:
            resp = await client.room_redact(room_id, event_id, tx_id=f"unreact-{event_id}")
        except (LocalProtocolError, OSError, TimeoutError) as exc:
            log.info("could not take back the reaction %s: %s", event_id, exc)
            return False
        if isinstance(resp, ErrorResponse):
            log.info("the bot may not redact reactions in %s: %s", room_id, resp)
            self._no_redact[room_id] = time.monotonic() + NO_REDACT_FOR
            return False
        return True
