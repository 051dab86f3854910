"""Retkikunnat values: the expansion's part of the state (``State.ext``), its actions and their
notation, and the expansion part of the views (``View.x``).

Pending decisions live on a stack of :class:`Job` values (``Ext.stack``, top last): a job is either a
*prompt* (someone must answer: a reaction window, a danger situation, a duel, a trade offer, a choice)
or automatic work queued behind a prompt (the rest of a walk, the effect of an announced card use).
The turn's phase (``State.phase``) applies only while the stack is empty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engines.afrikan_tahti import model
from engines.afrikan_tahti.board import CODE, PLACE_SET, node_of
from engines.afrikan_tahti.cards import Deck
from engines.afrikan_tahti.xdata import CHARS, EVT, EXP, HAND_CARDS
from engines.codec import BadNotation, Notation, one_of

CHARACTER = "character"  # setup: characters are chosen before the start places
PHASE2 = "phase2"
PHASE3 = "phase3"

# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class Job:
    """A pending decision (a prompt) or queued work; ``p`` holds (name, value) pairs."""

    kind: str
    seat: int
    p: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.p:
            if k == key:
                return v
        return default

    def __getitem__(self, key: str) -> Any:
        for k, v in self.p:
            if k == key:
                return v
        raise KeyError(key)

    def but(self, **changes: Any) -> Job:
        d = dict(self.p)
        d.update(changes)
        return replace(self, p=tuple(d.items()))


def job(kind: str, seat: int, /, **p: Any) -> Job:
    return Job(kind, seat, tuple(p.items()))


@dataclass(frozen=True, slots=True)
class SeatX:
    character: str | None = None
    cards: tuple[str, ...] = ()  # expedition card instances, face up
    hand: tuple[str, ...] = ()  # hand card instances (hidden)
    used: tuple[str, ...] = ()  # "<instance>:a" (active/discard use), "<instance>:p" (passive), "@<ability>"
    held: tuple[str, ...] = ()  # passive cards set to hold
    peeks: tuple[str, ...] = ()  # token ids this seat has seen face down


@dataclass(frozen=True, slots=True)
class MoveCtx:
    """What kind of movement is in progress: ``die``, ``free``, ``fly``, ``seaplane`` (Phase 1),
    ``extra`` (an expedition card in Phase 2), ``hand`` (Forced march, Tailwind)."""

    kind: str
    terrain: str  # land | sea | any
    events: bool
    start: str  # the node the movement started from (no event there)


@dataclass(frozen=True, slots=True)
class TurnX:
    declared: str | None = None  # roll | free_sail | fly | seaplane | stay | gem_roll | release
    die: int | None = None  # the movement die before modifiers (Orienteering)
    mods: tuple[str, ...] = ()  # die modifiers used: compass, maps
    visited: tuple[str, ...] = ()  # nodes of this turn's move (M2 over the die move and extra steps)
    places: tuple[str, ...] = ()  # places the pawn stood on this turn (Scout)
    moved: bool = False
    action: str | None = None  # the Phase-3 choice made: flip | duel | trade
    offers: int = 0
    mv: MoveCtx | None = None


@dataclass(frozen=True, slots=True)
class Ext:
    seats: tuple[SeatX, ...]
    expedition: Deck
    event: Deck
    danger: Deck
    rain: str | None = None  # the rainy season card lying on the board
    known: tuple[str, ...] = ()  # face-down tokens whose identity is public (moved by Surprise!)
    stack: tuple[Job, ...] = ()
    turn: TurnX = TurnX()
    resolving: tuple[str, ...] = ()  # event, danger and hand cards being resolved (public)
    ddice: tuple[str, ...] = ()  # preset danger-die faces still to come (tests)
    presets: tuple[tuple[str, Any], ...] = ()  # the setup keywords (tests), for start_events


# ---------------------------------------------------------------------------------------------
# Actions (spec §7) added by the expansion


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


X_ACTION_TYPES: tuple[type, ...] = (
    Character, Seaplane, GemRoll, RerollMove, Adjust, Use, Reroll, RerollDone, Sell, Discard, Hold, Unhold,
    Play, Pass, Duel, Offer, Accept, Decline, SwapStack, Peek, Exchange, BuyDiscard, Choose,
)
ALL_ACTION_TYPES: tuple[type, ...] = (*model.ACTION_TYPES, *X_ACTION_TYPES)

_SIMPLE: dict[str, Any] = {
    "gem_roll": GemRoll(), "reroll_move": RerollMove(), "reroll_done": RerollDone(), "pass": Pass(),
    "accept": Accept(), "decline": Decline(), "peek": Peek(), "exchange": Exchange(),
    "buy_discard": BuyDiscard(),
}
_SIMPLE_NAME = {type(a): n for n, a in _SIMPLE.items()}
_CARD_WORD: dict[str, type] = {"sell": Sell, "discard": Discard, "hold": Hold, "unhold": Unhold}
_SEAT = re.compile(r"seat([0-5])")
_MONEY = re.compile(r"[1-9][0-9]{2,4}")


# ---------------------------------------------------------------------------------------------
# The notation of every action (base and expansion), from the classes' NOTATION templates


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
    if word in ("star", "horseshoe") or (kind == "card" and arg in EXP) or (kind == "money" and arg in ("200", "400", "600")):
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


#: what each action accepts beyond its fields' readers: the same field name means different sets
#: in different actions (``to``: any node in ``move``, a place elsewhere; ``card``: an expedition
#: card in ``use``, a hand card in ``play``, either in ``discard``)
_FITS: dict[type, Any] = {}


class _Notation(Notation):
    """The codec with one check per action class after reading (:data:`_FITS`): field readers are
    chosen by field name only, and ``to``/``card``/``arg`` name different sets in different actions."""

    def read(self, text: str) -> Any:
        action = super().read(text)
        fits = _FITS.get(type(action))
        if fits is not None and not fits(action):
            raise BadNotation(text)
        return action


def seat_word(seat: int) -> str:
    return f"seat{seat}"


def seat_of(word: str) -> int | None:
    m = _SEAT.fullmatch(word)
    return int(m.group(1)) if m else None


def notation(action: Any) -> str:
    """Base actions keep their notation (:func:`model.notation`); the expansion's are added."""
    if isinstance(action, model.ACTION_TYPES):
        return model.notation(action)
    match action:
        case Character(i):
            return f"character {i}"
        case Seaplane(to):
            return f"seaplane {to}"
        case Adjust(d):
            return f"adjust {d:+d}"
        case Use(card, None):
            return f"use {card}"
        case Use(card, arg):
            return f"use {card} {arg}"
        case Reroll(card, dice):
            return f"reroll {card} {','.join(str(d) for d in dice)}"
        case Sell(c) | Discard(c) | Hold(c) | Unhold(c):
            word = {Sell: "sell", Discard: "discard", Hold: "hold", Unhold: "unhold"}[type(action)]
            return f"{word} {c}"
        case Play(card, None):
            return f"play {card}"
        case Play(card, arg):
            return f"play {card} {arg}"
        case Duel(seat, target):
            return f"duel {seat_word(seat)} {target}"
        case Offer(seat, give, get):
            return f"offer {seat_word(seat)} {','.join(give) or '-'} for {','.join(get) or '-'}"
        case SwapStack(place):
            return f"swap_stack {place}"
        case Choose(option):
            return f"choose {option}"
    name = _SIMPLE_NAME.get(type(action))
    if name is None:
        raise ValueError(f"not an Afrikan Tähti action: {action!r}")
    return name


