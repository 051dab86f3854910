"""The events of a room: invites, members leaving, text, reaction keys, and what the bot
remembers of its buttons.
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import replace
from typing import Any

from nio import (
    ErrorResponse,
    InviteMemberEvent,
    JoinError,
    MegolmEvent,
    ReactionEvent,
    RoomMemberEvent,
    RoomMessageText,
)
from nio.exceptions import LocalProtocolError

from chatbot.core.types import Inbound, Outbound
from chatbot.transports.matrix.base import (
    BUTTON_MEMORY,
    KEY_INDEX,
    KEYCAPS,
    NO_REDACT_FOR,
    PLATFORM,
    SENDER_MEMORY,
    USED_MEMORY,
    MatrixBase,
    _localpart,
    _Permanent,
    _RateLimited,
    _Temporary,
)
from chatbot.transports.matrix.text import (
    choices,
    mentioned,
    quoted_sender,
    strip_mention,
    strip_reply_fallback,
)

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


class Events(MatrixBase):
    """Invites, membership, text and reactions."""

    async def _on_invite(self, room_id: str, invite_state: list[Any]) -> None:
        assert self.client is not None
        inviter = None
        direct = False
        for event in invite_state:
            if (
                isinstance(event, InviteMemberEvent)
                and event.state_key == self.user_id
                and event.membership == "invite"
            ):
                inviter = event.sender
                direct = bool(event.content.get("is_direct"))
        resp = await self.client.join(room_id)
        if isinstance(resp, JoinError):
            log.warning("could not join %s: %s", room_id, resp)
            return
        if direct and inviter:
            await self._set_dm(inviter, room_id)
        else:  # invited back to a table room: a match paused there goes on
            await self.runtime.perform(self.core.bot_presence, PLATFORM, room_id, True)

    async def _on_room_event(self, room_id: str, event: Any, skip_messages: bool) -> None:
        source = getattr(event, "source", None) or {}
        if (
            source.get("type") in {"m.room.message", "m.room.encrypted"}
            and ((source.get("content") or {}).get("m.relates_to") or {}).get("rel_type") != "m.replace"
        ):
            # how far the room has moved on: edits do not push a message out of sight
            self._counters[room_id] = self._counters.get(room_id, 0) + 1
        sender = getattr(event, "sender", None)
        event_id = getattr(event, "event_id", None)
        if source.get("type") in {"m.room.message", "m.room.encrypted"} and sender and event_id:
            self._senders[event_id] = sender  # whose message a later reply answers (the bot's too)
            while len(self._senders) > SENDER_MEMORY:
                self._senders.popitem(last=False)
        if skip_messages or sender == self.user_id or not event_id or event_id in self._handled_set:
            return
        if isinstance(event, RoomMemberEvent):
            await self._on_member(room_id, event)
        elif isinstance(event, MegolmEvent):
            await self._on_undecryptable(room_id, event)
        elif isinstance(event, RoomMessageText):
            await self._on_text(room_id, event)
        elif isinstance(event, ReactionEvent):
            await self._on_reaction(room_id, event)

    async def _on_member(self, room_id: str, event: RoomMemberEvent) -> None:
        """A player who leaves a table room leaves the game (an AI takes the seat)."""
        if (
            event.state_key == self.user_id
            or event.membership not in {"leave", "ban"}
            or event.prev_membership not in {"join", "invite"}
        ):
            return
        user = event.state_key
        if self._dms.get(user) == room_id:
            await self._forget_dm(user)
            assert self.client is not None
            with contextlib.suppress(Exception):
                await self.client.room_leave(room_id)
            return
        if room_id in self._dms.values():
            return
        if not await self._db(self._seated, room_id, user):
            self._remember_handled(event.event_id)
            return
        name = (event.prev_content or {}).get("displayname") or _localpart(user)
        msg = Inbound(
            PLATFORM,
            user_id=user,
            user_name=name,
            chat_id=room_id,
            private=False,
            text="/leave",
            message_id=None,
        )
        await self._dispatch(msg, event.event_id)

    async def _on_text(self, room_id: str, event: RoomMessageText) -> None:
        content = event.source.get("content") or {}
        relation = content.get("m.relates_to") or {}
        if relation.get("rel_type") == "m.replace":
            return  # an edit of an earlier message: the original was already answered
        text = event.body or ""
        # addressed to the bot (issue #15): a reply to its message, a mention (a pill, or its name
        # in front of the text)
        addressed = (
            "m.in_reply_to" in relation and text.startswith(f"> <{self.user_id}>")
        ) or self.user_id in ((content.get("m.mentions") or {}).get("user_ids") or ())
        replied_to = await self._replied_to(room_id, relation, text)
        # a reply to the bot's message without the quoted fallback (clients since Matrix 1.13)
        addressed = addressed or replied_to == self.user_id
        if "m.in_reply_to" in relation:
            text = strip_reply_fallback(text)
        stripped = strip_mention(text, self._own_names(room_id))
        addressed = addressed or stripped != text.strip()
        text = stripped
        sender = event.sender
        private = self._dms.get(sender) == room_id
        name = self._display_name(room_id, sender)
        msg = Inbound(
            PLATFORM,
            user_id=sender,
            user_name=name,
            chat_id=room_id,
            private=private,
            text=text,
            message_id=event.event_id,
            addressed=addressed,
            # whom the message names (issue #27: a seat goes to a person, never to a display name)
            mentions=tuple(u for u in mentioned(content, text) if u != self.user_id),
            reply_to_user=replied_to if replied_to != self.user_id else None,
        )
        self._reply_rooms[event.event_id] = room_id
        while len(self._reply_rooms) > 2000:
            self._reply_rooms.popitem(last=False)
        await self._dispatch(msg, event.event_id)

    async def _replied_to(self, room_id: str, relation: dict[str, Any], body: str) -> str | None:
        """The sender of the event a message answers ("anna paikkani" as a reply names that person):
        remembered from the room's events, else asked of the server, else read from an older
        client's quoted "> <@user:server>" fallback."""
        event_id = (relation.get("m.in_reply_to") or {}).get("event_id")
        if not isinstance(event_id, str):
            return None
        known = self._senders.get(event_id)
        if known is not None:
            return known
        if self.client is not None:
            try:
                resp = await self.client.room_get_event(room_id, event_id)
            except (LocalProtocolError, OSError, TimeoutError) as exc:  # the quote below, or nobody
                log.info("could not read the event %s a reply answers: %s", event_id, exc)
            else:
                sender = getattr(getattr(resp, "event", None), "sender", None)
                if isinstance(sender, str):
                    return sender
        return quoted_sender(body)

    async def _on_reaction(self, room_id: str, event: ReactionEvent) -> None:
        """A reaction key (1️⃣ …, or ① … of a later key set) on one of the bot's messages presses that
        message's button: the same press as a Telegram button, checked by the core against the
        match's version."""
        if event.key not in KEY_INDEX:
            return
        datas = self._buttons.get(event.reacts_to)
        if datas is None:
            stored = await self._kv_get(f"buttons:{event.reacts_to}")
            datas = stored if isinstance(stored, list) else None
        index = KEY_INDEX[event.key]
        if datas is None or index >= len(datas):
            self._remember_handled(event.event_id)
            return
        sender = event.sender
        msg = Inbound(
            PLATFORM,
            user_id=sender,
            user_name=self._display_name(room_id, sender),
            chat_id=room_id,
            private=self._dms.get(sender) == room_id,
            button=str(datas[index]),
            message_id=None,
        )
        # before the press is handled: the message's next edit must know whether it can stay
        await self._key_used(room_id, event)
        await self._dispatch(msg, event.event_id)

    async def _key_used(self, room_id: str, event: ReactionEvent) -> None:
        """A person's reaction pressed a button of ``event.reacts_to``. The same person cannot react
        with the same key on that message again while the reaction stands, and the message is edited
        in place with the next buttons: the reaction is taken back where the bot may do so, else the
        key is remembered, and the message's next edit numbers its options with unused keys."""
        if not await self._redact(room_id, event.event_id):
            self._used[event.reacts_to] = [*self._used.get(event.reacts_to, []), event.key]
            self._used.move_to_end(event.reacts_to)
            while len(self._used) > USED_MEMORY:
                self._used.popitem(last=False)
            await self._kv_set("used", dict(self._used))

    async def _redact(self, room_id: str, event_id: str) -> bool:
        """Redact someone's event in the room; False when the room does not let the bot (remembered
        for a while, so a room without the power is not asked at every reaction)."""
        if self.client is None or self._no_redact.get(room_id, 0.0) > time.monotonic():
            return False
        try:
            resp = await self.client.room_redact(room_id, event_id, tx_id=f"unreact-{event_id}")
        except (LocalProtocolError, OSError, TimeoutError) as exc:
            log.info("could not take back the reaction %s: %s", event_id, exc)
            return False
        if isinstance(resp, ErrorResponse):
            log.info("the bot may not redact reactions in %s: %s", room_id, resp)
            self._no_redact[room_id] = time.monotonic() + NO_REDACT_FOR
            return False
        return True

    async def _remember_buttons(
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
        if not datas and event_id not in self._buttons:
            return had
        changed = self._buttons.get(event_id) != datas
        self._buttons[event_id] = datas
        self._buttons.move_to_end(event_id)
        while len(self._buttons) > BUTTON_MEMORY:
            self._buttons.popitem(last=False)
        if changed:  # an edit with the same buttons (most table edits) writes nothing
            await self._kv_set(f"buttons:{event_id}", datas)
        for i in range(had, len(datas)):
            content = {"m.relates_to": {"rel_type": "m.annotation", "event_id": event_id, "key": keyset[i]}}
            try:
                await self._room_send(room_id, content, f"{txn}-key{i}", event_type="m.reaction")
            except (_Permanent, _Temporary, _RateLimited) as exc:  # cosmetic: typing still works
                log.info("could not put reaction key %s on %s: %s", keyset[i], event_id, exc)
                return i
        return max(had, len(datas))

    async def _dispatch(self, msg: Inbound, event_id: str) -> None:
        async with self._busy:  # stop() cancels only between two messages, never inside one
            if self._stopping:
                return
            await self.runtime.handle(replace(msg, update_key=event_id))
            self._remember_handled(event_id)
            self.stats.handled += 1

    def _seated(self, room_id: str, user_id: str) -> bool:
        """Whether the user has a seat in the room's open match (only then does leaving mean "poistu")."""
        repo = self.core.repo
        match = repo.active_match(repo.room(PLATFORM, room_id).id)
        if match is None:
            return False
        user = repo.find_user(PLATFORM, user_id)
        return user is not None and any(seat.user_id == user.id for seat in match.seats)

    def _own_names(self, room_id: str) -> list[str]:
        names = [self.user_id, _localpart(self.user_id), self.display_name or ""]
        if self.client is not None and room_id in self.client.rooms:
            names.append(self.client.rooms[room_id].user_name(self.user_id) or "")
        return names

    def _display_name(self, room_id: str, user_id: str) -> str:
        room = self.client.rooms.get(room_id) if self.client is not None else None
        member = room.users.get(user_id) if room is not None else None
        name = getattr(member, "display_name", None) if member is not None else None
        return name or _localpart(user_id)

    def _dm_member(self, room_id: str) -> str | None:
        for user, room in self._dms.items():
            if room == room_id:
                return user
        return None
