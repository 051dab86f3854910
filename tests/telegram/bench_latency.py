"""Latency and group-traffic benchmark of the Telegram transport (run by hand, not a test).

    .venv/bin/python tests/telegram/bench_latency.py [--updates 1000] [--limits off|default]

Four people play Majavajengi in one group through the fake Bot API server, by private buttons,
game after game, until ``--updates`` updates were injected. For every update it measures the time
from the injection to the bot's first answer (any sendMessage, edit or answerCallbackQuery), and for
button presses also to the group table's edit. It counts the group's new messages and edits per
turn. ``--limits off`` (the default) measures the pipeline itself; with ``default`` the real
Telegram limits (20 per minute in a group) throttle and coalesce the group's edits.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from chatbot.transports.telegram import Limits
from tests.telegram.conftest import GROUP, UNLIMITED, harness
from tests.telegram.test_telegram import choose, final_text, version

PLAYERS = {21: "Aino", 22: "Eino", 23: "Iida", 24: "Onni"}
ANSWERS = {"sendmessage", "editmessagetext", "editmessagereplymarkup", "answercallbackquery", "sendphoto"}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def count_turns(actions) -> int:
    """A turn is a run of actions by one seat (a last-lap turn ends without "end")."""
    seats = [a.seat for a in actions]
    return sum(1 for i, seat in enumerate(seats) if i == 0 or seats[i - 1] != seat)


async def answer_after(h, since_calls: int, chat: int | None = None, timeout: float = 120.0) -> float:
    """Monotonic time of the first answering call after ``since_calls`` calls (optionally in ``chat``)."""

    def found():
        for t, method, params in h.server.calls[since_calls:]:
            if (
                method in ANSWERS
                and "_error" not in params
                and (chat is None or params.get("chat_id") == chat)
            ):
                return t
        return None

    return await h.server.wait_for(found, timeout, "an answer")


async def bench(n_updates: int, limits: Limits) -> None:
    users = {uid: (name, True) for uid, name in PLAYERS.items()}
    latencies: list[float] = []
    table_latencies: list[float] = []
    games = turns = actions = 0
    group_new = group_edits = 0
    async with harness(Path(tempfile.mkdtemp()), limits=limits, users=users) as h:
        server = h.server
        uids = list(PLAYERS)

        async def inject(coro_factory, table: bool = False) -> None:
            calls = len(server.calls)
            start = time.monotonic()
            await coro_factory()
            latencies.append(await answer_after(h, calls) - start)
            if table:
                table_latencies.append(await answer_after(h, calls, chat=GROUP) - start)

        while len(latencies) < n_updates:
            group_calls_before = len(server.calls_to(GROUP))
            new_before = len(server.calls_to(GROUP, {"sendmessage", "sendphoto"}))
            await inject(lambda: h.say(uids[0], "/uusi majavajengi"))
            for uid in uids[1:]:
                await inject(lambda uid=uid: h.say(uid, "/liity"))
            await inject(lambda: h.say(uids[0], "/aloita"))
            mid = h.match_id()
            finals = sum(1 for t in h.group_texts() if "🏆" in t)
            while len(latencies) < n_updates:

                def ready(mid=mid, finals=finals):
                    if sum(1 for t in h.group_texts() if "🏆" in t) > finals:
                        return ("over",)
                    match = h.core.repo.match(mid)
                    for uid in uids:
                        msg = h.prompt(uid)
                        if msg is not None and version(msg.callback_data()[0]) == match.version:
                            return (uid, msg)
                    return None

                found = await server.wait_for(ready, 120, "a prompt")
                if found[0] == "over":
                    break
                uid, msg = found
                await inject(
                    lambda uid=uid, msg=msg: h.press(uid, uid, msg, choose(msg.callback_data())),
                    table=limits.per_group is None,
                )
                actions += 1
            await h.settle()
            finished = final_text(h) is not None and h.core.repo.match(mid).status == "over"
            if finished:
                games += 1
                turns += count_turns(h.core.repo.actions(mid))
                group_new += len(server.calls_to(GROUP, {"sendmessage", "sendphoto"})) - new_before
                group_edits += (
                    len(server.calls_to(GROUP))
                    - group_calls_before
                    - (len(server.calls_to(GROUP, {"sendmessage", "sendphoto"})) - new_before)
                )
            else:
                await h.say(uids[0], "/peru")
                await h.settle()
        stats = h.transport.runtime.stats
    print(f"updates: {len(latencies)}  (limits: {limits})")
    print(
        f"latency update → first answer: median {statistics.median(latencies) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
    )
    if table_latencies:
        print(
            f"button press → group table edited: median {statistics.median(table_latencies) * 1000:.1f} ms, "
            f"p99 {percentile(table_latencies, 99) * 1000:.1f} ms"
        )
    if games:
        print(f"finished 4-player games: {games}, turns {turns}, actions {actions}")
        print(
            f"group per turn: {group_new / turns:.2f} new messages, {group_edits / turns:.2f} edits "
            f"({(group_new + group_edits) / turns:.2f} calls)"
        )
    print(f"delivery: {stats}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--updates", type=int, default=1000)
    parser.add_argument("--limits", choices=["off", "default"], default="off")
    args = parser.parse_args()
    limits = UNLIMITED if args.limits == "off" else Limits()
    asyncio.run(bench(args.updates, limits))


if __name__ == "__main__":
    main()
