"""The AI levels measured: each level against each other level and against a careful reference player.

    python scripts/bench_ai.py [--game majavajengi,gnav,...] [--players 2,4] [--games N] [--jobs 2]

A cell seats one player of level A against ``players - 1`` players of B (the reference, or a lower
level), rotating A's seat game by game, so the fair share of A is ``1 / players``. It prints A's share
of the wins (a shared first place counts as a fraction) with a 95 % Wilson interval, the behaviour
figures of each game, and the decision times of the levels (median and p99 in milliseconds, wall clock
and the process's own CPU time, with the load average: on a shared machine the wall clock also counts
the other processes' turns).

The reference players are written here from the rules, not from the engines' AIs, and see only their
seat's view: they play as a careful person does (remember their own cards, keep high and ask low...).
Every game is seeded (``--seed``), so a run can be repeated exactly.

``--paired``: the ``players`` games of one rotation share a seed, so they deal the same cards deal by deal
(as far as the choices keep the matches alike) with A in each seat in turn; the luck of the cards then
largely cancels within a rotation. The line adds a second interval, from the spread of the rotations'
mean shares (normal approximation over the rotations); the Wilson interval, which takes the games as
independent, stays beside it and is then the wider, conservative one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from math import sqrt
from multiprocessing import Pool
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import GAMES
from engines.contract import Engine

Policy = Callable[[Any, tuple[Any, ...], Random], Any]
LEVELS = ("easy", "normal", "strong")


# ---------------------------------------------------------------------------------------------
# Reference players, from the rules (seat's view only)


def ref_majavajengi(view: Any, legal: tuple[Any, ...], rng: Random) -> Any:
    """A careful person: remembers its own cards, counts an unseen card as 5, replaces its highest
    card by a clearly lower one, peeks at unseen cards, swaps a high known card for an opponent's
    known low one, and knocks when all its cards are known and low (or nearly so)."""
    from engines.majavajengi.model import (
        VALUE,
        Discard,
        Draw,
        Draw2,
        End,
        Knock,
        Next,
        Peek,
        Replace,
        Swap,
        Take,
    )

    me = view.seat
    mine = [float(VALUE[k]) if k in VALUE else 5.0 for k in view.known[me]]
    worst = max(range(4), key=lambda p: (mine[p], view.known[me][p] is None))
    if view.phase == "start":
        top = view.discard_top
        if top in VALUE and VALUE[top] <= 3 and VALUE[top] <= mine[worst] - 3 and Take(worst + 1) in legal:
            return Take(worst + 1)
        return Draw()
    if view.phase == "holding":
        held = view.held
        if held in VALUE:
            return Replace(worst + 1) if VALUE[held] <= mine[worst] - 2 else Discard()
        if held == "DRAW2":
            return Draw2()
        if held == "PEEK":
            unknown = [p for p in range(4) if view.known[me][p] is None]
            return Peek(unknown[0] + 1) if unknown else Discard()
        if held == "SWAP":
            known_high = max(range(4), key=lambda p: mine[p] if view.known[me][p] is not None else -1)
            high = mine[known_high] if view.known[me][known_high] is not None else 0
            lows = [
                (VALUE[k], s, p)
                for s in range(view.players)
                if s != me
                for p, k in enumerate(view.known[s])
                if k in VALUE
            ]
            if lows and high >= 6:
                v, s, p = min(lows)
                if v <= high - 3:
                    return Swap(known_high + 1, s, p + 1)
            if high >= 8:
                s = rng.choice([o for o in range(view.players) if o != me])
                return Swap(known_high + 1, s, rng.randrange(4) + 1)
            return Discard()
        return Discard()
    if view.phase == "draw2_next":
        return Next()
    if view.phase == "turn_end":
        unknown = sum(1 for k in view.known[me] if k is None)
        known = sum(v for v, k in zip(mine, view.known[me]) if k is not None)
        n = view.players
        ok = Knock() in legal and (
            (unknown == 0 and known <= 10)
            or (unknown == 1 and known <= 5)
            or (view.turns_taken >= 6 * n and sum(mine) <= 16)
            or view.turns_taken >= 12 * n
        )
        return Knock() if ok else End()
    return rng.choice(legal)


def ref_gnav(view: Any, legal: tuple[Any, ...], rng: Random) -> Any:
    """A careful person: keep a seven or better, ask with anything lower; never pass a matador;
    never ask a neighbour known to hold a cat or a dragoon (they answer with a penalty)."""
    from engines.gnav.ai import _responder, info_from_view
    from engines.gnav.model import CAT, DRAGOON, HOUSE, RANK_INDEX, Ask, Keep

    if len(legal) == 1:
        return legal[0]
    f = info_from_view(view)
    if f.own >= HOUSE:
        return Keep() if Keep() in legal else legal[0]
    _resp, r = _responder(f)
    ask = f.own < RANK_INDEX["n7"] and r not in (CAT, DRAGOON)
    want = Ask() if ask else Keep()
    return want if want in legal else legal[0]


def ref_afrikan_tahti(view: Any, legal: tuple[Any, ...], rng: Random) -> Any:
    """A careful person playing plainly: rolls and walks toward the nearest face-down token it may
    turn over (home with a winning item), takes a boat when none is left by land, turns a token over
    whenever it may (paying, else rolling), and answers every prompt and window with the table's
    default; no flights, cards or trades. With Retkikunnat a discovery token is turned over only by
    a complete expedition or once no equipment token is left face down: heading for one before,
    the reference sat broke on it for good and the table reached the round limit."""
    from engines.afrikan_tahti.ai import idle_action
    from engines.afrikan_tahti.board import DIST, DIST_LAND, GOALS
    from engines.afrikan_tahti.model import Board, EndPhase, Flip, FlipRoll, FreeSail, Move, Roll, Stay

    if view.x is not None and view.x.prompt is not None:
        return idle_action(view, legal)
    me = view.pawns[view.seat]
    open_ = list(view.face_down)
    if view.x is not None and not view.x.players[view.seat].complete and any(t[0] == "e" for _p, t in open_):
        open_ = [(p, t) for p, t in open_ if t[0] == "e"]
    if view.phase in ("after_move", "phase3", "declare") and not me.items:
        if Flip() in legal:
            return Flip()
        if FlipRoll() in legal:
            return FlipRoll()
    if view.phase == "declare":
        targets = tuple(GOALS) if me.items else tuple(sorted({p for p, _t in open_})) or tuple(GOALS)
        if not any(me.node in DIST_LAND[t] for t in targets):  # nothing left by land: take a boat
            sails = [a for a in legal if isinstance(a, Board | FreeSail)]
            if sails:
                return min(sails, key=lambda a: (min(DIST[t].get(a.to, 999) for t in targets), a.to))
        if Roll() in legal:
            return Roll()
        return Stay() if Stay() in legal else idle_action(view, legal)
    if view.phase == "move":
        targets = tuple(GOALS) if me.items else tuple(sorted({p for p, _t in open_})) or tuple(GOALS)
        moves = [a for a in legal if isinstance(a, Move)]
        # a walk is reckoned by the land's distances: by the sea's, home from Suakin was nearer by
        # staying put than by any step, and a holder of the Star stood there to the round limit
        table = DIST_LAND if any(me.node in DIST_LAND[t] for t in targets) else DIST
        if moves:
            return min(
                moves, key=lambda a: (min(table[t].get(a.to, 999) for t in targets), a.to, a.via or "")
            )
    if view.phase in ("after_move", "phase2", "phase3") and EndPhase() in legal:
        return EndPhase()
    return idle_action(view, legal)


def ref_coloretto(view: Any, legal: tuple[Any, ...], rng: Random) -> Any:
    """A careful person: never plays a card its own row already has; plays into its longest row that
    the card extends; gives a duplicate to a neighbour whose row already has that animal (it costs
    them both cards); accepts a gift unless it duplicates, then refuses with the cheapest card."""
    from engines.coloretto_amazonas.model import ROW_INDEX, Accept, Give, Play, Refuse

    if len(legal) == 1:
        return legal[0]
    me = view.seat
    rows = [list(r.kinds) for r in view.seats[me].rows]
    if any(isinstance(a, Accept) for a in legal):
        gift = view.gift.kind if view.gift is not None else None
        if gift is not None and gift not in rows[ROW_INDEX[gift[0]]]:
            return Accept()
        refusals = [a for a in legal if isinstance(a, Refuse)]
        if refusals:
            return min(refusals, key=lambda a: (len(rows[ROW_INDEX[a.remove[0]]]), a.remove))
        return Accept()
    plays = [a for a in legal if isinstance(a, Play) and a.kind not in rows[ROW_INDEX[a.kind[0]]]]
    if plays:
        return max(plays, key=lambda a: (len(rows[ROW_INDEX[a.kind[0]]]), a.kind))
    gives = [a for a in legal if isinstance(a, Give)]
    hurting = [a for a in gives if a.kind in view.seats[a.to].rows[ROW_INDEX[a.kind[0]]].kinds]
    if hurting:
        return max(hurting, key=lambda a: (len(view.seats[a.to].rows[ROW_INDEX[a.kind[0]]].kinds), a.to))
    if gives:
        return min(
            gives, key=lambda a: (len(view.seats[a.to].rows[ROW_INDEX[a.kind[0]]].kinds), a.to, a.kind)
        )
    return legal[0]


REFERENCE: dict[str, Policy] = {
    "majavajengi": ref_majavajengi,
    "gnav": ref_gnav,
    "afrikan_tahti": ref_afrikan_tahti,
    "coloretto_amazonas": ref_coloretto,
}


# ---------------------------------------------------------------------------------------------
# Behaviour figures per game


@dataclass
class Figures:
    """What one game tells about the seat of interest (seat ``hero``) and the game as a whole."""

    numbers: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    def add(self, name: str, value: float) -> None:
        self.numbers[name].append(value)


class MajavajengiWatch:
    """Knocks of the hero's seat: its own turn number in the round, its round score, whether it was
    the lowest; and the laps per round."""

    def __init__(self, hero: int, figures: Figures) -> None:
        self.hero, self.f = hero, figures
        self.turns: Counter[int] = Counter()
        self.knock: tuple[int, int] | None = None

    def step(self, state: Any, seat: int, action: Any, events: Any) -> None:
        for e in events:
            if e.code == "round_started":
                self.turns.clear()
                self.knock = None
            elif e.code == "knocked" and not e["forced"]:
                self.knock = (e["seat"], self.turns[e["seat"]] + 1)
            elif e.code == "turn_ended":
                self.turns[e["seat"]] += 1
            elif e.code == "round_scored":
                scores = e["scores"]
                self.f.add("laps per round", sum(self.turns.values()) / len(scores))
                self.f.add("hero knocks per round", 1.0 if self.knock and self.knock[0] == self.hero else 0.0)
                if self.knock and self.knock[0] == self.hero:
                    mine = scores[self.hero]
                    self.f.add("hero knock: own turn", self.knock[1])
                    self.f.add("hero knock: on first turn", 1.0 if self.knock[1] == 1 else 0.0)
                    self.f.add("hero knock: round score", mine)
                    self.f.add("hero knock: lowest", 1.0 if mine <= min(scores) else 0.0)


def finish_gnav(engine: Engine, state: Any, hero: int, f: Figures) -> None:
    view = engine.view(state, None)
    out = engine.outcome(state)
    assert out is not None
    for w in out.winners:
        f.add("winner's lives left", view.lives[w])
    f.add("hero lives left", view.lives[hero])
    start = view.options.lives
    lost = [start - max(0, x) for x in view.lives]
    # every deal costs somebody a life: the hero's share of the lives lost, deal by deal
    f.add("lives lost", float(sum(lost)))
    f.add("hero lives lost", float(lost[hero]))


def finish_coloretto(engine: Engine, state: Any, hero: int, f: Figures) -> None:
    out = engine.outcome(state)
    assert out is not None
    f.add("plies per game", state.ply)
    f.add("hero score", out.scores[hero])
    f.add("winner's score", max(out.scores))
    f.add(
        "hero's margin to the best other",
        out.scores[hero] - max(x for k, x in enumerate(out.scores) if k != hero),
    )


def finish_at(engine: Engine, state: Any, hero: int, f: Figures) -> None:
    view = engine.view(state, None)
    f.add("rounds", view.round)
    f.add("round-limit endings", 1.0 if view.end_reason == "round_limit" else 0.0)
    if view.end_reason == "goal" and view.winner == hero:
        f.add("hero rounds to win", view.round)


# ---------------------------------------------------------------------------------------------
# Playing


def policy_of(game: str, name: str) -> Policy:
    if name == "reference":
        return REFERENCE[game]
    if name == "classic" and game == "majavajengi":
        from engines.majavajengi.classic import classic_policy

        return classic_policy
    return GAMES[game].ais[name]


def play_one(job: tuple[str, int, str, str, int, str, str, bool]) -> dict[str, Any]:
    """One game: ``hero`` (level A) in seat ``g % players``, level B elsewhere; ``paired``: the games of
    one rotation (``g // players``) share the seed."""
    game, players, a, b, g, seed, extra, paired = job
    engine = GAMES[game]
    hero = g % players
    names = [b] * players
    names[hero] = a
    policies = [policy_of(game, n) for n in names]
    given = json.loads(extra)
    if game == "gnav":
        given = {"seats": ["ai"] * players, **given}
    options = engine.options_from_dict(given)
    tag = f"r{g // players}" if paired else g
    state = engine.new_game(players, f"{seed}:{game}:{players}:{a}:{b}:{tag}", options)
    f = Figures()
    watch = MajavajengiWatch(hero, f) if game == "majavajengi" else None
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)  # the process's own time: a shared machine's load aside
    while engine.outcome(state) is None:
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        t0, c0 = time.perf_counter(), time.process_time()
        action = policies[seat](view, legal, engine.ai_rng(state, seat))
        if len(legal) > 1:
            times[names[seat]].append((time.perf_counter() - t0) * 1000)
            cpu[names[seat]].append((time.process_time() - c0) * 1000)
        state, events = engine.apply(state, seat, action)
        if watch is not None:
            watch.step(state, seat, action, events)
        if state.ply > engine.max_plies:
            raise RuntimeError("game too long")
    out = engine.outcome(state)
    assert out is not None
    share = (1.0 / len(out.winners)) if hero in out.winners else 0.0
    if game == "gnav":
        finish_gnav(engine, state, hero, f)
    elif game == "afrikan_tahti":
        finish_at(engine, state, hero, f)
    elif game == "coloretto_amazonas":
        finish_coloretto(engine, state, hero, f)
    return {"share": share, "figures": dict(f.numbers), "times": dict(times), "cpu": dict(cpu)}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def cells(game: str) -> list[tuple[str, str]]:
    """Each level against the reference, then each level against the one below and strong against
    easy; a level that is the same policy as the one below (a game without its own strong level
    yet) is measured once."""
    ais = GAMES[game].ais
    levels = [lv for k, lv in enumerate(LEVELS) if k == 0 or ais[lv] is not ais[LEVELS[k - 1]]]
    out = [(level, "reference") for level in levels]
    if game == "majavajengi":
        out.append(("classic", "reference"))
    if game == "gnav":
        out.append(("sensible", "reference"))  # the tuned count: strong's model of the others
    out += [(levels[k + 1], levels[k]) for k in range(len(levels) - 1)]
    if len(levels) > 2:
        out.append((levels[-1], levels[0]))  # every level against every other: strong against easy
    if game == "gnav":
        out.append(("strong", "sensible"))
    if game == "afrikan_tahti":
        out.append(("normal", "normal"))  # an AI-only table: how long its games last
    return out


