"""The match service: one use case per inbound message.

Find the chat's match, check the version, apply the action through the engine, store the action and
the new snapshot in one transaction, then render one public message from the public view and one
private message per affected seat from that seat's view, each in its recipient's language.

Hidden information reaches only private messages: group texts are rendered from ``view(state,
None)`` and public events; private texts from ``view(state, seat)`` and that seat's events.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from chatbot.core import i18n, pace
from chatbot.core.access import MAX_TEXT, Throttle, clean_inbound, parse_button
from chatbot.core.commands import Command, parse_command
from chatbot.core.explain import find_topics, game_named
from chatbot.core.groups import Groups
from chatbot.core.i18n import Translator, normalise_language
from chatbot.core.live import LivePrompts
from chatbot.core.nlp import Lemmatizer, fold, normalise
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed
from chatbot.core.ports import (
    CANCELLED,
    LOBBY,
    OVER,
    REMIND,
    RUNNING,
    Answer,
    Deadline,
    GameUI,
    MatchRec,
    Members,
    RenderContext,
    Repository,
    RoomRec,
    SeatRec,
    StorageUnavailable,
    UpdateSeen,
    UserRec,
)
from chatbot.core.private import PrivateChats, start_payload
from chatbot.core.records import RECORD_COMMANDS, REPLAY_MARK, Records
from chatbot.core.roles import SEAT_COMMANDS, Roles
from chatbot.core.seating import Seating
from chatbot.core.talk import Talk
from chatbot.core.timers import Timers
from chatbot.core.types import PROMPT, TABLE, Button, Inbound, Outbound
from chatbot.core.usecase import Conflict, Speaker
from engines.codec import BadNotation, decode, encode
from engines.contract import Engine, Event, IllegalAction

log = logging.getLogger(__name__)

#: button data of lobby buttons: "<match>:<version>:@<command>"
META_PREFIX = "@"
RECENT_ACTIONS = 6
#: how often a person's command is tried again when another change won the race for the match
CONFLICT_RETRIES = 3
#: remembered languages of recent speakers, for an apology when the database is down
LANG_MEMORY = 10_000
#: decoded public events of recent actions kept (a few per running match suffice)
EVENT_MEMORY = 20_000
#: decoded match states kept, by (match, version) (the matches played just now)
STATE_MEMORY = 256
#: texts kept with their reading as a command (the words of a running game recur)
PARSE_MEMORY = 1024


#: "miksi en voi kääntää?" / "why can't I flip?": the question words before the move
_WHY = {"miksi", "miks", "miksei", "why"}
#: "miksi?", "miksi ei käy?", "why not?": a bare "why" that asks about the last refused move
_BARE_WHY = {
    "ei",
    "en",
    "not",
    "kay",
    "onnistu",
    "toimi",
    "mennyt",
    "menny",
    "that",
    "so",
    "nyt",
    "sitten",
    "noin",
}
_WHY_FILLER = {
    "en",
    "et",
    "ei",
    "voi",
    "voida",
    "pysty",
    "saa",
    "cant",
    "can't",
    "cannot",
    "can",
    "i",
    "not",
    "may",
}


class BotCore(Timers, PrivateChats, Roles, Groups, Records, Seating, Talk):
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
        #: seconds until a person who must act is reminded, and until the bot moves for them
        self.remind_after = remind_after
        self.act_after = act_after
        #: seconds before an AI seat moves (0: at once; a transport may slow the bots down)
        self.ai_delay = ai_delay
        #: seconds a claimed deadline stays with the worker that claimed it
        self.lease = lease
        #: the deep link into a private chat, e.g. "https://t.me/<bot>?start={payload}" (set by the
        #: transport at start; the core fills in the payload "join-<match id>")
        self.link_template = link_template
        #: per platform, who administers a chat (set by each transport; issue #13)
        self.members: dict[str, Members] = dict(members or {})
        #: flood control per user (the chat platforms' composition gives 30 messages in 10 seconds,
        #: then one notice and silence); None for the console, scripts and tests that replay fast
        self.throttle = throttle
        #: platforms on which the bot sees in groups only what is addressed to it: commands, replies
        #: to its messages, mentions (Telegram's privacy mode; set by the transport at start)
        self.addressed_only: set[str] = set()
        self.base_seed = seed
        self.bot_name = bot_name
        self.lemmatizer = lemmatizer or Lemmatizer()
        self.uis = uis
        self.games = games
        self.worker = f"core-{secrets.token_hex(4)}"
        self._langs: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._langs_lock = threading.Lock()
        #: decoded public events of recent actions, by (match, ply, seat, notation)
        self._public_events: OrderedDict[tuple[int, int, int, str], list[Event]] = OrderedDict()
        self._events_lock = threading.Lock()
        #: decoded states by (match, version): the snapshot as stored and the engine's state from it
        self._states: OrderedDict[tuple[int, int], tuple[Any, Any]] = OrderedDict()
        self._states_lock = threading.Lock()
        #: (text, lang, addressed, seat names) -> (the text with options in words, its command)
        self._parsed: OrderedDict[tuple[str, str, bool, tuple[str, ...]], tuple[str, Command | None]] = (
            OrderedDict()
        )
        self._parsed_lock = threading.Lock()
        self._recovered = False
        self._started_workers: set[str] = set()
        self._pruned_at = 0.0
        #: replays of finished matches being stepped through (issue #16)
        self._replays: OrderedDict[tuple[int, int], Any] = OrderedDict()
        self._replays_lock = threading.Lock()
        #: called inside the unit with every change's outbound messages before they are queued; one
        #: that raises rolls the change back (the tests' scan for hidden information is one)
        self.outbound_checks: list[Callable[[Sequence[Outbound]], None]] = []
        self.live = LivePrompts(
            repo,
            games,
            self._state,
            lambda match, room, state: self._render_match(
                match, room, events=(), privates=False, state=state
            ),
            lambda match, room, seat, state: self._private_prompt(
                match, room, seat, (), force=True, state=state
            ),
        )

    def _commit(self, outs: list[Outbound]) -> list[Outbound]:
        """Queue ``outs`` in the open unit's outbox with the live prompts they lack (see
        :mod:`chatbot.core.live`); every use case's messages go out through here, past the
        ``outbound_checks``."""
        outs = [*outs, *self.live.missing(outs)]
        for check in self.outbound_checks:
            check(outs)
        self.repo.outbox_add(outs)
        return outs

    def warm(self) -> None:
        """Build now what the first messages after a start would otherwise build: the catalogs of
        every language (read from the .po files) and the rule topics' titles. Without it a worker's
        first /start and first rules question each took 30-50 ms more."""
        for lang in i18n.LANGUAGES:
            i18n.translator(lang)
        find_topics("mitä tarkoittaa what does it mean", self.uis.values(), self.lemmatizer)

    # ------------------------------------------------------------------------------------------
    # entry points

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
                    self._reply(
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
                [self._reply(msg, t, t.gettext("Something went wrong on my side. Please try again."))]
            )

    def _update_of(self, msg: Inbound) -> tuple[str, str] | None:
        return (msg.platform, msg.update_key) if msg.update_key is not None else None

    def _handle_once(self, msg: Inbound) -> Answer:
        for _ in range(CONFLICT_RETRIES):
            try:
                with self.repo.unit(update=self._update_of(msg)) as fresh:
                    if not fresh:
                        return Answer.seen()
                    outs = self._commit(self._handle(msg))
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
        sorry = [self._reply(msg, t, text)]
        with self.repo.unit(update=self._update_of(msg)) as fresh:
            if not fresh:
                return Answer.seen()
            sorry = self._commit(sorry)
        return Answer.made(sorry, None)

    def _throttled(self, msg: Inbound, verdict: str) -> Answer:
        """A flooding user's message: dropped, and the first of a burst gets one short notice."""
        if verdict != "notice":
            return Answer()
        t = i18n.translator(self._lang_of(msg))
        notice = [
            self._reply(
                msg,
                t,
                t.gettext("That is a lot of messages at once; I will answer again in a few seconds."),
                private=True,
            )
        ]
        with self.repo.unit(update=self._update_of(msg)) as fresh:
            if not fresh:
                return Answer.seen()
            notice = self._commit(notice)
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

    def table_messages(self) -> list[Outbound]:
        """The current table of every running match, for transports that re-post after a restart."""
        out = []
        for match in self.repo.running_matches():
            room = self.repo.room_by_id(match.room_id)
            out.extend(self._render_match(match, room, events=(), privates=False))
        return out

    # ------------------------------------------------------------------------------------------
    # dispatch

    def _handle(self, msg: Inbound) -> list[Outbound]:
        context = getattr(self.repo, "context", None)  # the three reads in one round trip
        if context is not None:
            user, room = context(
                msg.platform, msg.user_id, msg.user_name, None if msg.private else msg.chat_id
            )
        else:
            user = self.repo.user(msg.platform, msg.user_id, msg.user_name)
            room = None if msg.private else self.repo.room(msg.platform, msg.chat_id)
        lang = user.lang or normalise_language(msg.lang_hint) or (room.lang if room else None) or "fi"
        speaker = Speaker(user, lang, room)
        self._remember_lang(msg.platform, msg.user_id, lang)
        t = i18n.translator(lang)
        released = self._opened(msg) if msg.private else 0
        if msg.button is not None:
            return self._button(msg, speaker, t)
        text = (msg.text or "").strip()
        if not text or len(text) > MAX_TEXT:
            if not msg.private:
                return []  # chat in a group: nothing for the bot
            if text:
                reply = t.gettext(
                    "That message is too long for me. Write a short command, for example “help”."
                )
            else:
                reply = t.gettext(
                    "I did not understand. Write “help” for the commands, or ask about the rules."
                )
            return [self._reply(msg, t, reply)]
        payload = start_payload(text) if msg.private else None
        if payload is not None:
            return self._open_private(msg, speaker, payload, released)
        addressed = msg.private or msg.addressed
        text, command = self._read_command(text, lang, addressed, self._seat_names(msg, speaker))
        if command is not None and command.weak and self._game_reads(msg, speaker, t, text):
            command = None  # "lopeta", "aloitan Kairosta", "uusi kortti": the game's own words
        if command is not None:
            handled = self._command(msg, speaker, t, command)
            if handled is not None:
                return handled
        out = self._game_text(msg, speaker, t, text)
        if not out and addressed:
            # addressed to the bot and not understood: never silence, a hint of what is possible now
            return [self._reply(msg, t, self._possible_now(msg, speaker, t))]
        return out

    def _read_command(
        self, text: str, lang: str, addressed: bool, names: tuple[str, ...]
    ) -> tuple[str, Command | None]:
        """``text`` with its options in words as typed options, and the meta command it is (or
        None). Both depend on nothing else (the games and the lemmatiser are fixed), so a text is
        read once: a running game's words ("nostan", "valmis") come again and again."""
        key = (text, lang, addressed, names)
        with self._parsed_lock:
            known = self._parsed.get(key)
            if known is not None:
                self._parsed.move_to_end(key)
                return known
        read, found = self._options_in_words(text)
        command = parse_command(
            read,
            self._game_names(),
            lang,
            addressed=addressed,
            lemmatizer=self.lemmatizer,
            known=self._option_words(),
            names=names,
            found=found,
        )
        with self._parsed_lock:
            self._parsed[key] = (read, command)
            while len(self._parsed) > PARSE_MEMORY:
                self._parsed.popitem(last=False)
        return read, command

    def _state(self, match: MatchRec) -> Any:
        """``match.state`` decoded by its engine, once per (match, version): the snapshot is compared
        with the one kept (far cheaper than decoding it), so a state never comes from a snapshot
        that was not this one (a rolled back change, another worker's)."""
        assert match.state is not None
        key = (match.id, match.version)
        with self._states_lock:
            kept = self._states.get(key)
        if kept is not None and kept[0] == match.state:
            return kept[1]
        state = self.games[match.game].load(match.state)
        self._keep_state(key, match.state, state)
        return state

    def _keep_state(self, key: tuple[int, int], snapshot: Any, state: Any) -> None:
        with self._states_lock:
            self._states[key] = (snapshot, state)
            self._states.move_to_end(key)
            while len(self._states) > STATE_MEMORY:
                self._states.popitem(last=False)

    def _seat_names(self, msg: Inbound, sp: Speaker) -> tuple[str, ...]:
        match = self._context_match(msg, sp)
        return tuple(s.name for s in match.seats) if match is not None else ()

    def _game_reads(self, msg: Inbound, sp: Speaker, t: Translator, text: str) -> bool:
        """Whether the running game of the speaker's seat reads ``text`` as a move of its own."""
        match = self._context_match(msg, sp)
        if match is None or match.status != RUNNING or match.state is None:
            return False
        seat = self._seat_of(match, sp.user, prefer_acting=True)
        if seat is None:
            return False
        engine, ui = self.games[match.game], self.uis[match.game]
        state = self._state(match)
        legal = tuple(engine.notation(a) for a in engine.legal_actions(state, seat))
        ctx = ParseContext(
            lang=t.lang,
            seat=seat,
            legal=legal,
            view=engine.view(state, seat),
            seat_names=tuple(s.name for s in match.seats),
            private=msg.private,
        )
        return not isinstance(ui.parse(text, ctx), NotUnderstood)

    def _reply(
        self,
        msg: Inbound,
        t: Translator,
        text: str,
        buttons: Sequence[Sequence[Button]] = (),
        private: bool | None = None,
    ) -> Outbound:
        """An answer to the sender where they wrote (or in private when ``private``)."""
        if private or (private is None and msg.private):
            return Outbound(
                msg.platform,
                text,
                user_id=msg.user_id,
                buttons=_rows(buttons),
                reply_to=msg.message_id,
                lang=t.lang,
            )
        return Outbound(
            msg.platform,
            text,
            chat_id=msg.chat_id,
            buttons=_rows(buttons),
            reply_to=msg.message_id,
            lang=t.lang,
        )

    # ------------------------------------------------------------------------------------------
    # meta commands

    def _command(self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command) -> list[Outbound] | None:
        name = cmd.name
        if name == "help":
            th = self._question_translator(sp, cmd.raw_args, cmd) if cmd.lang and not cmd.slash else t
            return [self._reply(msg, th, self._help_text(msg, sp, th))]
        if name == "lang":
            return self._set_language(msg, sp, cmd)
        if name == "rules":
            tq = self._question_translator(sp, cmd.raw_args, cmd)
            answer = self._rules_text(msg, sp, tq, cmd)
            if answer is None:
                return []  # a question to someone else in a group: not the bot's
            return [self._reply(msg, tq, answer)]
        if name == "ask":
            tq = self._question_translator(sp, cmd.raw_args, cmd)
            situation = self._situation(msg, sp, tq, cmd)
            if situation is not None:
                return situation
            answer = self._rules_text(msg, sp, tq, replace(cmd, name="rules"))
            return [self._reply(msg, tq, answer)] if answer is not None else []
        if name == "unsure":
            return self._unsure(msg, t, cmd)
        if name == "games":
            return [self._reply(msg, t, self._games_text(t))]
        if name == "hand":
            return self._hand(msg, sp, t)
        if name == "map":
            return self._map(msg, sp, t)
        if name == "status":
            return self._status(msg, sp, t)
        if name in RECORD_COMMANDS:
            return self._records_command(msg, sp, t, cmd)
        if msg.private and sp.room is None:
            match = self._private_match(sp.user)
            if name in {"leave", "cancel"} and match is not None:
                return self._leave_or_cancel(msg, sp, t, match, name)
            if name == "new":
                if cmd.game is None and cmd.weak and match is not None:
                    return None  # "uusi kortti" in a private chat during a game is a game command
                return [
                    self._reply(
                        msg,
                        t,
                        t.gettext(
                            "Games are set up in a group chat: add me to a group and write “new” there."
                        ),
                    )
                ]
            return [self._reply(msg, t, t.gettext("That works in the group chat of a game, not here."))]
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
            return self._new(msg, sp, t, match, ui, cmd)
        if name == "rematch":
            return self._rematch(msg, sp, t, self._last_finished(sp.room))
        if name in {"fill", "as_is"} and (match is None or match.status != LOBBY):
            return None  # words of the fill question mean nothing else outside a lobby
        if match is None:
            return [
                self._reply(
                    msg,
                    t,
                    t.gettext("There is no game at this table. Start one with “new” and the name of a game.")
                    + "\n"
                    + self._games_text(t),
                )
            ]
        if name == "join":
            return self._join(msg, sp, t, match, cmd.tokens)
        if name in {"add_ai", "remove_ai"}:
            return self._ai_seat(msg, sp, t, match, cmd)
        if name == "options":
            return self._lobby_options(msg, sp, t, match, cmd)
        if name == "start":
            return self._start(msg, sp, t, match)
        if name in {"fill", "as_is"}:
            return self._start(msg, sp, t, match, fill=name == "fill")
        if name in {"leave", "cancel"}:
            return self._leave_or_cancel(msg, sp, t, match, name)
        if name == "back":
            return self._back(msg, sp, t, match)
        if name in SEAT_COMMANDS:
            return self._seat_command(msg, sp, t, match, cmd)
        return None

    def _help_text(self, msg: Inbound, sp: Speaker, t: Translator) -> str:
        lines = [
            t.gettext("I host table games. Commands:"),
            t.gettext("• new GAME – set up a game (e.g. “new majavajengi”)"),
            t.gettext("• join – take a seat; add bot (easy / normal / strong) / remove bot – AI players"),
            t.gettext("• start – deal the cards; leave – give your seat to an AI; cancel – end the game"),
            t.gettext("• status – the table; hand – your cards in private"),
            t.gettext("• give my seat to NAME – someone else plays on; they write “take seat”"),
            t.gettext(
                "• kick NAME, give NAME’s seat to a bot, restore NAME – for the one who set up the game "
                "and the group’s admins"
            ),
            t.gettext(
                "• rematch – the finished game again with the same players; “new GAME pace=daily” for a game "
                "played over days"
            ),
            t.gettext("• rules [topic] – explanations, or ask: “how does peek work?”"),
            t.gettext(
                "• stats, my stats, history – who has won, what was played; replay N – watch a finished game again"
            ),
            t.gettext("• language fi / language en – choose your language"),
            t.gettext("In a game, write what you want to do, or use the buttons."),
        ]
        match = self._context_match(msg, sp)
        if match is not None and match.status == RUNNING and match.state is not None:
            seat = self._seat_of(match, sp.user, prefer_acting=True)
            if seat is not None:
                lines.append(self._hint(match, seat, t, private=msg.private))
        return "\n".join(lines)

    def _games_text(self, t: Translator) -> str:
        names = []
        for gid, ui in self.uis.items():
            engine = self.games.get(gid)
            if engine is None:
                continue
            names.append(
                t.gettext("{game} ({low}–{high} players): new {alias}").format(
                    game=ui.title(t), low=engine.min_players, high=engine.max_players, alias=ui.aliases[0]
                )
            )
        return t.gettext("Games:") + "\n" + "\n".join(f"• {n}" for n in names)

    def _set_language(self, msg: Inbound, sp: Speaker, cmd: Command) -> list[Outbound]:
        wanted = normalise_language(cmd.tokens[0]) if cmd.tokens else None
        t_now = i18n.translator(sp.lang)
        if wanted is None:
            return [
                self._reply(
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
        return [self._reply(msg, t, t.gettext("I will speak English with you."))]

    def _rules_text(self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command) -> str | None:
        """The rule explanation a question asks for; "why" questions from the engine's refusal of
        the move they name, the last refused move, or the last events with the rule behind them.
        None for a question said in a group to someone else (no topic, not addressed)."""
        why = self._why_text(msg, sp, t, cmd)
        if why is not None:
            return why
        asks_why = bool(cmd.args) and fold(cmd.args[0]) in _WHY
        if asks_why and all(fold(w) in _WHY | _BARE_WHY | _WHY_FILLER for w in cmd.args):
            last = self._last_refusal_text(msg, sp, t)
            if last is not None:
                return last
        match = self._context_match(msg, sp)
        current = match.game if match else None
        words = [w for w in cmd.args]
        named = game_named(words, self.uis.values()) if words else None
        if named is not None:
            current = named.game_id
        topics = (
            find_topics(cmd.raw_args, self._ordered_uis(current), self.lemmatizer, prefer=current)
            if words
            else []
        )
        if topics and (named is None or len(words) > 1):
            distinct = list(dict.fromkeys(topic.key for _, topic in topics))
            if len(distinct) > 1 and len(distinct) <= 4:
                # two rules fit as well: ask rather than guess
                titles = [t.gettext(topic.title) for _, topic in topics if topic.title]
                if len(titles) == len(distinct):
                    return t.gettext("Do you mean {options}? Ask again with its name.").format(
                        options=t.format_choices(titles)
                    )
            found, topic = topics[0]
            text = f"{found.title(t)} – {t.gettext(topic.text)}"
            if asks_why and match is not None and match.status == RUNNING and match.state is not None:
                recent = self._last_events_lines(match, t)
                if recent:
                    text = t.gettext("What happened last: {events}").format(events=recent) + "\n\n" + text
            return text
        overview_asked = bool(cmd.args) and fold(cmd.args[0]) in {
            "saannot",
            "saanto",
            "rules",
            "rule",
            "ohjeet",
        }
        if not (msg.private or msg.addressed or cmd.slash or named or overview_asked):
            return None  # a question in the group to someone else
        ui = self.uis.get(current) if current else None
        if ui is None:
            return t.gettext("Which game? Ask for example “rules majavajengi”.") + "\n" + self._games_text(t)
        overview = ui.rule_topics()
        first = [t.gettext(x.text) for x in overview[:2]]
        keys = [x.title or x.key.split(".", 1)[-1] for x in overview[2:]]
        return "\n\n".join(
            [
                f"{ui.title(t)}",
                *first,
                t.gettext("Ask about any rule, for example: {examples}.").format(
                    examples=t.format_list([t.gettext(k) for k in keys[:8]])
                ),
            ]
        )

    def _last_events_lines(self, match: MatchRec, t: Translator) -> str:
        """The public events of the last few moves, as the table told them."""
        engine, ui = self.games[match.game], self.uis[match.game]
        names = tuple(s.name for s in match.seats)
        events = [e for batch in self._recent_public_events(match, engine)[-3:] for e in batch]
        lines = ui.render_events(events, RenderContext(t, names, None, match.options)) if events else []
        return " ".join(lines[-4:])

    def _why_text(self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command) -> str | None:
        """ "miksi en voi kääntää?": the engine's refusal of that move for the speaker now, or None
        when the question names no move (then the rule topics answer)."""
        if not cmd.args or fold(cmd.args[0]) not in _WHY:
            return None
        match = self._context_match(msg, sp)
        if match is None or match.status != RUNNING or match.state is None:
            return None
        seat = self._seat_of(match, sp.user, prefer_acting=True)
        if seat is None:
            return None
        engine, ui = self.games[match.game], self.uis[match.game]
        state = self._state(match)
        legal = tuple(engine.notation(a) for a in engine.legal_actions(state, seat))
        names = tuple(s.name for s in match.seats)
        words = [w for w in cmd.args[1:] if fold(w) not in _WHY_FILLER]
        view = engine.view(state, seat)
        ctx = ParseContext(
            lang=t.lang, seat=seat, legal=legal, view=view, seat_names=names, private=msg.private
        )
        result = ui.parse(" ".join(words), ctx)
        rctx = RenderContext(t, names, seat, match.options)
        code, params = None, {}
        if isinstance(result, NotLegal):
            code, params = result.code, dict(result.params)
        elif isinstance(result, Parsed) and result.actions:
            try:
                engine.check(state, seat, engine.parse_notation(result.actions[0]))
            except IllegalAction as exc:
                code, params = exc.code, exc.params
            except BadNotation:
                return None
            else:
                label = ui.action_label(result.actions[0], view, rctx)
                return t.gettext("You can do that now: {action}.").format(action=label)
        if code is None:
            return None
        if not msg.private and not self._group_safe(ui, engine, state, seat):
            return t.gettext("Ask me that in our private chat: the answer may tell something hidden.")
        return ui.reason_text(code, params, rctx)

    def _ordered_uis(self, prefer: str | None) -> list[GameUI]:
        if prefer and prefer in self.uis:
            return [self.uis[prefer]]
        return list(self.uis.values())

    # --- lobby ---------------------------------------------------------------------------------
    def _new(
        self,
        msg: Inbound,
        sp: Speaker,
        t: Translator,
        match: MatchRec | None,
        ui: GameUI | None,
        cmd: Command,
    ) -> list[Outbound]:
        if match is not None:
            title = self.uis[match.game].title(t)
            return [
                self._reply(
                    msg,
                    t,
                    t.gettext("This table already has a game: {game}. End it first with “cancel”.").format(
                        game=title
                    ),
                )
            ]
        if ui is None:
            return [self._reply(msg, t, t.gettext("Which game shall we play?") + "\n" + self._games_text(t))]
        engine = self.games[ui.game_id]
        try:
            typed_pace, game_tokens = pace.split_options(cmd.tokens)
            chosen, zone = pace.apply_options(pace.Pace(), typed_pace)
            options = self._parse_options(ui, engine, game_tokens)
        except (ValueError, TypeError, ArithmeticError):
            typed = t.format_list([x for x in cmd.tokens if "=" in x])
            return [
                self._reply(
                    msg,
                    t,
                    t.gettext(
                        "I did not understand the option {option}. The game was not set up; try again without it "
                        "or with another value."
                    ).format(option=typed),
                )
            ]
        assert sp.room is not None
        room = sp.room
        if room.lang is None:
            # a group without a chosen language takes the language of whoever sets up its first game
            self.repo.set_room_lang(room.id, sp.lang)
            room = self.repo.room_by_id(room.id)
        seed = secrets.token_hex(8)  # replaced by a reproducible one at the start when a base seed is set
        seats = [SeatRec(seat=0, name=sp.user.name, user_id=sp.user.id)]
        # "uus gnav 5 bottia": the AI players asked for, as many as the table holds
        wanted = cmd.count or 0
        kind = _ai_kind(cmd.args, engine)
        for number in range(1, min(wanted, engine.max_players - 1) + 1):
            seats.append(SeatRec(seat=len(seats), name=f"Botti {number}", ai=kind))
        created = self.repo.create_match(room.id, ui.game_id, options, seed, sp.user.id, tuple(seats))
        created = self._set_pace(created, chosen, zone)
        out = [*self._lobby_messages(created, room), *self._privacy_notice(room)]
        if wanted > engine.max_players - 1:
            out.append(
                self._reply(
                    msg,
                    t,
                    t.gettext("{game} takes at most {high} players, so I added {bots} AI players.").format(
                        game=ui.title(t), high=engine.max_players, bots=engine.max_players - 1
                    ),
                )
            )
        return out

    def _set_pace(self, match: MatchRec, chosen: pace.Pace, zone: str | None) -> MatchRec:
        """The match's pace (its meta; the engine never sees it), and the room's time zone."""
        if zone is not None:
            self.repo.kv_set(pace.NS_ROOM_ZONE, str(match.room_id), zone)
        if chosen == pace.Pace.from_meta(match.meta.get("pace")):
            return match
        self.repo.set_meta(match.id, "pace", chosen.to_meta())
        updated = self.repo.match(match.id)
        assert updated is not None
        return updated

    def _lobby_options(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, cmd: Command
    ) -> list[Outbound]:
        """``asetukset kierrokset=3``: the lobby's options, changed by whoever runs the lobby."""
        assert sp.room is not None
        ui, engine = self.uis[match.game], self.games[match.game]
        if match.status != LOBBY:
            return [self._reply(msg, t, t.gettext("Options can be changed only before the game starts."))]
        changes = [x for x in cmd.tokens if "=" in x]
        if not changes:
            shown = ui.options_text(match.options, t) or (
                ", ".join(f"{k}={v}" for k, v in sorted(match.options.items())) or "–"
            )
            chosen = pace.Pace.from_meta(match.meta.get("pace"))
            if chosen.chosen:
                shown += " · " + (pace.describe(chosen, t, self.remind_after, self.act_after) or "")
            return [
                self._reply(
                    msg,
                    t,
                    t.gettext(
                        "Options of this game: {options}. Change them with e.g. “options {example}”."
                    ).format(options=shown, example=ui.option_example(t)),
                )
            ]
        if not self.runs_lobby(match, sp.user.id) and not self.is_admin(msg, sp.room):
            return [self._reply(msg, t, self._who_may_lobby(t, "options"))]
        try:
            typed_pace, changes_of_game = pace.split_options(changes)
            chosen, zone = pace.apply_options(pace.Pace.from_meta(match.meta.get("pace")), typed_pace)
            options = {**match.options, **self._parse_options(ui, engine, changes_of_game)}
            engine.new_game(engine.max_players, "check", engine.options_from_dict(options))
        except (ValueError, TypeError, ArithmeticError):
            return [
                self._reply(
                    msg,
                    t,
                    t.gettext("I did not understand the option {option}. Nothing was changed.").format(
                        option=t.format_list(changes)
                    ),
                )
            ]
        if not self.repo.update_lobby(match.id, match.version, match.seats, options=options):
            raise Conflict(lobby=True)
        updated = self.repo.match(match.id)
        assert updated is not None
        return self._lobby_messages(self._set_pace(updated, chosen, zone), sp.room)

    def _parse_options(self, ui: GameUI, engine: Engine, args: Sequence[str]) -> dict[str, Any]:
        words = ui.option_words()
        flags = {fold(k.casefold()): v for k, v in ui.option_flags().items()}
        options: dict[str, Any] = {}
        for arg in args:
            if "=" not in arg:
                flag = flags.get(fold(arg.casefold().strip(".,!")))
                if flag is not None:  # "uusi afrikan tähti pikapeli"
                    options[flag[0]] = flag[1]
                continue
            key, _, value = arg.partition("=")
            key = words.get(key.casefold(), key.casefold())
            options[key] = _option_value(value)
        # unknown keys and bad values raise ValueError now, not when the cards are dealt
        engine.new_game(engine.max_players, "check", engine.options_from_dict(options))
        return options

    def _match_seed(self, match: MatchRec) -> str:
        return f"{self.base_seed}:{match.id}" if self.base_seed is not None else match.seed

    def _lobby_messages(self, match: MatchRec, room: RoomRec) -> list[Outbound]:
        t = i18n.translator(room.lang or "fi")
        ui = self.uis[match.game]
        engine = self.games[match.game]
        names = t.format_list([s.name + (f" 🤖 ({_ai_level(s.ai, t)})" if s.ai else "") for s in match.seats])
        rematch, rematch_button = self._rematch_lines(match, t)
        paced = pace.describe(
            pace.Pace.from_meta(match.meta.get("pace")), t, self.remind_after, self.act_after
        )
        text = "\n".join(
            [
                t.gettext("🎲 {game}: waiting for players ({low}–{high}).").format(
                    game=ui.title(t), low=engine.min_players, high=engine.max_players
                ),
                t.gettext("Seated: {names}").format(names=names),
                *([f"⚙️ {shown}"] if (shown := ui.options_text(match.options, t)) else []),
                *([paced] if paced else []),
                *rematch,
            ]
            + (
                []
                if rematch_button
                else [
                    t.gettext(
                        "Press “Join” to take a seat, “Add bot” for an AI player, and “Start” to begin "
                        "(or write /join, /start). Type your moves as replies to my messages."
                    )
                    if room.platform in self.addressed_only
                    else t.gettext(
                        "Write “join” to take a seat, “add bot” for an AI player, and “start” to begin."
                    )
                ]
            )
        )
        v = match.version
        buttons = [
            [
                Button(t.gettext("Join"), f"{match.id}:{v}:@join"),
                Button(t.gettext("Add bot"), f"{match.id}:{v}:@add_ai"),
                Button(t.gettext("Start"), f"{match.id}:{v}:@start"),
            ]
        ]
        if rematch_button:
            buttons = [rematch_button]
        return [
            Outbound(
                room.platform,
                text,
                chat_id=room.ext_id,
                buttons=_rows(buttons),
                key=f"table:{match.id}",
                lang=t.lang,
                role=TABLE,
                match_id=match.id,
                version=match.version,
            )
        ]

    def _join(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, cmd_tokens: Sequence[str] = ()
    ) -> list[Outbound]:
        assert sp.room is not None
        if match.status != LOBBY:
            if self._seat_of(match, sp.user) is not None:
                return [self._reply(msg, t, t.gettext("You are already playing in this game."))]
            if self._left_seat(match, sp.user.id) is not None:
                return self._back(msg, sp, t, match)  # rejoining the room and "liity": the seat back
            return [self._reply(msg, t, t.gettext("The game has already started; join the next one."))]
        # "liity Liisa" takes one more seat under another name: one person may play several seats
        # (hot seat, e.g. on the console table); their private messages say which seat they are for
        extra_name = " ".join(x for x in cmd_tokens if x.casefold() not in {"as", "nimellä", "nimella"})
        if not extra_name and any(s.user_id == sp.user.id for s in self._rematch_waiting(match)):
            return self._rematch_yes(msg, sp, t, match, sp.room)  # "Olen mukana" in a rematch lobby
        if any(s.user_id == sp.user.id for s in match.seats) and not extra_name:
            return [
                self._reply(
                    msg,
                    t,
                    t.gettext("You already have a seat. To play one more seat yourself, write “join NAME”."),
                )
            ]
        engine = self.games[match.game]
        if len(match.seats) >= engine.max_players:
            return [self._reply(msg, t, t.gettext("The table is full."))]
        name = self._unique_name(match, extra_name or sp.user.name)
        seats = (*match.seats, SeatRec(seat=len(match.seats), name=name, user_id=sp.user.id))
        if not self.repo.update_lobby(match.id, match.version, seats):
            raise Conflict(lobby=True)
        updated = self.repo.match(match.id)
        assert updated is not None
        if updated.meta.get("rematch"):  # joining a rematch's lobby is a yes to it
            return self._rematch_start_or_wait(self._said_yes(updated, sp.user.id), sp.room)
        return self._lobby_messages(updated, sp.room)

    def _unique_name(self, match: MatchRec, name: str) -> str:
        taken = {s.name for s in match.seats}
        if name not in taken:
            return name
        n = 2
        while f"{name} {n}" in taken:
            n += 1
        return f"{name} {n}"

    def _ai_seat(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, cmd: Command
    ) -> list[Outbound]:
        assert sp.room is not None
        if match.status != LOBBY:
            return [self._reply(msg, t, t.gettext("Seats can be changed only before the game starts."))]
        if not self.runs_lobby(match, sp.user.id) and not self.is_admin(msg, sp.room):
            return [self._reply(msg, t, self._who_may_lobby(t, "ai"))]
        engine = self.games[match.game]
        count = max(1, cmd.count or 1)
        if cmd.name == "add_ai":
            if len(match.seats) >= engine.max_players:
                return [self._reply(msg, t, t.gettext("The table is full."))]
            kind = _ai_kind(cmd.args, engine)
            added = list(match.seats)
            for _ in range(min(count, engine.max_players - len(match.seats))):
                number = 1 + sum(1 for s in added if s.ai)
                added.append(SeatRec(seat=len(added), name=f"Botti {number}", ai=kind))
            seats = tuple(added)
        else:
            bots = [s for s in match.seats if s.ai]
            if not bots:
                return [self._reply(msg, t, t.gettext("There is no AI player to remove."))]
            gone = {id(s) for s in bots[-count:]}
            remaining = [s for s in match.seats if id(s) not in gone]
            seats = tuple(replace(s, seat=i) for i, s in enumerate(remaining))
        if not self.repo.update_lobby(match.id, match.version, seats):
            raise Conflict(lobby=True)
        updated = self.repo.match(match.id)
        assert updated is not None
        return self._lobby_messages(updated, sp.room)

    def _start(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, fill: bool | None = None
    ) -> list[Outbound]:
        """ "aloita": deal, after asking once whether to fill the empty seats of a table smaller than
        the game's usual one (``fill`` is the answer: "täytä" / "pelataan näin")."""
        assert sp.room is not None
        if match.status != LOBBY:
            return [self._reply(msg, t, t.gettext("The game is already running."))]
        if not self.runs_lobby(match, sp.user.id) and not self.is_admin(msg, sp.room):
            return [self._reply(msg, t, self._who_may_lobby(t, "start"))]
        waiting = self._rematch_waiting(match)
        if waiting:
            return [
                self._reply(
                    msg,
                    t,
                    t.gettext(
                        "Waiting for {names} to say yes to the new game (“join”); whoever will not play writes "
                        "“leave”."
                    ).format(names=t.format_list([s.name for s in waiting])),
                )
            ]
        seats = self._seats_to_deal(match, fill)
        if seats is None:
            return self._fill_question(match, sp.room)
        return self._deal(match, sp.room, seats)

    def _deal(self, match: MatchRec, room: RoomRec, seats: Sequence[SeatRec]) -> list[Outbound]:
        """The lobby becomes a running match with these seats."""
        engine = self.games[match.game]
        options = engine.options_from_dict(match.options)
        seed = self._match_seed(match)
        state = engine.new_game(len(seats), seed, options)
        if not self.repo.start_match(match.id, match.version, tuple(seats), engine.dump(state), seed):
            raise Conflict(lobby=True)
        started = self.repo.match(match.id)
        assert started is not None
        events = engine.start_events(engine.load(started.state or {}))
        return self._render_match(started, room, events=events)

    def _leave_or_cancel(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, name: str
    ) -> list[Outbound]:
        room = self.repo.room_by_id(match.room_id)
        tg = i18n.translator(room.lang or "fi")
        seated = [s for s in match.seats if s.user_id == sp.user.id]
        humans_left = [s for s in match.seats if s.user_id is not None and s.user_id != sp.user.id]
        title = self.uis[match.game].title(tg)
        if name == "cancel":
            # the lobby: whoever runs it or an admin; a running game: its host or an admin (or the
            # last person playing it); a private "cancel" is only ever the sender's own game
            host = match.host_user_id == sp.user.id
            admin = not msg.private and self.is_admin(msg, room)
            allowed = (
                admin
                or host
                or (match.status == LOBBY and self.runs_lobby(match, sp.user.id))
                or (bool(seated) and not humans_left)
            )
            if not allowed:
                if match.status == LOBBY:
                    return [self._reply(msg, t, self._who_may_lobby(t, "cancel"))]
                return [self._reply(msg, t, self._who_may_end(t))]
        elif not seated:
            return [self._reply(msg, t, t.gettext("You have no seat in this game."))]
        if name == "cancel" or (match.status == LOBBY and not humans_left):
            self._change_lobby(match, match.seats, status=CANCELLED)
            return [
                Outbound(
                    room.platform,
                    tg.gettext("The game {game} was cancelled by {name}.").format(
                        game=title, name=sp.user.name
                    ),
                    chat_id=room.ext_id,
                    key=f"table:{match.id}",
                    lang=tg.lang,
                    role=TABLE,
                    match_id=match.id,
                )
            ]
        if match.status == LOBBY:
            remaining = [s for s in match.seats if s.user_id != sp.user.id]
            seats = tuple(replace(s, seat=i) for i, s in enumerate(remaining))
            self._change_lobby(match, seats)
            updated = self.repo.match(match.id)
            assert updated is not None
            if updated.meta.get("rematch"):  # the others said yes already: they play without them
                return self._rematch_start_or_wait(updated, room)
            return self._lobby_messages(updated, room)
        if not humans_left:
            self._change_lobby(match, match.seats, status=CANCELLED)
            return [
                Outbound(
                    room.platform,
                    tg.gettext("{name} left and nobody else is playing, so the game {game} ended.").format(
                        name=sp.user.name, game=title
                    ),
                    chat_id=room.ext_id,
                    key=f"table:{match.id}",
                    lang=tg.lang,
                    role=TABLE,
                    match_id=match.id,
                )
            ]
        engine = self.games[match.game]
        seats = tuple(
            replace(s, user_id=None, ai=engine.default_ai) if s.user_id == sp.user.id else s
            for s in match.seats
        )
        self._change_lobby(match, seats, status=RUNNING)
        # whoever left may come back to the seat while the match runs ("palaan", or "liity" again)
        left = dict(match.meta.get("left") or {})
        left.update({str(s.seat): sp.user.id for s in seated})
        self.repo.set_meta(match.id, "left", left)
        text = tg.gettext(
            "{name} left the game; an AI player takes over the seat. Write “back” to take it again."
        ).format(name=sp.user.name)
        updated = self.repo.match(match.id)
        assert updated is not None
        # the table shows at once that the seat is played by an AI now
        table = self._render_match(updated, room, events=(), privates=False)
        return [Outbound(room.platform, text, chat_id=room.ext_id, lang=tg.lang), *table]

    def _left_seat(self, match: MatchRec, user_id: int) -> int | None:
        """The seat this person left (to an AI) in the running match and may take back."""
        if match.status != RUNNING:
            return None
        for seat, owner in (match.meta.get("left") or {}).items():
            if owner == user_id and match.seats[int(seat)].user_id is None:
                return int(seat)
        return None

    def _back(self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec) -> list[Outbound]:
        """A person who left takes their seat back from the AI that played it meanwhile."""
        if self._seat_of(match, sp.user) is not None:
            return [self._reply(msg, t, t.gettext("You are already playing in this game."))]
        seat = self._left_seat(match, sp.user.id)
        if seat is None:
            return [self._reply(msg, t, t.gettext("You have no seat to come back to in this game."))]
        room = self.repo.room_by_id(match.room_id)
        seats = tuple(replace(s, user_id=sp.user.id, ai=None) if s.seat == seat else s for s in match.seats)
        self._change_lobby(match, seats, status=RUNNING)
        left = {k: v for k, v in (match.meta.get("left") or {}).items() if int(k) != seat}
        self.repo.set_meta(match.id, "left", left)
        updated = self.repo.match(match.id)
        assert updated is not None
        tg = i18n.translator(room.lang or "fi")
        text = tg.gettext("{name} is back and plays their own seat again.").format(
            name=match.seats[seat].name
        )
        out = [Outbound(room.platform, text, chat_id=room.ext_id, lang=tg.lang)]
        out.extend(self._render_match(updated, room, events=(), privates=False))
        out.extend(self._private_prompt(updated, room, seat, (), force=True))
        return out

    def _change_lobby(self, match: MatchRec, seats: tuple[SeatRec, ...], status: str = LOBBY) -> None:
        """New seats (and status) of a match; a running match gets its deadlines again (an AI seat
        that took over may be to act), an ended one none."""
        if not self.repo.update_lobby(match.id, match.version, seats, status=status):
            raise Conflict(lobby=True)
        updated = self.repo.match(match.id)
        if status == RUNNING and updated is not None and updated.state is not None:
            self._schedule(updated)
        elif status != LOBBY:
            self.repo.set_deadlines(match.id, [])

    def _status(self, msg: Inbound, sp: Speaker, t: Translator) -> list[Outbound]:
        match = self._context_match(msg, sp)
        if match is None:
            return [self._reply(msg, t, t.gettext("No game is running here. Start one with “new”."))]
        room = self.repo.room_by_id(match.room_id)
        # asked in private, the copy is in the asker's language (the group's table in the group's)
        shown = replace(room, lang=t.lang) if msg.private else room
        if match.status == LOBBY:
            table = self._lobby_messages(match, shown)
        else:
            table = self._render_match(match, shown, events=(), privates=False, keyed=False, detail=True)
        if msg.private:
            # asked in private: a copy of the public table here, not a new one in the group (its
            # buttons belong to the group's table)
            table = [
                replace(o, chat_id=None, user_id=msg.user_id, key=None, buttons=(), reply_to=msg.message_id)
                for o in table
            ]
        if match.status == LOBBY:
            return table
        seat = self._seat_of(match, sp.user, prefer_acting=True)
        if seat is not None:
            table.extend(self._private_prompt(match, room, seat, events=(), force=True))
        return table

    def _map(self, msg: Inbound, sp: Speaker, t: Translator) -> list[Outbound]:
        """The public table as a picture where the game draws one (text otherwise), where asked."""
        match = self._context_match(msg, sp)
        if match is None or match.status != RUNNING or match.state is None:
            return [self._reply(msg, t, t.gettext("No game is running here. Start one with “new”."))]
        engine = self.games[match.game]
        ui = self.uis[match.game]
        state = self._state(match)
        ctx = RenderContext(t, tuple(s.name for s in match.seats), None, match.options)
        view = engine.view(state, None)
        reply = self._reply(msg, t, ui.render_detail(view, ctx) or ui.render_table(view, ctx))
        return [replace(reply, image=ui.render_image(view, ctx))]

    def _hand(self, msg: Inbound, sp: Speaker, t: Translator) -> list[Outbound]:
        match = self._context_match(msg, sp)
        seat = self._seat_of(match, sp.user, prefer_acting=True) if match else None
        if match is None or seat is None or match.status != RUNNING:
            return [self._reply(msg, t, t.gettext("You are not playing in a running game."))]
        room = self.repo.room_by_id(match.room_id)
        out = self._private_prompt(match, room, seat, events=(), force=True)
        if not msg.private and any(o.private for o in out):
            # asked in the group: the hand went to the private chat; the group hears only that
            out = [*out, self._reply(msg, t, t.gettext("I answered you in our private chat."))]
        return out

    # ------------------------------------------------------------------------------------------
    # game commands

    def _context_match(self, msg: Inbound, sp: Speaker) -> MatchRec | None:
        if sp.room is not None:
            return self.repo.active_match(sp.room.id)
        return self._private_match(sp.user)

    def _private_match(self, user: UserRec) -> MatchRec | None:
        """The user's match for a private message: the one where they must act, else the latest."""
        matches = [m for m in self.repo.matches_of_user(user.id) if m.status in {RUNNING, LOBBY}]
        for m in matches:
            if m.status == RUNNING and m.state is not None:
                engine = self.games[m.game]
                state = self._state(m)
                if any(m.seats[s].user_id == user.id for s in engine.to_act(state)):
                    return m
        return matches[-1] if matches else None

    def _seat_of(self, match: MatchRec | None, user: UserRec, prefer_acting: bool = False) -> int | None:
        if match is None:
            return None
        mine = [s.seat for s in match.seats if s.user_id == user.id]
        if not mine:
            return None
        if prefer_acting and match.state is not None and match.status == RUNNING:
            engine = self.games[match.game]
            acting = engine.to_act(self._state(match))
            for s in mine:
                if s in acting:
                    return s
        return mine[0]

    def _game_text(self, msg: Inbound, sp: Speaker, t: Translator, text: str) -> list[Outbound]:
        match = self._context_match(msg, sp)
        if match is None or match.status != RUNNING or match.state is None:
            if msg.private:
                return [
                    self._reply(
                        msg,
                        t,
                        t.gettext(
                            "I did not understand. Write “help” for the commands, or ask about the rules."
                        ),
                    )
                ]
            return []  # ordinary chat in a group without a game
        seat = self._seat_of(match, sp.user, prefer_acting=True)
        engine = self.games[match.game]
        ui = self.uis[match.game]
        state = self._state(match)
        acting = engine.to_act(state)
        view = engine.view(state, seat)
        legal = (
            tuple(engine.notation(a) for a in engine.legal_actions(state, seat)) if seat is not None else ()
        )
        names = tuple(s.name for s in match.seats)
        # games may ask before a move that would reveal a hidden card, but only where asking is private
        ctx = ParseContext(
            lang=t.lang, seat=seat, legal=legal, view=view, seat_names=names, private=msg.private
        )
        result = ui.parse(text, ctx)
        if seat is None:
            if isinstance(result, NotUnderstood):
                return []
            return [self._reply(msg, t, t.gettext("You are not playing in this game."))]
        private_info = not self._group_safe(ui, engine, state, seat)
        match result:
            case Parsed(actions=actions) if actions:
                return self._apply_many(match, seat, actions, msg, t, state)
            case NotLegal(code=code, params=params):
                if code == "not_your_turn" or (
                    seat not in acting and code in {"wrong_phase", "unknown_action"}
                ):
                    who = t.format_list([names[s] for s in acting])
                    return [
                        self._reply(
                            msg,
                            t,
                            t.gettext("It is not your turn; now it is {name}’s turn.").format(name=who),
                        )
                    ]
                return self._refusal(msg, t, match, state, seat, code, dict(params))
            case Ambiguous(candidates=candidates):
                rctx = RenderContext(t, names, seat, match.options)
                buttons = [
                    [Button(ui.action_label(c, view, rctx), f"{match.id}:{match.version}:{c}")]
                    for c in candidates[:8]
                ]
                labels = t.format_choices([ui.action_label(c, view, rctx) for c in candidates[:8]])
                question = t.gettext("Which one do you mean: {options}?").format(options=labels)
                phrases = [ui.action_phrase(c, view, rctx) for c in candidates[:8]]
                if all(phrases) and len(set(phrases)) == len(phrases):
                    # "Haluatko pitää korttisi vai pyytää vaihtoa?" (issue #15): words, not button labels;
                    # one choice is a yes-or-no ("Haluatko yrittää kääntää merkin nopalla?")
                    said = [p for p in phrases if p]
                    options = (
                        said[0]
                        if len(said) == 1
                        else t.gettext("{first} or {last}").format(first=", ".join(said[:-1]), last=said[-1])
                    )
                    question = t.gettext("Do you want to {options}?").format(options=options)
                asked = self._reply(msg, t, question, buttons, private=True if private_info else None)
                # its buttons act on the match as a prompt's do
                return [replace(asked, match_id=match.id, version=match.version)]
        if seat not in acting:
            if msg.private:
                who = t.format_list([names[s] for s in acting])
                return [self._reply(msg, t, t.gettext("It is {name}’s turn now.").format(name=who))]
            return []
        return [
            self._reply(
                msg,
                t,
                t.gettext("I did not understand that.")
                + " "
                + self._hint(match, seat, t, private=msg.private or private_info),
                private=True if private_info else None,
            )
        ]

    def _group_safe(self, ui: GameUI, engine: Engine, state: Any, seat: int) -> bool:
        """Whether the seat's legal actions may be listed in the group without revealing anything."""
        legal = tuple(engine.notation(a) for a in engine.legal_actions(state, seat))
        return set(ui.group_actions(legal, engine.view(state, None))) == set(legal)

    def _hint(self, match: MatchRec, seat: int, t: Translator, private: bool) -> str:
        engine = self.games[match.game]
        ui = self.uis[match.game]
        assert match.state is not None
        state = self._state(match)
        names = tuple(s.name for s in match.seats)
        if seat not in engine.to_act(state):
            who = t.format_list([names[s] for s in engine.to_act(state)])
            return t.gettext("Now it is {name}’s turn.").format(name=who)
        legal = tuple(engine.notation(a) for a in engine.legal_actions(state, seat))
        if not private and not self._group_safe(ui, engine, state, seat):
            return t.gettext("Your options are in our private chat.")
        rctx = RenderContext(t, names, seat, match.options)
        view = engine.view(state, seat)
        phrases = [ui.action_phrase(n, view, rctx) for n in legal]
        if phrases and all(phrases):
            # "Voit koputtaa tai lopettaa vuorosi." (issue #15): words in a sentence, not button labels
            options = t.format_list(_dedupe([p for p in phrases if p])[:8], style="or")
            return t.gettext("You can {options}.").format(options=options)
        labels = _dedupe([ui.action_label(n, view, rctx) for n in legal])
        return t.gettext("You can: {options}.").format(options=t.format_list(labels[:12]))

    def _button(self, msg: Inbound, sp: Speaker, t: Translator) -> list[Outbound]:
        """A press acts only where its button was offered (issue #13): a lobby or table button in
        its match's own room, a private prompt's button in the private chat of that seat's player.
        Anything else, and data that is not well formed, gets one answer that reveals nothing about
        any match; a press in the right place against an older version is "stale"."""
        not_here = [
            self._reply(
                msg,
                t,
                t.gettext(
                    "That button does not work here. Use the buttons of the latest message in this chat."
                ),
                private=msg.private,
            )
        ]
        stale = [
            self._reply(
                msg, t, t.gettext("That button is stale; use the latest message."), private=msg.private
            )
        ]
        data = parse_button(msg.button)
        if data is None:
            return not_here
        if data.notation.startswith(REPLAY_MARK):
            return self._replay_press(msg, sp, t, data)
        match = self.repo.match(data.match_id)
        if match is None or match.game not in self.games:
            return not_here
        room = self.repo.room_by_id(match.room_id)
        if msg.platform != room.platform:
            return not_here
        in_room = not msg.private and msg.chat_id == room.ext_id
        mine = [s.seat for s in match.seats if s.user_id == sp.user.id]
        if data.verb is not None:
            # lobby buttons are offered in the room only
            if not in_room:
                return not_here
            if data.verb == "rematch":  # the final message's button: the match is over
                return self._rematch(msg, Speaker(sp.user, sp.lang, room), t, match, pressed=data.version)
            if match.status != LOBBY or data.version != match.version:
                return stale
            return self._command(msg, Speaker(sp.user, sp.lang, room), t, Command(data.verb)) or stale
        if msg.private:
            if not mine:
                return not_here  # someone else's prompt (or a forged one): nothing about it is told
        elif not in_room:
            return not_here
        if match.status != RUNNING or match.state is None or data.version != match.version:
            return stale
        engine = self.games[match.game]
        state = self._state(match)
        acting = [s for s in engine.to_act(state) if s in mine]
        if not mine:
            return [self._reply(msg, t, t.gettext("You are not playing in this game."), private=msg.private)]
        if not acting:
            return [self._reply(msg, t, t.gettext("It is not your turn."), private=msg.private)]
        if not msg.private:
            # the group's table shows only the moves that reveal nothing: other data is forged
            ui = self.uis[match.game]
            legal = tuple(engine.notation(a) for a in engine.legal_actions(state, acting[0]))
            if data.notation not in ui.group_actions(legal, engine.view(state, None)):
                return not_here
        return self._apply_many(match, acting[0], (data.notation,), msg, t, state)

    def _refusal(
        self,
        msg: Inbound,
        t: Translator,
        match: MatchRec,
        state: Any,
        seat: int,
        code: str,
        params: dict[str, Any],
    ) -> list[Outbound]:
        """Why a move is refused and what is possible instead; in private when the answer would tell
        the group something hidden."""
        engine = self.games[match.game]
        ui = self.uis[match.game]
        names = tuple(s.name for s in match.seats)
        self._remember_refusal(match, seat, code, params)
        reason = ui.reason_text(code, params, RenderContext(t, names, seat, match.options))
        private_info = not self._group_safe(ui, engine, state, seat)
        hint = self._hint(match, seat, t, private=msg.private or private_info)
        return [self._reply(msg, t, reason + "\n" + hint, private=True if private_info else None)]

    def _apply_many(
        self,
        match: MatchRec,
        seat: int,
        notations: Sequence[str],
        msg: Inbound,
        t: Translator,
        loaded: Any = None,
    ) -> list[Outbound]:
        """``loaded`` is ``match.state`` already loaded by the caller (states are immutable: a
        match is loaded once per update, not once per step)."""
        if match.meta.get("paused"):
            text = t.gettext(
                "The game is paused because I am not in its group any more. It goes on when someone adds "
                "me back."
            )
            return [self._reply(msg, t, text)]
        out: list[Outbound] = []
        current = match
        for i, notation in enumerate(notations):
            engine = self.games[current.game]
            assert current.state is not None
            state = loaded if i == 0 and loaded is not None else self._state(current)
            try:
                action = engine.parse_notation(notation)
                engine.check(state, seat, action)
            except (IllegalAction, BadNotation) as exc:
                if i > 0:
                    break  # a follow-up step ("…and knock") that is not possible now is dropped
                if isinstance(exc, IllegalAction):
                    return self._refusal(msg, t, current, state, seat, exc.code, exc.params)
                return self._refusal(msg, t, current, state, seat, "bad_action", {})
            out.extend(self._apply(current, seat, notation, state))
            refreshed = self.repo.match(current.id)
            if refreshed is None or refreshed.status != RUNNING:
                break
            current = refreshed
        return out

    def _apply(self, match: MatchRec, seat: int, notation: str, state: Any = None) -> list[Outbound]:
        """Apply, store action and snapshot in one transaction, render. ``state`` saves a reload."""
        engine = self.games[match.game]
        if state is None:
            assert match.state is not None
            state = self._state(match)
        action = engine.parse_notation(notation)
        new_state, events = engine.apply(state, seat, action)
        status = OVER if engine.outcome(new_state) is not None else RUNNING
        snapshot = engine.dump(new_state)
        if not self.repo.commit_action(
            match.id,
            match.version,
            seat,
            notation,
            [encode(e) for e in events],
            snapshot,
            status,
        ):
            raise Conflict()
        # the action's public events, as the next tables read them from the log (the key is the
        # log's: the events of a seat's move at a ply follow from the committed state before it)
        key = (match.id, int(snapshot.get("ply", match.version + 1)), seat, notation)
        with self._events_lock:
            self._public_events[key] = [e for e in events if isinstance(e, Event) and e.public]
            while len(self._public_events) > EVENT_MEMORY:
                self._public_events.popitem(last=False)
        if status == OVER:
            self._store_result(match, new_state)
        room = self.repo.room_by_id(match.room_id)
        updated = self.repo.match(match.id)
        assert updated is not None
        # the next update reads this snapshot back: decoded already (kept only if it is the same)
        self._keep_state((updated.id, updated.version), snapshot, new_state)
        if status == OVER:
            self._remember_finished(updated)
        return self._render_match(updated, room, events=events, state=new_state)

    # ------------------------------------------------------------------------------------------
    # rendering

    def _recent_public_events(self, match: MatchRec, engine: Engine) -> list[list[Event]]:
        assert match.state is not None
        ply = int(match.state.get("ply", 0))
        types = {**engine.types, "Event": Event}
        since = max(0, ply - RECENT_ACTIONS)
        keys_of = getattr(self.repo, "action_keys", None)
        if keys_of is not None:
            # which actions only, when all their events are decoded already: the events, stored as
            # JSON, need not be read and parsed again on every table (issue #12, fast path)
            keys = [(match.id, p, s, n) for p, s, n in keys_of(match.id, since)]
            with self._events_lock:
                known = [self._public_events.get(key) for key in keys]
            if all(events is not None for events in known):
                return [list(events) for events in known if events is not None]
        out = []
        for rec in self.repo.actions(match.id, since_ply=since):
            # the action log is append-only and an action follows from the state before it, so the
            # public events of (match, ply, seat, notation) never change: decoded once per process
            key = (match.id, rec.ply, rec.seat, rec.notation)
            with self._events_lock:
                public = self._public_events.get(key)
            if public is None:
                events = [decode(e, types) for e in rec.events]
                public = [e for e in events if isinstance(e, Event) and e.public]
                with self._events_lock:
                    self._public_events[key] = public
                    while len(self._public_events) > EVENT_MEMORY:
                        self._public_events.popitem(last=False)
            out.append(list(public))
        return out

    def _table_names(self, match: MatchRec, t: Translator) -> tuple[str, ...]:
        """The seats' names on the table: a person's seat that an AI plays for now is marked so
        ("Carol (tekoäly)"), so the group sees who is really playing."""
        stood_in = {int(k) for k in (match.meta.get("left") or {})} | {
            int(k) for k in (match.meta.get("away") or {})
        }
        return tuple(
            t.gettext("{name} (AI)").format(name=s.name)
            if s.user_id is None and s.seat in stood_in
            else s.name
            for s in match.seats
        )

    def _render_match(
        self,
        match: MatchRec,
        room: RoomRec,
        events: Sequence[Event],
        privates: bool = True,
        keyed: bool = True,
        state: Any = None,
        detail: bool = False,
    ) -> list[Outbound]:
        """``state`` is ``match.state`` loaded, when the caller has it (the state just made)."""
        engine = self.games[match.game]
        ui = self.uis[match.game]
        assert match.state is not None
        if state is None:
            state = self._state(match)
        names = self._table_names(match, i18n.translator(room.lang or "fi"))
        t = i18n.translator(room.lang or "fi")
        ctx = RenderContext(t, names, None, match.options)
        public_view = engine.view(state, None)
        lines: list[str] = []
        steps = self._recent_public_events(match, engine)
        if events and steps:
            steps = steps[:-1]  # the newest action's events are the fresh ones below
        for step in steps:
            lines.extend(ui.render_events(step, ctx))
        fresh = ui.render_events([e for e in events if e.public], ctx)
        keep = ui.recent_lines
        if ui.recent_shrinks:  # many fresh lines leave room for fewer old ones
            keep = max(0, keep - len(fresh))
        recent = lines[-keep:] if keep > 0 else []
        body = (ui.render_detail(public_view, ctx) if detail else None) or ui.render_table(public_view, ctx)
        text = "\n".join([*(f"· {x}" for x in recent), *(f"▸ {x}" for x in fresh), "", body]).strip()
        outcome = engine.outcome(state)
        deadlines = self._deadlines(match, state, public_view) if privates else None
        due = self._due_line(match, deadlines, t) if outcome is None else None
        if due:
            text += "\n" + due
        if room.platform in self.addressed_only and outcome is None:
            text += "\n\n" + t.gettext("↩️ Reply to this message to type your move.")
        buttons: list[list[Button]] = []
        acting = engine.to_act(state)
        for seat in acting:
            rec = match.seats[seat]
            if rec.user_id is None:
                continue
            legal = tuple(engine.notation(a) for a in engine.legal_actions(state, seat))
            group_legal = ui.group_actions(legal, public_view)
            for row in ui.button_rows(group_legal, public_view, ctx):
                buttons.append([Button(label, f"{match.id}:{match.version}:{n}") for label, n in row])
        image = ui.render_image(public_view, ctx)
        # the news of this action (a duel's result, a winner) as messages of their own that stay
        out = [
            Outbound(room.platform, line, chat_id=room.ext_id, lang=t.lang)
            for line in ui.headlines([e for e in events if e.public], ctx)
        ]
        out += [
            Outbound(
                room.platform,
                text,
                chat_id=room.ext_id,
                buttons=_rows(buttons),
                image=image,
                key=f"table:{match.id}" if keyed else None,
                lang=t.lang,
                role=TABLE if keyed else "",
                match_id=match.id,
                version=match.version,
            )
        ]
        if outcome is not None:
            out.append(
                Outbound(
                    room.platform,
                    self._final_text(ctx, outcome, ui, public_view),
                    chat_id=room.ext_id,
                    buttons=self._rematch_button(match, t),
                    lang=t.lang,
                )
            )
        if privates:
            for rec in match.seats:
                if rec.user_id is None:
                    continue
                mine = [e for e in events if e.to is not None and rec.seat in e.to]
                out.extend(
                    self._private_prompt(match, room, rec.seat, mine, force=rec.seat in acting, state=state)
                )
            assert deadlines is not None
            self.repo.set_deadlines(match.id, deadlines)
        return out

    def _due_line(self, match: MatchRec, deadlines: Sequence[Deadline] | None, t: Translator) -> str | None:
        """When the waited-for person is reminded, on the table of a match whose group chose its
        pace (the default live table moves on within minutes, and says nothing)."""
        chosen = pace.Pace.from_meta(match.meta.get("pace"))
        if not chosen.chosen:
            return None
        if deadlines is None:
            deadlines = self.repo.deadlines(match.id)
        remind = [d for d in deadlines if d.kind == REMIND]
        if not remind:
            return None
        when = pace.when_text(remind[0].due, self.clock(), self._zone(match.room_id), t)
        return t.gettext("⏰ Next reminder {when}.").format(when=when)

    def _final_text(self, ctx: RenderContext, outcome: Any, ui: GameUI, public_view: Any) -> str:
        """The winners and the standings, each number saying what it is (points, lives, money)."""
        t = ctx.t
        winners = t.format_list([ctx.name(s) for s in outcome.winners])
        lines = [
            t.ngettext(
                "🏆 The winner is {names}!", "🏆 The winners are {names}!", len(outcome.winners)
            ).format(names=winners)
        ]
        order = sorted(range(len(outcome.ranks)), key=lambda s: outcome.ranks[s])
        for s in order:
            lines.append(
                t.gettext("{rank}. {name}: {score}").format(
                    rank=outcome.ranks[s],
                    name=ctx.name(s),
                    score=ui.score_text(s, outcome.scores[s], public_view, ctx),
                )
            )
        lines.append(
            t.gettext(
                "Thanks for playing! “Rematch” plays the same game again with the same players; “new” starts another."
            )
        )
        return "\n".join(lines)

    def _private_prompt(
        self,
        match: MatchRec,
        room: RoomRec,
        seat: int,
        events: Sequence[Event],
        force: bool,
        state: Any = None,
    ) -> list[Outbound]:
        rec = match.seats[seat]
        if rec.user_id is None or (not events and not force):
            return []
        engine = self.games[match.game]
        ui = self.uis[match.game]
        if state is None:
            assert match.state is not None
            state = self._state(match)
        user = self.repo.user_by_id(rec.user_id)
        t = i18n.translator(user.lang or room.lang or "fi")
        names = tuple(s.name for s in match.seats)
        ctx = RenderContext(t, names, seat, match.options)
        view = engine.view(state, seat)
        parts = [
            ui.title(t)
            + (f" – {rec.name}" if sum(1 for s in match.seats if s.user_id == rec.user_id) > 1 else "")
        ]
        parts.extend(f"▸ {x}" for x in ui.render_events(events, ctx))
        panel = ui.render_private(view, ctx)
        if panel:
            parts.append(panel)
        buttons: list[list[Button]] = []
        if seat in engine.to_act(state):
            legal = tuple(engine.notation(a) for a in engine.legal_actions(state, seat))
            parts.append(
                ui.prompt_line(view, ctx)
                or t.gettext("Your turn, {name}! What will you do?").format(name=rec.name)
            )
            for row in ui.button_rows(legal, view, ctx):
                buttons.append([Button(label, f"{match.id}:{match.version}:{n}") for label, n in row])
        return [
            Outbound(
                room.platform,
                "\n".join(parts),
                user_id=user.ext_id,
                buttons=_rows(buttons),
                lang=t.lang,
                role=PROMPT,
                match_id=match.id,
                version=match.version,
                seat=seat,
            )
        ]


def _rows(buttons: Sequence[Sequence[Button]]) -> tuple[tuple[Button, ...], ...]:
    return tuple(tuple(row) for row in buttons if row)


def _dedupe(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _option_value(text: str) -> Any:
    """``3`` -> 3, ``on``/``kyllä`` -> True, ``off``/``ei`` -> False, anything else stays text."""
    low = text.casefold()
    if low.lstrip("-").isdigit():
        return int(low)
    if low in {"on", "true", "yes", "kyllä", "kylla", "päällä", "paalla"}:
        return True
    if low in {"off", "false", "no", "ei", "pois"}:
        return False
    return text


#: words for AI levels -> the AI names to try, in order (every game has easy / normal / strong; the
#: older names some games also have are tried after them)
_AI_WORDS: dict[str, tuple[str, ...]] = {
    "satunnainen": ("random",),
    "random": ("random",),
    "helppo": ("easy", "random"),
    "easy": ("easy", "random"),
    "fiksu": ("smart", "normal", "sensible"),
    "smart": ("smart", "normal", "sensible"),
    "normaali": ("normal", "sensible", "smart"),
    "normal": ("normal", "sensible", "smart"),
    "järkevä": ("normal", "sensible", "smart"),
    "jarkeva": ("normal", "sensible", "smart"),
    "sensible": ("sensible", "normal", "smart"),
    "vahva": ("strong", "smart"),
    "strong": ("strong", "smart"),
    "vaikea": ("strong", "smart"),
    "hard": ("strong", "smart"),
}


def _ai_level(kind: str, t: Translator) -> str:
    """The level word of an AI seat's policy for the lobby, "Botti 1 🤖 (vahva)" (issue #18)."""
    if kind in ("easy", "helppo"):
        return t.pgettext("AI level", "easy")
    if kind in ("strong", "vahva"):
        return t.pgettext("AI level", "strong")
    if kind == "random":
        return t.pgettext("AI level", "random")
    return t.pgettext("AI level", "normal")  # smart, sensible, normal: the default level


def _ai_kind(args: Sequence[str], engine: Engine) -> str:
    for word in args:
        for kind in _AI_WORDS.get(word.casefold(), (word.casefold(),)):
            if kind in engine.ais:
                return kind
    return engine.default_ai
