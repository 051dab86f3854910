"""The Afrikan Tähti board as a picture (PNG), drawn from ``map.json`` and the public view.

The board scan itself is not ours to ship, so the picture is drawn from the map data: the continent
is the union of thick strokes along the land routes (blurred into a coastline), then air routes
(dashed), sea legs (dotted), land routes, dots, hazards and the places with their names. On top come
the tokens (face down: a dark disc in the place; flipped: a coloured marker of what it was), the
pawns in the seat colours of the text table, the Star and horseshoe holders and a legend.

Speed: the static layer (everything but tokens, pawns and legend) is drawn once per language, and a
finished picture is cached by everything it shows, so the same position never draws twice. The
picture shows no roll and no phase, so it changes only when something on the board changes.

Fonts: DejaVu Sans when the system has it, else Pillow's built-in font (which lacks ä and ö).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageOps

from chatbot.core.ports import RenderContext
from chatbot.games.afrikan_tahti.names import kind_of, place
from chatbot.games.drawing import font
from engines.afrikan_tahti.board import AIR, GOALS, HAZARDS, LAND, LEGS, MAP, PLACE, PLACES, POINT, SEA_DOTS
from engines.afrikan_tahti.model import View

SCALE = 0.4
BOARD_W = round(MAP["board"]["image_width"] * SCALE)
# the board scan is taller than the map: the picture ends below the southernmost name
BOARD_H = round(max(n["y"] for n in (*MAP["places"], *MAP["points"])) * SCALE + 40)
LEGEND_ROW = 24
MARGIN = 10

SEA, LAND_FILL, COAST = (164, 200, 224), (236, 219, 176), (120, 150, 170)
ROUTE, SEA_ROUTE, AIR_ROUTE = (140, 96, 56), (52, 96, 160), (110, 110, 130)
INK, WHITE, PLACE_RING, GOAL_FILL = (34, 30, 28), (255, 255, 255), (196, 38, 38), (250, 214, 90)
TOKEN_BACK = (70, 48, 36)
#: seat colours, in the order of the text table's markers 🔴 🔵 🟢 🟡 🟣 🟠
SEAT_COLOURS = ((214, 48, 49), (41, 98, 255), (30, 160, 70), (240, 196, 25), (142, 68, 173), (240, 128, 30))
TOKEN_COLOURS = {
    "star": (255, 204, 0),
    "ruby": (204, 20, 70),
    "emerald": (20, 150, 80),
    "topaz": (240, 170, 40),
    "robber": (20, 20, 20),
    "horseshoe": (140, 140, 150),
    "blank": (245, 245, 240),
}


def _font(size: int) -> Any:
    return font(size, bold=True)


def xy(node: str) -> tuple[float, float]:
    data = PLACE.get(node) or POINT[node]
    return data["x"] * SCALE, data["y"] * SCALE


# --------------------------------------------------------------------------------------------------
# The static layer
# --------------------------------------------------------------------------------------------------


def _components() -> list[set[str]]:
    """The land graph's connected parts: the mainland first, then Madagascar; places without land
    routes (Canary Islands, St. Helena) are parts of their own."""
    parts: list[set[str]] = []
    seen: set[str] = set()
    for start in [*LAND, *(p for p in PLACES if p not in LAND)]:
        if start in seen:
            continue
        part, todo = set(), [start]
        while todo:
            node = todo.pop()
            if node not in part:
                part.add(node)
                todo.extend(LAND.get(node, ()))
        seen |= part
        parts.append(part)
    return sorted(parts, key=len, reverse=True)


def _blob(nodes: set[str], width: float, radius: float, blur: float) -> Image.Image:
    mask = Image.new("L", (BOARD_W, BOARD_H), 0)
    draw = ImageDraw.Draw(mask)
    for a in nodes:
        for b in LAND.get(a, ()):
            if a < b:
                draw.line([xy(a), xy(b)], fill=255, width=round(width * SCALE))
        x, y = xy(a)
        r = radius * SCALE
        draw.ellipse([x - r, y - r, x + r, y + r], fill=255)
    return mask.filter(ImageFilter.GaussianBlur(round(blur * SCALE))).point(lambda v: 255 if v > 100 else 0)


@lru_cache(maxsize=1)
def _land_mask() -> Image.Image:
    """The continent and islands: thick strokes along the land routes and discs on land nodes,
    blurred and cut, so that the coast follows the routes with a margin. The mainland gets its
    inland holes filled; Madagascar and the islands are drawn slimmer so they stay islands."""
    mainland, *islands = _components()
    # The open sea is what a flood from the frame reaches (a 1-pixel frame joins all the edges);
    # Pillow floods in Python, so it floods a quarter-size copy.
    blob = _blob(mainland, 150, 70, 40)
    small = ImageOps.expand(blob.resize((BOARD_W // 4, BOARD_H // 4)), border=1, fill=0)
    ImageDraw.floodfill(small, (0, 0), 128)
    sea = small.crop((1, 1, BOARD_W // 4 + 1, BOARD_H // 4 + 1)).point(lambda v: 255 if v == 128 else 0)
    sea = sea.resize((BOARD_W, BOARD_H), Image.Resampling.BILINEAR).point(lambda v: 255 if v > 127 else 0)
    mask = ImageChops.lighter(blob, ImageChops.invert(sea))
    mask = mask.filter(ImageFilter.GaussianBlur(6)).point(lambda v: 255 if v > 127 else 0)  # smooth the steps
    for part in islands:
        mask = ImageChops.lighter(mask, _blob(part, 80, 45, 20))
    return mask


def _dashed(
    draw: ImageDraw.ImageDraw,
    a: tuple[float, float],
    b: tuple[float, float],
    colour: tuple[int, int, int],
    dash: float,
    gap: float,
    width: int,
) -> None:
    (x1, y1), (x2, y2) = a, b
    length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
    dx, dy = (x2 - x1) / length, (y2 - y1) / length
    pos = 0.0
    while pos < length:
        end = min(length, pos + dash)
        draw.line([(x1 + dx * pos, y1 + dy * pos), (x1 + dx * end, y1 + dy * end)], fill=colour, width=width)
        pos = end + gap


def _dot(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    r: float,
    fill: Any,
    outline: Any = None,
    width: int = 1,
) -> None:
    x, y = centre
    draw.ellipse([x - r, y - r, x + r, y + r], fill=fill, outline=outline, width=width)


@lru_cache(maxsize=4)
def _static(labels: tuple[tuple[str, str], ...]) -> Image.Image:
    """Sea, land, routes, dots and places with their ``labels`` (place id, name)."""
    image = Image.new("RGB", (BOARD_W, BOARD_H), SEA)
    mask = _land_mask()
    image.paste(LAND_FILL, (0, 0), mask)
    image.paste(COAST, (0, 0), mask.filter(ImageFilter.FIND_EDGES))
    draw = ImageDraw.Draw(image)
    for a, b in AIR:
        if a < b:
            _dashed(draw, xy(a), xy(b), AIR_ROUTE, 6, 6, 1)
    for (a, b), leg in LEGS.items():
        if a < b:
            for p, q in zip(leg.path, leg.path[1:]):
                _dashed(draw, xy(p), xy(q), SEA_ROUTE, 3, 4, 2)
    for a, neighbours in LAND.items():
        for b in neighbours:
            if a < b:
                draw.line([xy(a), xy(b)], fill=ROUTE, width=2)
    for node in POINT:
        if node in HAZARDS:
            _dot(draw, xy(node), 6, (255, 230, 230), PLACE_RING, 2)
            _dot(draw, xy(node), 2, PLACE_RING)
        else:
            _dot(draw, xy(node), 2.2, SEA_ROUTE if node in SEA_DOTS else ROUTE)
    font = _font(11)
    for pid, label in labels:
        x, y = xy(pid)
        r = 11 if pid in GOALS else 8
        _dot(draw, (x, y), r, GOAL_FILL if pid in GOALS else WHITE, PLACE_RING, 2)
        half = draw.textlength(label, font=font) / 2 + 2
        lx = min(max(x, half), BOARD_W - half)  # keep names at the edges inside the picture
        draw.text((lx, y + r + 1), label, font=font, fill=INK, anchor="mt", stroke_width=2, stroke_fill=WHITE)
    return image


# --------------------------------------------------------------------------------------------------
# What changes: tokens, pawns, legend
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything the picture shows, hashable: the cache key of a finished PNG."""

    labels: tuple[tuple[str, str], ...]
    face_down: tuple[tuple[str, int], ...]  # (place, tokens face down there)
    revealed: tuple[tuple[str, str], ...]  # (place, kind), in flip order
    pawns: tuple[tuple[str | None, bool, tuple[str, ...]], ...]  # (node, captured, item kinds)
    names: tuple[str, ...]
    winner: int | None


