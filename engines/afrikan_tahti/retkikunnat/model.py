"""Retkikunnat values: the expansion's part of the state (``State.ext``) and of the views
(``View.x``). Its actions are with the base game's in :mod:`engines.afrikan_tahti.model`.

Pending decisions live on a stack of :class:`Job` values (``Ext.stack``, top last): a job is either a
*prompt* (someone must answer: a reaction window, a danger situation, a duel, a trade offer, a choice)
or automatic work queued behind a prompt (the rest of a walk, the effect of an announced card use).
The turn's phase (``State.phase``) applies only while the stack is empty.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

CHARACTER = "character"  # setup: characters are chosen before the start places
PHASE2 = "phase2"
PHASE3 = "phase3"

# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck as a value: the draw pile (index 0 = top) and a face-up discard pile (last = top)."""

    name: str  # "expedition" | "event" | "danger"
    draw: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()


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
    ask: str = "all"  # reaction windows: all | never | <hand card id> (private; see windows.py)
    lapses: int = 0  # windows in a row this seat let run out (two set ask = never)


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
    symbols: tuple[int, ...] = ()  # per attribute (action, resources, travel) towards the threshold


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
    opened: int | None = None  # window, reveal: the ply at which it opened (tells two windows apart)
    loser: int | None = None  # rescue window: the defender who lost the duel (owner: the winner)


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
    ask: str | None = None  # the observer's own window setting (all | never | card id); None in public
    # what the seat whose turn it is would really pay (public: characters and cards are face up)
    sea_fare: int | None = None
    air_fare: int | None = None
    flip_price: int | None = None  # None: no token it may flip here now
    flip_faces: tuple[int, ...] = ()  # the die faces that win a flip roll here
