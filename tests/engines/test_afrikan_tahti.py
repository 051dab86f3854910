"""Scenario tests for the Afrikan Tähti base game (spec shared/rules/afrikan_tahti/spec.md §3-4, 6-10),
with fixed token layouts and dice."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engines import GAMES
from engines.afrikan_tahti import ENGINE, ai, board
from engines.afrikan_tahti.board import CODE, LEGS, TREASURE_PLACES, land_paths
from engines.afrikan_tahti.model import (
    Board,
    EndPhase,
    Flip,
    FlipRoll,
    Fly,
    FreeSail,
    Move,
    Options,
    Pawn,
    Roll,
    Start,
    Stay,
    Voyage,
    content_id,
)
from engines.afrikan_tahti.retkikunnat import cards, content
from engines.codec import BadNotation
from engines.contract import IllegalAction, rng_for
from engines.playout import play_ai_game, replay
from engines.simulate import simulate
from tests.engines.afrikan_tahti_helpers import codes, first, idle, legal, play, refused

BASE = Options(expansion=False)  # these are the base game's scenarios (expansion=True is the default)


def new(*at, cash=None, dice=(), layout=None, players=None, **options):
    """A game at seat 0's first declaration, pawns on ``at`` (node ids or Pawn values)."""
    n = players or max(2, len(at))
    st = ENGINE.new_game(
        n,
        "test",
        Options(expansion=False, start_place="random", **options),
        layout=layout or {},
        first_seat=0,
        dice=dice,
    )
    pawns = list(st.pawns)
    for s in range(n):
        where = at[s] if s < len(at) else "cairo"
        pawn = where if isinstance(where, Pawn) else Pawn(node=where)
        if cash is not None:
            pawn = replace(pawn, cash=cash[s] if isinstance(cash, tuple) else cash)
        pawns[s] = pawn
    return replace(st, pawns=tuple(pawns), phase="release" if pawns[0].captured else "declare")


def c(node):
    return CODE[node]


def tid_at(state, place):
    return state.stacks[TREASURE_PLACES.index(place)][-1]


# ---------------------------------------------------------------------------------------------
# Setup (spec §3.1-3.2)


def test_setup_start_choice_in_seat_order_then_rolloff_starter():
    st = ENGINE.new_game(3, "setup", BASE, first_seat=2)
    assert st.phase == "setup" and ENGINE.to_act(st) == (0,)
    assert legal(st, 0) == {"start cairo", "start tangier"}
    assert refused(st, 1, "start cairo") == "not_your_turn"
    st, _ = play(st, 0, "start tangier")
    st, _ = play(st, 1, "start cairo")
    st, evs = play(st, 2, "start cairo")
    assert st.phase == "declare" and st.turn == 2 and st.round == 1
    assert codes(evs) == ["start_chosen", "turn"]
    assert [p.node for p in st.pawns] == ["tangier", "cairo", "cairo"]
    assert all(p.cash == 300 for p in st.pawns)


def test_rolloff_rerolls_ties_and_start_events_show_only_token_ids():
    for seed in range(20):
        st = ENGINE.new_game(6, f"r{seed}", BASE)
        evs = ENGINE.start_events(st)
        rolls = [e for e in evs if e.code == "rolloff"]
        assert rolls and all(e.public for e in evs)
        last = rolls[-1]
        top = max(last["rolls"])
        assert last["rolls"].count(top) == 1
        assert first(evs, "first_player")["seat"] == last["seats"][last["rolls"].index(top)]
        assert st.first_seat == first(evs, "first_player")["seat"]
        placed = first(evs, "tokens_placed")
        assert placed["places"] == TREASURE_PLACES and len(set(placed["tokens"])) == 30
        text = json.dumps([e.params for e in evs])
        assert not any(t in text for t in ENGINE.hidden_tokens(st, None))


def test_random_start_places_and_token_mix():
    st = ENGINE.new_game(4, "rs", Options(expansion=False, start_place="random"))
    assert st.phase == "declare" and all(p.node in ("cairo", "tangier") for p in st.pawns)
    kinds = sorted(k for _t, k in st.contents)
    assert kinds == sorted(board.BASE_TOKENS)
    assert [len(s) for s in st.stacks] == [1] * 30


def test_layout_preset_fixes_tokens_and_replays():
    st = ENGINE.new_game(2, "lay", BASE, layout={"sahara": "star", "egypt": "robber"}, first_seat=1)
    kind = dict(st.contents)
    assert kind[tid_at(st, "sahara")] == "star" and kind[tid_at(st, "egypt")] == "robber"
    assert sorted(kind.values()) == sorted(board.BASE_TOKENS)
    with pytest.raises(ValueError):
        ENGINE.new_game(2, "lay", BASE, layout={"sahara": "star", "egypt": "star"})
    with pytest.raises(ValueError):
        ENGINE.new_game(2, "lay", BASE, layout={"cairo": "ruby"})


# ---------------------------------------------------------------------------------------------
# Land movement (§4.2-4.3)


