"""Scenario tests for Coloretto Amazonas with fixed decks (spec rules/coloretto_amazonas.md §1-7)."""

from __future__ import annotations

import dataclasses
import json
from itertools import chain

import pytest

from engines.codec import BadNotation
from engines.coloretto_amazonas import ENGINE
from engines.coloretto_amazonas.ai import smart_policy
from engines.coloretto_amazonas.model import (
    CANONICAL_DECK,
    GIFT,
    KINDS,
    OVER,
    ROW_INDEX,
    TURN,
    Accept,
    Give,
    Options,
    Play,
    PrivateView,
    PublicView,
    Refuse,
)
from engines.contract import IllegalAction
from engines.playout import play_ai_game, replay
from engines.simulate import simulate

E = ENGINE


# ---------------------------------------------------------------------------------------------
# helpers


def game(*hands, draws=(), seed="t", **options):
    """A game with start seat 0, the given 3-card hands (kinds) and then ``draws`` on the pile."""
    players = len(hands)
    deck = [hands[s][i] for i in range(3) for s in range(players)]
    return E.new_game(players, seed, Options(start_player="seat0", **options), deck=[*deck, *draws])


def table(state, seat, rows=None, stacks=(), bonuses=()):
    """Put rows (colour -> kinds), completed stacks (colours) and bonus cards before ``seat``."""
    used = set(state.deck) | set(state.discard)
    for s in state.seats:
        used |= {*s.hand, *chain(*s.rows), *chain(*s.stacks)}

    def fresh(kind):
        card = next(f"{kind}.{i}" for i in range(1, 6) if f"{kind}.{i}" not in used)
        used.add(card)
        return card

    me = state.seats[seat]
    new_rows = list(me.rows)
    for colour, kinds in (rows or {}).items():
        new_rows[ROW_INDEX[colour]] = tuple(fresh(k) for k in kinds)
    new_stacks = me.stacks + tuple(tuple(fresh(k) for k in KINDS if k[0] == c) for c in stacks)
    me = dataclasses.replace(me, rows=tuple(new_rows), stacks=new_stacks, bonuses=me.bonuses + tuple(bonuses))
    seats = list(state.seats)
    seats[seat] = me
    return dataclasses.replace(state, seats=tuple(seats))


def kinds(row):
    return [c[:2] for c in row]


def hand(state, seat):
    return sorted(c[:2] for c in state.seats[seat].hand)


def codes(events):
    return [e.code for e in events]


def do(state, seat, text):
    return E.apply(state, seat, E.parse_notation(text))


def reason(state, seat, text):
    with pytest.raises(IllegalAction) as err:
        E.apply(state, seat, E.parse_notation(text))
    return err.value.code


# ---------------------------------------------------------------------------------------------
# setup and options


def test_setup_deals_three_cards_clockwise_from_the_start_seat():
    deck = [*KINDS[:9], *CANONICAL_DECK[60:70]]
    s = E.new_game(3, "x", Options(start_player="seat1"), deck=deck)
    assert s.start_seat == s.active == 1 and s.phase == TURN
    # seat 1 draws first, then 2, then 0, three passes round
    assert hand(s, 1) == sorted([KINDS[0], KINDS[3], KINDS[6]])
    assert hand(s, 2) == sorted([KINDS[1], KINDS[4], KINDS[7]])
    assert hand(s, 0) == sorted([KINDS[2], KINDS[5], KINDS[8]])
    assert len(s.deck) == 10 and s.protection is None and s.protection_mode == "receiver"
    assert all(r == () for seat in s.seats for r in seat.rows)


def test_default_game_uses_the_full_shuffled_deck_and_random_start():
    s = E.new_game(4, "seed-a")
    assert len(s.deck) == 90 - 12
    cards = set(s.deck) | {c for seat in s.seats for c in seat.hand}
    assert cards == set(CANONICAL_DECK)
    assert s == E.new_game(4, "seed-a")
    starts = {E.new_game(4, f"s{i}").start_seat for i in range(40)}
    assert starts == {0, 1, 2, 3}
    assert E.new_game(2, "seed-a").deck != s.deck


