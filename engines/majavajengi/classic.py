"""The first Majavajengi AI (until the levels of :mod:`.ai`), kept for the benchmark's comparison.

It remembers exactly what the view's knowledge row says, estimates unknown cards from the numbers it
has not seen, and weighs a Swap by how much the target seat is worth hurting (the leader, the
knocker). It values every unseen card at the deck average, so a good first look makes it knock.
"""

from __future__ import annotations

from random import Random
from typing import Any

from engines.majavajengi.model import (
    CANONICAL_DECK,
    COPIES,
    DRAW2_NEXT,
    HOLDING,
    POSITIONS,
    START,
    TURN_END,
    VALUE,
    Discard,
    Draw,
    Draw2,
    End,
    Knock,
    MajavajengiSeatView,
    Next,
    Peek,
    Replace,
    Swap,
    Take,
)

_NUMBER_COUNTS: tuple[int, ...] = tuple(COPIES[f"N{v}"] for v in range(10))
_DECK_SIZE = len(CANONICAL_DECK)
_SPECIAL_SHARE = 21 / 66
_UNKNOWN_BIAS = 0.5  # prefer replacing a card we do not know over a known one of the same estimate


def _unknown_mean(view: MajavajengiSeatView) -> float:
    """Expected value of a card nobody told us about: the numbers not visible to us, averaged."""
    counts = list(_NUMBER_COUNTS)
    seen = [k for row in view.known for k in row]
    seen += [view.discard_top, view.held]
    for k in seen:
        if k is not None and k in VALUE:
            v = VALUE[k]
            if counts[v] > 0:
                counts[v] -= 1
    total = sum(counts)
    return sum(v * c for v, c in enumerate(counts)) / total if total else 5.0


def _draw_gain(worst: float) -> float:
    """Rough expected improvement of drawing one card when the worst own card is worth ``worst``."""
    gain = sum(c * max(0.0, worst - v) for v, c in enumerate(_NUMBER_COUNTS)) / _DECK_SIZE
    return gain + _SPECIAL_SHARE * 1.0


def _estimate(kind: str | None, mean: float) -> float:
    return float(VALUE[kind]) if kind is not None and kind in VALUE else mean


def classic_policy(view: MajavajengiSeatView, legal: tuple[Any, ...], rng: Random) -> Any:
    """A heuristic player that remembers everything its seat knows (spec §7.5 point 5)."""
    me = view.seat
    mean = _unknown_mean(view)
    mine = [_estimate(k, mean) for k in view.known[me]]
    pick = [v + (_UNKNOWN_BIAS if view.known[me][i] is None else 0.0) for i, v in enumerate(mine)]
    worst = max(range(POSITIONS), key=lambda i: pick[i])
    phase = view.phase

    if phase == START:
        top = view.discard_top
        if top is not None and Take(worst + 1) in legal:
            gain = pick[worst] - VALUE[top]
            if gain >= _draw_gain(pick[worst]):
                return Take(worst + 1)
        return Draw()

    if phase == HOLDING:
        held = view.held
        if held in VALUE:
            gain = pick[worst] - VALUE[held]
            need = _draw_gain(pick[worst]) if view.draw2_left else 0.5
            return Replace(worst + 1) if gain > need else Discard()
        if held == "DRAW2":
            return Draw2()
        if held == "PEEK":
            unknown = [i for i in range(POSITIONS) if view.known[me][i] is None]
            return Peek(unknown[0] + 1) if unknown else Discard()
        if held == "SWAP":
            return _best_swap(view, legal, mine, mean) or Discard()
        return Discard()

    if phase == DRAW2_NEXT:
        return Next()

    if phase == TURN_END:
        return Knock() if Knock() in legal and _should_knock(view, mine, mean) else End()

    return rng.choice(legal)


def _opponent_estimate(view: MajavajengiSeatView, seat: int, mean: float) -> float:
    # opponents keep improving their unknown cards as the round goes on
    unknown = max(mean - 2.0, mean - 0.1 * view.turns_taken)
    return sum(_estimate(k, unknown) for k in view.known[seat])


def _target_weight(view: MajavajengiSeatView, seat: int, leader: int) -> float:
    if seat == view.knocker:
        return 1.6  # the knocker cannot react any more
    return 1.3 if seat == leader else 1.0


def _leader(view: MajavajengiSeatView, mean: float) -> int:
    others = [s for s in range(view.players) if s != view.seat]
    return min(others, key=lambda s: view.totals[s] + _opponent_estimate(view, s, mean))


def _best_swap(
    view: MajavajengiSeatView, legal: tuple[Any, ...], mine: list[float], mean: float
) -> Swap | None:
    leader = _leader(view, mean)
    best: Swap | None = None
    best_score = 1.0 if not view.draw2_left else 1.0 + _draw_gain(max(mine))
    for a in legal:
        if not isinstance(a, Swap):
            continue
        theirs = _estimate(view.known[a.other_seat][a.other_pos - 1], mean)
        delta = mine[a.own - 1] - theirs
        # a known card handed over is worth a little more than a guess
        if view.known[view.seat][a.own - 1] is None:
            delta -= 0.3
        score = delta * _target_weight(view, a.other_seat, leader)
        if score > best_score:
            best, best_score = a, score
    return best


def _should_knock(view: MajavajengiSeatView, mine: list[float], mean: float) -> bool:
    me = view.seat
    total = sum(mine)
    unknown = sum(1 for k in view.known[me] if k is None)
    others = [s for s in range(view.players) if s != me]
    opp = min(_opponent_estimate(view, s, mean) for s in others)
    # every other seat gets one more turn after a knock; unknown own cards add risk
    risk = 1.5 + 0.75 * unknown
    if total + risk <= opp - 1.0 or total <= 3 + unknown:
        return True
    turns = view.turns_taken
    n = view.players
    if turns >= 6 * n and total <= opp + 2:
        return True
    return turns >= 12 * n
