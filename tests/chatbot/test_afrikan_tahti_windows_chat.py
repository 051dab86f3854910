"""Reaction windows in chat (issue 17): a window's time runs from its opening (a pass does not
extend it), silence is a lapse, and after two lapses in a row the seat is told in private that it
is not asked any more; the group hears the same whoever was asked."""

from __future__ import annotations

import pytest

from chatbot.compose import new_core
from engines.afrikan_tahti import ENGINE
from tests.chatbot.table import Table
from tests.chatbot.test_afrikan_tahti_expansion_chat import PEOPLE, press_smart, start, state_of, user_seat


def _table(seed: str) -> tuple[Table, list[float]]:
    now = [1000.0]
    table = Table(seed=seed)
    table.core = new_core(table.repo, seed=seed, clock=lambda: now[0], remind_after=600, act_after=1800)
    start(table, *PEOPLE)
    return table, now


def _until_window(table: Table, many: bool = False):
    for _ in range(3000):
        if table.match() is None:
            return None
        pr = ENGINE.view(state_of(table), None).x.prompt
        if pr is not None and pr.kind == "window" and (len(pr.seats) >= 2 or not many):
            return pr
        press_smart(table, table.acting_users()[0])
    return None


@pytest.mark.slow
def test_a_pass_does_not_extend_the_window_and_silence_mutes_after_two_lapses():
    table, now = _table("ikkuna2")
    pr = _until_window(table, many=True)
    assert pr is not None, "no window with two seats asked"
    (first,) = [d for d in table.repo.deadlines(table.match().id) if d.kind == "window"]
    assert first.due == now[0] + 30
    now[0] += 10
    seat_user = next(u for u in PEOPLE if user_seat(table, u) == pr.seats[0])
    table.say(seat_user, "ohitan", private=True)
    (after,) = [d for d in table.repo.deadlines(table.match().id) if d.kind == "window"]
    assert after.due == first.due  # the window keeps its end
    assert pr.seats[0] not in ENGINE.to_act(state_of(table))
    # nobody answers any window from now on: every asked seat is muted after two lapses
    muted: set[str] = set()
    for _ in range(3000):
        if table.match() is None:
            break
        pr = ENGINE.view(state_of(table), None).x.prompt
        if pr is not None and pr.kind in ("window", "reveal"):
            due = min(d.due for d in table.repo.deadlines(table.match().id) if d.kind == "window")
            now[0] = max(now[0], due)
            table.run_due()
            for user in PEOPLE:
                if any("en kysy sinulta enää" in t for t in table.private_texts(user)):
                    muted.add(user)
            if muted:
                break
            continue
        press_smart(table, table.acting_users()[0])
    assert muted, "no seat was ever muted"
    # the group never hears who was muted or asked
    group = "\n".join(table.group_texts())
    assert "en kysy sinulta" not in group and "kysy minulta" not in group


def test_ask_me_is_typed_in_private_and_refused_in_the_group():
    table, _now = _table("ikkuna3")
    user = table.acting_users()[0]
    assert not table.say(user, "älä kysy minulta")  # said to the friends: not the bot's (issue #27)
    out = table.say(user, "älä kysy minulta", addressed=True)
    assert any("yksityisviestissä" in o.text for o in out if o.chat_id is not None)
