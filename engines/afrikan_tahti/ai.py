"""The AI players of Afrikan Tähti: ``random`` and ``smart`` (the base game's in :mod:`.base.ai`,
Retkikunnat's in :mod:`.retkikunnat.ai`), and the idle default of a seat whose time ran out. A policy
gets only its seat's view, its legal actions and a seeded generator."""

from __future__ import annotations

from random import Random
from typing import Any

from engines.afrikan_tahti.base import ai as base_ai
from engines.afrikan_tahti.model import View
from engines.afrikan_tahti.retkikunnat import ai as retkikunnat_ai
from engines.contract import AIPolicy, random_policy


def smart_policy(view: View, legal: tuple[Any, ...], rng: Random) -> Any:
    if view.x is not None:  # a Retkikunnat game
        return retkikunnat_ai.smart(view, legal, rng)
    return base_ai.smart(view, legal, rng)


def idle_action(view: View, legal: tuple[Any, ...]) -> Any:
    """What the bot plays for a seat whose time ran out (spec §7 defaults), from the seat's view:
    Retkikunnat's answers to its prompts and phases first, else the base game's defaults (``stay``;
    after a roll a zero-step move, else the nearest place within reach, else the exact allowance
    toward the nearest place; ``end_phase``; otherwise the first legal action). None if the seat has
    no legal action."""
    if not legal:
        return None
    if view.x is not None:
        chosen = retkikunnat_ai.idle(view, legal)
        if chosen is not None:
            return chosen
    return base_ai.idle(view, legal)


AIS: dict[str, AIPolicy] = {"random": random_policy, "smart": smart_policy}
