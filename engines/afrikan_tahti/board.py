"""The Afrikan Tähti board and content data, loaded once at import from this package's ``data/``.

Everything here is read-only and derived once: node kinds, the land graph, the 23 sea legs in both
directions, the air routes, hazards and special places, the token mix, short node codes for the
notation, and the distance tables the AI uses. ``map.json`` and ``content.json`` are copies of
``shared/rules/afrikan_tahti/``; the spec wins where they disagree.

[decided] Node codes in the notation: a place is named by its id (``cairo``); a dot by ``p<i>``, ``i``
being its index in ``map.json/points`` (``p0`` = ``hz_bedouins_sahara``). Map ids of dots run up to 60
characters, too long for a 45-byte notation; views and events use the full ids, and the parser
accepts both.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

_DATA = Path(__file__).resolve().parent / "data"


def _load(name: str) -> dict[str, Any]:
    with (_DATA / name).open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


MAP: dict[str, Any] = _load("map.json")
CONTENT: dict[str, Any] = _load("content.json")

# ---------------------------------------------------------------------------------------------
# Nodes

PLACES: tuple[str, ...] = tuple(p["id"] for p in MAP["places"])
PLACE: dict[str, dict[str, Any]] = {p["id"]: p for p in MAP["places"]}
POINTS: tuple[str, ...] = tuple(p["id"] for p in MAP["points"])
POINT: dict[str, dict[str, Any]] = {p["id"]: p for p in MAP["points"]}
NODES: tuple[str, ...] = PLACES + POINTS
PLACE_SET: frozenset[str] = frozenset(PLACES)
#: the 30 treasure places in map order; token ``t<i>`` starts on ``TREASURE_PLACES[i - 1]``
TREASURE_PLACES: tuple[str, ...] = tuple(p["id"] for p in MAP["places"] if p["treasure"])
GOALS: frozenset[str] = frozenset(p["id"] for p in MAP["places"] if p["goal"])
STARTS: tuple[str, ...] = tuple(p["id"] for p in MAP["places"] if p["start"])
PORTS: frozenset[str] = frozenset(p["id"] for p in MAP["places"] if p["port"])
AIRPORTS: frozenset[str] = frozenset(p["id"] for p in MAP["places"] if p["airport"])
SEA_DOTS: frozenset[str] = frozenset(p["id"] for p in MAP["points"] if p["kind"] == "sea")
#: hazard dot -> "bedouins" | "pirates"
HAZARDS: dict[str, str] = {p["id"]: p["hazard"] for p in MAP["points"] if p.get("hazard")}
#: special code -> place (gems_doubled, slave_coast, first_arrival_bonus)
SPECIAL: dict[str, str] = {code: p["id"] for p in MAP["places"] for code in p["special"]}
GOLD_COAST = SPECIAL["gems_doubled"]
SLAVE_COAST = SPECIAL["slave_coast"]
CAPETOWN = SPECIAL["first_arrival_bonus"]

# ---------------------------------------------------------------------------------------------
# Short codes for the notation

CODE: dict[str, str] = {**{p: p for p in PLACES}, **{pt: f"p{i}" for i, pt in enumerate(POINTS)}}
NODE_OF_CODE: dict[str, str] = {code: node for node, code in CODE.items()}


def node_of(text: str) -> str | None:
    """The node a notation argument names: a short code, or a full map id."""
    if text in NODE_OF_CODE:
        return NODE_OF_CODE[text]
    if text in PLACE or text in POINT:
        return text
    return None


# ---------------------------------------------------------------------------------------------
# Land graph


def _adjacency(edges: Iterable[list[str]]) -> dict[str, tuple[str, ...]]:
    adj: dict[str, set[str]] = {}
    for a, b in edges:
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    return {n: tuple(sorted(s)) for n, s in adj.items()}


LAND: dict[str, tuple[str, ...]] = _adjacency(MAP["land_edges"])


# ---------------------------------------------------------------------------------------------
# Sea legs (both directions) and air routes


@dataclass(frozen=True, slots=True)
class Leg:
    """One sea leg in one direction: ``path[0]`` is the origin port, ``path[-1]`` the destination."""

    id: str
    origin: str
    dest: str
    path: tuple[str, ...]
    fare: int

    @property
    def steps(self) -> int:
        return len(self.path) - 1


def _legs() -> dict[tuple[str, str], Leg]:
    out: dict[tuple[str, str], Leg] = {}
    for leg in MAP["sea_legs"]:
        a, b, pts = leg["a"], leg["b"], tuple(leg["points"])
        assert len(pts) == leg["steps"] - 1, leg["id"]
        out[(a, b)] = Leg(leg["id"], a, b, (a, *pts, b), leg["fare"])
        out[(b, a)] = Leg(leg["id"], b, a, (b, *reversed(pts), a), leg["fare"])
    return out


#: (origin port, destination port) -> the leg in that direction
LEGS: dict[tuple[str, str], Leg] = _legs()
#: port -> destination ports of the legs that start there
LEGS_FROM: dict[str, tuple[str, ...]] = {
    port: tuple(sorted(b for (a, b) in LEGS if a == port)) for port in PORTS
}


def _air() -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for r in MAP["air_routes"]:
        out[(r["a"], r["b"])] = r["fare"]
        out[(r["b"], r["a"])] = r["fare"]
    return out


#: (airport, airport) -> air fare
AIR: dict[tuple[str, str], int] = _air()
AIR_FROM: dict[str, tuple[str, ...]] = {p: tuple(sorted(b for (a, b) in AIR if a == p)) for p in AIRPORTS}

# ---------------------------------------------------------------------------------------------
# Tokens (content.json/tokens)

TOKEN_KINDS: dict[str, dict[str, Any]] = {k["id"]: k for k in CONTENT["tokens"]["kinds"]}
BASE_TOKEN_MIX: dict[str, int] = dict(CONTENT["tokens"]["base_game"])
#: the 30 base tokens in a canonical order (the shuffle input)
BASE_TOKENS: tuple[str, ...] = tuple(k for k, n in BASE_TOKEN_MIX.items() for _ in range(n))
GEM_VALUES: dict[str, int] = {k: v["value"] for k, v in TOKEN_KINDS.items() if "value" in v}
assert len(BASE_TOKENS) == len(TREASURE_PLACES) == 30

# ---------------------------------------------------------------------------------------------
# Land paths (the movement rules of spec §4.2 on the land graph)


@lru_cache(maxsize=1 << 16)
def land_paths(
    start: str,
    steps: int,
    blocked: frozenset[str],
    stop_at: frozenset[str],
    stop_hazards: bool,
    may_stop: frozenset[str] = frozenset(),
) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Where a land move of up to ``steps`` steps from ``start`` may end, with every path there.

    A path is the tuple of nodes entered (``start`` excluded). It never enters ``blocked`` (nodes
    visited earlier in the move, M2) or a node twice. It ends (M3/M4/M6) on a place after any number
    of steps, on any node after exactly ``steps``, on a dot where no further step is possible, and
    on reaching a node in ``stop_at`` (goals for a holder of a winning item) or, with
    ``stop_hazards``, a hazard dot (``hazard_trigger = pass_through``); it may also end early on a
    node of ``may_stop`` (expansion M3c: nodes where other pawns stand). Paths to one destination are
    sorted shortest first, then by node ids: the first is the canonical one.
    """
    found: dict[str, list[tuple[str, ...]]] = {}

    def walk(node: str, path: tuple[str, ...], seen: frozenset[str]) -> None:
        for nxt in LAND.get(node, ()):
            if nxt in seen:
                continue
            p = (*path, nxt)
            forced = nxt in stop_at or (stop_hazards and nxt in HAZARDS)
            onward = (
                []
                if forced or len(p) == steps
                else [n for n in LAND.get(nxt, ()) if n not in seen and n != nxt and n not in p]
            )
            if forced or nxt in PLACE_SET or nxt in may_stop or len(p) == steps or not onward:
                found.setdefault(nxt, []).append(p)
            if onward:
                walk(nxt, p, seen | {nxt})

    if steps > 0:
        walk(start, (), blocked | {start})
    return {dest: tuple(sorted(ps, key=lambda p: (len(p), p))) for dest, ps in found.items()}