def _items(word: str) -> tuple[str, ...]:
    if word == "-":
        return ()
    items = tuple(word.split(","))
    money = [i for i in items if _MONEY.fullmatch(i)]
    cards = [i for i in items if i in EXP]
    if len(money) + len(cards) != len(items) or len(money) > 1 or len(set(cards)) != len(cards):
        raise BadNotation(word)
    return items


def _place(word: str, text: str) -> str:
    node = node_of(word)
    if node is None or node not in PLACE_SET:
        raise BadNotation(text)
    return node


def parse_notation(text: str) -> Any:
    if not isinstance(text, str):
        raise BadNotation(text)
    words = text.strip().lower().split()
    if not words:
        raise BadNotation(text)
    head, args = words[0], words[1:]
    if len(words) == 1 and head in _SIMPLE:
        return _SIMPLE[head]
    match head, args:
        case "character", [i] if i in CHARS:
            return Character(i)
        case "seaplane", [p]:
            return Seaplane(_place(p, text))
        case "adjust", ["+1" | "-1" as d]:
            return Adjust(int(d))
        case "use", [c] if c in EXP:
            return Use(c)
        case "use", [c, a] if c in EXP:
            return Use(c, _place(a, text))
        case "reroll", [c, dice] if c in EXP or c == "doctor":
            try:
                ds = tuple(int(d) for d in dice.split(","))
            except ValueError:
                raise BadNotation(text) from None
            if not ds or list(ds) != sorted(set(ds)) or not all(1 <= d <= 5 for d in ds):
                raise BadNotation(text)
            return Reroll(c, ds)
        case ("sell" | "discard" | "hold" | "unhold"), [c] if c in EXP or (head == "discard" and c in EVT):
            return _CARD_WORD[head](c)
        case "play", [c] if c in HAND_CARDS:
            return Play(c)
        case "play", [c, a] if c in HAND_CARDS:
            if ":" in a:
                s, _, card = a.partition(":")
                if seat_of(s) is None or card not in EXP:
                    raise BadNotation(text)
                return Play(c, a)
            return Play(c, _place(a, text))
        case "duel", [s, target] if seat_of(s) is not None:
            kind, _, arg = target.partition(":")
            if (target in ("star", "horseshoe") or (kind == "card" and arg in EXP)
                    or (kind == "money" and arg in ("200", "400", "600"))):
                return Duel(seat_of(s) or 0, target)
        case "offer", [s, give, "for", get] if seat_of(s) is not None:
            return Offer(seat_of(s) or 0, _items(give), _items(get))
        case "offer", [s, "give", give, "get", get] if seat_of(s) is not None:  # the spec's wording
            return Offer(seat_of(s) or 0, _items(give), _items(get))
        case "swap_stack", [p]:
            return SwapStack(_place(p, text))
        case "choose", [o]:
            if seat_of(o) is not None or o in EXP or o in PLACE_SET or o == "buy":
                return Choose(o)
            node = node_of(o)
            if node is not None and node in PLACE_SET:
                return Choose(node)
    if head in _SIMPLE or head in ("character", "seaplane", "adjust", "use", "reroll", "sell", "discard",
                                   "hold", "unhold", "play", "duel", "offer", "swap_stack", "choose"):
        raise BadNotation(text)
    return model.parse_notation(text)