def test_land_move_stops_on_any_place_dots_only_at_the_exact_count():
    st = new("dar_fur", dice=(6,))
    st, evs = play(st, 0, "roll")
    assert first(evs, "rolled")["die"] == 6 and st.phase == "move"
    options = legal(st)
    # places at any distance up to 6, dots only at exactly 6 (bedouins at 6 steps toward Sahara)
    for place in ("bahr_el_ghasal", "egypt", "suakin", "ain_galaka", "lake_victoria", "kandjama"):
        assert f"move {place}" in options
    assert "move p0" in options and "move p72" not in options  # p72 is 5 steps away
    assert "move dar_fur" in options  # a zero-step move
    assert refused(st, 0, "move p72") == "not_reachable"
    # two paths with different places lead to p23: via picks one
    assert {"move p23", "move p23 via ain_galaka"} <= options
    assert refused(st, 0, "move p23 via egypt") == "not_on_path"
    st, evs = play(st, 0, "move lake_victoria")
    assert st.pawns[0].node == "lake_victoria"
    moved = first(evs, "moved")
    assert (
        moved["path"]
        == (
            "l_bahr_el_ghasal__dar_fur_1",
            "bahr_el_ghasal",
            "l_bahr_el_ghasal__lake_victoria_1",
            "lake_victoria",
        )
        and moved["steps"] == 4
    )
    assert st.phase == "after_move"  # a face-down token here and 300 cash


def test_via_is_only_for_places_that_tell_paths_apart():
    st = play(new("dar_fur", dice=(6,)), 0, "roll")[0]
    assert "move lake_victoria via bahr_el_ghasal" not in legal(st)
    assert refused(st, 0, "move lake_victoria via bahr_el_ghasal") == "via_not_needed"
    _, evs = play(st, 0, "move p23 via ain_galaka")
    assert "ain_galaka" in first(evs, "moved")["path"]
    _, evs = play(st, 0, "move p23")  # the canonical path: shortest, then by node ids
    paths = land_paths("dar_fur", 6, frozenset({"dar_fur"}), frozenset(), False)[board.node_of("p23")]
    assert len(paths) == 2 and first(evs, "moved")["path"] == paths[0]


def test_no_turning_back_within_a_move_but_next_move_may_go_back():
    paths = land_paths("egypt", 6, frozenset({"egypt"}), frozenset(), False)
    assert "egypt" not in paths  # out and back is never a path
    for ps in paths.values():
        for p in ps:
            assert len(set(p)) == len(p) and "egypt" not in p
    # a pawn that ended on a route dot may go back the way it came on its next move (edge 18)
    st = play(new("egypt", dice=(2, 2)), 0, "roll", "move p28")[0]
    assert st.pawns[0].node == "l_cairo__egypt_2"
    st = play(st, 1, "stay")[0]
    st, _ = play(st, 0, "roll")
    assert "move egypt" in legal(st)


def test_dot_with_no_onward_step_ends_the_move_early_m4():
    # a land move from Capetown: only the road to Whalefish Bay, 4 steps
    st = play(new("capetown", dice=(6,)), 0, "roll")[0]
    assert "move whalefish_bay" in legal(st)
    assert refused(st, 0, "move p48") == "not_reachable"


def test_single_possible_ending_is_applied_without_a_decision():
    # Canary Islands has no land edges; broke, the roll can only end where the pawn stands
    st = new("canary_islands", cash=0, dice=(5,))
    st, evs = play(st, 0, "roll")
    assert st.turn == 1 and st.phase == "declare" and st.pawns[0].node == "canary_islands"
    assert codes(evs) == ["rolled", "turn"]


def test_moves_only_in_the_move_phase_and_only_by_the_active_seat():
    st = new("egypt", dice=(3,))
    assert refused(st, 0, "move p27") == "wrong_phase"
    assert refused(st, 1, "roll") == "not_your_turn"
    assert ENGINE.legal_actions(st, 1) == ()


# ---------------------------------------------------------------------------------------------
# Sea movement (§4.4)


def test_board_pays_the_fare_rolls_and_continues_later_without_a_new_fare():
    st = new("cairo", dice=(2, 5))
    assert {"board suakin", "board tripoli", "board tunis"} <= legal(st)
    st, evs = play(st, 0, "board suakin")
    assert codes(evs)[:3] == ["rolled", "boarded", "sailed"]
    assert first(evs, "boarded")["fare"] == 100
    p = st.pawns[0]
    assert (
        p.cash == 200
        and p.node == "s_cairo__suakin_2"
        and p.voyage == Voyage("sea:cairo:suakin", "cairo", "suakin", 2, True)
    )
    st = play(st, 1, "stay")[0]
    # mid-voyage: no flight, no boarding, no flip, no free passage (S5)
    assert legal(st) == {"roll", "stay"}
    assert refused(st, 0, "fly suakin") == "at_sea"
    assert refused(st, 0, "free_sail suakin") == "paid_voyage"
    st, evs = play(st, 0, "roll")
    p = st.pawns[0]
    assert p.node == "suakin" and p.voyage is None and p.cash == 200
    # 5 rolled, 2 steps used: the paid voyage may go on by land or on a new leg (S7)
    assert st.phase == "move" and st.move.steps == 3 and st.move.arrived == "sea"
    options = legal(st)
    assert "move suakin" in options and "board cape_guardafui" in options
    assert any(o.startswith("move p") for o in options)
    assert "board cairo" not in options  # back along the visited leg (M2)
    st, evs = play(st, 0, "move suakin")
    assert st.phase == "after_move"