# ---------------------------------------------------------------------------------------------
# Distances for the AI: steps to each place over land, sea legs and (optionally) air routes


def _distances_from(target: str, air_cost: int | None, sea_penalty: int | None) -> dict[str, int]:
    """Step-equivalents from every land node or place to ``target`` (undirected graph); sea legs
    cost their steps plus ``sea_penalty`` (None: no sea), flights ``air_cost`` (None: no flights)."""
    edges: dict[str, list[tuple[str, int]]] = {}
    for a, nbrs in LAND.items():
        for b in nbrs:
            edges.setdefault(a, []).append((b, 1))
    if sea_penalty is not None:
        for (a, b), leg in LEGS.items():
            edges.setdefault(a, []).append((b, leg.steps + sea_penalty))
    if air_cost is not None:
        for a, b in AIR:
            edges.setdefault(a, []).append((b, air_cost))
    dist = {target: 0}
    heap = [(0, target)]
    while heap:
        d, n = heapq.heappop(heap)
        if d > dist.get(n, 1 << 30):
            continue
        for m, w in edges.get(n, ()):
            if d + w < dist.get(m, 1 << 30):
                dist[m] = d + w
                heapq.heappush(heap, (d + w, m))
    return dist


#: DIST[target place][node]: land and sea, no flights; DIST_LAND: land only (missing = unreachable)
DIST: dict[str, dict[str, int]] = {p: _distances_from(p, None, 1) for p in PLACES}
DIST_LAND: dict[str, dict[str, int]] = {p: _distances_from(p, None, None) for p in PLACES}

__all__ = [
    "AIR",
    "AIRPORTS",
    "AIR_FROM",
    "BASE_TOKENS",
    "BASE_TOKEN_MIX",
    "CAPETOWN",
    "CODE",
    "CONTENT",
    "DIST",
    "DIST_LAND",
    "GEM_VALUES",
    "GOALS",
    "GOLD_COAST",
    "HAZARDS",
    "LAND",
    "LEGS",
    "LEGS_FROM",
    "MAP",
    "NODES",
    "PLACE",
    "PLACES",
    "PLACE_SET",
    "POINT",
    "POINTS",
    "PORTS",
    "SEA_DOTS",
    "SLAVE_COAST",
    "SPECIAL",
    "STARTS",
    "TOKEN_KINDS",
    "TREASURE_PLACES",
    "Leg",
    "land_paths",
    "node_of",
]