def scene_of(view: View, ctx: RenderContext) -> Scene:
    counts: dict[str, int] = {}
    for pid, _tid in view.face_down:
        counts[pid] = counts.get(pid, 0) + 1
    pawns = tuple((p.node, p.captured, tuple(kind_of(i) for i in p.items)) for p in view.pawns)
    return Scene(
        labels=tuple((pid, place(pid, ctx.t)) for pid in PLACES),
        face_down=tuple(sorted(counts.items())),
        revealed=tuple((pid, kind_of(cid)) for pid, cid in view.revealed),
        pawns=pawns,
        names=tuple(ctx.name(s) for s in range(len(view.pawns))),
        winner=view.winner,
    )


def _star(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, fill: Any) -> None:
    from math import cos, pi, sin

    x, y = centre
    points = [
        (
            x + (r if i % 2 == 0 else r * 0.45) * sin(i * pi / 5),
            y - (r if i % 2 == 0 else r * 0.45) * cos(i * pi / 5),
        )
        for i in range(10)
    ]
    draw.polygon(points, fill=fill, outline=INK)


def _marker(draw: ImageDraw.ImageDraw, centre: tuple[float, float], kind: str) -> None:
    """What a flipped token was, as a small sign beside its place."""
    colour = TOKEN_COLOURS.get(kind, WHITE)
    x, y = centre
    if kind == "star":
        _star(draw, centre, 7, colour)
    elif kind in ("ruby", "emerald", "topaz"):
        draw.polygon([(x, y - 5), (x + 5, y), (x, y + 5), (x - 5, y)], fill=colour, outline=INK)
    elif kind == "robber":
        _dot(draw, centre, 4.5, colour, WHITE)
        draw.line([(x - 2.5, y - 2.5), (x + 2.5, y + 2.5)], fill=WHITE, width=1)
        draw.line([(x - 2.5, y + 2.5), (x + 2.5, y - 2.5)], fill=WHITE, width=1)
    elif kind == "horseshoe":
        draw.arc([x - 4.5, y - 4.5, x + 4.5, y + 4.5], -60, 240, fill=colour, width=3)  # a U open upward
    else:
        _dot(draw, centre, 4, colour, INK)


