"""Turn timers live in the database: a reminder after a while, then the bot moves for the idle
person; a restarted core (a new BotCore on the same file) keeps the deadlines."""

from __future__ import annotations

from chatbot.compose import new_core
from chatbot.storage import SqlRepository
from tests.chatbot.table import Table


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_reminder_then_the_bot_moves_and_a_restart_keeps_the_deadline(tmp_path):
    clock = Clock()
    url = f"sqlite:///{tmp_path / 'timers.sqlite'}"
    table = Table(url=url, seed="timers")
    table.core = new_core(table.repo, seed="timers", clock=clock, remind_after=60, act_after=300)
    table.say("matti", "uusi majavajengi")
    table.say("liisa", "liity")
    table.say("matti", "aloita")
    waiting = table.acting_users()[0]
    version = table.match().version
    assert table.core.tick() == []  # nothing is due yet
    clock.now += 61
    out = table.core.tick()
    assert any(o.user_id == waiting and "odottavat" in o.text for o in out)
    assert any(o.chat_id == "g1" and "Odotetaan" in o.text for o in out)
    assert table.core.tick() == []  # reminded once only
    # the process restarts: the deadline is in the database
    restarted = new_core(SqlRepository(url), seed="timers", clock=clock, remind_after=60, act_after=300)
    clock.now += 300
    out = restarted.tick()
    assert any("tein siirron" in o.text for o in out)
    assert restarted.repo.match(table.match().id).version == version + 1
