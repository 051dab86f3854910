"""One turn context per update (DESIGN.md §5a, reviews/core.md §1.1 and §8 change 3): a typed move
and a button press ask the engine for a seat's legal actions at most once per state, run its
``check`` once per applied action (inside ``apply``), and read a press's notation at most once.

Measured with :mod:`tests.chatbot.engine_calls` (``python -m tests.chatbot.engine_calls`` prints the
figures). Before the turn context one typed "nostan" asked ``legal_actions`` 4 times (twice for one
state), checked the move twice and read its notation twice."""

from __future__ import annotations

import pytest

from tests.chatbot import engine_calls
from tests.chatbot.engine_calls import TYPED, Calls, counting, started


def _assert_one_turn(calls: Calls, what: str, applied: int = 1) -> None:
    assert calls.counts["apply"] == applied, (what, calls.summary())
    # at most the one inside apply; Afrikan Tähti's and Majavajengi's apply call their rules' check
    # directly (for speed), so the counting wrapper on the engine's check sees none there
    assert calls.counts["check"] <= applied, (what, calls.summary())
    assert calls.most_legal_per_state <= 1, (what, dict(calls.legal_per_state))
    assert calls.counts["parse_notation"] <= 1, (what, calls.summary())


@pytest.mark.parametrize("game", sorted(TYPED))
def test_a_typed_move_and_a_press_ask_the_engine_once(game):
    measured = engine_calls.measure(game)
    assert measured.typed_versions[1] == measured.typed_versions[0] + 1, f"{TYPED[game]!r} was not applied"
    assert measured.pressed_versions[1] == measured.pressed_versions[0] + 1, measured.press_data
    _assert_one_turn(measured.typed, f"typed {TYPED[game]!r}")
    assert measured.typed.counts["parse_notation"] == 0  # the parser gives the action itself
    _assert_one_turn(measured.pressed, f"press {measured.press_data!r}")


@pytest.mark.parametrize("game", sorted(TYPED))
def test_a_worker_that_did_not_draw_the_prompt_asks_once_per_state_too(game):
    """Another process (nothing decoded yet) asks for the legal actions of the state before the move
    once, for the parser, the check and the answer, and of the state after it once per acting seat,
    for the table's buttons and the private prompt alike."""
    table = started(game)
    who = table.acting_users()[0]
    before = table.match().version
    with counting(game) as calls:
        table.core.decoded._states.clear()  # what this process decoded is gone
        table.say(who, TYPED[game], private=True)
    assert table.match().version == before + 1
    _assert_one_turn(calls, f"typed {TYPED[game]!r}")
    assert len(calls.legal_per_state) >= 2  # the state before the move, and the one after it
    who = table.acting_users()[0]
    prompt = table.prompt_for(who)
    assert prompt is not None
    with counting(game) as calls:
        table.core.decoded._states.clear()
        table.press(who, prompt.buttons[0][0].data)
    assert table.match().version == before + 2
    _assert_one_turn(calls, "press")


def test_a_refused_move_is_checked_once_and_changes_nothing():
    """A typed move the engine refuses: one check (in ``apply``, which stores nothing), the refusal's
    hint reads the same legal actions as the parser."""
    table = started("majavajengi")
    who = table.acting_users()[0]
    before = table.match().version
    with counting("majavajengi") as calls:
        table.core.decoded._states.clear()
        out = table.say(who, "koputan", private=True)  # a knock at the start of a turn
    assert table.match().version == before
    # the engine's reason, and the hint of what is possible: "Voit nostaa kortin."
    assert out and "nostaa" in out[0].text, [o.text for o in out]
    # the check is the one inside apply (Majavajengi's apply calls its rules' check directly, so the
    # counting wrapper on the engine's check may see none)
    assert calls.counts["apply"] == 1 and calls.counts["check"] <= 1, calls.summary()
    assert calls.most_legal_per_state <= 1, dict(calls.legal_per_state)
