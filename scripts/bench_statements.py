"""Figures: SQL statements and commits per update (a button press, a typed move), counted by
SQLAlchemy's engine events on a real database, with the real runtime delivering (run by hand;
prints a table).

    .venv/bin/python scripts/bench_statements.py                      # SQLite file in a temp dir
    .venv/bin/python scripts/bench_statements.py --db postgres        # a throwaway PostgreSQL
    .venv/bin/python scripts/bench_statements.py --url postgresql+psycopg2://postgres@127.0.0.1:5432/x

Two people play Majavajengi (so that every update is one person's move and nothing else), then one
person and one AI seat (the press plus the AI moves it makes due). Each update goes through
``Runtime.handle`` (inline, on the event loop's thread) to a recording transport that notes new
messages the way Telegram does (``send_note``), and the runtime delivers everything before the next
update. Counted per update:

* ``core``: the update's own transaction (``BotCore.handle``: the change, its outbox rows, the
  deadlines, the update id, and the runtime's read of the first answer's queue inside it);
* ``+ai``: the deadline loop's passes that follow (``next_due``/``run_due``: the AI moves the update
  made due);
* ``deliver``: everything else the runtime does for the update's rows: claims, reads, send notes,
  done marks, message references, releases (the senders linger on their chats between updates,
  as they do in a running bot).

The statement count includes every SELECT, INSERT, UPDATE and DELETE (an executemany counts once).
Means per update, and the 99th percentile of the ``core`` and ``deliver`` statements.

``--running N`` first adds N other running matches (each waiting for a person, with its reminder and
idle-move deadlines in the future), and also prints the time per update and of one tick of the
deadline loop (``next_due`` + ``run_due`` when nothing is due), to compare N=10 with N=10000.
``ms/upd`` is the median time of ``Runtime.handle`` (inline: the core's work and the first sends).

The script uses only what the runtime had before issue #26 too (``Runtime(...)``, ``handle``,
``run_due``, ``idle``, and ``_pending_work``/``_tasks`` to leave out idle()'s probes and the
deadline loop), so the same file measures an older checkout (copy it into that checkout's
``scripts/`` and run it there).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sqlalchemy import event

from chatbot.compose import new_core
from chatbot.core import ports
from chatbot.core.types import Inbound, Outbound
from chatbot.runtime import Runtime, Settings
from chatbot.storage import SqlRepository

PLATFORM = "bench"
GROUP = "g1"
PHASES = ("core", "+ai", "deliver")


class Counter:
    """Statements and commits per phase; the phase is set while the core runs."""

    def __init__(self, engine: Any) -> None:
        self.counts = {phase: [0, 0] for phase in PHASES}
        self.phase = "deliver"
        self.paused = False
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)

    def _statement(self, *args: Any) -> None:
        if not self.paused:
            self.counts[self.phase][0] += 1
            if os.environ.get("BENCH_SQL") == self.phase:
                print("   ", self.phase, " ".join(str(args[2]).split())[:160], file=sys.stderr)

    def _commit(self, *args: Any) -> None:
        if not self.paused:
            self.counts[self.phase][1] += 1

    def snapshot(self) -> dict[str, tuple[int, int]]:
        return {phase: (s, c) for phase, (s, c) in self.counts.items()}

    def during(self, phase: str | None, fn: Any) -> Any:
        """``fn`` with its statements counted under ``phase`` (None: not counted)."""

        @functools.wraps(fn)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            before, paused = self.phase, self.paused
            if phase is None:
                self.paused = True
            else:
                self.phase = phase
            try:
                return fn(*args, **kwargs)
            finally:
                self.phase, self.paused = before, paused

        return wrapped


class NotingTransport(getattr(ports, "Transport", object)):  # type: ignore[misc]
    """Accepts everything at once; notes a new message before it is sent, as Telegram does."""

    platform = PLATFORM
    limiter = None
    limits_calls = False
    group_text_visible = True

    def __init__(self) -> None:
        self.sent = 0

    @property
    def link_template(self) -> str | None:
        return None

    async def deliver(self, out: Outbound, ref: str | None, txn: str) -> str | None:
        self.sent += 1
        return ref or f'{{"id": {self.sent}}}'

    def send_note(self, out: Outbound, ref: str | None) -> dict[str, Any] | None:
        if out.key is not None and ref is not None:
            return None  # an edit: idempotent as it is
        return {"after": self.sent}

    async def find_sent(self, out: Outbound, ref: str | None, note: Any, txn: str) -> tuple[bool, str | None]:
        return False, None


class Bench:
    def __init__(self, url: str, seed: str, running: int = 0) -> None:
        self.repo = SqlRepository(url)
        if running:
            add_running_matches(self.repo, seed, running)
        self.core = new_core(self.repo, seed=seed)
        self.core.next_due()  # the one-time check for matches without deadlines, before counting
        self.counter = Counter(self.repo.engine)
        core = self.core
        core.handle = self.counter.during("core", core.handle)
        core.run_due = self.counter.during("+ai", core.run_due)
        core.next_due = self.counter.during("+ai", core.next_due)
        self.transport = NotingTransport()
        settings = Settings(inline=True, worker="bench", freeze_gc=False, switch_interval=None)
        self.runtime = Runtime(core, self.transport, store=self.repo, settings=settings)
        # idle()'s own probes are not the update's
        self.runtime._pending_work = self.counter.during(None, self.runtime._pending_work)  # type: ignore[method-assign]
        self.prompts: dict[str, Outbound] = {}
        self.update = 0
        #: seconds of the last update's ``Runtime.handle`` (its answer committed, its first sends started)
        self.took = 0.0

    async def start(self) -> None:
        await self.runtime.start()
        for task in self.runtime._tasks:
            if task.get_name().endswith("-deadlines"):  # the bench runs the deadlines itself
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def send(
        self, user: str, private: bool, text: str | None = None, button: str | None = None
    ) -> tuple[list[Outbound], dict[str, tuple[int, int]]]:
        """One update, delivered; the statements and commits of each phase."""
        self.update += 1
        msg = Inbound(
            PLATFORM,
            user,
            user.capitalize(),
            user if private else GROUP,
            private,
            text=text,
            button=button,
            update_key=str(self.update),
        )
        start = self.counter.snapshot()
        began = time.perf_counter()
        out = list(await self.runtime.handle(msg))
        self.took = time.perf_counter() - began
        for _ in range(10_000):
            due = self.core.next_due()
            if due is None or due > self.core.clock():
                break
            out.extend(await self.runtime.run_due())
        if not await self.runtime.idle(30.0):
            raise RuntimeError("the outbox did not empty")
        end = self.counter.snapshot()
        for o in out:
            if o.user_id is not None and o.buttons:
                self.prompts[o.user_id] = o
        return out, {p: (end[p][0] - start[p][0], end[p][1] - start[p][1]) for p in PHASES}

    def acting_users(self) -> list[str]:
        match = self.repo.active_match(self.repo.room(PLATFORM, GROUP).id)
        if match is None or match.state is None:
            return []
        engine = self.core.games[match.game]
        state = engine.load(match.state)
        return [
            self.repo.user_by_id(match.seats[s].user_id).ext_id
            for s in engine.to_act(state)
            if match.seats[s].user_id is not None
        ]


def add_running_matches(repo: SqlRepository, seed: str, n: int) -> None:
    """N running two-person Majavajengi matches in other groups, written in bulk."""
    from sqlalchemy import insert, text

    from chatbot.storage import tables
    from engines import GAMES

    engine = GAMES["majavajengi"]
    state = engine.dump(engine.new_game(2, seed, engine.options_from_dict({})))
    now = time.time()
    with repo.engine.begin() as conn:
        users = [
            conn.execute(
                insert(tables.User)
                .values(platform=PLATFORM, ext_id=f"bulk{i}", name="AB"[i])
                .returning(tables.User.id)  # type: ignore[arg-type]
            ).scalar_one()
            for i in (0, 1)
        ]
        conn.execute(insert(tables.Room), [{"platform": PLATFORM, "ext_id": f"bulk-{i}"} for i in range(n)])
        room_ids = [
            r[0]
            for r in conn.execute(text("SELECT id FROM room WHERE ext_id LIKE :p"), {"p": "bulk-%"}).all()
        ]
        conn.execute(
            insert(tables.Match),
            [
                {
                    "room_id": rid,
                    "game": "majavajengi",
                    "options": {},
                    "seed": seed,
                    "version": 1,
                    "status": "running",
                    "meta": {},
                }
                for rid in room_ids
            ],
        )
        match_ids = [
            r[0]
            for r in conn.execute(
                text('SELECT id FROM "match" WHERE room_id IN (SELECT id FROM room WHERE ext_id LIKE :p)'),
                {"p": "bulk-%"},
            ).all()
        ]
        conn.execute(
            insert(tables.Seat),
            [
                {"match_id": mid, "seat": s, "name": "AB"[s], "user_id": users[s]}
                for mid in match_ids
                for s in (0, 1)
            ],
        )
        conn.execute(
            insert(tables.Snapshot), [{"match_id": mid, "version": 1, "state": state} for mid in match_ids]
        )
        conn.execute(
            insert(tables.Deadline),
            [
                {"match_id": mid, "kind": kind, "due": now + due, "version": 1, "seats": [0]}
                for mid in match_ids
                for kind, due in (("remind", 3600.0), ("idle", 7200.0))
            ],
        )


def tick_ms(bench: Bench, times: int = 50) -> float:
    """One pass of the deadline loop when nothing is due: next_due, then run_due (median, ms)."""
    took = []
    for _ in range(times):
        start = time.perf_counter()
        bench.core.next_due()
        bench.core.run_due("bench")
        took.append(time.perf_counter() - start)
    return statistics.median(took) * 1000


async def play(
    url: str,
    bots: int,
    typed: bool,
    updates: int,
    seed: str,
    running: int = 0,
    timing: dict[str, float] | None = None,
) -> dict[str, list[tuple[int, int]]]:
    """Matches one after another (the set-up is not counted) until ``updates`` moves were counted."""
    took: list[float] = []
    bench = Bench(url, seed, running)
    await bench.start()
    people = ["matti"] if bots else ["matti", "liisa"]
    rng = random.Random(seed)
    figures: dict[str, list[tuple[int, int]]] = {phase: [] for phase in PHASES}
    try:
        while len(figures["core"]) < updates:
            await bench.send("matti", False, text="uusi majavajengi")
            for p in people[1:]:
                await bench.send(p, False, text="liity")
            for _ in range(bots):
                await bench.send("matti", False, text="lisää botti")
            await bench.send("matti", False, text="aloita")
            while len(figures["core"]) < updates:
                acting = bench.acting_users()
                prompt = bench.prompts.get(acting[0]) if acting else None
                if prompt is None:
                    break  # the match is over
                user = acting[0]
                buttons = [b for row in prompt.buttons for b in row]
                choice = rng.choice(buttons)
                if typed:
                    _, got = await bench.send(user, True, text=choice.label)
                    if bench.prompts.get(user) is prompt:
                        # not understood as typed: press it, so that the game goes on (not counted)
                        await bench.send(user, True, button=choice.data)
                else:
                    _, got = await bench.send(user, True, button=choice.data)
                took.append(bench.took)
                for name, value in got.items():
                    figures[name].append(value)
            await bench.send(
                "matti", False, text="peru"
            )  # a match still running (the count was reached) ends
        if timing is not None:
            timing["update_ms"] = statistics.median(took) * 1000
            timing["tick_ms"] = tick_ms(bench)
    finally:
        await bench.runtime.stop()
        bench.repo.engine.dispose()
    return figures


def p99(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))] if ordered else 0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", help="database URL (default: a new SQLite file)")
    parser.add_argument("--db", default="sqlite", help="sqlite or postgres (a throwaway cluster)")
    parser.add_argument("--updates", type=int, default=120)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--running", type=int, default=0, help="other running matches in the database")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        if args.url is None and args.db == "postgres":
            from benchlib import throwaway_postgres

            args.url = stack.enter_context(throwaway_postgres())[0]
        report(args)


def report(args: argparse.Namespace) -> None:
    rows = []
    for label, bots, typed in (
        ("button press, 2 people", 0, False),
        ("typed move, 2 people", 0, True),
        ("button press, 1 person + 1 AI", 1, False),
    ):
        with tempfile.TemporaryDirectory() as tmp:
            url = args.url or f"sqlite:///{Path(tmp) / 'bench.sqlite'}"
            if args.url and url.startswith("postgresql"):
                from sqlalchemy import create_engine, text

                engine = create_engine(url)
                with engine.begin() as conn:
                    conn.execute(text("DROP SCHEMA public CASCADE"))
                    conn.execute(text("CREATE SCHEMA public"))
                engine.dispose()
            timing: dict[str, float] = {}
            figures = asyncio.run(play(url, bots, typed, args.updates, args.seed, args.running, timing))
        rows.append((label, figures, timing))
    print(f"database: {(args.url or 'sqlite (file)').split('@')[-1]}; other running matches: {args.running}")
    print(
        f"{'per update (mean over n)':30} {'n':>4} {'core st':>8} {'co':>5} {'p99':>4} {'+ai st':>7} {'co':>5}"
        f" {'deliv st':>9} {'co':>5} {'p99':>4} {'total st':>9} {'co':>5} {'ms/upd':>7} {'tick ms':>8}"
    )
    for label, figures, timing in rows:
        n = len(figures["core"])
        mean = {
            k: (
                statistics.fmean(s for s, _ in v) if v else 0.0,
                statistics.fmean(c for _, c in v) if v else 0.0,
            )
            for k, v in figures.items()
        }
        total = tuple(sum(mean[k][i] for k in mean) for i in (0, 1))
        core_p99 = p99([s for s, _ in figures["core"]])
        deliver_p99 = p99([s for s, _ in figures["deliver"]])
        print(
            f"{label:30} {n:>4} {mean['core'][0]:>8.1f} {mean['core'][1]:>5.2f} {core_p99:>4}"
            f" {mean['+ai'][0]:>7.1f} {mean['+ai'][1]:>5.2f} {mean['deliver'][0]:>9.1f}"
            f" {mean['deliver'][1]:>5.2f} {deliver_p99:>4} {total[0]:>9.1f} {total[1]:>5.2f}"
            f" {timing.get('update_ms', 0):>7.2f} {timing.get('tick_ms', 0):>8.3f}"
        )


if __name__ == "__main__":
    main()
