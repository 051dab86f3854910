"""The port each game's chat side implements: how a game is named, rendered, explained and
understood in chat (:class:`GameUI`), and the context a text is rendered in (:class:`RenderContext`).

A ``GameUI`` works only with views (never states), actions (read from text) or their notations
(labels and buttons) and a :class:`Translator` for the recipient, so a renderer cannot leak what its
recipient may not see, and the core needs no game-specific code. ``chatbot.games`` holds one
implementation per game; the composition root (:mod:`chatbot.compose`) hands that registry to the
core, which never imports it. Split from :mod:`chatbot.core.ports` (storage's and the runtime's ports).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

from chatbot.core.i18n import Translator
from chatbot.core.nlp import Item
from chatbot.core.parsing import ParseContext, ParseResult
from chatbot.core.types import Button
from engines.contract import Event

# ---------------------------------------------------------------------------------------------
# The game-UI port


@dataclass(frozen=True, slots=True)
class RenderContext:
    """Who a text is for: the translator of the recipient, the seat names, and the recipient's seat
    (``None`` for the group table or an onlooker)."""

    t: Translator
    names: tuple[str, ...]
    seat: int | None = None
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def lang(self) -> str:
        return self.t.lang

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"#{seat + 1}"


@dataclass(frozen=True, slots=True)
class RuleTopic:
    """One rule explanation: ``text`` is an English msgid (marked with ``N_``), translated on use;
    ``keywords`` are lower-case words or phrases in any language that lead to the topic."""

    key: str
    text: str
    keywords: tuple[str, ...]
    title: str = ""


@dataclass(frozen=True, slots=True)
class Situation:
    """An answer about the asker's situation; ``hidden`` when only the asker may see it; ``buttons``
    when it asks the asker to choose (the core's answer buttons)."""

    text: str
    hidden: bool
    buttons: tuple[tuple[Button, ...], ...] = ()


class GameMeasure(Protocol):
    """A game's own measure in the records (issue #16), as its chat side's ``records`` module gives it."""

    def figures(
        self, public_view: Any, outcome: Any, events: Sequence[Event] = (), /
    ) -> list[dict[str, Any]]: ...
    def figures_text(
        self, figures: Sequence[dict[str, Any]], wins: Sequence[dict[str, Any]], t: Translator, /
    ) -> str | None: ...


class GameUI(ABC):
    """Chat-side description of one game. One subclass per game, registered in ``chatbot.games``.

    What a game only names is a class attribute (its title, rule topics, topic words, situation
    answers, records' measure) that GameUI's methods read; what it renders or reads is a method."""

    game_id: str
    #: catalog domain of this game's texts
    domain: str
    #: words (casefolded, any language) that select this game in "uusi X" / "new X"
    aliases: tuple[str, ...] = ()
    #: the game's display name in the recipient's language (``staticmethod(render.title)``: the
    #: game's own renderers head their texts with the same function)
    title_fn: Callable[[Translator], str]
    #: every rule explanation topic of the spec, the overview (goal) first
    topics: Sequence[RuleTopic] = ()
    #: more words that lead to a rule topic (topic key -> synonyms, any language, base forms),
    #: beside the topic's own keywords and its title: "kaksintaistelu" for the duel
    topic_words: Mapping[str, Sequence[str]] = MappingProxyType({})
    #: the answer to a question about one's own situation, ``situation_fn(topic, view, ctx, about)``
    #: (see :meth:`situation`); None when the game answers none
    situation_fn: Callable[[str, Any, RenderContext, str], Situation | None] | None = None
    #: the game's own measure in the records (see :meth:`result_figures`, :meth:`figures_text`);
    #: None when it has none
    measure: GameMeasure | None = None

    def title(self, t: Translator) -> str:
        """The game's display name in the recipient's language."""
        return self.title_fn(t)

    def rule_topics(self) -> Sequence[RuleTopic]:
        """Every rule explanation topic of the spec, the overview (goal) first."""
        return self.topics

    def situation(self, topic: str, view: Any, ctx: RenderContext, about: str = "") -> Situation | None:
        """The answer to a question about one's own situation from ``view`` (the asker's view, or
        the public one when the asker has no seat): ``topic`` is ``hand``, ``money``, ``score``,
        ``lives``, ``position``, ``turn``, ``holder`` (``about`` is what is asked for: "kenellä on
        suojakortti") or ``learnt``. None when the game has no such thing; the core then shows the
        private prompt or the table."""
        return self.situation_fn(topic, view, ctx, about) if self.situation_fn is not None else None

    @abstractmethod
    def render_table(self, view: Any, ctx: RenderContext) -> str:
        """The public table from the public view: one glance tells whose turn it is and what changed."""

    def render_private(self, view: Any, ctx: RenderContext) -> str | None:
        """The seat's private panel (its hand) from its own view, or None when there is nothing."""
        return None

    @abstractmethod
    def render_events(self, events: Sequence[Event], ctx: RenderContext) -> list[str]:
        """Lines describing events for one recipient; the caller passes only events that recipient
        may see."""

    @abstractmethod
    def action_label(self, notation: str, view: Any, ctx: RenderContext) -> str:
        """A short button label for a legal action."""

    def action_phrase(self, notation: str, view: Any, ctx: RenderContext) -> str | None:
        """What a legal action does, as the words that follow "You can" in a hint ("knock", "end your
        turn"; fi "koputtaa", "lopettaa vuorosi"), so that the hint is a sentence rather than a list of
        button labels. Actions of one kind may share a phrase. None: no phrase, the labels are listed."""
        return None

    def button_rows(self, legal: Sequence[str], view: Any, ctx: RenderContext) -> list[list[tuple[str, str]]]:
        """Rows of (label, notation) for the legal actions; games may group them better. A button
        may carry steps that follow each other ("end_phase;flip"): the first is legal now, the core
        applies the rest in order while each is legal (see :data:`THEN`)."""
        rows: list[list[tuple[str, str]]] = []
        for notation in legal:
            label = self.action_label(notation, view, ctx)
            if rows and len(rows[-1]) < 4 and len(label) <= 12:
                rows[-1].append((label, notation))
            else:
                rows.append([(label, notation)])
        return rows

    def group_actions(self, legal: Sequence[str], public_view: Any) -> tuple[str, ...]:
        """The legal actions whose buttons may be shown in the group: only those whose existence
        reveals nothing hidden (a list of "use the Peek" buttons would reveal the drawn card).
        The default shows none in the group; every seat always gets all its buttons in private."""
        return ()

    def prompt_line(self, view: Any, ctx: RenderContext) -> str | None:
        """The line above a seat's private buttons when the default "Your turn!" would be wrong
        (an answer in a reaction window, a defender's roll)."""
        return None

    def deadline(self, public_view: Any) -> float | None:
        """Seconds for a quick answer that every seat gets alike (a reaction window), or None for
        the ordinary turn timer."""
        return None

    def window_key(self, public_view: Any) -> str | None:
        """Names the quick window now open (the same while it stays open, another for the next one)
        so that its deadline stays where it was set at its opening: an answer does not extend it.
        None: every change starts the quick time anew."""
        return None

    def resolve_step(self, step: str, view: Any, legal: Sequence[str]) -> str | None:
        """The legal action (its notation) that ``step``, a later step of a button or of typed words
        (:class:`~chatbot.core.parsing.Later`), stands for now that the steps before it are done;
        ``view`` and ``legal`` are the seat's at that moment. Steps joined by :data:`THEN` after it
        follow as later steps of their own. None stops the steps there (the player is asked as
        usual). Default: the step itself, for the engine to judge."""
        return step

    def automatic(self, notation: str, public_view: Any) -> bool:
        """Whether ``notation``, when it is the only legal action of the seat on turn, is no
        decision (a roll that must come, the one way a move can end), so that the core takes it at
        once and says so on the table instead of asking for a press (issue #28). Judged from the
        public view alone: that it is the only action must tell the group nothing hidden (a hand
        that could answer a danger card makes the roll one choice among others). Default: never."""
        return False

    def idle_action(self, legal: Sequence[str], view: Any) -> str | None:
        """The move the bot makes for a person who let their time run out; None lets the game's
        default AI choose from the seat's own view."""
        return None

    @abstractmethod
    def parse(self, text: str, ctx: ParseContext) -> ParseResult:
        """Understand free text as the actions (the engine's objects) the player meant, reading the
        words against the legal actions of ``ctx``; whether a move meant is legal now, and why not,
        is the engine's ``check`` to say."""

    def words(self, text: str, lang: str, names: Sequence[str]) -> Sequence[Item] | None:
        """The message's words as the game's parser reads them: the items of its
        :meth:`~chatbot.core.nlp.Lexicon.scan` (the game's moves, entities, numbers and the seats'
        names) after the game's own rewriting of the text. The core's certainty check
        (:mod:`chatbot.core.certainty`) reads them to tell a move from friends' talk in a group;
        None: the game does not say, and text not addressed to the bot is never its move."""
        return None

    @abstractmethod
    def reason_text(self, code: str, params: dict[str, Any], ctx: RenderContext) -> str:
        """Why an action is refused, with the way forward, in the recipient's language."""

    def cards_in(self, text: str) -> list[str]:
        """Every card named in a rendered text, for the no-leak check (DESIGN §8): cards are written
        in brackets ("[7]", "[🔍 Kurkistus]"); games whose brackets carry markers strip them here."""
        return re.findall(r"\[([^\]]+)\]", text)

    #: how many lines of the latest actions the table message repeats above the fresh ones
    recent_lines: int = 8
    #: whether the fresh lines of an action count against ``recent_lines`` (a table kept short)
    recent_shrinks: bool = False

    def render_detail(self, view: Any, ctx: RenderContext) -> str | None:
        """Everything public, for "näytä tilanne" (status): None means the table itself."""
        return None

    def headlines(self, events: Sequence[Any], ctx: RenderContext) -> list[str]:
        """Lines of events that matter enough to be messages of their own that stay (the table is
        edited in place): a duel's result, a winner. Only public events are passed."""
        return []

    def score_text(self, seat: int, score: int, public_view: Any, ctx: RenderContext) -> str:
        """A seat's number in the final standings, saying what it is ("38 pistettä", "2 elämää
        jäljellä"); the public view of the finished game may add how it was made up."""
        return ctx.t.format_number(score)

    def render_image(self, view: Any, ctx: RenderContext) -> bytes | None:
        """A PNG of the table where a picture reads better than text."""
        return None

    def picture_moment(self, public_view: Any) -> Any:
        """The moment of the game whose first picture stays on the table until the next moment (a
        round): at most one new picture per moment (:mod:`chatbot.core.pictures`). None: the
        picture follows every change."""
        return None

    def result_figures(
        self, public_view: Any, outcome: Any, events: Sequence[Event] = ()
    ) -> list[dict[str, Any]]:
        """Per seat, the numbers and codes of the game's own measure in a finished match (the
        public view of its final state and the match's public events in order), kept with the
        result for the statistics, e.g. ``[{"total": 12}, {"total": 19}]``; [] when it has none."""
        return self.measure.figures(public_view, outcome, events) if self.measure is not None else []

    def figures_text(
        self, figures: Sequence[dict[str, Any]], wins: Sequence[dict[str, Any]], t: Translator
    ) -> str | None:
        """One player's measure over their matches of this game ("lowest total 12"): ``figures`` of
        every match they played, ``wins`` of those they won; None when there is nothing to say."""
        return self.measure.figures_text(figures, wins, t) if self.measure is not None else None

    def suggestion(self, options: dict[str, Any], t: Translator) -> tuple[str, str, dict[str, Any]] | None:
        """What the lobby offers a table that has never finished this game (the quick game): the
        line that says what it changes, its button's label and the options it sets; None when
        there is nothing to offer with ``options`` (issue #28)."""
        return None

    def option_words(self) -> dict[str, str]:
        """Localised option names accepted in "uusi X kierrokset=3" mapped to engine option keys."""
        return {}

    def option_example(self, t: Any) -> str:
        """One option of this game as typed, for "asetukset" ("kierrokset=3"); the pace by default."""
        return str(t.gettext("pace=daily"))

    def option_counts(self) -> dict[str, str]:
        """Nouns that count an option when said in words ("kahdella kierroksella", "3 rounds"): base
        form or English singular -> engine option key."""
        return {}

    def option_flags(self) -> dict[str, tuple[str, Any]]:
        """Bare words after the game's name that set an option ("uusi afrikan tähti pikapeli"):
        word -> (engine option key, value)."""
        return {}

    def option_parts(self, options: dict[str, Any], t: Translator) -> list[str]:
        """The options in force that differ from the defaults, each in words ("2 kierrosta",
        "muistiapu"); [] when there are none."""
        return []

    def options_text(self, options: dict[str, Any], t: Translator) -> str | None:
        """:meth:`option_parts` as one line ("2 kierrosta · muistiapu"), or None; the lobby marks it
        "⚙️ "."""
        parts = self.option_parts(options, t)
        return " · ".join(parts) if parts else None
