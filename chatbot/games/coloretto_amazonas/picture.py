"""The picture of the final Coloretto Amazonas table (PNG): one band per seat with its four rows as
coloured slots (filled slots carry the animal's name), its stacks, bonus cards and score.

Drawn from the public view only, like the text table. Fonts: DejaVu Sans when the system has it,
else Pillow's built-in font, so a missing font never breaks a game.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from chatbot.core.gameui import RenderContext
from chatbot.games.coloretto_amazonas.render import animal
from chatbot.games.drawing import font
from engines.coloretto_amazonas.model import PublicView

FILL = {"B": (52, 120, 198), "P": (132, 74, 178), "R": (140, 94, 60), "G": (62, 150, 72)}
PALE = {"B": (214, 228, 245), "P": (232, 220, 242), "R": (236, 224, 214), "G": (218, 238, 220)}
BACKGROUND, INK, MUTED = (250, 248, 240), (30, 30, 30), (120, 120, 120)
SLOT_W, SLOT_H, GAP, MARGIN = 96, 30, 4, 16
LABEL_W = 56


def _fit(draw: ImageDraw.ImageDraw, text: str, font: Any, width: int) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def table_png(view: PublicView, ctx: RenderContext) -> bytes:
    """One band per seat: rows as slots, stacks as small piles, bonus cards as tokens; ranks at the end."""
    t = ctx.t
    slots = max(row.capacity for row in view.seats[0].rows)
    band_h = 28 + 4 * (SLOT_H + GAP) + 24
    width = MARGIN * 2 + LABEL_W + slots * (SLOT_W + GAP) + 120
    height = MARGIN * 2 + band_h * len(view.seats)
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, normal, bold = font(12), font(14), font(16, bold=True)
    ranks = view.ranks
    for index, seat in enumerate(view.seats):
        top = MARGIN + index * band_h
        heading = f"{ctx.name(seat.seat)} – {seat.score}"
        if ranks:
            heading = f"{ranks[seat.seat]}. {heading}"
        draw.text((MARGIN, top), heading, fill=INK, font=bold)
        for r, row in enumerate(seat.rows):
            y = top + 28 + r * (SLOT_H + GAP)
            draw.text((MARGIN, y + 7), f"{len(row.kinds)}/{row.capacity}", fill=MUTED, font=normal)
            for s in range(row.capacity):
                x = MARGIN + LABEL_W + s * (SLOT_W + GAP)
                box = (x, y, x + SLOT_W, y + SLOT_H)
                if s < len(row.kinds):
                    draw.rounded_rectangle(box, radius=5, fill=FILL[row.colour])
                    name = _fit(draw, animal(row.kinds[s], t), small, SLOT_W - 8)
                    draw.text((x + 4, y + 8), name, fill=(255, 255, 255), font=small)
                else:
                    draw.rounded_rectangle(box, radius=5, fill=PALE[row.colour])
        x = MARGIN + LABEL_W + slots * (SLOT_W + GAP) + 8
        y = top + 28
        for colour in seat.stacks:  # a finished stack: a small pile of cards in its colour
            for k in range(3):
                draw.rectangle(
                    (x + k * 3, y - k * 3, x + 22 + k * 3, y + 28 - k * 3),
                    fill=FILL[colour],
                    outline=BACKGROUND,
                )
            x += 34
            if x > width - MARGIN - 30:
                x, y = MARGIN + LABEL_W + slots * (SLOT_W + GAP) + 8, y + 36
        by = top + 28 + 2 * (SLOT_H + GAP) + 8
        bx = MARGIN + LABEL_W + slots * (SLOT_W + GAP) + 8
        for colour in seat.bonuses:  # bonus cards: round tokens
            draw.ellipse((bx, by, bx + 24, by + 24), fill=FILL[colour], outline=INK)
            bx += 30
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
