"""Play many AI games and print figures as one JSON line (the last line of output).

Seats get AI names from ``--ai`` (comma separated, repeated round the table); the assignment rotates
by one seat each game so that no AI keeps the first-player advantage. ``win_rate`` gives, per AI name,
the share of games it won (a shared first place counts as a fraction).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections import Counter
from typing import Any, cast

from engines import GAMES
from engines.keyed import KEYED_SEED


def simulate(
    game: str,
    games: int,
    seed: str,
    players: int | None,
    ais: list[str] | None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    engine = GAMES[game]
    n = players or engine.default_players
    names = ais or [engine.default_ai, "random"]
    opts = engine.options_from_dict(options or {})
    actions = 0
    errors = 0
    error_samples: list[str] = []
    wins = cast("dict[str, float]", Counter())  # a Counter (missing names count 0) of fractional wins
    seat_wins: Counter[int] = Counter()
    end_reasons: Counter[str] = Counter()
    start = time.perf_counter()
    from engines.playout import play_ai_game

    for g in range(games):
        seats = tuple(names[(s + g) % len(names)] for s in range(n))
        try:
            state, log = play_ai_game(engine, seats, f"{seed}:{g}", opts)
        except Exception as exc:  # an engine error is a figure to report, not a crash
            errors += 1
            if len(error_samples) < 3:
                error_samples.append(f"game {g}: {exc!r}\n{traceback.format_exc(limit=3)}")
            continue
        actions += len(log)
        reason = getattr(engine.view(state, None), "end_reason", None)
        if reason is not None:
            end_reasons[str(reason)] += 1
        out = engine.outcome(state)
        assert out is not None
        for w in out.winners:
            wins[seats[w]] += 1 / len(out.winners)
            seat_wins[w] += 1
    seconds = time.perf_counter() - start
    result = {
        "game": game,
        "games": games,
        "players": n,
        "ai": names,
        "actions": actions,
        "actions_per_s": round(actions / seconds, 1) if seconds else None,
        "seconds": round(seconds, 3),
        "errors": errors,
        "win_rate": {name: round(wins[name] / games, 4) for name in sorted(set(names))},
        "first_seat_win_rate": round(seat_wins[0] / games, 4) if games else None,
    }
    if end_reasons:  # games whose views say how they ended (e.g. a round limit versus a real win)
        result["end_reasons"] = dict(sorted(end_reasons.items()))
    if error_samples:
        result["error_samples"] = error_samples
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engines")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play AI games and print figures")
    sim.add_argument("game", choices=sorted(GAMES))
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument(
        "--seed",
        default=f"{KEYED_SEED}0",
        help=f"games are seeded SEED:0, SEED:1...; a seed starting with {KEYED_SEED!r} (the default) has the "
        "cheap generators of the chat's seeds since issue #28, any other the Random(str) ones",
    )
    sim.add_argument("--players", type=int, default=None)
    sim.add_argument("--ai", default=None, help="comma-separated AI names, e.g. smart,random")
    sim.add_argument("--option", action="append", default=[], help="key=value (JSON value)")
    args = parser.parse_args(argv)
    options = {}
    for item in args.option:
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    result = simulate(
        args.game, args.games, args.seed, args.players, args.ai.split(",") if args.ai else None, options
    )
    samples = result.pop("error_samples", [])
    for s in samples:
        print(s, file=sys.stderr)
    print(json.dumps(result, ensure_ascii=False))
    return 1 if result["errors"] else 0
