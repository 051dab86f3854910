"""Engine speed (issue #28): turns per second of Afrikan Tähti's base game under a random policy,
and optionally of a peer engine in the same loop.

    python scripts/bench_engines.py [--games N] [--runs R] [--seed S] [--players P] [--peer PATH]

Ours: ``N`` games (seeded ``S:0``, ``S:1``…) of ``afrikan_tahti`` with ``expansion=false``, every
seat the ``random`` AI, played through the contract as ``python -m engines simulate`` plays them
(:func:`engines.playout.play_ai_game`: ``to_act``, ``legal_actions``, the policy, ``apply`` and the
notation of every action; no ``view``, which the random AI does not read: ``Engine.ai_reads_view``). A turn
is a seat's turn: the engine's ``turn`` and ``turn_lost`` events (a turn is one to three actions), counted
in an untimed pass of the same seeded games (the peer's loop counts its ``play()`` calls, for nothing).

``--peer PATH``: a local copy of the peer engine markus-kari/star_of_africa (nothing of it is part of
this project; it needs ``numpy`` importable, e.g. ``PYTHONPATH=.:/some/dir`` after
``pip install --target /some/dir numpy``). Its ``Game`` is played with AI-flagged players whose
choices (action, destination) are made uniformly at random (its ``AI_decisions`` choosers are
replaced for the run; ``--peer-policy ai`` keeps its own AI), seeded per game through the global
``random`` it uses, one ``Game.play()`` call per turn, until it has a winner; the same number of
seats, start places alternating Cairo and Tangier.

Each side is timed ``R`` times over the same ``N`` seeded games; the line gives the median turns per
second (and the spread), and with a peer the ratio ours / peer (above 1: ours is faster). With a peer
the runs alternate (ours, the peer's, ours…), so that a machine whose speed drifts slows both alike;
the ratio of each such pair is printed too. Every run is one process and one core; figures vary
with the machine's load (the load average is printed).

``--parts``: where a turn of ours goes, timed inside the same loop (µs per turn for each call of it,
the timer's own cost included), and the part of it that seeds a random generator: the contract gives
the AI a generator seeded from (seed, ply, seat) for every action and every die its own seeded one
(``engines.contract.rng_for``), so that a game replays from its log and an AI's choice from its view;
the peer seeds one global generator per game. The seed's form chooses the generator: ``--seed``'s
default ``k:bench`` is of the keyed form the chat's seeds have since issue #28 (``engines.keyed``:
BLAKE2b of the key, its first draws from the digest's bits); a seed of the old form (e.g.
``--seed bench``) gets ``random.Random(str)`` as every match stored before (SHA-512 of the key, then
the Mersenne Twister's 624-word seeding: about 5 µs more a generator).

``--instructions``: machine instructions per turn of each side under valgrind (cachegrind), which do
not depend on the machine's load: the second of two passes over the same games, less the first
(caches warm, as in the timed runs after the first).

What the loop asks of each side. Ours: the contract's whole turn (legal actions, a view for a
policy that reads one, the notation of every action, events, immutable states, per-action seeded generators). The
peer's ``Game.play``: the same rules' decisions (its ``turn_possibilities`` and
``destination_options`` are its legal actions) on mutable objects, no view, notation or events, one
generator. Neither is given less than its own callers need; the difference is what the contract costs.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import GAMES
from engines.keyed import KEYED_SEED, keyed
from engines.playout import play_ai_game

Runner = Callable[[int, str, int], tuple[int, int]]


def seed_form(seed: str) -> str:
    """Which generators ``rng_for`` makes for games of this seed."""
    return "keyed form: KeyedRandom" if keyed(seed) else "old form: Random(str)"


def count_turns(games: int, seed: str, players: int) -> int:
    """The turns of :func:`run_ours`'s games, counted from their events in a pass of their own (the
    games are seeded: every pass plays the same ones), so that the timed passes carry no counter."""
    engine = GAMES["afrikan_tahti"]
    options = engine.options_from_dict({"expansion": False})
    turns = 0

    def count(_state: Any, _seat: int, _action: Any, events: tuple[Any, ...]) -> None:
        nonlocal turns
        for e in events:
            if e.code == "turn" or e.code == "turn_lost":
                turns += 1

    for g in range(games):
        play_ai_game(engine, ("random",) * players, f"{seed}:{g}", options, on_step=count)
    return turns


def run_ours(games: int, seed: str, players: int) -> tuple[int, int]:
    """``games`` random-policy base games: (turns, actions). The turns are counted once per
    arguments, outside the timed pass (:func:`count_turns`)."""
    engine = GAMES["afrikan_tahti"]
    options = engine.options_from_dict({"expansion": False})
    seats = ("random",) * players
    actions = 0
    for g in range(games):
        _state, log = play_ai_game(engine, seats, f"{seed}:{g}", options)
        actions += len(log)
    key = (games, seed, players)
    turns = _TURNS.get(key)
    if turns is None:
        turns = _TURNS[key] = count_turns(games, seed, players)
    return turns, actions


#: :func:`count_turns` by (games, seed, players)
_TURNS: dict[tuple[int, str, int], int] = {}


def parts_of_ours(games: int, seed: str, players: int) -> tuple[dict[str, float], int, int, float]:
    """The loop of :func:`engines.playout.play_ai_game` with each call timed: (ns per part summed,
    turns, seeded generators, ns per seeded generator)."""
    from engines.contract import rng_for

    engine = GAMES["afrikan_tahti"]
    options = engine.options_from_dict({"expansion": False})
    clock = time.perf_counter_ns
    spent = dict.fromkeys(("outcome, to_act", "legal_actions", "view", "ai's move", "apply", "notation"), 0.0)
    turns = generators = 0
    reads = engine.ai_reads_view("random")
    for g in range(games):
        state = engine.new_game(players, f"{seed}:{g}", options)
        engine = engine.for_game(state)  # as play_ai_game: the engine for the game, the AI as its player
        ai_player = engine.ai_player("random", state.seed)
        while True:
            t0 = clock()
            over = engine.outcome(state) is not None
            seat = 0 if over else engine.to_act(state)[0]
            t1 = clock()
            spent["outcome, to_act"] += t1 - t0
            if over:
                break
            legal = engine.legal_actions(state, seat)
            t2 = clock()
            view = engine.view(state, seat) if reads else None  # as play_ai_game: none for the random AI
            t3 = clock()
            # as play_ai_game: the AI's move with its seeded generator (the first draw of a keyed one)
            action = legal[0] if len(legal) == 1 else ai_player(state, seat, view, legal)
            t4 = clock()
            state, events = engine.apply(state, seat, action)
            t5 = clock()
            engine.notation(action)
            t6 = clock()
            for name, took in zip(
                ("legal_actions", "view", "ai's move", "apply", "notation"),
                (t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5),
                strict=True,
            ):
                spent[name] += took
            generators += 1 + sum(1 for e in events if e.code == "rolled")
            turns += sum(1 for e in events if e.code == "turn" or e.code == "turn_lost")
    keys = [f"{seed}:{i}:ai0" for i in range(2000)]  # the seed's own form
    start = clock()
    for key in keys:
        rng_for(key, 0, "d61").randint(1, 6)
    per_generator = (clock() - start) / len(keys)
    return spent, turns, generators, per_generator


VALGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null")


def instructions_per_turn(side: str, games: int, seed: str, players: int, peer: str | None) -> float:
    """Machine instructions per turn of ``side`` (valgrind): two passes over the games less one."""

    def count(passes: int) -> tuple[int, int]:
        command = [
            sys.argv[0],
            "--child",
            side,
            "--games",
            str(games),
            "--seed",
            seed,
            "--players",
            str(players),
        ]
        if peer:
            command += ["--peer", peer]
        done = subprocess.run(
            [*VALGRIND, sys.executable, *command, "--runs", str(passes)],
            capture_output=True,
            text=True,
            check=True,
            # one thread: numpy's BLAS (imported by the peer) otherwise starts threads whose
            # spinning valgrind counts, a different amount in every process
            env={**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
        )
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        assert found is not None, done.stderr[-2000:]
        return int(found[1].replace(",", "")), int(done.stdout.split()[-1])

    one, turns = count(1)
    two, _ = count(2)
    return (two - one) / turns


def peer_runner(path: str, policy: str) -> Runner:
    """The peer's loop (its own modules, imported from ``path``)."""
    sys.path.insert(0, str(Path(path).resolve()))
    game_mod: Any = importlib.import_module("game")
    player_mod: Any = importlib.import_module("player")
    if policy == "random":
        decisions: Any = importlib.import_module("AI_decisions")

        def pick_action(options: list[str], *_args: Any) -> str:
            return random.choice(options)

        def pick_place(places: list[str], *_args: Any) -> int:
            return random.randrange(len(places))

        def pick_city(_city: str, places: list[str], *_args: Any) -> int:
            return random.randrange(len(places))

        decisions.choose_action_token = pick_action
        decisions.choose_action_city = pick_action
        decisions.choose_token = pick_place
        decisions.choose_home = pick_place
        decisions.choose_city = pick_city

    def run(games: int, seed: str, players: int) -> tuple[int, int]:
        turns = 0
        for g in range(games):
            random.seed(f"{seed}:{g}")
            seats = [player_mod.Player(f"p{s}", 1, ("Cai", "Tan")[s % 2]) for s in range(players)]
            game = game_mod.Game(seats, False, True)
            while game.winner is None:
                game.play()
                turns += 1
        return turns, turns

    return run


