"""Majavajengi (Biberbande, Amigo 2002) — rule engine and AI players.

Spec: ``shared/rules/majavajengi.md`` sections 1-7.

What is hidden from whom (spec §1, §7):

- The draw pile order: nobody. Views give its size only.
- A face-down layout card: nobody, except what the knowledge matrix ``known[observer][seat][pos]``
  records: the owner's initial look at positions 1 and 4, cards the owner placed from a draw or
  peeked at, and cards taken face up from the discard pile (known to everyone). Knowledge follows a
  card when it is swapped. At the reveal (end of round) everything is public.
- The held (just drawn) card: only its holder, until it is discarded or used.
- The discard pile is face up; its top card and size are public.

Views and events name cards by KIND (``N5``, ``SWAP``, ``PEEK``, ``DRAW2``); instance ids (``N5.2``)
stay inside the state. The public view shows layouts as four face-down slots (``None``) until the game
is over; a seat's private view adds its held card and its row of the knowledge matrix.

Tests fix the deal with :func:`new_game_with_deck` (deck orders per round, stored in the state as
``preset_decks``); :meth:`Majavajengi.new_game` always shuffles with ``rng_for``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from engines.codec import BadNotation, types_of
from engines.contract import Engine, Event, IllegalAction, Outcome, Seat, ev, random_policy, rank_by, rng_for

__all__ = [
    "CANONICAL_DECK", "ENGINE", "KIND", "VALUE", "Action", "Discard", "Draw", "Draw2", "End", "Knock",
    "Majavajengi", "MajavajengiOptions", "MajavajengiSeatView", "MajavajengiState", "MajavajengiView",
    "Next", "Peek", "Replace", "Stop", "Swap", "Take", "new_game_with_deck", "smart_policy",
]

# ---------------------------------------------------------------------------------------------
# Constants

NUMBER_KINDS: tuple[str, ...] = tuple(f"N{v}" for v in range(10))
SPECIAL_KINDS: tuple[str, ...] = ("SWAP", "PEEK", "DRAW2")
COPIES: dict[str, int] = {**{f"N{v}": 4 for v in range(9)}, "N9": 9, "SWAP": 9, "PEEK": 7, "DRAW2": 5}
#: the canonical (unshuffled) deck of 66 instance ids, spec §2.2
CANONICAL_DECK: tuple[str, ...] = tuple(
    f"{kind}.{n}" for kind in (*NUMBER_KINDS, *SPECIAL_KINDS) for n in range(1, COPIES[kind] + 1)
)
KIND: dict[str, str] = {card: card.partition(".")[0] for card in CANONICAL_DECK}
VALUE: dict[str, int] = {f"N{v}": v for v in range(10)}
POSITIONS = 4
MIN_PLAYERS = 2
MAX_PLAYERS = 6

# phases (string codes, also used in views)
START = "start"
HOLDING = "holding"
DRAW2_NEXT = "draw2_next"
TURN_END = "turn_end"
OVER = "over"

# ---------------------------------------------------------------------------------------------
# Options (spec §5)


@dataclass(frozen=True, slots=True)
class MajavajengiOptions:
    rounds: int | str = 6  # 1-20, or "players" (= number of seats)
    first_round_start: str = "random"  # "random" | "host"
    # [decided] with first_round_start="host" the seat the match creator picked is passed here
    first_start_seat: int = 0
    next_round_start: str = "knocker"  # "knocker" | "rotate"
    knock_after_full_lap: bool = False
    initial_special_discard: str = "leave"  # "leave" | "redraw"
    draw2_after_power: str = "ends"  # "ends" | "continues"
    reshuffle: str = "all"  # "all" | "keep_top"
    memory_aid: bool = False  # rendering only; the engine always keeps the knowledge matrix
    round_turn_cap: int = 0  # 0 = off, else N >= 2 * seats
    tiebreak: str = "shared"  # "shared" | "last_round"


_CHOICES: dict[str, tuple[str, ...]] = {
    "first_round_start": ("random", "host"),
    "next_round_start": ("knocker", "rotate"),
    "initial_special_discard": ("leave", "redraw"),
    "draw2_after_power": ("ends", "continues"),
    "reshuffle": ("all", "keep_top"),
    "tiebreak": ("shared", "last_round"),
}


def validate_options(options: MajavajengiOptions, players: int) -> int:
    """Raise ``ValueError`` on a bad option; return the number of rounds."""
    for name, allowed in _CHOICES.items():
        if getattr(options, name) not in allowed:
            raise ValueError(f"{name} must be one of {allowed}")
    for name in ("knock_after_full_lap", "memory_aid"):
        if not isinstance(getattr(options, name), bool):
            raise ValueError(f"{name} must be a bool")
    rounds = options.rounds
    if rounds == "players":
        rounds = players
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 20:
        raise ValueError("rounds must be 1-20 or 'players'")
    cap = options.round_turn_cap
    if isinstance(cap, bool) or not isinstance(cap, int) or (cap != 0 and cap < 2 * players):
        raise ValueError("round_turn_cap must be 0 or at least 2 x seats")
    if not 0 <= options.first_start_seat < players:
        raise ValueError("first_start_seat out of range")
    return rounds


# ---------------------------------------------------------------------------------------------
# State

Known = tuple[tuple[tuple[str | None, ...], ...], ...]


@dataclass(frozen=True, slots=True)
class MajavajengiState:
    seed: str
    ply: int
    players: int
    options: MajavajengiOptions
    rounds: int  # resolved from options.rounds
    round: int  # 1-based
    start_seat: int  # start seat of this round
    turn: int  # seat whose turn it is (the last one when over)
    phase: str
    draw_pile: tuple[str, ...]  # index 0 = top
    discard: tuple[str, ...]  # last = top
    layouts: tuple[tuple[str, ...], ...]  # [seat][position 0-3], instance ids
    held: str | None
    draw2_left: int  # 1: discarding the held card allows one more draw
    in_draw2: bool  # a Draw 2 is in progress this turn
    knocker: int | None
    turns_taken: int  # turns finished this round
    last_lap_left: int | None
    known: Known  # [observer][seat][position] = kind or None
    round_scores: tuple[tuple[int, ...], ...]  # one tuple per finished round
    totals: tuple[int, ...]
    preset_decks: tuple[tuple[str, ...], ...] = ()  # deck order of round r at index r - 1 (tests)


# ---------------------------------------------------------------------------------------------
# Actions (positions are 1-4 as in the notation; seats are 0-based engine seats)


@dataclass(frozen=True, slots=True)
class Take:
    pos: int


@dataclass(frozen=True, slots=True)
class Draw:
    pass


@dataclass(frozen=True, slots=True)
class Replace:
    pos: int


@dataclass(frozen=True, slots=True)
class Discard:
    pass


@dataclass(frozen=True, slots=True)
class Peek:
    pos: int


@dataclass(frozen=True, slots=True)
class Swap:
    own: int
    other_seat: int
    other_pos: int


@dataclass(frozen=True, slots=True)
class Draw2:
    pass


@dataclass(frozen=True, slots=True)
class Next:
    pass


@dataclass(frozen=True, slots=True)
class Stop:
    pass


@dataclass(frozen=True, slots=True)
class Knock:
    pass


@dataclass(frozen=True, slots=True)
class End:
    pass


Action = Take | Draw | Replace | Discard | Peek | Swap | Draw2 | Next | Stop | Knock | End

_SIMPLE: dict[str, Action] = {
    "draw": Draw(), "discard": Discard(), "draw2": Draw2(), "next": Next(), "stop": Stop(),
    "knock": Knock(), "end": End(),
}
_NOTATION_RE = re.compile(
    r"(?:(take|replace|peek) ([0-9]{1,2})|swap ([0-9]{1,2}) seat([0-9]{1,2}) ([0-9]{1,2}))", re.ASCII
)

# ---------------------------------------------------------------------------------------------
# Views (spec §7.2)


@dataclass(frozen=True, slots=True)
class MajavajengiView:
    """The public table: ``view(state, None)``."""

    players: int
    options: MajavajengiOptions
    round: int
    rounds: int
    start_seat: int
    turn: int | None  # None when the game is over
    phase: str  # "start" | "holding" | "draw2_next" | "turn_end" | "over"
    draw_pile: int  # size
    discard_top: str | None  # kind
    discard_size: int
    layouts: tuple[tuple[str | None, ...], ...]  # None = face down; kinds once revealed (game over)
    revealed: bool
    knocker: int | None
    last_lap_left: int | None
    turns_taken: int
    round_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    holding: bool  # the acting seat holds a drawn card
    draw2_active: bool  # a Draw 2 is in progress
    draw2_left: int  # 1: discarding the held card allows one more draw


@dataclass(frozen=True, slots=True)
class MajavajengiSeatView(MajavajengiView):
    """Seat ``seat``'s view: the public part plus its held card and its knowledge matrix row."""

    seat: int
    held: str | None  # kind, only while this seat holds a card
    known: tuple[tuple[str | None, ...], ...]  # [seat][position 0-3] = kind this seat knows, or None


