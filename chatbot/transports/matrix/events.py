"""The events of a room: invites, members leaving, text and reaction keys, each made an
:class:`Inbound` for the runtime.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

from nio import (
    InviteMemberEvent,
    JoinError,
    MegolmEvent,
    ReactionEvent,
    RoomMemberEvent,
    RoomMessageText,
)
from nio.exceptions import LocalProtocolError

from chatbot.core.types import Inbound
from chatbot.runtime import Runtime
from chatbot.transports.matrix.base import KEY_INDEX, PLATFORM, _localpart
from chatbot.transports.matrix.client import Session
from chatbot.transports.matrix.crypto import Crypto
from chatbot.transports.matrix.direct import DirectRooms
from chatbot.transports.matrix.keys import ReactionKeys
from chatbot.transports.matrix.state import Inbox, RoomLog
from chatbot.transports.matrix.text import mentioned, quoted_sender, strip_mention, strip_reply_fallback

if TYPE_CHECKING:
    from chatbot.core.service import BotCore

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


class Events:
    """A room's events as the core's inbound messages: text (addressed to the bot or not, with whom it
    names or answers), a reaction key (a button press), a seated player leaving the room ("/leave");
    an invite is joined (a direct room is remembered), an encrypted message goes to :class:`Crypto`."""

    def __init__(
        self,
        core: BotCore,
        runtime: Runtime,
        session: Session,
        inbox: Inbox,
        rooms: RoomLog,
        direct: DirectRooms,
        keys: ReactionKeys,
        crypto: Crypto,
    ) -> None:
        self.core = core
        self.runtime = runtime
        self.session = session
        self.inbox = inbox
        self.rooms = rooms
        self.direct = direct
        self.keys = keys
        self.crypto = crypto

    async def on_invite(self, room_id: str, invite_state: list[Any]) -> None:
        client = self.session.client
        assert client is not None
        user_id = self.session.user_id
        inviter = None
        direct = False
        for event in invite_state:
            if (
                isinstance(event, InviteMemberEvent)
                and event.state_key == user_id
                and event.membership == "invite"
            ):
                inviter = event.sender
                direct = bool(event.content.get("is_direct"))
        resp = await client.join(room_id)
        if isinstance(resp, JoinError):
            log.warning("could not join %s: %s", room_id, resp)
            return
        if direct and inviter:
            await self.direct.set(inviter, room_id)
        else:  # invited back to a table room: a match paused there goes on
            await self.runtime.perform(self.core.bot_presence, PLATFORM, room_id, True)

    async def on_left(self, room_id: str) -> None:
        """The bot left a room, or was removed from it."""
        if self.direct.is_direct(room_id):
            await self.direct.forget_room(room_id)
        else:  # kicked or banned from a table room: its match waits until the bot is back
            await self.runtime.perform(self.core.bot_presence, PLATFORM, room_id, False)

    async def on_room_event(self, room_id: str, event: Any, skip_messages: bool) -> None:
        self.rooms.saw(room_id, event)
        sender = getattr(event, "sender", None)
        event_id = getattr(event, "event_id", None)
        if skip_messages or sender == self.session.user_id or not event_id or self.inbox.seen(event_id):
            return
        if isinstance(event, RoomMemberEvent):
            await self._on_member(room_id, event)
        elif isinstance(event, MegolmEvent):
            await self.crypto.on_undecryptable(room_id, event)
        elif isinstance(event, RoomMessageText):
            await self.on_text(room_id, event)
        elif isinstance(event, ReactionEvent):
            await self._on_reaction(room_id, event)

    async def _on_member(self, room_id: str, event: RoomMemberEvent) -> None:
        """A player who leaves a table room leaves the game (an AI takes the seat)."""
        if (
            event.state_key == self.session.user_id
            or event.membership not in {"leave", "ban"}
            or event.prev_membership not in {"join", "invite"}
        ):
            return
        user = event.state_key
        if self.direct.room_of(user) == room_id:
            await self.direct.forget(user)
            client = self.session.client
            assert client is not None
            with contextlib.suppress(Exception):
                await client.room_leave(room_id)
            return
        if self.direct.is_direct(room_id):
            return
        if not await self.runtime.call(self._seated, room_id, user):
            self.inbox.skip(event.event_id)
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
        await self.inbox.dispatch(msg, event.event_id)

    async def on_text(self, room_id: str, event: RoomMessageText) -> None:
        content = event.source.get("content") or {}
        relation = content.get("m.relates_to") or {}
        if relation.get("rel_type") == "m.replace":
            return  # an edit of an earlier message: the original was already answered
        text = event.body or ""
        # addressed to the bot (issue #15): a reply to its message, a mention (a pill, or its name
        # in front of the text)
        me = self.session.user_id
        addressed = ("m.in_reply_to" in relation and text.startswith(f"> <{me}>")) or me in (
            (content.get("m.mentions") or {}).get("user_ids") or ()
        )
        replied_to = await self._replied_to(room_id, relation, text)
        # a reply to the bot's message without the quoted fallback (clients since Matrix 1.13)
        addressed = addressed or replied_to == me
        if "m.in_reply_to" in relation:
            text = strip_reply_fallback(text)
        stripped = strip_mention(text, self.session.own_names(room_id))
        addressed = addressed or stripped != text.strip()
        text = stripped
        sender = event.sender
        private = self.direct.room_of(sender) == room_id
        name = self.session.member_name(room_id, sender)
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
            mentions=tuple(u for u in mentioned(content, text) if u != me),
            reply_to_user=replied_to if replied_to != me else None,
        )
        self.rooms.answerable(event.event_id, room_id)
        await self.inbox.dispatch(msg, event.event_id)

    async def _replied_to(self, room_id: str, relation: dict[str, Any], body: str) -> str | None:
        """The sender of the event a message answers ("anna paikkani" as a reply names that person):
        remembered from the room's events, else asked of the server, else read from an older
        client's quoted "> <@user:server>" fallback."""
        event_id = (relation.get("m.in_reply_to") or {}).get("event_id")
        if not isinstance(event_id, str):
            return None
        known = self.rooms.sender(event_id)
        if known is not None:
            return known
        client = self.session.client
        if client is not None:
            try:
                resp = await client.room_get_event(room_id, event_id)
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
        button = await self.keys.button(event.reacts_to, event.key)
        if button is None:
            self.inbox.skip(event.event_id)
            return
        sender = event.sender
        msg = Inbound(
            PLATFORM,
            user_id=sender,
            user_name=self.session.member_name(room_id, sender),
            chat_id=room_id,
            private=self.direct.room_of(sender) == room_id,
            button=button,
            message_id=None,
        )
        # before the press is handled: the message's next edit must know whether it can stay
        await self.keys.pressed(room_id, event)
        await self.inbox.dispatch(msg, event.event_id)

    def _seated(self, room_id: str, user_id: str) -> bool:
        """Whether the user has a seat in the room's open match (only then does leaving mean "poistu")."""
        repo = self.core.repo
        match = repo.active_match(repo.room(PLATFORM, room_id).id)
        if match is None:
            return False
        user = repo.find_user(PLATFORM, user_id)
        return user is not None and any(seat.user_id == user.id for seat in match.seats)