@lru_cache(maxsize=64)
def _png(scene: Scene) -> bytes:
    seats = len(scene.pawns)
    legend_h = MARGIN * 2 + LEGEND_ROW * ((seats + 1) // 2)
    image = Image.new("RGB", (BOARD_W, BOARD_H + legend_h), WHITE)
    image.paste(_static(scene.labels), (0, 0))
    draw = ImageDraw.Draw(image)
    for pid, count in scene.face_down:
        x, y = xy(pid)
        _dot(draw, (x, y), 5.5, TOKEN_BACK)
        if count > 1:  # a stack of two (the expansion): a second disc peeking out
            _dot(draw, (x + 3, y - 3), 4, TOKEN_BACK, WHITE)
    flipped_at: dict[str, int] = {}
    for pid, kind in scene.revealed:
        k = flipped_at.get(pid, 0)
        flipped_at[pid] = k + 1
        x, y = xy(pid)
        _marker(draw, (x + 12 + 10 * k, y - 9), kind)
    # pawns: several on one node stand side by side
    by_node: dict[str, list[int]] = {}
    for seat, (node, _captured, _items) in enumerate(scene.pawns):
        if node is not None:
            by_node.setdefault(node, []).append(seat)
    font = _font(10)
    for node, seated in by_node.items():
        x, y = xy(node)
        for i, seat in enumerate(seated):
            px = x - 7 * (len(seated) - 1) + 14 * i
            py = y - 14
            _, captured, items = scene.pawns[seat]
            _dot(
                draw,
                (px, py),
                7.5,
                SEAT_COLOURS[seat % len(SEAT_COLOURS)],
                INK if not captured else (0, 0, 0),
                3 if captured else 1,
            )
            draw.text((px, py), str(seat + 1), font=font, fill=WHITE, anchor="mm")
            if "star" in items:
                _star(draw, (px + 7, py - 8), 6, TOKEN_COLOURS["star"])
            elif items:
                _marker(draw, (px + 7, py - 8), "horseshoe")
    # legend: seat colour, number, name, the winning items
    font = _font(13)
    col_w = BOARD_W // 2
    for seat, name in enumerate(scene.names):
        cx = MARGIN + col_w * (seat % 2)
        cy = BOARD_H + MARGIN + LEGEND_ROW * (seat // 2) + LEGEND_ROW // 2
        _dot(draw, (cx + 9, cy), 8, SEAT_COLOURS[seat % len(SEAT_COLOURS)], INK)
        draw.text((cx + 9, cy), str(seat + 1), font=_font(10), fill=WHITE, anchor="mm")
        end = cx + 30 + draw.textlength(name, font=font)
        if scene.winner == seat:  # the winner's name on gold
            draw.rounded_rectangle([cx + 20, cy - 10, end, cy + 10], 5, fill=GOAL_FILL)
        draw.text((cx + 24, cy), name, font=font, fill=INK, anchor="lm")
        items = scene.pawns[seat][2]
        if "star" in items:
            _star(draw, (end + 4, cy), 7, TOKEN_COLOURS["star"])
        elif items:
            _marker(draw, (end + 4, cy), "horseshoe")
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def board_png(view: View, ctx: RenderContext) -> bytes:
    """The board of ``view`` (the public table) as a PNG for ``ctx``'s language and seat names."""
    return _png(scene_of(view, ctx))