def test_options_defaults_and_resolution():
    o = Options()
    assert o.score_table == (0, 1, 3, 6, 10, 15, 21) and o.bonus_values == (5, 4, 3, 6)
    assert (o.protection_mode, o.deck_end, o.stacks_to_end, o.tiebreak, o.start_player) == (
        "receiver",
        "last_draw",
        "auto",
        "shared",
        "random",
    )
    assert [E.new_game(n, "x").stacks_to_end for n in (2, 3, 4)] == [3, 3, 2]
    assert E.new_game(4, "x", Options(stacks_to_end=5)).stacks_to_end == 5
    # the protection card is removed with two seats whatever the option says
    assert E.new_game(2, "x", Options(protection_mode="receiver")).protection_mode == "off"
    assert E.new_game(3, "x", Options(protection_mode="refuser")).protection_mode == "refuser"
    assert E.new_game(3, "x", Options(start_player="host")).start_seat == 0


def test_options_from_plain_data_and_validation():
    o = E.options_from_dict(
        {"score_table": [0, 1, 2, 3, 4, 5, 6], "bonus_values": {"B": 1, "P": 2, "R": 3, "G": 4}}
    )
    assert o.score_table == (0, 1, 2, 3, 4, 5, 6) and o.bonus_values == (1, 2, 3, 4)
    assert E.load(json.loads(json.dumps(E.dump(E.new_game(2, "x", o))))).options == o
    for bad in (
        {"score_table": [0, 1, 3]},
        {"score_table": [0, 3, 1, 6, 10, 15, 21]},
        {"bonus_values": [1, 2]},
        {"protection_mode": "x"},
        {"deck_end": "x"},
        {"stacks_to_end": 7},
        {"stacks_to_end": "many"},
        {"tiebreak": "x"},
        {"start_player": "me"},
    ):
        with pytest.raises(ValueError):
            E.options_from_dict(bad)
    with pytest.raises(ValueError):
        E.options_from_dict({"colour": 1})
    with pytest.raises(ValueError):
        E.new_game(2, "x", Options(start_player="seat3"))
    with pytest.raises(ValueError):
        E.new_game(5, "x")


def test_injected_decks_take_kinds_or_instance_ids():
    s = E.new_game(2, "x", Options(start_player="seat0"), deck=["B1", "B1.1", "B1", "P1", "P1", "P1", "G1"])
    # a bare kind gets the lowest copy number not named anywhere in the deck
    assert sorted(s.seats[0].hand) == ["B1.2", "B1.3", "P1.2"]
    assert sorted(s.seats[1].hand) == ["B1.1", "P1.1", "P1.3"]
    assert s.deck == ("G1.1",)
    with pytest.raises(ValueError):
        E.new_game(2, "x", deck=["B1"] * 6)
    with pytest.raises(ValueError):
        E.new_game(2, "x", deck=["B6"])
    with pytest.raises(ValueError):
        E.new_game(2, "x", deck=["B1.1", "B1.1"])


def test_start_events_are_public_with_each_hand_private():
    s = game(["G1", "B2", "P1"], ["R1", "R2", "R3"], draws=["G2"])
    events = E.start_events(s)
    public = [e for e in events if e.public]
    assert len(public) == 1 and public[0]["hand_sizes"] == (3, 3) and public[0]["start_seat"] == 0
    assert "hand" not in public[0].p
    private = {e.to: e for e in events if not e.public}
    assert [c[:2] for c in private[(0,)]["hand"]] == ["B2", "P1", "G1"]  # display order


# ---------------------------------------------------------------------------------------------
# action A: play


def test_play_adds_to_the_row_then_draws_and_passes():
    s = game(["G1", "B2", "P1"], ["R1", "R2", "R3"], draws=["G2", "G3", "G4"])
    assert E.to_act(s) == (0,)
    s2, events = do(s, 0, "play G1")
    assert kinds(s2.seats[0].rows[3]) == ["G1"]
    assert hand(s2, 0) == ["B2", "G2", "P1"]
    assert s2.active == 1 and E.to_act(s2) == (1,) and s2.ply == 1
    assert codes(events) == ["played", "placed", "drew", "drew"]
    assert events[1]["result"] == "added" and events[1]["count"] == 1
    drew_public, drew_private = events[2], events[3]
    assert drew_public.public and "card" not in drew_public.p and drew_public["deck_count"] == 2
    assert drew_private.to == (0,) and drew_private["kind"] == "G2"
    assert s2.seats[0].last_drawn == drew_private["card"]


