"""Majavajengi in chat: the :class:`GameUI` that wires the game's texts, renderers, buttons and parser.

Reading order: ``texts`` (rule topics, refusal reasons), ``render`` (table, private panel, events,
reasons), ``buttons`` (labels, rows, what the group may see), ``parser`` (text -> actions).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.core.gameui import GameUI, RenderContext
from chatbot.core.i18n import Translator
from chatbot.core.nlp import Item
from chatbot.core.parsing import ParseContext, ParseResult
from chatbot.games.majavajengi import buttons, parser, records, render
from chatbot.games.majavajengi.situation import situation
from chatbot.games.majavajengi.texts import TOPICS
from chatbot.games.majavajengi.topic_words import TOPIC_WORDS
from engines.contract import Event
from engines.majavajengi.model import MajavajengiSeatView, MajavajengiView


class MajavajengiUI(GameUI):
    game_id = "majavajengi"
    domain = "majavajengi"
    aliases = ("majavajengi", "majava", "majavat", "biberbande", "beaver gang", "beavers", "beaver")
    title_fn = staticmethod(render.title)
    topics = TOPICS
    topic_words = TOPIC_WORDS
    situation_fn = staticmethod(situation)
    measure = records

    def option_parts(self, options: dict[str, Any], t: Translator) -> list[str]:
        """The options that differ from the defaults ("2 kierrosta", "muistiapu")."""
        parts = []
        rounds = options.get("rounds", 6)
        if rounds == "players":
            parts.append(t.gettext("as many rounds as players"))
        elif isinstance(rounds, int) and rounds != 6:
            parts.append(t.ngettext("{n} round", "{n} rounds", rounds).format(n=rounds))
        if options.get("memory_aid") is True:
            parts.append(t.gettext("memory aid"))
        return parts

    def option_counts(self) -> dict[str, str]:
        return {"kierros": "rounds", "kierrok": "rounds", "round": "rounds"}

    def option_example(self, t: Translator) -> str:
        return t.gettext("rounds=3")

    def option_words(self) -> dict[str, str]:
        return {"kierrokset": "rounds", "kierroksia": "rounds", "muistiapu": "memory_aid",
                "aloittaja": "next_round_start"}  # fmt: skip

    def render_table(self, view: MajavajengiView, ctx: RenderContext) -> str:
        return render.table(view, ctx)

    def render_private(self, view: MajavajengiSeatView, ctx: RenderContext) -> str | None:
        return render.private(view, ctx)

    def render_events(self, events: Sequence[Event], ctx: RenderContext) -> list[str]:
        return render.events(events, ctx)

    def action_label(self, notation: str, view: MajavajengiView, ctx: RenderContext) -> str:
        return buttons.label(notation, view, ctx)

    def action_phrase(self, notation: str, view: MajavajengiView, ctx: RenderContext) -> str | None:
        return buttons.phrase(notation, ctx)

    def button_rows(
        self, legal: Sequence[str], view: MajavajengiView, ctx: RenderContext
    ) -> list[list[tuple[str, str]]]:
        return buttons.rows(legal, view, ctx)

    def group_actions(self, legal: Sequence[str], public_view: MajavajengiView) -> tuple[str, ...]:
        return buttons.for_group(legal, public_view)

    def idle_action(self, legal: Sequence[str], view: MajavajengiView) -> str | None:
        # spec M28: an unanswered decision at the end of the turn is "end", never a knock
        return "end" if "end" in legal else None

    def words(self, text: str, lang: str, names: Sequence[str]) -> Sequence[Item] | None:
        return parser.words(text, lang, names)

    def parse(self, text: str, ctx: ParseContext[MajavajengiView]) -> ParseResult:
        return parser.parse(text, ctx)

    def headlines(self, events: Sequence[Event], ctx: RenderContext) -> list[str]:
        """A round's end as one message that stays: the revealed cards, the specials replaced, the
        round's scores (the table message is edited by the next move)."""
        lines = render.events([e for e in events if e.code in ROUND_RESULT], ctx)
        if not lines:
            return []
        round_ = next((e.p["round"] for e in events if e.code == "round_scored" and "round" in e.p), None)
        if round_ is not None:
            lines.insert(0, ctx.t.gettext("🦫 The result of round {round}:").format(round=round_))
        return ["\n".join(lines)]

    def score_text(self, seat: int, score: int, public_view: Any, ctx: RenderContext) -> str:
        return ctx.t.ngettext("{n} point", "{n} points", score).format(n=ctx.t.format_number(score))

    def reason_text(self, code: str, params: dict[str, Any], ctx: RenderContext) -> str:
        return render.reason_text(code, params, ctx)


#: the events of a round's end, told again as a message of its own
ROUND_RESULT = frozenset({"revealed", "special_replaced", "round_scored"})

UI = MajavajengiUI()
