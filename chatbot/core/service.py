"""The core: one use case per inbound message, and what is due.

:class:`BotCore` is a thin dispatcher. It resolves who is speaking, reads the text as a meta command
or hands it to the game, and runs every answer and change in one transaction of the repository's
unit; the use cases themselves are its collaborators, each built here with what it needs:

=================  ======================================================================
``lobby``          a new game, options, joining, AI seats, start, leave, cancel, back, rematch
``seating``        a match's seats changed, the deal, the rematch's lobby
``roles``          who may run a lobby or end a match; kick, hand over, take a seat
``play``           typed moves and pressed buttons, refusals, the commit of a move
``renderer``       the table, the private prompts, the lobby, the hint (pure: stores nothing)
``schedule``       the deadlines a change stores next to its commit
``timers``         the deadlines performed: AI turns, reminders, idle moves, windows
``views``          the table, the map and the hand where asked
``questions``      help, the games, the rules and "why" questions
``talk``           one's own situation, what is possible now, doubtful commands
``reader``         a text read as a meta command (options said in words)
``records``        results, statistics, history; ``replays`` of finished matches
``groups``         a group's chat moved, the bot removed and added back, privacy mode
``private``        private chats the platform will not open yet, deep links
``people``         who is who: members a room has seen, handles, each person's language
``outbox``         every use case's messages queued, with the live prompts a change left out and
                   no group text that names a hidden card
=================  ======================================================================
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace

from chatbot.core import i18n
from chatbot.core.access import MAX_TEXT, ButtonData, Throttle, clean_inbound, parse_button
from chatbot.core.asked import ASK_MARK, answer_of
from chatbot.core.certainty import Certainty
from chatbot.core.commands import Command
from chatbot.core.decoded import Decoded, Finder
from chatbot.core.explain import find_topics, game_named
from chatbot.core.gameui import GameUI
from chatbot.core.groups import Groups
from chatbot.core.i18n import Translator, normalise_language
from chatbot.core.live import LivePrompts
from chatbot.core.lobby import Lobby, left_seat
from chatbot.core.nlp import Lemmatizer, normalise
from chatbot.core.outbox import HiddenGuard, Outbox
from chatbot.core.people import People, seat_names
from chatbot.core.play import Play
from chatbot.core.ports import (
    LOBBY,
    RUNNING,
    Answer,
    MatchRec,
    Members,
    Repository,
    StorageUnavailable,
    UpdateSeen,
    WebLinks,
)
from chatbot.core.private import PrivateChats, start_payload
from chatbot.core.questions import Questions
from chatbot.core.records import RECORD_COMMANDS, Records
from chatbot.core.render import Renderer
from chatbot.core.replay import REPLAY_MARK, Replays
from chatbot.core.roles import SEAT_COMMANDS, Roles
from chatbot.core.schedule import Schedule
from chatbot.core.seating import Seating
from chatbot.core.talk import Reader, Talk
from chatbot.core.timers import Timers
from chatbot.core.types import Inbound, Outbound
from chatbot.core.usecase import Conflict, CoreSettings, Speaker, not_here, reply, stale
from chatbot.core.views import Views
from engines.contract import Engine

log = logging.getLogger(__name__)

#: how often a person's command is tried again when another change won the race for the match
CONFLICT_RETRIES = 3
#: remembered languages of recent speakers, for an apology when the database is down
LANG_MEMORY = 10_000


class BotCore:
    """Transport-agnostic bot: ``handle`` one inbound message, ``run_due`` what is due.

    Every answer and change is one transaction through the repository's unit: the change, the
    outbound messages it caused (the outbox), the match's next deadlines and the inbound update id.
    AI moves, reminders, moves for idle people and the end of reaction windows are deadlines."""

    def __init__(
        self,
        repo: Repository,
        *,
        uis: dict[str, GameUI],
        games: dict[str, Engine],
        seed: str | None = None,
        bot_name: str = "Pelibotti",
        lemmatizer: Lemmatizer | None = None,
        clock: Callable[[], float] = time.time,
        remind_after: float = 600.0,
        act_after: float = 1800.0,
        ai_delay: float = 0.0,
        lease: float = 30.0,
        link_template: str | None = None,
        members: dict[str, Members] | None = None,
        throttle: Throttle | None = None,
    ) -> None:
        self.repo = repo
        self.clock = clock
        self.uis = uis
        self.games = games
        self.bot_name = bot_name
        self.lemmatizer = lemmatizer or Lemmatizer()
        #: flood control per user (the chat platforms' composition gives 30 messages in 10 seconds,
        #: then one notice and silence); None for the console, scripts and tests that replay fast
        self.throttle = throttle
        self.worker = f"core-{secrets.token_hex(4)}"
        self.settings = CoreSettings(
            remind_after=remind_after,
            act_after=act_after,
            ai_delay=ai_delay,
            lease=lease,
            link_template=link_template,
            members=dict(members or {}),
            base_seed=seed,
        )
        self._langs: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._langs_lock = threading.Lock()

        settings = self.settings
        self.people = People(repo)
        self.decoded = Decoded(repo, games)
        self.finder = Finder(repo, games, self.decoded)
        self.renderer = Renderer(repo, games, uis, self.decoded, settings, clock, self.people)
        self.schedule = Schedule(repo, games, uis, self.decoded, settings, clock)
        live = LivePrompts(
            repo,
            games,
            self.decoded.state,
            lambda match, room, state: self.renderer.render_match(
                match, room, events=(), privates=False, state=state
            ),
            lambda match, room, seat, state: self.renderer.private_prompt(
                match, room, seat, (), force=True, state=state
            ),
            self.renderer.ended_panel,
        )
        self.outbox = Outbox(repo, live, HiddenGuard(repo, games, self.decoded.state))
        self.seating = Seating(repo, games, self.decoded, self.schedule, self.renderer, settings)
        self.roles = Roles(
            repo, games, uis, settings, clock, self.renderer, self.seating, self.people, self.lemmatizer
        )
        self.groups = Groups(repo, uis, settings, self.renderer, self.schedule, self.outbox)
        self.lobby = Lobby(
            repo, games, uis, settings, self.finder, self.renderer, self.seating, self.roles, self.groups
        )
        self.views = Views(repo, games, uis, self.decoded, self.finder, self.renderer)
        self.questions = Questions(games, uis, self.lemmatizer, self.decoded, self.finder, self.renderer)
        self.reader = Reader(games, uis, self.lemmatizer)
        self.certainty = Certainty(uis, self.lemmatizer)
        self.talk = Talk(games, uis, self.finder, self.renderer, self.views)
        self.replays = Replays(repo, games, uis, self.finder, self.views, settings)
        self.records = Records(repo, games, uis, clock, self.replays)
        self.play = Play(
            repo,
            games,
            uis,
            self.decoded,
            self.finder,
            self.renderer,
            self.schedule,
            self.records,
            self.seating,
            self.certainty,
        )
        self.private = PrivateChats(repo, uis, settings, self.outbox, self.lobby, self.questions)
        self.timers = Timers(
            repo,
            games,
            uis,
            self.decoded,
            self.schedule,
            self.play,
            self.renderer,
            self.outbox,
            settings,
            clock,
            self.worker,
        )

    # --- what the transports set at their start ----------------------------------------------------
    @property
    def link_template(self) -> str | None:
        """The deep link into a private chat, e.g. "https://t.me/<bot>?start={payload}"."""
        return self.settings.link_template

    @link_template.setter
    def link_template(self, template: str | None) -> None:
        self.settings.link_template = template

    @property
    def web_links(self) -> WebLinks | None:
        """Links into the web view of a match (issue #29), set where the view is served."""
        return self.settings.web

    @web_links.setter
    def web_links(self, links: WebLinks | None) -> None:
        self.settings.web = links

    @property
    def ai_delay(self) -> float:
        """Seconds before an AI seat moves."""
        return self.settings.ai_delay

    @ai_delay.setter
    def ai_delay(self, seconds: float) -> None:
        self.settings.ai_delay = seconds

    @property
    def members(self) -> dict[str, Members]:
        """Per platform, who administers a chat (each transport adds its own)."""
        return self.settings.members

    @property
    def outbound_checks(self) -> list[Callable[[Sequence[Outbound]], None]]:
        """Called inside the unit with every change's messages before they are queued (a test's scan
        for hidden information); one that raises rolls the change back."""
        return self.outbox.checks

    @property
    def addressed_only(self) -> set[str]:
        """The platforms on which the bot sees in groups only what is addressed to it."""
        return self.settings.addressed_only

    def warm(self) -> None:
        """Build now what the first messages after a start would otherwise build: the catalogs of
        every language (read from the .po files) and the rule topics' titles. Without it a worker's
        first /start and first rules question each took 30-50 ms more."""
        for lang in i18n.LANGUAGES:
            i18n.translator(lang)
        find_topics("mitä tarkoittaa what does it mean", self.uis.values(), self.lemmatizer)

    # --- use cases that are not a message ------------------------------------------------------------
    def run_due(self, worker: str | None = None, limit: int = 20) -> list[Outbound]:
        """Claim the deadlines that are due and perform them (see :meth:`Timers.run_due`)."""
        return self.timers.run_due(worker, limit)

    def next_due(self) -> float | None:
        """When the next deadline is due (see :meth:`Timers.next_due`)."""
        return self.timers.next_due()

    def private_blocked(self, platform: str, user_ext_id: str) -> Answer:
        """The platform refuses this user's private chat (see :meth:`PrivateChats.private_blocked`)."""
        return self.private.private_blocked(platform, user_ext_id)

    def deep_link(self, match_id: int) -> str:
        """The link that opens the private chat and seats its user in the match."""
        return self.private.deep_link(match_id)

    def move_chat(self, platform: str, old_chat: str, new_chat: str) -> Answer:
        """The group ``old_chat`` is now ``new_chat`` (see :meth:`Groups.move_chat`)."""
        return self.groups.move_chat(platform, old_chat, new_chat)

    def bot_presence(self, platform: str, chat: str, present: bool, lang_hint: str | None = None) -> Answer:
        """The bot was removed from the group or added to it (see :meth:`Groups.bot_presence`)."""
        return self.groups.bot_presence(platform, chat, present, lang_hint)

    def table_messages(self) -> list[Outbound]:
        """The current table of every running match, for transports that re-post after a restart."""
        out = []
        for match in self.repo.running_matches():
            room = self.repo.room_by_id(match.room_id)
            out.extend(self.renderer.render_match(match, room, events=(), privates=False))
        return out

    # without the runtime (benchmarks of the older transports' loop, older tests): see Timers
    def step_ai(self, match_id: int) -> list[Outbound]:
        """One AI move in the match, if an AI seat is to act."""
        return self.timers.step_ai(match_id)

    def run_ai(self, match_id: int, limit: int = 100_000) -> list[Outbound]:
        """AI moves until a person must act or the game ends."""
        return self.timers.run_ai(match_id, limit)

    def ai_pending(self) -> list[int]:
        """The matches with an AI move due."""
        return self.timers.ai_pending()

    def tick(self) -> list[Outbound]:
        """What is due now (``run_due`` under the core's own worker name)."""
        return self.timers.tick()

    # --- a message -------------------------------------------------------------------------------------
    def handle(self, msg: Inbound) -> Answer:
        """Answer one inbound message, committed with its change in one transaction; a redelivered
        update (``update_key`` seen before) gives nothing. Never raises: bad input becomes a hint, a
        database outage an apology (``Answer.committed`` False: the runtime sends it itself)."""
        try:
            msg = clean_inbound(msg)
            verdict = self.throttle.check(msg.platform, msg.user_id) if self.throttle else "ok"
            if verdict != "ok":
                return self._throttled(msg, verdict)
            return self._handle_once(msg)
        except UpdateSeen:  # a redelivery, found out at the unit's first statement: nothing was done
            return Answer.seen()
        except StorageUnavailable as exc:
            log.warning("storage unavailable while handling %r: %s", msg, exc)
            t = i18n.translator(self._lang_of(msg))
            return Answer.direct(
                [
                    reply(
                        msg,
                        t,
                        t.gettext("Sorry, I cannot reach my memory just now. Please try again in a moment."),
                    )
                ]
            )
        except Exception:  # the bot must never crash on input; log and apologise
            # nothing of the update was kept (not even its id): a redelivery tries it again
            log.exception("error while handling %r", msg)
            t = i18n.translator(self._stored_lang_of(msg))
            return Answer.direct(
                [reply(msg, t, t.gettext("Something went wrong on my side. Please try again."))]
            )

    def _update_of(self, msg: Inbound) -> tuple[str, str] | None:
        return (msg.platform, msg.update_key) if msg.update_key is not None else None

    def _handle_once(self, msg: Inbound) -> Answer:
        for _ in range(CONFLICT_RETRIES):
            try:
                with self.repo.unit(update=self._update_of(msg)) as fresh:
                    if not fresh:
                        return Answer.seen()
                    outs = self.outbox.commit(self._handle(msg))
                    due = self.repo.unit_earliest_due()
                return Answer.made(outs, due)
            except Conflict as conflict:
                last = conflict  # read again: the command may still be meant and possible
        t = i18n.translator(self._lang_of(msg))
        text = (
            t.gettext("The table changed just now; please try again.")
            if last.lobby
            else t.gettext("Someone acted at the same moment; please try again.")
        )
        sorry = [reply(msg, t, text)]
        with self.repo.unit(update=self._update_of(msg)) as fresh:
            if not fresh:
                return Answer.seen()
            sorry = self.outbox.commit(sorry)
        return Answer.made(sorry, None)

    def _throttled(self, msg: Inbound, verdict: str) -> Answer:
        """A flooding user's message: dropped, and the first of a burst gets one short notice."""
        if verdict != "notice":
            return Answer()
        t = i18n.translator(self._lang_of(msg))
        notice = [
            reply(
                msg,
                t,
                t.gettext("That is a lot of messages at once; I will answer again in a few seconds."),
                private=True,
            )
        ]
        with self.repo.unit(update=self._update_of(msg)) as fresh:
            if not fresh:
                return Answer.seen()
            notice = self.outbox.commit(notice)
        return Answer.made(notice, None)

    def _stored_lang_of(self, msg: Inbound) -> str:
        """The sender's language as stored (for the last-resort apology), else as remembered."""
        try:
            with self.repo.unit():
                user = self.repo.find_user(msg.platform, msg.user_id)
            if user is not None and user.lang:
                return user.lang
        except Exception as exc:  # the apology must go out even when the lookup fails
            log.warning("could not read the language of %s: %s", msg.user_id, exc)
        return self._lang_of(msg)

    def _lang_of(self, msg: Inbound) -> str:
        with self._langs_lock:
            known = self._langs.get((msg.platform, msg.user_id))
        return known or normalise_language(msg.lang_hint) or i18n.DEFAULT_LANGUAGE

    def _remember_lang(self, platform: str, user_ext_id: str, lang: str) -> None:
        with self._langs_lock:
            self._langs[(platform, user_ext_id)] = lang
            self._langs.move_to_end((platform, user_ext_id))
            while len(self._langs) > LANG_MEMORY:
                self._langs.popitem(last=False)

    def _handle(self, msg: Inbound) -> list[Outbound]:
        context = getattr(self.repo, "context", None)  # the three reads in one round trip
        if context is not None:
            user, room = context(
                msg.platform, msg.user_id, msg.user_name, None if msg.private else msg.chat_id
            )
        else:
            user = self.repo.user(msg.platform, msg.user_id, msg.user_name)
            room = None if msg.private else self.repo.room(msg.platform, msg.chat_id)
        self.people.seen(msg, user, room)
        lang = self.people.lang(user, room, msg.lang_hint)
        speaker = Speaker(user, lang, room)
        self._remember_lang(msg.platform, msg.user_id, lang)
        t = i18n.translator(lang)
        released = self.private.opened(msg) if msg.private else 0
        if msg.button is not None:
            return self._button(msg, speaker, t)
        text = (msg.text or "").strip()
        if not text or len(text) > MAX_TEXT:
            if not msg.private:
                return []  # chat in a group: nothing for the bot
            if text:
                answer = t.gettext(
                    "That message is too long for me. Write a short command, for example “help”."
                )
            else:
                answer = t.gettext(
                    "I did not understand. Write “help” for the commands, or ask about the rules."
                )
            return [reply(msg, t, answer)]
        payload = start_payload(text) if msg.private else None
        if payload is not None:
            return self.private.open_private(msg, speaker, payload, released)
        addressed = msg.private or msg.addressed
        match = self.finder.context_match(msg, speaker)
        names, lobby_game = self._table_of(match)
        text, command = self.reader.read(text, lang, addressed, names, lobby_game)
        if command is not None and not addressed:
            game = match.game if match is not None else None
            if not self.certainty.command(command, text, game, lang, names):
                command = None  # friends talking in the group: not the bot's (issue #27)
        elif command is not None and self.certainty.doubtful(command):
            command = replace(command, name="unsure", topic=command.name, weak=True)
        if command is not None and command.weak and self.play.reads(msg, speaker, t, text):
            command = None  # "lopeta", "aloitan Kairosta", "uusi kortti": the game's own words
        if command is not None:
            handled = self._command(msg, speaker, t, command)
            if handled is not None:
                return handled
        out = self.play.text(msg, speaker, t, text)
        if not out and addressed:
            # addressed to the bot and not understood: never silence, a hint of what is possible now
            return [reply(msg, t, self.talk.possible_now(msg, speaker, t))]
        return out

    @staticmethod
    def _table_of(match: MatchRec | None) -> tuple[tuple[str, ...], str | None]:
        """The seats' names of the match here, and its game while it waits in the lobby (whose
        options may then be said in words: "pelataan kolme kierrosta")."""
        if match is None:
            return (), None
        return seat_names(match.seats), match.game if match.status == LOBBY else None

    def _command(self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command) -> list[Outbound] | None:
        name = cmd.name
        if name == "help":
            th = self.questions.translator(sp, cmd.raw_args, cmd) if cmd.lang and not cmd.slash else t
            return [reply(msg, th, self.questions.help_text(msg, sp, th))]
        if name == "lang":
            return self._set_language(msg, sp, cmd)
        if name == "rules":
            tq = self.questions.translator(sp, cmd.raw_args, cmd)
            # None: a question to someone else in a group, not the bot's
            return self.questions.answer(msg, sp, tq, cmd) or []
        if name == "ask":
            tq = self.questions.translator(sp, cmd.raw_args, cmd)
            situation = self.talk.situation(msg, sp, tq, cmd)
            if situation is not None:
                return situation
            return self.questions.answer(msg, sp, tq, replace(cmd, name="rules")) or []
        if name == "unsure":
            return self.talk.unsure(msg, t, cmd, sp.user.id)
        if name == "games":
            return [reply(msg, t, self.questions.games_text(t))]
        if name == "hand":
            return self.views.hand(msg, sp, t)
        if name == "map":
            return self.views.map(msg, sp, t)
        if name == "status":
            return self.views.status(msg, sp, t)
        if name in RECORD_COMMANDS:
            stepped = None if self._coming_back(msg, sp, cmd) else self.records.command(msg, sp, t, cmd)
            if stepped is not None or cmd.topic != "back":
                return stepped
            name = "back"  # "back" with no replay to step back in: a person coming back
        if msg.private and sp.room is None:
            match = self.finder.private_match(sp.user)
            if name in {"leave", "cancel"} and match is not None:
                return self.lobby.leave_or_cancel(msg, sp, t, match, name)
            if name == "new":
                if cmd.game is None and cmd.weak and match is not None:
                    return None  # "uusi kortti" in a private chat during a game is a game command
                return [
                    reply(
                        msg,
                        t,
                        t.gettext(
                            "Games are set up in a group chat: add me to a group and write “new” there."
                        ),
                    )
                ]
            return [reply(msg, t, t.gettext("That works in the group chat of a game, not here."))]
        assert sp.room is not None
        match = self.repo.active_match(sp.room.id)
        if name == "new":
            ui = self.uis.get(cmd.game) if cmd.game else None
            if ui is None and cmd.slash:
                # the game's name, not an option's words ("tahti=päivä" names no "tähti")
                named = normalise(" ".join(x for x in cmd.tokens if "=" not in x)).split()
                ui = game_named(named, self.uis.values()) if named else None
            if ui is None and cmd.weak and match is not None and match.status == RUNNING:
                return None  # "uusi kortti" during a game is a game command, not "new game"
            if ui is None and cmd.weak and not (msg.private or msg.addressed):
                return None  # "uusi kortti" said in a group without a game: chat
            return self.lobby.new(msg, sp, t, match, ui, cmd)
        if name == "rematch":
            return self.lobby.rematch(msg, sp, t, self.seating.last_finished(sp.room))
        if name in {"fill", "as_is"} and (match is None or match.status != LOBBY):
            return None  # words of the fill question mean nothing else outside a lobby
        if match is None:
            return [
                reply(
                    msg,
                    t,
                    t.gettext("There is no game at this table. Start one with “new” and the name of a game.")
                    + "\n"
                    + self.questions.games_text(t),
                )
            ]
        if name == "join":
            return self.lobby.join(msg, sp, t, match, cmd.tokens)
        if name in {"add_ai", "remove_ai"}:
            return self.lobby.ai_seat(msg, sp, t, match, cmd)
        if name == "options":
            return self.lobby.options(msg, sp, t, match, cmd)
        if name == "start":
            return self.lobby.start(msg, sp, t, match)
        if name in {"fill", "as_is"}:
            return self.lobby.start(msg, sp, t, match, fill=name == "fill")
        if name in {"leave", "cancel"}:
            return self.lobby.leave_or_cancel(msg, sp, t, match, name)
        if name == "back":
            return self.lobby.back(msg, sp, t, match)
        if name in SEAT_COMMANDS:
            return self.roles.seat_command(msg, sp, t, match, cmd)
        return None

    def _answered(self, msg: Inbound, sp: Speaker, t: Translator, data: ButtonData) -> list[Outbound]:
        """A button that answers a clarifying question (:mod:`chatbot.core.asked`): what the asker
        was asked to write, done for the asker only."""
        found = answer_of(data)
        if found is None:
            return not_here(msg, t)
        asker, verb, arg = found
        if asker != sp.user.id:
            text = t.gettext(
                "That button answers someone else’s question. Ask me yourself and I will answer you."
            )
            return [reply(msg, t, text)]
        if verb == "rule":
            return self.questions.topic_answer(msg, t, arg) or not_here(msg, t)
        if sp.room is None or (verb == "new" and arg not in self.uis):
            return not_here(msg, t)
        return self._command(msg, sp, t, Command(verb, game=arg or None)) or []

    def _coming_back(self, msg: Inbound, sp: Speaker, cmd: Command) -> bool:
        """Whether a bare "back" ("takaisin") is a person who left the running game here coming back
        rather than a step back in a replay shown in the chat."""
        if cmd.topic != "back" or msg.private:
            return False
        match = self.finder.context_match(msg, sp)
        return match is not None and match.status == RUNNING and left_seat(match, sp.user.id) is not None

    def _set_language(self, msg: Inbound, sp: Speaker, cmd: Command) -> list[Outbound]:
        wanted = normalise_language(cmd.tokens[0]) if cmd.tokens else None
        t_now = i18n.translator(sp.lang)
        if wanted is None:
            return [
                reply(
                    msg,
                    t_now,
                    t_now.gettext("Choose a language: “language fi” (suomi) or “language en” (English)."),
                )
            ]
        self.repo.set_user_lang(sp.user.id, wanted)
        self._remember_lang(msg.platform, msg.user_id, wanted)
        if sp.room is not None:
            self.repo.set_room_lang(sp.room.id, wanted)
        t = i18n.translator(wanted)
        return [reply(msg, t, t.gettext("I will speak English with you."))]

    def _button(self, msg: Inbound, sp: Speaker, t: Translator) -> list[Outbound]:
        """A press acts only where its button was offered (issue #13): a lobby or table button in
        its match's own room, a private prompt's button in the private chat of that seat's player.
        Anything else, and data that is not well formed, gets one answer that reveals nothing about
        any match; a press in the right place against an older version is "stale"."""
        data = parse_button(msg.button)
        if data is None:
            return not_here(msg, t)
        if data.notation.startswith(REPLAY_MARK):
            return self.replays.press(msg, sp, t, data)
        if data.notation.startswith(ASK_MARK):
            return self._answered(msg, sp, t, data)
        match = self.repo.match(data.match_id)
        if match is None or match.game not in self.games:
            return not_here(msg, t)
        room = self.repo.room_by_id(match.room_id)
        if msg.platform != room.platform:
            return not_here(msg, t)
        if data.verb is None:
            return self.play.press(msg, sp, t, match, room, data.version, data.notation)
        # lobby buttons are offered in the room only
        if msg.private or msg.chat_id != room.ext_id:
            return not_here(msg, t)
        if data.verb == "rematch":  # the final message's button: the match is over
            return self.lobby.rematch(msg, Speaker(sp.user, sp.lang, room), t, match, pressed=data.version)
        if match.status != LOBBY or data.version != match.version:
            return stale(msg, t)
        if data.verb == "suggested":  # the lobby's offer of other options (the quick game)
            return self.lobby.suggested(msg, Speaker(sp.user, sp.lang, room), t, match)
        return self._command(msg, Speaker(sp.user, sp.lang, room), t, Command(data.verb)) or stale(msg, t)