def test_play_a_duplicate_discards_both_cards():
    s = table(game(["G1", "B2", "P1"], ["R1", "R2", "R3"], draws=["G2"] * 3), 0, {"G": ["G1", "G5"]})
    s, events = do(s, 0, "play G1")
    assert kinds(s.seats[0].rows[3]) == ["G5"]
    assert len(s.discard) == 2 and {c[:2] for c in s.discard} == {"G1"}
    assert codes(events)[:3] == ["played", "placed", "duplicate_discarded"]
    assert events[1]["result"] == "duplicate"
    assert E.view(s, None).discarded == ("G1", "G1")


def test_full_row_becomes_a_stack_and_takes_the_bonus_once():
    s = table(game(["R3", "B2", "P1"], ["R3", "R2", "R1"], draws=["G2"] * 5), 0, {"R": ["R1", "R2"]})
    s = table(s, 1, {"R": ["R1", "R2"]})
    s, events = do(s, 0, "play R3")
    assert s.seats[0].rows[ROW_INDEX["R"]] == ()
    assert [st[0][:1] for st in s.seats[0].stacks] == ["R"] and s.seats[0].bonuses == ("R",)
    assert codes(events)[:4] == ["played", "placed", "stack_completed", "bonus_taken"]
    assert events[2]["size"] == 3 and events[3]["points"] == 3
    # the other seat completes brown later: a stack, but the bonus is gone (C14)
    s, events = do(s, 1, "play R3")
    assert len(s.seats[1].stacks) == 1 and s.seats[1].bonuses == ()
    assert "bonus_taken" not in codes(events)
    assert E.view(s, None).bonuses_free == ("B", "P", "G")


def test_one_seat_takes_several_bonuses_and_a_second_stack_scores_without_bonus():
    s = table(
        game(["R3", "B5", "R3"], ["G1", "G2", "G3"], draws=["G4", "G5", "G6", "P2", "P3", "P4"]),
        0,
        {"R": ["R1", "R2"], "B": ["B1", "B2", "B3", "B4"]},
    )
    s, _ = do(s, 0, "play R3")
    s, _ = do(s, 1, "play G1")
    s, _ = do(s, 0, "play B5")
    assert s.seats[0].bonuses == ("R", "B")
    s = table(s, 0, {"R": ["R1", "R2"]})
    s, _ = do(s, 1, "play G2")
    s, _ = do(s, 0, "play R3")
    assert len(s.seats[0].stacks) == 3 and s.seats[0].bonuses == ("R", "B")
    assert s.phase == OVER and s.end_reason == "stacks" and s.ender == 0


def test_the_deciding_stack_ends_the_game_at_once_without_a_draw():
    s = table(
        game(["G6", "B2", "P1"], ["R1", "R2", "R3"], draws=["R1", "R2", "R3", "B3", "B4"]),
        0,
        {"G": ["G1", "G2", "G3", "G4", "G5"]},
        stacks=("B", "P"),
    )
    deck_before = len(s.deck)
    s, events = do(s, 0, "play G6")
    assert s.phase == OVER and E.to_act(s) == () and len(s.deck) == deck_before
    assert codes(events) == ["played", "placed", "stack_completed", "bonus_taken", "game_over"]
    over = events[-1]
    assert over["reason"] == "stacks" and over["seat"] == 0 and over["hand_sizes"] == (2, 3)
    assert E.outcome(s).winners == (0,)
    assert E.legal_actions(s, 0) == () and E.legal_actions(s, 1) == ()
    assert reason(s, 0, "play B2") == "game_over"


def test_four_players_end_at_the_second_stack_any_colours():
    hands = [["R3", "B2", "P1"], ["R1", "R2", "G1"], ["G2", "G3", "G4"], ["B1", "B3", "B4"]]
    s = table(game(*hands, draws=["P2"] * 5), 0, {"R": ["R1", "R2"]}, stacks=("R",))
    s, _ = do(s, 0, "play R3")
    assert s.phase == OVER and s.end_reason == "stacks"
    s = table(game(*hands, draws=["P2"] * 5, stacks_to_end=3), 0, {"R": ["R1", "R2"]}, stacks=("R",))
    s, _ = do(s, 0, "play R3")
    assert s.phase == TURN and s.active == 1


# ---------------------------------------------------------------------------------------------
# action B: give, accept, refuse


def test_a_gift_the_receiver_lacks_is_accepted_at_once():
    s = game(["G1", "B2", "P1"], ["R1", "R2", "R3"], draws=["G2", "G3"])
    s, events = do(s, 0, "give G1 seat1")
    assert codes(events) == ["gave", "gift_accepted", "placed", "drew", "drew"]
    assert events[0]["pending"] is False and events[1]["forced"] is True
    assert kinds(s.seats[1].rows[3]) == ["G1"] and hand(s, 0) == ["B2", "G2", "P1"]
    assert s.active == 1 and s.phase == TURN


