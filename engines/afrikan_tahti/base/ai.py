"""The base game's AI (the Retkikunnat one is :mod:`engines.afrikan_tahti.retkikunnat.ai`). A policy
gets only its seat's view, its legal actions and a seeded generator.

``smart``: heads for the nearest face-down token (or, holding a winning item, for the nearer goal),
flips when the expected value of the tokens still face down beats the price (it counts what was
revealed), rolls for a token when broke, flies or takes free passage when that is clearly shorter.
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

from engines.afrikan_tahti.board import (
    AIR,
    BASE_TOKEN_MIX,
    DIST,
    DIST_LAND,
    GEM_VALUES,
    GOALS,
    GOLD_COAST,
    HAZARDS,
    LEGS,
    LEGS_FROM,
    PLACE_SET,
    SLAVE_COAST,
    land_paths,
)
from engines.afrikan_tahti.model import (
    FLIP_PRICE,
    Board,
    EndPhase,
    Flip,
    FlipRoll,
    Fly,
    FreeSail,
    Move,
    Roll,
    Start,
    Stay,
    View,
)

_FAR = 999
_STAR_VALUE = 3000  # what finding the Star is worth to a player without a winning item
_HORSESHOE_VALUE = 1500  # a horseshoe after the Star: a second chance to win
_TURN_VALUE = 150  # a lost turn, in pounds
_CAPTURE_PENALTY = 8  # step-equivalents for ending on a hazard dot


def _remaining(view: View) -> Counter[str]:
    left = Counter(BASE_TOKEN_MIX)
    for _place, cid in view.revealed:
        left[cid.rsplit(":", 1)[1]] -= 1
    return +left


def flip_value(view: View, place: str, price: int) -> float:
    """Expected gain in pounds of flipping the token on ``place`` for ``price``."""
    me = view.pawns[view.seat or 0]
    left = _remaining(view)
    total = sum(left.values())
    if not total:
        return -1.0
    cash_after = me.cash - price
    holding = bool(me.items)
    gain = 0.0
    for kind, n in left.items():
        if kind in GEM_VALUES:
            value = float(view.options.emerald_value if kind == "emerald" else GEM_VALUES[kind])
            v = value * (2 if place == GOLD_COAST else 1)
        elif kind == "star":
            v = 0.0 if holding else _STAR_VALUE
        elif kind == "horseshoe":
            v = _HORSESHOE_VALUE if view.star_found and not holding else 0.0
        elif kind == "robber":
            v = -float(cash_after)
        elif kind == "blank" and place == SLAVE_COAST:
            v = -3.0 * _TURN_VALUE
        else:
            v = 0.0
        gain += n * v
    return gain / total - price


def _flips(view: View, place: str, price: int) -> bool:
    """Whether to flip the token on ``place`` for ``price``: when :func:`flip_value` says it gains,
    or when no other face-down token is worth more. A rich player whom every token's robber
    frightened used to stand on its token turn after turn (a zero-step move onto its own target)
    until the others' flips made the Star likelier: one held the table to the round limit."""
    here = flip_value(view, place, price)
    if here > 0:
        return True
    others = [flip_value(view, p, price) for p, _t in view.face_down if p != place]
    return not others or here >= max(others)


def _targets(view: View) -> tuple[str, ...]:
    me = view.pawns[view.seat or 0]
    if me.items:
        return tuple(sorted(GOALS))
    places = tuple(sorted({p for p, _t in view.face_down}))
    return places or tuple(sorted(GOALS))


def _dist(node: str, targets: tuple[str, ...], table: dict[str, dict[str, int]] = DIST) -> int:
    return min((table[t].get(node, _FAR) for t in targets), default=_FAR)


def _score_node(view: View, node: str, targets: tuple[str, ...], can_flip: bool) -> float:
    me = view.pawns[view.seat or 0]
    if me.items and node in GOALS:
        return -1000.0
    if node in targets and not me.items:
        return -10.0 if can_flip else -5.0
    score = float(_dist(node, targets))
    if node in HAZARDS:
        score += _CAPTURE_PENALTY
    return score


def smart(view: View, legal: tuple[Any, ...], rng: Random) -> Any:
    seat = view.seat or 0
    me = view.pawns[seat]
    node = me.node
    phase = view.phase
    first = legal[0]

    if phase == "setup":
        face_down = tuple(p for p, _t in view.face_down)
        return min(
            (a for a in legal if isinstance(a, Start)),
            key=lambda a: (sum(DIST[p].get(a.place, _FAR) for p in face_down), a.place),
            default=first,
        )
    if phase == "release":
        return first
    if phase == "after_move":
        assert node is not None
        return Flip() if Flip() in legal and _flips(view, node, FLIP_PRICE) else EndPhase()
    if node is None:
        return rng.choice(legal)
    targets = _targets(view)

    if phase == "declare":
        return _declare(view, legal, node, targets)
    if phase == "move":
        return _move(view, legal, node, targets, rng)
    return rng.choice(legal)