# ---------------------------------------------------------------------------------------------
# Pure helpers


def is_special(card: str) -> bool:
    return KIND[card] in SPECIAL_KINDS


def _deck_from(order: Sequence[str]) -> tuple[str, ...]:
    """A full deck: the given cards first (instance ids, or kinds meaning the lowest unused copy),
    then the remaining cards in canonical order."""
    used: list[str] = []
    taken: set[str] = set()
    for item in order:
        if "." in item:
            card = item
            if card not in KIND:
                raise ValueError(f"unknown card {item!r}")
        else:
            if item not in COPIES:
                raise ValueError(f"unknown kind {item!r}")
            card = next((f"{item}.{n}" for n in range(1, COPIES[item] + 1) if f"{item}.{n}" not in taken), "")
            if not card:
                raise ValueError(f"no copy of {item!r} left")
        if card in taken:
            raise ValueError(f"card {card!r} twice")
        taken.add(card)
        used.append(card)
    return (*used, *(c for c in CANONICAL_DECK if c not in taken))


class _Table:
    """A mutable scratch copy of the state used inside one transition; frozen again at the end."""

    __slots__ = (
        "discard", "draw2_left", "draw_pile", "events", "held", "in_draw2", "knocker", "known",
        "last_lap_left", "layouts", "n_rng", "options", "phase", "players", "ply", "preset_decks",
        "round", "round_scores", "rounds", "seed", "start_seat", "totals", "turn", "turns_taken",
    )

    def __init__(self, s: MajavajengiState) -> None:
        self.seed = s.seed
        self.ply = s.ply
        self.players = s.players
        self.options = s.options
        self.rounds = s.rounds
        self.round = s.round
        self.start_seat = s.start_seat
        self.turn = s.turn
        self.phase = s.phase
        self.draw_pile = list(s.draw_pile)
        self.discard = list(s.discard)
        self.layouts = [list(row) for row in s.layouts]
        self.held = s.held
        self.draw2_left = s.draw2_left
        self.in_draw2 = s.in_draw2
        self.knocker = s.knocker
        self.turns_taken = s.turns_taken
        self.last_lap_left = s.last_lap_left
        self.known = [[list(row) for row in obs] for obs in s.known]
        self.round_scores = s.round_scores
        self.totals = s.totals
        self.preset_decks = s.preset_decks
        self.events: list[Event] = []
        self.n_rng = 0

    def freeze(self) -> MajavajengiState:
        return MajavajengiState(
            seed=self.seed, ply=self.ply, players=self.players, options=self.options,
            rounds=self.rounds, round=self.round, start_seat=self.start_seat, turn=self.turn,
            phase=self.phase, draw_pile=tuple(self.draw_pile), discard=tuple(self.discard),
            layouts=tuple(tuple(row) for row in self.layouts), held=self.held,
            draw2_left=self.draw2_left, in_draw2=self.in_draw2, knocker=self.knocker,
            turns_taken=self.turns_taken, last_lap_left=self.last_lap_left,
            known=tuple(tuple(tuple(row) for row in obs) for obs in self.known),
            round_scores=self.round_scores, totals=self.totals, preset_decks=self.preset_decks,
        )

    def rng(self, purpose: str) -> Random:
        # several random steps may happen within one ply: number them
        self.n_rng += 1
        return rng_for(self.seed, self.ply, f"{purpose}{self.n_rng}")

    def emit(self, code: str, audience: Seat | None = None, **params: Any) -> None:
        self.events.append(ev(code, audience, **params))


