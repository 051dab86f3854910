"""Coloretto Amazonas (Abacus Spiele 2005, Michael Schacht): rule engine and AI players.

Spec: ``/work/shared/rules/coloretto_amazonas.md`` sections 1-7.

What is hidden from whom
------------------------
- A seat's hand (up to 3 animal cards) and the card it just drew: only that seat. Hand sizes are public.
- The draw pile: order and contents hidden from everyone (its size is public).
- Everything else is public: the rows (open cards), the colours and number of completed stacks (their
  contents follow from the rules), the discard pile (every card in it was public when it was
  discarded; views give only its size and the multiset of kinds, never its order), bonus cards, the
  protection card holder, a pending gift (handed over openly) and the scores.
- At the end the hands are discarded unrevealed: views keep showing hand sizes only.

Cards are instance ids ``<kind>.<n>`` (``B1.1`` ... ``G6.5``). Actions name kinds, never instances:
copies of a kind are identical for the rules, so the engine moves the copy that has been in the hand
longest. (Moving e.g. the lowest-numbered copy would leak which other copies the hand lacks; the
arrival order is as random as the shuffle, so the id shown reveals nothing beyond the kind.) Views
show instance ids only for cards the observer may see; ``hidden_tokens`` are the instance ids in the
draw pile and in the other seats' hands.

Tests inject the deck order with ``ENGINE.new_game(players, seed, options, deck=[...])``: ``deck[0]``
is the top card. Entries are instance ids or bare kinds (a kind gets its lowest unused copy number).
A shorter deck is allowed; cards not listed are out of the game. The deal takes cards from the top,
one at a time, clockwise from the start seat, three passes round the table (seat order for 2 seats
starting at seat 0: hands ``deck[0::2][:3]`` and ``deck[1::2][:3]``, then draws continue from
``deck[6]``). Fix the start seat with the option ``start_player="seat0"``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from random import Random
from typing import Any, TypeAlias

from engines.codec import BadNotation, types_of
from engines.contract import Engine, Event, IllegalAction, Outcome, Seat, ev, random_policy, rank_by, rng_for

# ---------------------------------------------------------------------------------------------
# Constants

COLOURS: tuple[str, ...] = ("B", "P", "R", "G")  # row order, left to right
ROW_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}
CAPACITY: dict[str, int] = {"B": 5, "P": 4, "R": 3, "G": 6}
NEIGHBOURS: dict[str, tuple[str, ...]] = {"B": ("P",), "P": ("B", "R"), "R": ("P", "G"), "G": ("R",)}
COPIES = 5
KINDS: tuple[str, ...] = tuple(f"{c}{n}" for c in COLOURS for n in range(1, CAPACITY[c] + 1))
KIND_SET = frozenset(KINDS)
CANONICAL_DECK: tuple[str, ...] = tuple(f"{k}.{i}" for k in KINDS for i in range(1, COPIES + 1))
#: display / hand order: colour blue -> purple -> brown -> green, then kind number, then copy
SORT_KEY: dict[str, int] = {card: i for i, card in enumerate(CANONICAL_DECK)}
HAND_SIZE = 3

TURN, GIFT, OVER = "TURN", "GIFT", "OVER"

PROTECTION_MODES = ("receiver", "refuser", "off")
DECK_ENDS = ("last_draw", "draw_fails", "hands_out")
TIEBREAKS = ("shared", "most_stacks")

# end reasons (``State.end_reason`` and the ``game_over`` event)
END_STACKS, END_DECK, END_HANDS = "stacks", "deck", "hands"


def kind_of(card: str) -> str:
    return card[:2]


def colour_of(kind_or_card: str) -> str:
    return kind_or_card[0]


# ---------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True, slots=True)
class Options:
    """Every option of spec section 5 with its default.

    ``bonus_values`` is in row order blue, purple, brown, green (a mapping colour -> points is also
    accepted). ``start_player``: ``random``, ``host`` (= seat 0; the chat layer seats the host's pick
    first) or ``seatN`` for an explicit start seat. [decided]
    """

    score_table: tuple[int, ...] = (0, 1, 3, 6, 10, 15, 21)
    bonus_values: tuple[int, ...] = (5, 4, 3, 6)
    protection_mode: str = "receiver"
    deck_end: str = "last_draw"
    stacks_to_end: int | str = "auto"
    tiebreak: str = "shared"
    start_player: str = "random"

    def __post_init__(self) -> None:
        table = tuple(int(x) for x in self.score_table)
        if len(table) != 7 or any(b < a for a, b in itertools.pairwise(table)) or table[0] < 0:
            raise ValueError("score_table: 7 non-decreasing non-negative integers")
        object.__setattr__(self, "score_table", table)
        bonus: Any = self.bonus_values
        if isinstance(bonus, Mapping):
            bonus = tuple(bonus[c] for c in COLOURS)
        bonus = tuple(int(x) for x in bonus)
        if len(bonus) != 4 or min(bonus) < 0:
            raise ValueError("bonus_values: 4 non-negative integers (blue, purple, brown, green)")
        object.__setattr__(self, "bonus_values", bonus)
        if self.protection_mode not in PROTECTION_MODES:
            raise ValueError(f"protection_mode: one of {PROTECTION_MODES}")
        if self.deck_end not in DECK_ENDS:
            raise ValueError(f"deck_end: one of {DECK_ENDS}")
        if self.stacks_to_end != "auto" and not (
            isinstance(self.stacks_to_end, int) and 1 <= self.stacks_to_end <= 6
        ):
            raise ValueError("stacks_to_end: 1-6 or 'auto'")
        if self.tiebreak not in TIEBREAKS:
            raise ValueError(f"tiebreak: one of {TIEBREAKS}")
        sp = self.start_player
        if sp not in ("random", "host") and not (sp.startswith("seat") and sp[4:].isdigit() and len(sp) == 5):
            raise ValueError("start_player: random, host or seatN")


def stacks_needed(options: Options, players: int) -> int:
    if options.stacks_to_end == "auto":
        return 2 if players >= 4 else 3
    return int(options.stacks_to_end)


def protection_in_play(options: Options, players: int) -> str:
    return "off" if players < 3 else options.protection_mode


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class SeatState:
    hand: tuple[str, ...] = ()  # arrival order; views sort it into display order
    rows: tuple[tuple[str, ...], ...] = ((), (), (), ())  # per colour in COLOURS order, play order
    stacks: tuple[tuple[str, ...], ...] = ()  # completed stacks, face down, in completion order
    bonuses: tuple[str, ...] = ()  # colours of the bonus cards held
    last_drawn: str | None = None


@dataclass(frozen=True, slots=True)
class Gift:
    giver: Seat
    receiver: Seat
    card: str


@dataclass(frozen=True, slots=True)
class State:
    seed: str
    ply: int
    players: int
    options: Options
    stacks_to_end: int  # resolved from the option
    protection_mode: str  # resolved: "off" with 2 seats
    start_seat: Seat
    deck: tuple[str, ...]  # deck[0] is the top card
    seats: tuple[SeatState, ...]
    discard: tuple[str, ...] = ()  # bottom first; only its size and kinds are ever shown
    active: Seat = 0  # the seat whose turn it is (the giver while a gift is pending)
    phase: str = TURN
    gift: Gift | None = None
    protection: Seat | None = None  # holder of the protection card
    end_reason: str | None = None
    ender: Seat | None = None  # the seat whose stack ended the game


# ---------------------------------------------------------------------------------------------
# Actions


@dataclass(frozen=True, slots=True)
class Play:
    """``play K``: put a card of kind K from the hand into the own row of its colour."""

    kind: str


@dataclass(frozen=True, slots=True)
class Give:
    """``give K seatN``: hand a card of kind K to seat N."""

    kind: str
    to: Seat


@dataclass(frozen=True, slots=True)
class Accept:
    """``accept``: the receiver takes the pending gift into its row."""


@dataclass(frozen=True, slots=True)
class Refuse:
    """``refuse X``: discard the gift and the card of kind X from a row next to the gift's colour."""

    remove: str


