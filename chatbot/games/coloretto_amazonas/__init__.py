"""Coloretto Amazonas in chat: the :class:`GameUI` that wires the game's pieces together.

Reading order: ``texts.py`` (rule topics, refusal msgids), ``render.py`` (names of animals and
colours, the public table, the private panel, events, refusals), ``buttons.py`` (labels, rows,
which buttons the group may see), ``parser.py`` (free text -> the move meant) and ``picture.py``
(the PNG of the final table). Hidden information: renderers take views only, and the group gets the
public view (see ``render.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from chatbot.core.gameui import GameUI, RenderContext
from chatbot.core.nlp import Item
from chatbot.core.parsing import ParseContext, ParseResult
from chatbot.games.coloretto_amazonas import buttons, parser, records, render, texts
from chatbot.games.coloretto_amazonas.animals import ANIMAL_TOPICS
from chatbot.games.coloretto_amazonas.situation import situation
from chatbot.games.coloretto_amazonas.topic_words import TOPIC_WORDS
from engines.coloretto_amazonas.model import OVER, PrivateView, PublicView
from engines.contract import Event

_MARKERS = re.compile(r"^[🟦🟪🟫🟩] ")


class ColorettoAmazonasUI(GameUI):
    game_id = "coloretto_amazonas"
    domain = "coloretto_amazonas"
    aliases = ("coloretto", "coloretto amazonas", "amazonas", "coloretto-amazonas", "amazon")
    title_fn = staticmethod(render.title)
    topics = (*texts.TOPICS, *ANIMAL_TOPICS)
    topic_words = TOPIC_WORDS
    situation_fn = staticmethod(situation)
    measure = records

    def option_words(self) -> dict[str, str]:
        return {"suojakortti": "protection_mode", "suoja": "protection_mode", "pakan_loppu": "deck_end",
                "pinot": "stacks_to_end", "pinoja": "stacks_to_end", "tasapeli": "tiebreak",
                "aloittaja": "start_player", "protection": "protection_mode", "stacks": "stacks_to_end"}  # fmt: skip

    def render_table(self, view: PublicView, ctx: RenderContext) -> str:
        return render.table(view, ctx)

    def render_private(self, view: PrivateView, ctx: RenderContext) -> str | None:
        return render.private(view, ctx)

    def render_events(self, events: Sequence[Event], ctx: RenderContext) -> list[str]:
        return render.events(events, ctx)

    def action_label(self, notation: str, view: PublicView, ctx: RenderContext) -> str:
        return buttons.label(notation, ctx)

    def action_phrase(self, notation: str, view: PublicView, ctx: RenderContext) -> str | None:
        return buttons.phrase(notation, ctx)

    def button_rows(
        self, legal: Sequence[str], view: PublicView, ctx: RenderContext
    ) -> list[list[tuple[str, str]]]:
        return buttons.rows(legal, ctx)

    def group_actions(self, legal: Sequence[str], public_view: PublicView) -> tuple[str, ...]:
        return buttons.for_group(legal, public_view)

    def words(self, text: str, lang: str, names: Sequence[str]) -> Sequence[Item] | None:
        return parser.words(text, lang, names)

    def parse(self, text: str, ctx: ParseContext[PublicView]) -> ParseResult:
        return parser.parse(text, ctx)

    def reason_text(self, code: str, params: dict[str, Any], ctx: RenderContext) -> str:
        return render.reason_text(code, params, ctx)

    def score_text(self, seat: int, score: int, public_view: PublicView, ctx: RenderContext) -> str:
        """The points with how they were made: "65 pistettä (rivit 7 + pinot 52 + bonukset 6)"."""
        return render.final_score(seat, score, public_view, ctx)

    def cards_in(self, text: str) -> list[str]:
        """The bracketed animals of a text without their colour markers ("[🟦 piraija]" -> "piraija"),
        so that an event's card and a row's card count as the same animal."""
        return [_MARKERS.sub("", name) for name in super().cards_in(text)]

    def render_image(self, view: PublicView, ctx: RenderContext) -> bytes | None:
        # One picture of the final table: rows, stacks and scores of everyone read better at a
        # glance than text. During play the text table is enough (and is edited in place).
        if view.phase != OVER:
            return None
        from chatbot.games.coloretto_amazonas import picture  # Pillow only when a picture is made

        return picture.table_png(view, ctx)


UI = ColorettoAmazonasUI()
