"""Afrikan Tähti (with Retkikunnat) in chat: the :class:`GameUI` and ``UI``, wiring the pieces.

Everything on the table is public in the base game except the face-down tokens, which leave the
engine only once flipped, so the group sees every action and gets the buttons too. With the
expansion, hand cards and peeks are private: they appear only in the seat's own panel and events,
and the group gets only the buttons that reveal nothing.

Reading order: :mod:`.names` (markers, places as phrases, money, cards), :mod:`.texts` (rule
topics and refusal texts), :mod:`.render` (the table and the private panel), :mod:`.events`
(event lines), :mod:`.buttons` (labels, rows, the group's buttons), :mod:`.lexicon` and
:mod:`.parser` and :mod:`.expansion_parser` (free text -> what the player meant), :mod:`.picture`
(the board PNG); :mod:`.cards_generated` and :mod:`.card_forms_generated` are generated from the
engine's card data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.core.gameui import GameUI, RenderContext
from chatbot.core.i18n import Translator
from chatbot.core.nlp import Item
from chatbot.core.parsing import ParseContext, ParseResult
from chatbot.games.afrikan_tahti import buttons, events, names, parser, records, render, texts
from chatbot.games.afrikan_tahti.situation import situation
from chatbot.games.afrikan_tahti.topic_words import TOPIC_WORDS
from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.ai import idle_action
from engines.afrikan_tahti.model import View
from engines.codec import BadNotation
from engines.contract import Event


class AfrikanTahtiUI(GameUI):
    game_id = "afrikan_tahti"
    domain = "afrikan_tahti"
    aliases = (
        "afrikan tähti",
        "afrikantahti",
        "afrikan tahti",
        "afrikan_tahti",
        "tähti",
        "africa star",
        "star of africa",
    )
    title_fn = staticmethod(names.title)
    topics = texts.ALL_TOPICS
    topic_words = TOPIC_WORDS
    situation_fn = staticmethod(situation)
    measure = records

    def option_example(self, t: Translator) -> str:
        return t.gettext("quick_game=yes")

    def option_words(self) -> dict[str, str]:
        return {
            "laajennus": "expansion",
            "retkikunnat": "expansion",
            "smaragdi": "emerald_value",
            "lähtöpaikka": "start_place",
            "lähtö": "start_place",
            "kierrosraja": "max_rounds",
            "kapkaupunki": "capetown_bonus",
            "ilmaisaskeleet": "broke_sea_steps",
            "pikapeli": "quick_game",
            "quick": "quick_game",
            "hahmot": "character_assignment",
            "käsiraja": "hand_limit",
            "korttiraja": "expedition_card_limit",
            "vastausaika": "response_window_seconds",
        }

    def option_flags(self) -> dict[str, tuple[str, Any]]:
        return {
            "pikapeli": ("quick_game", True),
            "pika": ("quick_game", True),
            "quick": ("quick_game", True),
            "retkikunnat": ("expansion", True),
            "retkikunnilla": ("expansion", True),
            "retkikunta": ("expansion", True),
            "retkikun": ("expansion", True),  # the stem of "retkikuntia", "retkikunnilla"
            "laajennuks": ("expansion", True),
            "laajennus": ("expansion", True),
            "laajennuksella": ("expansion", True),
            "expansion": ("expansion", True),
            "peruspeli": ("expansion", False),
            "perus": ("expansion", False),
            "base": ("expansion", False),
            "classic": ("expansion", False),
        }

    def option_parts(self, options: dict[str, Any], t: Translator) -> list[str]:
        try:
            o = ENGINE.options_from_dict(options)
        except (TypeError, ValueError):
            return []
        return names.option_parts(o, t)

    def suggestion(self, options: dict[str, Any], t: Translator) -> tuple[str, str, dict[str, Any]] | None:
        # a first game with Retkikunnat: the quick game (spec §3.4) fits an evening (issue #28)
        try:
            o = ENGINE.options_from_dict(options)
        except (TypeError, ValueError):
            return None
        if not o.expansion or o.quick_game:
            return None
        return names.quick_game_offer(t), t.gettext("⚡ Quick game"), {"quick_game": True}

    # --- texts for the table, the seat, the events -----------------------------------------------
    def render_table(self, view: View, ctx: RenderContext) -> str:
        return render.table(view, ctx)

    #: the table message repeats the last few actions' lines: four keep a six-player table short
    recent_lines = 4
    recent_shrinks = True

    def render_detail(self, view: View, ctx: RenderContext) -> str | None:
        return render.detail(view, ctx)

    def headlines(self, events_: Sequence[Event], ctx: RenderContext) -> list[str]:
        return events.headlines(events_, ctx)

    def score_text(self, seat: int, score: int, public_view: View, ctx: RenderContext) -> str:
        return ctx.t.gettext("{money} in cash").format(money=names.money(score, ctx.t))

    def render_private(self, view: View, ctx: RenderContext) -> str | None:
        return render.private(view, ctx)

    def render_events(self, events_: Sequence[Event], ctx: RenderContext) -> list[str]:
        return events.lines(events_, ctx)

    def render_image(self, view: View, ctx: RenderContext) -> bytes | None:
        # The board picture depends only on positions, tokens and names, so transports that skip an
        # unchanged picture (Telegram edits only the caption, Matrix compares hashes) upload a new
        # one only when something moved; renders of the same position come from a cache. Pillow
        # loads on the first picture, not with the game.
        from chatbot.games.afrikan_tahti.picture import board_png

        return board_png(view, ctx)

    def picture_moment(self, public_view: View) -> Any:
        # one new board picture a round (issue #28), and the final board
        return "over" if public_view.phase == "over" else public_view.round

    # --- buttons --------------------------------------------------------------------------------
    def action_label(self, notation: str, view: View, ctx: RenderContext) -> str:
        return buttons.label(notation, view, ctx)

    def action_phrase(self, notation: str, view: View, ctx: RenderContext) -> str | None:
        return buttons.phrase(notation, view, ctx)

    def button_rows(
        self, legal: Sequence[str], view: View, ctx: RenderContext
    ) -> list[list[tuple[str, str]]]:
        return buttons.rows(legal, view, ctx)

    def group_actions(self, legal: Sequence[str], public_view: View) -> tuple[str, ...]:
        return buttons.group_actions(legal, public_view)

    def prompt_line(self, view: View, ctx: RenderContext) -> str | None:
        return buttons.prompt_line(view, ctx)

    def deadline(self, public_view: View) -> float | None:
        return buttons.deadline(public_view)

    def window_key(self, public_view: View) -> str | None:
        return buttons.window_key(public_view)

    def resolve_step(self, step: str, view: View, legal: Sequence[str]) -> str | None:
        return buttons.resolve_step(step, view, legal)

    def automatic(self, notation: str, public_view: View) -> bool:
        return buttons.automatic(notation, public_view)

    def idle_action(self, legal: Sequence[str], view: View) -> str | None:
        # a window's time ran out: ``lapse`` (two in a row and the seat is not asked any more,
        # engines/afrikan_tahti/retkikunnat/windows.py); it is never a button
        x = view.x
        if x is not None and x.prompt is not None and x.prompt.kind in ("window", "reveal"):
            return "lapse"
        # spec §7 defaults (stay, the nearest stop, no flip): the engine's idle rule, not the AI's
        try:
            actions = tuple(ENGINE.parse_notation(n) for n in legal)
        except BadNotation:
            return None
        chosen = idle_action(view, actions)
        return ENGINE.notation(chosen) if chosen is not None else None

    # --- understanding --------------------------------------------------------------------------
    def words(self, text: str, lang: str, names: Sequence[str]) -> Sequence[Item] | None:
        return parser.words(text, lang, names)

    def parse(self, text: str, ctx: ParseContext[View]) -> ParseResult:
        # a button's own label typed back is that button (the labels are what people copy)
        typed = buttons.typed_label(text, ctx)
        if typed is not None:
            return typed
        return parser.parse(text, ctx)

    def reason_text(self, code: str, params: dict[str, Any], ctx: RenderContext) -> str:
        return texts.reason_text(code, params, ctx)

    def cards_in(self, text: str) -> list[str]:
        # card and character names are written plainly ("Ratsu", "Gotcha!"), not in brackets
        return names.cards_in(text)


UI = AfrikanTahtiUI()