def test_a_duplicate_gift_with_a_neighbour_card_asks_the_receiver():
    s = table(
        game(["R1", "B2", "P1"], ["B1", "B3", "B4"], draws=["G2", "G3"]),
        1,
        {"R": ["R1", "R2"], "P": ["P3"], "G": ["G1", "G4"]},
    )
    s, events = do(s, 0, "give R1 seat1")
    assert codes(events) == ["gave"] and events[0]["pending"] is True
    assert s.phase == GIFT and E.to_act(s) == (1,) and s.active == 0
    assert [E.notation(a) for a in E.legal_actions(s, 1)] == ["accept", "refuse P3", "refuse G1", "refuse G4"]
    assert E.legal_actions(s, 0) == ()
    assert reason(s, 0, "play B2") == "not_your_turn"
    assert reason(s, 1, "play B1") == "gift_pending"
    assert reason(s, 1, "give B1 seat0") == "gift_pending"
    gift = E.view(s, None).gift
    assert (gift.giver, gift.receiver, gift.kind) == (0, 1, "R1") and gift.choices[0] == "accept"
    # accept: both copies leave the brown row, then the giver draws and the receiver's turn begins
    a, events = do(s, 1, "accept")
    assert kinds(a.seats[1].rows[ROW_INDEX["R"]]) == ["R2"] and len(a.discard) == 2
    assert codes(events) == ["gift_accepted", "placed", "duplicate_discarded", "drew", "drew"]
    assert events[0]["forced"] is False and events[3]["seat"] == 0
    assert hand(a, 0) == ["B2", "G2", "P1"] and a.active == 1 and a.phase == TURN and a.gift is None
    # refuse: the gift and one neighbour card go, the copy in the row stays
    r, events = do(s, 1, "refuse G4")
    assert kinds(r.seats[1].rows[ROW_INDEX["R"]]) == ["R1", "R2"]
    assert kinds(r.seats[1].rows[ROW_INDEX["G"]]) == ["G1"]
    assert sorted(c[:2] for c in r.discard) == ["G4", "R1"]
    assert codes(events) == ["gift_refused", "drew", "drew"]
    assert (events[0]["kind"], events[0]["removed"], events[0]["colour"]) == ("R1", "G4", "G")
    assert hand(r, 0) == ["B2", "G2", "P1"] and r.active == 1 and r.phase == TURN
    # wrong refusals
    assert reason(s, 1, "refuse B1") == "not_neighbour"
    assert reason(s, 1, "refuse R2") == "not_neighbour"
    assert reason(s, 1, "refuse P1") == "not_in_row"


@pytest.mark.parametrize(
    ("given", "neighbour_rows", "legal_removals"),
    [
        ("B2", {"P": ["P1", "P2"], "R": ["R1"]}, ["P1", "P2"]),
        ("P2", {"B": ["B1"], "R": ["R3"], "G": ["G1"]}, ["B1", "R3"]),
        ("R2", {"P": ["P4"], "G": ["G6"], "B": ["B1"]}, ["P4", "G6"]),
        ("G2", {"R": ["R1", "R3"], "P": ["P1"]}, ["R1", "R3"]),
    ],
)
def test_refusal_removes_only_from_rows_next_to_the_gift(given, neighbour_rows, legal_removals):
    s = table(
        game([given, "B5", "P3"], ["G5", "B4", "B3"], draws=["G4"] * 3),
        1,
        {given[0]: [given], **neighbour_rows},
    )
    s, _ = do(s, 0, f"give {given} seat1")
    assert s.phase == GIFT
    expected = ["accept", *(f"refuse {k}" for k in legal_removals)]
    assert [E.notation(a) for a in E.legal_actions(s, 1)] == expected


def test_a_duplicate_gift_with_empty_neighbour_rows_must_be_accepted():
    s = table(
        game(["G1", "B2", "P1"], ["B1", "B3", "B4"], draws=["G2", "G3"]), 1, {"G": ["G1", "G2"], "P": ["P1"]}
    )  # green's only neighbour is brown, which is empty
    s, events = do(s, 0, "give G1 seat1")
    assert codes(events)[:4] == ["gave", "gift_accepted", "placed", "duplicate_discarded"]
    assert events[1]["forced"] is True
    assert kinds(s.seats[1].rows[3]) == ["G2"] and s.phase == TURN


