"""Gnav's buttons: the label of each move, which moves the group may see, and the move made for an idle
person. Rows are the default ones of :class:`chatbot.core.gameui.GameUI` (one button per move)."""

from __future__ import annotations

from collections.abc import Sequence

from chatbot.core.gameui import RenderContext
from engines.gnav.model import MATADORS, TURN, Ask, Keep, Knock, View, rank_of


def action_label(notation: str, view: View | None, ctx: RenderContext) -> str:
    """The label of a legal move for the viewer of ``view`` (the group's buttons get the public view)."""
    t = ctx.t
    match notation:
        case Keep.NOTATION:
            return t.pgettext("gnav", "Keep")
        case Knock.NOTATION:
            return t.pgettext("gnav", "Knock knock")
        case Ask.NOTATION:
            dealer = view is not None and view.phase == TURN and view.order[view.turn] == view.dealer
            own = view.own_card if view is not None and view.seat is not None else None
            if own is not None and rank_of(own) in MATADORS:
                # a press is deliberate, so the label itself is the confirmation of spec G9
                if dealer:
                    return t.pgettext("gnav", "Swap with the stock (give the matador away)")
                return t.pgettext("gnav", "Swap (give the matador away)")
            if dealer:
                return t.pgettext("gnav", "Swap with the stock")
            return t.pgettext("gnav", "Swap")
    return notation


def action_phrase(notation: str, view: View | None, ctx: RenderContext) -> str | None:
    """The words after "You can" in a hint: "keep your card", "ask for a swap"."""
    t = ctx.t
    match notation:
        case Keep.NOTATION:
            return t.pgettext("gnav", "keep your card")
        case Knock.NOTATION:
            return t.pgettext("gnav", "knock")
        case Ask.NOTATION:
            if view is not None and view.phase == TURN and view.order[view.turn] == view.dealer:
                return t.pgettext("gnav", "swap with the stock")
            return t.pgettext("gnav", "ask for a swap")
    return None


def group_actions(legal: Sequence[str]) -> tuple[str, ...]:
    """Keeping or asking says nothing about the card; a knock would show the fool, so it stays private."""
    return tuple(n for n in legal if n != Knock.NOTATION)


def idle_action(legal: Sequence[str]) -> str | None:
    """Spec §4 and G24: a fool not yet shown is knocked for its holder; a turn is played by the normal AI."""
    return Knock.NOTATION if Knock.NOTATION in legal else None