def _turn_up_discard(t: _Table) -> tuple[str, ...]:
    """Turn the top of the draw pile onto the discard pile (spec §3.2 step 3); return the kinds of
    specials put back into the pile under ``initial_special_discard = redraw``."""
    redrawn: list[str] = []
    card = t.draw_pile.pop(0)
    while t.options.initial_special_discard == "redraw" and is_special(card):
        redrawn.append(KIND[card])
        # [decided] "a random position" excludes the top, so the next card is really a new one
        t.draw_pile.insert(t.rng("redraw").randint(1, len(t.draw_pile)), card)
        card = t.draw_pile.pop(0)
    t.discard.append(card)
    return tuple(redrawn)


def _reshuffle(t: _Table) -> None:
    """Spec §3.9: only called when a card must be drawn and the draw pile is empty."""
    # at least 41 cards are outside the layouts and the held card, and the draw pile is empty
    assert len(t.discard) >= 41, len(t.discard)
    if t.options.reshuffle == "keep_top":
        cards, t.discard = t.discard[:-1], t.discard[-1:]
    else:
        cards, t.discard = t.discard, []
    t.rng("reshuffle").shuffle(cards)
    t.draw_pile = cards
    redrawn: tuple[str, ...] = ()
    if t.options.reshuffle == "all":
        redrawn = _turn_up_discard(t)
    t.emit("reshuffled", draw_pile=len(t.draw_pile), discard_top=KIND[t.discard[-1]] if t.discard else None,
           discard_size=len(t.discard), redrawn=redrawn)


