"""The AI players of Afrikan Tähti: ``random``, ``easy``, ``normal`` = ``smart``, ``strong`` (the base game's in :mod:`.base.ai`,
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


def strong_policy(view: View, legal: tuple[Any, ...], rng: Random) -> Any:
    """The strong player (:mod:`engines.afrikan_tahti.ai_strong`): in Retkikunnat it chooses the
    character that wins most at its table's size, plans where to go and where to stop by what a
    token is worth per turn of travel (less when a nearer rival is heading for it), keeps the cards
    its expedition lacks while equipment tokens are left and the last one shut when its expedition
    alone is complete, then sells spare cards to pay for its flips, and races home with the Star;
    in the base game it flips for the Star where ``normal`` fears for its money, and chooses its
    stops and flights by the tokens the next roll reaches."""
    from engines.afrikan_tahti.ai_strong import strong

    return strong(view, legal, rng)


def easy_policy(view: View, legal: tuple[Any, ...], rng: Random) -> Any:
    """A casual player: it answers prompts and windows with the table's default (it does not plan
    rerolls, bribes or sabotage), and one move in four it goes wherever the die takes it instead of
    toward the token worth most; otherwise it plays as ``normal``."""
    if view.x is not None and view.x.prompt is not None:
        chosen = retkikunnat_ai.idle(view, legal)
        if chosen is not None:
            return chosen
    me = view.pawns[view.seat or 0]
    if view.phase == "move" and not me.items and rng.random() < 0.25:
        return rng.choice(legal)
    return smart_policy(view, legal, rng)


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


AIS: dict[str, AIPolicy] = {
    "random": random_policy,
    "easy": easy_policy,
    "normal": smart_policy,
    "strong": strong_policy,
    "smart": smart_policy,
}
