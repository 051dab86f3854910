"""Answers about one's own situation in Coloretto Amazonas (issue #15): scores of the open rows and
who holds the protection card are public; the hand is private (the private panel answers it)."""

from __future__ import annotations

from typing import Any

from chatbot.core.gameui import RenderContext, Situation
from chatbot.core.nlp import fold, normalise


def situation(topic: str, view: Any, ctx: RenderContext, about: str = "") -> Situation | None:
    t = ctx.t
    if topic == "score":
        scores = ", ".join(f"{ctx.name(s.seat)} ({s.score})" for s in view.seats)
        return Situation(
            t.gettext("Points from the open rows so far (stacks are counted at the end): {scores}.").format(
                scores=scores
            ),
            hidden=False,
        )
    if topic == "holder" and any(w in fold(normalise(about)) for w in ("suoja", "protect")):
        holder = view.protection_holder
        if holder is None:
            return Situation(t.gettext("Nobody holds the protection card now."), hidden=False)
        return Situation(
            t.gettext("The protection card is with {name} now.").format(name=ctx.name(holder)), hidden=False
        )
    if topic in {"money", "lives", "position"}:
        return Situation(t.gettext("Coloretto Amazonas has no money, lives or places; points count."), False)
    return None
