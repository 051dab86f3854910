"""Answers about one's own situation in Afrikan tähti (issue #15): money, places and who holds the
star are public in the game; hand cards of the expansion are private (the private panel answers)."""

from __future__ import annotations

from typing import Any

from chatbot.core.gameui import RenderContext, Situation
from chatbot.core.nlp import fold, normalise
from chatbot.games.afrikan_tahti.names import money
from chatbot.games.afrikan_tahti.render import where


def situation(topic: str, view: Any, ctx: RenderContext, about: str = "") -> Situation | None:
    t = ctx.t
    seat = ctx.seat
    mine = seat is not None and 0 <= seat < len(view.pawns)
    if topic == "money":
        if mine:
            return Situation(
                t.gettext("You have {money}.").format(money=money(view.pawns[seat].cash, t)), False
            )
        cash = ", ".join(f"{ctx.name(s)} ({money(p.cash, t)})" for s, p in enumerate(view.pawns))
        return Situation(cash, hidden=False)
    if topic == "position":
        if mine and view.pawns[seat].node is None:
            return Situation(t.gettext("You have not chosen your start yet."), False)
        if mine:
            return Situation(t.gettext("You are {where}.").format(where=where(view.pawns[seat], t)), False)
        return None
    if topic == "score":
        cash = ", ".join(f"{ctx.name(s)} ({money(p.cash, t)})" for s, p in enumerate(view.pawns))
        return Situation(t.gettext("Money: {cash}.").format(cash=cash), hidden=False)
    if topic == "holder" and any(w in fold(normalise(about)) for w in ("tah", "star")):
        if view.star_holder is None:
            return Situation(t.gettext("Nobody has found the Star of Africa yet."), hidden=False)
        return Situation(
            t.gettext("{name} has the Star of Africa.").format(name=ctx.name(view.star_holder)), hidden=False
        )
    if topic == "lives":
        return Situation(t.gettext("Afrikan tähti has no lives; money and the star count."), False)
    return None
