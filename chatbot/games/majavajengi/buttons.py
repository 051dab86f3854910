"""Majavajengi's buttons: the label of each action, how the buttons are laid out in rows, and which
of them the group may see.
"""

from __future__ import annotations

from collections.abc import Sequence

from chatbot.core.gameui import RenderContext
from engines.codec import BadNotation
from engines.majavajengi.model import (
    CODEC,
    Action,
    Discard,
    Draw,
    Draw2,
    End,
    Knock,
    MajavajengiView,
    Next,
    Peek,
    Replace,
    Stop,
    Swap,
    Take,
)

ROW_WIDTH = 4
SWAP_ROW_WIDTH = 2  # a Swap's label names two cards and a player: four to a row would be cut short


def _action(notation: str) -> Action | None:
    try:
        action: Action = CODEC.read(notation)
    except BadNotation:
        return None
    return action


def label(notation: str, view: MajavajengiView, ctx: RenderContext) -> str:
    t = ctx.t
    match _action(notation):
        case Draw():
            return t.gettext("Draw")
        case Take(pos):
            return t.gettext("Take discard → {pos}").format(pos=pos)
        case Replace(pos):
            return t.gettext("Put in place {pos}").format(pos=pos)
        case Discard():
            return t.gettext("Discard")
        case Peek(pos):
            return t.gettext("Peek at {pos}").format(pos=pos)
        case Swap(own, other, pos):
            # "card" says what the second number is: "My 1 ↔ Botti 1 1" read as three numbers
            return t.gettext("My {own} ↔ {name}, card {pos}").format(own=own, name=ctx.name(other), pos=pos)
        case Draw2():
            return t.gettext("Use Draw 2")
        case Next():
            return t.gettext("Draw again")
        case Stop():
            return t.gettext("Stop drawing")
        case Knock():
            return t.gettext("Knock")
        case End():
            return t.gettext("End turn")
    return notation


def phrase(notation: str, ctx: RenderContext) -> str | None:
    """The words after "You can" in a hint, one per kind of action: "take the top discard into your
    row", "end your turn"."""
    t = ctx.t
    match _action(notation):
        case Draw():
            return t.gettext("draw a card")
        case Take():
            return t.gettext("take the top discard into your row")
        case Replace():
            return t.gettext("put the drawn card into your row")
        case Discard():
            return t.gettext("discard it")
        case Peek():
            return t.gettext("peek at one of your cards")
        case Swap():
            return t.gettext("swap a card with another player")
        case Draw2():
            return t.gettext("use the Draw 2")
        case Next():
            return t.gettext("draw once more")
        case Stop():
            return t.gettext("stop drawing")
        case Knock():
            return t.gettext("knock")
        case End():
            return t.gettext("end your turn")
    return None


def rows(legal: Sequence[str], view: MajavajengiView, ctx: RenderContext) -> list[list[tuple[str, str]]]:
    """One group of rows per kind of action (a Swap's per opponent), at most four buttons a row;
    groups of one button share a row."""
    groups: dict[object, list[str]] = {}
    for n in legal:
        action = _action(n)
        key: object = (Swap, action.other_seat) if isinstance(action, Swap) else type(action) if action else n
        groups.setdefault(key, []).append(n)
    out: list[list[tuple[str, str]]] = []
    for key, items in groups.items():
        row = [(label(n, view, ctx), n) for n in items]
        width = SWAP_ROW_WIDTH if isinstance(key, tuple) else ROW_WIDTH
        for i in range(0, len(row), width):
            out.append(row[i : i + width])
    merged: list[list[tuple[str, str]]] = []
    for r in out:
        if merged and len(r) == 1 and len(merged[-1]) == 1:
            merged[-1].extend(r)
        else:
            merged.append(r)
    return merged


def for_group(legal: Sequence[str], public_view: MajavajengiView) -> tuple[str, ...]:
    """Before drawing and at the end of the turn every legal action follows from public facts; while
    a drawn card is held, the possible actions would reveal what it is."""
    if public_view.phase in {"start", "turn_end"}:
        return tuple(legal)
    return ()
