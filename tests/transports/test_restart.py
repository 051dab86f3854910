"""Kill the bot process mid-game (after a committed action, with SIGKILL) and start a new one on the
same SQLite file: the match continues where it was, nothing lost."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from chatbot.storage import SqlRepository
from engines import GAMES

ROOT = Path(__file__).resolve().parents[2]


class Bot:
    def __init__(self, db: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "chatbot", "script", "-", "--db", str(db), "--seed", "restart", "--ack"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self.count = 0

    def send(self, user: str, text: str, chat: str = "group") -> list[dict]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps({"user": user, "chat": chat, "text": text}) + "\n")
        self.proc.stdin.flush()
        self.count += 1
        out = []
        while True:
            line = self.proc.stdout.readline()
            assert line, "bot process ended"
            item = json.loads(line)
            if item.get("ack") == self.count:
                return out
            out.append(item)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)


def test_a_killed_process_loses_nothing(tmp_path):
    db = tmp_path / "bot.sqlite"
    bot = Bot(db)
    bot.send("matti", "uusi majavajengi")
    bot.send("matti", "aloita")
    out = bot.send("matti", "nostan", chat="private")
    assert any("Nostit" in o["text"] for o in out if o["chat"] == "private")
    repo = SqlRepository(f"sqlite:///{db}")
    before = repo.running_matches()[0]
    engine = GAMES["majavajengi"]
    assert engine.load(before.state).phase == "holding"
    bot.kill()  # SIGKILL right after the committed draw: no chance to clean up

    bot = Bot(db)
    out = bot.send("matti", "hylkään", chat="private")
    group = [o for o in out if o["chat"] == "group"]
    assert group and "heitti poistopakkaan" in group[0]["text"]
    after = SqlRepository(f"sqlite:///{db}").match(before.id)
    assert after.version > before.version
    notations = [a.notation for a in repo.actions(before.id)]
    assert notations[: len(notations)].count("draw") >= 1 and "discard" in notations
    # the log replays to the stored snapshot
    from engines.playout import replay

    state = replay(
        engine,
        2,
        after.seed,
        engine.options_from_dict(after.options),
        [(a.seat, a.notation) for a in repo.actions(before.id)],
    )
    assert engine.dump(state) == after.state
    bot.kill()