def test_land_to_sea_in_the_same_move_and_its_option():
    st = play(new("egypt", dice=(6,)), 0, "roll")[0]
    st, _ = play(st, 0, "move cairo")
    # reached a port with 2 steps left and money for the fare: the move stays open (S6)
    assert st.phase == "move" and st.pawns[0].node == "cairo" and st.move.steps == 2
    assert {"move cairo", "board suakin", "board tripoli", "board tunis"} <= legal(st)
    st, _ = play(st, 0, "board tunis")
    assert st.pawns[0].node == "s_cairo__j_sea_cairo_tunis_tripoli_2" and st.pawns[0].cash == 200
    assert st.turn == 1
    # option off: entering the port ends the move
    st = play(new("egypt", dice=(6,), land_to_sea_same_move=False), 0, "roll")[0]
    st, _ = play(st, 0, "move cairo")
    assert st.turn == 1 and st.pawns[0].node == "cairo"
    # no money for the fare: the port is just a stop (edge 15)
    st = play(new("egypt", cash=0, dice=(6,)), 0, "roll")[0]
    st, _ = play(st, 0, "move cairo")
    assert st.turn == 1


def test_sea_to_land_option_off_ends_the_voyage_at_the_port():
    st = new(
        Pawn("s_cairo__suakin_3", voyage=Voyage("sea:cairo:suakin", "cairo", "suakin", 3, True)),
        dice=(6,),
        sea_to_land_same_move=False,
    )
    st, _ = play(st, 0, "roll")
    assert st.pawns[0].node == "suakin" and st.phase == "after_move"
    st = new(
        Pawn("s_cairo__suakin_3", voyage=Voyage("sea:cairo:suakin", "cairo", "suakin", 3, True)), dice=(6,)
    )
    st, _ = play(st, 0, "roll")
    assert st.phase == "move" and st.move.steps == 5


def test_broke_player_gets_free_passage_two_steps_a_turn():
    st = new("cairo", cash=0)
    assert refused(st, 0, "board suakin") == "cannot_afford"
    assert "free_sail suakin" in legal(st)
    st, evs = play(st, 0, "free_sail suakin")
    assert "rolled" not in codes(evs)
    p = st.pawns[0]
    assert p.node == "s_cairo__suakin_2" and p.voyage.paid is False and p.cash == 0
    st = play(st, 1, "stay")[0]
    assert refused(st, 0, "roll") == "free_passage"
    assert refused(st, 0, "free_sail tripoli") == "wrong_destination"
    # money arriving in the middle of a free passage changes nothing (edge 12)
    st = replace(st, pawns=(replace(st.pawns[0], cash=500), st.pawns[1]))
    assert legal(st) == {"free_sail suakin", "stay"}
    st, evs = play(st, 0, "free_sail suakin")
    assert st.pawns[0].node == "suakin" and first(evs, "sailed")["steps"] == 2
    assert st.phase == "after_move"  # a stop like any other: the flip offer (cash 500 now)
    # 1 step to the port, 2 allowed: it stops there, no onward move (edge 13, S4)
    st = new(
        Pawn("s_cairo__suakin_3", cash=0, voyage=Voyage("sea:cairo:suakin", "cairo", "suakin", 3, False))
    )
    st, evs = play(st, 0, "free_sail suakin")
    assert st.pawns[0].node == "suakin" and first(evs, "sailed")["steps"] == 1 and st.turn == 1


def test_free_passage_only_when_broke_and_broke_sea_steps_option():
    st = new("cairo", cash=100)
    assert refused(st, 0, "free_sail suakin") == "can_afford_fare"
    st = play(new("cairo", cash=0, broke_sea_steps=1), 0, "free_sail suakin")[0]
    assert st.pawns[0].node == "s_cairo__suakin_1"


def test_free_passage_from_a_place_without_a_leg_is_refused():
    st = new("egypt", cash=0)
    assert refused(st, 0, "free_sail suakin") == "not_a_port"
    st = new("cairo", cash=0)
    assert refused(st, 0, "free_sail capetown") == "no_such_leg"


# ---------------------------------------------------------------------------------------------
# Air (§4.5)


def test_flying_costs_300_from_an_airport_and_counts_as_a_stop():
    st = new("cairo", layout={"suakin": "topaz"})
    assert {o for o in legal(st) if o.startswith("fly")} == {"fly suakin"}
    st, evs = play(st, 0, "fly suakin")
    assert st.pawns[0].node == "suakin" and st.pawns[0].cash == 0
    assert first(evs, "flew")["fare"] == 300
    assert st.turn == 1  # no cash left for the flip
    st = new("cairo", cash=200)
    assert refused(st, 0, "fly suakin") == "cannot_afford"
    st = new("egypt", cash=1000)
    assert refused(st, 0, "fly suakin") == "not_an_airport"
    st = new("cairo", cash=1000)
    assert refused(st, 0, "fly capetown") == "no_such_route"
    st, _ = play(st, 0, "fly suakin")
    assert st.phase == "after_move"


# ---------------------------------------------------------------------------------------------
# Flipping (§4.6) and token effects (§4.7)


