"""Read-only questions about a Retkikunnat table, shared by the legality checks, the candidates and
the views (over a read-only :class:`~engines.afrikan_tahti.model.AfrikanWork` of the state) and by
the transitions (over the working copy being changed): what a seat holds and may use, prices,
the movement menu, duel targets, who answers the pending prompt.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engines.afrikan_tahti.base.rules import land_dests, may_board_here, may_land
from engines.afrikan_tahti.board import (
    DIST_LAND,
    HAZARDS,
    LAND,
    LEGS,
    LEGS_FROM,
    PLACE_SET,
    PORTS,
    TREASURE_PLACES,
)
from engines.afrikan_tahti.model import (
    AIR_FARE,
    FLIP_PRICE,
    FLIP_ROLL_FACES,
    SEA_FARE,
    TREASURE_INDEX,
    AfrikanWork,
    MoveMenu,
    roll_only_when_broke,
)
from engines.afrikan_tahti.retkikunnat.content import (
    CARD_LIMIT,
    EVT,
    EXP,
    RAIN_IMMUNE,
    REROLLS,
    WINDOW_CARDS,
    card_id,
    char_effect,
    printed_symbols,
    stealable,
    tradeable,
)
from engines.afrikan_tahti.retkikunnat.content import complete as complete_cards

DISCOVERY_PRICE = 200
DISCOVERY_ROLL_FACES = (5, 6)
SEAPLANE_PRICE = 200
MAX_OFFERS = 2  # [decided] proposals per turn, so that a turn always ends
DUEL_MONEY = (200, 400, 600)
_EVT_COPIES: dict[str, int] = {c: int(v.get("copies", 1)) for c, v in EVT.items()}
#: the jobs someone must answer (the others run by themselves)
PROMPTS = frozenset(
    {
        "window",
        "danger",
        "duel",
        "offer",
        "choose",
        "reveal",
        "exchange",
        "lost_turn",
        "hand_discard",
        "limit_discard",
        "market_day",
    }
)


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


def sea_reach(
    voyage_leg: tuple[str, ...], at: int, steps: int, visited: frozenset[str], stop_hazards: bool
) -> int:
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


# --- cards ----------------------------------------------------------------------------------
def has_char(w: AfrikanWork, seat: int, effect_name: str) -> dict[str, Any] | None:
    return char_effect(w.sx[seat].character, effect_name)


def inst(w: AfrikanWork, seat: int, card: str) -> str | None:
    return next((i for i in w.sx[seat].cards if card_id(i) == card), None)


def hand_inst(w: AfrikanWork, seat: int, card: str) -> str | None:
    return next((i for i in w.sx[seat].hand if card_id(i) == card), None)


def is_used(w: AfrikanWork, seat: int, inst: str, kind: str) -> bool:
    used = w.sx[seat].used
    if EXP[card_id(inst)]["dual"]:
        return f"{inst}:a" in used or f"{inst}:p" in used
    return f"{inst}:{kind}" in used


def usable(w: AfrikanWork, seat: int, card: str, kind: str) -> str | None:
    """The instance of ``card`` that ``seat`` may use now (``kind`` a = active/discard, p = passive):
    held, not used this round, and (passive) not set to hold."""
    i = inst(w, seat, card)
    if i is None or is_used(w, seat, i, kind):
        return None
    if kind == "p" and i in w.sx[seat].held:
        return None
    return i


def threshold(w: AfrikanWork) -> int:
    return 2 if w.players >= 5 or w.options.quick_game else 3


def gem_roll_allowed(w: AfrikanWork) -> bool:
    return w.players >= 5 or w.options.quick_game


def complete(w: AfrikanWork, seat: int) -> bool:
    return complete_cards(w.sx[seat].cards, threshold(w))


def card_limit(w: AfrikanWork, seat: int) -> int:
    return w.options.expedition_card_limit + sum(1 for i in w.sx[seat].cards if card_id(i) in CARD_LIMIT)


def over_limit(w: AfrikanWork, seat: int) -> bool:
    return len(w.sx[seat].cards) > card_limit(w, seat)


def exposed(w: AfrikanWork, seat: int, inst: str) -> bool:
    """A lasting (continuous) card open to proactive Sabotage (§5.10)."""
    c = card_id(inst)
    if c in CARD_LIMIT:
        return len(w.sx[seat].cards) > w.options.expedition_card_limit
    return c in RAIN_IMMUNE and w.rain is not None


def rerolls(w: AfrikanWork, seat: int, scopes: tuple[str, ...]) -> list[tuple[str, int]]:
    """(card or "doctor", dice) rerolls ``seat`` may use now with one of ``scopes``."""
    out = [
        (card_id(i), REROLLS[card_id(i)][0])
        for i in w.sx[seat].cards
        if card_id(i) in REROLLS and REROLLS[card_id(i)][1] in scopes and not is_used(w, seat, i, "p")
    ]
    if "danger" in scopes and has_char(w, seat, "reroll_danger_dice") and "@doctor" not in w.sx[seat].used:
        out.append(("doctor", 1))
    return out


# --- prices ---------------------------------------------------------------------------------
def sea_fare(w: AfrikanWork, seat: int) -> int:
    if has_char(w, seat, "free_sea_fare") or inst(w, seat, "motor_boat") is not None:
        return 0
    return SEA_FARE


def air_fare(w: AfrikanWork, seat: int) -> int:
    e = has_char(w, seat, "air_fare")
    return int(e["fare"]) if e else AIR_FARE


def broke_steps(w: AfrikanWork, seat: int) -> int:
    return 3 if inst(w, seat, "swimming") is not None else w.options.broke_sea_steps


def equipment_left(w: AfrikanWork) -> bool:
    return any(t.startswith("e") for st in w.stacks for t in st)


def top_token(w: AfrikanWork, node: str | None) -> str | None:
    i = TREASURE_INDEX.get(node) if node is not None else None
    if i is None or not w.stacks[i]:
        return None
    return w.stacks[i][-1]


def flip_terms(w: AfrikanWork, seat: int) -> tuple[str | None, int, tuple[int, ...], str | None]:
    """(refusal code or None, price, roll faces, Shovel instance) for flipping the top token
    under ``seat``'s pawn (§5.2)."""
    tid = top_token(w, w.pawns[seat].node)
    if tid is None:
        return "no_token", 0, (), None
    if tid.startswith("e") or complete(w, seat):
        return None, FLIP_PRICE, FLIP_ROLL_FACES, None
    if equipment_left(w):
        return "expedition_incomplete", 0, (), None
    shovel = usable(w, seat, "shovel", "p")
    return None, (FLIP_PRICE if shovel else DISCOVERY_PRICE), DISCOVERY_ROLL_FACES, shovel


