"""The race home after the Star is found, for the strong base-game player.

Once the Star is found the game is a race: its holder (or the finder of a later horseshoe) wins on
entering Tangier or Cairo. :func:`turns_home` is how many turns a pawn needs from a node to the
nearer goal, walking (3.5 steps a turn on average), sailing a paid leg, or flying (a whole turn,
300 a flight: a pawn with money for one or two flights may take them); the strong player uses it as
a holder to choose between rolling and flying and where to end its move (an exact expectation over
the six faces of the die), and without an item to choose the token whose way home is shortest and
to judge whether a race can still be won.
"""

from __future__ import annotations

import heapq
from functools import cache

from engines.afrikan_tahti.board import AIR, GOALS, LAND, LEGS, land_paths
from engines.afrikan_tahti.model import AIR_FARE, SEA_FARE

#: turns a land step takes on average (a die move covers 3.5 steps)
STEP = 2 / 7
#: steps a free passage takes a turn (``broke_sea_steps``'s default)
FREE_STEPS = 2
#: the turn's part lost when a move must end short of the next stop
SLACK = 0.3


@cache
def _table(flights: int, sea: bool) -> dict[str, float]:
    """Turns to the nearer goal from every node with at most ``flights`` flights, sailing paid legs
    when ``sea`` (money for the fare), else free passages: a layered Dijkstra from the goals."""
    inf = float("inf")
    dist: dict[tuple[str, int], float] = {}
    heap: list[tuple[float, str, int]] = []
    for g in sorted(GOALS):
        for k in range(flights + 1):
            dist[(g, k)] = 0.0
            heap.append((0.0, g, k))
    heapq.heapify(heap)
    while heap:
        d, n, k = heapq.heappop(heap)
        if d > dist.get((n, k), inf):
            continue
        # edges are undirected: n is reached from m; k counts the flights left at m
        steps: list[tuple[str, int, float]] = [(m, k, STEP) for m in LAND.get(n, ())]
        # a paid leg at the die's pace, or broke a free passage at 2 steps a turn (spec §4.4 S4)
        pace = STEP if sea else 1 / FREE_STEPS
        steps += [(a, k, leg.steps * pace + SLACK) for (a, b), leg in LEGS.items() if b == n]
        if k < flights:
            steps += [(a, k + 1, 1.0) for (a, b) in AIR if b == n]
        for m, km, w in steps:
            if d + w < dist.get((m, km), inf):
                dist[(m, km)] = d + w
                heapq.heappush(heap, (d + w, m, km))
    out: dict[str, float] = {}
    for (n, k), d in dist.items():
        if k == flights:
            out[n] = d
    return out


def turns_home(node: str, cash: int) -> float:
    """Turns from ``node`` to the nearer goal for a pawn with ``cash``."""
    flights = min(2, cash // AIR_FARE)
    return _table(flights, cash >= SEA_FARE).get(node, 99.0)


def roll_turns(node: str, cash: int) -> float:
    """Turns home if this turn is a die move: each face ends the move on the best stop it allows
    (a goal ends the game this turn)."""
    total = 0.0
    for die in range(1, 7):
        stops = land_paths(node, die, frozenset(), GOALS, False)
        if GOALS & stops.keys():
            total += 1.0
        else:
            total += 1.0 + min((turns_home(s, cash) for s in stops), default=turns_home(node, cash))
    return total / 6
