"""Majavajengi's figures for the statistics (issue #16): the final total of each seat; the lower,
the better, so a player's measure is their lowest total."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.core.i18n import Translator
from engines.contract import Event


def figures(public_view: Any, outcome: Any, events: Sequence[Event] = ()) -> list[dict[str, Any]]:
    return [{"total": int(score)} for score in outcome.scores]


def figures_text(
    played: Sequence[dict[str, Any]], wins: Sequence[dict[str, Any]], t: Translator
) -> str | None:
    totals = [f["total"] for f in played if isinstance(f.get("total"), int)]
    if not totals:
        return None
    return t.gettext("lowest total {n}").format(n=t.format_number(min(totals)))