Action = Play | Give | Accept | Refuse


# ---------------------------------------------------------------------------------------------
# Views


@dataclass(frozen=True, slots=True)
class RowView:
    colour: str
    cards: tuple[str, ...]  # instance ids in play order
    kinds: tuple[str, ...]
    capacity: int


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: Seat
    hand_size: int
    rows: tuple[RowView, ...]  # blue, purple, brown, green
    stacks: tuple[str, ...]  # colour of each completed stack
    bonuses: tuple[str, ...]
    protected: bool  # holds the protection card
    score: int  # running score from public data


@dataclass(frozen=True, slots=True)
class GiftView:
    giver: Seat
    receiver: Seat
    kind: str
    card: str
    choices: tuple[str, ...]  # the receiver's legal actions, as notations


@dataclass(frozen=True, slots=True)
class PublicView:
    players: int
    phase: str
    active: Seat | None  # None when over
    to_act: tuple[Seat, ...]
    start_seat: Seat
    deck_count: int
    discard_count: int
    discarded: tuple[str, ...]  # kinds on the discard pile, sorted (never the pile order)
    seats: tuple[SeatView, ...]
    bonuses_free: tuple[str, ...]
    protection_holder: Seat | None
    protection_mode: str  # effective mode ("off" with 2 seats)
    stacks_to_end: int
    options: Options
    gift: GiftView | None
    end_reason: str | None
    ranks: tuple[int, ...]  # empty until the game is over