def test_a_copy_only_in_a_stack_is_no_duplicate():
    s = table(game(["R1", "B2", "P1"], ["B1", "B3", "B4"], draws=["G2"]), 1, {"P": ["P1"]}, stacks=("R",))
    s, events = do(s, 0, "give R1 seat1")
    assert events[0]["pending"] is False
    assert kinds(s.seats[1].rows[ROW_INDEX["R"]]) == ["R1"]


def test_a_gift_that_completes_a_row_gives_the_bonus_and_may_end_the_game():
    s = table(
        game(["P4", "B2", "P1"], ["B1", "B3", "B4"], draws=["G2"] * 3),
        1,
        {"P": ["P1", "P2", "P3"]},
        stacks=("G", "G"),
    )
    deck_before = len(s.deck)
    s, events = do(s, 0, "give P4 seat1")
    assert codes(events) == ["gave", "gift_accepted", "placed", "stack_completed", "bonus_taken", "game_over"]
    assert s.seats[1].bonuses == ("P",) and s.phase == OVER and s.ender == 1
    assert len(s.deck) == deck_before and hand(s, 0) == ["B2", "P1"]  # the giver does not draw


def test_a_refusal_never_completes_a_row():
    s = table(
        game(["R1", "B2", "P1"], ["B1", "B3", "B4"], draws=["G2"] * 3),
        1,
        {"R": ["R1", "R2"], "P": ["P1", "P2", "P3"]},
    )
    s, _ = do(s, 0, "give R1 seat1")
    s, events = do(s, 1, "refuse P2")
    assert "stack_completed" not in codes(events) and s.seats[1].stacks == ()


def test_reason_codes_for_giving():
    s = game(["R1", "B2", "P1"], ["B1", "B3", "B4"], draws=["G2"] * 3)
    assert reason(s, 0, "give G1 seat1") == "not_in_hand"
    assert reason(s, 0, "play G1") == "not_in_hand"
    assert reason(s, 0, "give R1 seat0") == "give_self"
    assert reason(s, 0, "give R1 seat3") == "no_such_seat"
    assert reason(s, 1, "play B1") == "not_your_turn"
    assert reason(s, 0, "accept") == "no_gift"
    assert reason(s, 0, "refuse P1") == "no_gift"
    with pytest.raises(IllegalAction) as err:
        E.check(s, 0, "play R1")
    assert err.value.code == "unknown_action"


def test_refusal_reason_codes_in_a_gift_phase():
    # The engine never asks when refusal is impossible (C21); check() still names the reason.
    s = table(game(["R1", "B2", "P1"], ["B1", "B3", "B4"], draws=["G2"] * 3), 1, {"R": ["R1"], "P": ["P2"]})
    s, _ = do(s, 0, "give R1 seat1")
    assert s.phase == GIFT
    no_neighbour = dataclasses.replace(
        s, seats=(s.seats[0], dataclasses.replace(s.seats[1], rows=((), (), s.seats[1].rows[2], ())))
    )
    assert reason(no_neighbour, 1, "refuse P2") == "refuse_no_neighbour"
    no_duplicate = dataclasses.replace(
        s, seats=(s.seats[0], dataclasses.replace(s.seats[1], rows=((), s.seats[1].rows[1], (), ())))
    )
    assert reason(no_duplicate, 1, "refuse P2") == "refuse_no_duplicate"


# ---------------------------------------------------------------------------------------------
# the protection card


def three(**options):
    hands = [["G1", "B2", "P1"], ["R1", "R2", "R3"], ["B1", "B3", "B4"]]
    return game(*hands, draws=["G2", "G3", "G4", "G5", "G6", "P2"], **options)


def test_protection_goes_to_the_receiver_and_bars_gifts_to_it():
    s = three()
    assert s.protection is None  # nobody holds it before the first gift (C7)
    s, events = do(s, 0, "give G1 seat1")
    assert codes(events)[:2] == ["gave", "protection_moved"]
    assert events[1]["seat"] == 1 and events[1]["previous"] is None and s.protection == 1
    assert E.view(s, None).seats[1].protected and E.view(s, None).protection_holder == 1
    # the holder may give on its own turn (C9); with 3 seats the other seat is the only target (C10)
    assert [E.notation(a) for a in E.legal_actions(s, 1) if isinstance(a, Give) and a.kind == "R1"] == [
        "give R1 seat0",
        "give R1 seat2",
    ]
    s, _ = do(s, 1, "play R1")
    assert reason(s, 2, "give B1 seat1") == "protected"
    assert {a.to for a in E.legal_actions(s, 2) if isinstance(a, Give)} == {0}
    s, events = do(s, 2, "give B1 seat0")
    assert s.protection == 0 and events[1]["previous"] == 1


