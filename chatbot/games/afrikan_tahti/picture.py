"""The Afrikan Tähti board as a picture (PNG), drawn from ``map.json`` and the public view.

The board scan itself is not ours to ship, so the picture is drawn from the map data: the continent
is the union of thick strokes along the land routes (blurred into a coastline), then air routes
(dashed), sea legs (dotted), land routes, dots, hazards and the places with their names. On top come
the tokens (face down: a disc in the colour of its layer, brown for the equipment layer and teal for
the discovery layer, a second disc peeking out under a stack of two; flipped: a coloured marker of
what it was), the pawns in the seat colours of the text table, the Star and horseshoe holders, and
a legend: per player the money, lost turns, the expedition's symbols towards 3/3/3 (2/2/2) as three
bars (red action, yellow resources, blue travel; ✓ when complete) and the number of hand cards;
then the rainy season and what the signs mean.

Only the public view goes in (:func:`scene_of` takes what the group may see and nothing else;
tests/chatbot/test_afrikan_tahti_picture.py checks that no seat's secret changes the scene).

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
from chatbot.games.afrikan_tahti.names import kind_of, money, place
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
TOKEN_BACK = (70, 48, 36)  # the equipment layer (and the base game's tokens)
DISCOVERY_BACK = (20, 110, 120)  # the discovery layer under it
ATTR_COLOURS = ((214, 48, 49), (230, 180, 20), (41, 98, 255))  # action, resources, travel
RAIN = (90, 120, 200)
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
    face_down: tuple[tuple[str, tuple[str, ...]], ...]  # (place, layers face down there, top first)
    revealed: tuple[tuple[str, str], ...]  # (place, kind), in flip order
    pawns: tuple[tuple[str | None, bool, tuple[str, ...]], ...]  # (node, captured, item kinds)
    names: tuple[str, ...]
    winner: int | None
    # per seat: (cash, lost turns, symbols, complete, hand count); () in the base game
    players: tuple[tuple[str, int, tuple[int, ...], bool, int], ...] = ()
    threshold: int = 3
    rain: str | None = None  # the rainy season's legend text while it lasts
    legend: tuple[str, ...] = ()  # the sign explanations, in the recipient's language


def scene_of(view: View, ctx: RenderContext) -> Scene:
    """The scene of a public view (``view.seat`` is None; a seat's own view would carry its hand)."""
    t = ctx.t
    layers: dict[str, list[str]] = {}
    for pid, tid in view.face_down:
        layers.setdefault(pid, []).append("discovery" if tid.startswith("d") else "equipment")
    pawns = tuple((p.node, p.captured, tuple(kind_of(i) for i in p.items)) for p in view.pawns)
    x = view.x
    players: tuple[tuple[str, int, tuple[int, ...], bool, int], ...] = ()
    legend = [t.gettext("equipment token"), t.gettext("discovery token")] if x is not None else []
    if x is not None:
        players = tuple(
            (money(pawn.cash, t), pawn.lost_turns, p.symbols, p.complete, p.hand_count)
            for pawn, p in zip(view.pawns, x.players, strict=False)
        )
        legend += [t.gettext("action"), t.gettext("resources"), t.gettext("travel"), t.gettext("hand cards")]
    else:
        players = tuple((money(pawn.cash, t), pawn.lost_turns, (), False, 0) for pawn in view.pawns)
        legend.append(t.gettext("token face down"))
    legend.append(t.gettext("turns to miss"))
    return Scene(
        labels=tuple((pid, place(pid, ctx.t)) for pid in PLACES),
        face_down=tuple(sorted((pid, tuple(sorted(ls, reverse=True))) for pid, ls in layers.items())),
        revealed=tuple((pid, kind_of(cid)) for pid, cid in view.revealed),
        pawns=pawns,
        names=tuple(ctx.name(s) for s in range(len(view.pawns))),
        winner=view.winner,
        players=players,
        threshold=x.threshold if x is not None else 3,
        rain=t.gettext("Rainy season: die moves on land are one step shorter")
        if x is not None and x.rain
        else None,
        legend=tuple(legend),
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


def _back(layer: str) -> tuple[int, int, int]:
    return DISCOVERY_BACK if layer == "discovery" else TOKEN_BACK


def _player_row(
    draw: ImageDraw.ImageDraw, scene: Scene, seat: int, at: tuple[float, float], font: Any
) -> None:
    """Money, lost turns, the expedition's three bars towards the threshold, the hand count."""
    cash, lost, symbols, complete, hand = scene.players[seat]
    x, y = at
    draw.text((x, y), cash, font=font, fill=INK, anchor="lm")
    x += 52
    if lost:
        draw.text((x, y), f"-{lost}", font=font, fill=PLACE_RING, anchor="lm")  # turns to miss
    x += 20
    k = scene.threshold
    for i, n in enumerate(symbols[:3]):
        for j in range(k):  # one box per symbol needed, filled when the expedition has it
            box = [x + j * 11, y - 10 + i * 7, x + j * 11 + 9, y - 5 + i * 7]
            draw.rectangle(box, fill=ATTR_COLOURS[i] if j < n else WHITE, outline=ATTR_COLOURS[i])
    x += 11 * k + 4
    if complete:
        draw.line([(x, y), (x + 3, y + 4), (x + 9, y - 5)], fill=(30, 160, 70), width=3)
    x += 14
    if symbols or hand:
        draw.rectangle([x, y - 7, x + 9, y + 6], fill=WHITE, outline=INK)  # a hand card
        draw.text((x + 13, y), str(hand), font=font, fill=INK, anchor="lm")


def _legend_rows(draw: ImageDraw.ImageDraw, scene: Scene, top: float, font: Any) -> None:
    """The rainy season, and what the token discs, bars and card mean."""
    y = top + LEGEND_ROW // 2
    x: float = MARGIN
    if scene.rain:
        draw.rectangle([x, y - 8, x + 16, y + 8], fill=RAIN)
        draw.text((x + 22, y), scene.rain, font=font, fill=INK, anchor="lm")
        y += LEGEND_ROW
    swatches: list[tuple[str, Any]] = [("disc", TOKEN_BACK)]
    if len(scene.legend) > 2:  # the expansion's layers, bars and hand cards
        swatches += [("disc", DISCOVERY_BACK), *(("bar", c) for c in ATTR_COLOURS), ("card", INK)]
    swatches.append(("lost", PLACE_RING))
    for (shape, colour), text in zip(swatches, scene.legend, strict=False):
        if shape == "disc":
            _dot(draw, (x + 6, y), 5.5, colour, WHITE)
        elif shape == "lost":
            draw.text((x, y), "-1", font=font, fill=colour, anchor="lm")
        elif shape == "bar":
            draw.rectangle([x + 1, y - 3, x + 11, y + 3], fill=colour)
        else:
            draw.rectangle([x + 2, y - 7, x + 11, y + 6], fill=WHITE, outline=colour)
        draw.text((x + 16, y), text, font=font, fill=INK, anchor="lm")
        x += 22 + draw.textlength(text, font=font) + 10
        if x > BOARD_W - 120:
            x, y = MARGIN, y + LEGEND_ROW


@lru_cache(maxsize=64)
def _png(scene: Scene) -> bytes:
    seats = len(scene.pawns)
    legend_h = MARGIN * 2 + LEGEND_ROW * ((seats + 1) // 2 + 2 + (1 if scene.rain else 0))
    image = Image.new("RGB", (BOARD_W, BOARD_H + legend_h), WHITE)
    image.paste(_static(scene.labels), (0, 0))
    draw = ImageDraw.Draw(image)
    for pid, layers in scene.face_down:
        x, y = xy(pid)
        if len(layers) > 1:  # a stack of two (the expansion): the lower disc peeking out
            _dot(draw, (x + 4, y + 4), 4.5, _back(layers[1]), WHITE)
        _dot(draw, (x, y), 5.5, _back(layers[0]), WHITE)
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
    # legend: seat colour, number, name, the winning items, money, lost turns, expedition, hand
    font = _font(13)
    small = _font(11)
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
        if seat < len(scene.players):
            _player_row(draw, scene, seat, (cx + 118, cy), small)
    _legend_rows(draw, scene, BOARD_H + MARGIN + LEGEND_ROW * ((len(scene.names) + 1) // 2), small)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def board_png(view: View, ctx: RenderContext) -> bytes:
    """The board of ``view`` (the public table) as a PNG for ``ctx``'s language and seat names."""
    assert view.seat is None, "the picture is drawn from the public view only"
    return _png(scene_of(view, ctx))
