"""Figures: SQL statements and commits per update (a button press, a typed move), counted by
SQLAlchemy's engine events on a real database (run by hand; prints a table).

    .venv/bin/python scripts/bench_statements.py                      # SQLite file in a temp dir
    .venv/bin/python scripts/bench_statements.py --url postgresql+psycopg2://postgres@127.0.0.1:5432/x

Two people play Majavajengi (so that every update is one person's move and nothing else), then one
person and one AI seat (the press plus the AI moves it makes due). Counted per update:

* ``core``: the core's own work for the update (``BotCore.handle``), with the outbox rows, the
  deadlines and the update id in its transaction;
* ``+ai``: that plus the AI moves the update made due (``run_due`` until nothing is due);
* ``deliver``: what the runtime's deliverer then does for the update's outbox rows (claim the chat,
  read its pending rows, look up the message to edit, mark each row done, release), through the same
  RuntimeStore methods the runtime calls.

With the code from before the runtime (no ``run_due``), the script measures what the Telegram
transport did per update instead: ``handle``, then ``ai_pending``/``run_ai`` until no AI seat is to
act, then storing the seen update ids (``kv_set``); there is no outbox then, so no ``deliver``.
The statement count includes every SELECT, INSERT, UPDATE and DELETE (an executemany counts once).

``--running N`` first adds N other running matches (each waiting for a person, with its reminder and
idle-move deadlines in the future), and also prints the time per update and of one tick of the
deadline loop (``next_due`` + ``run_due`` when nothing is due), to compare N=10 with N=10000.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import event

from chatbot.compose import new_core
from chatbot.core.types import Inbound, Outbound
from chatbot.storage import SqlRepository

PLATFORM = "bench"
GROUP = "g1"


class Counter:
    def __init__(self, engine) -> None:
        self.statements = 0
        self.commits = 0
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)

    def _statement(self, *args) -> None:
        self.statements += 1

    def _commit(self, *args) -> None:
        self.commits += 1

    def snapshot(self) -> tuple[int, int]:
        return self.statements, self.commits


class Bench:
    def __init__(self, url: str, seed: str, running: int = 0) -> None:
        self.repo = SqlRepository(url)
        if running:
            add_running_matches(self.repo, seed, running)
        self.core = new_core(self.repo, seed=seed)
        self.core.next_due()  # the one-time check for matches without deadlines, before counting
        self.counter = Counter(self.repo.engine)
        self.new_api = hasattr(self.core, "run_due")
        self.prompts: dict[str, Outbound] = {}
        self.seen: list[int] = []
        self.update = 0

    def send(
        self,
        user: str,
        private: bool,
        text: str | None = None,
        button: str | None = None,
    ) -> tuple[list[Outbound], dict[str, tuple[int, int]]]:
        """One update; the statements and commits of each phase."""
        self.update += 1
        fields = {"update_key": str(self.update)} if self.new_api else {}
        msg = Inbound(
            PLATFORM,
            user,
            user.capitalize(),
            user if private else GROUP,
            private,
            text=text,
            button=button,
            **fields,
        )
        phases = {}
        start = self.counter.snapshot()
        out = list(self.core.handle(msg))
        phases["core"] = self.counter.snapshot()
        if self.new_api:
            for _ in range(10_000):
                due = self.core.next_due()
                if due is None or due > self.core.clock():
                    break
                out.extend(self.core.run_due("bench"))
        else:  # as the Telegram transport did after every update
            for _ in range(10):
                pending = self.core.ai_pending()
                if not pending:
                    break
                for match_id in pending:
                    out.extend(self.core.run_ai(match_id))
            self.seen.append(self.update)
            self.repo.kv_set("telegram.state", "updates", self.seen[-200:])
        phases["+ai"] = self.counter.snapshot()
        if self.new_api:
            self.deliver()
        phases["deliver"] = self.counter.snapshot()
        for o in out:
            if o.user_id is not None and o.buttons:
                self.prompts[o.user_id] = o
        figures = {}
        previous = start
        for name, now in phases.items():
            figures[name] = (now[0] - previous[0], now[1] - previous[1])
            previous = now
        return out, figures

    def deliver(self) -> None:
        """The runtime's deliverer, reduced to its storage calls: every pending row goes out."""
        repo = self.repo
        for chat in repo.outbox_claim(PLATFORM, "bench", 0.0, 30.0, 100):
            for row in repo.outbox_pending(chat, now=1e12, limit=100):
                if row.out.key is not None:
                    repo.message_ref(chat, row.out.key)
                repo.outbox_done(row.id, f"m{row.id}")
            repo.outbox_release(chat, "bench")

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
    import time

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
    import time

    took = []
    for _ in range(times):
        start = time.perf_counter()
        bench.core.next_due()
        bench.core.run_due("bench")
        took.append(time.perf_counter() - start)
    return statistics.median(took) * 1000


