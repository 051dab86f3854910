"""Figures at scale (issue #12): per-update cost and one deadline tick with many running matches,
peak RSS of the real bot process, and a restart with a backlog.

    .venv/bin/python scripts/bench_scale.py                 # all parts, the issue's sizes, SQLite
    .venv/bin/python scripts/bench_scale.py --db postgres   # the same on a throwaway PostgreSQL
    .venv/bin/python scripts/bench_scale.py --parts update,tick --many 2000 --few 10

Running matches are made by the engines (all four games, 2–4 seated people, the state a new game
has) and written in bulk through the repository's tables, with the deadlines a waiting match has
(a reminder and an idle move in the future, none due).

* ``update``: one live two-person Majavajengi match played by button presses next to ``--few``
  and next to ``--many`` other running matches (two databases, alternating every 10 presses so
  that the machine's noise hits both). Per press: the core's answer, the deadline loop's pass
  that follows it, and the deliverer's bookkeeping of its rows (claim, read, mark done, release),
  through the same methods the runtime calls. Prints the medians (wall and CPU) and the ratio.
* ``tick``: one pass of the deadline loop (``next_due`` + ``run_due``) when nothing is due, with
  ``--many`` running matches.
* ``rss``: ``python -m chatbot telegram`` as shipped on a database with ``--many`` running matches,
  against the fake Bot API; people play a match and look at 50 of the other tables (``/tila``),
  then the process's peak RSS (VmHWM in /proc) is read.
* ``first``: the first start over ``--many`` running matches without deadlines (stored before
  there were deadlines): ``--commands`` people write "/start" in new groups right after the start,
  while the bot rebuilds the deadlines; their time to the first answer, when the rebuild was done,
  and the process's peak RSS.
* ``drain``: a restart on ``--backlog`` undelivered rows with Telegram's limits while a person writes
  in a new group every half second for ``--drain-seconds``: the backlog's rows per second and the
  fresh answers' time to their first answer.
* ``restart``: ``--restart-matches`` running matches whose tables and prompts were committed but
  not delivered (a crash): the bot starts on that backlog and new commands in other groups are
  answered while it drains; their time to the first answer vs the same commands on an empty
  database. Prints the backlog's delivery (requests in flight at most, rows per second, fresh
  first), then starts once more on a fresh backlog and sends SIGTERM after 1 s: the time until
  the process exited and that no row was lost (delivered + still pending = all).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import (
    ANSWERS,
    Child,
    bot_argv,
    bot_env,
    first_answer,
    load_average,
    peak_rss_mb,
    percentile,
    stamp,
    throwaway_postgres,
)

from chatbot.compose import new_core
from chatbot.core.types import Inbound, Outbound
from chatbot.storage import (
    SqlRepository,
    tables,
)
from engines import GAMES
from tests.telegram.fake_api import FakeTelegram

PLATFORM = "telegram"
#: the seeded groups are -10_000_000 - i, their people 1_000_000 + j (a pool shared by the matches)
GROUP_BASE, USER_BASE, USER_POOL = -10_000_000, 1_000_000, 2_000
GAME_IDS = sorted(GAMES)


# ---------------------------------------------------------------------------------------------
# seeding


def seed_running(repo: SqlRepository, n: int, seed: str = "scale", deadlines: bool = True) -> list[int]:
    """``n`` running matches in groups of their own, written in bulk; returns their ids. Without
    ``deadlines`` they have none (a database from before deadlines were stored)."""
    from sqlalchemy import insert, select

    rng = random.Random(seed)
    now = time.time()
    states: dict[tuple[str, int], dict[str, Any]] = {}
    plan = []
    for i in range(n):
        game = GAME_IDS[i % len(GAME_IDS)]
        engine = GAMES[game]
        players = rng.randint(max(2, engine.min_players), min(4, engine.max_players))
        key = (game, players)
        if key not in states:  # one dealt state per game and size (dealing 10,000 games takes long)
            state = engine.new_game(players, f"{seed}:{game}:{players}", engine.options_from_dict({}))
            states[key] = engine.dump(state)
        plan.append((game, players))
    with repo.engine.begin() as conn:
        existing = {
            int(x)
            for x in conn.execute(
                select(tables.User.ext_id).where(tables.User.platform == PLATFORM)  # type: ignore[arg-type]
            ).scalars()
            if x.isdigit()
        }
        fresh_users = [
            {"platform": PLATFORM, "ext_id": str(USER_BASE + j), "name": f"P{j}", "lang": "fi"}
            for j in range(USER_POOL)
            if USER_BASE + j not in existing
        ]
        if fresh_users:
            conn.execute(insert(tables.User), fresh_users)
        user_ids = dict(
            conn.execute(
                select(tables.User.ext_id, tables.User.id).where(  # type: ignore[call-overload]
                    tables.User.platform == PLATFORM
                )
            ).all()
        )
        first_room = conn.execute(select(tables.Room.id).order_by(tables.Room.id.desc()).limit(1)).scalar()  # type: ignore[union-attr]
        offset = int(first_room or 0)
        conn.execute(
            insert(tables.Room),
            [{"platform": PLATFORM, "ext_id": str(GROUP_BASE - offset - i), "lang": "fi"} for i in range(n)],
        )
        rooms = [
            r
            for (r,) in conn.execute(
                select(tables.Room.id).where(tables.Room.id > offset).order_by(tables.Room.id)  # type: ignore[arg-type]
            ).all()
        ]
        conn.execute(
            insert(tables.Match),
            [
                {
                    "room_id": room,
                    "game": game,
                    "options": {},
                    "seed": seed,
                    "version": 1,
                    "status": "running",
                    "meta": {},
                }
                for room, (game, _players) in zip(rooms, plan, strict=True)
            ],
        )
        match_ids = [
            m
            for (m,) in conn.execute(
                select(tables.Match.id).where(tables.Match.room_id > offset).order_by(tables.Match.id)  # type: ignore[arg-type]
            ).all()
        ]
        seats, snaps, waits = [], [], []
        for mid, (game, players) in zip(match_ids, plan, strict=True):
            people = rng.sample(range(USER_POOL), players)
            for s, j in enumerate(people):
                seats.append(
                    {"match_id": mid, "seat": s, "name": f"P{j}", "user_id": user_ids[str(USER_BASE + j)]}
                )
            snaps.append({"match_id": mid, "version": 1, "state": states[(game, players)]})
            for kind, due in (("remind", 3600.0), ("idle", 7200.0)):
                waits.append({"match_id": mid, "kind": kind, "due": now + due, "version": 1, "seats": [0]})
        conn.execute(insert(tables.Seat), seats)
        conn.execute(insert(tables.Snapshot), snaps)
        if deadlines:
            conn.execute(insert(tables.Deadline), waits)
    return match_ids


def new_url(db: str, stack: contextlib.ExitStack, name: str) -> str:
    """A fresh database: an SQLite file, or an emptied schema on the (throwaway) PostgreSQL."""
    if db == "sqlite":
        return f"sqlite:///{Path(tempfile.mkdtemp(prefix='bench-scale-')) / (name + '.sqlite')}"
    url = db if "://" in db else stack.enter_context(throwaway_postgres())[0]
    # a database of its own per part (two parts live side by side): CREATE DATABASE on the server
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "bench_{name}"'))
        conn.execute(text(f'CREATE DATABASE "bench_{name}"'))
    admin.dispose()
    return make_url(url).set(database=f"bench_{name}").render_as_string(hide_password=False)


# ---------------------------------------------------------------------------------------------
# per update, in process


class Table:
    """One live two-person match next to ``others`` running matches, driven through the core."""

    def __init__(self, url: str, others: int) -> None:
        self.repo = SqlRepository(url)
        if others:
            seed_running(self.repo, others)
        self.core = new_core(self.repo, seed="live")
        self.core.next_due()  # the one-time check for matches without deadlines
        self.core.run_due("bench")
        self.prompts: dict[str, Outbound] = {}
        self.update = 0
        self.rng = random.Random(5)
        self.group = "-42"

    def send(self, user: str, private: bool, text: str | None = None, button: str | None = None) -> list[Any]:
        self.update += 1
        msg = Inbound(
            PLATFORM,
            user,
            user,
            user if private else self.group,
            private,
            text=text,
            button=button,
            update_key=f"u{self.update}",
        )
        out = list(self.core.handle(msg))
        for _ in range(100):  # the deadline loop's pass after the update
            due = self.core.next_due()
            if due is None or due > self.core.clock():
                break
            out.extend(self.core.run_due("bench"))
        self.deliver()
        for o in out:
            if o.user_id is not None and o.buttons:
                self.prompts[o.user_id] = o
        return out

    def deliver(self) -> None:
        repo = self.repo
        now = time.time()
        for chat in repo.outbox_claim(PLATFORM, "bench", now, 30.0, 64):
            for row in repo.outbox_pending(chat, now, 100):
                if row.out.key is not None:
                    repo.message_ref(chat, row.out.key)
                repo.outbox_done(row.id, f'{{"id": {row.id}}}')
            repo.outbox_release(chat, "bench")

    def new_match(self) -> None:
        self.send("7001", False, text="uusi majavajengi")
        self.send("7002", False, text="liity")
        self.send("7001", False, text="aloita")

    def press(self) -> tuple[float, float]:
        """One button press of the person to act (a new match when the last one ended)."""
        for _ in range(3):
            match = self.repo.active_match(self.repo.room(PLATFORM, self.group).id)
            if match is not None and match.state is not None:
                engine = self.core.games[match.game]
                acting = engine.to_act(engine.load(match.state))
                user = self.repo.user_by_id(match.seats[acting[0]].user_id).ext_id  # type: ignore[arg-type]
                prompt = self.prompts.get(user)
                if prompt is not None and prompt.buttons:
                    choice = self.rng.choice([b for row in prompt.buttons for b in row])
                    wall, cpu = time.perf_counter(), time.thread_time()
                    self.send(user, True, button=choice.data)
                    return time.perf_counter() - wall, time.thread_time() - cpu
            self.new_match()
        raise RuntimeError("no press possible")

    def tick_ms(self, times: int = 50) -> tuple[float, float]:
        took = []
        for _ in range(times):
            start = time.perf_counter()
            self.core.next_due()
            self.core.run_due("bench")
            took.append(time.perf_counter() - start)
        return statistics.median(took) * 1000, percentile(took, 99) * 1000


def part_update(args: argparse.Namespace, stack: contextlib.ExitStack) -> None:
    started = time.monotonic()
    few = Table(new_url(args.db, stack, "few"), args.few)
    many = Table(new_url(args.db, stack, "many"), args.many)
    print(f"  seeded {args.few} and {args.many} running matches in {time.monotonic() - started:.1f} s")
    for t in (few, many):
        for _ in range(10):  # warm-up: caches, the first match
            t.press()
    figures: dict[str, list[tuple[float, float]]] = {"few": [], "many": []}
    while len(figures["many"]) < args.updates:
        for name, t in (("few", few), ("many", many)):
            for _ in range(10):
                figures[name].append(t.press())
    for name, n in (("few", args.few), ("many", args.many)):
        wall = statistics.median(w for w, _ in figures[name]) * 1000
        cpu = statistics.median(c for _, c in figures[name]) * 1000
        print(f"  per update with {n:>6} running matches: median {wall:.2f} ms wall, {cpu:.2f} ms CPU")
    ratio_wall = statistics.median(w for w, _ in figures["many"]) / statistics.median(
        w for w, _ in figures["few"]
    )
    ratio_cpu = statistics.median(c for _, c in figures["many"]) / statistics.median(
        c for _, c in figures["few"]
    )
    print(f"  ratio {args.many} / {args.few}: {ratio_wall:.2f}x wall, {ratio_cpu:.2f}x CPU (target <= 1.1)")
    if "tick" in args.parts:
        median, p99 = many.tick_ms()
        print(
            f"  one deadline tick, {args.many} running matches, none due: median {median:.3f} ms,"
            f" p99 {p99:.3f} ms (target <= 10 ms)"
        )
    for t in (few, many):
        t.repo.engine.dispose()


def part_tick(args: argparse.Namespace, stack: contextlib.ExitStack) -> None:
    t = Table(new_url(args.db, stack, "tick"), args.many)
    median, p99 = t.tick_ms()
    print(
        f"  one deadline tick, {args.many} running matches, none due: median {median:.3f} ms,"
        f" p99 {p99:.3f} ms (target <= 10 ms)"
    )
    t.repo.engine.dispose()


# ---------------------------------------------------------------------------------------------
# the real process


def fake_server_for(repo: SqlRepository) -> FakeTelegram:
    server = FakeTelegram()
    for j in range(USER_POOL):
        server.add_user(USER_BASE + j, f"P{j}", "fi", opened=True)
    for (ext,) in repo.engine.connect().execute(
        tables.Room.__table__.select().with_only_columns(tables.Room.__table__.c.ext_id)  # type: ignore[attr-defined]
    ):
        server.add_group(int(ext))
    return server


async def play_live(server: FakeTelegram, group: int, people: dict[int, str], presses: int) -> list[float]:
    """A new Majavajengi match in ``group``; the people press their prompts' buttons. Returns the
    time to the first answer of each update."""
    rng = random.Random(3)
    lat = []
    uids = list(people)
    for text, uid in (
        ("/uusi majavajengi", uids[0]),
        *(("/liity", u) for u in uids[1:]),
        ("/aloita", uids[0]),
    ):
        since = len(server.calls)
        await server.send(uid, group, text)
        lat.append(await first_answer(server, since) - server.injected_at[max(server.sent_updates)])
        await server.quiet(0.05, 30)
    # a panel is edited in place within a turn (issue #27): a press is known by the buttons it chose from
    pressed: set[tuple[int, int, tuple[str, ...]]] = set()
    while len(lat) < presses:
        step = None
        for uid in uids:
            for m in reversed(server.bot_messages(uid)):
                if m.callback_data() and (uid, m.message_id, tuple(m.callback_data())) not in pressed:
                    step = (uid, m)
                break
            if step:
                break
        if step is None:
            if any("🏆" in t for t in server.texts(group)[-3:]):
                break
            await asyncio.sleep(0.05)
            continue
        uid, m = step
        pressed.add((uid, m.message_id, tuple(m.callback_data())))
        since = len(server.calls)
        await server.press(uid, uid, m.message_id, rng.choice(m.callback_data()))
        lat.append(await first_answer(server, since) - server.injected_at[max(server.sent_updates)])
        await server.quiet(0.05, 30)
    return lat


async def part_rss(args: argparse.Namespace, stack: contextlib.ExitStack) -> None:
    url = new_url(args.db, stack, "rss")
    repo = SqlRepository(url)
    started = time.monotonic()
    seed_running(repo, args.many)
    print(f"  seeded {args.many} running matches in {time.monotonic() - started:.1f} s")
    server = fake_server_for(repo)
    repo.engine.dispose()
    await server.start()
    live = -500
    server.add_group(live)
    people = {61: "Aino", 62: "Eino"}
    for uid, name in people.items():
        server.add_user(uid, name, "fi", opened=True)
    bot = Child(server, bot_argv(url), bot_env(server))
    try:
        await bot.start()
        lat = await play_live(server, live, people, 40)
        groups = list(server.groups)[:50]
        for g in groups:  # people look at other tables: those matches are loaded and rendered
            if g == live:
                continue
            since = len(server.calls)
            await server.send(USER_BASE, g, "/tila")
            with contextlib.suppress(AssertionError):
                await first_answer(server, since, 10)
        await asyncio.sleep(6)  # a few passes of the deadline loop
        rss = peak_rss_mb(bot.pid)
        print(
            f"  peak RSS (VmHWM) of python -m chatbot telegram with {args.many} running matches:"
            f" {rss:.1f} MB (target <= 150 MB); {len(lat)} live updates, first answer median"
            f" {statistics.median(lat) * 1000:.1f} ms"
        )
    finally:
        await bot.stop()
        await server.stop()


async def part_first_start(args: argparse.Namespace, stack: contextlib.ExitStack) -> None:
    """The first start over ``--many`` running matches that have no deadlines (stored before there
    were deadlines): the bot rebuilds them while new commands come in other groups."""
    empty = new_url(args.db, stack, "first-empty")
    SqlRepository(empty).engine.dispose()
    base, _server, _s, _a = await restart_run(empty, "off", args.commands, "/start")
    url = new_url(args.db, stack, "first")
    repo = SqlRepository(url)
    started = time.monotonic()
    seed_running(repo, args.many, deadlines=False)
    print(f"  seeded {args.many} running matches without deadlines in {time.monotonic() - started:.1f} s")
    server = fake_server_for(repo)
    await server.start()
    bot = Child(server, bot_argv(url), bot_env(server))
    try:
        await bot.start(settle=0.0)
        began = time.monotonic()
        lat = await new_commands(server, args.commands, "/start")
        answered = time.monotonic() - began
        missing = _without_deadlines(repo)
        while missing and time.monotonic() - began < 300:
            await asyncio.sleep(0.25)
            missing = _without_deadlines(repo)
        rebuilt = time.monotonic() - began
        rss = peak_rss_mb(bot.pid)
        print(
            f"  {args.commands} /start in new groups right after the start: first answer median"
            f" {statistics.median(lat) * 1000:.1f} ms, p99 {percentile(lat, 99) * 1000:.1f} ms (all"
            f" answered {answered:.1f} s after the start); on an empty database median"
            f" {statistics.median(base) * 1000:.1f} ms, p99 {percentile(base, 99) * 1000:.1f} ms"
        )
        print(
            f"  deadlines of {args.many} matches rebuilt {rebuilt:.1f} s after the start"
            f" ({missing} left); peak RSS (VmHWM) {rss:.1f} MB (target <= 150 MB)"
        )
    finally:
        await bot.stop()
        await server.stop()
        repo.engine.dispose()


def _without_deadlines(repo: SqlRepository) -> int:
    from sqlalchemy import text

    with repo.engine.connect() as conn:
        return int(
            conn.execute(
                text(
                    "SELECT count(*) FROM \"match\" m WHERE m.status = 'running'"
                    " AND NOT EXISTS (SELECT 1 FROM deadline d WHERE d.match_id = m.id)"
                )
            ).scalar()
            or 0
        )


def seed_backlog(url: str, n: int) -> int:
    """``n`` running matches whose tables and prompts are committed and not delivered; returns
    the number of pending rows."""
    repo = SqlRepository(url)
    ids = seed_running(repo, n)
    core = new_core(repo, seed="backlog")
    rows = 0
    for mid in ids:
        with repo.unit():
            match = repo.match(mid)
            assert match is not None
            room = repo.room_by_id(match.room_id)
            deadlines = core.schedule.plan(match)
            outs = core.renderer.render_match(match, room, events=(), deadlines=deadlines)
            repo.outbox_add(outs)
            rows += len(outs)
    repo.engine.dispose()
    return rows


def seed_backlog_rows(url: str, wanted: int) -> int:
    """About ``wanted`` committed, undelivered rows: the tables and prompts of running matches,
    rendered once per game and table size and copied to the other matches' groups and players (a
    backlog of thousands is seeded in seconds). Returns the number of rows."""
    from dataclasses import replace

    from sqlalchemy import text

    repo = SqlRepository(url)
    seed_running(repo, max(1, wanted // 2))
    core = new_core(repo, seed="backlog")
    with repo.engine.connect() as conn:
        rooms = dict(conn.execute(text("SELECT id, ext_id FROM room")).all())
        users = dict(conn.execute(text('SELECT id, ext_id FROM "user"')).all())
    made: dict[tuple[str, int], tuple[list[str], list[Outbound]]] = {}
    rows: list[Outbound] = []
    for match in repo.running_matches():
        people = [users[s.user_id] for s in match.seats if s.user_id is not None]
        key = (match.game, len(people))
        if key not in made:
            with repo.unit():
                room = repo.room_by_id(match.room_id)
                outs = core.renderer.render_match(match, room, events=(), deadlines=core.schedule.plan(match))
                made[key] = (people, list(outs))
        template_people, outs = made[key]
        to = dict(zip(template_people, people, strict=True))
        for out in outs:
            if out.user_id is not None:
                rows.append(replace(out, user_id=to[out.user_id]))
            else:
                rows.append(replace(out, chat_id=rooms[match.room_id]))
        if len(rows) >= wanted:
            break
    for start in range(0, len(rows), 500):
        repo.outbox_add(rows[start : start + 500])
    repo.engine.dispose()
    return len(rows)


async def part_drain(args: argparse.Namespace, stack: contextlib.ExitStack) -> None:
    """A restart on ``--backlog`` undelivered rows with Telegram's limits: for ``--drain-seconds``
    a person writes "/apua" in a new group every half second. The backlog's rows per second (it
    may use the bot-wide window less the reserve kept for fresh answers and less what they use)
    and the fresh answers' time to their first answer."""
    url = new_url(args.db, stack, "drain")
    started = time.monotonic()
    rows = seed_backlog_rows(url, args.backlog)
    print(f"  seeded {rows} undelivered rows in {time.monotonic() - started:.1f} s")
    server, bot = await start_on(url, "default")
    try:
        began = time.monotonic()
        lat = []
        i = 0
        while time.monotonic() - began < args.drain_seconds:
            group = -700 - i
            server.add_group(group)
            server.add_user(600 + i, f"F{i}", "fi", opened=True)
            since = len(server.calls)
            await server.send(600 + i, group, "/apua")
            answered = await first_answer(server, since, 60, chat=group)
            lat.append(answered - server.injected_at[max(server.sent_updates)])
            i += 1
            await asyncio.sleep(max(0.0, 0.5 - (time.monotonic() - answered)))
        ended = time.monotonic()
        fresh = {str(-700 - j) for j in range(i)}
        backlog = [
            c
            for c in server.calls
            if c[1] in ANSWERS and "_error" not in c[2] and began <= c[0] <= ended
            and str(c[2].get("chat_id")) not in fresh
        ]  # fmt: skip
        span = ended - began
        print(
            f"  backlog: {len(backlog)} rows sent in {span:.1f} s ({len(backlog) / span:.1f}/s; Telegram's"
            f" bot-wide limit 30/s, of which the backlog may use 24/s less the fresh answers' calls),"
            f" at most {server.max_in_flight} requests in flight"
        )
        print(
            f"  {len(lat)} fresh /apua meanwhile, first answer: median {statistics.median(lat) * 1000:.1f} ms,"
            f" p99 {percentile(lat, 99) * 1000:.1f} ms"
        )
    finally:
        await bot.stop()
        await server.stop()