def _draw(t: _Table) -> str:
    if not t.draw_pile:
        _reshuffle(t)
    return t.draw_pile.pop(0)


def _draw_held(t: _Table, seat: int, in_draw2: bool) -> None:
    card = _draw(t)
    t.held = card
    t.phase = HOLDING
    t.emit("drew", seat=seat, in_draw2=in_draw2)
    t.emit("drew_card", audience=seat, seat=seat, card=KIND[card])


def _start_round(t: _Table, round_no: int, start_seat: int) -> None:
    """Spec §3.2: shuffle (or take the preset deck), deal in four passes, turn up the discard."""
    if round_no <= len(t.preset_decks):
        deck = list(t.preset_decks[round_no - 1])
    else:
        deck = list(CANONICAL_DECK)
        t.rng(f"deal{round_no}:").shuffle(deck)
    n = t.players
    layouts = [[""] * POSITIONS for _ in range(n)]
    i = 0
    for k in range(POSITIONS):
        for j in range(n):
            layouts[(start_seat + j) % n][k] = deck[i]
            i += 1
    t.layouts = layouts
    t.draw_pile = deck[i:]
    t.discard = []
    t.held = None
    redrawn = _turn_up_discard(t)
    t.round = round_no
    t.start_seat = start_seat
    t.turn = start_seat
    t.phase = START
    t.knocker = None
    t.turns_taken = 0
    t.last_lap_left = None
    t.draw2_left = 0
    t.in_draw2 = False
    t.known = [[[None] * POSITIONS for _ in range(n)] for _ in range(n)]
    for s in range(n):
        for k in (0, POSITIONS - 1):
            t.known[s][s][k] = KIND[layouts[s][k]]
    t.emit("round_started", round=round_no, rounds=t.rounds, start_seat=start_seat,
           discard_top=KIND[t.discard[-1]], draw_pile=len(t.draw_pile), redrawn=redrawn)
    t.emit("dealt", round=round_no, seats=n, cards=POSITIONS)
    for s in range(n):
        t.emit("dealt_cards", audience=s, seat=s, positions=(1, POSITIONS),
               cards=(KIND[layouts[s][0]], KIND[layouts[s][POSITIONS - 1]]))


