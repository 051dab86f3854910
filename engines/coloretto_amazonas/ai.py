"""Coloretto Amazonas AI players; each sees only its seat's view (``PrivateView``).

Levels: ``easy`` (:func:`easy_policy`), ``normal`` = ``smart`` and ``strong`` (:func:`strong_policy`).

The smart player looks one action ahead. It scores every legal action by the resulting score
margin (own score against the opponents', the leader weighted most), assuming a receiver answers a
duplicate gift with its least harmful choice, and adds a small positional term: how close each row
is to completion while the cards it lacks are still unseen (it counts cards as spec §7.5.5 allows),
minus its exposure to duplicate gifts. An action that ends the game is judged by who wins.
"""

from __future__ import annotations

from collections.abc import Iterable
from random import Random
from typing import Any, cast

from engines.coloretto_amazonas.model import (
    CAPACITY,
    COLOURS,
    COPIES,
    KINDS,
    NEIGHBOURS,
    OVER,
    ROW_INDEX,
    TURN,
    Accept,
    Action,
    Gift,
    Give,
    Play,
    PrivateView,
    Refuse,
    SeatState,
    State,
    kind_of,
)
from engines.coloretto_amazonas.rules import ColorettoWork, act, legal_actions, to_act
from engines.contract import Seat

_WIN = 1000.0
COLOUR_KINDS: dict[str, tuple[str, ...]] = {c: tuple(k for k in KINDS if k[0] == c) for c in COLOURS}

#: the strong player: the smart player's best few actions, each played out in sampled worlds
STRONG_TOP = 4
#: worlds per decision (a count, not a clock: decisions repeat exactly)
STRONG_WORLDS = 12
#: the other seats' turns played out after the action (0: until the own next turn, a full round)
STRONG_TURNS = 0
#: after the others' turns, the own next turn too (the smart player's choice), before judging
STRONG_REPLY = True


def easy_policy(view: PrivateView, legal: tuple[Action, ...], rng: Random) -> Action:
    """A casual player: it plays for its own rows and looks at the points on the table now, not at
    what rows promise, at the cards still to come or at what a gift does to the others (it hands a
    card on mostly to get rid of it), and now and then (one decision in four) takes its second or
    third idea."""
    if len(legal) == 1:
        return legal[0]
    ai = _Smart(view)
    ai.POTENTIAL = 0.0
    ai.HAND = 0.0
    ai.RIVALRY = 0.1
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


def strong_policy(view: PrivateView, legal: tuple[Action, ...], rng: Random) -> Action:
    """Determinised look-ahead: the smart player's best ``STRONG_TOP`` actions are each tried in
    ``STRONG_WORLDS`` worlds sampled from the seat's view (the other hands and the draw pile dealt from
    the unseen cards), the table plays on as smart players for a full round (every other seat's turn,
    then the own next turn with the card drawn), and the action with the best average standing is
    taken (the smart player's measure, a won or lost game counting most). It sees what the smart
    player does not: what the others will answer (a duplicate handed back, a row completed first),
    what the next card may bring and what the cards it keeps will do next turn."""
    if len(legal) == 1:
        return legal[0]
    ai = _Smart(view)
    prior = {a: ai.value(a) + rng.random() * 1e-6 for a in legal}
    ranked = sorted(legal, key=prior.__getitem__, reverse=True)[:STRONG_TOP]
    if len(ranked) == 1:
        return ranked[0]
    totals = dict.fromkeys(ranked, 0.0)
    me = view.seat
    for _ in range(STRONG_WORLDS):
        world = _sample_world(view, rng)
        if world is None:
            return ranked[0]
        for action in ranked:
            w = _clone(world)
            act(w, me, action)
            _play_on(w, me, STRONG_TURNS or view.players - 1, STRONG_REPLY)
            totals[action] += _standing(w, me)
    return max(ranked, key=lambda a: totals[a] + 1e-3 * prior[a])


