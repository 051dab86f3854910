"""Sending: the runtime's ``Transport.deliver`` (text, image, edits in place, the reaction keys of a
message's buttons), and notices of the transport into the outbox."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterable
from typing import Any

from nio import MatrixRoom, UploadError
from nio.exceptions import EncryptionError, LocalProtocolError

from chatbot.core.ports import Repository, RetryLater
from chatbot.core.types import Outbound
from chatbot.runtime import Runtime
from chatbot.transports.matrix.base import (
    KEYCAPS,
    KEYSETS,
    Stats,
    _check,
    _Permanent,
    _RateLimited,
    _Temporary,
)
from chatbot.transports.matrix.client import Session
from chatbot.transports.matrix.direct import DirectRooms
from chatbot.transports.matrix.keys import ReactionKeys
from chatbot.transports.matrix.state import RoomLog
from chatbot.transports.matrix.text import _sha, choices, message_text, png_size

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


class Delivery:
    """An outbox row sent to its room, or to the player's direct room (opened by :class:`DirectRooms`
    when needed), a keyed message edited in place while it is near the end of its room
    (``repost_after`` messages, as :class:`RoomLog` counts them), its buttons numbered with reaction
    keys that :class:`ReactionKeys` remembers; the homeserver's refusals become the runtime's
    :class:`RetryLater` or a dropped row."""

    def __init__(
        self,
        session: Session,
        runtime: Runtime,
        repo: Repository,
        direct: DirectRooms,
        keys: ReactionKeys,
        rooms: RoomLog,
        stats: Stats,
        *,
        repost_after: int | None,
    ) -> None:
        self.session = session
        self.runtime = runtime
        self.repo = repo
        self.direct = direct
        self.keys = keys
        self.rooms = rooms
        self.stats = stats
        self.repost_after = repost_after
        self._sending: set[asyncio.Task[None]] = set()
        #: transaction ids whose direct room was replaced once already (the player left it)
        self._dm_retried: set[str] = set()

    def send(self, outs: Iterable[Outbound]) -> None:
        """Messages no use case made (notices of the transport, tests): into the outbox, delivered."""
        batch = list(outs)

        async def add() -> None:
            await self.runtime.call(self.repo.outbox_add, batch)
            self.runtime.wake()

        task = asyncio.get_running_loop().create_task(add())
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def settle(self, timeout: float) -> None:
        """Until the messages of :meth:`send` are in the outbox."""
        if self._sending:
            await asyncio.wait(set(self._sending), timeout=timeout)

    async def deliver(self, out: Outbound, ref: str | None, txn: str) -> str | None:
        """Send one outbox row; ``txn`` (the same on every retry) makes a resend a no-op."""
        refs: dict[str, Any] = json.loads(ref) if ref else {}
        kept = refs.get("txt") or {}
        generation = int(kept.get("gen", 0) or 0)
        if self.keys.taken(kept.get("event_id") or "", KEYSETS[generation]):
            # someone's key of the set in use stays on the message: the next set, else a new message
            generation += 1
            if generation == len(KEYSETS):
                refs, generation = {}, 0
        try:
            room_id = out.chat_id or await self.direct.open(out.user_id or "", out.lang)
            if out.user_id and not out.chat_id and not self.direct.can_send(room_id, out.user_id):
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
                await self.direct.forget(out.user_id)
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
        distance = self.rooms.position(room_id) - int(ref.get("pos", 0))
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
            keys = await self._put_keys(room_id, ref["event_id"], out, txn, had, keyset)
            return {**ref, "sha": _sha(text), "keys": keys, "gen": generation}
        reply_room = self.rooms.room_of(out.reply_to or "")
        if out.reply_to and (reply_room == room_id or (reply_room is None and not out.user_id)):
            content["m.relates_to"] = {"m.in_reply_to": {"event_id": out.reply_to}}
        event_id = await self._room_send(room_id, content, txn)
        self.stats.sent += 1
        keys = await self._put_keys(room_id, event_id, out, txn, 0)
        if kv_key:
            return {
                "event_id": event_id,
                "pos": self.rooms.position(room_id),
                "sha": _sha(text),
                "keys": keys,
            }
        return None

    async def _send_image(
        self, room_id: str, out: Outbound, txn: str, ref: dict[str, Any] | None
    ) -> dict[str, Any] | None:
        client = self.session.client
        assert client is not None and out.image is not None
        png = out.image
        kv_key = out.key
        if ref and ref.get("sha") == _sha(png) and self._near(room_id, ref):
            return ref
        encrypted = self.session.room_encrypted(room_id)
        resp, keys = await client.upload(
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
            return {"event_id": event_id, "pos": self.rooms.position(room_id), "sha": _sha(png)}
        return None

    async def _room_send(
        self, room_id: str, content: dict[str, Any], txn: str, event_type: str = "m.room.message"
    ) -> str:
        client = self.session.client
        assert client is not None
        if client.olm is not None and room_id not in client.rooms:
            # a room the bot created a moment ago (unencrypted) that no sync has shown yet
            client.rooms[room_id] = MatrixRoom(room_id, self.session.user_id, False)
        try:
            resp = await client.room_send(
                room_id, event_type, content, tx_id=txn, ignore_unverified_devices=True
            )
        except (LocalProtocolError, EncryptionError) as exc:
            raise _Temporary(f"send to {room_id}: {exc}") from exc
        resp = _check(resp, f"send to {room_id}")
        return str(resp.event_id)

    async def _put_keys(
        self,
        room_id: str,
        event_id: str,
        out: Outbound,
        txn: str,
        had: int,
        keyset: tuple[str, ...] = KEYCAPS,
    ) -> int:
        """Keep the message's buttons for reactions and put the reaction keys of ``keyset`` on it
        (those it has not got yet: an edit may bring more buttons); returns how many keys of the set
        the message has now."""
        datas = [data for _label, data in choices(out)][: len(keyset)]
        if not await self.keys.remember(event_id, datas):
            return had
        for i in range(had, len(datas)):
            content = {"m.relates_to": {"rel_type": "m.annotation", "event_id": event_id, "key": keyset[i]}}
            try:
                await self._room_send(room_id, content, f"{txn}-key{i}", event_type="m.reaction")
            except (_Permanent, _Temporary, _RateLimited) as exc:  # cosmetic: typing still works
                log.info("could not put reaction key %s on %s: %s", keyset[i], event_id, exc)
                return i
        return max(had, len(datas))