def _end_round(t: _Table) -> None:
    """Spec §4.1: reveal, replace specials in turn order, score, then next round or game over."""
    n = t.players
    t.emit("revealed", round=t.round, layouts=tuple(tuple(KIND[c] for c in row) for row in t.layouts))
    for j in range(n):
        s = (t.start_seat + j) % n
        for k in range(POSITIONS):
            special = t.layouts[s][k]
            if not is_special(special):
                continue
            drawn: list[str] = []
            while True:
                card = _draw(t)
                drawn.append(KIND[card])
                if not is_special(card):
                    break
                t.discard.append(card)
            t.layouts[s][k] = card
            t.discard.append(special)
            t.emit("special_replaced", seat=s, pos=k + 1, removed=KIND[special], drawn=tuple(drawn))
    public = [[KIND[c] for c in row] for row in t.layouts]
    t.known = [[list(row) for row in public] for _ in range(n)]
    scores = tuple(sum(VALUE[KIND[c]] for c in row) for row in t.layouts)
    t.round_scores = (*t.round_scores, scores)
    t.totals = tuple(a + b for a, b in zip(t.totals, scores))
    t.emit("round_scored", round=t.round, scores=scores, totals=t.totals)
    if t.round >= t.rounds:
        t.phase = OVER
        t.held = None
        t.draw2_left = 0
        t.in_draw2 = False
        out = _outcome_of(t.totals, t.round_scores, t.options)
        t.emit("game_over", totals=t.totals, ranks=out.ranks, winners=out.winners)
        return
    if t.options.next_round_start == "knocker" and t.knocker is not None:
        start = t.knocker
    else:
        start = (t.start_seat + 1) % n
    _start_round(t, t.round + 1, start)


def _pass_turn(t: _Table) -> None:
    # [decided] every finished turn emits turn_ended (after knocked, if any); next_seat is None when
    # the turn ended the round
    nxt = (t.turn + 1) % t.players
    t.emit("turn_ended", seat=t.turn, next_seat=nxt)
    t.turn = nxt
    t.phase = START


def _knock(t: _Table, forced: bool) -> None:
    t.knocker = t.turn
    t.last_lap_left = t.players - 1
    t.emit("knocked", seat=t.turn, forced=forced, last_lap=t.last_lap_left)
    _pass_turn(t)


def _knock_allowed(knocker: int | None, turns_taken: int, players: int, options: MajavajengiOptions) -> bool:
    return knocker is None and (not options.knock_after_full_lap or turns_taken >= players)


def _end_turn(t: _Table) -> None:
    """Spec §3.10: everything after the last card action of a turn that needs no decision."""
    t.draw2_left = 0
    t.in_draw2 = False
    t.held = None
    t.turns_taken += 1
    if t.knocker is not None:
        assert t.last_lap_left is not None
        t.last_lap_left -= 1
        if t.last_lap_left == 0:
            t.emit("turn_ended", seat=t.turn, next_seat=None)
            _end_round(t)
        else:
            _pass_turn(t)
        return
    cap = t.options.round_turn_cap
    if cap and t.turns_taken >= cap:
        _knock(t, forced=True)
    elif _knock_allowed(t.knocker, t.turns_taken, t.players, t.options):
        t.phase = TURN_END
    else:
        _pass_turn(t)


def _after_power(t: _Table) -> None:
    """After a used Peek or Swap: the Draw 2 ends, unless ``draw2_after_power = continues``."""
    if t.draw2_left and t.options.draw2_after_power == "continues":
        t.phase = DRAW2_NEXT
    else:
        _end_turn(t)


def _outcome_of(totals: tuple[int, ...], round_scores: tuple[tuple[int, ...], ...],
                options: MajavajengiOptions) -> Outcome:
    tiebreak = round_scores[-1] if options.tiebreak == "last_round" and round_scores else None
    return rank_by(totals, low_wins=True, tiebreak=tiebreak)


def _need_phase(state: MajavajengiState, phase: str) -> None:
    if state.phase != phase:
        raise IllegalAction("wrong_phase", phase=state.phase)


def _check_pos(pos: object) -> None:
    if isinstance(pos, bool) or not isinstance(pos, int) or not 1 <= pos <= POSITIONS:
        raise IllegalAction("bad_position", pos=pos if isinstance(pos, int) else None)


def _need_held(state: MajavajengiState, kind: str) -> None:
    # [decided] own reason code; the held kind is not a parameter, so the reason may be shown anywhere
    assert state.held is not None
    if KIND[state.held] != kind:
        raise IllegalAction("wrong_card", needed=kind)


