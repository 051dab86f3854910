"""How long a table of people who never answer a reaction window waits for them (issue 17).

Whole Afrikan Tähti + Retkikunnat games run through the real core on SQLite with a fake clock:
every person makes the smart AI's choice on their own turn and in every other prompt (danger,
duel, offers, choices) at once, but never taps anything in a reaction window (Sabotage, Gotcha!,
rescue) or at the Surprise! moment after a flip. Whenever the table waits for such a window the
clock jumps to the next deadline; the jumps add up to the waiting time.

    /work/main/.venv/bin/python scripts/bench_windows.py            # 3 people, 6 people quick game
    /work/main/.venv/bin/python scripts/bench_windows.py --seeds 5

Run from a checkout's root: it imports the ``chatbot`` of the current directory, so the same
script measures an older checkout too (``cd old && python /path/to/scripts/bench_windows.py``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.getcwd())

from chatbot.compose import new_core
from chatbot.core.types import Inbound
from chatbot.storage import SqlRepository
from engines.contract import rng_for

WINDOW_KINDS = ("window", "reveal")


def play(players: int, quick: bool, seed: str) -> dict[str, float]:
    now = [1_000_000.0]
    repo = SqlRepository("sqlite://")
    core = new_core(repo, seed=seed, clock=lambda: now[0], remind_after=1e9, act_after=2e9)
    users = [f"p{i}" for i in range(players)]

    def handle(msg: Inbound) -> None:
        core.handle(msg)
        handle_due()

    def handle_due() -> None:
        for _ in range(100_000):
            due = core.next_due()
            if due is None or due > now[0]:
                return
            core.run_due("bench")

    def say(user: str, text: str) -> None:
        handle(Inbound("bench", user, user.capitalize(), "g", False, text=text))

    say(users[0], "uusi afrikan tähti" + (" pikapeli=kyllä" if quick else ""))
    for u in users[1:]:
        say(u, "liity")
    say(users[0], "aloita")
    engine = core.games["afrikan_tahti"]
    waited = 0.0
    waits = 0
    for _ in range(40_000):
        running = repo.running_matches()
        if not running:
            break
        m = running[0]
        state = engine.load(m.state)
        pr = engine.view(state, None).x.prompt
        if pr is not None and pr.kind in WINDOW_KINDS:  # nobody taps: wait for the deadline
            due = core.next_due()
            assert due is not None, "a window without a deadline"
            waited += max(0.0, due - now[0])
            waits += 1
            now[0] = max(now[0], due)
            handle_due()
            continue
        acting = engine.to_act(state)
        seat = acting[0]
        legal = engine.legal_actions(state, seat)
        action = engine.ai_action(
            "smart", engine.view(state, seat), legal, rng_for(state.seed, state.ply, "b")
        )
        user = repo.user_by_id(m.seats[seat].user_id).ext_id
        data = f"{m.id}:{m.version}:{engine.notation(action)}"
        handle(Inbound("bench", user, user.capitalize(), user, True, button=data))
    else:
        raise RuntimeError("the game did not end")
    return {"wait_min": waited / 60, "expired": waits, "plies": state.ply}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    for players, quick in ((3, False), (6, True)):
        rows = []
        t0 = time.perf_counter()
        for i in range(args.seeds):
            rows.append(play(players, quick, f"bench-{players}-{i}"))
        mins = [r["wait_min"] for r in rows]
        label = f"{players} people" + (", quick game" if quick else "")
        print(
            f"{label}: waiting per game median {statistics.median(mins):.1f} min"
            f" (min {min(mins):.1f}, max {max(mins):.1f}); windows that ran out per game"
            f" {statistics.median([r['expired'] for r in rows]):.0f};"
            f" plies {statistics.median([r['plies'] for r in rows]):.0f};"
            f" {len(rows)} games in {time.perf_counter() - t0:.0f} s"
        )


if __name__ == "__main__":
    main()
