"""Reaction windows that keep secrets without stalling (issue 17; windows.py's docstring): two
lapses stop the asking, a player's own setting ("never", "only for this card"), and the table's
behaviour does not depend on which cards the hands hold."""

from __future__ import annotations

import random
from dataclasses import replace

from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.model import Options
from tests.engines.afrikan_tahti_helpers import first, legal, play, refused
from tests.engines.test_afrikan_tahti_expansion import horse_use, phase3, prompt, xnew


def test_two_lapses_in_a_row_stop_the_asking_and_the_seat_alone_is_told():
    st = horse_use(hands={1: ("gotcha",), 2: ("sabotage",)})
    st, evs = play(st, 0, "use horse")
    assert ENGINE.to_act(st) == (1, 2)
    st, _ = play(st, 1, "lapse")
    st, _ = play(st, 2, "pass")  # an answer of one's own: the run of lapses starts again
    assert st.ext.seats[1].lapses == 1 and st.ext.seats[2].lapses == 0
    # the next window (the same situation with seat 1's lapse carried over): a second lapse in a
    # row, and seat 1 is not asked any more; seat 2 still is
    lapsed = st.ext.seats[1]
    st = horse_use(hands={1: ("gotcha",), 2: ("sabotage",)})
    seats = tuple(replace(sx, lapses=lapsed.lapses) if i == 1 else sx for i, sx in enumerate(st.ext.seats))
    st, _ = play(replace(st, ext=replace(st.ext, seats=seats)), 0, "use horse")
    st, evs = play(st, 1, "lapse")
    muted = first(evs, "window_muted")
    assert muted.to == (1,) and st.ext.seats[1].ask == "never"
    assert ENGINE.view(st, 1).x.ask == "never" and ENGINE.view(st, None).x.ask is None
    assert refused(st, 1, "pass") == "not_asked"  # its own window passed for it
    st, _ = play(st, 2, "lapse")
    assert prompt(st) is None


def test_a_muted_seat_is_not_asked_and_asks_again_on_its_own_turn():
    st = horse_use(hands={1: ("gotcha",), 2: ("sabotage",)})
    seats = tuple(replace(sx, ask="never") if i == 1 else sx for i, sx in enumerate(st.ext.seats))
    st = replace(st, ext=replace(st.ext, seats=seats))
    st, evs = play(st, 0, "use horse")
    assert first(evs, "window")["seats"] == (2,)
    # seat 0 muted, on its own turn: the button to be asked again is there
    st0 = horse_use(hands={0: ("forced_march",), 1: ("gotcha",)})
    seats = tuple(replace(sx, ask="never") if i == 0 else sx for i, sx in enumerate(st0.ext.seats))
    st0 = replace(st0, ext=replace(st0.ext, seats=seats))
    assert "ask all" in legal(st0, 0)
    st0, evs = play(st0, 0, "ask all")
    assert first(evs, "window_setting").to == (0,) and st0.ext.seats[0].ask == "all"
    assert "ask all" not in legal(st0, 0)
    assert refused(st0, 0, "ask sometimes") == "bad_argument"


def test_ask_only_for_one_card_asks_in_the_windows_that_card_answers():
    st = horse_use(hands={1: ("gotcha",), 2: ("sabotage",)})
    seats = tuple(replace(sx, ask="sabotage") if i in (1, 2) else sx for i, sx in enumerate(st.ext.seats))
    st = replace(st, ext=replace(st.ext, seats=seats))
    st, evs = play(st, 0, "use horse")
    assert first(evs, "window")["seats"] == (1, 2)  # a Sabotage window asks both
    st, _ = play(st, 1, "pass")
    st, evs = play(st, 2, "play sabotage")
    # the Gotcha! window after the Sabotage asks nobody whose setting is "only Sabotage"
    assert "window" not in [e.code for e in evs if e.code == "window" and e["kind"] == "gotcha"]
    assert prompt(st) is None


def test_ask_never_in_a_window_passes_it_and_sets_the_seat():
    st = horse_use(hands={1: ("gotcha",), 2: ("sabotage",)})
    st, _ = play(st, 0, "use horse")
    st, evs = play(st, 2, "ask never")
    assert st.ext.seats[2].ask == "never" and ENGINE.to_act(st) == (1,)
    assert all(e.to == (2,) for e in evs if e.code == "window_setting")


