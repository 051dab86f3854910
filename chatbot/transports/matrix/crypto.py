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
from chatbot.core.types import Outbound
from chatbot.transports.matrix.base import EXPLAIN_EVERY, PLATFORM, UNDECRYPTED_WAIT, MatrixBase

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


class Crypto(MatrixBase):
    """Encryption."""

    async def _crypto_housekeeping(self) -> None:
        """What nio's sync_forever does between syncs: keys up, keys queried and claimed, to-device."""
        client = self.client
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

    async def _on_undecryptable(self, room_id: str, event: MegolmEvent) -> None:
        if self._olm is None:
            await self._explain_encryption(room_id, event, self._need_plain_text)
            return
        assert self.client is not None
        with contextlib.suppress(Exception):  # the sender's devices may share the key on request
            await self.client.request_room_key(event)
        self._undecrypted.append((time.monotonic(), room_id, event))

    async def _retry_undecrypted(self) -> None:
        if not self._undecrypted or self.client is None:
            return
        waiting, self._undecrypted = self._undecrypted, []
        for since, room_id, event in waiting:
            try:
                decrypted = self.client.decrypt_event(event)
            except (EncryptionError, LocalProtocolError, AssertionError):
                if time.monotonic() - since > UNDECRYPTED_WAIT:
                    await self._explain_encryption(room_id, event, self._could_not_decrypt)
                else:
                    self._undecrypted.append((since, room_id, event))
                continue
            if isinstance(decrypted, RoomMessageText):
                await self._on_text(room_id, decrypted)

    @staticmethod
    def _need_plain_text(t: i18n.Translator) -> str:
        return t.gettext(
            "I cannot read encrypted messages. Please talk to me in a room without "
            "encryption: start a direct chat with me and turn encryption off."
        )

    @staticmethod
    def _could_not_decrypt(t: i18n.Translator) -> str:
        return t.gettext(
            "I could not decrypt your message. Please write it again; if this keeps "
            "happening, talk to me in a room without encryption."
        )

    async def _explain_encryption(
        self, room_id: str, event: MegolmEvent, text: Callable[[i18n.Translator], str]
    ) -> None:
        self._remember_handled(event.event_id)
        now = time.monotonic()
        if now - self._explained.get(room_id, -EXPLAIN_EVERY) < EXPLAIN_EVERY:
            return
        self._explained[room_id] = now
        name = self._display_name(room_id, event.sender)
        user = await self._db(self.core.repo.user, PLATFORM, event.sender, name)
        t = i18n.translator(user.lang or "fi")
        self.send([Outbound(PLATFORM, text(t), chat_id=room_id, reply_to=event.event_id, lang=t.lang)])