def test_receiver_keeps_protection_even_when_refusing():
    s = table(three(), 1, {"G": ["G1"], "R": ["R1"]})
    s, _ = do(s, 0, "give G1 seat1")
    assert s.phase == GIFT and s.protection == 1
    s, events = do(s, 1, "refuse R1")
    assert s.protection == 1 and "protection_moved" not in codes(events)


def test_refuser_mode_moves_protection_on_refusal_and_bars_duplicates_only():
    s = table(three(protection_mode="refuser"), 1, {"G": ["G1"], "R": ["R1"]})
    s, events = do(s, 0, "give G1 seat1")
    assert s.protection is None and "protection_moved" not in codes(events)
    s, events = do(s, 1, "refuse R1")
    assert s.protection == 1 and codes(events)[1] == "protection_moved"
    s = table(s, 1, {"B": ["B1"]})
    s, _ = do(s, 1, "play R2")
    assert reason(s, 2, "give B1 seat1") == "protected"  # B1 is already in seat 1's open row
    s, events = do(s, 2, "give B3 seat1")  # a new animal may be given
    assert events[0]["pending"] is False and s.protection == 1


def test_two_seats_play_without_protection():
    s = table(
        game(["G1", "B2", "P1"], ["R1", "R2", "R3"], draws=["G2"] * 4, protection_mode="receiver"), 0, {}
    )
    s, events = do(s, 0, "give G1 seat1")
    assert s.protection is None and "protection_moved" not in codes(events)
    s, _ = do(s, 1, "play R1")
    s, _ = do(s, 0, "give B2 seat1")  # giving to the same seat again is allowed


# ---------------------------------------------------------------------------------------------
# the end of the draw pile


def test_last_draw_ends_the_game_after_the_turn_that_takes_the_last_card():
    s = game(["G1", "B2", "P1"], ["R1", "R2", "R3"], draws=["G2", "G3"])
    s, _ = do(s, 0, "play G1")
    assert s.phase == TURN and len(s.deck) == 1
    s, events = do(s, 1, "play R1")
    assert s.phase == OVER and s.end_reason == "deck"
    assert codes(events)[-3:] == ["drew", "drew", "game_over"]
    assert events[-1]["hand_sizes"] == (3, 3)


def test_draw_fails_plays_one_more_turn_without_a_draw():
    s = game(["G1", "B2", "P1"], ["R1", "R2", "R3"], draws=["G2"], deck_end="draw_fails")
    s, _ = do(s, 0, "play G1")
    assert len(s.deck) == 0 and s.phase == TURN
    s, events = do(s, 1, "play R1")
    assert s.phase == OVER and s.end_reason == "deck" and codes(events)[-1] == "game_over"
    assert "drew" not in codes(events) and len(s.seats[1].hand) == 2


def test_hands_out_plays_the_hands_empty_skipping_empty_seats():
    s = game(["G1", "B2", "P1"], ["R1", "R2", "R3"], draws=["G2"], deck_end="hands_out")
    s, _ = do(s, 0, "play G1")  # draws the last card: 3 cards left in seat 0's hand
    for _ in range(3):
        s, _ = do(s, 1, f"play {hand(s, 1)[0]}")
        s, _ = do(s, 0, f"play {hand(s, 0)[0]}")
    assert len(s.seats[1].hand) == 0 and len(s.seats[0].hand) == 0 and s.phase == OVER
    assert s.end_reason == "hands"


def test_hands_out_skips_a_seat_whose_hand_is_empty():
    s = game(["G1", "B2", "P1"], ["R1", "R2", "R3"], deck_end="hands_out")
    s = dataclasses.replace(s, seats=(s.seats[0], dataclasses.replace(s.seats[1], hand=s.seats[1].hand[:1])))
    s, _ = do(s, 0, "play G1")
    s, _ = do(s, 1, "play R1")
    s, events = do(s, 0, "play B2")
    assert codes(events)[-1] == "skipped" and events[-1]["seat"] == 1 and s.active == 0
    s, events = do(s, 0, "play P1")
    assert s.phase == OVER and s.end_reason == "hands"