def play(
    url: str,
    bots: int,
    typed: bool,
    updates: int,
    seed: str,
    running: int = 0,
    timing: dict[str, float] | None = None,
) -> dict[str, list[tuple[int, int]]]:
    """Matches one after another (the set-up is not counted) until ``updates`` moves were counted."""
    import time

    took: list[float] = []
    bench = Bench(url, seed, running)
    people = ["matti"] if bots else ["matti", "liisa"]
    rng = random.Random(seed)
    figures: dict[str, list[tuple[int, int]]] = {"core": [], "+ai": [], "deliver": []}
    while len(figures["core"]) < updates:
        bench.send("matti", False, text="uusi majavajengi")
        for p in people[1:]:
            bench.send(p, False, text="liity")
        for _ in range(bots):
            bench.send("matti", False, text="lisää botti")
        bench.send("matti", False, text="aloita")
        while len(figures["core"]) < updates:
            acting = bench.acting_users()
            prompt = bench.prompts.get(acting[0]) if acting else None
            if prompt is None:
                break  # the match is over
            user = acting[0]
            buttons = [b for row in prompt.buttons for b in row]
            choice = rng.choice(buttons)
            start = time.perf_counter()
            if typed:
                _, got = bench.send(user, True, text=choice.label)
                if bench.prompts.get(user) is prompt:
                    # not understood as typed: press it, so that the game goes on (not counted)
                    bench.send(user, True, button=choice.data)
            else:
                _, got = bench.send(user, True, button=choice.data)
            took.append(time.perf_counter() - start)
            for name, value in got.items():
                figures[name].append(value)
        bench.send("matti", False, text="peru")  # a match still running (the count was reached) ends
    if timing is not None:
        timing["update_ms"] = statistics.median(took) * 1000
        timing["tick_ms"] = tick_ms(bench)
    bench.repo.engine.dispose()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", help="database URL (default: a new SQLite file)")
    parser.add_argument("--updates", type=int, default=120)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--running", type=int, default=0, help="other running matches in the database")
    args = parser.parse_args()
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
            figures = play(url, bots, typed, args.updates, args.seed, args.running, timing)
        rows.append((label, figures, timing))
    print(f"database: {(args.url or 'sqlite (file)').split('@')[-1]}; other running matches: {args.running}")
    print(
        f"{'per update (mean over n)':32} {'n':>4} {'core st':>8} {'core co':>8} {'+ai st':>7} {'+ai co':>7}"
        f" {'deliv st':>9} {'deliv co':>9} {'total st':>9} {'total co':>9} {'ms/upd':>7} {'tick ms':>8}"
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
        print(
            f"{label:32} {n:>4} {mean['core'][0]:>8.1f} {mean['core'][1]:>8.2f} {mean['+ai'][0]:>7.1f}"
            f" {mean['+ai'][1]:>7.2f} {mean['deliver'][0]:>9.1f} {mean['deliver'][1]:>9.2f}"
            f" {total[0]:>9.1f} {total[1]:>9.2f} {timing.get('update_ms', 0):>7.2f} {timing.get('tick_ms', 0):>8.3f}"
        )


if __name__ == "__main__":
    main()
