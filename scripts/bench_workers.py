"""Updates per second with 1, 2 and 3 webhook workers on PostgreSQL (issue #12), and where the CPU
goes per update.

    .venv/bin/python scripts/bench_workers.py                       # a throwaway PostgreSQL cluster
    .venv/bin/python scripts/bench_workers.py --url postgresql+psycopg2://…  --workers 1,2,3

``python -m chatbot telegram`` runs in webhook mode as N processes (``TELEGRAM_WEBHOOK_URL`` /
``TELEGRAM_WEBHOOK_PORT`` of their own, ``TELEGRAM_WORKERS=N``, ``TELEGRAM_RATE_LIMITS=off``) on one
PostgreSQL database. The fake Bot API posts the updates across them in turn, as Telegram posts to
one URL behind a reverse proxy. ``--groups`` groups each play a two-person Majavajengi match by
button presses, every group as fast as the bot lets it: the acting person presses as soon as their
prompt has arrived, a new match starts when one ends. For ``--seconds`` after a warm-up the script
counts the updates the workers accepted (HTTP 200: committed) and reads the CPU time of the
workers, of the PostgreSQL server (the postmaster and its backends) and of this process (the fake
Bot API and the players) from /proc: the CPU milliseconds per update of each show what bounds the
rate on this machine (``os.cpu_count()`` cores shared by all three).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import (
    Child,
    bot_argv,
    bot_env,
    cpu_seconds,
    free_port,
    load_average,
    reset_postgres,
    stamp,
    throwaway_postgres,
    tree_cpu_seconds,
)

from tests.telegram.fake_api import FakeTelegram


class RoutingFake(FakeTelegram):
    """The fake Bot API posting each update to the next worker's webhook (one HTTP session)."""

    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []
        self._turn = itertools.count()
        self.session: Any = None
        self.accepted = 0
        self.refused = 0

    async def _push(self, update: dict[str, Any]) -> int:
        import aiohttp

        if not self.targets:
            return await super()._push(update)
        if self.session is None:
            self.session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=200))
        self.sent_updates[update["update_id"]] = update
        self.injected_at[update["update_id"]] = time.monotonic()
        url = self.targets[next(self._turn) % len(self.targets)]
        for _ in range(50):  # a worker that is not up yet: try the next one
            try:
                async with self.session.post(url, json=update) as response:
                    if response.status == 200:
                        self.accepted += 1
                        return int(update["update_id"])
                    self.refused += 1
            except aiohttp.ClientError:
                self.refused += 1
            url = self.targets[next(self._turn) % len(self.targets)]
            await asyncio.sleep(0.05)
        raise RuntimeError("no worker accepted the update")

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()
        await self.stop()


async def group_player(server: RoutingFake, group: int, uids: tuple[int, int], stop: asyncio.Event) -> None:
    rng = random.Random(group)
    pressed: set[tuple[int, int, tuple[str, ...]]] = set()  # a panel is edited in place

    async def start_match() -> None:
        for text, uid in (("/uusi majavajengi", uids[0]), ("/liity", uids[1]), ("/aloita", uids[0])):
            await server.send(uid, group, text)
        await asyncio.sleep(0.2)

    def next_press() -> tuple[int, Any] | None:
        for uid in uids:
            for m in reversed(server.bot_messages(uid)):
                if m.callback_data() and (uid, m.message_id, tuple(m.callback_data())) not in pressed:
                    return uid, m
                break
        return None

    await start_match()
    while not stop.is_set():
        try:
            step = await server.wait_for(next_press, 3.0, "a prompt")
        except AssertionError:
            if stop.is_set():
                return
            await start_match()  # the match ended (or a prompt was buttonless): a new one
            continue
        uid, m = step
        pressed.add((uid, m.message_id, tuple(m.callback_data())))
        await server.press(uid, uid, m.message_id, rng.choice(m.callback_data()))


