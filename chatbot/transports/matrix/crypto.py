"""End-to-end encryption: key maintenance between syncs, undecryptable messages and the notices
about them.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable

from nio import MegolmEvent, RoomMessageText
from nio.exceptions import EncryptionError, LocalProtocolError

from chatbot.core import i18n
from chatbot.core.ports import Repository
from chatbot.core.types import Outbound
from chatbot.transports.matrix.base import EXPLAIN_EVERY, PLATFORM, UNDECRYPTED_WAIT
from chatbot.transports.matrix.client import Session
from chatbot.transports.matrix.delivery import Delivery
from chatbot.transports.matrix.state import Inbox, State

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


def need_plain_text(t: i18n.Translator) -> str:
    """The notice for an encrypted message when the bot runs without encryption."""
    return t.gettext(
        "I cannot read encrypted messages. Please talk to me in a room without "
        "encryption: start a direct chat with me and turn encryption off."
    )


def could_not_decrypt(t: i18n.Translator) -> str:
    """The notice for a message whose room key did not arrive in time."""
    return t.gettext(
        "I could not decrypt your message. Please write it again; if this keeps "
        "happening, talk to me in a room without encryption."
    )


class Crypto:
    """What nio's ``sync_forever`` would do for encryption, and the messages the bot cannot read:
    their room key is asked of the sender's devices and the message tried again after each sync;
    after :data:`UNDECRYPTED_WAIT` seconds (at once without encryption) the room is told, at most
    every :data:`EXPLAIN_EVERY` seconds."""

    def __init__(
        self, session: Session, state: State, repo: Repository, inbox: Inbox, delivery: Delivery
    ) -> None:
        self.session = session
        self.state = state
        self.repo = repo
        self.inbox = inbox
        self.delivery = delivery
        self._undecrypted: list[tuple[float, str, MegolmEvent]] = []
        self._explained: dict[str, float] = {}  # room id -> when it was told last

    async def housekeeping(self) -> None:
        """What nio's sync_forever does between syncs: keys up, keys queried and claimed, to-device."""
        client = self.session.client
        if client is None or client.olm is None:
            return
        try:
            if client.should_upload_keys:
                await client.keys_upload()
            if client.should_query_keys:
                await client.keys_query()
            if client.should_claim_keys:
                await client.keys_claim(client.get_users_for_key_claiming())
            await client.send_to_device_messages()
        except (LocalProtocolError, EncryptionError) as exc:
            log.warning("key maintenance failed: %s", exc)

    async def on_undecryptable(self, room_id: str, event: MegolmEvent) -> None:
        client = self.session.client
        if client is None or self.session.olm is None:
            await self._explain(room_id, event, need_plain_text)
            return
        with contextlib.suppress(Exception):  # the sender's devices may share the key on request
            await client.request_room_key(event)
        self._undecrypted.append((time.monotonic(), room_id, event))

    async def retry_undecrypted(self) -> list[tuple[str, RoomMessageText]]:
        """The waiting messages that can be read now (with their rooms); the room of one whose key
        did not come in time is told."""
        client = self.session.client
        if not self._undecrypted or client is None:
            return []
        readable: list[tuple[str, RoomMessageText]] = []
        waiting, self._undecrypted = self._undecrypted, []
        for since, room_id, event in waiting:
            try:
                decrypted = client.decrypt_event(event)
            except (EncryptionError, LocalProtocolError, AssertionError):
                if time.monotonic() - since > UNDECRYPTED_WAIT:
                    await self._explain(room_id, event, could_not_decrypt)
                else:
                    self._undecrypted.append((since, room_id, event))
                continue
            if isinstance(decrypted, RoomMessageText):
                readable.append((room_id, decrypted))
        return readable

    async def _explain(
        self, room_id: str, event: MegolmEvent, text: Callable[[i18n.Translator], str]
    ) -> None:
        self.inbox.skip(event.event_id)
        now = time.monotonic()
        if now - self._explained.get(room_id, -EXPLAIN_EVERY) < EXPLAIN_EVERY:
            return
        self._explained[room_id] = now
        name = self.session.member_name(room_id, event.sender)
        user = await self.state.call(self.repo.user, PLATFORM, event.sender, name)
        t = i18n.translator(user.lang or "fi")
        self.delivery.send(
            [Outbound(PLATFORM, text(t), chat_id=room_id, reply_to=event.event_id, lang=t.lang)]
        )
