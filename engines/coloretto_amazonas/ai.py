"""Coloretto Amazonas AI players; each sees only its seat's view (``PrivateView``).

Levels: ``easy`` (:func:`easy_policy`), ``normal`` = ``smart`` and, for now, ``strong`` = ``smart``.

The smart player looks one action ahead. It scores every legal action by the resulting score
margin (own score against the opponents', the leader weighted most), assuming a receiver answers a
duplicate gift with its least harmful choice, and adds a small positional term: how close each row
is to completion while the cards it lacks are still unseen (it counts cards as spec §7.5.5 allows),
minus its exposure to duplicate gifts. An action that ends the game is judged by who wins.
"""

from __future__ import annotations

from random import Random
from typing import Any

from engines.coloretto_amazonas.model import (
    CAPACITY,
    COLOURS,
    COPIES,
    KINDS,
    NEIGHBOURS,
    ROW_INDEX,
    Accept,
    Action,
    Give,
    Play,
    PrivateView,
    Refuse,
    kind_of,
)
from engines.contract import Seat

_WIN = 1000.0


def easy_policy(view: PrivateView, legal: tuple[Action, ...], rng: Random) -> Action:
    """A casual player: it looks at the points on the table now, not at what rows promise or at the
    cards still to come, and now and then (one decision in four) takes its second or third idea."""
    if len(legal) == 1:
        return legal[0]
    ai = _Smart(view)
    ai.POTENTIAL = 0.0
    ai.HAND = 0.0
    ranked = sorted(legal, key=lambda a: ai.value(a) + rng.random() * 1e-6, reverse=True)
    if len(ranked) > 1 and rng.random() < 0.25:
        return ranked[rng.randrange(1, min(3, len(ranked)))]
    return ranked[0]


def smart_policy(view: PrivateView, legal: tuple[Action, ...], rng: Random) -> Action:
    """Greedy one-ply player on its seat's view (see the module docstring)."""
    if len(legal) == 1:
        return legal[0]
    ai = _Smart(view)
    best, best_value = legal[0], float("-inf")
    for action in legal:
        value = ai.value(action) + rng.random() * 1e-6
        if value > best_value:
            best, best_value = action, value
    return best


