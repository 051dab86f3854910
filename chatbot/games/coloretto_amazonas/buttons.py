"""Coloretto Amazonas buttons: the label of each action, how they are laid out in rows, and which of
them the group may see.

Labels are commands too: the parser reads every label back as its action (DESIGN.md §4).
"""

from __future__ import annotations

from collections.abc import Sequence

from chatbot.core.gameui import RenderContext
from chatbot.games.coloretto_amazonas.render import marked_animal
from engines.codec import BadNotation
from engines.coloretto_amazonas.model import CODEC, GIFT, Accept, Give, Play, PublicView, Refuse


def label(notation: str, ctx: RenderContext) -> str:
    """A short label: "Pelaa 🟪 tukaani", "Anna 🟪 tukaani → Liisa", "Ota vastaan"."""
    t = ctx.t
    try:
        action = CODEC.read(notation)
    except BadNotation:
        return notation
    match action:
        case Play(kind=kind):
            return t.gettext("Play {card}").format(card=marked_animal(kind, t))
        case Give(kind=kind, to=to):
            return t.gettext("Give {card} → {name}").format(card=marked_animal(kind, t), name=ctx.name(to))
        case Accept():
            return t.gettext("Accept")
        case Refuse(remove=remove):
            return t.gettext("Refuse, discard {card}").format(card=marked_animal(remove, t))
    return notation


def phrase(notation: str, ctx: RenderContext) -> str | None:
    """The words after "You can" in a hint, one per kind of action."""
    t = ctx.t
    try:
        action = CODEC.read(notation)
    except BadNotation:
        return None
    match action:
        case Play():
            return t.gettext("play a card into your row")
        case Give():
            return t.gettext("give a card to another player")
        case Accept():
            return t.gettext("accept the card")
        case Refuse():
            return t.gettext("refuse it and discard an animal from a neighbouring row")
    return None


def rows(legal: Sequence[str], ctx: RenderContext) -> list[list[tuple[str, str]]]:
    """Plays on one row; gifts one row per receiver; accept first, then the refusals in pairs."""
    groups: dict[object, list[str]] = {}
    for notation in legal:
        action = CODEC.read(notation)
        key: object = ("give", action.to) if isinstance(action, Give) else type(action)
        groups.setdefault(key, []).append(notation)
    rows: list[list[tuple[str, str]]] = []
    for key, items in groups.items():
        width = 2 if key is Refuse else 3
        labelled = [(label(n, ctx), n) for n in items]
        rows.extend(labelled[i : i + width] for i in range(0, len(labelled), width))
    return rows


def for_group(legal: Sequence[str], public_view: PublicView) -> tuple[str, ...]:
    """A pending gift and the receiver's choices follow from public rows (spec §7.1); plays and
    gifts would list the hand, so those buttons stay in the private chat."""
    if public_view.phase == GIFT:
        return tuple(legal)
    return ()