def measure(run: Runner, games: int, seed: str, players: int, runs: int) -> dict[str, Any]:
    rates: list[float] = []
    turns = actions = 0
    for _ in range(runs):
        start = time.process_time()  # CPU time: the other processes' turns do not count
        turns, actions = run(games, seed, players)
        rates.append(turns / (time.process_time() - start))
    return summary(rates, turns, actions)


def summary(rates: list[float], turns: int, actions: int) -> dict[str, Any]:
    return {
        "turns": turns,
        "actions": actions,
        "rates": rates,
        "turns_per_s": round(statistics.median(rates), 1),
        "min": round(min(rates), 1),
        "max": round(max(rates), 1),
    }


def measure_pairs(
    ours: Runner, peer: Runner, games: int, seed: str, players: int, runs: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both sides, a run of each in turn (ours, then the peer's, ``runs`` times): a machine whose
    speed drifts during the measurement (other processes, the clock) slows both sides alike."""
    mine: list[float] = []
    theirs: list[float] = []
    counts = [0, 0, 0]
    for _ in range(runs):
        for run, rates, at in ((ours, mine, 0), (peer, theirs, 2)):
            start = time.process_time()
            turns, actions = run(games, seed, players)
            rates.append(turns / (time.process_time() - start))
            counts[at] = turns
            if at == 0:
                counts[1] = actions
    return summary(mine, counts[0], counts[1]), summary(theirs, counts[2], counts[2])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", default=f"{KEYED_SEED}bench", help="the keyed form unless told otherwise")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--peer", default=None, help="path to a local copy of markus-kari/star_of_africa")
    parser.add_argument("--peer-policy", choices=("random", "ai"), default="random")
    parser.add_argument("--parts", action="store_true", help="where a turn of ours goes (µs per turn)")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="machine instructions per turn under valgrind instead of time",
    )
    parser.add_argument("--child", choices=("ours", "peer"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:  # one side's passes, for --instructions: prints the turns of a pass
        run = run_ours if args.child == "ours" else peer_runner(args.peer, args.peer_policy)
        if args.child == "ours":  # the turns counted before the passes: the same in every child
            _TURNS[(args.games, args.seed, args.players)] = count_turns(args.games, args.seed, args.players)
        for _ in range(args.runs):
            turns, _actions = run(args.games, args.seed, args.players)
        print(turns)
        return 0
    if args.instructions:
        print(
            f"{args.games} games, {args.players} seats, seed {args.seed!r} ({seed_form(args.seed)}), "
            "second pass less the first, valgrind"
        )
        ours_i = instructions_per_turn("ours", args.games, args.seed, args.players, None)
        print(f"ours  afrikan_tahti base, random: {ours_i:,.0f} instructions/turn")
        if args.peer:
            peer_i = instructions_per_turn("peer", args.games, args.seed, args.players, args.peer)
            print(f"peer  star_of_africa, {args.peer_policy}: {peer_i:,.0f} instructions/turn")
            print(f"ratio ours/peer (turns per instruction) {peer_i / ours_i:.2f}")
        return 0
    if args.parts:
        parts_of_ours(args.games, args.seed, args.players)  # caches warm, as in the timed runs
        spent, turns, generators, per_generator = parts_of_ours(args.games, args.seed, args.players)
        total = sum(spent.values())
        print(
            f"load average {os.getloadavg()[0]:.2f}; ours, {args.games} games, {turns} turns, "
            f"seed {args.seed!r} ({seed_form(args.seed)}), µs per turn:"
        )
        for name, ns in spent.items():
            print(f"  {name:16} {ns / turns / 1000:6.2f}  ({100 * ns / total:4.1f} %)")
        print(f"  {'sum':16} {total / turns / 1000:6.2f}")
        seeding = generators / turns * per_generator
        print(
            f"seeded generators: {generators / turns:.2f} a turn (the AI's and the dice's), "
            f"{per_generator / 1000:.2f} µs each with a draw: {seeding / 1000:.2f} µs a turn "
            f"({100 * seeding * turns / total:.0f} % of the sum)"
        )
        return 0
    print(
        f"load average {os.getloadavg()[0]:.2f}; {args.games} games x {args.runs} runs, {args.players} seats, "
        f"seed {args.seed!r} ({seed_form(args.seed)})"
    )
    _TURNS[(args.games, args.seed, args.players)] = count_turns(args.games, args.seed, args.players)
    if args.peer:
        peer_run = peer_runner(args.peer, args.peer_policy)
        ours, peer = measure_pairs(run_ours, peer_run, args.games, args.seed, args.players, args.runs)
    else:
        ours = measure(run_ours, args.games, args.seed, args.players, args.runs)
    print(
        f"ours  afrikan_tahti base, random: {ours['turns_per_s']} turns/s "
        f"(runs {ours['min']}-{ours['max']}; {ours['turns']} turns, {ours['actions']} actions a run)"
    )
    if args.peer:
        print(
            f"peer  star_of_africa, {args.peer_policy}: {peer['turns_per_s']} turns/s "
            f"(runs {peer['min']}-{peer['max']}; {peer['turns']} turns a run)"
        )
        pairs = [a / b for a, b in zip(ours["rates"], peer["rates"], strict=True)]
        print(
            f"ratio ours/peer {ours['turns_per_s'] / peer['turns_per_s']:.2f} "
            f"(the runs were taken in turn; ratio of each pair: median {statistics.median(pairs):.2f}, "
            f"{min(pairs):.2f}-{max(pairs):.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
