"""Majavajengi values: constants, options, the state, the actions and their notation, the views, and
the deck preset that tests use to fix a deal.

Cards are instance ids (``N5.2``: the second copy of the 5) inside the state and kinds (``N5``,
``SWAP``, ``PEEK``, ``DRAW2``) everywhere else. Positions are 1-4 in actions and notation and 0-3 as
list indices; seats are 0-based.

The class names ``Majavajengi*`` are part of the stored snapshots (``"$": "MajavajengiState"``), so
they stay as they are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from engines.codec import Notation

# ---------------------------------------------------------------------------------------------
# Constants (spec §2)

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


def is_special(card: str) -> bool:
    return KIND[card] in SPECIAL_KINDS


# ---------------------------------------------------------------------------------------------
# Options (spec §5)


@dataclass(frozen=True, slots=True)
class MajavajengiOptions:
    """The table's options; every default is the spec's (§5)."""

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
    """Take the top discard into position ``pos``."""

    NOTATION: ClassVar[str] = "take {pos}"
    pos: int


@dataclass(frozen=True, slots=True)
class Draw:
    NOTATION: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Replace:
    """Put the held number card into position ``pos``."""

    NOTATION: ClassVar[str] = "replace {pos}"
    pos: int


@dataclass(frozen=True, slots=True)
class Discard:
    NOTATION: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class Peek:
    NOTATION: ClassVar[str] = "peek {pos}"
    pos: int


@dataclass(frozen=True, slots=True)
class Swap:
    """Swap own position ``own`` with position ``other_pos`` of seat ``other_seat``."""

    NOTATION: ClassVar[str] = "swap {own} seat{other_seat} {other_pos}"
    own: int
    other_seat: int
    other_pos: int


@dataclass(frozen=True, slots=True)
class Draw2:
    NOTATION: ClassVar[str] = "draw2"


@dataclass(frozen=True, slots=True)
class Next:
    """Draw the second card of a Draw 2."""

    NOTATION: ClassVar[str] = "next"


@dataclass(frozen=True, slots=True)
class Stop:
    """End a Draw 2 without the second card."""

    NOTATION: ClassVar[str] = "stop"


@dataclass(frozen=True, slots=True)
class Knock:
    NOTATION: ClassVar[str] = "knock"


@dataclass(frozen=True, slots=True)
class End:
    """End the turn without knocking."""

    NOTATION: ClassVar[str] = "end"


Action = Take | Draw | Replace | Discard | Peek | Swap | Draw2 | Next | Stop | Knock | End
ACTIONS: tuple[type[Action], ...] = (Take, Draw, Replace, Discard, Peek, Swap, Draw2, Next, Stop, Knock, End)


def _small_int(word: str) -> int:
    # the notation has always written positions and seats as one or two ASCII digits, no sign
    if not re.fullmatch(r"[0-9]{1,2}", word):
        raise ValueError(word)
    return int(word)


def _normalise(text: str) -> str:
    # Lower case first, as the notation always did: only ASCII can name an action, and a text that
    # lower() leaves non-ASCII (say "ſeat", which IGNORECASE would match as "seat") names none.
    norm = " ".join(text.lower().split())
    return norm if norm.isascii() else ""


CODEC = Notation(
    ACTIONS,
    readers={name: _small_int for name in ("pos", "own", "other_seat", "other_pos")},
    normalise=_normalise,
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
    #: the discard pile's kinds, bottom first: every card on it was shown to the table as it went there
    discards: tuple[str, ...] = ()
    #: [observer][seat][position]: whether the observer knows that card. Public: who looked at what
    #: (the initial look, a placed, taken or peeked card) and where swaps moved it was announced
    aware: tuple[tuple[tuple[bool, ...], ...], ...] = ()


# ---------------------------------------------------------------------------------------------
# Presets for tests


def deck_from(order: Sequence[str]) -> tuple[str, ...]:
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
