"""The public table of a match as a picture for the web view: SVG or HTML made from the PUBLIC view
only (``view(state, None)``), in the viewer's language, with a text alternative.

A game draws its own picture in a module of this package named after its id (``afrikan_tahti.py``:
``picture(view, ctx) -> Picture`` and, where it needs them, ``ASSETS``: name -> ``(lang) -> bytes``
for pictures it references by address). A game without such a module (a fifth game, at first) gets
its chat table as text: every registered game has a table in the view.
"""

from __future__ import annotations

import html
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Any

from chatbot.core.gameui import GameUI, RenderContext


@dataclass(frozen=True, slots=True)
class Picture:
    """Markup for the page (SVG, maybe with HTML beside it) and its short text alternative."""

    html: str
    alt: str


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


@lru_cache(maxsize=32)
def _module(game: str) -> ModuleType | None:
    if not game.isidentifier():
        return None
    try:
        return importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as exc:
        if exc.name == f"{__name__}.{game}":
            return None
        raise


def has_picture(game: str) -> bool:
    return _module(game) is not None


def picture(game: str, ui: GameUI, public_view: Any, ctx: RenderContext) -> Picture:
    """The table of ``public_view`` for ``ctx``'s language (its seat must be None: the public table)."""
    assert ctx.seat is None, "the picture shows the public table only"
    module = _module(game)
    if module is not None:
        made: Picture = module.picture(public_view, ctx)
        return made
    text = ui.render_table(public_view, ctx)
    return Picture(f'<pre class="table-text">{esc(text)}</pre>', ui.title(ctx.t))


def asset(game: str, name: str, lang: str) -> bytes | None:
    """A file a game's picture refers to (the Afrikan Tähti map under the pieces), or None."""
    module = _module(game)
    assets: dict[str, Callable[[str], bytes]] = getattr(module, "ASSETS", {}) if module else {}
    make = assets.get(name)
    return make(lang) if make is not None else None


def card(x: float, y: float, w: float, h: float, fill: str, label: str, title: str, ink: str = "#222") -> str:
    """A card: a rounded rectangle with a short label and its full name as the tooltip/title; a label
    too long for the card is squeezed to its width."""
    fit = f' textLength="{w - 6:.0f}" lengthAdjust="spacingAndGlyphs"' if len(label) * 6.2 > w - 6 else ""
    return (
        f'<g class="card"><title>{esc(title)}</title>'
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{h:.0f}" rx="4" fill="{fill}" stroke="#333"/>'
        f'<text x="{x + w / 2:.0f}" y="{y + h / 2 + 4:.0f}" text-anchor="middle" font-size="11" fill="{ink}"{fit}>'
        f"{esc(label)}</text></g>"
    )


def back(x: float, y: float, w: float, h: float, title: str) -> str:
    """A card face down."""
    return (
        f'<g class="card down"><title>{esc(title)}</title>'
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{h:.0f}" rx="4" fill="#4b3a6b" stroke="#222"/>'
        f'<rect x="{x + 4:.0f}" y="{y + 4:.0f}" width="{w - 8:.0f}" height="{h - 8:.0f}" rx="3" fill="none" '
        f'stroke="#b9a6e0" stroke-dasharray="3 2"/></g>'
    )


def svg(width: float, height: float, body: str, alt: str) -> str:
    return (
        f'<svg class="board" viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{esc(alt)}" '
        f'xmlns="http://www.w3.org/2000/svg" font-family="DejaVu Sans, sans-serif">{body}</svg>'
    )


def bare(name: str) -> str:
    """A bracketed chat card name without its brackets, for a label on a card: "[7]" -> "7"."""
    return name[1:-1] if name.startswith("[") and name.endswith("]") else name
