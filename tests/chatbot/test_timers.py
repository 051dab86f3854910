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
        REMIND: clock.now + 60,
        IDLE_MOVE: clock.now + 300,
    }
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
    # the bot played the whole turn (draw, place, end): issue #27
    assert any("pelasin vuoron hänen puolestaan" in o.text for o in out)
    assert restarted.repo.match(table.match().id).version == version + 3
    assert table.acting_users() != [waiting]


def test_a_step_in_time_does_not_push_the_turns_reminder_on_and_the_next_turn_has_its_own(tmp_path):
    """The person's time runs per turn (issue #27): a draw within the turn keeps the reminder where
    the turn's beginning put it; the next person's turn starts its own time."""
    clock = Clock()
    table = Table(url=f"sqlite:///{tmp_path / 't.sqlite'}", seed="timers")
    table.core = new_core(table.repo, seed="timers", clock=clock, remind_after=60, act_after=300)
    table.say("matti", "uusi majavajengi")
    table.say("liisa", "liity")
    table.say("matti", "aloita")
    began = clock.now
    first = table.acting_users()[0]
    clock.now += 50
    table.say(first, "nostan", private=True)
    assert {d.kind: d.due for d in table.repo.deadlines(table.match().id)} == {
        REMIND: began + 60,
        IDLE_MOVE: began + 300,
    }
    clock.now += 11  # 61 s after the turn began, 11 s after the draw
    out = table.core.run_due("w")
    assert [o.user_id for o in out if o.user_id] == [first]  # still the same person's turn (discard)
    table.say(first, "hylkään", private=True)
    assert [d.kind for d in table.repo.deadlines(table.match().id)] == [IDLE_MOVE]  # reminded once
    table.say(first, "lopetan", private=True)
    second = table.acting_users()[0]
    assert second != first
    assert {d.kind: d.due for d in table.repo.deadlines(table.match().id)} == {
        REMIND: clock.now + 60,
        IDLE_MOVE: clock.now + 300,
    }


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
    table.repo.set_meta(
        match.id,
        "timer",
        {
            "version": match.version,
            "seats": [0],
            "reminded": True,
            "remind_at": clock.now + 60,
            "act_at": clock.now + 100,
        },
    )
    restarted = new_core(SqlRepository(url), seed="timers", clock=clock, remind_after=60, act_after=300)
    assert restarted.next_due() == clock.now + 100  # the old act_at, and no second reminder
    assert [d.kind for d in restarted.repo.deadlines(match.id)] == [IDLE_MOVE]
