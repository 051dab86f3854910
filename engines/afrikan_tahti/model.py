"""What both layers of Afrikan Tähti share: constants, options, the state and its working copy, every
action (the base game's and Retkikunnat's) with its notation, the views, the move menu and the test
presets of ``new_game``.

The expansion's own values (its part of the state and of the views) are in
:mod:`engines.afrikan_tahti.retkikunnat.model`; the rules in :mod:`engines.afrikan_tahti.rules`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from engines.afrikan_tahti.board import AIR, CODE, LEGS, PLACE_SET, TREASURE_PLACES, node_of
from engines.afrikan_tahti.retkikunnat.content import CHARS, EVT, EXP, HAND_CARDS
from engines.afrikan_tahti.retkikunnat.model import Deck, Ext, Job, SeatX, TurnX
from engines.codec import BadNotation, Notation, one_of
from engines.contract import maker, replacer
from engines.work import Work

# ---------------------------------------------------------------------------------------------
# Constants

START_CASH = 300
#: the most seats a game has (``AfrikanTahti.max_players``)
MAX_SEATS = 6
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
    for name in (
        "capetown_bonus",
        "max_rounds",
        "hand_limit",
        "expedition_card_limit",
        "response_window_seconds",
    ):
        v = getattr(o, name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0 or (name == "capetown_bonus" and v % 100):
            raise ValueError(
                f"{name} must be a non-negative integer"
                + (" (multiple of 100)" if name == "capetown_bonus" else "")
            )
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
    ext: Ext | None = None  # Retkikunnat's part of the state (None in the base game)


# ---------------------------------------------------------------------------------------------
# Actions (spec §7): the base game's, then Retkikunnat's


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
BASE_ACTIONS: tuple[type, ...] = (Start, Roll, Move, Board, FreeSail, Fly, Flip, FlipRoll, Stay, EndPhase)


@dataclass(frozen=True, slots=True)
class Character:
    NOTATION: ClassVar[str] = "character {id}"
    id: str


@dataclass(frozen=True, slots=True)
class Seaplane:
    NOTATION: ClassVar[str] = "seaplane {to}"
    to: str


@dataclass(frozen=True, slots=True)
class GemRoll:
    NOTATION: ClassVar[str] = "gem_roll"


@dataclass(frozen=True, slots=True)
class RerollMove:
    NOTATION: ClassVar[str] = "reroll_move"


@dataclass(frozen=True, slots=True)
class Adjust:
    NOTATION: ClassVar[str] = "adjust {delta:+d}"
    delta: int  # +1 | -1


@dataclass(frozen=True, slots=True)
class Use:
    NOTATION: ClassVar[str] = "use {card}[ {arg}]"
    card: str
    arg: str | None = None


@dataclass(frozen=True, slots=True)
class Reroll:
    NOTATION: ClassVar[str] = "reroll {card} {dice}"
    card: str  # an expedition card id, or "doctor" (the character's reroll)
    dice: tuple[int, ...]  # 1-5, ascending


@dataclass(frozen=True, slots=True)
class RerollDone:
    NOTATION: ClassVar[str] = "reroll_done"


@dataclass(frozen=True, slots=True)
class Sell:
    NOTATION: ClassVar[str] = "sell {card}"
    card: str


@dataclass(frozen=True, slots=True)
class Discard:
    NOTATION: ClassVar[str] = "discard {card}"
    card: str


@dataclass(frozen=True, slots=True)
class Hold:
    NOTATION: ClassVar[str] = "hold {card}"
    card: str


@dataclass(frozen=True, slots=True)
class Unhold:
    NOTATION: ClassVar[str] = "unhold {card}"
    card: str


@dataclass(frozen=True, slots=True)
class Play:
    NOTATION: ClassVar[str] = "play {card}[ {arg}]"
    card: str
    arg: str | None = None  # "seat2:rifle" (Sabotage on a lasting card), a place (Surprise!)


@dataclass(frozen=True, slots=True)
class Pass:
    NOTATION: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Ask:
    """A seat's standing answer to reaction windows (private): ``all`` (ask me in every window),
    ``never`` (pass for me at once), or a hand card id (ask me only in windows that card answers)."""

    NOTATION: ClassVar[str] = "ask {mode}"
    mode: str


@dataclass(frozen=True, slots=True)
class Lapse:
    """The chat layer's pass for a seat whose window time ran out (never a candidate, never a button):
    two in a row set the seat to ``ask never``."""

    NOTATION: ClassVar[str] = "lapse"


@dataclass(frozen=True, slots=True)
class Duel:
    NOTATION: ClassVar[str] = "duel seat{seat} {target}"
    seat: int
    target: str  # star | horseshoe | card:<id> | money:<200|400|600>


@dataclass(frozen=True, slots=True)
class Offer:
    NOTATION: ClassVar[str] = "offer seat{seat} {give} for {get}"
    seat: int
    give: tuple[str, ...]  # card ids and at most one sum of money (digits)
    get: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Accept:
    NOTATION: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class Decline:
    NOTATION: ClassVar[str] = "decline"


@dataclass(frozen=True, slots=True)
class SwapStack:
    NOTATION: ClassVar[str] = "swap_stack {place}"
    place: str


@dataclass(frozen=True, slots=True)
class Peek:
    NOTATION: ClassVar[str] = "peek"


@dataclass(frozen=True, slots=True)
class Exchange:
    NOTATION: ClassVar[str] = "exchange"


@dataclass(frozen=True, slots=True)
class BuyDiscard:
    NOTATION: ClassVar[str] = "buy_discard"


@dataclass(frozen=True, slots=True)
class Choose:
    NOTATION: ClassVar[str] = "choose {option}"
    option: str  # a place, a card id, seat<k>


RETKIKUNNAT_ACTIONS: tuple[type, ...] = (
    Character,
    Seaplane,
    GemRoll,
    RerollMove,
    Adjust,
    Use,
    Reroll,
    RerollDone,
    Sell,
    Discard,
    Hold,
    Unhold,
    Play,
    Pass,
    Ask,
    Lapse,
    Duel,
    Offer,
    Accept,
    Decline,
    SwapStack,
    Peek,
    Exchange,
    BuyDiscard,
    Choose,
)
ACTIONS: tuple[type, ...] = (*BASE_ACTIONS, *RETKIKUNNAT_ACTIONS)

#: the turn phases of the base game as data: which actions each phase accepts
PHASE_ACTIONS: dict[str, tuple[type, ...]] = {
    SETUP: (Start,),
    DECLARE: (Roll, Board, FreeSail, Fly, Flip, FlipRoll, Stay),
    RELEASE: (Roll,),
    MOVE: (Move, Board),
    AFTER_MOVE: (Flip, EndPhase),
    OVER: (),
}


# ---------------------------------------------------------------------------------------------
# Notation (spec §7): one codec for every action, from the NOTATION templates

_SEAT = re.compile(r"seat([0-5])")
_MONEY = re.compile(r"[1-9][0-9]{2,4}")


def seat_of(word: str) -> int | None:
    m = _SEAT.fullmatch(word)
    return int(m.group(1)) if m else None


def _word_is_seat(word: str) -> int:
    if not re.fullmatch(r"[0-5]", word):
        raise ValueError(word)
    return int(word)


def _read_node(word: str) -> str:
    node = node_of(word)
    if node is None:
        raise ValueError(word)
    return node


def _read_place(word: str) -> str:
    node = node_of(word)
    if node is None or node not in PLACE_SET:
        raise ValueError(word)
    return node


def _read_card(word: str) -> str:
    # any card a command may name; which deck each action accepts is in _FITS
    if word in EXP or word in EVT or word == "doctor":
        return word
    raise ValueError(word)


def _read_arg(word: str) -> str:
    if ":" in word:  # Sabotage aimed at a lasting card: seat<k>:<card>
        s, _, card = word.partition(":")
        if seat_of(s) is None or card not in EXP:
            raise ValueError(word)
        return word
    return _read_place(word)


def _read_dice(word: str) -> tuple[int, ...]:
    dice = tuple(int(d) for d in word.split(","))
    if not dice or list(dice) != sorted(set(dice)) or not all(1 <= d <= 5 for d in dice):
        raise ValueError(word)
    return dice


def _read_target(word: str) -> str:
    kind, _, arg = word.partition(":")
    if (
        word in ("star", "horseshoe")
        or (kind == "card" and arg in EXP)
        or (kind == "money" and arg in ("200", "400", "600"))
    ):
        return word
    raise ValueError(word)


def _read_option(word: str) -> str:
    if seat_of(word) is not None or word in EXP or word in PLACE_SET or word == "buy":
        return word
    return _read_place(word)


_ADJUST = {"+1": 1, "-1": -1}


def _code(node: str) -> str:
    return CODE.get(node) or node


def _normalise(text: str) -> str:
    # Lower case and one space between words, as the notation always read its input. Only ASCII
    # can name an action (a text that lower() leaves non-ASCII, say "ſtay", which the codec's
    # case-insensitive match would take for "stay", names none), except the digits of a reroll,
    # which were always read with int().
    norm = " ".join(text.lower().split())
    return norm if all(ch.isascii() or ch.isdecimal() for ch in norm) else ""


def _offer_words(text: str) -> str:
    # the spec's wording "offer seat1 give a,b get c" is read as "offer seat1 a,b for c"
    norm = _normalise(text)
    words = norm.split(" ")
    if len(words) == 6 and words[0] == "offer" and words[2] == "give" and words[4] == "get":
        return " ".join((words[0], words[1], words[3], "for", words[5]))
    return norm


def _items(word: str) -> tuple[str, ...]:
    """The two sides of a trade offer: card ids and at most one sum, ``-`` for nothing."""
    if word == "-":
        return ()
    items = tuple(word.split(","))
    money = [i for i in items if _MONEY.fullmatch(i)]
    cards = [i for i in items if i in EXP]
    if len(money) + len(cards) != len(items) or len(money) > 1 or len(set(cards)) != len(cards):
        raise BadNotation(word)
    return items


#: what each action accepts beyond its fields' readers: the same field name means different sets in
#: different actions (``to``: any node in ``move``, a place elsewhere; ``card``: an expedition card in
#: ``use``, a hand card in ``play``, either in ``discard``; ``arg``: a place in ``use``)
_FITS: dict[type, Callable[[Any], bool]] = {
    Board: lambda a: a.to in PLACE_SET,
    FreeSail: lambda a: a.to in PLACE_SET,
    Fly: lambda a: a.to in PLACE_SET,
    Seaplane: lambda a: a.to in PLACE_SET,
    Use: lambda a: a.card in EXP and (a.arg is None or ":" not in a.arg),
    Reroll: lambda a: a.card in EXP or a.card == "doctor",
    Sell: lambda a: a.card in EXP,
    Hold: lambda a: a.card in EXP,
    Unhold: lambda a: a.card in EXP,
    Discard: lambda a: a.card in EXP or a.card in EVT,
    Play: lambda a: a.card in HAND_CARDS,
}


class _Notation(Notation):
    # The shared codec picks a field's reader by the field's name only; :data:`_FITS` adds the
    # check per action class that the hand-written parser made (see above), so that the codec
    # refuses exactly what it refused.
    def read(self, text: str) -> Any:
        action = super().read(text)
        fits = _FITS.get(type(action))
        if fits is not None and not fits(action):
            raise BadNotation(text)
        return action


#: the notation of every action (``Engine.notation_codec``)
NOTATION = _Notation(
    ACTIONS,
    readers={
        "to": _read_node,
        "via": _read_node,
        "place": _read_place,
        "id": one_of(CHARS),
        "delta": _ADJUST.__getitem__,
        "card": _read_card,
        "arg": _read_arg,
        "dice": _read_dice,
        "seat": _word_is_seat,
        "target": _read_target,
        "give": _items,
        "get": _items,
        "option": _read_option,
    },
    writers={
        "to": _code,
        "via": _code,
        "dice": lambda d: ",".join(str(x) for x in d),
        "give": lambda i: ",".join(i) or "-",
        "get": lambda i: ",".join(i) or "-",
    },
    normalise=_offer_words,
)


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
    # expansion's part of the table (``retkikunnat.model.XView``; None in the base game; typed Any
    # so that readers of a Retkikunnat view need no narrowing)
    prompt: str | None = None
    x: Any = None


def content_id(tid: str, kind: str) -> str:
    return f"tok:{tid}:{kind}"


# ---------------------------------------------------------------------------------------------
# Pure helpers shared by check, candidates and perform


def kind_of(contents: Sequence[Sequence[str]], tid: str) -> str:
    for t, k in contents:
        if t == tid:
            return k
    raise KeyError(tid)


def top_token(stacks: Sequence[Sequence[str]], node: str | None) -> str | None:
    i = TREASURE_INDEX.get(node) if node is not None else None
    if i is None or not stacks[i]:
        return None
    return stacks[i][-1]


def holds_winning_item(pawn: Pawn) -> bool:
    return bool(pawn.items)


# ---------------------------------------------------------------------------------------------
# The move menu (both rule sets)


@dataclass(frozen=True, slots=True)
class MoveMenu:
    """The choices of a movement decision: land destinations (with every path there and the places
    that tell the paths apart), legs to board, whether the move may end where the pawn stands, and
    (Retkikunnat) sea nodes to sail to -- the end of the reach, or where another pawn stands (M3c)
    -- with the leg boarded for them, and the steps on land and at sea (rain, Sea captain)."""

    dests: tuple[tuple[str, tuple[tuple[str, ...], ...], tuple[str, ...]], ...]
    boards: tuple[str, ...]
    stop_here: bool
    sea: tuple[tuple[str, str | None, int], ...] = ()  # (node, leg to board or None, steps)
    land_steps: int = 0
    sea_steps: int = 0

    def paths(self, to: str) -> tuple[tuple[str, ...], ...] | None:
        for d, ps, _vias in self.dests:
            if d == to:
                return ps
        return None

    def sea_target(self, to: str) -> tuple[str, str | None, int] | None:
        return next((t for t in self.sea if t[0] == to), None)


def chosen_path(paths: Sequence[tuple[str, ...]] | None, via: str | None) -> tuple[str, ...] | None:
    """The path ``move <dest> [via <place>]`` takes among the ``paths`` to that destination (canonical
    first): the canonical one, or the first that passes ``via``; None if there is none."""
    if not paths:
        return None
    if via is None:
        return paths[0]
    return next((p for p in paths if via in p[:-1]), None)


# ---------------------------------------------------------------------------------------------
# Test presets of ``new_game``


@dataclass(frozen=True, slots=True)
class Presets:
    """What a test may fix at setup (all optional). Both games: ``layout`` {place: kind} (the top
    token), ``first_seat``, ``dice`` (the next d6 results, used before the seeded generator).
    Retkikunnat only: ``lower`` {place: kind} (discovery tokens under the equipment tokens),
    ``characters`` (one id or None per seat), ``decks`` {"event": (ids or instances on top, ...)},
    ``danger_dice`` (faces). A state made with presets keeps them, so that ``start_events`` and a
    replay through ``new_game`` with the same keywords give the same game."""

    layout: Mapping[str, str] | None = None
    lower: Mapping[str, str] | None = None
    first_seat: int | None = None
    dice: Sequence[int] = ()
    characters: Sequence[str | None] = ()
    decks: Mapping[str, Sequence[str]] | None = None
    danger_dice: Sequence[str] = ()

    def given(self) -> dict[str, Any]:
        """The presets set (not None, not empty), by name."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if v is not None and v != () and v != {}:
                out[f.name] = v
        return out

    def stored(self) -> tuple[tuple[str, Any], ...]:
        """The presets set, as the state keeps them (sorted, mappings as sorted pairs)."""
        return tuple(sorted((k, _frozen(v)) for k, v in self.given().items()))

    @classmethod
    def from_stored(cls, stored: tuple[tuple[str, Any], ...]) -> Presets:
        values: dict[str, Any] = {k: dict(v) if k in ("layout", "lower", "decks") else v for k, v in stored}
        return cls(**values)