def run(
    game: str,
    players: int,
    games: int,
    seed: str,
    pool: Any,
    only: list[tuple[str, str]] | None,
    options: dict[str, Any] | None = None,
    paired: bool = False,
) -> list[dict]:
    results = []
    for a, b in only or cells(game):
        jobs = [(game, players, a, b, g, seed, json.dumps(options or {}), paired) for g in range(games)]
        start = time.perf_counter()
        if pool:  # the one extra process plays every other game while this one plays the rest
            other = pool.map_async(play_one, jobs[1::2], chunksize=max(1, games // 32))
            mine = [play_one(j) for j in jobs[::2]]
            theirs = other.get()
            outs = [o for pair in zip(mine, theirs) for o in pair] + mine[len(theirs) :]
        else:
            outs = [play_one(j) for j in jobs]
        seconds = time.perf_counter() - start
        wins = sum(o["share"] for o in outs)
        lo, hi = wilson(wins, games)
        if paired:
            rot = [
                statistics.fmean(o["share"] for o in outs[k : k + players]) for k in range(0, games, players)
            ]
            half = 1.96 * statistics.stdev(rot) / sqrt(len(rot)) if len(rot) > 1 else 1.0
            mid = wins / games
            extra_paired = {"paired ci95": [round(max(0.0, mid - half), 3), round(min(1.0, mid + half), 3)]}
        else:
            extra_paired = {}
        figures: dict[str, list[float]] = defaultdict(list)
        times: dict[str, list[float]] = defaultdict(list)
        cpu: dict[str, list[float]] = defaultdict(list)
        for o in outs:
            for k, v in o["figures"].items():
                figures[k].extend(v)
            for k, v in o["times"].items():
                times[k].extend(v)
            for k, v in o["cpu"].items():
                cpu[k].extend(v)
        extra = {}
        if figures.get("lives lost"):
            lost, mine = sum(figures["lives lost"]), sum(figures["hero lives lost"])
            lo2, hi2 = wilson(lost - mine, int(lost))
            # the share of deals the hero did not lose a life in (fair: 1 - 1 / players), 95 % interval
            extra = {
                "deals safe": round(1 - mine / lost, 3),
                "deals safe ci95": [round(lo2, 3), round(hi2, 3)],
            }
        row = {
            "game": game,
            "players": players,
            "a": a,
            "b": b,
            "games": games,
            "win": round(wins / games, 3),
            "ci95": [round(lo, 3), round(hi, 3)],
            "fair": round(1 / players, 3),
            "seconds": round(seconds, 1),
            **extra_paired,
            **extra,
            "figures": {k: round(statistics.fmean(v), 2) for k, v in sorted(figures.items()) if v},
            "ms": {
                k: {
                    "median": round(statistics.median(v), 2),
                    "p99": round(sorted(v)[int(0.99 * (len(v) - 1))], 2),
                    "cpu_median": round(statistics.median(cpu[k]), 2),
                    "cpu_p99": round(sorted(cpu[k])[int(0.99 * (len(cpu[k]) - 1))], 2),
                    "n": len(v),
                }
                for k, v in sorted(times.items())
                if v
            },
            "load": round(os.getloadavg()[0], 1),
        }
        results.append(row)
        print(_line(row), flush=True)
    return results


def _line(row: dict) -> str:
    lo, hi = row["ci95"]
    paired = ""
    if "paired ci95" in row:
        plo, phi = row["paired ci95"]
        paired = f", paired [{plo:.3f}, {phi:.3f}]"
    figs = ", ".join(f"{k} {v}" for k, v in row["figures"].items())
    if "deals safe" in row:
        a, b = row["deals safe ci95"]
        figs += f"\n    deals without a life lost {row['deals safe']:.3f} [{a:.3f}, {b:.3f}]"
    ms = ", ".join(
        f"{k} {v['median']}/{v['p99']} ms (cpu {v['cpu_median']}/{v['cpu_p99']})"
        for k, v in row["ms"].items()
    )
    return (
        f"{row['game']} {row['players']}p  {row['a']:>9} vs {row['b']:<9} win {row['win']:.3f} "
        f"[{lo:.3f}, {hi:.3f}]{paired} (fair {row['fair']:.2f}, {row['games']} games, {row['seconds']} s)"
        f"\n    {figs}\n    decision median/p99 (load {row['load']}): {ms}"
    )


DEFAULT_GAMES = {"majavajengi": 800, "gnav": 600, "afrikan_tahti": 60, "coloretto_amazonas": 400}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="majavajengi,gnav,afrikan_tahti,coloretto_amazonas")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--games", type=int, default=0, help="games per cell (default: per game)")
    parser.add_argument("--seed", default="bench")
    parser.add_argument(
        "--jobs", type=int, default=2, help="2: one extra process plays half the games; 1: none"
    )
    parser.add_argument("--cell", action="append", default=[], help="A:B, e.g. strong:reference (repeatable)")
    parser.add_argument(
        "--paired", action="store_true", help="the games of one seat rotation share a seed (see above)"
    )
    parser.add_argument("--json", action="store_true", help="also print every row as a JSON line")
    parser.add_argument(
        "--option", action="append", default=[], help="key=value (JSON value), e.g. expansion=false"
    )
    args = parser.parse_args(argv)
    for game in args.game.split(","):
        ais = GAMES[game].ais
        same = [lv for k, lv in enumerate(LEVELS) if k and ais[lv] is ais[LEVELS[k - 1]]]
        if same:
            print(f"{game}: {', '.join(same)} plays as the level below (measured once)", flush=True)
    only = [tuple(c.split(":", 1)) for c in args.cell] or None
    options: dict[str, Any] = {}
    for item in args.option:
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    pool = Pool(1) if args.jobs > 1 else None  # at most one extra process
    rows = []
    try:
        for game in args.game.split(","):
            for players in (int(p) for p in args.players.split(",")):
                games = args.games or DEFAULT_GAMES[game]
                rows += run(game, players, games, args.seed, pool, only, options, args.paired)  # type: ignore[arg-type]
    finally:
        if pool:
            pool.close()
            pool.join()
    if args.json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
