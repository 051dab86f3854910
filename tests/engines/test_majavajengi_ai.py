"""The Majavajengi AI levels: the odd behaviours are pinned away (no knock on a first look with two
own cards unseen; a knock with a known low layout), and every level sees only its seat's view."""

from __future__ import annotations

import pytest

from engines.contract import rng_for
from engines.majavajengi import ENGINE
from engines.majavajengi.ai import AIS, belief
from engines.majavajengi.model import End, Knock, MajavajengiOptions
from engines.playout import play_ai_game

FILLER = ("N8", "N7", "N9", "N6", "N5", "N4", "N6", "N7")


def deck_for(layouts, discard, pile=FILLER):
    n = len(layouts)
    return (*(layouts[j][k] for k in range(4) for j in range(n)), discard, *pile)


def game(layouts, discard="N9", pile=FILLER):
    opts = MajavajengiOptions(first_round_start="host", first_start_seat=0)
    return ENGINE.new_game(len(layouts), "ai-test", opts, decks=[deck_for(layouts, discard, pile)])


def to_turn_end(state, seat=0):
    """The seat draws (a high card from FILLER) and discards it: the end of its first turn."""
    for text in ("draw", "discard"):
        state, _ = ENGINE.apply(state, seat, ENGINE.parse_notation(text))
    assert state.phase == "turn_end" and state.turn == seat
    return state


@pytest.mark.parametrize("level", ["normal", "strong", "smart"])
@pytest.mark.parametrize("players", [2, 4])
def test_no_knock_on_the_first_look_with_two_own_cards_unseen(level, players):
    # the best first look there is: both outer cards 0; the two middle ones unseen, nothing known of
    # the others. A good player does not knock on that.
    others = [("N5", "N6", "N7", "N8"), ("N4", "N9", "N3", "N9"), ("N9", "N2", "N9", "N1")]
    layouts = [("N0", "N3", "N2", "N0"), *others[: players - 1]]
    state = to_turn_end(game(layouts))
    view = ENGINE.view(state, 0)
    assert sum(1 for k in view.known[0] if k is None) == 2
    legal = ENGINE.legal_actions(state, 0)
    assert Knock() in legal
    for k in range(20):
        assert AIS[level](view, legal, rng_for("first-look", k, level)) == End()


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_knocks_with_a_known_low_layout_once_the_others_had_turns(level):
    # seat 0 knows 0 1 0 0 after peeks and placements; three laps have gone by
    layouts = [("N0", "N1", "N0", "N0"), ("N5", "N6", "N7", "N8")]
    state = game(layouts)
    state = state.__class__(
        **{
            **{f: getattr(state, f) for f in state.__dataclass_fields__},
            "known": (
                (("N0", "N1", "N0", "N0"), (None,) * 4),
                ((None,) * 4, ("N5", None, None, "N8")),
            ),
            "turns_taken": 6,
        }
    )
    state = to_turn_end(state)
    view = ENGINE.view(state, 0)
    legal = ENGINE.legal_actions(state, 0)
    assert AIS[level](view, legal, rng_for("low", 0, level)) == Knock()


def test_an_unseen_card_is_worth_what_is_left_not_the_deck_average():
    # seat 0 has seen three 0s and, on the discard pile, a 1: an unseen card is now worth more than 5
    layouts = [("N0", "N3", "N2", "N0"), ("N5", "N6", "N7", "N0")]
    state = game(layouts, discard="N1")
    b = belief(ENGINE.view(state, 0), tilt=False)
    assert b.mean[0][1] > 5.0 and b.mean[0][0] == 0.0


def test_a_card_swapped_in_by_a_seat_that_knew_it_is_presumed_high():
    layouts = [("N0", "N3", "N2", "N0"), ("N9", "N6", "N7", "N0")]
    pile = ("N8", "SWAP", *FILLER[1:])
    state = game(layouts, pile=pile)
    state, _ = ENGINE.apply(state, 0, ENGINE.parse_notation("draw"))
    state, _ = ENGINE.apply(state, 0, ENGINE.parse_notation("discard"))
    state, _ = ENGINE.apply(state, 0, ENGINE.parse_notation("end"))
    # seat 1 swaps its known 9 (position 1) with seat 0's position 2
    state, _ = ENGINE.apply(state, 1, ENGINE.parse_notation("draw"))
    state, _ = ENGINE.apply(state, 1, ENGINE.parse_notation("swap 1 seat0 2"))
    b = belief(ENGINE.view(state, 0))
    assert b.cards[0][1] == "dumped" and b.mean[0][1] > b.mean[0][2] + 1.0


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_every_level_finishes_games_at_every_table_size(level):
    for players in (2, 3, 6):
        options = MajavajengiOptions(rounds=2)
        state, _ = play_ai_game(ENGINE, (level,) * players, f"lvl:{level}:{players}", options)
        assert ENGINE.outcome(state) is not None


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_every_level_decides_from_its_view_only(level):
    # cards the seat has not seen are swapped behind its back: the decision stays the same
    from tests.engines.test_majavajengi import swap_cards, unknown_cards

    checked = 0
    for g in range(2):
        state = ENGINE.new_game(3, f"view:{g}")
        while ENGINE.outcome(state) is None and state.ply < 60:
            seat = ENGINE.to_act(state)[0]
            legal = ENGINE.legal_actions(state, seat)
            action = AIS[level](ENGINE.view(state, seat), legal, ENGINE.ai_rng(state, seat))
            rng = rng_for(f"pick:{g}", state.ply, "x")
            a, b = rng.sample(unknown_cards(state, seat), 2)
            other = swap_cards(state, a, b)
            assert AIS[level](ENGINE.view(other, seat), legal, ENGINE.ai_rng(other, seat)) == action
            checked += 1
            state, _ = ENGINE.apply(state, seat, action)
    assert checked > 60
