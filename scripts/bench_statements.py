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
    def __init__(self, url: str, seed: str) -> None:
        self.repo = SqlRepository(url)
        self.core = new_core(self.repo, seed=seed)
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


def play(url: str, bots: int, typed: bool, updates: int, seed: str) -> dict[str, list[tuple[int, int]]]:
    """Matches one after another (the set-up is not counted) until ``updates`` moves were counted."""
    bench = Bench(url, seed)
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
            if typed:
                _, got = bench.send(user, True, text=choice.label)
                if bench.prompts.get(user) is prompt:
                    # not understood as typed: press it, so that the game goes on (not counted)
                    bench.send(user, True, button=choice.data)
            else:
                _, got = bench.send(user, True, button=choice.data)
            for name, value in got.items():
                figures[name].append(value)
        bench.send("matti", False, text="peru")  # a match still running (the count was reached) ends
    bench.repo.engine.dispose()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", help="database URL (default: a new SQLite file)")
    parser.add_argument("--updates", type=int, default=120)
    parser.add_argument("--seed", default="bench")
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
            figures = play(url, bots, typed, args.updates, args.seed)
        rows.append((label, figures))
    print(f"database: {(args.url or 'sqlite (file)').split('@')[-1]}")
    print(
        f"{'per update (mean over n)':34} {'n':>4} {'core st':>8} {'core co':>8} {'+ai st':>7} {'+ai co':>7}"
        f" {'deliv st':>9} {'deliv co':>9} {'total st':>9} {'total co':>9}"
    )
    for label, figures in rows:
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
            f"{label:34} {n:>4} {mean['core'][0]:>8.1f} {mean['core'][1]:>8.2f} {mean['+ai'][0]:>7.1f}"
            f" {mean['+ai'][1]:>7.2f} {mean['deliver'][0]:>9.1f} {mean['deliver'][1]:>9.2f}"
            f" {total[0]:>9.1f} {total[1]:>9.2f}"
        )


if __name__ == "__main__":
    main()