def test_pay_to_flip_without_moving_or_roll_for_it():
    st = new("egypt", layout={"egypt": "ruby"}, dice=(3, 5))
    assert {"flip", "flip_roll"} <= legal(st)
    st2, evs = play(st, 0, "flip")
    assert codes(evs)[:2] == ["flipped", "gem"] and st2.pawns[0].cash == 300 - 100 + 1000
    assert st2.turn == 1
    st3, evs = play(st, 0, "flip_roll")  # a 3 does nothing
    assert "flip_failed" in codes(evs) and st3.pawns[0].cash == 300 and st3.turn == 1
    st4 = play(st3, 1, "stay")[0]
    st4, evs = play(st4, 0, "flip_roll")  # a 5 flips it free
    assert first(evs, "flipped")["paid"] == 0 and st4.pawns[0].cash == 1300


def test_flip_roll_only_when_broke_option_and_refusals():
    st = new("egypt", layout={"egypt": "ruby"}, flip_roll_only_when_broke=True)
    assert refused(st, 0, "flip_roll") == "can_afford_flip"
    st = new("egypt", cash=0, layout={"egypt": "ruby"}, flip_roll_only_when_broke=True)
    assert "flip_roll" in legal(st) and refused(st, 0, "flip") == "cannot_afford"
    st = new("cairo")
    assert refused(st, 0, "flip") == "no_token" and refused(st, 0, "flip_roll") == "no_token"


def test_flip_after_the_move_is_optional():
    st = play(
        new("dar_fur", dice=(2,), layout={"bahr_el_ghasal": "topaz"}), 0, "roll", "move bahr_el_ghasal"
    )[0]
    assert legal(st) == {"flip", "end_phase"}
    st2, _ = play(st, 0, "flip")
    assert st2.pawns[0].cash == 500 and st2.turn == 1
    st3, _ = play(st, 0, "end_phase")
    assert st3.turn == 1 and st3.pawns[0].cash == 300
    assert tid_at(st3, "bahr_el_ghasal") is not None
    # broke: no offer, the turn just ends
    st = play(new("dar_fur", cash=0, dice=(2,)), 0, "roll", "move bahr_el_ghasal")[0]
    assert st.turn == 1


@pytest.mark.parametrize(
    ("kind", "place", "value", "emerald"),
    [
        ("ruby", "egypt", 1000, 600),
        ("emerald", "egypt", 600, 600),
        ("emerald", "egypt", 500, 500),
        ("topaz", "egypt", 300, 600),
        ("ruby", "gold_coast", 2000, 600),
        ("emerald", "gold_coast", 1200, 600),
        ("topaz", "gold_coast", 600, 600),
    ],
)
def test_gems_pay_and_gold_coast_doubles(kind, place, value, emerald):
    st = new(place, layout={place: kind}, emerald_value=emerald)
    st, evs = play(st, 0, "flip")
    gem = first(evs, "gem")
    assert gem["amount"] == value and gem["doubled"] == (place == "gold_coast")
    assert st.pawns[0].cash == 300 - 100 + value


def test_robber_takes_only_cash_not_the_star():
    star = Pawn("egypt", cash=900, items=("t99",))
    st = new(star, layout={"egypt": "robber"})
    st = replace(st, contents=(*st.contents, ("t99", "star")), star_found=True)
    st, evs = play(st, 0, "flip")
    assert first(evs, "robbed")["lost"] == 800
    assert st.pawns[0].cash == 0 and st.pawns[0].items == ("t99",)


def test_star_then_horseshoes_are_winning_items_but_not_before():
    st = new("egypt", "sahara", layout={"egypt": "horseshoe", "sahara": "star", "suakin": "horseshoe"})
    st, evs = play(st, 0, "flip")
    assert "horseshoe_worthless" in codes(evs) and st.pawns[0].items == ()
    st, evs = play(st, 1, "flip")
    assert "star_found" in codes(evs) and st.star_found
    star_tid = st.pawns[1].items[0]
    view = ENGINE.view(st, None)
    assert view.star_holder == 1 and view.pawns[1].items == (content_id(star_tid, "star"),)
    st = replace(st, pawns=(replace(st.pawns[0], node="suakin"), st.pawns[1]))
    st, evs = play(st, 0, "flip")
    assert "horseshoe_kept" in codes(evs) and len(st.pawns[0].items) == 1


def test_blank_does_nothing_but_costs_three_turns_at_slave_coast():
    st, evs = play(new("egypt", layout={"egypt": "blank"}), 0, "flip")
    assert "blank" in codes(evs) and st.pawns[0].lost_turns == 0
    st, evs = play(new("slave_coast", layout={"slave_coast": "blank"}), 0, "flip")
    lost = first(evs, "turns_lost")
    assert lost["turns"] == 3 and lost["reason"] == "slave_coast"
    # seat 1 plays; seat 0's next three turns are skipped
    for expected_left in (2, 1, 0):
        st, evs = play(st, 1, "stay")
        assert first(evs, "turn_lost")["pending"] == expected_left and st.turn == 1
    st, evs = play(st, 1, "stay")
    assert st.turn == 0 and st.phase == "declare"


def test_revealed_token_is_public_and_leaves_the_board():
    st = new("egypt", layout={"egypt": "topaz"})
    tid = tid_at(st, "egypt")
    hidden = content_id(tid, "topaz")
    assert hidden in ENGINE.hidden_tokens(st, 0)
    assert hidden not in json.dumps(ENGINE.dump(ENGINE.view(st, 0)))
    st, evs = play(st, 0, "flip")
    assert all(e.public for e in evs)
    view = ENGINE.view(st, None)
    assert ("egypt", hidden) in view.revealed and ("egypt", tid) not in view.face_down
    assert hidden not in ENGINE.hidden_tokens(st, None)
    assert len(view.face_down) + len(view.revealed) == 30


