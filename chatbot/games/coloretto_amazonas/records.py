"""Coloretto Amazonas's figures for the statistics (issue #16): each seat's final score; a player's
measure is their best score."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.core.i18n import Translator
from engines.contract import Event


def figures(public_view: Any, outcome: Any, events: Sequence[Event] = ()) -> list[dict[str, Any]]:
    return [{"score": int(score)} for score in outcome.scores]


def figures_text(
    played: Sequence[dict[str, Any]], wins: Sequence[dict[str, Any]], t: Translator
) -> str | None:
    scores = [f["score"] for f in played if isinstance(f.get("score"), int)]
    if not scores:
        return None
    return t.gettext("best score {n}").format(n=t.format_number(max(scores)))
