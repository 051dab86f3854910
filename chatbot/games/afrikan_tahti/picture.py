"""The Afrikan Tähti board as a picture (PNG), drawn from ``map.json`` and the public view.

The board scan itself is not ours to ship, so the picture is drawn from the map data: the continent
is the union of thick strokes along the land routes (blurred into a coastline), then air routes
(dashed), sea legs (dotted), land routes, dots, hazards and the places with their names. On top come
the tokens (face down: a disc in the colour of its layer, brown for the equipment layer and teal for
the discovery layer, a second disc peeking out under a stack of two; flipped: a sign of what it was,
beside the place), the pawns in the seat colours of the text table, the Star and horseshoe holders,
and a warning sign beside a pawn in a danger situation. Under the board: per player the money, lost
turns, the expedition's symbols towards 3/3/3 (2/2/2) as three bars (red action, yellow resources,
blue travel; ✓ when complete), the number of hand cards and, under the name, the character; then the
danger in progress and the rainy season in words, and a legend with an entry for every sign drawn.

Only the public view goes in (:func:`scene_of` takes what the group may see and nothing else;
tests/chatbot/test_afrikan_tahti_picture.py checks that no seat's secret changes the scene).

Speed: the static layer (everything but tokens, pawns and the rows under the board) and the legend
are drawn once per language, a finished picture is cached by everything it shows, so the same
position never draws twice, and the PNG maps onto a palette made once (256 colours: half the bytes,
a third of the encoding time of a full-colour PNG). The picture shows no roll and no phase, so it
changes only when something on the board changes, or a danger begins or ends.

Fonts: DejaVu Sans when the system has it, else Pillow's built-in font (which lacks ä and ö).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageOps

from chatbot.core.gameui import RenderContext
from chatbot.games.afrikan_tahti.cards_generated import FACES
from chatbot.games.afrikan_tahti.names import card_name, kind_of, money, place, token_word
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
HAZARD_FILL = (255, 230, 230)
DANGER = (250, 150, 30)  # the warning triangle of a danger in progress
COMPLETE = (30, 160, 70)  # the tick of a complete expedition
CHARACTER_INK = (90, 80, 70)
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
    "expedition": (150, 160, 60),  # a backpack (Retkikunnat)
    "danger": (150, 40, 120),  # a mask (Retkikunnat)
}


@lru_cache(maxsize=8)
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
            _dot(draw, xy(node), 6, HAZARD_FILL, PLACE_RING, 2)
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

#: the flipped-token markers the legend explains, in the table's order (valuable first)
BASE_MARKERS = ("star", "ruby", "emerald", "topaz", "horseshoe", "robber", "blank")
EXPANSION_MARKERS = ("star", "ruby", "emerald", "topaz", "horseshoe", "robber", "expedition", "danger")


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
    marks: tuple[str, ...] = ()  # the sign each explanation is drawn with (:func:`_mark`); "" a heading
    characters: tuple[str, ...] = ()  # per seat: the character's name ("" before the choice)
    danger: str | None = None  # the danger situation in progress, in words
    danger_seat: int | None = None  # whose pawn faces it


def scene_of(view: View, ctx: RenderContext) -> Scene:
    """The scene of a public view (``view.seat`` is None; a seat's own view would carry its hand)."""
    t = ctx.t
    layers: dict[str, list[str]] = {}
    for pid, tid in view.face_down:
        layers.setdefault(pid, []).append("discovery" if tid.startswith("d") else "equipment")
    pawns = tuple((p.node, p.captured, tuple(kind_of(i) for i in p.items)) for p in view.pawns)
    x = view.x
    players: tuple[tuple[str, int, tuple[int, ...], bool, int], ...] = ()
    characters: tuple[str, ...] = ()
    danger = danger_seat = None
    if x is not None:
        players = tuple(
            (money(pawn.cash, t), pawn.lost_turns, p.symbols, p.complete, p.hand_count)
            for pawn, p in zip(view.pawns, x.players, strict=False)
        )
        characters = tuple(card_name(p.character, t) if p.character else "" for p in x.players)
        if x.danger is not None:
            d = x.danger
            danger_seat = d.seat
            danger = t.gettext("Danger: {name} faces {card}, needs {needs}").format(
                name=ctx.name(d.seat),
                card=card_name(d.card, t),
                needs=t.format_list([f"{int(n)}× {t.gettext(FACES.get(f, f))}" for f, n in d.requires]),
            )
    else:
        players = tuple((money(pawn.cash, t), pawn.lost_turns, (), False, 0) for pawn in view.pawns)
    legend = _legend(x is not None, view.options.quick_game, t)
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
        legend=tuple(text for _mark, text in legend),
        marks=tuple(mark for mark, _text in legend),
        characters=characters,
        danger=danger,
        danger_seat=danger_seat,
    )