# ---------------------------------------------------------------------------------------------
# Special places (§4.8) and hazards (§4.9)


def test_capetown_bonus_once_to_the_first_arrival():
    st = play(new("whalefish_bay", "whalefish_bay", dice=(4, 4)), 0, "roll", "move capetown")[0]
    assert st.pawns[0].cash == 800 and st.capetown_claimed == 0
    st = play(st, 0, "end_phase")[0]
    st, evs = play(st, 1, "roll", "move capetown")
    assert "capetown_bonus" not in codes(evs) and st.pawns[1].cash == 300
    # by air too, and the option sets the amount (0 = none)
    st, evs = play(new("st_helena", cash=300, capetown_bonus=1000), 0, "fly capetown")
    assert first(evs, "capetown_bonus")["amount"] == 1000
    st, evs = play(new("st_helena", cash=300, capetown_bonus=0), 0, "fly capetown")
    assert "capetown_bonus" not in codes(evs) and st.capetown_claimed is None


def test_bedouins_capture_at_the_end_of_a_move_only():
    st = play(new("sahara", dice=(2,)), 0, "roll")[0]
    assert "move p0" in legal(st)
    st, evs = play(st, 0, "move p0")
    assert first(evs, "captured")["hazard"] == "bedouins" and st.pawns[0].captured
    # passing over the dot does nothing
    st = play(new("sahara", dice=(6,)), 0, "roll")[0]
    st, evs = play(st, 0, "move p69")
    assert "hz_bedouins_sahara" in first(evs, "moved")["path"] and "captured" not in codes(evs)


def test_release_roll_and_its_faces_option():
    captured = Pawn("hz_bedouins_sahara", captured=True)
    st = new(captured, dice=(3,))
    assert st.phase == "release" and legal(st) == {"roll"}
    assert refused(st, 0, "stay") == "wrong_phase"
    st, evs = play(st, 0, "roll")
    assert "still_captured" in codes(evs) and st.pawns[0].captured and st.turn == 1
    st = new(captured, dice=(2,))
    st, evs = play(st, 0, "roll")
    assert "released" in codes(evs) and not st.pawns[0].captured
    assert st.pawns[0].node == "hz_bedouins_sahara" and st.turn == 1
    # staying on the dot after release does not capture again (H4)
    st = play(st, 1, "stay")[0]
    st, evs = play(st, 0, "stay")
    assert not st.pawns[0].captured
    st = new(captured, dice=(6,), hazard_release_faces=(5, 6))
    st, evs = play(st, 0, "roll")
    assert "released" in codes(evs)


def test_lost_turns_are_served_before_the_release_roll():
    st = new("egypt", Pawn("hz_bedouins_sahara", captured=True, lost_turns=1))
    st, evs = play(st, 0, "stay")
    assert codes(evs) == ["stayed", "turn_lost", "turn"] and st.turn == 0
    st, evs = play(st, 0, "stay")
    assert st.turn == 1 and st.phase == "release"


def test_pirates_capture_at_sea_and_pass_through_option():
    st, evs = play(new("st_helena", dice=(1,)), 0, "board capetown")
    assert first(evs, "captured")["hazard"] == "pirates"
    assert st.pawns[0].node == "hz_pirates_st_helena_south" and st.pawns[0].captured
    assert st.pawns[0].voyage is not None  # still on its voyage (§10)
    st, _ = play(new("st_helena", dice=(3,)), 0, "board capetown")
    assert not st.pawns[0].captured
    st, _ = play(new("st_helena", dice=(3,), hazard_trigger="pass_through"), 0, "board capetown")
    assert st.pawns[0].node == "hz_pirates_st_helena_south" and st.pawns[0].captured
    # pass_through on land: the bedouin dot is a stop at any distance
    st = play(new("sahara", dice=(5,), hazard_trigger="pass_through"), 0, "roll")[0]
    assert "move p0" in legal(st) and "move p71" not in legal(st) and "move p73" not in legal(st)


def test_released_pawn_continues_its_voyage():
    pawn = Pawn(
        "hz_pirates_st_helena_south",
        captured=True,
        voyage=Voyage("sea:capetown:st_helena", "st_helena", "capetown", 1, True),
    )
    st = new(pawn, dice=(1, 6))
    st = play(st, 0, "roll")[0]
    st = play(st, 1, "stay")[0]
    st, _ = play(st, 0, "roll")
    assert st.pawns[0].node == "s_j_sea_whalefishbay_capetown_sthelena__st_helena_1"
    assert not st.pawns[0].captured and st.pawns[0].voyage.at == 7


# ---------------------------------------------------------------------------------------------
# Winning (§4.10)


def holder(node, cash=300, kind="star"):
    return Pawn(node, cash=cash, items=("t99",)), kind


def with_item(*at, kind="star", **kw):
    st = new(*at, **kw)
    return replace(st, contents=(*st.contents, ("t99", kind)), star_found=True)


