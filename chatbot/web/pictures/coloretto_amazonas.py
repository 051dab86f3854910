"""Coloretto Amazonas for the web view: each player's four coloured rows with their animals (slots
up to the row's size), completed stacks, bonus cards and the protection card, from the public view."""

from __future__ import annotations

from chatbot.core.gameui import RenderContext
from chatbot.games.coloretto_amazonas.render import MARKER, animal, card_name, colour_name, title
from chatbot.web.pictures import Picture, card, esc, svg
from engines.coloretto_amazonas.model import PublicView

ROW_FILL = {"B": "#cfe3ff", "P": "#e6d4f7", "R": "#ead8c4", "G": "#d3f0d3"}
CARD_W, CARD_H, GAP = 76, 28, 4
LABEL_W = 30
SEAT_H = 22 + 4 * (CARD_H + GAP) + 8


def picture(view: PublicView, ctx: RenderContext) -> Picture:
    t = ctx.t
    width = LABEL_W + 6 * (CARD_W + GAP) + 8
    parts: list[str] = []
    y = 4.0
    for seat in view.seats:
        on_turn = seat.seat in view.to_act
        head = ctx.name(seat.seat) + (" ◀" if on_turn else "") + (" 🛡️" if seat.protected else "")
        points = t.ngettext("{n} point", "{n} points", seat.score).format(n=t.format_number(seat.score))
        hand = t.ngettext("{n} card in hand", "{n} cards in hand", seat.hand_size).format(n=seat.hand_size)
        extra = "".join(MARKER[c] for c in seat.stacks) + "".join(MARKER[c] + "+" for c in seat.bonuses)
        weight = "bold" if on_turn else "normal"
        parts.append(
            f'<text x="4" y="{y + 15:.0f}" font-size="14" font-weight="{weight}">{esc(head)}'
            f'<tspan font-size="12" fill="#555"> – {esc(hand)} · {esc(points)} {esc(extra)}</tspan></text>'
        )
        y += 22
        for row in seat.rows:
            parts.append(
                f'<rect x="2" y="{y - 2:.0f}" width="{width - 4}" height="{CARD_H + 4}" rx="5" '
                f'fill="{ROW_FILL[row.colour]}"><title>{esc(colour_name(row.colour, t))}</title></rect>'
                f'<text x="6" y="{y + 18:.0f}" font-size="12">{len(row.kinds)}/{row.capacity}</text>'
            )
            for i in range(row.capacity):
                x = LABEL_W + 8 + i * (CARD_W + GAP)
                if i < len(row.kinds):
                    kind = row.kinds[i]
                    parts.append(card(x, y, CARD_W, CARD_H, "#fff", animal(kind, t), card_name(kind, t)))
                else:
                    parts.append(
                        f'<rect x="{x}" y="{y:.0f}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="none" '
                        f'stroke="#999" stroke-dasharray="4 3"/>'
                    )
            y += CARD_H + GAP
        y += 8
    piles = t.gettext("Draw pile: {deck} · discard pile: {discard}").format(
        deck=t.format_number(view.deck_count), discard=t.format_number(view.discard_count)
    )
    parts.append(f'<text x="4" y="{y + 14:.0f}" font-size="12" fill="#333">{esc(piles)}</text>')
    y += 22
    alt = f"{title(t)}: {piles}"
    return Picture(svg(width, y, "".join(parts), alt), alt)
