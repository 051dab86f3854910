"""Gnav as on Cardavia in chat: the :class:`GnavUI` that wires the pieces, and ``UI``.

``texts`` holds the rule topics and the refusal reasons, ``render`` the table, the private panel and the
events, ``buttons`` the labels and which moves the group may see, ``parser`` the words. Everything works
from views: the group's from the public view, a seat's private messages from that seat's view.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from chatbot.core.gameui import GameUI, RenderContext
from chatbot.core.i18n import Translator
from chatbot.core.nlp import Item
from chatbot.core.parsing import ParseContext, ParseResult
from chatbot.games.gnav import buttons, parser, records, render
from chatbot.games.gnav.situation import situation
from chatbot.games.gnav.texts import TOPICS
from chatbot.games.gnav.topic_words import TOPIC_WORDS
from engines.contract import Event


class GnavUI(GameUI):
    game_id = "gnav"
    domain = "gnav"
    # spec §1: the start aliases; the first one is shown in the list of games. "cardavia" was the engine's
    # id before it was named after the game, so "uusi cardavia" still starts Gnav.
    aliases = ("gnav", "käkipeli", "kakipeli", "cuckoo", "cardavia")
    title_fn = staticmethod(render.title)
    topics = TOPICS
    topic_words = TOPIC_WORDS
    situation_fn = staticmethod(situation)
    measure = records

    def option_parts(self, options: dict[str, Any], t: Translator) -> list[str]:
        """The options that differ from the defaults ("2 elämää kullakin")."""
        parts = []
        lives = options.get("lives", 3)
        if isinstance(lives, int) and not isinstance(lives, bool) and lives != 3:
            parts.append(t.ngettext("{n} life each", "{n} lives each", lives).format(n=lives))
        if options.get("traditional_cat") is True:
            parts.append(t.gettext("traditional cat"))
        return parts

    def option_counts(self) -> dict[str, str]:
        return {"elämä": "lives", "henki": "lives", "henge": "lives", "life": "lives", "lives": "lives"}

    def option_example(self, t: Translator) -> str:
        return t.gettext("lives=2")

    def option_words(self) -> dict[str, str]:
        return dict(parser.OPTION_WORDS)

    def render_table(self, view: Any, ctx: RenderContext) -> str:
        return render.table(view, ctx)

    def render_private(self, view: Any, ctx: RenderContext) -> str | None:
        return render.private(view, ctx)

    def render_events(self, events: Sequence[Event], ctx: RenderContext) -> list[str]:
        return render.event_lines(events, ctx)

    def headlines(self, events: Sequence[Event], ctx: RenderContext) -> list[str]:
        """A deal's settlement as one message that stays: the cards up, who lost a life, who is out,
        who rests (the table message is edited by the next move)."""
        lines = render.event_lines([e for e in events if e.code in SETTLEMENT], ctx)
        if not lines:
            return []
        deal = next((e.p["deal"] for e in events if e.code == "deal_ended" and "deal" in e.p), None)
        if deal is not None:
            lines.insert(0, ctx.t.gettext("🐦 The result of deal {deal}:").format(deal=deal))
        return ["\n".join(lines)]

    def score_text(self, seat: int, score: int, public_view: Any, ctx: RenderContext) -> str:
        if score <= 0:
            return ctx.t.gettext("no lives left")
        return render.lives_left(score, ctx.t)

    def cards_in(self, text: str) -> list[str]:
        """The bracketed card names without their markers: "[🐎 hevonen]" -> "hevonen"."""
        return [re.sub(r"^\S+ ", "", name) if " " in name else name for name in super().cards_in(text)]

    def action_label(self, notation: str, view: Any, ctx: RenderContext) -> str:
        return buttons.action_label(notation, view, ctx)

    def action_phrase(self, notation: str, view: Any, ctx: RenderContext) -> str | None:
        return buttons.action_phrase(notation, view, ctx)

    def group_actions(self, legal: Sequence[str], public_view: Any) -> tuple[str, ...]:
        return buttons.group_actions(legal)

    def idle_action(self, legal: Sequence[str], view: Any) -> str | None:
        return buttons.idle_action(legal)

    def words(self, text: str, lang: str, names: Sequence[str]) -> Sequence[Item] | None:
        return parser.words(text, lang, names)

    def parse(self, text: str, ctx: ParseContext) -> ParseResult:
        return parser.parse(text, ctx)

    def reason_text(self, code: str, params: dict[str, Any], ctx: RenderContext) -> str:
        return render.reason_text(code, params, ctx)


#: the events of a deal's end, told again as a message of its own (a life lost to a matador is told
#: with its refusal, on the table)
SETTLEMENT = frozenset({"cards_revealed", "deal_settled", "deal_uncontested", "deal_skipped", "match_ended"})

UI = GnavUI()