class _Smart:
    POTENTIAL = 0.5  # weight of the positional term
    HAND = 0.3  # weight of what the kept cards promise
    EXPOSURE = 0.04

    def __init__(self, view: PrivateView) -> None:
        self.view = view
        self.me: Seat = view.seat
        self.n = view.players
        o = view.options
        self.table = o.score_table
        self.bonus = {c: o.bonus_values[i] for i, c in enumerate(COLOURS)}
        self.rows = [[list(r.kinds) for r in s.rows] for s in view.seats]
        self.stacks = [list(s.stacks) for s in view.seats]
        self.bonuses = [list(s.bonuses) for s in view.seats]
        self.free = set(view.bonuses_free)
        self.hand = [kind_of(c) for c in view.hand]
        # unseen copies per kind: 5 minus rows, stacks, discards and the own hand
        unseen = dict.fromkeys(KINDS, COPIES)
        for s in view.seats:
            for r in s.rows:
                for k in r.kinds:
                    unseen[k] -= 1
            for c in s.stacks:
                for k in KINDS:
                    if k[0] == c:
                        unseen[k] -= 1
        for k in view.discarded:
            unseen[k] -= 1
        for k in self.hand:
            unseen[k] -= 1
        if view.gift is not None:
            unseen[view.gift.kind] -= 1
        self.unseen = unseen

    # --- evaluation ------------------------------------------------------------------------
    def score(self, seat: Seat) -> int:
        t = self.table
        total = sum(t[len(r)] for r in self.rows[seat])
        total += sum(t[CAPACITY[c]] for c in self.stacks[seat])
        total += sum(self.bonus[c] for c in self.bonuses[seat])
        return total

    def potential(self, seat: Seat) -> float:
        """Positional worth of the open rows beyond their points."""
        total = 0.0
        t = self.table
        for j, colour in enumerate(COLOURS):
            row = self.rows[seat][j]
            m, cap = len(row), CAPACITY[colour]
            if not m:
                continue
            missing = [k for k in KINDS if k[0] == colour and k not in row]
            supply = sum(self.unseen[k] + (self.hand.count(k) if seat == self.me else 0) for k in missing)
            gain = t[cap] - t[cap - 1] + (self.bonus[colour] if colour in self.free else 0)
            if supply:
                total += gain * (m / cap) ** 2 * min(1.0, supply / 3)
            # exposure: copies of kinds already in the row that can still be given to this seat
            exposed = sum(self.unseen[k] for k in row)
            total -= self.EXPOSURE * exposed * m
        return total

    def standing(self, ended: bool) -> float:
        mine = self.score(self.me)
        others = [self.score(s) for s in range(self.n) if s != self.me]
        margin = mine - 0.6 * max(others) - 0.4 * sum(others) / len(others)
        if ended:
            best = max(others)
            return margin + (_WIN if mine > best else -_WIN if mine < best else 0.0)
        pot = self.potential(self.me) - max(self.potential(s) for s in range(self.n) if s != self.me)
        return margin + self.POTENTIAL * pot

    # --- look-ahead --------------------------------------------------------------------------
    def _place(self, seat: Seat, kind: str) -> bool:
        """Place ``kind`` in ``seat``'s row; True if the game ends by stacks."""
        colour = kind[0]
        row = self.rows[seat][ROW_INDEX[colour]]
        if kind in row:
            row.remove(kind)
            return False
        row.append(kind)
        if len(row) == CAPACITY[colour]:
            row.clear()
            self.stacks[seat].append(colour)
            if colour in self.free:
                self.free.discard(colour)
                self.bonuses[seat].append(colour)
            return len(self.stacks[seat]) >= self.view.stacks_to_end
        return False

    def _deck_ends(self) -> bool:
        v = self.view
        mode = v.options.deck_end
        if mode == "last_draw":
            return v.deck_count <= 1
        if mode == "draw_fails":
            return v.deck_count == 0
        return False

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            [[list(r) for r in s] for s in self.rows],
            [list(s) for s in self.stacks],
            [list(b) for b in self.bonuses],
            set(self.free),
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        self.rows, self.stacks, self.bonuses, self.free = snap

    def _receiver_best(self, seat: Seat, kind: str) -> bool:
        """Apply a gift of ``kind`` to ``seat`` as that seat would answer it; True if it ends the game."""
        colour = kind[0]
        rows = self.rows[seat]
        neighbours = [rows[ROW_INDEX[n]] for n in NEIGHBOURS[colour] if rows[ROW_INDEX[n]]]
        if kind not in rows[ROW_INDEX[colour]] or not neighbours:
            return self._place(seat, kind)
        # a refusal costs the shortest neighbour row one card; accepting costs the gift's row one card
        t = self.table
        m = len(rows[ROW_INDEX[colour]])
        shortest = min(neighbours, key=len)
        if t[len(shortest)] - t[len(shortest) - 1] < t[m] - t[m - 1]:
            shortest.pop()
            return False
        return self._place(seat, kind)

    def value(self, action: Action) -> float:
        snap = self._snapshot()
        ended = False
        match action:
            case Play(kind=kind):
                ended = self._place(self.me, kind)
                kept = list(self.hand)
                kept.remove(kind)
            case Give(kind=kind, to=to):
                ended = self._receiver_best(to, kind)
                kept = list(self.hand)
                kept.remove(kind)
            case Accept():
                assert self.view.gift is not None
                ended = self._place(self.me, self.view.gift.kind)
                kept = self.hand
            case Refuse(remove=remove):
                self.rows[self.me][ROW_INDEX[remove[0]]].remove(remove)
                kept = self.hand
        ended = ended or self._deck_ends()
        value = self.standing(ended)
        if not ended and isinstance(action, Play | Give):
            value += self.HAND * self._hand_worth(kept)
        self._restore(snap)
        return value

    def _hand_worth(self, kinds: list[str]) -> float:
        """What the cards kept in hand promise for later turns (best single use of each)."""
        total = 0.0
        t = self.table
        me = self.rows[self.me]
        for kind in kinds:
            row = me[ROW_INDEX[kind[0]]]
            m = len(row)
            own = -(t[m] - t[m - 1]) if kind in row else t[m + 1] - t[m]
            hurt = 0.0
            for s in range(self.n):
                if s == self.me:
                    continue
                orow = self.rows[s][ROW_INDEX[kind[0]]]
                if kind in orow:
                    hurt = max(hurt, 1.0 * (t[len(orow)] - t[len(orow) - 1]))
            total += max(own, hurt)
        return total