def outbox_states(url: str) -> dict[str, int]:
    from sqlalchemy import func, select

    repo = SqlRepository(url)
    with repo.engine.connect() as conn:
        out = dict(
            conn.execute(
                select(tables.Outbox.state, func.count()).group_by(tables.Outbox.state)  # type: ignore[call-overload]
            ).all()
        )
    repo.engine.dispose()
    return {str(k): int(v) for k, v in out.items()}


class CountingFake(FakeTelegram):
    """The fake Bot API, counting the requests in flight at once."""

    def __init__(self) -> None:
        super().__init__()
        self.in_flight = 0
        self.max_in_flight = 0

    async def _handle(self, request: Any) -> Any:
        if request.match_info.get("method", "").lower() == "getupdates":
            return await super()._handle(request)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            return await super()._handle(request)
        finally:
            self.in_flight -= 1


async def new_commands(server: FakeTelegram, k: int, text: str = "/apua") -> list[float]:
    """``k`` people write ``text`` in groups without a game, one after another."""
    lat = []
    for i in range(k):
        group = -900 - i
        server.add_group(group)
        server.add_user(800 + i, f"N{i}", "fi", opened=True)
        since = len(server.calls)
        await server.send(800 + i, group, text)
        answered = await first_answer(server, since, 60, chat=group)
        lat.append(answered - server.injected_at[max(server.sent_updates)])
        await asyncio.sleep(0.05)
    return lat


