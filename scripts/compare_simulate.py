"""``python -m engines simulate`` of every game, here and in another checkout (issue #28: no engine
slower than at commit 1f811ce): actions per second, the median of several runs taken in turns.

    .venv/bin/python scripts/compare_simulate.py --old /tmp/old [--runs 5] [--scale 1]
    .venv/bin/python scripts/compare_simulate.py --old /tmp/old --instructions   # valgrind: load-free

Each run is a fresh process of the checkout's own ``simulate`` (what ``python -m engines simulate
GAME --games N --seed S`` runs: its default AI against the random one), timed in the process's CPU
seconds; the runs of the two checkouts alternate, so that a change in the machine's load falls on
both. Printed per game: the median
actions per second of each, their ratio (now / old: at least 1 means no slower) and the spread, and
the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
#: games per run: each run takes a second or two
GAMES = {"majavajengi": 40, "coloretto_amazonas": 40, "gnav": 200, "afrikan_tahti": 6}


#: what a run does in the checkout: its own ``simulate`` (the function behind ``python -m engines
#: simulate``, with the command's defaults), timed in CPU seconds of the process, so that other
#: processes on the machine count as little as they can
PROBE = """
import json, sys, time
from engines.simulate import simulate
game, games, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ais = sys.argv[4].split(",") if len(sys.argv) > 4 and sys.argv[4] else None
start = time.process_time()
figures = simulate(game, games, seed, None, ais)
print(json.dumps({"actions": figures["actions"], "cpu": time.process_time() - start}))
"""

#: the games' registry names in older checkouts
FORMER_NAMES = {"gnav": "cardavia"}


VALGRIND = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]


def _run(
    tree: Path, game: str, games: int, seed: str, counted: bool, ais: str = ""
) -> tuple[dict[str, float], str]:
    for name in (game, FORMER_NAMES.get(game)):
        if name is None:
            break
        done = subprocess.run(
            [*(VALGRIND if counted else []), sys.executable, "-c", PROBE, name, str(games), seed, ais],
            cwd=tree,
            env={**os.environ, "PYTHONPATH": str(tree)},
            capture_output=True,
            text=True,
        )
        if done.returncode == 0:
            return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr
    raise RuntimeError(f"{tree}: simulate {game} failed: {done.stderr[-500:]}")


def rate(tree: Path, game: str, games: int, seed: str, ais: str = "") -> float:
    """Actions per CPU second of one run."""
    figures, _err = _run(tree, game, games, seed, False, ais)
    return float(figures["actions"]) / float(figures["cpu"])


def instructions(tree: Path, game: str, games: int, seed: str, ais: str = "") -> float:
    """Machine instructions per action (valgrind): the same whatever else the machine runs. The
    process's start (imports, the first game) is taken off with a run of one game."""
    figures, err = _run(tree, game, games + 1, seed, True, ais)
    first, base = _run(tree, game, 1, seed, True, ais)
    return (_irefs(err) - _irefs(base)) / max(1.0, float(figures["actions"] - first["actions"]))


def _irefs(stderr: str) -> int:
    line = next(x for x in stderr.splitlines() if "I   refs:" in x or "I refs:" in x)
    return int(line.split(":")[1].replace(",", "").strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="a checkout of the commit to compare with")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", default="compare")
    parser.add_argument("--game", action="append", help="only these games")
    parser.add_argument("--scale", type=float, default=1.0, help="games per run times this")
    parser.add_argument(
        "--ai", default="", help="the seats' AI names as simulate's --ai (default: its default AI and random)"
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="machine instructions per action under valgrind instead (one run each, a tenth of the games)",
    )
    args = parser.parse_args()
    old = Path(args.old).resolve()
    print(f"load average before {os.getloadavg()}")
    for game, games in GAMES.items():
        if args.game and game not in args.game:
            continue
        n = max(1, round(games * args.scale))
        if args.instructions:
            n = max(1, n // 10)
            now_i = instructions(HERE, game, n, args.seed, args.ai)
            old_i = instructions(old, game, n, args.seed, args.ai)
            print(
                f"{game:20} now {now_i:11.0f} instructions/action  old {old_i:11.0f}  "
                f"ratio old/now {old_i / now_i:.2f}  [{n} games]",
                flush=True,
            )
            continue
        now_rates, old_rates = [], []
        for _ in range(args.runs):
            now_rates.append(rate(HERE, game, n, args.seed, args.ai))
            old_rates.append(rate(old, game, n, args.seed, args.ai))
        now, then = statistics.median(now_rates), statistics.median(old_rates)
        print(
            f"{game:20} now {now:9.0f} actions/s (runs {min(now_rates):.0f}-{max(now_rates):.0f})  "
            f"old {then:9.0f} (runs {min(old_rates):.0f}-{max(old_rates):.0f})  ratio {now / then:.2f}  "
            f"[{n} games a run]",
            flush=True,
        )
    print(f"load average after {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
