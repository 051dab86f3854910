"""A match's pace (issue #16): live (today's timers), daily (a reminder after 12 h, the AI's move after
24 h only when chosen, quiet hours in the room's time zone) or off; the deadlines are the stored rows,
so a restarted core reminds at the stored time. Everything runs on a fake clock."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from chatbot.compose import new_core
from chatbot.core import pace
from chatbot.core.ports import IDLE_MOVE, REMIND
from chatbot.storage import SqlRepository
from tests.chatbot.table import Table

HELSINKI = ZoneInfo("Europe/Helsinki")


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def at(day: int, hour: int, minute: int = 0, zone=HELSINKI) -> float:
    return dt.datetime(2026, 3, day, hour, minute, tzinfo=zone).timestamp()


def paced_table(tmp_path, options: str, clock: Clock) -> Table:
    url = f"sqlite:///{tmp_path / 'pace.sqlite'}"
    table = Table(url=url, seed="pace")
    table.core = new_core(table.repo, seed="pace", clock=clock, remind_after=60, act_after=300)
    table.say("matti", f"uusi majavajengi {options}")
    table.say("liisa", "liity")
    table.say("matti", "aloita")
    return table


def kinds(table: Table) -> dict[str, float]:
    return {d.kind: d.due for d in table.repo.deadlines(table.match().id)}


def test_a_daily_match_reminds_at_the_stored_time_after_a_restart(tmp_path):
    clock = Clock(at(2, 9))  # Monday 9.00 in Helsinki
    table = paced_table(tmp_path, "tahti=päivä", clock)
    waiting = table.acting_users()[0]
    assert kinds(table) == {REMIND: clock.now + 12 * 3600}  # no stand-in move unless chosen
    table_text = [o.text for o in table.sent if o.key and o.chat_id == "g1"][-1]
    assert "⏰ Seuraava muistutus klo 21.00." in table_text
    clock.now += 11 * 3600
    assert table.core.run_due("w") == []
    # the process restarts; the new core finds the stored deadline and reminds at 21.00
    restarted = new_core(SqlRepository(table.url), seed="pace", clock=clock, remind_after=60, act_after=300)
    clock.now += 3600 - 1
    assert restarted.run_due("w") == []
    clock.now += 1
    out = restarted.run_due("w")
    assert any(o.user_id == waiting and "odottavat" in o.text for o in out)
    # and nothing moves for them, ever: the group did not choose the stand-in
    clock.now += 7 * 86400
    assert restarted.run_due("w") == [] and restarted.next_due() is None


def test_a_daily_stand_in_comes_after_24_hours_outside_quiet_hours(tmp_path):
    clock = Clock(at(2, 15))  # 15.00: the reminder would be at 3.00, the stand-in at 15.00 next day
    table = paced_table(tmp_path, "tahti=päivä sijainen=kyllä hiljaa=22-8", clock)
    due = kinds(table)
    assert due[REMIND] == at(3, 8)  # 3.00 is in the quiet hours: it waits until they end
    assert due[IDLE_MOVE] == at(3, 15)
    version = table.match().version
    assert "ti klo 8.00" in [o.text for o in table.sent if o.key and o.chat_id == "g1"][-1]
    clock.now = at(3, 15)
    table.run_due()
    assert table.match().version > version  # the AI made the move


def test_the_rooms_time_zone_moves_the_quiet_hours(tmp_path):
    london = ZoneInfo("Europe/London")
    clock = Clock(at(2, 15, zone=london))
    table = paced_table(tmp_path, "pace=daily quiet=22-8 tz=Europe/London", clock)
    assert kinds(table)[REMIND] == at(3, 8, zone=london)


def test_pace_off_has_no_timers_and_live_is_todays(tmp_path):
    clock = Clock(at(2, 9))
    off = paced_table(tmp_path, "tahti=ei", clock)
    assert kinds(off) == {}
    live = Table(seed="pace")
    live.core = new_core(live.repo, seed="pace", clock=clock, remind_after=60, act_after=300)
    live.say("matti", "uusi majavajengi")
    live.say("liisa", "liity")
    live.say("matti", "aloita")
    assert kinds(live) == {REMIND: clock.now + 60, IDLE_MOVE: clock.now + 300}
    assert "⏰" not in [o.text for o in live.sent if o.key and o.chat_id == "g1"][-1]


def test_bad_pace_options_are_refused_and_change_nothing():
    table = Table(seed="pace")
    out = table.say("matti", "uusi majavajengi tahti=joskus")
    assert table.match() is None and "tahti=joskus" in out[0].text
    table.say("matti", "uusi majavajengi")
    out = table.say("matti", "asetukset hiljaa=25-99")
    assert "Mitään ei muutettu" in out[0].text
    table.say("matti", "asetukset tahti=päivä vyöhyke=Europe/Stockholm")
    assert table.match().meta["pace"]["mode"] == "daily"
    assert "Tahti: päivä" in table.say("matti", "asetukset")[0].text


@pytest.mark.parametrize(
    "text, expected",
    [("22-8", (1320, 480)), ("22.30-7.15", (1350, 435)), ("23:00-06:30", (1380, 390)), ("8-16", (480, 960))],
)
def test_quiet_hours_are_read(text, expected):
    assert pace.parse_quiet(text) == expected


@pytest.mark.parametrize("text", ["22", "8-8", "25-3", "22-8-9", "klo 22"])
def test_bad_quiet_hours_raise(text):
    with pytest.raises(ValueError):
        pace.parse_quiet(text)


def test_out_of_quiet_over_midnight_and_by_day():
    night = (22 * 60, 8 * 60)
    assert pace.out_of_quiet(at(2, 23), night, HELSINKI) == at(3, 8)
    assert pace.out_of_quiet(at(3, 7, 59), night, HELSINKI) == at(3, 8)
    assert pace.out_of_quiet(at(3, 8), night, HELSINKI) == at(3, 8)
    assert pace.out_of_quiet(at(3, 21, 59), night, HELSINKI) == at(3, 21, 59)
    day = (8 * 60, 16 * 60)
    assert pace.out_of_quiet(at(3, 12), day, HELSINKI) == at(3, 16)