def _frozen(v: Any) -> Any:
    if isinstance(v, Mapping):
        return tuple(sorted((k, _frozen(x)) for k, x in v.items()))
    if isinstance(v, list | tuple):
        return tuple(_frozen(x) for x in v)
    return v


# ---------------------------------------------------------------------------------------------
# The working copy (both rule sets)

_pawn = maker(Pawn)
_PAWN_FIELDS = frozenset(f.name for f in fields(Pawn))
_with_place = replacer(Pawn, ("node", "voyage"))


def _pawn_setter(name: str) -> Callable[[AfrikanWork, int, Any], Pawn]:
    """``set_<name>(seat, value)``: :meth:`AfrikanWork.set_pawn` of that one field, by position."""
    replace = replacer(Pawn, (name,))

    def set_field(w: AfrikanWork, seat: int, value: Any) -> Pawn:
        p = w.pawns[seat] = replace(w.pawns[seat], value)
        return p

    set_field.__name__ = f"set_{name}"
    return set_field


class AfrikanWork(Work[State]):
    """A mutable copy of a :class:`State` for one transition (or for reading a state): the rules of
    both layers are functions over it. Tuples became lists, except the token contents and the test
    layout (never changed) and the ``stacks`` (a tuple of tuples, top last), ``revealed`` and the
    preset dice, which the rules replace whole when they change (rarely: a flip, a die): ``KEEP``,
    no copy on each action; the pawns are one list (``SHALLOW``).
    Retkikunnat's part (``State.ext``) is unpacked into the mutable fields below and packed again by
    :meth:`freeze`. The random streams are numbered per ply as they always were."""

    KEEP = frozenset({"contents", "preset_layout", "stacks", "revealed", "dice"})
    SHALLOW = frozenset({"pawns"})

    seed: str
    ply: int
    players: int
    options: Options
    phase: str
    turn: int
    first_seat: int
    round: int
    pawns: list[Pawn]
    contents: tuple[tuple[str, str], ...]  # never changes
    stacks: tuple[tuple[str, ...], ...]  # per treasure place, bottom first; replaced whole
    revealed: tuple[tuple[str, str], ...]  # replaced whole
    star_found: bool
    capetown_claimed: int | None
    move: Movement | None
    flipped: bool
    last_roll: int | None
    last_roller: int | None
    winner: int | None
    end_reason: str | None
    dice: tuple[int, ...]  # replaced whole
    preset_layout: tuple[tuple[str, str], ...]  # never changes
    preset_first: int | None
    ext: Ext | None
    # Retkikunnat only (from ``ext``)
    sx: list[SeatX]  # the seats' expedition parts
    decks: dict[str, Deck]
    rain: str | None
    known: list[str]
    stack: list[Job]  # pending decisions and queued work, top last
    tx: TurnX
    resolving: list[str]
    ddice: list[str]

    # The declared fields live in slots: with the working copy's own attributes they were more than
    # a shared instance dict holds, and every copy grew a dict of its own.
    __slots__ = tuple(__annotations__)

    def __init__(self, state: State, *, quiet: bool = False) -> None:
        Work.__init__(self, state, quiet=quiet)
        x = state.ext
        if x is not None:
            self.sx = list(x.seats)
            self.decks = {"expedition": x.expedition, "event": x.event, "danger": x.danger}
            self.rain = x.rain
            self.known = list(x.known)
            self.stack = list(x.stack)
            self.tx = x.turn
            self.resolving = list(x.resolving)
            self.ddice = list(x.ddice)

    def freeze(self, **changes: Any) -> State:
        if self.ext is None and not changes:
            return self._store(self)  # type: ignore[no-any-return]
        if self.ext is not None:
            self.ext = replace(
                self.ext,
                seats=tuple(self.sx),
                expedition=self.decks["expedition"],
                event=self.decks["event"],
                danger=self.decks["danger"],
                rain=self.rain,
                known=tuple(t for t in self.known if any(t in st for st in self.stacks)),
                stack=tuple(self.stack),
                turn=self.tx,
                resolving=tuple(self.resolving),
                ddice=tuple(self.ddice),
            )
        return super().freeze(**changes)

    # --- small helpers ---------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == OVER

    def kind(self, tid: str) -> str:
        return kind_of(self.contents, tid)

    def set_pawn(self, seat: int, **changes: Any) -> Pawn:
        p = self.pawns[seat]
        if not changes.keys() <= _PAWN_FIELDS:
            raise TypeError(f"no such pawn fields: {sorted(changes.keys() - _PAWN_FIELDS)}")
        get = changes.get
        p = _pawn(
            get("node", p.node),
            get("cash", p.cash),
            get("lost_turns", p.lost_turns),
            get("captured", p.captured),
            get("voyage", p.voyage),
            get("items", p.items),
        )
        self.pawns[seat] = p
        return p

    # :meth:`set_pawn` of one or two fields, without the keywords (a keyword call and its checks cost
    # several times the new pawn): the base game's transitions use these
    def place_pawn(self, seat: int, node: str, voyage: Voyage | None) -> None:
        """:meth:`set_pawn` of ``node`` and ``voyage`` (every step of a move)."""
        self.pawns[seat] = _with_place(self.pawns[seat], node, voyage)

    set_cash = _pawn_setter("cash")
    set_lost_turns = _pawn_setter("lost_turns")
    set_captured = _pawn_setter("captured")
    set_voyage = _pawn_setter("voyage")
    set_items = _pawn_setter("items")

    def pay(self, seat: int, amount: int) -> None:
        cash = self.pawns[seat].cash
        assert cash >= amount, (cash, amount)
        self.set_cash(seat, cash - amount)

    def add_cash(self, seat: int, amount: int) -> None:
        """Retkikunnat's payments: never below 0."""
        self.set_cash(seat, max(0, self.pawns[seat].cash + amount))

    def die(self, seat: int, purpose: str) -> int:
        """One d6 roll by ``seat`` (preset dice first), announced to everyone."""
        dice = self.dice
        if dice:
            value = dice[0]
            self.dice = dice[1:]
        else:
            value = self.randint("d6", 1, 6)
        if not 1 <= value <= 6:
            raise ValueError(f"preset die {value} out of range")
        self.last_roll = value
        self.last_roller = seat
        self.emit_pairs("rolled", None, (("seat", seat), ("die", value), ("purpose", purpose)))
        return value

    # --- Retkikunnat ---------------------------------------------------------------------------
    def top(self) -> Job | None:
        """The job on top of the stack: the pending decision, if it is a prompt."""
        return self.stack[-1] if self.stack else None

    def push(self, j: Job) -> None:
        self.stack.append(j)

    def set_sx(self, seat: int, **changes: Any) -> SeatX:
        v = replace(self.sx[seat], **changes)
        self.sx[seat] = v
        return v

    def mark_used(self, seat: int, key: str) -> None:
        self.set_sx(seat, used=(*self.sx[seat].used, key))
