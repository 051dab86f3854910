"""Update -> first answer: the bot as shipped vs a bare python-telegram-bot echo bot (issue #12).

    .venv/bin/python scripts/bench_echo.py [--updates 300] [--chunk 50] [--db sqlite,postgres]

``--db`` lists the databases to measure, one after another: ``sqlite`` (a temporary file),
``postgres`` (a throwaway PostgreSQL cluster of its own, as the tests' ``pg_url`` makes one) or a
SQLAlchemy URL of an existing PostgreSQL database (its public schema is emptied first).
``--profile FILE`` runs the bot under cProfile on every thread (the core's and the delivery's
threads too) and writes FILE.<thread> stats files.

Both run as child processes against the same fake Bot API server (tests/telegram/fake_api.py) with
``TELEGRAM_RATE_LIMITS=off``. The bot is as shipped (its Bot API calls on aiohttp,
``chatbot/transports/telegram/request.py``); the echo bot is plain python-telegram-bot with its
default request class (httpx). ``TELEGRAM_HTTP=httpx`` in the environment puts the bot on httpx too. Four people play Majavajengi in a group: the update trace is real game
traffic (private button presses and typed Finnish in the group: "nostan", "koputan", "valmis").
The bot plays a chunk of the trace live and it is recorded; the echo bot then gets exactly the same
updates (a text is echoed with sendMessage, a button press answered with answerCallbackQuery);
then the next chunk, alternating. For every update the time from its injection to the first
answering Bot API call is measured, one update at a time. Prints medians, p99 and the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import (
    Child,
    bot_argv,
    bot_env,
    first_answer,
    load_average,
    percentile,
    reset_postgres,
    stamp,
    throwaway_postgres,
)

from tests.telegram.fake_api import FakeTelegram

GROUP = -500
PEOPLE = {61: "Aino", 62: "Eino", 63: "Iida", 64: "Onni"}
TYPED = {"draw": "nostan", "knock": "koputan", "end": "valmis"}

ECHO = """
import os
from telegram.ext import ApplicationBuilder, CallbackQueryHandler, MessageHandler, filters
api = os.environ["TELEGRAM_API_URL"].rstrip("/")
async def text(update, context):
    await context.bot.send_message(update.effective_chat.id, update.message.text)
async def button(update, context):
    await update.callback_query.answer()
app = (ApplicationBuilder().token(os.environ["TELEGRAM_TOKEN"]).base_url(api + "/bot")
       .base_file_url(api + "/file/bot").build())
app.add_handler(CallbackQueryHandler(button))
app.add_handler(MessageHandler(filters.TEXT, text))
app.run_polling(poll_interval=0.0, timeout=30)
"""


async def inject(server: FakeTelegram, step: tuple) -> float:
    """Inject one update; returns its injection time (monotonic)."""
    kind, uid, chat, payload, message_id = step
    if kind == "text":
        await server.send(uid, chat, payload)
    else:
        await server.press(uid, chat, message_id, payload)
    return server.injected_at[max(server.sent_updates)]


class Players:
    """The four people: the acting one presses a private button, or types in the group."""

    def __init__(self, server: FakeTelegram, rng: random.Random) -> None:
        self.server, self.rng = server, rng
        self.pressed: set[tuple[int, int, tuple[str, ...]]] = set()  # a panel is edited in place

    def next_step(self) -> tuple | None:
        for uid in PEOPLE:
            for m in reversed(self.server.bot_messages(uid)):
                datas = m.callback_data()
                if datas:
                    if (uid, m.message_id, tuple(datas)) in self.pressed:
                        break
                    self.pressed.add((uid, m.message_id, tuple(datas)))
                    data = self.rng.choice(datas)
                    notation = data.split(":", 2)[2]
                    if notation in TYPED and self.rng.random() < 0.4:
                        return ("text", uid, GROUP, TYPED[notation], None)
                    return ("button", uid, uid, data, m.message_id)
                break
        return None


async def run_bot_chunk(server: FakeTelegram, players: Players, n: int, trace: list, lat: list) -> None:
    while len(trace) < n:
        step = None
        deadline = time.monotonic() + 10
        while step is None and time.monotonic() < deadline:
            step = players.next_step()
            if step is None:
                if any("🏆" in t for t in server.texts(GROUP)[-3:]):
                    step = ("text", 61, GROUP, "/uusi majavajengi", None)
                    for uid in (62, 63, 64):
                        trace.append(("text", uid, GROUP, "/liity", None))
                    break
                await asyncio.sleep(0.02)
        if step is None:  # the table waits for someone: start (again)
            step = ("text", 61, GROUP, "/aloita", None)
        since = len(server.calls)
        if os.environ.get("BENCH_DEBUG"):
            print("bot step", step, flush=True)
        t0 = await inject(server, step)
        lat.append(await first_answer(server, since) - t0)
        BY_KIND["bot"].setdefault(step[0], []).append(lat[-1])
        trace.append(step)
        await server.quiet(0.05, timeout=30)
        if step[3] == "/uusi majavajengi":
            for uid in (62, 63, 64):
                since = len(server.calls)
                t0 = await inject(server, ("text", uid, GROUP, "/liity", None))
                lat.append(await first_answer(server, since) - t0)
                BY_KIND["bot"].setdefault("text", []).append(lat[-1])
                await server.quiet(0.05, timeout=30)


#: latencies by kind of update ("button", "text") for the report
BY_KIND: dict[str, dict[str, list[float]]] = {"bot": {}, "echo": {}}


async def run_echo_chunk(server: FakeTelegram, trace: list, lat: list) -> None:
    for step in trace:
        kind, uid, chat, payload, _mid = step
        if kind == "button":  # a message to press on in the echo's chats (any of the bot's)
            mine = server.bot_messages(chat)
            step = (kind, uid, chat, payload, mine[-1].message_id if mine else 1)
        since = len(server.calls)
        t0 = await inject(server, step)
        lat.append(await first_answer(server, since) - t0)
        BY_KIND["echo"].setdefault(kind, []).append(lat[-1])
        await server.quiet(0.02, timeout=30)


PROFILER = """
import atexit, cProfile, os, runpy, sys, threading
out = os.environ["BENCH_PROFILE"]
profiles = []
run = threading.Thread.run
def profiled(self):
    p = cProfile.Profile(); profiles.append((self.name, p)); p.enable()
    try:
        run(self)
    finally:
        p.disable()
