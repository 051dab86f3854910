"""The values of the Afrikan Tähti engine: constants, options, state, actions and their notation, views.

The behaviour (turn flow, legality, setup) is in :mod:`engines.afrikan_tahti.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engines.afrikan_tahti.board import AIR, CODE, LEGS, PLACE_SET, TREASURE_PLACES, node_of
from engines.codec import BadNotation

# ---------------------------------------------------------------------------------------------
# Constants

START_CASH = 300
FLIP_PRICE = 100
SEA_FARE = 100
AIR_FARE = 300
assert all(leg.fare == SEA_FARE for leg in LEGS.values()) and set(AIR.values()) == {AIR_FARE}
FLIP_ROLL_FACES = (4, 5, 6)
SLAVE_COAST_LOST_TURNS = 3
QUICK_START_CASH = 400

SETUP = "setup"
DECLARE = "declare"
RELEASE = "release"
MOVE = "move"
AFTER_MOVE = "after_move"
OVER = "over"

TREASURE_INDEX: dict[str, int] = {p: i for i, p in enumerate(TREASURE_PLACES)}
NO_STOPS: frozenset[str] = frozenset()

# ---------------------------------------------------------------------------------------------
# Options (spec §6)


@dataclass(frozen=True, slots=True)
class Options:
    expansion: bool = True  # Retkikunnat (spec §5); False = the plain base game
    quick_game: bool = False  # §5.21; ignored (normalized to False) without the expansion
    emerald_value: int = 600  # 500 | 600
    broke_sea_steps: int = 2  # 1 | 2
    hazard_trigger: str = "end_of_move"  # "end_of_move" | "pass_through"
    hazard_release_faces: tuple[int, ...] = (1, 2)
    land_to_sea_same_move: bool = True
    sea_to_land_same_move: bool = True
    # None = the mode's default: False in the base game, True in the expansion
    flip_roll_only_when_broke: bool | None = None
    capetown_bonus: int = 500
    start_place: str = "choose"  # "choose" | "random"
    character_assignment: str = "choose"  # "choose" | "random" (expansion)
    hand_limit: int = 4  # expansion
    expedition_card_limit: int = 7  # expansion, before card bonuses
    response_window_seconds: int = 30  # enforced by the chat layer; expiry = pass
    # [decided] ours, not the spec's: a safeguard so that every game ends. After this many rounds
    # the game is decided (holders of a winning item first, then cash); 0 = no limit.
    max_rounds: int = 150


def normalize_options(options: Options | None) -> Options:
    """Validate and normalize (the release faces become a sorted tuple); raise ``ValueError``."""
    o = options if options is not None else Options()
    for name in ("expansion", "quick_game", "land_to_sea_same_move", "sea_to_land_same_move"):
        if not isinstance(getattr(o, name), bool):
            raise ValueError(f"{name} must be a bool")
    if o.emerald_value not in (500, 600):
        raise ValueError("emerald_value must be 500 or 600")
    if o.broke_sea_steps not in (1, 2):
        raise ValueError("broke_sea_steps must be 1 or 2")
    if o.hazard_trigger not in ("end_of_move", "pass_through"):
        raise ValueError("hazard_trigger must be end_of_move or pass_through")
    faces = tuple(sorted(set(o.hazard_release_faces)))
    if not faces or any(isinstance(f, bool) or f not in range(1, 7) for f in faces):
        raise ValueError("hazard_release_faces must be a non-empty set of 1-6")
    if o.flip_roll_only_when_broke not in (None, True, False):
        raise ValueError("flip_roll_only_when_broke must be a bool or null")
    for name in ("capetown_bonus", "max_rounds", "hand_limit", "expedition_card_limit",
                 "response_window_seconds"):
        v = getattr(o, name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0 or (name == "capetown_bonus" and v % 100):
            raise ValueError(f"{name} must be a non-negative integer" + (" (multiple of 100)"
                             if name == "capetown_bonus" else ""))
    if o.start_place not in ("choose", "random"):
        raise ValueError("start_place must be choose or random")
    if o.character_assignment not in ("choose", "random"):
        raise ValueError("character_assignment must be choose or random")
    return replace(o, hazard_release_faces=faces, quick_game=o.quick_game and o.expansion)


def roll_only_when_broke(options: Options) -> bool:
    if options.flip_roll_only_when_broke is None:
        return options.expansion
    return options.flip_roll_only_when_broke


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class Voyage:
    """A voyage along one sea leg (spec §4.4 S1); ``at`` = steps done from ``origin``."""

    leg: str
    origin: str
    dest: str
    at: int
    paid: bool


@dataclass(frozen=True, slots=True)
class Pawn:
    node: str | None  # None until placed
    cash: int = START_CASH
    lost_turns: int = 0
    captured: bool = False
    voyage: Voyage | None = None  # set exactly while the pawn is on a sea dot
    items: tuple[str, ...] = ()  # token ids of the winning items held (the Star, later horseshoes)


@dataclass(frozen=True, slots=True)
class Movement:
    """The die move in progress (public)."""

    steps: int  # steps left
    roll: int  # the allowance the move started with
    visited: tuple[str, ...]  # every node of the move so far, the start included (M2)
    arrived: str  # how the pawn reached its node in this move: "start" | "land" | "sea"


@dataclass(frozen=True, slots=True)
class State:
    seed: str
    ply: int
    players: int
    options: Options
    phase: str
    turn: int  # the active seat (setup: the next seat to choose)
    first_seat: int
    round: int  # 1-based; 0 during setup
    pawns: tuple[Pawn, ...]
    contents: tuple[tuple[str, str], ...]  # (token id, kind) of every token: hidden while face down
    stacks: tuple[tuple[str, ...], ...]  # per TREASURE_PLACES index: face-down token ids, bottom first
    revealed: tuple[tuple[str, str], ...]  # (token id, place where flipped), in flip order
    star_found: bool
    capetown_claimed: int | None  # seat that took the Capetown bonus
    move: Movement | None
    flipped: bool  # a token was flipped this turn (F1)
    last_roll: int | None
    last_roller: int | None
    winner: int | None
    end_reason: str | None  # "goal" | "round_limit"
    dice: tuple[int, ...] = ()  # preset d6 results still to come (tests)
    preset_layout: tuple[tuple[str, str], ...] = ()  # (place, kind) fixed at setup (tests)
    preset_first: int | None = None
    ext: Any = None  # the expansion's part of the state


# ---------------------------------------------------------------------------------------------
# Actions (spec §7)


@dataclass(frozen=True, slots=True)
class Start:
    NOTATION: ClassVar[str] = "start {place}"
    place: str


@dataclass(frozen=True, slots=True)
class Roll:
    NOTATION: ClassVar[str] = "roll"


@dataclass(frozen=True, slots=True)
class Move:
    NOTATION: ClassVar[str] = "move {to}[ via {via}]"
    to: str
    via: str | None = None


@dataclass(frozen=True, slots=True)
class Board:
    NOTATION: ClassVar[str] = "board {to}"
    to: str


@dataclass(frozen=True, slots=True)
class FreeSail:
    NOTATION: ClassVar[str] = "free_sail {to}"
    to: str


@dataclass(frozen=True, slots=True)
class Fly:
    NOTATION: ClassVar[str] = "fly {to}"
    to: str


@dataclass(frozen=True, slots=True)
class Flip:
    NOTATION: ClassVar[str] = "flip"


@dataclass(frozen=True, slots=True)
class FlipRoll:
    NOTATION: ClassVar[str] = "flip_roll"


@dataclass(frozen=True, slots=True)
class Stay:
    NOTATION: ClassVar[str] = "stay"


@dataclass(frozen=True, slots=True)
class EndPhase:
    NOTATION: ClassVar[str] = "end_phase"


Action = Start | Roll | Move | Board | FreeSail | Fly | Flip | FlipRoll | Stay | EndPhase
ACTION_TYPES: tuple[type, ...] = (Start, Roll, Move, Board, FreeSail, Fly, Flip, FlipRoll, Stay, EndPhase)

#: the turn phases as data: which actions each phase accepts (an expansion adds its phases here)
PHASE_ACTIONS: dict[str, tuple[type, ...]] = {
    SETUP: (Start,),
    DECLARE: (Roll, Board, FreeSail, Fly, Flip, FlipRoll, Stay),
    RELEASE: (Roll,),
    MOVE: (Move, Board),
    AFTER_MOVE: (Flip, EndPhase),
    OVER: (),
}

_SIMPLE: dict[str, Action] = {
    "roll": Roll(), "flip": Flip(), "flip_roll": FlipRoll(), "stay": Stay(), "end_phase": EndPhase(),
}
_ONE_ARG: dict[str, type] = {"start": Start, "board": Board, "free_sail": FreeSail, "fly": Fly}


def notation(action: Any) -> str:
    match action:
        case Roll():
            return "roll"
        case Move(to, None):
            return f"move {CODE[to]}"
        case Move(to, via) if via is not None:
            return f"move {CODE[to]} via {CODE[via]}"
        case Board(to):
            return f"board {to}"
        case FreeSail(to):
            return f"free_sail {to}"
        case Fly(to):
            return f"fly {to}"
        case Flip():
            return "flip"
        case FlipRoll():
            return "flip_roll"
        case Stay():
            return "stay"
        case EndPhase():
            return "end_phase"
        case Start(place):
            return f"start {place}"
    raise ValueError(f"not an Afrikan Tähti action: {action!r}")


def parse_notation(text: str) -> Action:
    if not isinstance(text, str):
        raise BadNotation(text)
    words = text.strip().lower().split()
    if len(words) == 1 and words[0] in _SIMPLE:
        return _SIMPLE[words[0]]
    if len(words) == 2 and words[0] in _ONE_ARG:
        place = node_of(words[1])
        if place is None or place not in PLACE_SET:
            raise BadNotation(text)
        cls = _ONE_ARG[words[0]]
        action: Action = cls(place)
        return action
    if words and words[0] == "move" and len(words) in (2, 4):
        to = node_of(words[1])
        via = None
        if len(words) == 4:
            if words[2] != "via":
                raise BadNotation(text)
            via = node_of(words[3])
            if via is None:
                raise BadNotation(text)
        if to is None:
            raise BadNotation(text)
        return Move(to, via)
    raise BadNotation(text)


# ---------------------------------------------------------------------------------------------
# Views (spec §9): everything public except face-down token contents


@dataclass(frozen=True, slots=True)
class PawnView:
    node: str | None
    cash: int
    lost_turns: int
    captured: bool
    voyage: Voyage | None
    items: tuple[str, ...]  # content ids of winning items held, e.g. "tok:t5:star"


@dataclass(frozen=True, slots=True)
class View:
    seat: int | None  # the observer (None = the public table); base mode has nothing private
    players: int
    options: Options
    phase: str
    turn: int | None  # None when the game is over
    to_act: tuple[int, ...]
    round: int
    first_seat: int
    pawns: tuple[PawnView, ...]
    face_down: tuple[tuple[str, str], ...]  # (place, token id) of every face-down token, bottom first
    revealed: tuple[tuple[str, str], ...]  # (place where flipped, content id), in flip order
    star_found: bool
    star_holder: int | None
    capetown_claimed: int | None
    last_roll: int | None
    last_roller: int | None
    move: Movement | None
    flipped_this_turn: bool
    winner: int | None
    end_reason: str | None
    # added with Retkikunnat: the pending decision (None: the phase's own actions) and the
    # expansion's part of the table (``xmodel.XView``; None in the base game)
    prompt: str | None = None
    x: Any = None


def content_id(tid: str, kind: str) -> str:
    return f"tok:{tid}:{kind}"


# ---------------------------------------------------------------------------------------------
# Pure helpers shared by check, candidates and perform


def kind_of(contents: tuple[tuple[str, str], ...], tid: str) -> str:
    for t, k in contents:
        if t == tid:
            return k
    raise KeyError(tid)


def top_token(stacks: tuple[tuple[str, ...], ...], node: str | None) -> str | None:
    i = TREASURE_INDEX.get(node) if node is not None else None
    if i is None or not stacks[i]:
        return None
    return stacks[i][-1]


def holds_winning_item(pawn: Pawn) -> bool:
    return bool(pawn.items)