# ---------------------------------------------------------------------------------------------
# scoring and ranking


def test_scoring_example_from_the_spec_is_62():
    s = game(["G1", "B2", "P1"], ["R1", "R2", "R3"], draws=["G2"])
    s = table(
        s,
        0,
        {"B": ["B1", "B2"], "P": ["P1", "P2", "P3"], "R": ["R1"], "G": ["G1", "G2", "G3", "G4"]},
        stacks=("G", "B"),
        bonuses=("G",),
    )
    assert E.view(s, None).seats[0].score == 21 + 15 + 3 + 6 + 1 + 10 + 6 == 62


def test_score_table_and_bonus_values_are_options():
    s = game(
        ["G1", "B2", "P1"],
        ["R1", "R2", "R3"],
        draws=["G2"],
        score_table=(0, 2, 4, 6, 8, 10, 12),
        bonus_values=(1, 1, 1, 100),
    )
    s = table(s, 0, {"B": ["B1", "B2"]}, stacks=("G",), bonuses=("G",))
    assert E.view(s, None).seats[0].score == 4 + 12 + 100


def test_hands_score_nothing_and_ties_share_the_place():
    s = game(["G1", "B2", "P1"], ["R1", "R2", "R3"], draws=["G2", "G3"])
    s, _ = do(s, 0, "play G1")
    s, events = do(s, 1, "play R1")
    out = E.outcome(s)
    assert out.scores == (1, 1) and out.ranks == (1, 1) and out.winners == (0, 1)
    assert events[-1]["ranks"] == (1, 1)
    assert E.view(s, None).ranks == (1, 1)


def test_tiebreak_most_stacks_on_equal_totals():
    for tiebreak, ranks in (("shared", (1, 1)), ("most_stacks", (2, 1))):
        s = game(["G1", "B2", "P1"], ["R1", "R2", "R3"], draws=["G2", "G3"], tiebreak=tiebreak)
        s = table(s, 0, {"G": ["G1", "G2", "G3", "G4", "G5"]})  # 15 from an open row
        s = table(s, 1, stacks=("B",))  # 15 from a stack
        s, _ = do(s, 0, "play B2")  # 16
        s, _ = do(s, 1, "give R1 seat0")  # seat 0 gets a brown card: 17; the pile is used up
        assert s.phase == OVER and E.outcome(s).scores == (17, 15)
        tied = dataclasses.replace(s, seats=(table(s, 0, {"B": [], "R": []}).seats[0], s.seats[1]))
        assert E.outcome(tied).scores == (15, 15)
        assert E.outcome(tied).ranks == ranks


# ---------------------------------------------------------------------------------------------
# notation, views, persistence


def test_notation_round_trips_and_rejects_bad_text():
    for action, text in (
        (Play("G1"), "play G1"),
        (Give("B5", 3), "give B5 seat3"),
        (Accept(), "accept"),
        (Refuse("P4"), "refuse P4"),
    ):
        assert E.notation(action) == text and E.parse_notation(text) == action
        assert len(text.encode()) <= 45
    assert E.parse_notation("  PLAY g1 ") == Play("G1")
    for bad in (
        "",
        "play",
        "play G7",
        "play X1",
        "give G1",
        "give G1 seat9",
        "give G1 2",
        "accept G1",
        "refuse",
        "draw",
        "play G1 G2",
    ):
        with pytest.raises(BadNotation):
            E.parse_notation(bad)


def test_views_show_own_hand_only_and_the_pending_gift():
    s = table(game(["R1", "G2", "B2"], ["B1", "B3", "B4"], draws=["G2", "P1"]), 1, {"R": ["R1"], "P": ["P3"]})
    pub = E.view(s, None)
    assert type(pub) is PublicView and pub.deck_count == 2 and pub.phase == TURN and pub.to_act == (0,)
    assert [sv.hand_size for sv in pub.seats] == [3, 3]
    assert [r.capacity for r in pub.seats[0].rows] == [5, 4, 3, 6]
    mine = E.view(s, 0)
    assert isinstance(mine, PrivateView) and mine.seat == 0
    assert [c[:2] for c in mine.hand] == ["B2", "R1", "G2"]  # display order B, P, R, G
    assert "play R1" in mine.legal and "give R1 seat1" in mine.legal
    assert E.view(s, 1).legal == ()
    for observer in (None, 0, 1):
        text = json.dumps(E.dump(E.view(s, observer)))
        for token in E.hidden_tokens(s, observer):
            assert token not in text
    assert set(E.hidden_tokens(s, 0)) == set(s.deck) | set(s.seats[1].hand)
    s, _ = do(s, 0, "give R1 seat1")
    pub = E.view(s, None)
    assert pub.phase == GIFT and pub.to_act == (1,) and pub.active == 0
    assert pub.gift.kind == "R1" and pub.gift.choices == ("accept", "refuse P3")
    s, _ = do(s, 1, "accept")
    assert E.view(s, 0).last_drawn == s.seats[0].last_drawn and s.seats[0].last_drawn[:2] == "G2"