def test_entering_a_goal_with_the_star_ends_the_move_and_wins():
    st = with_item(Pawn("morocco", items=("t99",)), dice=(5,))
    st = play(st, 0, "roll")[0]
    options = legal(st)
    assert "move tangier" in options
    # nothing beyond Tangier: the move would end there (M6, edge 1)
    assert "move p110" not in options and "move p108" not in options
    st, evs = play(st, 0, "move tangier")
    won = first(evs, "won")
    assert won["goal"] == "tangier" and won["item"] == "star" and codes(evs)[-1] == "game_over"
    out = ENGINE.outcome(st)
    assert out.winners == (0,) and out.ranks == (1, 2)
    assert ENGINE.to_act(st) == () and ENGINE.legal_actions(st, 0) == ()
    assert refused(st, 0, "stay") == "game_over"


def test_without_a_winning_item_a_goal_is_passed():
    st = play(new("morocco", dice=(5,)), 0, "roll")[0]
    assert c("l_tangier__tunis_3") == "p110" and "move p110" in legal(st)


def test_win_by_sea_by_air_and_with_a_late_horseshoe():
    st = with_item(
        Pawn(
            "s_cairo__suakin_1", items=("t99",), voyage=Voyage("sea:cairo:suakin", "suakin", "cairo", 3, True)
        ),
        dice=(4,),
    )
    st, evs = play(st, 0, "roll")
    assert ENGINE.outcome(st).winners == (0,) and first(evs, "won")["goal"] == "cairo"
    st, evs = play(with_item(Pawn("suakin", items=("t99",))), 0, "fly cairo")
    assert first(evs, "won")["goal"] == "cairo"
    st, evs = play(with_item(Pawn("morocco", cash=300, items=("t99",)), kind="horseshoe"), 0, "fly tangier")
    assert first(evs, "won")["item"] == "horseshoe"


def test_outcome_ranks_the_rest_by_cash():
    st = with_item(
        Pawn("suakin", cash=300, items=("t99",)),
        Pawn("egypt", cash=700),
        Pawn("egypt", cash=700),
        Pawn("egypt", cash=100),
    )
    st, _ = play(st, 0, "fly cairo")
    out = ENGINE.outcome(st)
    assert out.ranks == (1, 2, 2, 4) and out.scores == (0, 700, 700, 100) and out.winners == (0,)


def test_round_limit_ends_the_game_item_holders_first():
    st = with_item("egypt", Pawn("sahara", cash=0, items=("t99",)), "egypt", max_rounds=1)
    st = replace(st, pawns=(replace(st.pawns[0], cash=900), st.pawns[1], st.pawns[2]))
    for seat in range(3):
        st, evs = play(st, seat, "stay")
    assert st.phase == "over" and st.end_reason == "round_limit"
    assert first(evs, "game_over")["reason"] == "round_limit"
    out = ENGINE.outcome(st)
    assert out.ranks == (2, 1, 3) and out.winners == (1,)


# ---------------------------------------------------------------------------------------------
# Options, notation, views, persistence


def test_options_are_validated_and_normalized():
    for bad in (
        {"expansion": "yes"},
        {"emerald_value": 700},
        {"broke_sea_steps": 3},
        {"hazard_trigger": "never"},
        {"hazard_release_faces": ()},
        {"hazard_release_faces": (0,)},
        {"start_place": "x"},
        {"capetown_bonus": 50},
        {"max_rounds": -1},
    ):
        with pytest.raises(ValueError):
            ENGINE.new_game(2, "o", Options(**bad))
    with pytest.raises(ValueError):
        ENGINE.options_from_dict({"mode": "base"})
    st = ENGINE.new_game(2, "o", ENGINE.options_from_dict({"hazard_release_faces": [2, 1, 2]}))
    assert st.options.hazard_release_faces == (1, 2)
    with pytest.raises(ValueError):
        ENGINE.new_game(1, "o")


def test_notation_round_trip_short_codes_and_full_ids():
    for text in (
        "roll",
        "stay",
        "flip",
        "flip_roll",
        "end_phase",
        "start cairo",
        "board suakin",
        "free_sail tunis",
        "fly capetown",
        "move egypt",
        "move p23 via ain_galaka",
        "move p0",
    ):
        assert ENGINE.notation(ENGINE.parse_notation(text)) == text
    assert ENGINE.parse_notation("move l_cairo__egypt_1") == Move("l_cairo__egypt_1")
    assert ENGINE.notation(Move("l_cairo__egypt_1")) == f"move {c('l_cairo__egypt_1')}"
    for bad in ("", "jump", "move", "move nowhere", "fly p3", "board", "move egypt over sahara", "start"):
        with pytest.raises(BadNotation):
            ENGINE.parse_notation(bad)
    longest = max((f"move {c(n)} via {p}" for n in board.NODES for p in board.PLACES), key=len)
    assert len(longest.encode()) <= 45
    actions = (
        Roll(),
        Stay(),
        Flip(),
        FlipRoll(),
        EndPhase(),
        Start("tangier"),
        Board("tunis"),
        FreeSail("cairo"),
        Fly("tangier"),
        Move("egypt", "sahara"),
    )
    for a in actions:
        assert ENGINE.parse_notation(ENGINE.notation(a)) == a


def test_views_public_and_seat_are_the_same_table():
    st = new("egypt", "sahara")
    pub, mine = ENGINE.view(st, None), ENGINE.view(st, 0)
    assert replace(mine, seat=None) == pub
    assert pub.pawns[0].node == "egypt" and pub.pawns[1].cash == 300
    assert len(pub.face_down) == 30 and pub.revealed == () and pub.to_act == (0,)
    assert ENGINE.hidden_tokens(st, 0) == ENGINE.hidden_tokens(st, None)