def _declare(view: View, legal: tuple[Any, ...], node: str, targets: tuple[str, ...]) -> Any:
    me = view.pawns[view.seat or 0]
    if me.voyage is not None:
        return Roll() if Roll() in legal else FreeSail(me.voyage.dest)
    here_token = any(p == node for p, _t in view.face_down)
    if here_token and not me.items:
        if Flip() in legal and _flips(view, node, FLIP_PRICE):
            return Flip()
        if FlipRoll() in legal and _flips(view, node, 0):
            return FlipRoll()
    flights = [a for a in legal if isinstance(a, Fly)]
    if flights:
        best = min(flights, key=lambda a: (_score_node(view, a.to, targets, True), a.to))
        here = _dist(node, targets)
        there = _score_node(view, best.to, targets, me.cash - AIR[(node, best.to)] >= FLIP_PRICE)
        margin = 6 if me.items else 9
        reserve = 0 if me.items else FLIP_PRICE
        if (there < 0 and me.items) or (there <= here - margin and me.cash - AIR[(node, best.to)] >= reserve):
            return best
    free = [a for a in legal if isinstance(a, FreeSail)]
    if free:
        steps = max(1, view.options.broke_sea_steps)
        by_land = _dist(node, targets, DIST_LAND) * 2 / 7  # turns at 3.5 steps a turn
        best_free = min(free, key=lambda a: (_free_turns(node, a.to, targets, steps), a.to))
        if _free_turns(node, best_free.to, targets, steps) + 1 < by_land:
            return best_free
    if Roll() in legal:
        return Roll()
    return Stay()


def _free_turns(node: str, port: str, targets: tuple[str, ...], steps: int) -> float:
    """Turns to a target for a broke player by a free passage from ``node`` to ``port``: the passage,
    then from ``port`` on by land (3.5 steps a turn) or by one more free passage (a broke player pays
    no fare further on either). Reckoning the way on from ``port`` with paid sea legs sent two broke
    players back and forth between Cape Verde and Sierra Leone to the round limit, the last token
    being on St. Helena."""
    onward = _dist(port, targets, DIST_LAND) * 2 / 7
    for dest in LEGS_FROM.get(port, ()):
        if dest != node:
            onward = min(
                onward, LEGS[(port, dest)].steps / steps + 1 + _dist(dest, targets, DIST_LAND) * 2 / 7
            )
    return LEGS[(node, port)].steps / steps + onward


def _move(view: View, legal: tuple[Any, ...], node: str, targets: tuple[str, ...], rng: Random) -> Any:
    me = view.pawns[view.seat or 0]
    steps = view.move.steps if view.move is not None else 0
    can_flip = me.cash >= FLIP_PRICE and not view.flipped_this_turn

    def score(a: Any) -> tuple[float, int, str]:
        if isinstance(a, Move):
            s = _score_node(view, a.to, targets, can_flip)
            return (s, 0 if a.to in PLACE_SET else 1, a.to + (a.via or ""))
        assert isinstance(a, Board)
        leg = LEGS[(node, a.to)]
        fare_cost = 0.5 if me.items else 1.0
        if steps >= leg.steps:
            s = _score_node(view, a.to, targets, me.cash - leg.fare >= FLIP_PRICE) - (steps - leg.steps)
        else:
            s = (leg.steps - steps) + _dist(a.to, targets)
            if leg.path[steps] in HAZARDS:
                s += _CAPTURE_PENALTY
        return (s + fare_cost, 2, a.to)

    return min(legal, key=score)


def idle(view: View, legal: tuple[Any, ...]) -> Any:
    """The base game's idle defaults (spec §7), from the seat's view: ``stay``; after a roll a
    zero-step move, else the nearest place within reach, else the exact allowance toward the nearest
    place (ties: lowest node id); ``end_phase``; otherwise (setup, release roll) the first legal
    action."""
    me = view.pawns[view.seat or 0]
    if view.phase == "declare" and Stay() in legal:
        return Stay()
    if view.phase == "after_move" and EndPhase() in legal:
        return EndPhase()
    if view.phase == "move" and me.node is not None and view.move is not None:
        moves = [a for a in legal if isinstance(a, Move) and a.via is None]
        if Move(me.node) in moves:
            return Move(me.node)
        stops = GOALS if me.items else frozenset()
        found = land_paths(
            me.node,
            view.move.steps,
            frozenset(view.move.visited),
            stops,
            view.options.hazard_trigger == "pass_through",
        )
        places = [a for a in moves if a.to in PLACE_SET and a.to in found]
        if places:
            return min(places, key=lambda a: (len(found[a.to][0]), a.to))
        if moves:
            return min(moves, key=lambda a: (min(DIST_LAND[p].get(a.to, _FAR) for p in PLACE_SET), a.to))
    return legal[0]