threading.Thread.run = profiled
main = cProfile.Profile(); profiles.append(("main", main))
def dump():
    main.disable()
    for name, p in profiles:
        p.dump_stats(out + "." + name.replace("/", "_").replace(" ", "_") + "." + str(id(p)))
atexit.register(dump)
sys.argv = sys.argv[1:]
main.enable()
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


async def measure(args: argparse.Namespace, db: str) -> tuple[list[float], list[float]]:
    rng = random.Random(12)
    tmp = Path(tempfile.mkdtemp(prefix="bench-echo-"))
    bot_server, echo_server = FakeTelegram(), FakeTelegram()
    for server in (bot_server, echo_server):
        await server.start()
        server.add_group(GROUP)
        for uid, name in PEOPLE.items():
            server.add_user(uid, name, "fi", opened=True)
    prefix = None
    extra = {}
    if args.profile:
        profiler = tmp / "profiler.py"
        profiler.write_text(PROFILER)
        prefix = [str(profiler)]
        extra = {"BENCH_PROFILE": args.profile}
    bot = Child(bot_server, bot_argv(db, prefix), bot_env(bot_server, **extra))
    echo_file = tmp / "echo.py"
    echo_file.write_text(ECHO)
    echo = Child(echo_server, [sys.executable, str(echo_file)], bot_env(echo_server))
    await bot.start()
    await echo.start()
    players = Players(bot_server, rng)
    bot_lat: list[float] = []
    echo_lat: list[float] = []
    try:
        # the first game's setup is not measured as game traffic
        for uid, text in (
            (61, "/uusi majavajengi"),
            (62, "/liity"),
            (63, "/liity"),
            (64, "/liity"),
            (61, "/aloita"),
        ):
            await bot_server.send(uid, GROUP, text)
            await bot_server.quiet(0.1, timeout=30)
        done = 0
        while done < args.updates:
            trace: list = []
            n = min(args.chunk, args.updates - done)
            await run_bot_chunk(bot_server, players, n, trace, bot_lat)
            await run_echo_chunk(echo_server, trace, echo_lat)
            done += n
            print(
                f"{done} updates: bot median {statistics.median(bot_lat) * 1000:.1f} ms, "
                f"echo median {statistics.median(echo_lat) * 1000:.1f} ms",
                flush=True,
            )
    finally:
        await bot.stop()
        await echo.stop()
        await bot_server.stop()
        await echo_server.stop()
    return bot_lat, echo_lat


def report(label: str, bot_lat: list[float], echo_lat: list[float]) -> None:
    bm, em = statistics.median(bot_lat), statistics.median(echo_lat)
    bp, ep = percentile(bot_lat, 99), percentile(echo_lat, 99)
    print(f"\nupdate -> first answer over {len(bot_lat)} bot / {len(echo_lat)} echo updates ({label}):")
    print(f"  bot:  median {bm * 1000:.1f} ms, p99 {bp * 1000:.1f} ms")
    print(f"  echo: median {em * 1000:.1f} ms, p99 {ep * 1000:.1f} ms")
    print(f"  ratio: median {bm / em:.2f}x, p99 {bp / ep:.2f}x", flush=True)
    for kind in sorted(BY_KIND["bot"]):
        b, e = BY_KIND["bot"][kind], BY_KIND["echo"].get(kind) or [float("nan")]
        bk, ek = statistics.median(b), statistics.median(e)
        print(
            f"  {kind:6} ({len(b)}): bot median {bk * 1000:.1f} ms,"
            f" echo median {ek * 1000:.1f} ms, ratio {bk / ek:.2f}x"
        )
    BY_KIND["bot"].clear()
    BY_KIND["echo"].clear()


async def main(args: argparse.Namespace) -> None:
    print(f"measured {stamp()}, load average {load_average()}", flush=True)
    results = []
    for db in args.db.split(","):
        with contextlib.ExitStack() as stack:
            if db == "sqlite":
                url, label = str(Path(tempfile.mkdtemp(prefix="bench-echo-db-")) / "bench.sqlite"), "SQLite"
            elif db == "postgres":
                url, _pid = stack.enter_context(throwaway_postgres())
                label = "PostgreSQL"
            else:
                url, label = db, "PostgreSQL" if db.startswith("postgres") else db
                if db.startswith("postgres"):
                    reset_postgres(db)
            bot_lat, echo_lat = await measure(args, url)
        report(label, bot_lat, echo_lat)
        results.append((label, bot_lat, echo_lat))
    if len(results) > 1:
        print("\nsummary:")
        for label, bot_lat, echo_lat in results:
            ratio = statistics.median(bot_lat) / statistics.median(echo_lat)
            print(f"  {label}: median ratio {ratio:.2f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--updates", type=int, default=300)
    parser.add_argument("--chunk", type=int, default=50)
    parser.add_argument(
        "--db", default="sqlite", help="comma-separated: sqlite, postgres (a throwaway cluster) or a URL"
    )
    parser.add_argument("--profile", default=None, help="cProfile the bot on every thread into FILE.*")
    asyncio.run(main(parser.parse_args()))
