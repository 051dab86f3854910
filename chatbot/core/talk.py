"""Talking with players beyond moves (issue #15): questions about one's own situation, the hint for a
text addressed to the bot that it did not understand, the question back when a command is doubtful,
the last refusal that a "why" question is answered from, and which language a question is answered
in. This module is a part of :class:`~chatbot.core.service.BotCore`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.core import i18n
from chatbot.core.commands import Command, find_game, option_phrases
from chatbot.core.i18n import Translator
from chatbot.core.nlp import Lemmatizer, detect_language, normalise
from chatbot.core.ports import LOBBY, RUNNING, GameUI, MatchRec, RenderContext, Repository
from chatbot.core.types import Inbound, Outbound
from chatbot.core.usecase import Part, Speaker
from engines.contract import Engine

#: match meta key: the last refusal per seat ({seat: {"code": …, "params": …}}), for "miksi?"
META_REFUSAL = "last_refusal"


class Talk(Part):
    """The conversation use cases of :class:`~chatbot.core.service.BotCore` (a part of it)."""

    repo: Repository
    uis: dict[str, GameUI]
    games: dict[str, Engine]
    lemmatizer: Lemmatizer

    # --- BotCore -------------------------------------------------------------------------------
    def _reply(
        self,
        msg: Inbound,
        t: Translator,
        text: str,
        buttons: Sequence[Sequence[Any]] = (),
        private: bool | None = None,
    ) -> Outbound:
        raise NotImplementedError  # BotCore

    def _context_match(self, msg: Inbound, sp: Speaker) -> MatchRec | None:
        raise NotImplementedError  # BotCore

    def _seat_of(self, match: MatchRec | None, user: Any, prefer_acting: bool = False) -> int | None:
        raise NotImplementedError  # BotCore

    def _hint(self, match: MatchRec, seat: int, t: Translator, private: bool) -> str:
        raise NotImplementedError  # BotCore

    def _status(self, msg: Inbound, sp: Speaker, t: Translator) -> list[Outbound]:
        raise NotImplementedError  # BotCore

    def _hand(self, msg: Inbound, sp: Speaker, t: Translator) -> list[Outbound]:
        raise NotImplementedError  # BotCore

    # --- languages -----------------------------------------------------------------------------
    def _question_translator(self, sp: Speaker, text: str, cmd: Command | None = None) -> Translator:
        """A question is answered in the language it is asked in, whatever the room's language; a
        text too short to tell follows the speaker's language."""
        lang = (cmd.lang if cmd is not None else None) or detect_language(text, sp.lang, self.lemmatizer)
        return i18n.translator(lang if lang in i18n.LANGUAGES else sp.lang)

    # --- the game names the command parser looks for --------------------------------------------
    def _game_names(self) -> dict[str, tuple[str, ...]]:
        return {gid: (*ui.aliases, gid) for gid, ui in self.uis.items() if gid in self.games}

    def _options_in_words(self, text: str) -> str:
        """A text that names a game with its options said in words ("pelataan majavajengiä kahdella
        kierroksella", "afrikan tähti ilman laajennusta") gets them as typed options (``rounds=2``)."""
        found = find_game(normalise(text).split(), self._game_names(), self.lemmatizer)
        if found is None:
            return text
        ui = self.uis[found[0]]
        return option_phrases(text, ui.option_counts(), ui.option_flags(), self.lemmatizer)

    def _option_words(self) -> frozenset[str]:
        """Option words that may follow a game's name ("uusi afrikan tähti pikapeli")."""
        words: set[str] = set()
        for ui in self.uis.values():
            words.update(k.casefold() for k in ui.option_flags())
        return frozenset(words)

    # --- what is possible now ----------------------------------------------------------------
    def _possible_now(self, msg: Inbound, sp: Speaker, t: Translator) -> str:
        """The hint for an addressed text the bot did not understand: what one can do here now."""
        match = self._context_match(msg, sp)
        if match is None:
            if msg.private:
                return t.gettext(
                    "I did not understand. Here you can ask about the rules (for example “how does "
                    "peek work?”); games are set up in a group with “new” and the name of a game."
                )
            return t.gettext(
                "I did not understand. Start a game with “new” and its name (for example “uusi gnav” "
                "or “new coloretto with 2 bots”), or ask about the rules; “help” lists everything."
            )
        if match.status == LOBBY:
            return t.gettext(
                "I did not understand. The game is waiting for players: write “join” to take a seat, "
                "“add bot” for an AI player or “start” to begin."
            )
        seat = self._seat_of(match, sp.user, prefer_acting=True)
        if seat is None or match.state is None or match.status != RUNNING:
            return t.gettext(
                "I did not understand. A game is being played here; you can follow it, ask about the "
                "rules or join the next one."
            )
        return t.gettext("I did not understand that.") + " " + self._hint(match, seat, t, private=msg.private)

    # --- doubtful commands -----------------------------------------------------------------------
    def _unsure(self, msg: Inbound, t: Translator, cmd: Command) -> list[Outbound]:
        questions = {
            "leave": t.gettext(
                "Do you want to leave the game? If so, write “leave” (an AI takes your seat)."
            ),
            "cancel": t.gettext("Do you want to end the whole game? If so, write “cancel game”."),
            "start": t.gettext("Shall I start the game? If so, write “start”."),
        }
        text = questions.get(cmd.topic) or t.gettext(
            "I am not sure what you mean. Write “help” to see the commands."
        )
        return [self._reply(msg, t, text)]

    # --- questions about one's own situation ---------------------------------------------------
    def _situation(self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command) -> list[Outbound] | None:
        """ "mitä mulla on kädessä", "paljonko mulla on rahaa", "whose turn is it", "kenellä on
        suojakortti": answered from the asker's view; in private when the answer is hidden, where it
        was asked when it is public. None when the game has no answer of its own (the question then
        goes to the rules)."""
        match = self._context_match(msg, sp)
        if match is None or match.status != RUNNING or match.state is None:
            if not (msg.private or msg.addressed):
                return []  # "paljonko mulla on rahaa?" among friends, with no game here: chat
            if cmd.topic in {"turn", "score", "hand", "money", "lives", "position"}:
                return [self._reply(msg, t, t.gettext("No game is running here. Start one with “new”."))]
            return None
        engine, ui = self.games[match.game], self.uis[match.game]
        state = engine.load(match.state)
        seat = self._seat_of(match, sp.user, prefer_acting=True)
        names = tuple(s.name for s in match.seats)
        if cmd.topic == "turn":
            acting = engine.to_act(state)
            if seat is not None and seat in acting:
                text = t.gettext("It is your turn.") + " " + self._hint(match, seat, t, private=msg.private)
            else:
                text = t.gettext("Now it is {name}’s turn.").format(
                    name=t.format_list([names[s] for s in acting])
                )
            return [self._reply(msg, t, text)]
        view = engine.view(state, seat)
        ctx = RenderContext(t, names, seat, match.options)
        about = " ".join(cmd.args)
        answer = ui.situation(cmd.topic, view, ctx, about)
        if answer is None:
            if cmd.topic == "holder":
                return None
            if cmd.topic == "score":
                return self._status(msg, sp, t)
            if seat is None:
                return [self._reply(msg, t, t.gettext("You are not playing in this game."))]
            return self._hand(msg, sp, t)
        if answer.hidden and seat is None:
            return [self._reply(msg, t, t.gettext("You are not playing in this game."))]
        out = [self._reply(msg, t, answer.text, private=True if answer.hidden else None)]
        if answer.hidden and not msg.private:
            out.append(self._reply(msg, t, t.gettext("I answered you in our private chat.")))
        return out

    # --- the last refusal, for "why" -------------------------------------------------------------
    def _remember_refusal(self, match: MatchRec, seat: int, code: str, params: dict[str, Any]) -> None:
        refusals = dict(match.meta.get(META_REFUSAL) or {})
        refusals[str(seat)] = {"code": code, "params": {k: v for k, v in params.items() if _plain(v)}}
        self.repo.set_meta(match.id, META_REFUSAL, refusals)

    def _last_refusal_text(self, msg: Inbound, sp: Speaker, t: Translator) -> str | None:
        """ "miksi?", "miksi ei käy?", "why not?": the reason of the speaker's last refused move."""
        match = self._context_match(msg, sp)
        if match is None or match.status != RUNNING:
            return None
        seat = self._seat_of(match, sp.user, prefer_acting=True)
        if seat is None:
            return None
        last = (match.meta.get(META_REFUSAL) or {}).get(str(seat))
        if not last:
            return None
        ui = self.uis[match.game]
        names = tuple(s.name for s in match.seats)
        reason = ui.reason_text(
            last["code"], dict(last.get("params") or {}), RenderContext(t, names, seat, match.options)
        )
        return t.gettext("Your last move was refused: {reason}").format(reason=reason)


def _plain(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None