def new_game_with_deck(players: int, seed: str, options: MajavajengiOptions | None,
                       decks: Sequence[Sequence[str]]) -> MajavajengiState:
    """A new game whose round r (1-based) is dealt from ``decks[r - 1]`` instead of a shuffle.

    Each deck order lists cards from the top: instance ids (``N5.2``) or kinds (``N5`` = its lowest
    unused copy); the cards not listed follow in canonical order. Rounds beyond ``decks`` are shuffled.
    The deal takes ``4 x players`` cards (pass k fills position k, clockwise from the start seat),
    then one card starts the discard pile; the rest is the draw pile, top first.
    """
    full = tuple(_deck_from(d) for d in decks)
    return _setup(players, seed, options or MajavajengiOptions(), full)[0]


def _setup(players: int, seed: str, options: MajavajengiOptions,
           decks: tuple[tuple[str, ...], ...]) -> tuple[MajavajengiState, tuple[Event, ...]]:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError("players must be 2-6")
    rounds = validate_options(options, players)
    if options.first_round_start == "host":
        start = options.first_start_seat
    else:
        start = rng_for(seed, 0, "first_start").randrange(players)
    blank = MajavajengiState(
        seed=seed, ply=0, players=players, options=options, rounds=rounds, round=0, start_seat=start,
        turn=start, phase=START, draw_pile=(), discard=(), layouts=(), held=None, draw2_left=0,
        in_draw2=False, knocker=None, turns_taken=0, last_lap_left=None, known=(),
        round_scores=(), totals=(0,) * players, preset_decks=decks,
    )
    t = _Table(blank)
    _start_round(t, 1, start)
    return t.freeze(), tuple(t.events)


# ---------------------------------------------------------------------------------------------
# The engine


