"""The Afrikan Tähti board for the web view: the chat picture's own scene (:func:`scene_of`, made
from the public view only) drawn as SVG over the chat picture's static map (sea, land, routes,
places and their names: served once per language as ``board.png``), with the players' rows as HTML
below it, so a phone can zoom the map and read the rows at its own size."""

from __future__ import annotations

import io
from functools import lru_cache
from math import cos, pi, sin

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.games.afrikan_tahti import picture as board
from chatbot.games.afrikan_tahti.names import place, token_word
from chatbot.web.pictures import Picture, esc, svg
from engines.afrikan_tahti.board import PLACE, PLACES
from engines.afrikan_tahti.model import View


def _rgb(colour: tuple[int, int, int]) -> str:
    r, g, b = colour
    return f"#{r:02x}{g:02x}{b:02x}"


@lru_cache(maxsize=4)
def board_png(lang: str) -> bytes:
    """The static map with the place names in ``lang`` (the chat picture's own layer)."""
    t = translator(lang)
    image = board._static(tuple((pid, place(pid, t)) for pid in PLACES))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


ASSETS = {"board.png": board_png}


def _star(x: float, y: float, r: float, fill: str) -> str:
    points = " ".join(
        f"{x + (r if i % 2 == 0 else r * 0.45) * sin(i * pi / 5):.1f},"
        f"{y - (r if i % 2 == 0 else r * 0.45) * cos(i * pi / 5):.1f}"
        for i in range(10)
    )
    return f'<polygon points="{points}" fill="{fill}" stroke="#221e1c"/>'


def _marker(x: float, y: float, kind: str, title: str) -> str:
    """What a flipped token was, as the chat picture draws it."""
    colour = _rgb(board.TOKEN_COLOURS.get(kind, board.WHITE))
    if kind == "star":
        shape = _star(x, y, 7, colour)
    elif kind in ("ruby", "emerald", "topaz"):
        shape = f'<polygon points="{x},{y - 5} {x + 5},{y} {x},{y + 5} {x - 5},{y}" fill="{colour}" stroke="#221e1c"/>'
    elif kind == "robber":
        shape = f'<circle cx="{x}" cy="{y}" r="4.5" fill="{colour}" stroke="#fff"/>'
    elif kind == "horseshoe":
        shape = f'<path d="M{x - 4},{y - 3} A4.5,4.5 0 1 0 {x + 4},{y - 3}" fill="none" stroke="{colour}" stroke-width="3"/>'
    elif kind == "expedition":
        shape = (
            f'<rect x="{x - 4}" y="{y - 4}" width="8" height="9" rx="2" fill="{colour}" stroke="#221e1c"/>'
        )
    elif kind == "danger":
        shape = f'<ellipse cx="{x}" cy="{y}" rx="5" ry="4.5" fill="{colour}" stroke="#221e1c"/>'
    else:
        shape = f'<circle cx="{x}" cy="{y}" r="4" fill="{colour}" stroke="#221e1c"/>'
    return f'<g class="flipped"><title>{esc(title)}</title>{shape}</g>'


def picture(view: View, ctx: RenderContext) -> Picture:
    assert view.seat is None, "the picture is drawn from the public view only"
    t = ctx.t
    scene = board.scene_of(view, ctx)
    parts = [
        f'<image href="asset/afrikan_tahti/board.png?lang={esc(t.lang)}" x="0" y="0" '
        f'width="{board.BOARD_W}" height="{board.BOARD_H}"/>'
    ]
    down_word = t.gettext("token face down")
    for pid, layers in scene.face_down:
        x, y = board.xy(pid)
        if len(layers) > 1:
            parts.append(
                f'<circle class="token" cx="{x + 4:.1f}" cy="{y + 4:.1f}" r="4.5" '
                f'fill="{_rgb(board._back(layers[1]))}" stroke="#fff"/>'
            )
        parts.append(
            f'<circle class="token" cx="{x:.1f}" cy="{y:.1f}" r="5.5" fill="{_rgb(board._back(layers[0]))}" '
            f'stroke="#fff"><title>{esc(place(pid, t))}: {esc(down_word)}</title></circle>'
        )
    flipped_at: dict[str, int] = {}
    for pid, kind in scene.revealed:
        k = flipped_at.get(pid, 0)
        flipped_at[pid] = k + 1
        x, y = board.xy(pid)
        parts.append(_marker(x + 12 + 10 * k, y - 9, kind, f"{place(pid, t)}: {token_word(kind, t)}"))
    by_node: dict[str, list[int]] = {}
    for seat, (node, _captured, _items) in enumerate(scene.pawns):
        if node is not None:
            by_node.setdefault(node, []).append(seat)
    for node, seated in by_node.items():
        x, y = board.xy(node)
        for i, seat in enumerate(seated):
            px, py = x - 7 * (len(seated) - 1) + 14 * i, y - 14
            _node, captured, items = scene.pawns[seat]
            colour = _rgb(board.SEAT_COLOURS[seat % len(board.SEAT_COLOURS)])
            ring = 'stroke="#000" stroke-width="3"' if captured else 'stroke="#221e1c"'
            parts.append(
                f'<g class="pawn" data-seat="{seat}"><title>{esc(scene.names[seat])}</title>'
                f'<circle cx="{px:.1f}" cy="{py:.1f}" r="7.5" fill="{colour}" {ring}/>'
                f'<text x="{px:.1f}" y="{py + 3.5:.1f}" text-anchor="middle" font-size="10" font-weight="bold" '
                f'fill="#fff">{seat + 1}</text></g>'
            )
            if "star" in items:
                parts.append(_star(px + 7, py - 8, 6, _rgb(board.TOKEN_COLOURS["star"])))
            elif items:
                parts.append(_marker(px + 7, py - 8, "horseshoe", token_word("horseshoe", t)))
            if scene.danger_seat == seat:
                parts.append(
                    f'<polygon points="{px - 9},{py - 15} {px - 3},{py - 4} {px - 15},{py - 4}" '
                    f'fill="{_rgb(board.DANGER)}" stroke="#221e1c"/>'
                )
    alt = _alt(view, scene, ctx)
    rows = _rows(scene, ctx)
    return Picture(svg(board.BOARD_W, board.BOARD_H, "".join(parts), alt) + rows, alt)