def test_dump_load_and_replay_with_presets():
    st = ENGINE.new_game(3, "dl", BASE, layout={"egypt": "star"}, first_seat=1, dice=(6, 1, 2))
    log = []
    state = st
    rng = random.Random(5)
    for _ in range(60):
        if ENGINE.outcome(state) is not None:
            break
        seat = ENGINE.to_act(state)[0]
        action = rng.choice(ENGINE.legal_actions(state, seat))
        state, _ = ENGINE.apply(state, seat, action)
        log.append((seat, ENGINE.notation(action)))
        assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))) == state
    again = ENGINE.new_game(3, "dl", BASE, layout={"egypt": "star"}, first_seat=1, dice=(6, 1, 2))
    for seat, text in log:
        again, _ = ENGINE.apply(again, seat, ENGINE.parse_notation(text))
    assert again == state


def test_idle_actions_follow_the_spec_table():
    st = new("dar_fur", dice=(6,))
    assert idle(st, 0) == Stay()
    st = play(st, 0, "roll")[0]
    assert idle(st, 0) == Move("dar_fur")
    st = play(new("egypt", dice=(1, 1)), 0, "roll", "move p64")[0]  # onto a dot toward Dar-Fur
    st = play(st, 1, "stay")[0]
    st = play(st, 0, "roll")[0]
    assert idle(st, 0) == Move("egypt")
    # no place within reach: the exact allowance toward the nearest place
    st = play(new(Pawn(board.node_of("p70")), dice=(1,)), 0, "roll")[0]
    assert legal(st) == {"move p69", "move p71"}
    assert idle(st, 0) == Move(board.node_of("p69"))
    st = play(new("dar_fur", dice=(2,)), 0, "roll", "move bahr_el_ghasal")[0]
    assert idle(st, 0) == EndPhase()
    assert idle(st, 1) is None


# ---------------------------------------------------------------------------------------------
# Invariants over random play (§10), AIs


def check_invariants(st):
    down = [t for s in st.stacks for t in s]
    held = [t for p in st.pawns for t in p.items]
    assert len(down) + len(st.revealed) == 30 and len(set(down)) == len(down)
    assert set(held) <= {t for t, _ in st.revealed}
    kinds = dict(st.contents)
    assert sum(1 for t in held if kinds[t] == "star") <= 1
    for p in st.pawns:
        assert p.cash >= 0 and p.cash % 100 == 0
        if p.node is not None:
            assert (p.node in board.SEA_DOTS) == (p.voyage is not None)
            if p.voyage is not None:
                leg = LEGS[(p.voyage.origin, p.voyage.dest)]
                assert leg.path[p.voyage.at] == p.node


@pytest.mark.parametrize("players", [2, 4, 6])
def test_invariants_hold_in_random_play(players):
    for g in range(3):

        def step(state, seat, action, events):
            check_invariants(state)
            if state.phase not in ("over", "setup"):
                assert ENGINE.legal_actions(state, ENGINE.to_act(state)[0])

        st, _log = play_ai_game(ENGINE, ("random",) * players, f"inv{players}:{g}", BASE, step)
        assert ENGINE.outcome(st) is not None


def test_legal_actions_and_check_agree_with_the_rules_in_every_state():
    """The legal actions are kept per situation (base.legal_actions) and check passes an action it
    offered without asking again: in every state of these games, and in the states next to it that
    differ in one thing a rule reads (the purse below and above each price, a winning item held or
    not, a flip this turn or not, a paid voyage or a free one, each rule option), both must say what the rules (candidates
    filtered by refusal) say, for the offered objects and for equal new ones."""
    from engines.afrikan_tahti.base import rules as base

    option_sets = [
        BASE,
        replace(BASE, land_to_sea_same_move=False),
        replace(BASE, sea_to_land_same_move=False),
        replace(BASE, hazard_trigger="pass_through"),
        replace(BASE, flip_roll_only_when_broke=True),
    ]

    def agree(state):
        for s in ENGINE.to_act(state):
            expected = []
            for a in base.candidates(state, s):
                try:
                    if base.refusal(state, s, a) is None:
                        expected.append(a)
                except IllegalAction:
                    pass
            offered = ENGINE.legal_actions(state, s)
            assert offered == tuple(expected), (state, s)
            for a in (*base.candidates(state, s), *(replace(a) for a in base.candidates(state, s))):
                assert ENGINE.is_legal(state, s, a) == (a in expected), (state, s, a)
            other = (s + 1) % state.players
            assert ENGINE.legal_actions(state, other) == ()
            assert all(not ENGINE.is_legal(state, other, a) for a in offered)

    def step(state, seat, action, events):
        agree(state)
        if state.phase in ("over", "setup"):
            return
        s = state.turn
        pawn = state.pawns[s]
        for cash in (0, 100, 200, 300):
            for items in ((), ("t1",)):
                changed = replace(pawn, cash=cash, items=items)
                pawns = (*state.pawns[:s], changed, *state.pawns[s + 1 :])
                for flipped in (False, True):
                    agree(replace(state, pawns=pawns, flipped=flipped))
        for options in option_sets:
            agree(replace(state, options=options))
        if pawn.voyage is not None:
            paid = replace(pawn, voyage=replace(pawn.voyage, paid=not pawn.voyage.paid))
            agree(replace(state, pawns=(*state.pawns[:s], paid, *state.pawns[s + 1 :])))

    for players in (2, 3):
        for g in range(2):
            seats = ("random", "smart", "strong")[:players]
            st, _log = play_ai_game(ENGINE, seats, f"legal{players}:{g}", option_sets[g + players - 2], step)
            assert ENGINE.outcome(st) is not None