@dataclass(frozen=True, slots=True)
class PrivateView(PublicView):
    seat: Seat
    hand: tuple[str, ...] = ()  # display order: hand numbers 1-3 in commands refer to it
    last_drawn: str | None = None
    legal: tuple[str, ...] = field(default=())  # notations


# ---------------------------------------------------------------------------------------------
# Pure functions


def row_of(seat_state: SeatState, colour: str) -> tuple[str, ...]:
    return seat_state.rows[ROW_INDEX[colour]]


def row_kinds(row: Iterable[str]) -> tuple[str, ...]:
    return tuple(card[:2] for card in row)


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=SORT_KEY.__getitem__))


def card_in(cards: Iterable[str], kind: str) -> str | None:
    for card in cards:
        if card[:2] == kind:
            return card
    return None


def without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def with_row(seat_state: SeatState, colour: str, row: tuple[str, ...]) -> SeatState:
    i = ROW_INDEX[colour]
    rows = seat_state.rows
    return replace(seat_state, rows=(*rows[:i], row, *rows[i + 1:]))


def set_seat(seats: tuple[SeatState, ...], i: Seat, seat_state: SeatState) -> tuple[SeatState, ...]:
    return (*seats[:i], seat_state, *seats[i + 1:])


def may_refuse(seat_state: SeatState, kind: str) -> str | None:
    """None if the receiver may refuse a gift of ``kind``, else the reason code (§3.6)."""
    colour = colour_of(kind)
    if card_in(row_of(seat_state, colour), kind) is None:
        return "refuse_no_duplicate"
    if not any(row_of(seat_state, n) for n in NEIGHBOURS[colour]):
        return "refuse_no_neighbour"
    return None


def seat_score(seat_state: SeatState, options: Options) -> int:
    table = options.score_table
    total = sum(table[len(row)] for row in seat_state.rows)
    total += sum(table[len(stack)] for stack in seat_state.stacks)
    total += sum(options.bonus_values[ROW_INDEX[c]] for c in seat_state.bonuses)
    return total


def scores(state: State) -> tuple[int, ...]:
    return tuple(seat_score(s, state.options) for s in state.seats)


def claimed_bonuses(state: State) -> frozenset[str]:
    return frozenset(b for s in state.seats for b in s.bonuses)


def final_outcome(state: State) -> Outcome:
    tiebreak = None
    if state.options.tiebreak == "most_stacks":
        tiebreak = tuple(-len(s.stacks) for s in state.seats)
    return rank_by(scores(state), low_wins=False, tiebreak=tiebreak)


def _finish(state: State, reason: str, events: list[Event], ender: Seat | None = None) -> State:
    state = replace(state, phase=OVER, gift=None, end_reason=reason, ender=ender)
    out = final_outcome(state)
    events.append(ev("game_over", reason=reason, seat=ender, scores=out.scores, ranks=out.ranks,
                     winners=out.winners, hand_sizes=tuple(len(s.hand) for s in state.seats)))
    return state


