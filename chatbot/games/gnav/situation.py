"""Answers about one's own situation in Gnav (issue #15): lives are public, one's card is private."""

from __future__ import annotations

from typing import Any

from chatbot.core.gameui import RenderContext, Situation
from chatbot.games.gnav.render import card_name, lives_left


def situation(topic: str, view: Any, ctx: RenderContext, about: str = "") -> Situation | None:
    t = ctx.t
    seat = ctx.seat
    if topic in {"lives", "score"}:
        lives = ", ".join(f"{ctx.name(s)} ({view.lives[s]})" for s in range(view.players))
        text = t.gettext("Lives left: {lives}.").format(lives=lives)
        if seat is not None and 0 <= seat < view.players:
            text += " " + t.gettext("You have {left}.").format(left=lives_left(view.lives[seat], t))
        return Situation(text, hidden=False)
    if topic == "hand" and seat is not None:
        if view.own_card is None:
            return Situation(t.gettext("You have no card in this deal."), hidden=True)
        return Situation(t.gettext("Your card: {card}").format(card=card_name(view.own_card, t)), hidden=True)
    if topic in {"money", "position"}:
        return Situation(t.gettext("Gnav has no money or places; each player has one card and lives."), False)
    return None