def _legend(expansion: bool, quick: bool, t: Any) -> list[tuple[str, str]]:
    """(sign, explanation) of every sign the picture may show: face-down tokens (the quick game has
    no equipment layer), what a flipped token was (also above a pawn that carries the Star or a
    horseshoe), the map's signs, and the players' rows."""
    out: list[tuple[str, str]] = []
    if expansion:
        if not quick:
            out.append(("equipment", t.gettext("equipment token")))
        out.append(("discovery", t.gettext("discovery token")))
    else:
        out.append(("down", t.gettext("token face down")))
    out.append(("", t.pgettext("legend", "Flipped:")))
    out += [(kind, token_word(kind, t)) for kind in (EXPANSION_MARKERS if expansion else BASE_MARKERS)]
    out += [
        ("goal", t.pgettext("legend", "start and goal")),
        ("place", t.pgettext("legend", "place")),
        ("hazard", t.pgettext("legend", "bedouins or pirates")),
        ("captured", t.pgettext("legend", "captured")),
    ]
    if expansion:
        out += [
            ("bar0", t.gettext("action")),
            ("bar1", t.gettext("resources")),
            ("bar2", t.gettext("travel")),
            ("complete", t.pgettext("legend", "expedition complete")),
            ("card", t.gettext("hand cards")),
        ]
    out.append(("lost", t.gettext("turns to miss")))
    return out


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
    elif kind == "expedition":  # a backpack: a bag with a flap
        draw.rounded_rectangle([x - 4, y - 4, x + 4, y + 5], 2, fill=colour, outline=INK)
        draw.line([(x - 4, y - 1), (x + 4, y - 1)], fill=INK, width=1)
    elif kind == "danger":  # a mask: a face with two eye holes
        draw.ellipse([x - 5, y - 4, x + 5, y + 5], fill=colour, outline=INK)
        _dot(draw, (x - 2, y - 0.5), 1.2, WHITE)
        _dot(draw, (x + 2, y - 0.5), 1.2, WHITE)
    else:
        _dot(draw, centre, 4, colour, INK)