async def run(url: str, pg_pid: int | None, workers: int, groups: int, seconds: float, warmup: float) -> dict:
    reset_postgres(url)
    server = RoutingFake()
    await server.start()
    people = {}
    for g in range(groups):
        group = -1000 - g
        server.add_group(group)
        pair = (10_000 + 2 * g, 10_001 + 2 * g)
        for uid in pair:
            server.add_user(uid, f"P{uid}", "fi", opened=True)
        people[group] = pair
    children: list[Child] = []
    ports = [free_port() for _ in range(workers)]
    try:
        for i, port in enumerate(ports):
            hook = f"http://127.0.0.1:{port}/hook"
            env = bot_env(
                server,
                TELEGRAM_WEBHOOK_URL=hook,
                TELEGRAM_WEBHOOK_PORT=str(port),
                TELEGRAM_WORKERS=str(workers),
                CHATBOT_WORKER=f"bench-w{i}",
            )
            child = Child(server, bot_argv(url), env)
            await child.start(settle=0.3)
            children.append(child)
            server.targets.append(hook)
        stop = asyncio.Event()
        players = [asyncio.create_task(group_player(server, g, p, stop)) for g, p in people.items()]
        await asyncio.sleep(warmup)
        before = (server.accepted, time.monotonic(), time.process_time())
        bot_cpu0 = sum(cpu_seconds(c.pid) for c in children)
        pg_cpu0 = tree_cpu_seconds(pg_pid) if pg_pid else 0.0
        await asyncio.sleep(seconds)
        bot_cpu1 = sum(cpu_seconds(c.pid) for c in children)
        pg_cpu1 = tree_cpu_seconds(pg_pid) if pg_pid else 0.0
        after = (server.accepted, time.monotonic(), time.process_time())
        stop.set()
        for task in players:
            task.cancel()
        for task in players:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        updates = after[0] - before[0]
        span = after[1] - before[1]
        per = max(updates, 1)
        return {
            "workers": workers,
            "updates": updates,
            "rate": updates / span,
            "bot_ms": (bot_cpu1 - bot_cpu0) / per * 1000,
            "pg_ms": (pg_cpu1 - pg_cpu0) / per * 1000,
            "fake_ms": (after[2] - before[2]) / per * 1000,
            "cpu_busy": ((bot_cpu1 - bot_cpu0) + (pg_cpu1 - pg_cpu0) + (after[2] - before[2])) / span,
            "refused": server.refused,
        }
    finally:
        for child in children:
            await child.stop()
        await server.close()


async def main(args: argparse.Namespace) -> None:
    cores = os.cpu_count() or 1
    print(f"measured {stamp()}, load average {load_average()}, {cores} cores", flush=True)
    results = []
    with contextlib.ExitStack() as stack:
        if args.url:
            url, pg_pid = args.url, None
        else:
            url, pg_pid = stack.enter_context(throwaway_postgres())
        for n in [int(x) for x in args.workers.split(",")]:
            r = await run(url, pg_pid, n, args.groups, args.seconds, args.warmup)
            results.append(r)
            print(
                f"  {n} worker(s): {r['rate']:.1f} updates/s ({r['updates']} in {args.seconds:.0f} s);"
                f" CPU per update: bot {r['bot_ms']:.1f} ms, PostgreSQL {r['pg_ms']:.1f} ms,"
                f" fake Bot API + players {r['fake_ms']:.1f} ms; {r['cpu_busy']:.2f} of {cores} cores busy"
                + (f"; {r['refused']} posts refused" if r["refused"] else ""),
                flush=True,
            )
    if results:
        total = statistics.median(r["bot_ms"] + r["pg_ms"] + r["fake_ms"] for r in results)
        print(
            f"  bound on {cores} cores: about {cores * 1000 / total:.0f} updates/s at {total:.1f} ms CPU per update"
            " (bot + PostgreSQL + fake server); more workers add parallelism only while a core is idle"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default=None, help="an existing PostgreSQL database (its schema is emptied)")
    parser.add_argument("--workers", default="1,2,3")
    parser.add_argument("--groups", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    asyncio.run(main(parser.parse_args()))
