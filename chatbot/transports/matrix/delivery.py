"""Sending: the runtime's ``Transport.deliver`` (text, image, edits in place)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterable
from typing import Any

from nio import MatrixRoom, UploadError
from nio.exceptions import EncryptionError, LocalProtocolError

from chatbot.core.ports import RetryLater
from chatbot.core.types import Outbound
from chatbot.transports.matrix.base import (
    KEYSETS,
    MatrixBase,
    _check,
    _Permanent,
    _RateLimited,
    _Temporary,
)
from chatbot.transports.matrix.text import _sha, message_text, png_size

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


class Delivery(MatrixBase):
    """Sending."""

    # ------------------------------------------------------------------------------------------
    # sending: the runtime's Transport.deliver

    def send(self, outs: Iterable[Outbound]) -> None:
        """Messages no use case made (notices of the transport, tests): into the outbox, delivered."""
        batch = list(outs)

        async def add() -> None:
            await self._db(self.core.repo.outbox_add, batch)
            self.runtime.wake()

        task = asyncio.get_running_loop().create_task(add())
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def deliver(self, out: Outbound, ref: str | None, txn: str) -> str | None:
        """Send one outbox row; ``txn`` (the same on every retry) makes a resend a no-op."""
        refs: dict[str, Any] = json.loads(ref) if ref else {}
        kept = refs.get("txt") or {}
        generation = int(kept.get("gen", 0) or 0)
        if set(self._used.get(kept.get("event_id") or "", ())) & set(KEYSETS[generation]):
            # someone's key of the set in use stays on the message: the next set, else a new message
            generation += 1
            if generation == len(KEYSETS):
                refs, generation = {}, 0
        try:
            room_id = out.chat_id or await self._dm_room(out.user_id or "", out.lang)
            if out.user_id and not out.chat_id and not self._can_send_dm(room_id, out.user_id):
                # an encrypted direct room: the room key can go only to a member who has joined
                raise RetryLater(2.0)
            if out.image:
                refs["img"] = await self._send_image(room_id, out, f"{txn}-img", refs.get("img"))
            refs["txt"] = await self._send_text(room_id, out, f"{txn}-txt", refs.get("txt"), generation)
        except _RateLimited as exc:
            self.stats.rate_limited += 1
            raise RetryLater(exc.seconds) from exc
        except _Permanent as exc:
            if out.user_id and not out.chat_id and txn not in self._dm_retried:
                # the direct room is gone (the player left it): open a new one and try again
                self._dm_retried.add(txn)
                await self._forget_dm(out.user_id)
                raise RetryLater(0.1) from exc
            log.error("could not send a message: %s", exc)
            self.stats.dropped += 1
            return ref
        except (TimeoutError, _Temporary, OSError) as exc:
            self.stats.retries += 1
            log.warning("sending failed (%s); trying again", exc)
            raise RetryLater(1.0) from exc
        return json.dumps(refs)

    def _near(self, room_id: str, ref: dict[str, Any]) -> bool:
        """Whether an earlier message is still near enough the end of the room to be edited."""
        if self.repost_after is None:
            return True
        distance = self._counters.get(room_id, 0) - int(ref.get("pos", 0))
        return distance <= self.repost_after

    async def _send_text(
        self, room_id: str, out: Outbound, txn: str, ref: dict[str, Any] | None, generation: int = 0
    ) -> dict[str, Any] | None:
        """Post ``out`` (or edit the message of its key, its options numbered with the key set of
        ``generation``); returns what to remember of it."""
        if not (ref and self._near(room_id, ref)):
            generation = 0  # a new message: the first keys again
        keyset = KEYSETS[generation]
        text = message_text(out, keyset)
        content: dict[str, Any] = {"msgtype": "m.notice", "body": text}
        kv_key = out.key
        if ref and self._near(room_id, ref):
            had = int(ref.get("keys", 0)) if int(ref.get("gen", 0) or 0) == generation else 0
            if ref.get("sha") != _sha(text):
                edit = {
                    "msgtype": "m.notice",
                    "body": f"* {text}",
                    "m.new_content": content,
                    "m.relates_to": {"rel_type": "m.replace", "event_id": ref["event_id"]},
                }
                await self._room_send(room_id, edit, txn)
                self.stats.edits += 1
            # the same text ("message is not modified") may still press the buttons of a newer version
            keys = await self._remember_buttons(room_id, ref["event_id"], out, txn, had, keyset)
            return {**ref, "sha": _sha(text), "keys": keys, "gen": generation}
        reply_room = self._reply_rooms.get(out.reply_to or "")
        if out.reply_to and (reply_room == room_id or (reply_room is None and not out.user_id)):
            content["m.relates_to"] = {"m.in_reply_to": {"event_id": out.reply_to}}
        event_id = await self._room_send(room_id, content, txn)
        self.stats.sent += 1
        keys = await self._remember_buttons(room_id, event_id, out, txn, 0)
        if kv_key:
            return {
                "event_id": event_id,
                "pos": self._counters.get(room_id, 0),
                "sha": _sha(text),
                "keys": keys,
            }
        return None

    async def _send_image(
        self, room_id: str, out: Outbound, txn: str, ref: dict[str, Any] | None
    ) -> dict[str, Any] | None:
        assert self.client is not None and out.image is not None
        png = out.image
        kv_key = out.key
        if ref and ref.get("sha") == _sha(png) and self._near(room_id, ref):
            return ref
        encrypted = self._room_encrypted(room_id)
        resp, keys = await self.client.upload(
            lambda *_: io.BytesIO(png),
            content_type="image/png",
            filename="table.png",
            filesize=len(png),
            encrypt=encrypted,
        )
        if isinstance(resp, UploadError):
            _check(resp, "upload")
        info: dict[str, Any] = {"mimetype": "image/png", "size": len(png)}
        size = png_size(png)
        if size:
            info["w"], info["h"] = size
        content: dict[str, Any] = {"msgtype": "m.image", "body": "table.png", "info": info}
        if encrypted and keys:
            content["file"] = {**keys, "url": resp.content_uri}
        else:
            content["url"] = resp.content_uri
        if ref and self._near(room_id, ref):
            edit = {
                **content,
                "body": "* table.png",
                "m.new_content": content,
                "m.relates_to": {"rel_type": "m.replace", "event_id": ref["event_id"]},
            }
            await self._room_send(room_id, edit, txn)
            self.stats.edits += 1
            return {**ref, "sha": _sha(png)}
        event_id = await self._room_send(room_id, content, txn)
        self.stats.images += 1
        if kv_key:
            return {"event_id": event_id, "pos": self._counters.get(room_id, 0), "sha": _sha(png)}
        return None

    def _room_encrypted(self, room_id: str) -> bool:
        room = self.client.rooms.get(room_id) if self.client is not None else None
        return bool(room is not None and room.encrypted and self._olm is not None)

    async def _room_send(
        self, room_id: str, content: dict[str, Any], txn: str, event_type: str = "m.room.message"
    ) -> str:
        assert self.client is not None
        if self._olm is not None and room_id not in self.client.rooms:
            # a room the bot created a moment ago (unencrypted) that no sync has shown yet
            self.client.rooms[room_id] = MatrixRoom(room_id, self.user_id, False)
        try:
            resp = await self.client.room_send(
                room_id, event_type, content, tx_id=txn, ignore_unverified_devices=True
            )
        except (LocalProtocolError, EncryptionError) as exc:
            raise _Temporary(f"send to {room_id}: {exc}") from exc
        resp = _check(resp, f"send to {room_id}")
        return str(resp.event_id)
