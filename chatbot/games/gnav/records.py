"""Gnav's figures for the statistics (issue #16): the lives each seat has left at the end; a
player's measure is the most lives they had left when they won."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.core.i18n import Translator
from engines.contract import Event


def figures(public_view: Any, outcome: Any, events: Sequence[Event] = ()) -> list[dict[str, Any]]:
    return [{"lives": int(lives)} for lives in outcome.scores]


def figures_text(
    played: Sequence[dict[str, Any]], wins: Sequence[dict[str, Any]], t: Translator
) -> str | None:
    lives = [f["lives"] for f in wins if isinstance(f.get("lives"), int)]
    if not lives:
        return None
    best = max(lives)
    return t.ngettext("best win with {n} life left", "best win with {n} lives left", best).format(
        n=t.format_number(best)
    )
