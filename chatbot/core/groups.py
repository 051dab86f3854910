"""A group's life around its games (issue #14): the chat becomes another one (a Telegram group
upgraded to a supergroup), the bot is removed from it and added back (its matches pause and resume),
and a group where the bot sees only what is addressed to it (Telegram's privacy mode) is told once
how to let it read plain messages.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from chatbot.core import i18n
from chatbot.core.gameui import GameUI
from chatbot.core.i18n import normalise_language
from chatbot.core.outbox import Outbox
from chatbot.core.ports import LOBBY, RUNNING, Answer, MatchRec, Repository, RoomRec, StorageUnavailable
from chatbot.core.render import Renderer
from chatbot.core.schedule import Schedule
from chatbot.core.types import Outbound
from chatbot.core.usecase import CoreSettings

log = logging.getLogger(__name__)

#: kv namespace: the groups already told how to let the bot read plain messages
NS_PRIVACY_TOLD = "privacy-told"


class Groups:
    """The use cases of a group chat's own life (not of one message in it)."""

    def __init__(
        self,
        repo: Repository,
        uis: dict[str, GameUI],
        settings: CoreSettings,
        renderer: Renderer,
        schedule: Schedule,
        outbox: Outbox,
    ) -> None:
        self.repo = repo
        self.uis = uis
        self.settings = settings
        self.renderer = renderer
        self.schedule = schedule
        self.outbox = outbox

    def move_chat(self, platform: str, old_chat: str, new_chat: str) -> Answer:
        """The group ``old_chat`` is now ``new_chat`` (Telegram upgraded it to a supergroup): its
        room and matches move along in one transaction, and the table of its game is posted anew in
        the new chat (the old messages cannot be edited from there). Telegram tells a move twice (in
        the old chat and in the new one): the second notice finds nothing to move."""
        try:
            with self.repo.unit():
                room = self.repo.move_room(platform, old_chat, new_chat)
                match = self.repo.active_match(room.id) if room is not None else None
                outs: list[Outbound] = []
                if room is not None and match is not None:
                    if match.status == LOBBY:
                        outs = self.renderer.lobby(match, room)
                    else:
                        outs = self.renderer.render_match(match, room, events=(), privates=False)
                outs = self.outbox.commit(outs)
            log.info("room %s:%s moved to %s", platform, old_chat, new_chat)
            return Answer(outs)
        except StorageUnavailable as exc:  # the platform tells again on the next send to the old chat
            log.warning("storage unavailable while moving %s to %s: %s", old_chat, new_chat, exc)
            return Answer()

    def bot_presence(self, platform: str, chat: str, present: bool, lang_hint: str | None = None) -> Answer:
        """The bot was removed from the group ``chat`` (or blocked there): its running matches (one
        per forum topic) pause (no reminders, no stand-in moves, no AI moves) and their seated players
        are told in private; added again, the matches resume where they were and their tables are
        posted anew. Added to a group with no game, it greets the group with how to start (issue #27:
        it said nothing), in the group's language, else that of whoever added it (``lang_hint``)."""
        try:
            with self.repo.unit():
                outs: list[Outbound] = []
                rooms = self.repo.rooms_in(platform, chat)
                busy = False
                for room in rooms:
                    match = self.repo.active_match(room.id)
                    busy = busy or match is not None
                    if (
                        match is not None
                        and match.status == RUNNING
                        and bool(match.meta.get("paused")) == present
                    ):
                        outs.extend(self._pause_or_resume(room, match, present))
                if present and not busy:
                    home = next((r for r in rooms if r.ext_id == chat), None) or self.repo.room(
                        platform, chat
                    )
                    outs.extend(self._greeting(home, lang_hint))
                outs = self.outbox.commit(outs)
            log.info("bot %s in %s:%s", "back" if present else "removed", platform, chat)
            return Answer(outs)
        except StorageUnavailable as exc:
            log.warning("storage unavailable while noting the bot's presence in %s: %s", chat, exc)
            return Answer()

    def _pause_or_resume(self, room: RoomRec, match: MatchRec, present: bool) -> list[Outbound]:
        self.repo.set_meta(match.id, "paused", not present)
        outs: list[Outbound] = []
        if not present:
            self.schedule.clear(match.id)
            for seat in match.seats:
                if seat.user_id is None:
                    continue
                user = self.repo.user_by_id(seat.user_id)
                t = i18n.translator(self.renderer.people.lang(user, room))
                text = t.gettext(
                    "I was removed from the group, so our game of {game} is paused. It goes on where it "
                    "was as soon as someone adds me to the group again."
                ).format(game=self.uis[match.game].title(t))
                outs.append(Outbound(room.platform, text, user_id=user.ext_id, lang=t.lang))
            return outs
        resumed = self.repo.match(match.id)
        assert resumed is not None
        t = i18n.translator(room.lang or "fi")
        note = t.gettext("I am back: the game of {game} goes on where it was.").format(
            game=self.uis[match.game].title(t)
        )
        outs.append(Outbound(room.platform, note, chat_id=room.ext_id, lang=t.lang))
        deadlines = self.schedule.plan(resumed)
        resumed = self.schedule.panels_anew(resumed)  # the people to act hear that it goes on
        outs.extend(self.renderer.render_match(resumed, room, events=(), deadlines=deadlines))
        return outs

    def _greeting(self, room: RoomRec, lang_hint: str | None) -> list[Outbound]:
        """Hello to a group the bot was just added to: the games and how to start one."""
        t = i18n.translator(room.lang or normalise_language(lang_hint) or i18n.DEFAULT_LANGUAGE)
        games = t.format_list([ui.title(t) for _gid, ui in sorted(self.uis.items())])
        text = t.gettext(
            "Hello! I host table games here: {games}. To play, write for example “new gnav”; then "
            "the others write “join” and you “start”. “help” lists everything, and you can ask me "
            "about the rules at any time."
        ).format(games=games)
        out = [Outbound(room.platform, text, chat_id=room.ext_id, lang=t.lang)]
        if room.lang is None:  # the notice speaks the room's language: the same as the greeting
            room = replace(room, lang=t.lang)
        return out + self.privacy_notice(room)

    def privacy_notice(self, room: RoomRec) -> list[Outbound]:
        """Once per group where the bot sees only what is addressed to it: how an admin lets it read
        the moves people type (the game works without, by buttons, commands and replies)."""
        if room.platform not in self.settings.addressed_only:
            return []
        key = f"{room.platform}:{room.ext_id}"
        if self.repo.kv_get(NS_PRIVACY_TOLD, key):
            return []
        self.repo.kv_set(NS_PRIVACY_TOLD, key, True)
        t = i18n.translator(room.lang or "fi")
        text = t.gettext(
            "For the group’s admins: I see only commands, replies to my messages and messages that "
            "mention me here, so moves typed freely in the group do not reach me. To play by plain "
            "messages, turn my privacy mode off (BotFather → /setprivacy → Disable) and add me to the "
            "group again, or make me an admin of the group."
        )
        return [Outbound(room.platform, text, chat_id=room.ext_id, lang=t.lang)]