# ---------------------------------------------------------------------------------------------
# Views (spec §9)


@dataclass(frozen=True, slots=True)
class PlayerX:
    character: str | None
    cards: tuple[str, ...]  # expedition card instances (public)
    used: tuple[str, ...]  # instances used this round
    held: tuple[str, ...]
    hand_count: int
    complete: bool
    card_limit: int


@dataclass(frozen=True, slots=True)
class PromptView:
    """The pending decision (public): who answers, what kind, about which card or player."""

    kind: str  # window | danger | duel | offer | choose | reveal | exchange | lost_turn |
    #            hand_discard | limit_discard | market_day
    seats: tuple[int, ...]  # who must answer now (= to_act)
    what: str | None  # window: sabotage|gotcha|rescue; danger, duel: the stage; choose: the card or
    #                   ability asking (shortcut, black_magic, old_map, ...); exchange: event|robber
    card: str | None  # the card used, played or resolved (an instance); a hand card only to its owner
    owner: int | None  # window: whose card use or play it answers; duel: the defender; else the seat asked
    options: tuple[str, ...]  # public options of a choice (places, seats, cards); () when private
    target: str | None = None  # window: what the answered card aims at (gotcha: the card a played
    #                            Sabotage targets; rescue: the duel target)


@dataclass(frozen=True, slots=True)
class DangerView:
    seat: int
    card: str  # danger card instance
    stage: str  # drawn | rolled | failed
    dice: tuple[str, ...]
    requires: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class DuelView:
    attacker: int
    defender: int
    target: str
    stage: str  # defender_roll | defender_reroll | attacker_roll | attacker_reroll
    defender_dice: tuple[str, ...]
    attacker_dice: tuple[str, ...]
    face: str | None  # the defender's result X
    k: int | None


@dataclass(frozen=True, slots=True)
class OfferView:
    seat: int
    to: int
    give: tuple[str, ...]
    get: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class XView:
    players: tuple[PlayerX, ...]
    hand: tuple[str, ...]  # the observer's hand cards (private; () in the public view)
    peeks: tuple[tuple[str, str], ...]  # the observer's peeks still face down: (place, content id)
    known: tuple[tuple[str, str], ...]  # face-down tokens known to all: (place, content id)
    decks: tuple[tuple[str, int], ...]  # (deck, cards left to draw)
    discards: tuple[tuple[str, tuple[str, ...]], ...]  # (deck, discard pile bottom first)
    rain: bool
    threshold: int  # symbols of each attribute for a complete expedition
    gem_roll: bool  # the 5-6-player gem roll is available in this game
    declared: str | None
    die: int | None
    allowance: tuple[int, int] | None  # the pending move's steps (on land, at sea): rain, Sea captain
    phase3: str | None  # the Phase-3 action taken this turn
    resolving: tuple[str, ...]
    prompt: PromptView | None
    danger: DangerView | None
    duel: DuelView | None
    offer: OfferView | None


_FITS.update({
    model.Board: lambda a: a.to in PLACE_SET,
    model.FreeSail: lambda a: a.to in PLACE_SET,
    model.Fly: lambda a: a.to in PLACE_SET,
    Seaplane: lambda a: a.to in PLACE_SET,
    Use: lambda a: a.card in EXP and (a.arg is None or ":" not in a.arg),
    Reroll: lambda a: a.card in EXP or a.card == "doctor",
    Sell: lambda a: a.card in EXP,
    Hold: lambda a: a.card in EXP,
    Unhold: lambda a: a.card in EXP,
    Discard: lambda a: a.card in EXP or a.card in EVT,
    Play: lambda a: a.card in HAND_CARDS,
})

NOTATION = _Notation(
    ALL_ACTION_TYPES,
    readers={"to": _read_node, "via": _read_node, "place": _read_place, "id": one_of(CHARS),
             "delta": _ADJUST.__getitem__, "card": _read_card, "arg": _read_arg, "dice": _read_dice,
             "seat": _word_is_seat, "target": _read_target, "give": _items, "get": _items,
             "option": _read_option},
    writers={"to": _code, "via": _code,
             "dice": lambda d: ",".join(str(x) for x in d), "give": lambda i: ",".join(i) or "-",
             "get": lambda i: ",".join(i) or "-"},
    normalise=_offer_words,
)
