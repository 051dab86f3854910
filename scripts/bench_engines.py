"""Engine speed (issue #28): turns per second of Afrikan Tähti's base game under a random policy,
and optionally of a peer engine in the same loop.

    python scripts/bench_engines.py [--games N] [--runs R] [--seed S] [--players P] [--peer PATH]

Ours: ``N`` games of ``afrikan_tahti`` with ``expansion=false``, every seat the ``random`` AI, played
through the contract as ``python -m engines simulate`` plays them (:func:`engines.playout.play_ai_game`:
``to_act``, ``legal_actions``, ``view``, the policy, ``apply`` and the notation of every action). A turn
is a seat's turn: the engine's ``turn`` and ``turn_lost`` events (a turn is one to three actions).

``--peer PATH``: a local copy of the peer engine markus-kari/star_of_africa (nothing of it is part of
this project; it needs ``numpy`` importable, e.g. ``PYTHONPATH=.:/some/dir`` after
``pip install --target /some/dir numpy``). Its ``Game`` is played with AI-flagged players whose
choices (action, destination) are made uniformly at random (its ``AI_decisions`` choosers are
replaced for the run; ``--peer-policy ai`` keeps its own AI), seeded per game through the global
``random`` it uses, one ``Game.play()`` call per turn, until it has a winner; the same number of
seats, start places alternating Cairo and Tangier.

Each side is timed ``R`` times over the same ``N`` seeded games; the line gives the median turns per
second (and the spread), and with a peer the ratio ours / peer (above 1: ours is faster). Every run
is one process and one core; figures vary with the machine's load (the load average is printed).
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import GAMES
from engines.playout import play_ai_game

Runner = Callable[[int, str, int], tuple[int, int]]


def run_ours(games: int, seed: str, players: int) -> tuple[int, int]:
    """``games`` random-policy base games: (turns, actions)."""
    engine = GAMES["afrikan_tahti"]
    options = engine.options_from_dict({"expansion": False})
    seats = ("random",) * players
    turns = 0
    actions = 0

    def count(_state: Any, _seat: int, _action: Any, events: tuple[Any, ...]) -> None:
        nonlocal turns
        for e in events:
            if e.code == "turn" or e.code == "turn_lost":
                turns += 1

    for g in range(games):
        _state, log = play_ai_game(engine, seats, f"{seed}:{g}", options, on_step=count)
        actions += len(log)
    return turns, actions


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
    return {
        "turns": turns,
        "actions": actions,
        "turns_per_s": round(statistics.median(rates), 1),
        "min": round(min(rates), 1),
        "max": round(max(rates), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--peer", default=None, help="path to a local copy of markus-kari/star_of_africa")
    parser.add_argument("--peer-policy", choices=("random", "ai"), default="random")
    args = parser.parse_args(argv)
    print(
        f"load average {os.getloadavg()[0]:.2f}; {args.games} games x {args.runs} runs, {args.players} seats"
    )
    ours = measure(run_ours, args.games, args.seed, args.players, args.runs)
    print(
        f"ours  afrikan_tahti base, random: {ours['turns_per_s']} turns/s "
        f"(runs {ours['min']}-{ours['max']}; {ours['turns']} turns, {ours['actions']} actions a run)"
    )
    if args.peer:
        peer = measure(
            peer_runner(args.peer, args.peer_policy), args.games, args.seed, args.players, args.runs
        )
        print(
            f"peer  star_of_africa, {args.peer_policy}: {peer['turns_per_s']} turns/s "
            f"(runs {peer['min']}-{peer['max']}; {peer['turns']} turns a run)"
        )
        print(f"ratio ours/peer {ours['turns_per_s'] / peer['turns_per_s']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
