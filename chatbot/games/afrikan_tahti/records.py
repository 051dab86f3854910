"""Afrikan Tähti's figures for the statistics (issue #16): for the winner, how the game was won
(with the Star they found themselves, with one taken from another player, with a horseshoe once the
Star had been found, or at the round limit) and in how many rounds; a player's measure counts their
wins by kind and names their fastest win."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.core.i18n import Translator
from engines.contract import Event


def figures(public_view: Any, outcome: Any, events: Sequence[Event] = ()) -> list[dict[str, Any]]:
    rounds = int(public_view.round)
    finder = next((e.get("seat") for e in reversed(events) if e.code == "star_found"), None)
    out: list[dict[str, Any]] = []
    for seat in range(len(outcome.ranks)):
        if seat not in outcome.winners:
            out.append({"rounds": rounds})
        elif public_view.end_reason != "goal":
            out.append({"rounds": rounds, "how": "limit"})
        else:
            if public_view.star_holder != seat:
                out.append({"rounds": rounds, "how": "horseshoe"})
            else:
                out.append({"rounds": rounds, "how": "star", "found": "self" if finder == seat else "other"})
    return out


def figures_text(
    played: Sequence[dict[str, Any]], wins: Sequence[dict[str, Any]], t: Translator
) -> str | None:
    if not wins:
        return None
    count = {how: sum(1 for f in wins if f.get("how") == how) for how in ("star", "horseshoe", "limit")}
    taken = sum(1 for f in wins if f.get("how") == "star" and f.get("found") == "other")
    kinds = []
    if count["star"] - taken:
        found = count["star"] - taken
        kinds.append(t.gettext("{n} with a Star they found").format(n=t.format_number(found)))
    if taken:
        kinds.append(t.gettext("{n} with a Star taken from another").format(n=t.format_number(taken)))
    if count["horseshoe"]:
        kinds.append(t.gettext("{n} with a horseshoe").format(n=t.format_number(count["horseshoe"])))
    if count["limit"]:
        kinds.append(t.gettext("{n} at the round limit").format(n=t.format_number(count["limit"])))
    parts = [t.format_list(kinds)] if kinds else []
    rounds = [
        f["rounds"]
        for f in wins
        if f.get("how") in {"star", "horseshoe"} and isinstance(f.get("rounds"), int)
    ]
    if rounds:
        fastest = min(rounds)
        parts.append(
            t.ngettext("fastest win in {n} round", "fastest win in {n} rounds", fastest).format(
                n=t.format_number(fastest)
            )
        )
    return ", ".join(parts) or None
