"""Private chats: a user the platform will not let the bot write to yet (a Telegram user who never
opened the bot), the deep link that opens the chat and seats them, and the messages held meanwhile.

Their private rows wait in the outbox (held) and the group of their game is told once per match how
to open the chat; any private message of theirs (the deep link's ``/start join-<match>`` first of
all) releases what was held.
"""

from __future__ import annotations

import logging
import re
import secrets
from dataclasses import replace

from chatbot.core import i18n
from chatbot.core.gameui import GameUI
from chatbot.core.lobby import Lobby
from chatbot.core.outbox import Outbox
from chatbot.core.ports import LOBBY, RUNNING, Answer, ChatQueue, Repository, StorageUnavailable
from chatbot.core.questions import Questions
from chatbot.core.types import Button, Inbound, Outbound
from chatbot.core.usecase import CoreSettings, Speaker, reply

log = logging.getLogger(__name__)

#: the payload of a deep link that seats its user: "join-<match id>-<invitation>"; the invitation
#: (a random word kept with the match) is only in the link the group was shown, so a link typed by
#: someone who guessed the match id seats nobody (issue #13). Without it the link only opens the
#: private chat of someone already seated.
JOIN_PAYLOAD = re.compile(r"join-([0-9]{1,12})(?:-([A-Za-z0-9_]{1,32}))?", re.ASCII)
NS_INVITE = "core.invite"
#: the kv namespace of the "open a private chat" notices given (per private chat: match ids)
NS_NOTICE = "core.notice"


def start_payload(text: str) -> str | None:
    """The payload of a ``/start`` (``""`` when bare), or None for other texts."""
    parts = text.split(maxsplit=1)
    if not parts or parts[0].casefold().partition("@")[0] != "/start":
        return None
    return parts[1].strip() if len(parts) > 1 else ""


class PrivateChats:
    """The use cases of a private chat that the platform opens and closes."""

    def __init__(
        self,
        repo: Repository,
        uis: dict[str, GameUI],
        settings: CoreSettings,
        outbox: Outbox,
        lobby: Lobby,
        questions: Questions,
    ) -> None:
        self.repo = repo
        self.uis = uis
        self.settings = settings
        self.outbox = outbox
        self.lobby = lobby
        self.questions = questions

    def private_blocked(self, platform: str, user_ext_id: str) -> Answer:
        """The platform refuses to deliver to this user's private chat (a Telegram user who never
        opened the bot): their private messages wait (held in the outbox until they open the chat),
        and the group of their game is told once per match how to open it, with the deep link."""
        try:
            with self.repo.unit():
                chat = str(ChatQueue.user(platform, user_ext_id))
                self.repo.outbox_hold(ChatQueue.user(platform, user_ext_id))
                outs = self._blocked_notice(platform, user_ext_id, chat)
                outs = self.outbox.commit(outs)
            return Answer(outs)
        except StorageUnavailable as exc:
            log.warning("storage unavailable for the private-chat notice: %s", exc)
            return Answer()

    def _blocked_notice(self, platform: str, user_ext_id: str, chat: str) -> list[Outbound]:
        user = self.repo.find_user(platform, user_ext_id)
        if user is None or self.settings.link_template is None:
            return []
        matches = [m for m in self.repo.matches_of_user(user.id) if m.status in {LOBBY, RUNNING}]
        if not matches:
            return []
        match = matches[-1]
        told = list(self.repo.kv_get(NS_NOTICE, chat) or [])
        if match.id in told:
            return []
        self.repo.kv_set(NS_NOTICE, chat, [*told, match.id])
        room = self.repo.room_by_id(match.room_id)
        t = i18n.translator(room.lang or i18n.DEFAULT_LANGUAGE)
        link = self.deep_link(match.id)
        text = t.gettext(
            "{name}, I cannot send you your cards yet. Open a private chat with me and press Start: {link}"
        ).format(name=user.name, link=link)
        button = Button(t.gettext("Open private chat"), link)
        return [Outbound(platform, text, chat_id=room.ext_id, buttons=((button,),), lang=t.lang)]

    def deep_link(self, match_id: int) -> str:
        """The link that opens the private chat and seats its user in the match (while the lobby
        is open); it carries the match's invitation word."""
        payload = f"join-{match_id}-{self._invitation(match_id)}"
        return (self.settings.link_template or "{payload}").replace("{payload}", payload)

    def _invitation(self, match_id: int) -> str:
        word = self.repo.kv_get(NS_INVITE, str(match_id))
        if not isinstance(word, str) or not word:
            word = secrets.token_hex(6)
            self.repo.kv_set(NS_INVITE, str(match_id), word)
        return word

    def opened(self, msg: Inbound) -> int:
        """The user wrote in private, so the platform lets the bot write there: release what was
        held for them (the runtime delivers it), and a later block gets a notice again."""
        chat = str(ChatQueue.user(msg.platform, msg.user_id))
        released = self.repo.outbox_unhold(ChatQueue.user(msg.platform, msg.user_id))
        if released:
            self.repo.kv_set(NS_NOTICE, chat, [])
        return released

    def open_private(self, msg: Inbound, sp: Speaker, payload: str, released: int) -> list[Outbound]:
        """``/start [payload]`` in private (a deep link opens the chat with it): ``join-<match>``
        takes a seat while the lobby is open and says the cards come here; otherwise the help."""
        found = JOIN_PAYLOAD.fullmatch(payload)
        match = self.repo.match(int(found[1])) if found else None
        if match is not None and not any(s.user_id == sp.user.id for s in match.seats):
            invited = self.repo.kv_get(NS_INVITE, str(match.id))
            if not found or not found[2] or not isinstance(invited, str) or found[2] != invited:
                match = None  # a guessed link: the same answer as for no match at all
        if match is None or match.status not in {LOBBY, RUNNING}:
            if released:
                return []  # what was held for them is what they wanted
            t = i18n.translator(sp.lang)
            if found:
                # a link of a game that is over, or one typed from a guessed id: the same answer
                text = t.gettext(
                    "This link does not seat you in a game. Use the newest link in your group’s chat, "
                    "or write “join” there."
                )
                return [reply(msg, t, text)]
            return [reply(msg, t, self.questions.help_text(msg, sp, t))]
        room = self.repo.room_by_id(match.room_id)
        lang = self.lobby.renderer.people.lang(sp.user, room, msg.lang_hint)
        t = i18n.translator(lang)
        out: list[Outbound] = []
        if not any(s.user_id == sp.user.id for s in match.seats):
            group_msg = replace(msg, chat_id=room.ext_id, private=False, text="/join", message_id=None)
            out.extend(self.lobby.join(group_msg, Speaker(sp.user, lang, room), t, match))
            match = self.repo.match(match.id)
        if match is not None and any(s.user_id == sp.user.id for s in match.seats) and not released:
            title = self.uis[match.game].title(t)
            out.append(
                Outbound(
                    msg.platform,
                    t.gettext("You have a seat in {game}. I will send your cards and buttons here.").format(
                        game=title
                    ),
                    user_id=msg.user_id,
                    lang=t.lang,
                )
            )
        return out