def test_the_surprise_moment_asks_every_flipper_with_a_hand_card_unless_he_said_never():
    for hand in (("surprise",), ("gotcha",)):
        st = phase3(xnew("egypt", hands={0: hand}, layout={"egypt": "topaz"}))
        st, _ = play(st, 0, "flip")
        assert prompt(st) == "reveal", hand
    st = phase3(xnew("egypt", hands={0: ("surprise",)}, layout={"egypt": "topaz"}))
    st = replace(st, ext=replace(st.ext, seats=tuple(replace(sx, ask="gotcha") for sx in st.ext.seats)))
    st, _ = play(st, 0, "flip")
    assert prompt(st) != "reveal"


# --- the observer learns nothing beyond hand counts ---------------------------------------------


def _public(st, evs):
    return (
        [(e.code, e.params) for e in evs if e.public],
        ENGINE.to_act(st),
        ENGINE.view(st, None),
    )


def _with_hands(st, hands):
    seats = list(st.ext.seats)
    for s, ids in hands.items():
        seats[s] = replace(seats[s], hand=tuple(f"{c}#9{k}" for k, c in enumerate(ids)))
    return replace(st, ext=replace(st.ext, seats=tuple(seats)))


HANDS = (
    {1: ("gotcha",), 2: ("sabotage", "surprise")},
    {1: ("forced_march",), 2: ("bribe", "tailwind")},
    {1: ("sabotage",), 2: ("gotcha", "gotcha")},
)


def test_the_same_inputs_give_the_same_public_table_whatever_the_hands_hold():
    """Tables that differ only in which cards the hands hold (the counts are public), given the same
    answers (pass, lapse, ask), show the group the same events, prompts and views at every step."""
    rng = random.Random(17)
    answers = ("pass", "lapse", "ask never", "ask all", "ask sabotage", "ask gotcha")
    for trial in range(60):
        base = horse_use()
        script = [rng.choice(answers) for _ in range(6)]
        runs = []
        for hands in HANDS:
            st = _with_hands(base, hands)
            st, evs = play(st, 0, "use horse")
            trace = [_public(st, evs)]
            for answer in script:
                acting = ENGINE.to_act(st)
                if not acting or prompt(st) != "window":
                    break
                st, evs = play(st, acting[0], answer)
                trace.append(_public(st, evs))
            runs.append(trace)
        assert runs[0] == runs[1] == runs[2], (trial, script)


def test_whole_games_ask_the_same_seats_whatever_cards_they_hold():
    """In whole AI games, at every window: the seats asked would be the same with any other hand
    cards of the same counts."""
    seen = 0
    for seed in ("w1", "w2", "w3"):
        st = ENGINE.new_game(3, seed, Options(quick_game=True))
        rng = random.Random(seed)
        for _ in range(3000):
            if ENGINE.outcome(st) is not None:
                break
            acting = ENGINE.to_act(st)
            if prompt(st) == "window":
                seen += 1
                other = _with_hands(
                    st, {s: ("tailwind",) * len(sx.hand) for s, sx in enumerate(st.ext.seats)}
                )
                assert ENGINE.to_act(other) == acting
                assert ENGINE.view(other, None) == ENGINE.view(st, None)
            seat = acting[0]
            acts = ENGINE.legal_actions(st, seat)
            action = ENGINE.ai_action("smart", ENGINE.view(st, seat), acts, rng)
            st, _ = ENGINE.apply(st, seat, action)
    assert seen > 5


def test_lapse_is_never_a_candidate():
    st = horse_use(hands={1: ("gotcha",)})
    st, _ = play(st, 0, "use horse")
    assert "lapse" not in legal(st, 1) and "ask never" in legal(st, 1)


def test_the_setting_may_be_given_out_of_turn_and_changes_nothing_else():
    st = horse_use(hands={1: ("gotcha",), 2: ("sabotage",)})
    after, evs = play(st, 2, "ask never")
    assert after.ext.seats[2].ask == "never" and [e.code for e in evs] == ["window_setting"]
    assert evs[0].to == (2,) and ENGINE.to_act(after) == ENGINE.to_act(st)
    assert ENGINE.view(after, None) == ENGINE.view(st, None)
    assert refused(st, 2, "ask sometimes") == "bad_argument"
    assert "ask never" not in legal(st, 2)  # no button out of turn: it is typed
