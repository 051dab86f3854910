"""Coloretto Amazonas values: constants, options, the state, the actions and their notation, the
views, and the test preset that fixes the deck order.

Cards are instance ids ``<kind>.<n>`` (``B1.1`` ... ``G6.5``); a kind is a colour letter and a
number (``B1`` ... ``G6``). Actions name kinds, never instances (see the package docstring).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engines.codec import Notation, one_of
from engines.contract import Seat

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
MIN_PLAYERS, MAX_PLAYERS = 2, 4

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
# Actions and their notation


@dataclass(frozen=True, slots=True)
class Play:
    """``play K``: put a card of kind K from the hand into the own row of its colour."""

    NOTATION: ClassVar[str] = "play {kind}"
    kind: str


@dataclass(frozen=True, slots=True)
class Give:
    """``give K seatN``: hand a card of kind K to seat N."""

    NOTATION: ClassVar[str] = "give {kind} seat{to}"
    kind: str
    to: Seat


@dataclass(frozen=True, slots=True)
class Accept:
    """``accept``: the receiver takes the pending gift into its row."""

    NOTATION: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class Refuse:
    """``refuse X``: discard the gift and the card of kind X from a row next to the gift's colour."""

    NOTATION: ClassVar[str] = "refuse {remove}"
    remove: str


Action = Play | Give | Accept | Refuse


def _seat_number(word: str) -> Seat:
    """The N of ``seatN``: digits naming a seat of the largest table (``give B1 seat4`` is no action)."""
    if not word.isdigit() or int(word) >= MAX_PLAYERS:
        raise ValueError(word)
    return int(word)


_kind = one_of(KINDS, fold=str.upper)  # "play g1" reads as "play G1"
CODEC = Notation([Play, Give, Accept, Refuse], readers={"kind": _kind, "remove": _kind, "to": _seat_number})


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


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=SORT_KEY.__getitem__))


# ---------------------------------------------------------------------------------------------
# Test preset: a fixed deck order


def normalise_deck(deck: Sequence[str]) -> list[str]:
    """Instance ids from a test deck of instance ids and/or bare kinds (see the package docstring)."""
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