def _place(state: State, seat: Seat, card: str, events: list[Event]) -> State:
    """§3.4: a card arrives in ``seat``'s row of its colour."""
    kind, colour = card[:2], card[0]
    me = state.seats[seat]
    row = row_of(me, colour)
    twin = card_in(row, kind)
    if twin is not None:
        row = without(row, twin)
        events.append(ev("placed", seat=seat, kind=kind, card=card, colour=colour, result="duplicate",
                         count=len(row)))
        events.append(ev("duplicate_discarded", seat=seat, kind=kind, colour=colour, cards=(twin, card)))
        me = with_row(me, colour, row)
        return replace(state, seats=set_seat(state.seats, seat, me), discard=(*state.discard, twin, card))
    row = (*row, card)
    if len(row) < CAPACITY[colour]:
        events.append(ev("placed", seat=seat, kind=kind, card=card, colour=colour, result="added",
                         count=len(row)))
        me = with_row(me, colour, row)
        return replace(state, seats=set_seat(state.seats, seat, me))
    events.append(ev("placed", seat=seat, kind=kind, card=card, colour=colour, result="stack", count=0))
    bonus_free = colour not in claimed_bonuses(state)
    me = replace(with_row(me, colour, ()), stacks=(*me.stacks, row))
    events.append(ev("stack_completed", seat=seat, colour=colour, size=len(row), stacks=len(me.stacks)))
    if bonus_free:
        me = replace(me, bonuses=(*me.bonuses, colour))
        events.append(ev("bonus_taken", seat=seat, colour=colour,
                         points=state.options.bonus_values[ROW_INDEX[colour]]))
    state = replace(state, seats=set_seat(state.seats, seat, me))
    if len(me.stacks) >= state.stacks_to_end:
        state = _finish(state, END_STACKS, events, ender=seat)
    return state


def _pass_turn(state: State, after: Seat, events: list[Event]) -> State:
    # [decided] a seat with an empty hand is skipped in every deck_end mode; with the 90-card deck
    # this happens only in `hands_out`. When every hand is empty the game ends.
    n = state.players
    for step in range(1, n + 1):
        nxt = (after + step) % n
        if state.seats[nxt].hand:
            return replace(state, active=nxt, phase=TURN, gift=None)
        events.append(ev("skipped", seat=nxt))
    return _finish(state, END_HANDS, events)


def _draw_and_pass(state: State, drawer: Seat, events: list[Event]) -> State:
    """§3.7: the active seat (player or giver) draws, ``deck_end`` applies, play passes on."""
    mode = state.options.deck_end
    if state.deck:
        card, deck = state.deck[0], state.deck[1:]
        me = state.seats[drawer]
        me = replace(me, hand=(*me.hand, card), last_drawn=card)
        state = replace(state, deck=deck, seats=set_seat(state.seats, drawer, me), gift=None)
        events.append(ev("drew", seat=drawer, deck_count=len(deck)))
        events.append(ev("drew", audience=drawer, seat=drawer, card=card, kind=card[:2], deck_count=len(deck)))
        if not deck and mode == "last_draw":
            return _finish(state, END_DECK, events)
    elif mode != "hands_out":
        # [decided] `last_draw` also ends on a draw step that finds the pile empty (only possible
        # with a short injected deck).
        return _finish(state, END_DECK, events)
    return _pass_turn(state, drawer, events)


def _normalise_deck(deck: Sequence[str]) -> list[str]:
    """Instance ids from a test deck of instance ids and/or bare kinds (see the module docstring)."""
    explicit = {c for c in deck if c in SORT_KEY}
    used = set(explicit)
    out: list[str] = []
    for entry in deck:
        if entry in SORT_KEY:
            out.append(entry)
            continue
        if entry not in KIND_SET:
            raise ValueError(f"not a card: {entry!r}")
        card = next((f"{entry}.{i}" for i in range(1, COPIES + 1) if f"{entry}.{i}" not in used), None)
        if card is None:
            raise ValueError(f"more than {COPIES} copies of {entry}")
        used.add(card)
        out.append(card)
    if len(set(out)) != len(out):
        raise ValueError("a card occurs twice in the deck")
    return out


