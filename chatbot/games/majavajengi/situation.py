"""Answers about one's own situation in Majavajengi (issue #15): the scores so far are public; the
cards are a memory game (the private panel shows only what the memory aid allows)."""

from __future__ import annotations

from typing import Any

from chatbot.core.gameui import RenderContext, Situation


def situation(topic: str, view: Any, ctx: RenderContext, about: str = "") -> Situation | None:
    t = ctx.t
    if topic == "score":
        scores = ", ".join(f"{ctx.name(s)} ({view.totals[s]})" for s in range(view.players))
        text = t.gettext("Points so far (the lowest wins): {scores}.").format(scores=scores)
        if ctx.seat is not None and 0 <= ctx.seat < view.players:
            points = view.totals[ctx.seat]
            text += " " + t.ngettext("You have {n} point.", "You have {n} points.", points).format(n=points)
        return Situation(text, hidden=False)
    if topic in {"money", "lives", "position"}:
        return Situation(t.gettext("Majavajengi has no money, lives or places; only points count."), False)
    return None