def _sample_world(view: PrivateView, rng: Random) -> ColorettoWork | None:
    """A full table consistent with the view, as a quiet working copy (hidden cards get made-up ids)."""
    hand = [kind_of(c) for c in view.hand]
    rows = [[list(r.kinds) for r in s.rows] for s in view.seats]
    stacks = [list(s.stacks) for s in view.seats]
    gift = view.gift.kind if view.gift is not None else None
    unseen = _unseen(rows, stacks, view.discarded, hand, gift)
    pool = [k for k, m in unseen.items() for _ in range(m)]
    others = [s for s in range(view.players) if s != view.seat]
    if len(pool) != sum(view.seats[s].hand_size for s in others) + view.deck_count:
        return None
    rng.shuffle(pool)
    seats = []
    for s in view.seats:
        if s.seat == view.seat:
            held = tuple(view.hand)
        else:
            held = tuple(f"{pool.pop()}.x" for _ in range(s.hand_size))
        seats.append(
            SeatState(
                hand=held,
                rows=tuple(r.cards for r in s.rows),
                stacks=tuple(tuple(f"{k}.s" for k in COLOUR_KINDS[c]) for c in s.stacks),
                bonuses=s.bonuses,
            )
        )
    g = view.gift
    state = State(
        seed="",
        ply=0,
        players=view.players,
        options=view.options,
        stacks_to_end=view.stacks_to_end,
        protection_mode=view.protection_mode,
        start_seat=view.start_seat,
        deck=tuple(f"{k}.x" for k in pool),
        seats=tuple(seats),
        discard=tuple(f"{k}.d" for k in view.discarded),
        active=view.active if view.active is not None else view.seat,
        phase=view.phase,
        gift=Gift(g.giver, g.receiver, g.card) if g is not None else None,
        protection=view.protection_holder,
    )
    return ColorettoWork(state, quiet=True)


def _clone(w: ColorettoWork) -> ColorettoWork:
    twin = object.__new__(ColorettoWork)
    twin.__dict__.update(w.__dict__)
    twin.deck, twin.seats, twin.discard = w.deck[:], w.seats[:], w.discard[:]
    return twin


def _play_on(w: ColorettoWork, me: Seat, turns: int, reply: bool = False) -> None:
    """Smart players for the other seats' next ``turns`` turns (a gift's answer belongs to the turn),
    stopping early when ``me`` is to play again or the game is over; with ``reply``, ``me``'s own next
    turn is played too (as the smart player would) when it comes."""
    state = cast(State, w)  # the working copy has the state's fields, which is all the rules read
    for _ in range(4 * w.players + 4):
        if w.phase == OVER:
            return
        seat = to_act(state)[0]
        if w.phase == TURN:
            if seat == me:
                if not reply:
                    return
                reply, turns = False, 0
            elif turns == 0:
                return
            else:
                turns -= 1
        legal = legal_actions(state, seat)
        ai = _Smart.of_work(w, seat)
        act(w, seat, max(legal, key=ai.value))


def _standing(w: ColorettoWork, me: Seat) -> float:
    ai = _Smart.of_work(w, me)
    if w.phase == OVER:
        return ai.standing(True)
    return ai.standing(False) + ai.HAND * ai._hand_worth(ai.hand)


