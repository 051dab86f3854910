"""Turn timers live in the database as deadlines: a reminder after a while, then the bot moves for
the idle person; a restarted core (a new BotCore on the same file) keeps the deadlines."""

from __future__ import annotations

from chatbot.compose import new_core
from chatbot.core.ports import IDLE_MOVE, REMIND
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
    assert {d.kind: d.due for d in table.repo.deadlines(table.match().id)} == {
        REMIND: clock.now + 60, IDLE_MOVE: clock.now + 300}
    assert table.core.next_due() == clock.now + 60
    assert table.core.run_due("w") == []  # nothing is due yet
    clock.now += 61
    out = table.core.run_due("w")
    assert any(o.user_id == waiting and "odottavat" in o.text for o in out)
    assert any(o.chat_id == "g1" and "Odotetaan" in o.text for o in out)
    assert table.core.run_due("w") == []  # reminded once only
    # the process restarts: the deadline is in the database
    restarted = new_core(SqlRepository(url), seed="timers", clock=clock, remind_after=60, act_after=300)
    clock.now += 300
    out = restarted.run_due("w")
    assert any("tein siirron" in o.text for o in out)
    assert restarted.repo.match(table.match().id).version == version + 1


def test_a_move_in_time_replaces_the_deadlines_and_nothing_fires_for_the_old_turn(tmp_path):
    clock = Clock()
    table = Table(url=f"sqlite:///{tmp_path / 't.sqlite'}", seed="timers")
    table.core = new_core(table.repo, seed="timers", clock=clock, remind_after=60, act_after=300)
    table.say("matti", "uusi majavajengi")
    table.say("liisa", "liity")
    table.say("matti", "aloita")
    first = table.acting_users()[0]
    clock.now += 50
    table.say(first, "nostan", private=True)
    clock.now += 20  # 70 s after the start, 20 s after the move: nobody is reminded yet
    assert table.core.run_due("w") == []
    clock.now += 41
    out = table.core.run_due("w")
    assert [o.user_id for o in out if o.user_id] == [first]  # still the same person's turn (discard)


def test_an_old_database_without_deadlines_gets_them_at_the_first_tick(tmp_path):
    clock = Clock()
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    table = Table(url=url, seed="timers")
    table.core = new_core(table.repo, seed="timers", clock=clock, remind_after=60, act_after=300)
    table.say("matti", "uusi majavajengi")
    table.say("liisa", "liity")
    table.say("matti", "aloita")
    match = table.match()
    # as a database from before deadlines were stored: a timer in meta, no deadline rows
    table.repo.set_deadlines(match.id, [])
    table.repo.set_meta(match.id, "timer", {"version": match.version, "seats": [0], "reminded": True,
                                            "remind_at": clock.now + 60, "act_at": clock.now + 100})
    restarted = new_core(SqlRepository(url), seed="timers", clock=clock, remind_after=60, act_after=300)
    assert restarted.next_due() == clock.now + 100  # the old act_at, and no second reminder
    assert [d.kind for d in restarted.repo.deadlines(match.id)] == [IDLE_MOVE]