# ---------------------------------------------------------------------------------------------
# AI
#
# The smart player looks one action ahead. It scores every legal action by the resulting score
# margin (own score against the opponents', the leader weighted most), assuming a receiver answers a
# duplicate gift with its least harmful choice, and adds a small positional term: how close each row
# is to completion while the cards it lacks are still unseen (it counts cards as spec §7.5.5 allows),
# minus its exposure to duplicate gifts. An action that ends the game is judged by who wins.

_WIN = 1000.0


def smart_policy(view: Any, legal: tuple[Any, ...], rng: Random) -> Any:
    """Greedy one-ply player on its seat's view (see the AI section comment)."""
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
        return ([[list(r) for r in s] for s in self.rows], [list(s) for s in self.stacks],
                [list(b) for b in self.bonuses], set(self.free))

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


# ---------------------------------------------------------------------------------------------
# The engine

#: the options class for annotations inside the engine class, whose ``Options`` attribute shadows it
_Options: TypeAlias = Options


class ColorettoAmazonas(Engine):
    id = "coloretto_amazonas"
    min_players = 2
    max_players = 4
    default_players = 2
    Options = Options
    max_plies = 2_000
    ais = {"random": random_policy, "smart": smart_policy}
    default_ai = "smart"

    # --- creation ------------------------------------------------------------------------
    def new_game(self, players: int, seed: str, options: _Options | None = None, *,
                 deck: Sequence[str] | None = None) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"players: {self.min_players}-{self.max_players}")
        options = options or Options()
        if deck is None:
            cards = list(CANONICAL_DECK)
            rng_for(seed, 0, "deck").shuffle(cards)
        else:
            cards = _normalise_deck(deck)
        sp = options.start_player
        if sp == "random":
            start = rng_for(seed, 0, "start").randrange(players)
        elif sp == "host":
            start = 0
        else:
            start = int(sp[4:])
            if start >= players:
                raise ValueError("start_player: no such seat")
        hands: list[list[str]] = [[] for _ in range(players)]
        top = 0
        for _ in range(HAND_SIZE):
            for step in range(players):
                if top < len(cards):
                    hands[(start + step) % players].append(cards[top])
                    top += 1
        state = State(
            seed=seed,
            ply=0,
            players=players,
            options=options,
            stacks_to_end=stacks_needed(options, players),
            protection_mode=protection_in_play(options, players),
            start_seat=start,
            deck=tuple(cards[top:]),
            seats=tuple(SeatState(hand=tuple(h)) for h in hands),
            active=start,
        )
        if not state.seats[start].hand:
            state = _pass_turn(state, start, [])
        return state

    def start_events(self, state: State) -> tuple[Event, ...]:
        """The events of setup (``new_game`` returns only the state): public, then each hand privately."""
        out = [ev("game_started", players=state.players, start_seat=state.start_seat,
                  deck_count=len(state.deck), hand_sizes=tuple(len(s.hand) for s in state.seats),
                  stacks_to_end=state.stacks_to_end, protection_mode=state.protection_mode)]
        out += [ev("game_started", audience=i, seat=i, hand=sort_hand(s.hand)) for i, s in enumerate(state.seats)]
        return tuple(out)

    # --- turn order and legality -----------------------------------------------------------
    def to_act(self, state: State) -> tuple[Seat, ...]:
        if state.phase == OVER:
            return ()
        if state.phase == GIFT:
            assert state.gift is not None
            return (state.gift.receiver,)
        return (state.active,)

    def candidate_actions(self, state: State, seat: Seat) -> Iterable[Action]:
        if seat not in self.to_act(state):
            return ()
        if state.phase == GIFT:
            assert state.gift is not None
            me = state.seats[seat]
            out: list[Action] = [Accept()]
            for colour in NEIGHBOURS[colour_of(state.gift.card)]:
                out += [Refuse(k) for k in sorted(set(row_kinds(row_of(me, colour))), key=KINDS.index)]
            return out
        kinds = sorted(set(row_kinds(state.seats[seat].hand)), key=KINDS.index)
        out = [Play(k) for k in kinds]
        out += [Give(k, n) for k in kinds for n in range(state.players) if n != seat]
        return out

    def check(self, state: State, seat: Seat, action: Any) -> None:
        if state.phase == OVER:
            raise IllegalAction("game_over")
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", seat=seat, to_act=self.to_act(state))
        me = state.seats[seat]
        match action:
            case Play(kind=kind):
                if state.phase != TURN:
                    raise IllegalAction("gift_pending")
                if card_in(me.hand, kind) is None:
                    raise IllegalAction("not_in_hand", kind=kind)
            case Give(kind=kind, to=to):
                if state.phase != TURN:
                    raise IllegalAction("gift_pending")
                if card_in(me.hand, kind) is None:
                    raise IllegalAction("not_in_hand", kind=kind)
                if to == seat:
                    raise IllegalAction("give_self")
                if not 0 <= to < state.players:
                    raise IllegalAction("no_such_seat", seat=to)
                if state.protection == to:
                    if state.protection_mode == "receiver":
                        raise IllegalAction("protected", seat=to)
                    if state.protection_mode == "refuser" and card_in(
                        row_of(state.seats[to], colour_of(kind)), kind
                    ):
                        raise IllegalAction("protected", seat=to, kind=kind)
            case Accept():
                if state.phase != GIFT:
                    raise IllegalAction("no_gift")
            case Refuse(remove=remove):
                if state.phase != GIFT or state.gift is None:
                    raise IllegalAction("no_gift")
                kind = kind_of(state.gift.card)
                reason = may_refuse(me, kind)
                if reason is not None:
                    raise IllegalAction(reason, kind=kind)
                if remove not in KIND_SET or colour_of(remove) not in NEIGHBOURS[colour_of(kind)]:
                    raise IllegalAction("not_neighbour", kind=kind, remove=remove)
                if card_in(row_of(me, colour_of(remove)), remove) is None:
                    raise IllegalAction("not_in_row", remove=remove)
            case _:
                raise IllegalAction("unknown_action")

    # --- transitions -------------------------------------------------------------------------
    def perform(self, state: State, seat: Seat, action: Any) -> tuple[State, tuple[Event, ...]]:
        events: list[Event] = []
        match action:
            case Play(kind=kind):
                me = state.seats[seat]
                card = card_in(me.hand, kind)
                assert card is not None
                me = replace(me, hand=without(me.hand, card))
                state = replace(state, seats=set_seat(state.seats, seat, me))
                events.append(ev("played", seat=seat, kind=kind, card=card))
                state = _place(state, seat, card, events)
                if state.phase != OVER:
                    state = _draw_and_pass(state, seat, events)
            case Give(kind=kind, to=to):
                me = state.seats[seat]
                card = card_in(me.hand, kind)
                assert card is not None
                me = replace(me, hand=without(me.hand, card))
                state = replace(state, seats=set_seat(state.seats, seat, me))
                pending = may_refuse(state.seats[to], kind) is None
                events.append(ev("gave", seat=seat, receiver=to, kind=kind, card=card, pending=pending))
                if state.protection_mode == "receiver" and state.protection != to:
                    events.append(ev("protection_moved", seat=to, previous=state.protection))
                    state = replace(state, protection=to)
                if pending:
                    state = replace(state, phase=GIFT, gift=Gift(seat, to, card))
                else:
                    events.append(ev("gift_accepted", seat=to, giver=seat, kind=kind, card=card, forced=True))
                    state = _place(state, to, card, events)
                    if state.phase != OVER:
                        state = _draw_and_pass(state, seat, events)
            case Accept():
                gift = state.gift
                assert gift is not None
                events.append(ev("gift_accepted", seat=seat, giver=gift.giver, kind=kind_of(gift.card),
                                 card=gift.card, forced=False))
                state = _place(replace(state, phase=TURN, gift=None), seat, gift.card, events)
                if state.phase != OVER:
                    state = _draw_and_pass(state, gift.giver, events)
            case Refuse(remove=remove):
                gift = state.gift
                assert gift is not None
                me = state.seats[seat]
                colour = colour_of(remove)
                row = row_of(me, colour)
                removed = card_in(row, remove)
                assert removed is not None
                me = with_row(me, colour, without(row, removed))
                state = replace(state, seats=set_seat(state.seats, seat, me), phase=TURN, gift=None,
                                discard=(*state.discard, gift.card, removed))
                events.append(ev("gift_refused", seat=seat, giver=gift.giver, kind=kind_of(gift.card),
                                 card=gift.card, removed=remove, removed_card=removed, colour=colour))
                if state.protection_mode == "refuser" and state.protection != seat:
                    events.append(ev("protection_moved", seat=seat, previous=state.protection))
                    state = replace(state, protection=seat)
                state = _draw_and_pass(state, gift.giver, events)
            case _:
                raise IllegalAction("unknown_action")
        return replace(state, ply=state.ply + 1), tuple(events)

    # --- information ---------------------------------------------------------------------------
    def view(self, state: State, seat: Seat | None) -> PublicView:
        totals = scores(state)
        seats = tuple(
            SeatView(
                seat=i,
                hand_size=len(s.hand),
                rows=tuple(RowView(c, s.rows[j], row_kinds(s.rows[j]), CAPACITY[c])
                           for j, c in enumerate(COLOURS)),
                stacks=tuple(stack[0][0] for stack in s.stacks),
                bonuses=s.bonuses,
                protected=state.protection == i,
                score=totals[i],
            )
            for i, s in enumerate(state.seats)
        )
        claimed = claimed_bonuses(state)
        gift = None
        if state.gift is not None:
            g = state.gift
            choices = tuple(self.notation(a) for a in self.legal_actions(state, g.receiver))
            gift = GiftView(g.giver, g.receiver, kind_of(g.card), g.card, choices)
        over = state.phase == OVER
        common: dict[str, Any] = dict(
            players=state.players,
            phase=state.phase,
            active=None if over else state.active,
            to_act=self.to_act(state),
            start_seat=state.start_seat,
            deck_count=len(state.deck),
            discard_count=len(state.discard),
            discarded=tuple(sorted((c[:2] for c in state.discard), key=KINDS.index)),
            seats=seats,
            bonuses_free=tuple(c for c in COLOURS if c not in claimed),
            protection_holder=state.protection,
            protection_mode=state.protection_mode,
            stacks_to_end=state.stacks_to_end,
            options=state.options,
            gift=gift,
            end_reason=state.end_reason,
            ranks=final_outcome(state).ranks if over else (),
        )
        if seat is None:
            return PublicView(**common)
        me = state.seats[seat]
        legal = tuple(self.notation(a) for a in self.legal_actions(state, seat))
        return PrivateView(**common, seat=seat, hand=sort_hand(me.hand), last_drawn=me.last_drawn,
                           legal=legal)

    def outcome(self, state: State) -> Outcome | None:
        return final_outcome(state) if state.phase == OVER else None

    def hidden_tokens(self, state: State, seat: Seat | None) -> frozenset[str]:
        hidden = set(state.deck)
        for i, s in enumerate(state.seats):
            if i != seat:
                hidden.update(s.hand)
        return frozenset(hidden)

    # --- notation --------------------------------------------------------------------------------
    def notation(self, action: Any) -> str:
        match action:
            case Play(kind=kind):
                return f"play {kind}"
            case Give(kind=kind, to=to):
                return f"give {kind} seat{to}"
            case Accept():
                return "accept"
            case Refuse(remove=remove):
                return f"refuse {remove}"
        raise TypeError(f"not an action: {action!r}")

    def parse_notation(self, text: str) -> Action:
        words = text.split()
        if not words:
            raise BadNotation(text)
        verb, args = words[0].lower(), words[1:]
        kind = args[0].upper() if args else ""
        if verb == "accept" and not args:
            return Accept()
        if kind not in KIND_SET:
            raise BadNotation(text)
        if verb == "play" and len(args) == 1:
            return Play(kind)
        if verb == "refuse" and len(args) == 1:
            return Refuse(kind)
        if verb == "give" and len(args) == 2:
            target = args[1].lower()
            if target.startswith("seat") and target[4:].isdigit() and int(target[4:]) < self.max_players:
                return Give(kind, int(target[4:]))
        raise BadNotation(text)



ColorettoAmazonas.types = types_of(globals())

ENGINE = ColorettoAmazonas()
