"""Gnav's values: constants, options, the state, the actions, the views and the test presets.

Cards: 21 ranks (``RANK_IDS``, lowest first), two copies each. A card is an int ``c`` in 0-41 with rank
``c >> 1`` and copy ``c & 1``; views and hidden tokens name it by instance id (``"n5.2"``, see
:func:`rank_of`); events and the deal summary name ranks only.

Knowledge is kept per card: ``State.know[c]`` holds bit ``s`` for every seat that knows card ``c``,
``PUBLIC`` when everyone does and ``ORDINARY`` when everyone knows that it is ordinary (rank 0-15).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from engines.contract import Event

# ---------------------------------------------------------------------------------------------
# Constants

RANK_IDS: tuple[str, ...] = (
    "fool", "owl", "pot", "zero",
    "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "n10", "n11", "n12",
    "house", "horse", "cat", "dragoon", "cuckoo",
)  # fmt: skip
RANK_INDEX: dict[str, int] = {r: i for i, r in enumerate(RANK_IDS)}
FOOL, N6, HOUSE, HORSE, CAT, DRAGOON, CUCKOO = 0, 9, 16, 17, 18, 19, 20
LAST_ORDINARY = 15
RANKS = 21
#: the rank ids of the five matadors (house to cuckoo), which nobody has to hand over
MATADORS: tuple[str, ...] = RANK_IDS[HOUSE:]
CARDS = 42  # card c has rank c >> 1; copies are c & 1
CARD_IDS: tuple[str, ...] = tuple(f"{RANK_IDS[c >> 1]}.{(c & 1) + 1}" for c in range(CARDS))
CARD_INDEX: dict[str, int] = {cid: c for c, cid in enumerate(CARD_IDS)}

#: the traditional calls, as codes in events (spec 8.5)
CALLS: dict[int, str] = {
    HOUSE: "hus_forbi",
    HORSE: "hest_forbi",
    CAT: "kiss",
    DRAGOON: "hogg_av",
    CUCKOO: "sta_for_gjok",
}
KNOCK_CALL = "knock"

#: knowledge bits besides the seat bits 0-7
PUBLIC = 1 << 8
ORDINARY = 1 << 9

KNOCK, TURN, OVER = "knock", "turn", "over"
MIN_PLAYERS, MAX_PLAYERS = 2, 8
SEAT_KINDS = ("human", "ai")
AI_LEVELS = ("easy", "normal", "strong")


def rank_of(card: str) -> str:
    """The rank id of a card instance id (``"n5.2"`` -> ``"n5"``)."""
    return card.split(".", 1)[0]


def knows(state_know: int, seat: int | None) -> bool:
    """Whether ``seat`` (``None``: everyone) knows a card with these knowledge bits."""
    mask = PUBLIC if seat is None else PUBLIC | (1 << seat)
    return bool(state_know & mask)


# ---------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True, slots=True)
class Options:
    """Match options (spec 4); fixed when the match starts. Every check of them is in this class:
    the values when they are made (so a bad "elämät=0" is refused in the lobby), the fit to the
    table in :meth:`validate`."""

    #: True: the cat acts exactly like the dragoon and nothing is undone
    traditional_cat: bool = False
    #: starting lives of every seat, 1-9
    lives: int = 3
    #: "human"/"ai" per seat, clockwise; () = the spec's default table: seat 0 human, every other seat AI.
    #: The engine treats both kinds alike (all-AI tables are fine); the chat layer reads it.
    seats: tuple[str, ...] = ()
    #: False: a seat dealt a fool must play ``knock`` before the first turn
    fool_auto_reveal: bool = True
    #: "easy"/"normal"/"strong" per seat (entries of human seats are ignored); () = every AI seat "normal".
    #: The engine's AI names for the levels are in ``ai.LEVEL_AI``.
    ai_level: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # options may come from JSON lists; keep the fields hashable tuples
        object.__setattr__(self, "seats", tuple(self.seats))
        object.__setattr__(self, "ai_level", tuple(self.ai_level))
        if isinstance(self.lives, bool) or not isinstance(self.lives, int) or not 1 <= self.lives <= 9:
            raise ValueError("lives must be 1-9")
        if any(k not in SEAT_KINDS for k in self.seats):
            raise ValueError("seats entries must be 'human' or 'ai'")
        if any(k not in AI_LEVELS for k in self.ai_level):
            raise ValueError("ai_level entries must be 'easy', 'normal' or 'strong'")
        for name in ("traditional_cat", "fool_auto_reveal"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false")

    def validate(self, players: int) -> None:
        """Raise ``ValueError`` unless these options fit a table of ``players`` seats."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError("players must be 2-8")
        if self.seats and len(self.seats) != players:
            raise ValueError("seats must name every seat")
        if self.ai_level and len(self.ai_level) != players:
            raise ValueError("ai_level must name every seat")

    def seat_kinds(self, players: int) -> tuple[str, ...]:
        return self.seats or ("human",) + ("ai",) * (players - 1)

    def levels(self, players: int) -> tuple[str, ...]:
        return self.ai_level or ("normal",) * players


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class Aside:
    """A card taken out of play for the rest of the deal."""

    card: int
    face_up: bool