async def start_on(url: str, limits: str) -> tuple[CountingFake, Child]:
    """The fake Bot API knowing the database's people and groups, and the bot as shipped started
    on that database (its backlog, if any, goes out from now on)."""
    repo = SqlRepository(url)
    server = CountingFake()
    for j in range(USER_POOL):
        server.add_user(USER_BASE + j, f"P{j}", "fi", opened=True)
    for (ext,) in repo.engine.connect().execute(
        tables.Room.__table__.select().with_only_columns(tables.Room.__table__.c.ext_id)  # type: ignore[attr-defined]
    ):
        server.add_group(int(ext))
    repo.engine.dispose()
    await server.start()
    bot = Child(server, bot_argv(url), bot_env(server, TELEGRAM_RATE_LIMITS=limits))
    await bot.start(settle=0.0)
    return server, bot


async def restart_run(
    url: str, limits: str, k: int, text: str = "/apua"
) -> tuple[list[float], CountingFake, float, float]:
    server, bot = await start_on(url, limits)
    try:
        started = time.monotonic()
        lat = await new_commands(server, k, text)
        answered = time.monotonic()
        return lat, server, started, answered
    finally:
        await bot.stop()
        await server.stop()


async def part_restart(args: argparse.Namespace, stack: contextlib.ExitStack) -> None:
    n, k = args.restart_matches, args.commands
    limits = args.limits
    empty = new_url(args.db, stack, "empty")
    SqlRepository(empty).engine.dispose()
    base, _server, _s, _a = await restart_run(empty, limits, k)
    backlog_url = new_url(args.db, stack, "backlog")
    started = time.monotonic()
    rows = seed_backlog(backlog_url, n)
    print(f"  seeded {n} running matches with {rows} undelivered rows in {time.monotonic() - started:.1f} s")
    lat, server, t0, t1 = await restart_run(backlog_url, limits, k)
    backlog_calls = [c for c in server.calls if c[1] in ANSWERS and "_error" not in c[2]]
    during = sum(1 for c in backlog_calls if t0 <= c[0] <= t1)
    bm, em = statistics.median(lat), statistics.median(base)
    print(
        f"  new commands (TELEGRAM_RATE_LIMITS={limits}), first answer: empty database median"
        f" {em * 1000:.1f} ms p99 {percentile(base, 99) * 1000:.1f} ms; after a restart with {n} running"
        f" matches and {rows} pending rows median {bm * 1000:.1f} ms p99 {percentile(lat, 99) * 1000:.1f} ms;"
        f" ratio median {bm / em:.2f}x, p99 {percentile(lat, 99) / percentile(base, 99):.2f}x (target <= 2x)"
    )
    span = max(t1 - t0, 1e-6)
    print(
        f"  the backlog meanwhile: {during} answering calls in {span:.1f} s ({during / span:.0f}/s),"
        f" at most {server.max_in_flight} requests in flight at once (the bot's HTTP pool holds 32)"
    )
    states = outbox_states(backlog_url)
    print(f"  outbox after the stop: {states}")
    # SIGTERM while the backlog is being delivered
    sig_url = new_url(args.db, stack, "sigterm")
    rows = seed_backlog(sig_url, n)
    server, bot = await start_on(sig_url, limits)
    await asyncio.sleep(1.0)
    took = await bot.stop(timeout=60)
    await server.stop()
    states = outbox_states(sig_url)
    kept = sum(states.values())
    print(
        f"  SIGTERM 1 s into delivering {rows} rows: exited after {took:.2f} s with status"
        f" {bot.proc.returncode if bot.proc else '?'}; outbox {states} ({kept} of {rows} rows accounted for)"
    )