def may_flip_roll(w: AfrikanWork, seat: int, price: int) -> bool:
    return not roll_only_when_broke(w.options) or w.pawns[seat].cash < price


# --- movement -------------------------------------------------------------------------------
def rain_on(w: AfrikanWork, seat: int) -> bool:
    return w.rain is not None and not any(card_id(i) in RAIN_IMMUNE for i in w.sx[seat].cards)


def others_at(w: AfrikanWork, seat: int) -> frozenset[str]:
    return frozenset(p.node for s, p in enumerate(w.pawns) if s != seat and p.node is not None)


def extra_steps_allowed(w: AfrikanWork, seat: int) -> bool:
    d = w.tx.declared
    if w.pawns[seat].captured or d in (None, "stay", "gem_roll", "release"):
        return False
    return d != "fly" or has_char(w, seat, "extra_steps_after_flight") is not None


def menu(w: AfrikanWork, seat: int) -> MoveMenu:
    """The choices of the pending movement of ``seat`` (``w.move`` and ``w.tx.mv``)."""
    pawn = w.pawns[seat]
    move, mv = w.move, w.tx.mv
    assert move is not None and mv is not None and pawn.node is not None
    node = pawn.node
    first = move.arrived == "start" and mv.kind == "die"
    land_steps = move.steps
    sea_steps = move.steps
    if first:
        if rain_on(w, seat):
            land_steps = max(1, move.steps - 1)
        if has_char(w, seat, "sea_die_bonus"):
            sea_steps = move.steps + 1
    others = others_at(w, seat)
    visited = frozenset(move.visited)
    holding = bool(pawn.items)
    pass_through = w.options.hazard_trigger == "pass_through"
    sea_ok = mv.terrain in ("sea", "any")
    sea: list[tuple[str, str | None, int]] = []
    if pawn.voyage is not None:
        if not sea_ok or move.steps <= 0:
            return MoveMenu((), (), False)
        v = pawn.voyage
        path = LEGS[(v.origin, v.dest)].path
        end = sea_reach(path, v.at, sea_steps, visited, pass_through)
        stops = [i for i in range(v.at + 1, end) if path[i] in others and mv.kind != "free"]
        sea = [(path[i], None, i - v.at) for i in (*stops, end) if i > v.at]
        return MoveMenu((), (), node in others, sea=tuple(sea), sea_steps=sea_steps)
    dests: tuple[tuple[str, tuple[tuple[str, ...], ...], tuple[str, ...]], ...] = ()
    if mv.terrain in ("land", "any") and may_land(move, w.options):
        dests = land_dests(node, land_steps, visited, holding, w.options, others & frozenset(LAND))
    boards: list[str] = []
    if sea_ok and node in PORTS and may_board_here(move, w.options):
        fare = sea_fare(w, seat)
        if pawn.cash >= fare:
            for dest in LEGS_FROM[node]:
                path = LEGS[(node, dest)].path
                if path[1] in visited:
                    continue
                boards.append(dest)
                end = sea_reach(path, 0, sea_steps, visited, pass_through)
                sea.extend((path[i], dest, i) for i in range(1, end) if path[i] in others)
    stop_here = node in PLACE_SET or node in others
    return MoveMenu(
        dests, tuple(boards), stop_here, sea=tuple(sea), land_steps=land_steps, sea_steps=sea_steps
    )