def test_random_games_end_with_pass_through_and_one_step_free_passage():
    opts = Options(
        expansion=False,
        hazard_trigger="pass_through",
        broke_sea_steps=1,
        land_to_sea_same_move=False,
        sea_to_land_same_move=False,
        flip_roll_only_when_broke=True,
        start_place="random",
    )
    for g in range(3):
        st, log = play_ai_game(ENGINE, ("random", "smart", "random"), f"opt{g}", opts)
        assert ENGINE.outcome(st) is not None
        assert replay(ENGINE, 3, f"opt{g}", opts, log) == st


def test_smart_ai_flips_heads_home_and_uses_only_its_view():
    view_state = new("egypt", layout={"egypt": "topaz"})
    view = ENGINE.view(view_state, 0)
    assert ai.smart_policy(view, ENGINE.legal_actions(view_state, 0), random.Random(1)) == Flip()
    st = with_item(Pawn("suakin", cash=300, items=("t99",)))
    assert ai.smart_policy(ENGINE.view(st, 0), ENGINE.legal_actions(st, 0), random.Random(1)) == Fly("cairo")
    st = play(with_item(Pawn("egypt", cash=0, items=("t99",)), dice=(6,)), 0, "roll")[0]
    assert ai.smart_policy(ENGINE.view(st, 0), ENGINE.legal_actions(st, 0), random.Random(1)) == Move("cairo")


def test_smart_beats_random():
    result = simulate("afrikan_tahti", 40, "ai-test", 2, ["smart", "random"], {"expansion": False})
    assert result["errors"] == 0 and result["win_rate"]["smart"] >= 0.8


def test_registered_and_deterministic():
    assert GAMES["afrikan_tahti"] is ENGINE
    a = play_ai_game(ENGINE, ("smart", "random"), "det")
    b = play_ai_game(ENGINE, ("smart", "random"), "det")
    assert a == b


def test_rng_is_the_only_randomness():
    st = new("egypt")
    d1 = play(st, 0, "roll")[1]
    assert first(d1, "rolled")["die"] == rng_for("test", 1, "d61").randint(1, 6)


def test_deck_draws_and_reshuffles():
    rng = random.Random(3)
    deck = cards.shuffled("event", content.EVENT_CARDS, rng)
    assert (
        len(content.EVENT_CARDS) == 59
        and len(content.EXPEDITION_CARDS) == 55
        and len(content.DANGER_CARDS) == 42
    )
    deck, card, re = cards.draw(deck, rng)
    assert card is not None and not re and len(deck.draw) == 58
    deck = cards.discard(replace(deck, draw=()), card)
    deck, again, re = cards.draw(deck, rng)
    assert again == card and re and deck.discard == ()
    assert cards.draw(deck, rng)[1] is None
    assert cards.card_id("sabotage#3") == "sabotage"


def test_an_action_the_base_game_offers_is_the_same_object_whenever_offered():
    """Actions are values, and the base game makes each one it offers once (issue #28): an equal
    action offered in another state, turn or game is the same object, so that its notation and its
    pass through check are known by identity. Over whole games of every phase: the start, the
    declaration on land and at sea, the move menu with its vias and boardings, the flip after it."""
    from engines.afrikan_tahti.base import rules as base

    first_seen: dict[object, object] = {}
    offered = 0

    def step(state, seat, action, events):
        nonlocal offered
        for s in ENGINE.to_act(state):
            for a in (*ENGINE.legal_actions(state, s), *base.candidates(state, s)):
                assert first_seen.setdefault(a, a) is a, a
                offered += 1

    kinds = set()
    for g in range(3):
        _final, log = play_ai_game(ENGINE, ("random", "smart", "random"), f"k:same:{g}", BASE, step)
        kinds |= {text.split()[0] for _seat, text in log}
    assert {"start", "roll", "move", "stay", "free_sail", "board"} <= kinds and offered > 1000
    assert any(type(a).__name__ == "Move" and a.via is not None for a in first_seen)


@pytest.mark.parametrize(
    "engine", [ENGINE, ENGINE.for_game(ENGINE.new_game(2, "k:x", BASE))], ids=["rules", "base"]
)
def test_an_offered_action_is_refused_to_a_seat_that_is_not_the_very_seat_int(engine):
    """apply passes an action legal_actions offered for this very state without checking it again,
    only for the seat to act given as an int (issue #28): the same seat as a float, a bool or a
    string, or another seat, is refused with a reason and changes nothing."""
    state = engine.new_game(2, "k:seat-types", BASE)
    for _ in range(6):
        turn = state.turn
        offered = engine.legal_actions(state, turn)
        for seat in (float(turn), bool(turn), str(turn), 1 - turn, None):
            with pytest.raises(IllegalAction):
                engine.apply(state, seat, offered[0])
        assert engine.legal_actions(state, turn) == offered
        state, _events = engine.apply(state, turn, offered[0])
