"""Talking with players beyond moves (issue #15): reading a text as a meta command (with a game's
options said in words), questions about one's own situation, the hint for a text addressed to the
bot that it did not understand, and the question back when a command is doubtful.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from chatbot.core.asked import answer_button
from chatbot.core.commands import Command, game_in, option_phrases, parse_command
from chatbot.core.decoded import Finder
from chatbot.core.gameui import GameUI, RenderContext
from chatbot.core.i18n import Translator
from chatbot.core.nlp import Lemmatizer
from chatbot.core.people import seat_names
from chatbot.core.ports import LOBBY, RUNNING
from chatbot.core.render import Renderer
from chatbot.core.types import Inbound, Outbound
from chatbot.core.usecase import Speaker, reply
from chatbot.core.views import Views
from engines.contract import Engine

#: texts kept with their reading as a command (the words of a running game recur)
PARSE_MEMORY = 1024


class Reader:
    """Reads a text as the meta command it is, once per text (the games and the lemmatiser are fixed
    while the core runs, so a reading never goes stale)."""

    def __init__(self, games: dict[str, Engine], uis: dict[str, GameUI], lemmatizer: Lemmatizer) -> None:
        self.uis = uis
        self.lemmatizer = lemmatizer
        #: the names the command parser looks for, per game
        self.game_names: dict[str, tuple[str, ...]] = {
            gid: (*ui.aliases, gid) for gid, ui in uis.items() if gid in games
        }
        #: option words that may follow a game's name ("uusi afrikan tähti pikapeli")
        self.option_words: frozenset[str] = frozenset(
            k.casefold() for ui in uis.values() for k in ui.option_flags()
        )
        #: (text, lang, addressed, seat names, lobby's game) -> (the text with options in words, its command)
        self._parsed: OrderedDict[
            tuple[str, str, bool, tuple[str, ...], str | None], tuple[str, Command | None]
        ] = OrderedDict()
        self._parsed_lock = threading.Lock()

    def read(
        self, text: str, lang: str, addressed: bool, names: tuple[str, ...], game: str | None = None
    ) -> tuple[str, Command | None]:
        """``text`` with its options in words as typed options, and the meta command it is (or
        None). ``game`` is the game of a lobby the text is said in: its options said in words count
        there ("pelataan kolme kierrosta"). A running game's words ("nostan", "valmis") come again
        and again: read once."""
        key = (text, lang, addressed, names, game)
        with self._parsed_lock:
            known = self._parsed.get(key)
            if known is not None:
                self._parsed.move_to_end(key)
                return known
        read, found = self.options_in_words(text, game)
        command = parse_command(
            read,
            self.game_names,
            lang,
            addressed=addressed,
            lemmatizer=self.lemmatizer,
            known=self.option_words,
            names=names,
            found=found,
        )
        with self._parsed_lock:
            self._parsed[key] = (read, command)
            while len(self._parsed) > PARSE_MEMORY:
                self._parsed.popitem(last=False)
        return read, command

    def options_in_words(
        self, text: str, lobby: str | None = None
    ) -> tuple[str, tuple[str, int, int] | None]:
        """A text that names a game with its options said in words ("pelataan majavajengiä kahdella
        kierroksella", "afrikan tähti ilman laajennusta"), or says them in the lobby of ``lobby``
        ("kaks elämää riittää", "muistiapu päälle"), gets them as typed options (``rounds=2``).
        Returns the text and the game it names (:func:`game_in`), for the command parser to use
        rather than look again; the span is looked for again, in that game only, when options moved."""
        names = self.game_names
        found = game_in(text, names, self.lemmatizer)
        if found is None:
            ui = self.uis.get(lobby) if lobby else None
            if ui is None:
                return text, None
            rewritten = option_phrases(
                text, ui.option_counts(), ui.option_flags(), self.lemmatizer, ui.option_words(), bare=True
            )
            return rewritten, None
        ui = self.uis[found[0]]
        rewritten = option_phrases(text, ui.option_counts(), ui.option_flags(), self.lemmatizer)
        if rewritten == text:
            return text, found
        return rewritten, game_in(rewritten, {found[0]: names[found[0]]}, self.lemmatizer)


class Talk:
    """The conversation use cases: one's own situation, what is possible now, a doubtful command."""

    def __init__(
        self,
        games: dict[str, Engine],
        uis: dict[str, GameUI],
        finder: Finder,
        renderer: Renderer,
        views: Views,
    ) -> None:
        self.games = games
        self.uis = uis
        self.finder = finder
        self.renderer = renderer
        self.views = views

    # --- what is possible now ----------------------------------------------------------------
    def possible_now(self, msg: Inbound, sp: Speaker, t: Translator) -> str:
        """The hint for an addressed text the bot did not understand: what one can do here now."""
        match = self.finder.context_match(msg, sp)
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
        seat = self.finder.seat_of(match, sp.user, prefer_acting=True)
        if seat is None or match.state is None or match.status != RUNNING:
            return t.gettext(
                "I did not understand. A game is being played here; you can follow it, ask about the "
                "rules or join the next one."
            )
        hint = self.renderer.hint(match, seat, t, private=msg.private)
        return t.gettext("I did not understand that.") + " " + hint

    # --- doubtful commands -----------------------------------------------------------------------
    def unsure(self, msg: Inbound, t: Translator, cmd: Command, user_id: int | None = None) -> list[Outbound]:
        """A command the text may mean, asked back, with a button that does it (for the asker)."""
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
        yes = {
            "leave": t.gettext("Yes, leave the game"),
            "cancel": t.gettext("Yes, end the game"),
            "start": t.gettext("Yes, start"),
        }
        if cmd.topic in yes and user_id is not None and not msg.private:
            return [reply(msg, t, text, [[answer_button(yes[cmd.topic], user_id, cmd.topic)]])]
        return [reply(msg, t, text)]

    # --- questions about one's own situation ---------------------------------------------------
    def situation(self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command) -> list[Outbound] | None:
        """ "mitä mulla on kädessä", "paljonko mulla on rahaa", "whose turn is it", "kenellä on
        suojakortti": answered from the asker's view; in private when the answer is hidden, where it
        was asked when it is public. None when the game has no answer of its own (the question then
        goes to the rules)."""
        match = self.finder.context_match(msg, sp)
        if match is None or match.status != RUNNING or match.state is None:
            if not (msg.private or msg.addressed):
                return []  # "paljonko mulla on rahaa?" among friends, with no game here: chat
            if cmd.topic in {"turn", "score", "hand", "money", "lives", "position"}:
                return [reply(msg, t, t.gettext("No game is running here. Start one with “new”."))]
            return None
        engine, ui = self.games[match.game], self.uis[match.game]
        state = engine.load(match.state)
        seat = self.finder.seat_of(match, sp.user, prefer_acting=True)
        names = seat_names(match.seats)
        if cmd.topic == "turn":
            acting = engine.to_act(state)
            if seat is not None and seat in acting:
                hint = self.renderer.hint(match, seat, t, private=msg.private)
                text = t.gettext("It is your turn.") + " " + hint
            else:
                text = t.gettext("Now it is {name}’s turn.").format(
                    name=t.format_list([names[s] for s in acting])
                )
            return [reply(msg, t, text)]
        view = engine.view(state, seat)
        ctx = RenderContext(t, names, seat, match.options)
        about = " ".join(cmd.args)
        answer = ui.situation(cmd.topic, view, ctx, about)
        if answer is None:
            if cmd.topic == "holder":
                return None
            if cmd.topic == "score":
                return self.views.status(msg, sp, t)
            if seat is None:
                return [reply(msg, t, t.gettext("You are not playing in this game."))]
            return self.views.hand(msg, sp, t)
        if answer.hidden and seat is None:
            return [reply(msg, t, t.gettext("You are not playing in this game."))]
        out = [reply(msg, t, answer.text, private=True if answer.hidden else None)]
        if answer.hidden and not msg.private:
            out.append(reply(msg, t, t.gettext("I answered you in our private chat.")))
        return out