# --- tokens, duels, trading -----------------------------------------------------------------
def item_kinds(w: AfrikanWork, seat: int) -> list[str]:
    return [w.kind(t) for t in w.pawns[seat].items]


def duel_targets(w: AfrikanWork, seat: int, other: int) -> list[str]:
    d = w.pawns[other]
    out = []
    kinds = item_kinds(w, other)
    if "star" in kinds:
        out.append("star")
    if "horseshoe" in kinds:
        out.append("horseshoe")
    out.extend(
        f"card:{card_id(i)}"
        for i in w.sx[other].cards
        if stealable(card_id(i)) and EXP[card_id(i)]["type"] != "skill"
    )
    out.extend(f"money:{m}" for m in DUEL_MONEY if m <= d.cash)
    return list(dict.fromkeys(out))


def same_node(w: AfrikanWork, seat: int) -> list[int]:
    node = w.pawns[seat].node
    return [s for s, p in enumerate(w.pawns) if s != seat and p.node == node and node is not None]


def tradeable_cards(w: AfrikanWork, seat: int) -> list[str]:
    return list(dict.fromkeys(card_id(i) for i in w.sx[seat].cards if tradeable(card_id(i))))


def lost_turns_for(w: AfrikanWork, target: str) -> int:
    """Turns an attacker loses for a lost duel (§5.12 step 6)."""
    kind, _, arg = target.partition(":")
    if kind == "card":
        return printed_symbols(arg)
    if kind == "money":
        return int(arg) // 200
    return 1


# --- windows --------------------------------------------------------------------------------
def answers_to(kind: str) -> frozenset[str]:
    """The hand cards that answer a window of ``kind`` (``reveal``: the Surprise! moment)."""
    return frozenset({"surprise"}) if kind == "reveal" else WINDOW_CARDS[kind]


def answerable(w: AfrikanWork, kind: str) -> bool:
    """Some copy of an answering card may still be in a hand: not every copy lies face up (event
    discard pile, or being played). Public information only."""
    answers = answers_to(kind)
    out_of_play = sum(1 for c in (*w.decks["event"].discard, *w.resolving) if card_id(c) in answers)
    return out_of_play < sum(int(_EVT_COPIES[c]) for c in answers)


def wants(w: AfrikanWork, seat: int, kind: str) -> bool:
    """The seat's standing setting lets a window of ``kind`` ask it (see windows.py)."""
    mode = w.sx[seat].ask
    return mode == "all" or mode in answers_to(kind)


def window_seats(w: AfrikanWork, kind: str, exclude: tuple[int, ...]) -> tuple[int, ...]:
    """Who a window of ``kind`` prompts: eligible players holding a hand card whose setting asks
    them; nobody when every copy of every answering card lies face up (§5.10). Nothing here depends
    on which cards a hand holds (windows.py)."""
    if not answerable(w, kind):
        return ()
    return tuple(s for s in range(w.players) if s not in exclude and w.sx[s].hand and wants(w, s, kind))


def prompt_seats(w: AfrikanWork) -> tuple[int, ...]:
    j = w.top()
    if j is None:
        return (w.turn,)
    if j.kind == "window":
        return tuple(s for s in j["eligible"] if s not in j["answered"])
    if j.kind == "duel":
        return (j["defender"] if j["stage"].startswith("defender") else j["attacker"],)
    return (j.seat,)


def binocular_places(w: AfrikanWork, seat: int) -> list[str]:
    node = w.pawns[seat].node
    return [
        p
        for p in TREASURE_PLACES
        if top_token(w, p) is not None and node is not None and DIST_LAND[p].get(node, 99) <= 6
    ]