async def main(args: argparse.Namespace) -> None:
    print(f"measured {stamp()}, load average {load_average()}, database {args.db}", flush=True)
    with contextlib.ExitStack() as stack:
        if args.db == "postgres":  # one throwaway cluster for every part
            url, _pid = stack.enter_context(throwaway_postgres())
            args.db = url
        if "update" in args.parts:
            print("per update:", flush=True)
            part_update(args, stack)
        elif "tick" in args.parts:
            print("deadline tick:", flush=True)
            part_tick(args, stack)
        if "rss" in args.parts:
            print("peak RSS:", flush=True)
            await part_rss(args, stack)
        if "first" in args.parts:
            print("first start:", flush=True)
            await part_first_start(args, stack)
        if "drain" in args.parts:
            print("backlog drain:", flush=True)
            await part_drain(args, stack)
        if "restart" in args.parts:
            print("restart:", flush=True)
            await part_restart(args, stack)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", default="sqlite", help="sqlite, postgres (a throwaway cluster) or a URL")
    parser.add_argument("--parts", default="update,tick,rss,first,restart")
    parser.add_argument("--many", type=int, default=10_000, help="running matches for update, tick, rss")
    parser.add_argument("--few", type=int, default=10)
    parser.add_argument("--updates", type=int, default=200, help="measured presses per database")
    parser.add_argument("--restart-matches", type=int, default=1_000)
    parser.add_argument("--commands", type=int, default=20, help="new commands sent during the restart")
    parser.add_argument("--limits", default="default", help="TELEGRAM_RATE_LIMITS of the restarted bot")
    parser.add_argument("--backlog", type=int, default=2000, help="undelivered rows for the drain part")
    parser.add_argument("--drain-seconds", type=float, default=20.0)
    asyncio.run(main(parser.parse_args()))
