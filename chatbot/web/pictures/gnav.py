"""Gnav for the web view: the seats in turn order, each with its lives and its card (face up where
the public view shows it, else face down), the dealer and the stock, from the public view."""

from __future__ import annotations

from chatbot.core.gameui import RenderContext
from chatbot.games.gnav.render import card_name, title
from chatbot.web.pictures import Picture, back, bare, card, esc, svg
from engines.gnav.model import OVER, View

CARD_W, CARD_H, COL_W = 70, 96, 96


def picture(view: View, ctx: RenderContext) -> Picture:
    t = ctx.t
    seats = [*view.order, *(s for s in range(view.players) if s not in view.order)]
    width = max(4, len(seats)) * COL_W + 8
    parts: list[str] = []
    for i, seat in enumerate(seats):
        x = 8 + i * COL_W
        out = view.lives[seat] == 0
        acting = view.phase != OVER and seat in view.to_act
        name = ctx.name(seat)
        parts.append(
            f'<text x="{x + CARD_W / 2}" y="16" text-anchor="middle" font-size="13" '
            f'font-weight="{"bold" if acting else "normal"}">{esc(name[:12])}</text>'
            f'<text x="{x + CARD_W / 2}" y="32" text-anchor="middle" font-size="12" fill="#c0392b">'
            f"{esc('♥' * view.lives[seat] if not out else '✖')}</text>"
        )
        known = view.hands[seat]
        if seat in view.order and seat not in view.departed:
            if known is not None:
                name_of = card_name(known, t)
                parts.append(card(x, 40, CARD_W, CARD_H, "#fffdf4", bare(name_of), name_of))
            else:
                parts.append(back(x, 40, CARD_W, CARD_H, t.gettext("a card face down")))
        notes = []
        if seat == view.dealer and view.phase != OVER:
            notes.append(t.pgettext("seat", "dealer"))
        if seat in view.resting:
            notes.append(t.pgettext("seat", "resting"))
        if out:
            notes.append(t.pgettext("seat", "out"))
        if acting:
            notes.append("◀")
        parts.append(
            f'<text x="{x + CARD_W / 2}" y="{40 + CARD_H + 16}" text-anchor="middle" font-size="11" fill="#555">'
            f"{esc(' · '.join(notes))}</text>"
        )
    stock = t.ngettext("Stock: {n} card", "Stock: {n} cards", view.stock_size).format(
        n=t.format_number(view.stock_size)
    )
    parts.append(f'<text x="8" y="{CARD_H + 80}" font-size="12" fill="#333">{esc(stock)}</text>')
    alt = f"{title(t)}: " + t.format_list([f"{ctx.name(s)} {view.lives[s]} ♥" for s in seats])
    return Picture(svg(width, CARD_H + 90, "".join(parts), alt), alt)