def test_copies_leave_the_hand_in_arrival_order():
    s = game(["G2.4", "B2", "P1"], ["B1", "B3", "B4"], draws=["G2.1", "G3", "G4"])
    s, _ = do(s, 0, "play P1")  # draws G2.1; the hand now holds G2.4 (older) and G2.1
    s, _ = do(s, 1, "play B1")
    s, events = do(s, 0, "play G2")
    assert events[0]["card"] == "G2.4"


def test_dump_load_and_replay():
    state, log = play_ai_game(E, ("smart", "random", "smart"), "dump")
    assert E.load(json.loads(json.dumps(E.dump(state)))) == state
    assert replay(E, 3, "dump", None, log) == state
    opts = Options(deck_end="hands_out", protection_mode="refuser", tiebreak="most_stacks")
    state, log = play_ai_game(E, ("random",) * 4, "dump2", opts)
    assert replay(E, 4, "dump2", opts, log) == state


@pytest.mark.parametrize(
    "options",
    [
        {"deck_end": "draw_fails"},
        {"deck_end": "hands_out"},
        {"protection_mode": "refuser"},
        {"protection_mode": "off"},
        {"stacks_to_end": 1},
        {"stacks_to_end": 6},
        {"tiebreak": "most_stacks"},
        {"start_player": "host"},
    ],
)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_option_plays_out(options, players):
    opts = E.options_from_dict(options)
    for g in range(2):
        state, _ = play_ai_game(E, ("random", "smart", "random", "smart")[:players], f"opt{g}", opts)
        assert E.outcome(state) is not None and E.to_act(state) == ()
        if options.get("stacks_to_end") == 1:
            assert state.end_reason == "stacks"


# ---------------------------------------------------------------------------------------------
# AI


def ai_choice(state, seat):
    return E.notation(smart_policy(E.view(state, seat), E.legal_actions(state, seat), E.ai_rng(state, seat)))


def test_smart_gives_a_duplicate_to_the_opponent():
    s = table(
        game(["B1", "G5", "P4"], ["R1", "R3", "G4"], draws=["G2"] * 3), 1, {"B": ["B1", "B2", "B3", "B4"]}
    )
    s = table(s, 0, {"B": ["B1"], "G": ["G5"], "P": ["P4"]})
    # every own play is a duplicate; B1 costs seat 1 four points (no purple card to refuse with)
    assert ai_choice(s, 0) == "give B1 seat1"


def test_smart_completes_a_row():
    s = table(
        game(["R1", "G6", "P4"], ["B1", "B3", "B4"], draws=["G2"] * 3),
        0,
        {"G": ["G1", "G2", "G3", "G4", "G5"], "R": ["R2"]},
    )
    assert ai_choice(s, 0) == "play G6"


def test_smart_receiver_refuses_by_the_cheapest_card():
    s = table(
        game(["G1", "B2", "P1"], ["B1", "B3", "B4"], draws=["G2"] * 3),
        1,
        {"G": ["G1", "G2", "G3", "G4", "G5"], "R": ["R1"]},
    )
    s, _ = do(s, 0, "give G1 seat1")
    assert ai_choice(s, 1) == "refuse R1"


def test_smart_beats_random_quickly():
    result = simulate("coloretto_amazonas", 60, "fast", 2, ["smart", "random"])
    assert result["errors"] == 0 and result["win_rate"]["smart"] >= 0.8


@pytest.mark.slow
def test_smart_beats_random_in_500_games():
    result = simulate("coloretto_amazonas", 500, "1", 2, ["smart", "random"])
    assert result["errors"] == 0 and result["win_rate"]["smart"] >= 0.85