def _where(node: str | None, ctx: RenderContext) -> str:
    if node is None:
        return ctx.t.gettext("off the board")
    return place(node, ctx.t) if node in PLACE else ctx.t.gettext("on the way")


def _alt(view: View, scene: board.Scene, ctx: RenderContext) -> str:
    """The map in words: where each pawn is, how many tokens lie face down and which are turned."""
    t = ctx.t
    pawns = t.format_list(
        [f"{scene.names[s]} ({s + 1}): {_where(node, ctx)}" for s, (node, _c, _i) in enumerate(scene.pawns)]
    )
    down = len(view.face_down)
    lines = [
        t.gettext("Map of Africa. Pawns: {pawns}.").format(pawns=pawns),
        t.ngettext("{n} token lies face down.", "{n} tokens lie face down.", down).format(n=down),
    ]
    if scene.revealed:
        turned = t.format_list([f"{token_word(k, t)} ({place(p, t)})" for p, k in scene.revealed])
        lines.append(t.gettext("Turned: {tokens}.").format(tokens=turned))
    return " ".join(lines)


def _rows(scene: board.Scene, ctx: RenderContext) -> str:
    """Per seat: colour, name, money, turns to miss, the expedition's symbols, hand cards, character."""
    t = ctx.t
    out = ['<table class="seats">']
    for seat, name in enumerate(scene.names):
        colour = _rgb(board.SEAT_COLOURS[seat % len(board.SEAT_COLOURS)])
        winner = ' class="winner"' if scene.winner == seat else ""
        cells = [
            f'<td><span class="dot" style="background:{colour}">{seat + 1}</span></td>',
            f"<td{winner}>{esc(name)}"
            + (
                f"<br><small>{esc(scene.characters[seat])}</small>"
                if seat < len(scene.characters) and scene.characters[seat]
                else ""
            )
            + "</td>",
        ]
        if seat < len(scene.players):
            cash, lost, symbols, complete, hand = scene.players[seat]
            cells.append(f"<td>{esc(cash)}</td>")
            cells.append(
                f"<td>{esc(t.ngettext('misses {n} turn', 'misses {n} turns', lost).format(n=lost)) if lost else ''}</td>"
            )
            if symbols:
                bars = " ".join(
                    f'<span class="bar b{i}" title="{esc(word)}">{n}/{scene.threshold}</span>'
                    for i, (n, word) in enumerate(
                        zip(
                            symbols,
                            (t.gettext("action"), t.gettext("resources"), t.gettext("travel")),
                            strict=False,
                        )
                    )
                )
                cells.append(f"<td>{bars}{' ✓' if complete else ''}</td>")
                cells.append(f'<td title="{esc(t.gettext("hand cards"))}">🂠 {hand}</td>')
        out.append(f"<tr>{''.join(cells)}</tr>")
    out.append("</table>")
    if scene.danger:
        out.append(f'<p class="danger">⚠️ {esc(scene.danger)}</p>')
    if scene.rain:
        out.append(f'<p class="rain">🌧️ {esc(scene.rain)}</p>')
    return "".join(out)
