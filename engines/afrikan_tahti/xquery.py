"""Read-only questions about a Retkikunnat table, shared by the legality checks (on a frozen
:class:`State`, through :class:`Snap`) and the transitions (on the mutable ``ExpTable``).

Both expose the same attribute names: ``options``, ``n``, ``pawns``, ``stacks``, ``contents``, ``turn``,
``phase``, ``move``, ``sx`` (the seats' :class:`SeatX`), ``tx`` (the turn's :class:`TurnX`), ``stack``,
``decks``, ``rain``, ``known``, ``resolving``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engines.afrikan_tahti.board import (
    DIST_LAND,
    GOALS,
    HAZARDS,
    LAND,
    LEGS,
    LEGS_FROM,
    PLACE_SET,
    PORTS,
    SEA_DOTS,
    TREASURE_PLACES,
    land_paths,
)
from engines.afrikan_tahti.cards import Deck, card_id
from engines.afrikan_tahti.model import (
    AIR_FARE,
    FLIP_PRICE,
    FLIP_ROLL_FACES,
    NO_STOPS,
    SEA_FARE,
    TREASURE_INDEX,
    Board,
    Move,
    Movement,
    Options,
    Pawn,
    State,
    kind_of,
    roll_only_when_broke,
)
from engines.afrikan_tahti.rules import may_board_here, may_land
from engines.afrikan_tahti.xdata import (
    CARD_LIMIT,
    DNG,
    EVT,
    EXP,
    RAIN_IMMUNE,
    REROLLS,
    WINDOW_CARDS,
    char_effect,
    complete,
    printed_symbols,
    stealable,
    tradeable,
)
from engines.afrikan_tahti.xmodel import Job, MoveCtx, SeatX, TurnX

DISCOVERY_PRICE = 200
DISCOVERY_ROLL_FACES = (5, 6)
SEAPLANE_PRICE = 200
MAX_OFFERS = 2  # [decided] proposals per turn, so that a turn always ends
DUEL_MONEY = (200, 400, 600)
_EVT_COPIES: dict[str, int] = {c: int(v.get("copies", 1)) for c, v in EVT.items()}
PROMPTS = frozenset({"window", "danger", "duel", "offer", "choose", "reveal", "exchange", "lost_turn",
                     "hand_discard", "limit_discard", "market_day"})


@dataclass(frozen=True, slots=True)
class XMenu:
    """The choices of a movement decision: land destinations (with paths and the places that tell
    paths apart), legs to board (sailing as far as the steps go), sea nodes to sail to (the end of
    the reach, or where another pawn stands: M3c) with the leg boarded for them, and whether the
    move may end where the pawn stands."""

    dests: tuple[tuple[str, tuple[tuple[str, ...], ...], tuple[str, ...]], ...]
    boards: tuple[str, ...]
    sea: tuple[tuple[str, str | None, int], ...]  # (node, destination port of a leg to board or None, steps)
    stop_here: bool
    land_steps: int
    sea_steps: int

    def paths(self, to: str) -> tuple[tuple[str, ...], ...] | None:
        for d, ps, _vias in self.dests:
            if d == to:
                return ps
        return None

    def sea_target(self, to: str) -> tuple[str, str | None, int] | None:
        return next((t for t in self.sea if t[0] == to), None)


@lru_cache(maxsize=1 << 14)
def first_places(node: str) -> tuple[str, ...]:
    """Shortcut / Good guide: the first place reached along land edges in each direction, passing
    dots and junctions (§5.18)."""
    found: set[str] = set()
    stack = [(n, frozenset({node, n})) for n in LAND.get(node, ())]
    while stack:
        cur, seen = stack.pop()
        if cur in PLACE_SET:
            found.add(cur)
            continue
        stack.extend((m, seen | {m}) for m in LAND.get(cur, ()) if m not in seen)
    return tuple(sorted(found))


def sea_reach(voyage_leg: tuple[str, ...], at: int, steps: int, visited: frozenset[str],
              stop_hazards: bool) -> int:
    """How far (index on the leg path) a sail of up to ``steps`` from index ``at`` gets (M2, M4)."""
    end = at
    while end - at < steps and end < len(voyage_leg) - 1:
        nxt = voyage_leg[end + 1]
        if nxt in visited:
            break
        end += 1
        if stop_hazards and nxt in HAZARDS:
            break
    return end


class Q:
    """Questions shared by check and perform (see the module docstring for the attributes)."""

    options: Options
    n: int
    pawns: Sequence[Pawn]
    stacks: tuple[tuple[str, ...], ...]
    contents: tuple[tuple[str, str], ...]
    turn: int
    phase: str
    move: Movement | None
    sx: Sequence[SeatX]
    tx: TurnX
    stack: Sequence[Job]
    decks: dict[str, Deck]
    rain: str | None
    known: Sequence[str]
    resolving: Sequence[str]
    star_found: bool

    # --- cards ----------------------------------------------------------------------------------
    def char(self, seat: int) -> str | None:
        return self.sx[seat].character

    def has_char(self, seat: int, effect_name: str) -> dict[str, Any] | None:
        return char_effect(self.sx[seat].character, effect_name)

    def inst(self, seat: int, card: str) -> str | None:
        return next((i for i in self.sx[seat].cards if card_id(i) == card), None)

    def hand_inst(self, seat: int, card: str) -> str | None:
        return next((i for i in self.sx[seat].hand if card_id(i) == card), None)

    def is_used(self, seat: int, inst: str, kind: str) -> bool:
        used = self.sx[seat].used
        if EXP[card_id(inst)]["dual"]:
            return f"{inst}:a" in used or f"{inst}:p" in used
        return f"{inst}:{kind}" in used

    def usable(self, seat: int, card: str, kind: str) -> str | None:
        """The instance of ``card`` that ``seat`` may use now (``kind`` a = active/discard, p = passive):
        held, not used this round, and (passive) not set to hold."""
        inst = self.inst(seat, card)
        if inst is None or self.is_used(seat, inst, kind):
            return None
        if kind == "p" and inst in self.sx[seat].held:
            return None
        return inst

    def threshold(self) -> int:
        return 2 if self.n >= 5 or self.options.quick_game else 3

    def gem_roll_allowed(self) -> bool:
        return self.n >= 5 or self.options.quick_game

    def complete(self, seat: int) -> bool:
        return complete(self.sx[seat].cards, self.threshold())

    def card_limit(self, seat: int) -> int:
        return self.options.expedition_card_limit + sum(
            1 for i in self.sx[seat].cards if card_id(i) in CARD_LIMIT)

    def over_limit(self, seat: int) -> bool:
        return len(self.sx[seat].cards) > self.card_limit(seat)

    def exposed(self, seat: int, inst: str) -> bool:
        """A lasting (continuous) card open to proactive Sabotage (§5.10)."""
        c = card_id(inst)
        if c in CARD_LIMIT:
            return len(self.sx[seat].cards) > self.options.expedition_card_limit
        return c in RAIN_IMMUNE and self.rain is not None

    def rerolls(self, seat: int, scopes: tuple[str, ...]) -> list[tuple[str, int]]:
        """(card or "doctor", dice) rerolls ``seat`` may use now with one of ``scopes``."""
        out = [(card_id(i), REROLLS[card_id(i)][0]) for i in self.sx[seat].cards
               if card_id(i) in REROLLS and REROLLS[card_id(i)][1] in scopes
               and not self.is_used(seat, i, "p")]
        if "danger" in scopes and self.has_char(seat, "reroll_danger_dice") and "@doctor" not in self.sx[seat].used:
            out.append(("doctor", 1))
        return out

    # --- prices ---------------------------------------------------------------------------------
    def sea_fare(self, seat: int) -> int:
        if self.has_char(seat, "free_sea_fare") or self.inst(seat, "motor_boat") is not None:
            return 0
        return SEA_FARE

    def air_fare(self, seat: int) -> int:
        e = self.has_char(seat, "air_fare")
        return int(e["fare"]) if e else AIR_FARE

    def broke_steps(self, seat: int) -> int:
        return 3 if self.inst(seat, "swimming") is not None else self.options.broke_sea_steps

    def equipment_left(self) -> bool:
        return any(t.startswith("e") for st in self.stacks for t in st)

    def top_token(self, node: str | None) -> str | None:
        i = TREASURE_INDEX.get(node) if node is not None else None
        if i is None or not self.stacks[i]:
            return None
        return self.stacks[i][-1]

    def flip_terms(self, seat: int) -> tuple[str | None, int, tuple[int, ...], str | None]:
        """(refusal code or None, price, roll faces, Shovel instance) for flipping the top token
        under ``seat``'s pawn (§5.2)."""
        tid = self.top_token(self.pawns[seat].node)
        if tid is None:
            return "no_token", 0, (), None
        if tid.startswith("e") or self.complete(seat):
            return None, FLIP_PRICE, FLIP_ROLL_FACES, None
        if self.equipment_left():
            return "expedition_incomplete", 0, (), None
        shovel = self.usable(seat, "shovel", "p")
        return None, (FLIP_PRICE if shovel else DISCOVERY_PRICE), DISCOVERY_ROLL_FACES, shovel

    def may_flip_roll(self, seat: int, price: int) -> bool:
        return not roll_only_when_broke(self.options) or self.pawns[seat].cash < price

    # --- movement -------------------------------------------------------------------------------
    def rain_on(self, seat: int) -> bool:
        return self.rain is not None and not any(card_id(i) in RAIN_IMMUNE for i in self.sx[seat].cards)

    def others_at(self, seat: int) -> frozenset[str]:
        return frozenset(p.node for s, p in enumerate(self.pawns) if s != seat and p.node is not None)

    def extra_steps_allowed(self, seat: int) -> bool:
        d = self.tx.declared
        if self.pawns[seat].captured or d in (None, "stay", "gem_roll", "release"):
            return False
        return d != "fly" or self.has_char(seat, "extra_steps_after_flight") is not None

    def menu(self, seat: int) -> XMenu:
        """The choices of the pending movement of ``seat`` (``self.move`` and ``self.tx.mv``)."""
        pawn = self.pawns[seat]
        move, mv = self.move, self.tx.mv
        assert move is not None and mv is not None and pawn.node is not None
        node = pawn.node
        first = move.arrived == "start" and mv.kind == "die"
        land_steps = move.steps
        sea_steps = move.steps
        if first:
            if self.rain_on(seat):
                land_steps = max(1, move.steps - 1)
            if self.has_char(seat, "sea_die_bonus"):
                sea_steps = move.steps + 1
        others = self.others_at(seat)
        visited = frozenset(move.visited)
        holding = bool(pawn.items)
        pass_through = self.options.hazard_trigger == "pass_through"
        sea_ok = mv.terrain in ("sea", "any")
        sea: list[tuple[str, str | None, int]] = []
        if pawn.voyage is not None:
            if not sea_ok or move.steps <= 0:
                return XMenu((), (), (), False, 0, 0)
            v = pawn.voyage
            path = LEGS[(v.origin, v.dest)].path
            end = sea_reach(path, v.at, sea_steps, visited, pass_through)
            stops = [i for i in range(v.at + 1, end) if path[i] in others and mv.kind != "free"]
            sea = [(path[i], None, i - v.at) for i in (*stops, end) if i > v.at]
            return XMenu((), (), tuple(sea), node in others, 0, sea_steps)
        dests: list[tuple[str, tuple[tuple[str, ...], ...], tuple[str, ...]]] = []
        if mv.terrain in ("land", "any") and may_land(move, self.options):
            found = land_paths(node, land_steps, visited, GOALS if holding else NO_STOPS, pass_through,
                               others & frozenset(LAND))
            for dest in sorted(found):
                paths = found[dest]
                sets = [frozenset(n for n in p[:-1] if n in PLACE_SET) for p in paths]
                vias = tuple(sorted(frozenset().union(*sets) - frozenset.intersection(*sets)))
                dests.append((dest, paths, vias))
        boards: list[str] = []
        if sea_ok and node in PORTS and may_board_here(move, self.options):
            fare = self.sea_fare(seat)
            if pawn.cash >= fare:
                for dest in LEGS_FROM[node]:
                    path = LEGS[(node, dest)].path
                    if path[1] in visited:
                        continue
                    boards.append(dest)
                    end = sea_reach(path, 0, sea_steps, visited, pass_through)
                    sea.extend((path[i], dest, i) for i in range(1, end) if path[i] in others)
        stop_here = node in PLACE_SET or node in others
        return XMenu(tuple(dests), tuple(boards), tuple(sea), stop_here, land_steps, sea_steps)

    def menu_actions(self, seat: int) -> list[Any]:
        node = self.pawns[seat].node
        menu = self.menu(seat)
        out: list[Any] = []
        if menu.stop_here:
            out.append(Move(node or ""))
        for dest, _paths, vias in menu.dests:
            out.append(Move(dest))
            out.extend(Move(dest, v) for v in vias)
        out.extend(Board(d) for d in menu.boards)
        out.extend(a for n, _leg, _steps in menu.sea if (a := Move(n)) not in out)
        return out

    # --- tokens, duels, trading -----------------------------------------------------------------
    def kind(self, tid: str) -> str:
        return kind_of(self.contents, tid)

    def item_kinds(self, seat: int) -> list[str]:
        return [self.kind(t) for t in self.pawns[seat].items]

    def duel_targets(self, seat: int, other: int) -> list[str]:
        d = self.pawns[other]
        out = []
        kinds = self.item_kinds(other)
        if "star" in kinds:
            out.append("star")
        if "horseshoe" in kinds:
            out.append("horseshoe")
        out.extend(f"card:{card_id(i)}" for i in self.sx[other].cards
                   if stealable(card_id(i)) and EXP[card_id(i)]["type"] != "skill")
        out.extend(f"money:{m}" for m in DUEL_MONEY if m <= d.cash)
        return list(dict.fromkeys(out))

    def same_node(self, seat: int) -> list[int]:
        node = self.pawns[seat].node
        return [s for s, p in enumerate(self.pawns) if s != seat and p.node == node and node is not None]

    def tradeable_cards(self, seat: int) -> list[str]:
        return list(dict.fromkeys(card_id(i) for i in self.sx[seat].cards if tradeable(card_id(i))))

    def lost_turns_for(self, target: str) -> int:
        """Turns an attacker loses for a lost duel (§5.12 step 6)."""
        kind, _, arg = target.partition(":")
        if kind == "card":
            return printed_symbols(arg)
        if kind == "money":
            return int(arg) // 200
        return 1

    # --- windows --------------------------------------------------------------------------------
    def window_seats(self, kind: str, exclude: tuple[int, ...]) -> tuple[int, ...]:
        """Who a window of ``kind`` prompts: eligible players holding a hand card; nobody when every
        copy of every answering card lies face up (event discard pile, or being played) (§5.10)."""
        answers = WINDOW_CARDS[kind]
        out_of_play = sum(1 for c in (*self.decks["event"].discard, *self.resolving) if card_id(c) in answers)
        if out_of_play >= sum(int(_EVT_COPIES[c]) for c in answers):
            return ()
        return tuple(s for s in range(self.n) if s not in exclude and self.sx[s].hand)

    def top(self) -> Job | None:
        return self.stack[-1] if self.stack else None

    def prompt_seats(self) -> tuple[int, ...]:
        j = self.top()
        if j is None:
            return (self.turn,)
        if j.kind == "window":
            return tuple(s for s in j["eligible"] if s not in j["answered"])
        if j.kind == "duel":
            return (j["defender"] if j["stage"].startswith("defender") else j["attacker"],)
        return (j.seat,)

    def danger_requires(self, inst: str) -> dict[str, int]:
        return dict(DNG[card_id(inst)]["requires"])

    def place_index(self, place: str) -> int | None:
        return TREASURE_INDEX.get(place)

    def binocular_places(self, seat: int) -> list[str]:
        node = self.pawns[seat].node
        return [p for p in TREASURE_PLACES if self.top_token(p) is not None and node is not None
                and DIST_LAND[p].get(node, 99) <= 6]

    def at_sea(self, seat: int) -> bool:
        return self.pawns[seat].node in SEA_DOTS


class Snap(Q):
    """The :class:`Q` questions asked of a frozen state (for ``check`` and ``candidates``)."""

    def __init__(self, s: State) -> None:
        x = s.ext
        self.s = s
        self.options = s.options
        self.n = s.players
        self.pawns = s.pawns
        self.stacks = s.stacks
        self.contents = s.contents
        self.turn = s.turn
        self.phase = s.phase
        self.move = s.move
        self.star_found = s.star_found
        self.sx = x.seats
        self.tx = x.turn
        self.stack = x.stack
        self.decks = {"expedition": x.expedition, "event": x.event, "danger": x.danger}
        self.rain = x.rain
        self.known = x.known
        self.resolving = x.resolving


__all__ = ["DISCOVERY_PRICE", "DUEL_MONEY", "MAX_OFFERS", "PROMPTS", "SEAPLANE_PRICE", "MoveCtx", "Q", "Snap",
           "XMenu", "first_places", "sea_reach"]