@dataclass(frozen=True, slots=True)
class Exchange:
    """An exchange still in effect (the log, spec 3.1). ``partner`` None: with the stock, and then
    ``aside`` is the index in the aside pile of the asker's old, face-down card."""

    asker: int
    partner: int | None
    aside: int | None = None


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended; kept in the state (and views) until the next deal ends."""

    deal: int
    #: "turns_done" | "cuckoo" | "uncontested" | "match_won" (a mid-deal loss left one seat alive)
    end: str
    #: (seat, rank id) of every seat card of the deal, departed seats included
    cards: tuple[tuple[int, str], ...]
    #: seats eliminated during the deal, before settlement (their cards are "out")
    departed: tuple[int, ...]
    #: seats that lost a life at settlement
    losers: tuple[int, ...]
    #: seats eliminated in this deal (mid-deal and at settlement)
    eliminated: tuple[int, ...]
    #: rest marks for the next deal
    rests: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class State:
    seed: str
    ply: int
    players: int
    options: Options
    lives: tuple[int, ...]
    #: the rotation pointer R (spec 3.1)
    rotation: int
    #: number of the current deal (skipped deals count)
    deal: int
    #: seats sitting out the current deal
    resting: tuple[int, ...]
    #: turn order T of the current deal; the dealer is the last
    order: tuple[int, ...]
    #: card per seat, -1 = none
    hands: tuple[int, ...]
    #: seats eliminated during the current deal
    departed: tuple[int, ...]
    #: bottom first: the top card is the last
    stock: tuple[int, ...]
    aside: tuple[Aside, ...]
    log: tuple[Exchange, ...]
    #: index in ``order`` of the seat on turn (len(order) when none)
    turn: int
    #: seats that must still knock (knock mode only)
    knocks: tuple[int, ...]
    #: per card instance: knowledge bits (seat bits, PUBLIC, ORDINARY)
    know: tuple[int, ...]
    #: (seat, group) in elimination order; seats eliminated together share a group
    eliminated: tuple[tuple[int, int], ...]
    phase: str
    #: every event of the current deal (all audiences), for views
    history: tuple[Event, ...]
    last: DealResult | None = None
    #: test decks still to use, one per dealt deal (see :func:`deck_from_ranks`)
    decks: tuple[tuple[str, ...], ...] = ()


# ---------------------------------------------------------------------------------------------
# Actions (each with its notation)


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep the card."""

    NOTATION: ClassVar[str] = "keep"


@dataclass(frozen=True, slots=True)
class Ask:
    """Request an exchange from the left neighbour; the dealer's goes to the stock."""

    NOTATION: ClassVar[str] = "ask"


@dataclass(frozen=True, slots=True)
class Knock:
    """Show a dealt fool before the first turn, knock mode only."""

    NOTATION: ClassVar[str] = "knock"


Action = Keep | Ask | Knock
ACTIONS: tuple[type[Keep] | type[Ask] | type[Knock], ...] = (Keep, Ask, Knock)


# ---------------------------------------------------------------------------------------------
# Views


@dataclass(frozen=True, slots=True)
class AsideView:
    #: instance id when the observer knows the card (always when face up)
    card: str | None
    face_up: bool
    #: publicly known to be ordinary (rank 0-15)
    ordinary: bool


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or, with ``seat`` None, the public table) may know."""

    seat: int | None
    players: int
    options: Options
    phase: str
    lives: tuple[int, ...]
    #: seats out of the match, in elimination order
    eliminated: tuple[int, ...]
    resting: tuple[int, ...]
    rotation: int
    deal: int
    order: tuple[int, ...]
    dealer: int | None
    to_act: tuple[int, ...]
    #: index in ``order`` of the seat on turn (len(order) when none)
    turn: int
    departed: tuple[int, ...]
    #: the observer's own card (instance id), None when it has none
    own_card: str | None
    #: per seat: the card id when the observer knows it (public, own, or seen in an exchange)
    hands: tuple[str | None, ...]
    #: seats whose card is publicly known to be ordinary
    ordinary: tuple[int, ...]
    #: seats whose card is publicly known not to be a fool (every hand card not shown as one, once turns run)
    not_fool: tuple[int, ...]
    stock_size: int
    #: (depth from the top, card id) of stock cards the observer knows (only after a cat's undo)
    stock_known: tuple[tuple[int, str], ...]
    #: depths of stock cards publicly known to be ordinary
    stock_ordinary: tuple[int, ...]
    aside: tuple[AsideView, ...]
    #: the exchanges still in effect, oldest first
    log: tuple[Exchange, ...]
    #: this deal's public events plus the observer's own private events
    history: tuple[Event, ...]
    last: DealResult | None
    winners: tuple[int, ...]

    @property
    def on_turn(self) -> int | None:
        """The seat whose turn it is, None in the knock phase and when the match is over."""
        return self.order[self.turn] if self.phase == TURN else None

    def responder(self, seat: int | None = None) -> int | None:
        """The seat a request by ``seat`` (default: the observer) goes to first: the next seat of the
        turn order still in the deal; ``None`` for the stock (the dealer) or a seat not in the deal.
        Horses and houses that pass the request on show only when it is made."""
        seat = self.seat if seat is None else seat
        if seat not in self.order:
            return None
        for s in self.order[self.order.index(seat) + 1 :]:
            if s not in self.departed:
                return s
        return None


# ---------------------------------------------------------------------------------------------
# Presets for tests: fixed decks


def deck_from_ranks(ranks: Sequence[str]) -> list[int]:
    """Card indexes for a test deck given as rank ids: the first use of a rank is copy 1, the second copy 2.

    ``new_game(..., decks=(...), rotation=R)`` takes one such deck per dealt deal (skipped deals use
    none): first the cards of the turn order T[0], T[1], ..., dealer, then the stock from the top down;
    the rest of the deck is filled at random. Such a state replays only through ``new_game`` with the
    same decks."""
    used: dict[str, int] = {}
    out = []
    for r in ranks:
        if r not in RANK_INDEX:
            raise ValueError(f"unknown rank {r!r}")
        k = used.get(r, 0)
        if k >= 2:
            raise ValueError(f"rank {r!r} used more than twice")
        used[r] = k + 1
        out.append(2 * RANK_INDEX[r] + k)
    return out
