"""The ``strong`` AI of Afrikan Tähti: the smart player's answers to prompts, windows and duels, with
its own plan for where to go and what to keep.

- **Where to go.** The smart player heads for the nearest token worth flipping. The strong one weighs
  every token it may flip by what flipping it is worth to it (gems, the Star's chance among the
  tokens left, an expedition card it lacks) against the turns it takes to get there, and heads for
  the best worth per turn; it stays where it is when the token under its pawn is the best.
- **Where to stop.** The die allows any place on the way (and exactly the count elsewhere): the
  strong player ends its move where the best token's worth per turn is highest from there, so a
  token it passes on the way to a better one is taken when it is worth more now than the detour
  (the smart player heads for one token only).
- **What to keep.** Broke, the smart player sells the card its expedition needs least; the strong one
  sells only cards that give no symbol its expedition still lacks (a complete expedition is what lets
  it flip the discovery tokens, where the Star is).
- **Whom to play.** The characters are not equal: the Archaeologist, who may look at the token
  under his pawn before he pays for it, won 71 % of two-player games between smart players that
  were dealt characters at random (300 games; the Sea captain 56 %, the Teacher 39 %). The strong
  player chooses by those figures; the smart one by its fixed taste (the Sea captain first).
- **When to flip.** A token the seat stands on and may flip is flipped unless it is clearly bad: every
  flip brings the Star nearer, for whoever is ahead.

A policy gets only its seat's view, its legal actions and a seeded generator.
"""

from __future__ import annotations

from random import Random
from typing import Any

from engines.afrikan_tahti.base import ai as base_ai
from engines.afrikan_tahti.board import DIST, GOALS, HAZARDS, LEGS
from engines.afrikan_tahti.model import (
    Board,
    Character,
    EndPhase,
    Flip,
    FlipRoll,
    Move,
    RerollMove,
    Sell,
    View,
)
from engines.afrikan_tahti.retkikunnat import ai as smart_ai
from engines.afrikan_tahti.retkikunnat.content import EXP

#: steps a die move covers per turn on average, for the turns a token is away
_STEPS_PER_TURN = 3.5
#: a flip the strong player makes although the expected gain is below zero, down to this
_FLIP_FLOOR = -120.0
#: turns a capture on a hazard dot costs (a release roll succeeds one turn in three)
_HAZARD_TURNS = 3.0
#: the characters by their share of wins in two-player games of smart players dealt at random
#: (300 games, ``character_assignment=random``), best first
CHARACTERS = (
    "archaeologist",
    "sea_captain",
    "aviator",
    "merchant",
    "tycoon",
    "explorer",
    "fortune_seeker",
    "adventurer",
    "doctor",
    "teacher",
)


def strong(view: View, legal: tuple[Any, ...], rng: Random) -> Any:
    """The strong player in a Retkikunnat game (the base game: the smart player)."""
    if view.x is None or view.x.prompt is not None:
        return _smart(view, legal, rng)
    seat = view.seat or 0
    me = view.pawns[seat]
    node = me.node
    phase = view.phase
    if phase == "character":
        return min((a for a in legal if isinstance(a, Character)), key=lambda a: CHARACTERS.index(a.id))
    if node is None or phase in ("setup", "release"):
        return _smart(view, legal, rng)
    if phase == "declare":
        return smart_ai._declare(view, legal, seat, node, targets(view, seat))
    if phase == "move":
        if RerollMove() in legal and view.move is not None and view.move.steps <= 2:
            return RerollMove()
        if me.voyage is not None:
            return _smart(view, legal, rng)
        moves = tuple(a for a in legal if isinstance(a, Move | Board))
        chosen = base_ai._move(view, moves, node, targets(view, seat), rng)
        if me.items or not isinstance(chosen, Move) or smart_ai._chase(view, seat) is not None:
            return chosen
        rates = {a.to: _position(view, seat, a.to) for a in moves if isinstance(a, Move)}
        best = max(rates.values())
        if best > rates[chosen.to]:
            return min((a for a in moves if isinstance(a, Move) and rates[a.to] == best), key=_move_key)
        return chosen
    if phase == "phase2":
        chosen = smart_ai._phase2(view, legal, seat, node, targets(view, seat))
        if isinstance(chosen, Sell) and _fills(view, seat, chosen.card):
            return EndPhase()
        return chosen
    if phase == "phase3":
        chosen = smart_ai._phase3(view, legal, seat, node)
        if (
            chosen == EndPhase()
            and not me.items
            and smart_ai.flip_gain(view, seat, node) > _FLIP_FLOOR
            and smart_ai.flip_price(view, seat, node) is not None
        ):
            for flip in (Flip(), FlipRoll()):
                if flip in legal:
                    return flip
        return chosen
    return _smart(view, legal, rng)


def _move_key(a: Move) -> tuple[str, str]:
    return (a.to, a.via or "")


def _position(view: View, seat: int, node: str) -> float:
    """What ending the move on ``node`` is worth: the best token's gain per turn from there (a token
    on ``node`` itself is flipped this turn; a hazard dot costs the turns of the release rolls)."""
    best = 0.0
    delay = _HAZARD_TURNS if node in HAZARDS else 0.0
    for place in smart_ai.flippable(view, seat):
        gain = smart_ai.flip_gain(view, seat, place)
        if gain <= 0:
            continue
        steps = DIST[place].get(node)
        if steps is None:
            continue
        turns = (steps / _STEPS_PER_TURN + 1.0 if steps else 0.5) + delay
        best = max(best, gain / turns)
    return best


def _smart(view: View, legal: tuple[Any, ...], rng: Random) -> Any:
    from engines.afrikan_tahti.ai import smart_policy

    return smart_policy(view, legal, rng)


def _fills(view: View, seat: int, card: str) -> bool:
    """Whether ``card`` gives a symbol the seat's expedition still lacks."""
    gaps = smart_ai.missing(view, seat)
    c = EXP[card]
    return any(gaps[a] > 0 for a in c["symbols"]) or bool(
        c["either_or"] and any(gaps[a] > 0 for a in c["either_or"])
    )


def targets(view: View, seat: int) -> tuple[str, ...]:
    """Home with a winning item; a near holder of one (to duel); else the token worth most per turn."""
    me = view.pawns[seat]
    if me.items:
        return tuple(sorted(GOALS))
    chase = smart_ai._chase(view, seat)
    if chase is not None:
        return (chase,)
    node = me.node or ""
    if me.voyage is not None and (me.voyage.origin, me.voyage.dest) in LEGS:
        node = me.voyage.dest  # at sea: reckoned from the port ahead
    best: tuple[float, str] | None = None
    for place in sorted(smart_ai.flippable(view, seat)):
        gain = smart_ai.flip_gain(view, seat, place)
        if gain <= 0:
            continue
        steps = DIST[place].get(node)
        if steps is None:
            continue
        rate = gain / (steps / _STEPS_PER_TURN + 0.5)
        if best is None or rate > best[0]:
            best = (rate, place)
    if best is not None:
        return (best[1],)
    return smart_ai.targets(view, seat)