def _warning(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    """The danger in progress: a warning triangle with an exclamation mark."""
    x, y = centre
    draw.polygon([(x, y - r), (x + r, y + r * 0.8), (x - r, y + r * 0.8)], fill=DANGER, outline=INK)
    draw.line([(x, y - r * 0.35), (x, y + r * 0.25)], fill=INK, width=2)
    _dot(draw, (x, y + r * 0.55), 1.1, INK)


def _mark(draw: ImageDraw.ImageDraw, mark: str, at: tuple[float, float], font: Any) -> None:
    """A legend sign, centred 6 px right of ``at``'s x."""
    x, y = at
    centre = (x + 6, y)
    if mark in ("equipment", "down"):
        _dot(draw, centre, 5.5, TOKEN_BACK, WHITE)
    elif mark == "discovery":
        _dot(draw, centre, 5.5, DISCOVERY_BACK, WHITE)
    elif mark in TOKEN_COLOURS:
        _marker(draw, centre, mark)
    elif mark == "goal":
        _dot(draw, centre, 6, GOAL_FILL, PLACE_RING, 2)
    elif mark == "place":
        _dot(draw, centre, 5, WHITE, PLACE_RING, 2)
    elif mark == "hazard":
        _dot(draw, centre, 5.5, HAZARD_FILL, PLACE_RING, 2)
        _dot(draw, centre, 1.8, PLACE_RING)
    elif mark == "captured":
        _dot(draw, centre, 6, SEAT_COLOURS[0], (0, 0, 0), 3)
    elif mark.startswith("bar"):
        draw.rectangle([x + 1, y - 3, x + 11, y + 3], fill=ATTR_COLOURS[int(mark[3:])])
    elif mark == "complete":
        draw.line([(x + 1, y), (x + 4, y + 4), (x + 10, y - 5)], fill=COMPLETE, width=3)
    elif mark == "card":
        draw.rectangle([x + 2, y - 7, x + 11, y + 6], fill=WHITE, outline=INK)
    elif mark == "lost":
        draw.text((x, y), "-1", font=font, fill=PLACE_RING, anchor="lm")


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
        draw.line([(x, y), (x + 3, y + 4), (x + 9, y - 5)], fill=COMPLETE, width=3)
    x += 14
    if symbols or hand:
        draw.rectangle([x, y - 7, x + 9, y + 6], fill=WHITE, outline=INK)  # a hand card
        draw.text((x + 13, y), str(hand), font=font, fill=INK, anchor="lm")


def _legend_lines(legend: tuple[tuple[str, str], ...], font: Any) -> list[list[tuple[float, str, str]]]:
    """The legend's (x, sign, text) laid out in lines that fit the picture's width."""
    lines: list[list[tuple[float, str, str]]] = [[]]
    x: float = MARGIN
    for mark, text in legend:
        width = (16 if mark else 0) + font.getlength(text) + 12
        if x + width > BOARD_W - MARGIN and lines[-1]:
            lines.append([])
            x = MARGIN
        lines[-1].append((x, mark, text))
        x += width
    return lines


@lru_cache(maxsize=8)
def _legend_block(legend: tuple[tuple[str, str], ...]) -> Image.Image:
    """The sign explanations (the same for a whole game in one language), drawn once."""
    font = _font(11)
    lines = _legend_lines(legend, font)
    image = Image.new("RGB", (BOARD_W, LEGEND_ROW * len(lines)), WHITE)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        y = row * LEGEND_ROW + LEGEND_ROW // 2
        for x, mark, text in line:
            if mark:
                _mark(draw, mark, (x, y), font)
            draw.text((x + (16 if mark else 0), y), text, font=font, fill=INK, anchor="lm")
    return image


def _player_height(scene: Scene) -> int:
    """One legend row per two seats; a second line under each name for the character."""
    return _row_height(scene) * ((len(scene.names) + 1) // 2)


def _row_height(scene: Scene) -> int:
    return LEGEND_ROW + 14 if any(scene.characters) else LEGEND_ROW


@lru_cache(maxsize=64)
def _png(scene: Scene) -> bytes:
    legend = _legend_block(tuple(zip(scene.marks, scene.legend, strict=True)))
    extra = (1 if scene.rain else 0) + (1 if scene.danger else 0)
    legend_h = MARGIN * 2 + _player_height(scene) + LEGEND_ROW * extra + legend.height
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
            if scene.danger_seat == seat:
                _warning(draw, (px - 9, py - 9), 6)
    # legend: seat colour, number, name, the winning items, money, lost turns, expedition, hand;
    # the character under the name
    font = _font(13)
    small = _font(11)
    col_w = BOARD_W // 2
    row_h = _row_height(scene)
    for seat, name in enumerate(scene.names):
        cx = MARGIN + col_w * (seat % 2)
        cy = BOARD_H + MARGIN + row_h * (seat // 2) + LEGEND_ROW // 2
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
        if seat < len(scene.characters) and scene.characters[seat]:
            draw.text((cx + 24, cy + 15), scene.characters[seat], font=small, fill=CHARACTER_INK, anchor="lm")
    y = BOARD_H + MARGIN + _player_height(scene) + LEGEND_ROW // 2
    if scene.danger:
        _warning(draw, (MARGIN + 8, y), 8)
        draw.text((MARGIN + 22, y), scene.danger, font=small, fill=INK, anchor="lm")
        y += LEGEND_ROW
    if scene.rain:
        draw.rectangle([MARGIN, y - 8, MARGIN + 16, y + 8], fill=RAIN)
        draw.text((MARGIN + 22, y), scene.rain, font=small, fill=INK, anchor="lm")
        y += LEGEND_ROW
    image.paste(legend, (0, round(y - LEGEND_ROW // 2)))
    # a palette of 256 colours holds this flat drawing: the PNG is half the size of the full-colour
    # one, and mapping onto a palette made once encodes in a third of the time
    out = io.BytesIO()
    image.quantize(palette=_palette(scene.labels), dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=3
    )
    return out.getvalue()


@lru_cache(maxsize=4)
def _palette(labels: tuple[tuple[str, str], ...]) -> Image.Image:
    """The picture's 256 colours: every colour this module draws with, exactly, and the rest from
    the static layer (the coast, the names' anti-aliased edges)."""
    fixed = list(
        dict.fromkeys(
            (
                WHITE,
                INK,
                (0, 0, 0),
                SEA,
                LAND_FILL,
                COAST,
                ROUTE,
                SEA_ROUTE,
                AIR_ROUTE,
                PLACE_RING,
                GOAL_FILL,
                HAZARD_FILL,
                TOKEN_BACK,
                DISCOVERY_BACK,
                RAIN,
                DANGER,
                COMPLETE,
                CHARACTER_INK,
                *ATTR_COLOURS,
                *SEAT_COLOURS,
                *TOKEN_COLOURS.values(),
            )
        )
    )
    rest = _static(labels).quantize(colors=256 - len(fixed), method=Image.Quantize.FASTOCTREE)
    palette = Image.new("P", (1, 1))
    palette.putpalette(
        [c for rgb in fixed for c in rgb] + (rest.getpalette() or [])[: 3 * (256 - len(fixed))]
    )
    return palette


def board_png(view: View, ctx: RenderContext) -> bytes:
    """The board of ``view`` (the public table) as a PNG for ``ctx``'s language and seat names."""
    assert view.seat is None, "the picture is drawn from the public view only"
    return _png(scene_of(view, ctx))
