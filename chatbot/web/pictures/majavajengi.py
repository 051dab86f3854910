"""Majavajengi for the web view: each player's four cards (face down until the round is revealed),
the draw and discard piles and the scores so far, from the public view."""

from __future__ import annotations

from chatbot.core.gameui import RenderContext
from chatbot.games.majavajengi.render import card_name, title
from chatbot.web.pictures import Picture, back, bare, card, esc, svg
from engines.majavajengi.model import MajavajengiView

CARD_W, CARD_H, GAP, ROW_H = 44, 62, 6, 92


def picture(view: MajavajengiView, ctx: RenderContext) -> Picture:
    t = ctx.t
    width = 8 + 4 * (CARD_W + GAP) + 150
    parts: list[str] = []
    top = card_name(view.discard_top, t) if view.discard_top else t.gettext("empty")
    parts.append(back(8, 8, CARD_W, CARD_H, t.gettext("Draw pile")))
    parts.append(
        f'<text x="{8 + CARD_W / 2}" y="{CARD_H + 24}" text-anchor="middle" font-size="12">{view.draw_pile}</text>'
    )
    if view.discard_top:
        parts.append(card(8 + CARD_W + 12, 8, CARD_W, CARD_H, "#fff8e0", bare(top), top))
    y = ROW_H + 10
    for seat in range(view.players):
        on_turn = view.turn == seat and view.phase != "over"
        marks = (" ✊" if view.knocker == seat else "") + (" ◀" if on_turn else "")
        total = t.format_number(view.totals[seat])
        parts.append(
            f'<text x="8" y="{y + 14}" font-size="13" font-weight="{"bold" if on_turn else "normal"}">'
            f"{esc(ctx.name(seat) + marks)} <tspan fill='#555' font-size='12'>({esc(total)})</tspan></text>"
        )
        row = view.layouts[seat] if view.revealed else (None,) * 4
        for i, kind in enumerate(row):
            x = 8 + i * (CARD_W + GAP)
            if kind is None:
                parts.append(back(x, y + 20, CARD_W, CARD_H, t.gettext("a card face down")))
            else:
                name = card_name(kind, t)
                parts.append(card(x, y + 20, CARD_W, CARD_H, "#fff", bare(name), name))
        y += ROW_H
    alt = f"{title(t)}: " + t.gettext("Discard pile: {top} · draw pile: {n}").format(
        top=top, n=t.format_number(view.draw_pile)
    )
    return Picture(svg(width, y + 4, "".join(parts), alt), alt)
