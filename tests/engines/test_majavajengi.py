"""Scenario tests for the Majavajengi engine with fixed decks (spec shared/rules/majavajengi.md)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engines.codec import BadNotation
from engines.contract import IllegalAction, rng_for
from engines.majavajengi import ENGINE
from engines.majavajengi.ai import smart_policy
from engines.majavajengi.model import (
    CANONICAL_DECK,
    KIND,
    Discard,
    Draw,
    Draw2,
    End,
    Knock,
    MajavajengiOptions,
    MajavajengiSeatView,
    MajavajengiView,
    Next,
    Peek,
    Replace,
    Stop,
    Swap,
    Take,
)
from engines.playout import play_ai_game
from engines.simulate import simulate

FILLER = ("N7", "N8", "N9", "N6", "N5", "N4")


def deck_for(layouts, discard, pile=(), start=0):
    """A deck order that deals ``layouts[s]`` to seat s, turns ``discard`` and then has ``pile``."""
    n = len(layouts)
    order = [layouts[(start + j) % n][k] for k in range(4) for j in range(n)]
    return (*order, discard, *pile)


def game(layouts, discard, pile=FILLER, start=0, later=(), **options):
    opts = MajavajengiOptions(first_round_start="host", first_start_seat=start, **options)
    return ENGINE.new_game(
        len(layouts), "test", opts, decks=[deck_for(layouts, discard, pile, start), *later]
    )


def play(state, seat, *moves):
    """Apply notations for one seat; return the new state and all events."""
    events = []
    for text in moves:
        state, evs = ENGINE.apply(state, seat, ENGINE.parse_notation(text))
        events.extend(evs)
    return state, events


def kinds(cards):
    return tuple(KIND[c] for c in cards)


def codes(events):
    return [e.code for e in events]


def find(events, code):
    found = [e for e in events if e.code == code]
    assert found, (code, codes(events))
    return found


def illegal(state, seat, action):
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, seat, action)
    return info.value.code


L0 = ("N9", "N5", "N6", "N2")
L1 = ("N1", "N3", "N4", "N8")


# ---------------------------------------------------------------------------------------------
# setup


def test_deal_order_initial_look_and_round_started():
    s = game([L0, L1], "N1", pile=("N0", "N7"), start=1)
    assert kinds(s.layouts[0]) == L0 and kinds(s.layouts[1]) == L1
    assert kinds(s.discard) == ("N1",) and kinds(s.draw_pile[:2]) == ("N0", "N7")
    assert len(s.draw_pile) == 66 - 8 - 1
    assert s.turn == 1 and s.phase == "start" and ENGINE.to_act(s) == (1,)
    assert s.known[0] == (("N9", None, None, "N2"), (None,) * 4)
    assert s.known[1] == ((None,) * 4, ("N1", None, None, "N8"))
    s2 = ENGINE.new_game(3, "seed")
    assert s2.rounds == 6 and s2.round == 1 and sum(len(r) for r in s2.layouts) == 12


def test_start_events_and_dealt_private():
    s = game([L0, L1], "SWAP", pile=("N3", "N4"), initial_special_discard="redraw")
    events = ENGINE.start_events(s)
    assert [(e.code, e.to) for e in events] == [
        ("round_started", None),
        ("dealt", None),
        ("dealt_cards", (0,)),
        ("dealt_cards", (1,)),
    ]
    assert events[0].p == {
        "round": 1,
        "rounds": 6,
        "start_seat": 0,
        "discard_top": "N3",
        "draw_pile": 57,
        "redrawn": ("SWAP",),
    }
    assert events[2].p == {"seat": 0, "positions": (1, 4), "cards": ("N9", "N2")}
    s2, _ = play(s, 0, "take 1")
    assert ENGINE.start_events(s2) == events
    assert ENGINE.start_events(ENGINE.new_game(3, "x"))[0]["start_seat"] == ENGINE.new_game(3, "x").start_seat
    # the deal of a next round sends each seat only its own outer cards
    s = game([L0, L1], "N1", later=[deck_for([L1, L0], "N2")], rounds=2)
    s, _ = play(s, 0, "take 1", "knock")
    s, events = play(s, 1, "take 1")
    assert codes(events)[-5:] == ["round_scored", "round_started", "dealt", "dealt_cards", "dealt_cards"]
    private = find(events, "dealt_cards")
    assert [(e.to, e["cards"]) for e in private] == [((0,), ("N1", "N8")), ((1,), ("N9", "N2"))]
    assert find(events, "round_started")[0].p == {
        "round": 2,
        "rounds": 2,
        "start_seat": 0,
        "discard_top": "N2",
        "draw_pile": 57,
        "redrawn": (),
    }


def test_options_are_validated():
    assert ENGINE.new_game(4, "s", MajavajengiOptions(rounds="players")).rounds == 4
    for bad in [
        dict(rounds=0),
        dict(rounds=21),
        dict(rounds="many"),
        dict(reshuffle="some"),
        dict(round_turn_cap=3),
        dict(first_start_seat=2),
        dict(memory_aid="yes"),
    ]:
        with pytest.raises(ValueError):
            ENGINE.new_game(2, "s", MajavajengiOptions(**bad))
    assert ENGINE.new_game(2, "s", MajavajengiOptions(round_turn_cap=4)).options.round_turn_cap == 4
    with pytest.raises(ValueError):
        ENGINE.new_game(7, "s")


# ---------------------------------------------------------------------------------------------
# action A and B


def test_take_discard():
    s = game([L0, L1], "N1")
    s, events = play(s, 0, "take 1")
    assert kinds(s.layouts[0]) == ("N1", "N5", "N6", "N2")
    assert KIND[s.discard[-1]] == "N9" and len(s.discard) == 1
    assert [(e.code, e.to, e.p) for e in events] == [
        ("took_discard", None, {"seat": 0, "card": "N1", "pos": 1, "removed": "N9"})
    ]
    # the taken card was face up: everyone knows it now
    assert s.known[0][0][0] == "N1" and s.known[1][0][0] == "N1"
    assert s.phase == "turn_end" and ENGINE.to_act(s) == (0,)
    assert ENGINE.legal_actions(s, 0) == (Knock(), End())


def test_special_on_top_blocks_take():
    s = game([L0, L1], "SWAP")
    assert illegal(s, 0, Take(1)) == "discard_top_special"
    assert ENGINE.legal_actions(s, 0) == (Draw(),)
    assert illegal(s, 0, Replace(1)) == "wrong_phase"
    assert illegal(s, 1, Draw()) == "not_your_turn"
    s = game([L0, L1], "N3")
    assert illegal(s, 0, Take(5)) == "bad_position"


def test_replace_is_private_and_clears_others_knowledge():
    s = game([L0, L1], "N1", pile=("N3", "N0", "N7"))
    s, _ = play(s, 0, "take 2", "end")  # N1 at seat 0 position 2, public
    assert s.known[1][0][1] == "N1"
    s, _ = play(s, 1, "draw", "discard", "end")  # seat 1 throws the N3 away
    s, events = play(s, 0, "draw")
    assert [(e.code, e.to, e.p) for e in events] == [
        ("drew", None, {"seat": 0, "in_draw2": False}),
        ("drew_card", (0,), {"seat": 0, "card": "N0"}),
    ]
    assert ENGINE.view(s, 0).held == "N0" and ENGINE.view(s, 1).held is None
    assert ENGINE.view(s, None).holding is True
    s, events = play(s, 0, "replace 2")
    assert [(e.code, e.to, e.p) for e in events] == [
        ("replaced", None, {"seat": 0, "pos": 2, "removed": "N1"}),
        ("replaced_card", (0,), {"seat": 0, "pos": 2, "card": "N0"}),
    ]
    assert kinds(s.layouts[0]) == ("N9", "N0", "N6", "N2") and KIND[s.discard[-1]] == "N1"
    assert s.known[0][0][1] == "N0" and s.known[1][0][1] is None


def test_special_cannot_be_placed_and_decline_by_discard():
    s = game([L0, L1], "N1", pile=("SWAP",))
    s, _ = play(s, 0, "draw")
    assert illegal(s, 0, Replace(1)) == "special_cannot_be_placed"
    assert illegal(s, 0, Peek(1)) == "wrong_card"
    legal = ENGINE.legal_actions(s, 0)
    assert Discard() in legal and all(isinstance(a, Swap | Discard) for a in legal)
    assert len(legal) == 4 * 4 + 1
    s, events = play(s, 0, "discard")
    assert codes(events) == ["discarded"] and events[0]["card"] == "SWAP"
    assert s.phase == "turn_end"


# ---------------------------------------------------------------------------------------------
# specials


def test_peek_is_private_to_the_peeker():
    s = game([L0, L1], "N1", pile=("PEEK",))
    s, _ = play(s, 0, "draw")
    assert illegal(s, 0, Peek(0)) == "bad_position"
    s, events = play(s, 0, "peek 2")
    assert [(e.code, e.to, e.p) for e in events] == [
        ("peeked", None, {"seat": 0, "pos": 2}),
        ("peeked_card", (0,), {"seat": 0, "pos": 2, "card": "N5"}),
    ]
    assert s.known[0][0] == ("N9", "N5", None, "N2") and s.known[1][0] == (None,) * 4
    assert KIND[s.discard[-1]] == "PEEK" and s.phase == "turn_end"


def test_swap_moves_cards_and_knowledge():
    s = game([L0, L1], "N1", pile=("SWAP", "SWAP"))
    s, _ = play(s, 0, "draw")
    assert illegal(s, 0, Swap(1, 0, 2)) == "own_seat"
    assert illegal(s, 0, Swap(1, 5, 2)) == "bad_seat"
    assert illegal(s, 0, Swap(1, 1, 9)) == "bad_position"
    s, events = play(s, 0, "swap 1 seat1 4")
    assert [(e.code, e.to, e.p) for e in events] == [
        ("swapped", None, {"seat": 0, "pos": 1, "other_seat": 1, "other_pos": 4})
    ]
    assert kinds(s.layouts[0]) == ("N8", "N5", "N6", "N2")
    assert kinds(s.layouts[1]) == ("N1", "N3", "N4", "N9")
    # seat 0 knew its N9, which is now seat 1's position 4; seat 1 knew its N8, now seat 0's position 1
    assert s.known[0][0][0] is None and s.known[0][1][3] == "N9"
    assert s.known[1][0][0] == "N8" and s.known[1][1][3] is None
    assert KIND[s.discard[-1]] == "SWAP"


# ---------------------------------------------------------------------------------------------
# Draw 2


def test_draw2_chain_with_a_second_draw2_m1():
    s = game([L0, L1], "N1", pile=("DRAW2", "N7", "DRAW2", "N8", "N9", "N0"))
    s, events = play(s, 0, "draw", "draw2")
    assert codes(events) == ["drew", "drew_card", "draw2_used", "drew", "drew_card"]
    assert events[3]["in_draw2"] is True and events[4]["card"] == "N7"
    v = ENGINE.view(s, None)
    assert v.draw2_active and v.draw2_left == 1 and v.phase == "holding"
    s, _ = play(s, 0, "discard")
    assert s.phase == "draw2_next" and ENGINE.legal_actions(s, 0) == (Next(), Stop())
    s, _ = play(s, 0, "next")
    assert ENGINE.view(s, 0).held == "DRAW2" and s.draw2_left == 0
    s, _ = play(s, 0, "draw2")  # a fresh Draw 2: one automatic draw plus one more
    assert ENGINE.view(s, 0).held == "N8" and s.draw2_left == 1
    s, _ = play(s, 0, "discard", "next")
    assert ENGINE.view(s, 0).held == "N9" and s.draw2_left == 0
    s, _ = play(s, 0, "discard")
    assert s.phase == "turn_end"
    assert kinds(s.discard) == ("N1", "DRAW2", "N7", "DRAW2", "N8", "N9")


def test_draw2_stop_and_placing_ends_it():
    s = game([L0, L1], "N1", pile=("DRAW2", "N7", "DRAW2", "N0", "N5"))
    s, events = play(s, 0, "draw", "draw2", "discard", "stop")
    assert codes(events)[-2:] == ["discarded", "draw2_stopped"]
    assert find(events, "draw2_stopped")[0].p == {"seat": 0}
    assert s.phase == "turn_end" and not ENGINE.view(s, None).draw2_active
    s, _ = play(s, 0, "end")
    s, _ = play(s, 1, "draw", "draw2", "replace 3")  # placing the first Draw-2 card loses the second
    assert s.phase == "turn_end" and kinds(s.layouts[1])[2] == "N0" and s.draw2_left == 0


@pytest.mark.parametrize(("mode", "phase"), [("ends", "turn_end"), ("continues", "draw2_next")])
def test_draw2_after_power(mode, phase):
    s = game([L0, L1], "N1", pile=("DRAW2", "PEEK", "N0"), draw2_after_power=mode)
    s, _ = play(s, 0, "draw", "draw2", "peek 3")
    assert s.phase == phase
    if mode == "continues":
        s, _ = play(s, 0, "next", "replace 1")
        assert kinds(s.layouts[0])[0] == "N0" and s.phase == "turn_end"


# ---------------------------------------------------------------------------------------------
# knocking and the last lap


def test_knock_and_last_lap_two_seats():
    s = game([L0, L1], "N1", rounds=1)
    s, events = play(s, 0, "take 1", "knock")
    assert [(e.code, e.p) for e in events[1:]] == [
        ("knocked", {"seat": 0, "forced": False, "last_lap": 1}),
        ("turn_ended", {"seat": 0, "next_seat": 1}),
    ]
    assert ENGINE.view(s, None).knocker == 0 and ENGINE.view(s, None).last_lap_left == 1
    assert illegal(s, 1, Knock()) == "already_knocked"
    s, events = play(s, 1, "take 2")  # takes the N9 into position 2
    assert codes(events) == ["took_discard", "turn_ended", "revealed", "round_scored", "game_over"]
    assert find(events, "revealed")[0]["layouts"] == (("N1", "N5", "N6", "N2"), ("N1", "N9", "N4", "N8"))
    assert find(events, "round_scored")[0].p == {"round": 1, "scores": (14, 22), "totals": (14, 22)}
    assert find(events, "game_over")[0].p == {"totals": (14, 22), "ranks": (1, 2), "winners": (0,)}
    assert ENGINE.to_act(s) == () and ENGINE.legal_actions(s, 0) == ()
    assert illegal(s, 0, Draw()) == "game_over"
    v = ENGINE.view(s, None)
    assert v.revealed and v.phase == "over" and v.turn is None and v.layouts[1][1] == "N9"


def test_last_lap_four_seats():
    lays = [L0, L1, ("N2", "N2", "N2", "N3"), ("N4", "N4", "N5", "N5")]
    s = game(lays, "N0", rounds=1)
    s, _ = play(s, 0, "draw", "discard", "end")
    s, events = play(s, 1, "draw", "discard", "knock")
    assert find(events, "knocked")[0].p == {"seat": 1, "forced": False, "last_lap": 3}
    order = []
    while ENGINE.to_act(s):
        seat = ENGINE.to_act(s)[0]
        order.append(seat)
        assert seat != 1
        assert illegal(s, seat, Knock()) == "already_knocked"
        s, events = play(s, seat, "draw", "discard")  # no turn_end decision in the last lap
        assert "turn_ended" in codes(events)
    assert order == [2, 3, 0]
    assert ENGINE.outcome(s) is not None


def test_knock_too_early_with_full_lap_option():
    s = game([L0, L1], "N1", knock_after_full_lap=True)
    assert illegal(s, 0, Knock()) == "knock_too_early"
    s, events = play(s, 0, "take 1")  # no decision: the engine ends the turn
    assert codes(events) == ["took_discard", "turn_ended"] and ENGINE.to_act(s) == (1,)
    assert illegal(s, 1, Knock()) == "wrong_phase"  # allowed at the end of this turn, not before
    s, _ = play(s, 1, "take 1")
    assert s.phase == "turn_end" and Knock() in ENGINE.legal_actions(s, 1)
    s = game([L0, L1], "N1")
    assert illegal(s, 0, Knock()) == "wrong_phase"
    s, _ = play(s, 0, "take 1")
    assert Knock() in ENGINE.legal_actions(s, 0)  # M16: knock after the first turn


def test_round_turn_cap_forces_a_knock():
    s = game([L0, L1], "N1", round_turn_cap=4, rounds=1)
    s, _ = play(s, 0, "take 1", "end")
    s, _ = play(s, 1, "take 1", "end")
    s, _ = play(s, 0, "take 1", "end")
    s, events = play(s, 1, "take 1")
    assert find(events, "knocked")[0].p == {"seat": 1, "forced": True, "last_lap": 1}
    assert ENGINE.to_act(s) == (0,) and s.phase == "start"
    s, events = play(s, 0, "draw", "discard")
    assert "game_over" in codes(events)


# ---------------------------------------------------------------------------------------------
# reshuffle


def with_empty_pile(state):
    """Move the whole draw pile under the discard pile (the top card stays on top)."""
    return dataclasses.replace(state, draw_pile=(), discard=(*state.draw_pile, *state.discard))


def test_reshuffle_happens_only_when_a_card_must_be_drawn():
    s = game([L0, L1], "N1")
    s = dataclasses.replace(s, draw_pile=s.draw_pile[:1], discard=(*s.draw_pile[1:], *s.discard))
    s, events = play(s, 0, "draw", "discard", "end")
    assert "reshuffled" not in codes(events) and s.draw_pile == ()
    s, events = play(s, 1, "draw")
    assert codes(events)[0] == "reshuffled"


@pytest.mark.parametrize("mode", ["all", "keep_top"])
def test_reshuffle_modes(mode):
    s = with_empty_pile(game([L0, L1], "N1", reshuffle=mode))
    top = s.discard[-1]
    s, events = play(s, 0, "draw")
    ev = find(events, "reshuffled")[0]
    assert codes(events) == ["reshuffled", "drew", "drew_card"]
    assert ev["draw_pile"] == 57 and ev["discard_size"] == 1
    assert len(s.draw_pile) == 56 and len(s.discard) == 1
    if mode == "keep_top":
        assert s.discard == (top,) and ev["discard_top"] == "N1"
    else:
        assert ev["discard_top"] == KIND[s.discard[-1]]
    assert sorted((*s.draw_pile, *s.discard, s.held, *s.layouts[0], *s.layouts[1])) == sorted(CANONICAL_DECK)


@pytest.mark.parametrize("initial", ["leave", "redraw"])
def test_reshuffle_all_turns_a_top_card_and_applies_initial_special_discard(initial):
    tops = []
    redrawn = []
    for g in range(25):
        s = game([L0, L1], "N1", initial_special_discard=initial, reshuffle="all")
        s = dataclasses.replace(with_empty_pile(s), seed=f"r{g}")
        s, events = play(s, 0, "draw")
        ev = find(events, "reshuffled")[0]
        tops.append(ev["discard_top"])
        redrawn.extend(ev["redrawn"])
    if initial == "redraw":
        assert all(t.startswith("N") for t in tops) and redrawn
    else:
        assert any(not t.startswith("N") for t in tops) and not redrawn


def test_initial_special_discard_at_the_deal():
    s = game([L0, L1], "SWAP", pile=("N3", "N4"), initial_special_discard="redraw")
    assert kinds(s.discard) == ("N3",) and "SWAP.1" in s.draw_pile
    s = game([L0, L1], "SWAP", pile=("N3", "N4"))
    assert kinds(s.discard) == ("SWAP",)


# ---------------------------------------------------------------------------------------------
# end of round, scoring, next round, end of game


def test_end_of_round_special_replacement_order_m21_m22():
    lays = [("N1", "PEEK", "N2", "N3"), ("SWAP", "N0", "N0", "DRAW2")]
    s = game(lays, "N4", pile=("SWAP", "N5", "PEEK", "N6", "N7", "N8"), start=1, rounds=1)
    s, _ = play(s, 1, "take 2", "knock")  # the N0 goes to the discard
    s, events = play(s, 0, "take 3")
    replaced = [e.p for e in find(events, "special_replaced")]
    assert replaced == [
        {"seat": 1, "pos": 1, "removed": "SWAP", "drawn": ("SWAP", "N5")},
        {"seat": 1, "pos": 4, "removed": "DRAW2", "drawn": ("PEEK", "N6")},
        {"seat": 0, "pos": 2, "removed": "PEEK", "drawn": ("N7",)},
    ]
    assert find(events, "revealed")[0]["layouts"] == (
        ("N1", "PEEK", "N0", "N3"),
        ("SWAP", "N4", "N0", "DRAW2"),
    )
    assert find(events, "round_scored")[0]["scores"] == (11, 15)
    # drawn specials go to the discard pile first, the replaced special after the number is placed
    assert kinds(s.discard) == ("N2", "SWAP", "SWAP", "PEEK", "DRAW2", "PEEK")
    assert ENGINE.outcome(s).ranks == (1, 2)


@pytest.mark.parametrize(("mode", "start2"), [("knocker", 2), ("rotate", 1)])
def test_scoring_over_rounds_and_next_round_start(mode, start2):
    lays = [L0, L1, ("N2", "N2", "N2", "N3")]
    r2 = deck_for(
        [("N0", "N0", "N0", "N0"), ("N1", "N1", "N1", "N1"), ("N2", "N5", "N3", "N3")], "N9", start=start2
    )
    s = game(lays, "N1", later=[r2], rounds=2, next_round_start=mode)
    s, _ = play(s, 0, "draw", "discard", "end")
    s, _ = play(s, 1, "draw", "discard", "end")
    s, _ = play(s, 2, "draw", "discard", "knock")
    s, _ = play(s, 0, "draw", "discard")
    s, events = play(s, 1, "draw", "discard")
    assert find(events, "round_scored")[0].p == {"round": 1, "scores": (22, 16, 9), "totals": (22, 16, 9)}
    assert find(events, "round_started")[0]["start_seat"] == start2
    assert s.round == 2 and s.turn == start2 and s.knocker is None and s.turns_taken == 0
    seat = start2
    s, _ = play(s, seat, "draw", "discard", "knock")
    for _ in range(2):
        seat = (seat + 1) % 3
        s, events = play(s, seat, "draw", "discard")
    assert find(events, "round_scored")[0].p == {"round": 2, "scores": (0, 4, 13), "totals": (22, 20, 22)}
    assert find(events, "game_over")[0].p == {"totals": (22, 20, 22), "ranks": (2, 1, 2), "winners": (1,)}
    assert ENGINE.view(s, None).round_scores == ((22, 16, 9), (0, 4, 13))


@pytest.mark.parametrize(("mode", "ranks"), [("shared", (1, 1, 3)), ("last_round", (2, 1, 3))])
def test_tiebreak(mode, ranks):
    s = ENGINE.new_game(3, "t", MajavajengiOptions(tiebreak=mode, rounds=2))
    s = dataclasses.replace(s, phase="over", round_scores=((10, 12, 20), (10, 8, 9)), totals=(20, 20, 29))
    out = ENGINE.outcome(s)
    assert out.ranks == ranks and out.low_wins and out.scores == (20, 20, 29)


# ---------------------------------------------------------------------------------------------
# views, notation, persistence


def test_views_public_and_private():
    s = game([L0, L1], "N1", pile=("N0",))
    s, _ = play(s, 0, "take 2", "end")
    s, _ = play(s, 1, "draw")
    pub = ENGINE.view(s, None)
    assert type(pub) is MajavajengiView and not hasattr(pub, "known") and not hasattr(pub, "held")
    assert pub.layouts == ((None,) * 4,) * 2 and pub.discard_top == "N5" and pub.draw_pile == 56
    assert pub.holding and pub.phase == "holding" and pub.turn == 1 and pub.discard_size == 1
    mine = ENGINE.view(s, 1)
    other = ENGINE.view(s, 0)
    assert isinstance(mine, MajavajengiSeatView) and mine.held == "N0" and other.held is None
    assert mine.known == ((None, "N1", None, None), ("N1", None, None, "N8"))
    assert other.known == (("N9", "N1", None, "N2"), (None,) * 4)
    assert not mine.options.memory_aid
    for seat in (None, 0, 1):
        text = json.dumps(ENGINE.dump(ENGINE.view(s, seat)))
        for token in ENGINE.hidden_tokens(s, seat):
            assert token not in text
    assert s.held in ENGINE.hidden_tokens(s, 0) and s.held not in ENGINE.hidden_tokens(s, 1)


def test_notation_round_trip_and_bad_notation():
    actions = [
        Take(1),
        Draw(),
        Replace(4),
        Discard(),
        Peek(2),
        Swap(1, 2, 3),
        Draw2(),
        Next(),
        Stop(),
        Knock(),
        End(),
    ]
    texts = [ENGINE.notation(a) for a in actions]
    assert texts == [
        "take 1",
        "draw",
        "replace 4",
        "discard",
        "peek 2",
        "swap 1 seat2 3",
        "draw2",
        "next",
        "stop",
        "knock",
        "end",
    ]
    assert [ENGINE.parse_notation(t) for t in texts] == actions
    for bad in ["", "take", "swap 1 2 3", "swap 1 seat2", "fly", "take x", "draw 2", "take -1"]:
        with pytest.raises(BadNotation):
            ENGINE.parse_notation(bad)


def test_dump_load_round_trip_keeps_preset_decks():
    s = game([L0, L1], "N1", later=[deck_for([L1, L0], "N2")], rounds=3)
    s, _ = play(s, 0, "take 1")
    data = json.loads(json.dumps(ENGINE.dump(s)))
    assert ENGINE.load(data) == s and len(s.preset_decks) == 2


# ---------------------------------------------------------------------------------------------
# random playouts and the AI


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize(
    "opts",
    [
        {},
        {
            "knock_after_full_lap": True,
            "reshuffle": "keep_top",
            "initial_special_discard": "redraw",
            "draw2_after_power": "continues",
        },
    ],
)
def test_random_games_end_without_a_turn_cap(players, opts):
    options = MajavajengiOptions(round_turn_cap=0, **opts)
    for g in range(5):
        state, _log = play_ai_game(ENGINE, ("random",) * players, f"rr:{g}", options)
        assert ENGINE.outcome(state) is not None and len(state.round_scores) == 6


def test_legal_actions_agree_with_the_rules_in_every_state():
    """The legal actions are kept per situation (rules.legality_key): in every state of these games,
    and in the states next to it that differ in one thing a rule reads (the discard pile's top, the
    held card, the knocker and the turns taken, the knock option), they must be the candidates that
    refusal lets pass, and check must agree."""
    from engines.majavajengi import rules

    def agree(state):
        for s in range(state.players):
            expected = tuple(a for a in rules.candidates(state, s) if rules.refusal(state, s, a) is None)
            assert ENGINE.legal_actions(state, s) == expected, (state, s)
            for a in rules.candidates(state, state.turn):
                try:
                    ENGINE.check(state, s, a)
                    passed = True
                except IllegalAction:
                    passed = False
                assert passed == (a in expected), (state, s, a)

    def step(state, seat, action, events):
        agree(state)
        if state.phase == "over":
            return
        for card in ("N5.1", "SWAP.1", "PEEK.1", "DRAW2.1"):
            agree(dataclasses.replace(state, discard=(*state.discard, card)))
            if state.held is not None:
                agree(dataclasses.replace(state, held=card))
        agree(dataclasses.replace(state, discard=()))
        agree(
            dataclasses.replace(
                state, knocker=None if state.knocker is not None else (seat + 1) % state.players
            )
        )
        agree(dataclasses.replace(state, turns_taken=0))
        options = dataclasses.replace(
            state.options, knock_after_full_lap=not state.options.knock_after_full_lap
        )
        agree(dataclasses.replace(state, options=options))

    for players in (2, 3, 5):
        for g in range(2):
            opts = MajavajengiOptions(rounds=2, knock_after_full_lap=g == 1)
            st, _log = play_ai_game(
                ENGINE, ("random", "smart", "strong", "easy", "random")[:players], f"legal{g}", opts, step
            )
            assert ENGINE.outcome(st) is not None


def test_smart_games_end_with_every_player_count():
    for players in range(2, 7):
        state, _ = play_ai_game(ENGINE, ("smart",) * players, f"ss:{players}")
        assert ENGINE.outcome(state) is not None


def unknown_cards(state, seat):
    """(zone, seat, index) of cards whose identity ``seat`` does not know."""
    out = [("pile", None, i) for i in range(len(state.draw_pile))]
    for k in range(state.players):
        for m in range(4):
            if state.known[seat][k][m] is None:
                out.append(("layout", k, m))
    return out


def swap_cards(state, a, b):
    pile = list(state.draw_pile)
    layouts = [list(r) for r in state.layouts]

    def get(z):
        return pile[z[2]] if z[0] == "pile" else layouts[z[1]][z[2]]

    def put(z, card):
        if z[0] == "pile":
            pile[z[2]] = card
        else:
            layouts[z[1]][z[2]] = card

    ca, cb = get(a), get(b)
    put(a, cb)
    put(b, ca)
    return dataclasses.replace(state, draw_pile=tuple(pile), layouts=tuple(tuple(r) for r in layouts))


def test_ai_is_a_function_of_its_view():
    checked = 0
    for g in range(6):
        state = ENGINE.new_game(3, f"ai:{g}")
        while ENGINE.outcome(state) is None and state.ply < 120:
            seat = ENGINE.to_act(state)[0]
            legal = ENGINE.legal_actions(state, seat)
            action = smart_policy(ENGINE.view(state, seat), legal, ENGINE.ai_rng(state, seat))
            hidden = unknown_cards(state, seat)
            rng = rng_for(f"pick:{g}", state.ply, "x")
            for _ in range(3):
                a, b = rng.sample(hidden, 2)
                other = swap_cards(state, a, b)
                assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
                assert (
                    smart_policy(
                        ENGINE.view(other, seat),
                        ENGINE.legal_actions(other, seat),
                        ENGINE.ai_rng(other, seat),
                    )
                    == action
                )
                checked += 1
            state, _ = ENGINE.apply(state, seat, action)
    assert checked > 100


def test_smart_beats_random():
    result = simulate("majavajengi", 60, "quick", 2, ["smart", "random"])
    assert result["errors"] == 0
    assert result["win_rate"]["smart"] >= 0.8, result


@pytest.mark.slow
def test_smart_beats_random_over_500_games():
    result = simulate("majavajengi", 500, "1", 2, ["smart", "random"])
    assert result["errors"] == 0
    assert result["win_rate"]["smart"] >= 0.9, result