class Majavajengi(Engine):
    id = "majavajengi"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_players = 2
    Options = MajavajengiOptions
    default_ai = "smart"

    # --- creation ------------------------------------------------------------------------
    def new_game(self, players: int, seed: str, options: Any = None) -> MajavajengiState:
        return new_game_with_deck(players, seed, options, ())

    def start_events(self, state: MajavajengiState) -> tuple[Event, ...]:
        """The events of the first deal (``round_started``, ``dealt``, private ``dealt_cards``):
        the setup is rebuilt from the seed, options and preset decks, so any state of the game works."""
        return _setup(state.players, state.seed, state.options, state.preset_decks)[1]

    # --- turn order and legality -----------------------------------------------------------
    def to_act(self, state: MajavajengiState) -> tuple[Seat, ...]:
        return () if state.phase == OVER else (state.turn,)

    def candidate_actions(self, state: MajavajengiState, seat: Seat) -> Iterable[Action]:
        if state.phase == OVER or seat != state.turn:
            return ()
        positions = range(1, POSITIONS + 1)
        match state.phase:
            case "start":
                return (*(Take(p) for p in positions), Draw())
            case "holding":
                assert state.held is not None
                kind = KIND[state.held]
                if kind == "SWAP":
                    return (*(Swap(p, k, m) for p in positions for k in range(state.players)
                              for m in positions), Discard())
                if kind == "PEEK":
                    return (*(Peek(p) for p in positions), Discard())
                if kind == "DRAW2":
                    return (Draw2(), Discard())
                return (*(Replace(p) for p in positions), Discard())
            case "draw2_next":
                return (Next(), Stop())
            case _:
                return (Knock(), End())

    def check(self, state: MajavajengiState, seat: Seat, action: Any) -> None:
        if state.phase == OVER:
            raise IllegalAction("game_over")
        if seat != state.turn:
            raise IllegalAction("not_your_turn", turn=state.turn)
        match action:
            case Take(pos):
                _need_phase(state, START)
                _check_pos(pos)
                if not state.discard:
                    raise IllegalAction("discard_empty")
                if is_special(state.discard[-1]):
                    raise IllegalAction("discard_top_special", card=KIND[state.discard[-1]])
            case Draw():
                _need_phase(state, START)
            case Replace(pos):
                _need_phase(state, HOLDING)
                _check_pos(pos)
                assert state.held is not None
                if is_special(state.held):
                    raise IllegalAction("special_cannot_be_placed")
            case Discard():
                _need_phase(state, HOLDING)
            case Peek(pos):
                _need_phase(state, HOLDING)
                _need_held(state, "PEEK")
                _check_pos(pos)
            case Swap(own, other_seat, other_pos):
                _need_phase(state, HOLDING)
                _need_held(state, "SWAP")
                if other_seat == seat:
                    raise IllegalAction("own_seat")
                if isinstance(other_seat, bool) or not isinstance(other_seat, int) \
                        or not 0 <= other_seat < state.players:
                    raise IllegalAction("bad_seat", seat=other_seat if isinstance(other_seat, int) else None)
                _check_pos(own)
                _check_pos(other_pos)
            case Draw2():
                _need_phase(state, HOLDING)
                _need_held(state, "DRAW2")
            case Next() | Stop():
                _need_phase(state, DRAW2_NEXT)
            case Knock():
                # [decided] the most helpful reason first: already_knocked, knock_too_early, then phase
                if state.knocker is not None:
                    raise IllegalAction("already_knocked", knocker=state.knocker)
                # the turn being played counts as taken when it ends, where the knock happens
                taken = state.turns_taken + (0 if state.phase == TURN_END else 1)
                if not _knock_allowed(None, taken, state.players, state.options):
                    raise IllegalAction("knock_too_early")
                _need_phase(state, TURN_END)
            case End():
                _need_phase(state, TURN_END)
            case _:
                raise IllegalAction("unknown_action")

    # --- transitions -------------------------------------------------------------------------
    def perform(self, state: MajavajengiState, seat: Seat, action: Any) -> tuple[MajavajengiState, tuple[Event, ...]]:
        t = _Table(state)
        t.ply += 1
        n = t.players
        card: str | None  # a card id in every branch; the held card may be None until checked
        match action:
            case Take(pos):
                i = pos - 1
                card = t.discard.pop()
                removed = t.layouts[seat][i]
                t.layouts[seat][i] = card
                t.discard.append(removed)
                for o in range(n):
                    t.known[o][seat][i] = KIND[card]
                t.emit("took_discard", seat=seat, card=KIND[card], pos=pos, removed=KIND[removed])
                _end_turn(t)
            case Draw():
                _draw_held(t, seat, in_draw2=False)
            case Replace(pos):
                i = pos - 1
                card = t.held
                assert card is not None
                removed = t.layouts[seat][i]
                t.layouts[seat][i] = card
                t.held = None
                t.discard.append(removed)
                for o in range(n):
                    t.known[o][seat][i] = KIND[card] if o == seat else None
                t.emit("replaced", seat=seat, pos=pos, removed=KIND[removed])
                t.emit("replaced_card", audience=seat, seat=seat, pos=pos, card=KIND[card])
                _end_turn(t)
            case Discard():
                card = t.held
                assert card is not None
                t.held = None
                t.discard.append(card)
                t.emit("discarded", seat=seat, card=KIND[card])
                if t.draw2_left:
                    t.phase = DRAW2_NEXT
                else:
                    _end_turn(t)
            case Peek(pos):
                assert t.held is not None
                t.discard.append(t.held)
                t.held = None
                card = t.layouts[seat][pos - 1]
                t.known[seat][seat][pos - 1] = KIND[card]
                t.emit("peeked", seat=seat, pos=pos)
                t.emit("peeked_card", audience=seat, seat=seat, pos=pos, card=KIND[card])
                _after_power(t)
            case Swap(own, k, m):
                assert t.held is not None
                t.discard.append(t.held)
                t.held = None
                i, j = own - 1, m - 1
                t.layouts[seat][i], t.layouts[k][j] = t.layouts[k][j], t.layouts[seat][i]
                for o in range(n):
                    row = t.known[o]
                    row[seat][i], row[k][j] = row[k][j], row[seat][i]
                t.emit("swapped", seat=seat, pos=own, other_seat=k, other_pos=m)
                _after_power(t)
            case Draw2():
                assert t.held is not None
                t.discard.append(t.held)
                t.held = None
                t.emit("draw2_used", seat=seat)
                t.in_draw2 = True
                t.draw2_left = 1
                _draw_held(t, seat, in_draw2=True)
            case Next():
                t.draw2_left = 0
                _draw_held(t, seat, in_draw2=True)
            case Stop():
                t.emit("draw2_stopped", seat=seat)
                _end_turn(t)
            case Knock():
                _knock(t, forced=False)
            case End():
                _pass_turn(t)
            case _:
                raise IllegalAction("unknown_action")
        return t.freeze(), tuple(t.events)

    # --- information ---------------------------------------------------------------------------
    def view(self, state: MajavajengiState, seat: Seat | None) -> MajavajengiView:
        over = state.phase == OVER
        # [decided] rounds before the last are revealed only through the `revealed` event (the next
        # deal follows at once); the final layouts stay visible once the game is over
        if over:
            layouts: tuple[tuple[str | None, ...], ...] = tuple(
                tuple(KIND[c] for c in row) for row in state.layouts)
        else:
            layouts = ((None,) * POSITIONS,) * state.players
        common = dict(
            players=state.players, options=state.options, round=state.round, rounds=state.rounds,
            start_seat=state.start_seat, turn=None if over else state.turn, phase=state.phase,
            draw_pile=len(state.draw_pile),
            discard_top=KIND[state.discard[-1]] if state.discard else None,
            discard_size=len(state.discard), layouts=layouts, revealed=over, knocker=state.knocker,
            last_lap_left=state.last_lap_left, turns_taken=state.turns_taken,
            round_scores=state.round_scores, totals=state.totals, holding=state.held is not None,
            draw2_active=state.in_draw2, draw2_left=state.draw2_left,
        )
        if seat is None:
            return MajavajengiView(**common)  # type: ignore[arg-type]
        held = KIND[state.held] if state.held is not None and seat == state.turn else None
        return MajavajengiSeatView(**common, seat=seat, held=held, known=state.known[seat])  # type: ignore[arg-type]

    def outcome(self, state: MajavajengiState) -> Outcome | None:
        if state.phase != OVER:
            return None
        return _outcome_of(state.totals, state.round_scores, state.options)

    def hidden_tokens(self, state: MajavajengiState, seat: Seat | None) -> frozenset[str]:
        hidden = set(state.draw_pile)
        if state.held is not None and seat != state.turn:
            hidden.add(state.held)
        if state.phase != OVER:
            for row in state.layouts:
                hidden.update(row)
        return frozenset(hidden)

    # --- notation --------------------------------------------------------------------------------
    def notation(self, action: Any) -> str:
        match action:
            case Take(pos):
                return f"take {pos}"
            case Replace(pos):
                return f"replace {pos}"
            case Peek(pos):
                return f"peek {pos}"
            case Swap(own, k, m):
                return f"swap {own} seat{k} {m}"
            case Draw():
                return "draw"
            case Discard():
                return "discard"
            case Draw2():
                return "draw2"
            case Next():
                return "next"
            case Stop():
                return "stop"
            case Knock():
                return "knock"
            case End():
                return "end"
        raise ValueError(f"not a Majavajengi action: {action!r}")

    def parse_notation(self, text: str) -> Action:
        text = " ".join(text.strip().lower().split())
        if text in _SIMPLE:
            return _SIMPLE[text]
        m = _NOTATION_RE.fullmatch(text)
        if m is None:
            raise BadNotation(text)
        verb, pos, own, seat, other = m.groups()
        if verb == "take":
            return Take(int(pos))
        if verb == "replace":
            return Replace(int(pos))
        if verb == "peek":
            return Peek(int(pos))
        return Swap(int(own), int(seat), int(other))


# ---------------------------------------------------------------------------------------------
# AI. Policies see only the seat's view, the legal actions and a seeded generator.

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


def smart_policy(view: MajavajengiSeatView, legal: tuple[Any, ...], rng: Random) -> Any:
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


def _best_swap(view: MajavajengiSeatView, legal: tuple[Any, ...], mine: list[float], mean: float) -> Swap | None:
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


Majavajengi.ais = {"random": random_policy, "smart": smart_policy}
Majavajengi.types = types_of(globals())

ENGINE = Majavajengi()