class _Smart:
    _base: list[tuple[int, float]]  # score and potential of every seat at the table as given
    _base_free = -1  # bonus cards free then (-1: not yet counted)
    POTENTIAL = 0.5  # weight of the positional term
    RIVALRY = 1.0  # 1: the others' points count as much as the own (less: a casual player's own game)
    HAND = 0.3  # weight of what the kept cards promise
    EXPOSURE = 0.04

    def __init__(self, view: PrivateView) -> None:
        self.me: Seat = view.seat
        self.n = view.players
        o = view.options
        self.table = o.score_table
        self.bonus = {c: o.bonus_values[i] for i, c in enumerate(COLOURS)}
        self.deck_end = o.deck_end
        self.deck_count = view.deck_count
        self.stacks_to_end = view.stacks_to_end
        self.gift_kind = view.gift.kind if view.gift is not None else None
        self.rows = [[list(r.kinds) for r in s.rows] for s in view.seats]
        self.stacks = [list(s.stacks) for s in view.seats]
        self.bonuses = [list(s.bonuses) for s in view.seats]
        self.free = set(view.bonuses_free)
        self.hand = [kind_of(c) for c in view.hand]
        self.unseen = _unseen(self.rows, self.stacks, view.discarded, self.hand, self.gift_kind)

    @classmethod
    def of_work(cls, w: ColorettoWork, seat: Seat) -> _Smart:
        """The same player for ``seat`` of a sampled world (a rollout), from what that seat sees there."""
        ai = cls.__new__(cls)
        ai.me, ai.n = seat, w.players
        o = w.options
        ai.table = o.score_table
        ai.bonus = {c: o.bonus_values[i] for i, c in enumerate(COLOURS)}
        ai.deck_end, ai.deck_count, ai.stacks_to_end = o.deck_end, len(w.deck), w.stacks_to_end
        ai.gift_kind = w.gift.card[:2] if w.gift is not None else None
        ai.rows = [[[c[:2] for c in row] for row in s.rows] for s in w.seats]
        ai.stacks = [[st[0][0] for st in s.stacks] for s in w.seats]
        ai.bonuses = [list(s.bonuses) for s in w.seats]
        ai.free = {c for c in COLOURS if not any(c in s.bonuses for s in w.seats)}
        ai.hand = [c[:2] for c in w.seats[seat].hand]
        ai.unseen = _unseen(ai.rows, ai.stacks, [c[:2] for c in w.discard], ai.hand, ai.gift_kind)
        return ai

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
            missing = [k for k in COLOUR_KINDS[colour] if k not in row]
            supply = sum(self.unseen[k] + (self.hand.count(k) if seat == self.me else 0) for k in missing)
            gain = t[cap] - t[cap - 1] + (self.bonus[colour] if colour in self.free else 0)
            if supply:
                total += gain * (m / cap) ** 2 * min(1.0, supply / 3)
            # exposure: copies of kinds already in the row that can still be given to this seat
            exposed = sum(self.unseen[k] for k in row)
            total -= self.EXPOSURE * exposed * m
        return total

    def standing(self, ended: bool, changed: Seat | None = None) -> float:
        """``changed``: the only seat whose rows differ from the table the player was made from (its
        other seats' figures are then taken from :meth:`_base`); None: every seat counted afresh."""
        base = self._base if changed is not None and len(self.free) == self._base_free else None
        score = [base[s][0] if base is not None and s != changed else self.score(s) for s in range(self.n)]
        mine = score[self.me]
        others = [score[s] for s in range(self.n) if s != self.me]
        if self.RIVALRY == 1.0:
            margin = mine - 0.6 * max(others) - 0.4 * sum(others) / len(others)
        else:
            margin = mine - self.RIVALRY * max(others)
        if ended:
            best = max(others)
            return margin + (_WIN if mine > best else -_WIN if mine < best else 0.0)
        pot = [base[s][1] if base is not None and s != changed else self.potential(s) for s in range(self.n)]
        return margin + self.POTENTIAL * (pot[self.me] - max(pot[s] for s in range(self.n) if s != self.me))

    def _remember_base(self) -> None:
        if self._base_free < 0:
            self._base = [(self.score(s), self.potential(s)) for s in range(self.n)]
            self._base_free = len(self.free)

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
            return len(self.stacks[seat]) >= self.stacks_to_end
        return False

    def _deck_ends(self) -> bool:
        mode = self.deck_end
        if mode == "last_draw":
            return self.deck_count <= 1
        if mode == "draw_fails":
            return self.deck_count == 0
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
        self._remember_base()
        snap = self._snapshot()
        ended = False
        changed = self.me
        match action:
            case Play(kind=kind):
                ended = self._place(self.me, kind)
                kept = list(self.hand)
                kept.remove(kind)
            case Give(kind=kind, to=to):
                ended = self._receiver_best(to, kind)
                kept = list(self.hand)
                kept.remove(kind)
                changed = to
            case Accept():
                assert self.gift_kind is not None
                ended = self._place(self.me, self.gift_kind)
                kept = self.hand
            case Refuse(remove=remove):
                self.rows[self.me][ROW_INDEX[remove[0]]].remove(remove)
                kept = self.hand
        ended = ended or self._deck_ends()
        value = self.standing(ended, changed)
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


def _unseen(
    rows: list[list[list[str]]],
    stacks: list[list[str]],
    discarded: Iterable[str],
    hand: list[str],
    gift: str | None,
) -> dict[str, int]:
    """Copies per kind a seat has not seen: 5 minus rows, stacks, discards, its hand and a pending gift."""
    unseen = dict.fromkeys(KINDS, COPIES)
    for seat_rows in rows:
        for row in seat_rows:
            for k in row:
                unseen[k] -= 1
    for seat_stacks in stacks:
        for c in seat_stacks:
            for k in COLOUR_KINDS[c]:
                unseen[k] -= 1
    for k in discarded:
        unseen[k] -= 1
    for k in hand:
        unseen[k] -= 1
    if gift is not None:
        unseen[gift] -= 1
    return unseen
