"""Gnav as on Cardavia: scenario tests with fixed decks (spec shared/rules/cardavia.md), information and AI tests.

Decks are given per dealt deal as rank ids: the cards of the turn order T[0], T[1], ..., dealer, then the
stock from the top down. ``start`` puts the rotation pointer on the last seat, so T = (0, 1, ..., n-1) and
the last seat deals.
"""

from __future__ import annotations

import dataclasses
import json
import random
from math import log

import pytest

from engines.codec import BadNotation
from engines.contract import IllegalAction, rng_for
from engines.gnav import ENGINE, AsideView, Ask, Keep, Knock, Options, ai, rank_of
from engines.gnav.model import CARD_IDS, CARDS, ORDINARY, PUBLIC, knows
from engines.gnav.rules import GnavWork
from engines.gnav.rules import view as build_view
from engines.playout import play_ai_game
from engines.simulate import simulate

E = ENGINE


def start(players=4, decks=(), rotation=None, **opts):
    return E.new_game(
        players, "test", Options(**opts), decks=decks, rotation=players - 1 if rotation is None else rotation
    )


def play(state, *moves):
    """Apply notations, each for the first seat to act; return the state and all events."""
    events = []
    for move in moves:
        seat = E.to_act(state)[0]
        state, evs = E.apply(state, seat, E.parse_notation(move))
        events += evs
    return state, events


def public(events, code=None):
    return [e for e in events if e.public and (code is None or e.code == code)]


def codes(events):
    return [e.code for e in events if e.public]


def this_deal(events):
    """The events up to the end of the deal (the rest belong to the next deal)."""
    codes_ = [e.code for e in events]
    return events[: codes_.index("deal_ended") + 1] if "deal_ended" in codes_ else events


def ranks(state):
    return {s: CARD_IDS[state.hands[s]].split(".")[0] for s in state.order}


def reason(state, seat, action):
    with pytest.raises(IllegalAction) as info:
        E.apply(state, seat, action)
    return info.value.code


# ---------------------------------------------------------------------------------------------
# Setup, turns and settlement


def test_new_game_defaults():
    state = E.new_game(4, "seed")
    assert state.players == 4 and state.ply == 0 and state.lives == (3, 3, 3, 3)
    assert state.deal == 1 and len(state.order) == 4 and len(state.stock) == 38
    r = state.rotation
    assert state.order == tuple((r + k) % 4 for k in range(1, 5))  # clockwise from R's left, R deals
    assert E.to_act(state) == (state.order[0],)
    assert E.legal_actions(state, state.order[0]) == (Keep(), Ask())
    assert E.options_from_dict({}) == Options()


def test_everyone_keeps_and_the_lowest_loses():
    state = start(decks=(("n5", "n3", "n9", "n7"),))
    state, events = play(state, "keep", "keep", "keep", "keep")
    assert codes(events)[:6] == ["kept"] * 4 + ["cards_revealed", "life_lost"]
    (lost,) = public(events, "life_lost")
    assert lost.p == {"seat": 1, "lives": 2, "cause": "settlement"}
    assert public(events, "deal_settled")[0].p["losers"] == (1,)
    assert public(events, "deal_ended")[0].p == {"deal": 1, "end": "turns_done"}
    # the next deal started at once: R moved to the next alive seat
    assert state.lives == (3, 2, 3, 3) and state.deal == 2 and state.rotation == 0
    assert state.order == (1, 2, 3, 0) and E.to_act(state) == (1,)
    assert state.last.losers == (1,) and dict(state.last.cards) == {0: "n5", 1: "n3", 2: "n9", 3: "n7"}
    assert state.ply == 4


def test_ties_for_lowest_all_lose():
    state = start(decks=(("n3", "n9", "n3", "n7"),))
    state, _ = play(state, "keep", "keep", "keep", "keep")
    assert state.last.losers == (0, 2) and state.lives == (2, 3, 2, 3)


def test_seat_exchange_and_what_each_seat_learns():
    state = start(decks=(("n1", "n8", "n9", "n7"),))
    state, events = play(state, "ask")
    assert codes(events) == ["requested", "swapped"]
    private = [(e.to, e.p) for e in events if not e.public]
    assert private == [((0,), {"rank": "n8", "partner": 1}), ((1,), {"rank": "n1", "partner": 0})]
    assert ranks(state)[0] == "n8" and ranks(state)[1] == "n1"
    # both partners know both cards; the others know only that seat 0 now holds an ordinary card
    assert E.view(state, 0).hands[1] == "n1.1" and E.view(state, 1).hands[0] == "n8.1"
    assert E.view(state, 2).hands[0] is None and E.view(state, None).hands[1] is None
    assert E.view(state, 2).ordinary == (0,)
    assert "n1.1" in E.hidden_tokens(state, 2) and "n1.1" not in E.hidden_tokens(state, 0)
    assert E.to_act(state) == (1,)
    state, _ = play(state, "ask", "keep", "keep")
    assert state.last.losers == (2,)  # the I travelled two seats to the left


def test_horse_and_house_pass_the_request_on_and_keep_their_turns():
    state = start(decks=(("n2", "horse", "house", "n9", "n6"),))
    state, events = play(state, "ask")
    assert codes(events) == ["requested", "passed_by", "passed_by", "swapped"]
    first, second = public(events, "passed_by")
    assert first.p == {"seat": 1, "rank": "horse", "call": "hest_forbi", "asker": 0}
    assert second.p == {"seat": 2, "rank": "house", "call": "hus_forbi", "asker": 0}
    assert E.view(state, None).hands[1:3] == ("horse.1", "house.1")
    assert E.to_act(state) == (1,)  # the passed seats keep their turns (Q3)
    # the dealer asks the stock: VI replaces the II, which goes aside face down
    state, events = play(state, "keep", "keep")
    assert ranks(state)[3] == "n2"
    assert E.view(state, 3).hands[3] == "n2.1" and E.view(state, 1).hands[3] is None
    state, events = play(state, "ask")
    assert codes(events)[:2] == ["requested", "stock_swapped"]
    assert [e.p for e in this_deal(events) if e.to == (3,)] == [{"rank": "n6", "partner": None}]
    assert dict(state.last.cards) == {0: "n9", 1: "horse", 2: "house", 3: "n6"}
    assert state.last.losers == (3,)


def test_a_request_through_the_dealers_horse_goes_to_the_stock_and_the_dealer_still_plays():
    state = start(decks=(("n7", "n8", "n2", "horse", "n5"),))
    state, events = play(state, "keep", "keep", "ask")
    assert codes(events)[-3:] == ["requested", "passed_by", "stock_swapped"]
    assert ranks(state)[2] == "n5" and len(state.aside) == 1 and not state.aside[0].face_up
    assert E.view(state, 2).aside == (AsideView("n2.1", False, False),)
    assert E.view(state, 0).aside == (AsideView(None, False, False),)
    assert E.view(state, None).ordinary == (2,)
    assert E.to_act(state) == (3,)
    state, _ = play(state, "keep")
    assert state.last.losers == (2,)


def test_stock_horses_and_houses_go_aside_face_up_and_the_next_card_is_drawn():
    state = start(decks=(("n7", "n8", "n9", "n2", "house", "horse", "n4"),))
    state, _ = play(state, "keep", "keep", "keep")
    state, events = play(state, "ask")
    assert codes(events)[:4] == ["requested", "stock_passed_by", "stock_passed_by", "stock_swapped"]
    assert public(events, "stock_passed_by")[0].p == {"rank": "house", "call": "hus_forbi", "asker": 3}
    assert state.last.losers == (3,) and dict(state.last.cards)[3] == "n4"


def test_dealers_first_view_shows_the_stock_size_only():
    state = start(decks=(("n7", "n8", "n9", "n2"),))
    view = E.view(state, 3)
    assert view.stock_size == 38 and view.stock_known == () and view.dealer == 3


# ---------------------------------------------------------------------------------------------
# Matadors


def test_cuckoo_at_a_seat_ends_the_deal_at_once():
    state = start(decks=(("n1", "cuckoo", "n9", "n8"),))
    state, events = play(state, "ask")
    (refused,) = public(events, "refused")
    assert refused.p == {"asker": 0, "holder": 1, "rank": "cuckoo", "call": "sta_for_gjok"}
    assert public(events, "deal_ended")[0].p["end"] == "cuckoo"
    # the asker kept the I and loses at settlement; nobody else had a turn
    assert state.last.losers == (0,) and state.deal == 2
    assert not public(events, "kept")


def test_cuckoo_from_the_stock():
    state = start(decks=(("n5", "n8", "n9", "n2", "cuckoo"),))
    state, events = play(state, "keep", "keep", "keep", "ask")
    (refused,) = public(events, "refused")
    assert refused.p["holder"] is None and refused.p["call"] == "sta_for_gjok"
    assert state.last.end == "cuckoo" and state.last.losers == (3,)


def test_dragoon_costs_the_asker_a_life_and_the_holder_its_turn():
    state = start(decks=(("n1", "dragoon", "n9", "n8"),))
    state, events = play(state, "ask")
    assert codes(events) == ["requested", "refused", "life_lost"]
    assert public(events, "refused")[0].p["call"] == "hogg_av"
    assert public(events, "life_lost")[0].p == {"seat": 0, "lives": 2, "cause": "dragoon"}
    assert ranks(state)[0] == "n1" and E.to_act(state) == (2,)
    assert E.view(state, None).hands[1] == "dragoon.1"
    state, _ = play(state, "keep", "keep")
    assert state.last.losers == (0,) and state.lives[0] == 1


def test_dragoon_behind_a_horse_skips_the_passed_seat_too():
    state = start(decks=(("n1", "horse", "dragoon", "n8"),))
    state, _ = play(state, "ask")
    assert E.to_act(state) == (3,)


def test_dealer_draws_a_dragoon():
    state = start(decks=(("n7", "n8", "n9", "n2", "dragoon"),))
    state, events = play(state, "keep", "keep", "keep", "ask")
    assert [e.p["cause"] for e in public(events, "life_lost")] == ["dragoon", "settlement"]
    assert state.lives == (3, 3, 3, 1)


def test_cat_undoes_every_exchange_newest_first():
    state = start(5, decks=(("n2", "n5", "n8", "cat", "n9", "n3"),))
    state, _ = play(state, "ask", "ask")
    assert [ranks(state)[s] for s in (0, 1, 2)] == ["n5", "n8", "n2"] and len(state.log) == 2
    state, events = play(state, "ask")
    assert codes(events) == ["requested", "refused", "life_lost", "exchanges_undone"]
    assert public(events, "refused")[0].p["call"] == "kiss"
    assert public(events, "exchanges_undone")[0].p == {"asker": 2, "exchanges": ((1, 2), (0, 1))}
    assert [(e.to, e.p["rank"]) for e in events if e.code == "card_restored"] == [
        ((0,), "n2"),
        ((1,), "n5"),
        ((2,), "n8"),
    ]
    assert [ranks(state)[s] for s in (0, 1, 2, 3, 4)] == ["n2", "n5", "n8", "cat", "n9"]
    assert state.log == () and state.lives[2] == 2
    assert E.to_act(state) == (4,)  # play goes on at the cat holder's left
    state, _ = play(state, "ask")
    assert dict(state.last.cards)[4] == "n3" and state.last.losers == (0,)


def test_cat_from_the_stock_undoes_a_stock_exchange_and_the_dealer_still_plays():
    state = start(5, decks=(("n9", "n8", "n2", "house", "horse", "n4", "cat"),))
    state, _ = play(state, "keep", "keep", "ask")
    assert ranks(state)[2] == "n4"
    state, events = play(state, "ask")  # seat 3 asks with its house: the dealer's horse, then a stock cat
    assert codes(events) == ["requested", "passed_by", "refused", "life_lost", "exchanges_undone"]
    assert public(events, "exchanges_undone")[0].p["exchanges"] == ((2, None),)
    assert ranks(state)[2] == "n2" and CARD_IDS[state.stock[-1]] == "n4.1"
    assert [(a.card, a.face_up) for a in state.aside] == [(CARD_IDS.index("cat.1"), True)]
    # the asker still knows the card it put back; everyone knows it is ordinary
    assert E.view(state, 2).stock_known == ((0, "n4.1"),)
    assert E.view(state, 0).stock_known == () and E.view(state, None).stock_ordinary == (0,)
    assert E.to_act(state) == (4,)
    state, _ = play(state, "ask")
    assert dict(state.last.cards) == {0: "n9", 1: "n8", 2: "n2", 3: "house", 4: "n4"}
    assert state.last.losers == (2,)


def test_traditional_cat_acts_like_the_dragoon():
    state = start(5, decks=(("n2", "n5", "n8", "cat", "n9", "n3"),), traditional_cat=True)
    state, events = play(state, "ask", "ask", "ask")
    assert "exchanges_undone" not in codes(events)
    assert [ranks(state)[s] for s in (0, 1, 2)] == ["n5", "n8", "n2"] and E.to_act(state) == (4,)
    state, _ = play(state, "ask")
    assert state.last.losers == (2,) and state.lives[2] == 1


# ---------------------------------------------------------------------------------------------
# Fools, resting, skipped deals


def test_one_fool_its_holder_and_the_lowest_other_lose_and_the_fool_rests():
    state = start(decks=(("fool", "n3", "n9", "n3"),))
    assert public(state.history, "fool_shown")[0].p == {"seat": 0, "source": "deal", "call": "knock"}
    assert E.view(state, 2).hands[0] == "fool.1" and 0 not in E.view(state, 2).not_fool
    state, events = play(state, "keep", "keep", "keep", "keep")
    settled = public(events, "deal_settled")[0].p
    assert settled["losers"] == (0, 1, 3) and settled["rests"] == (0,)
    # deal 2: R moved to seat 0, who rests; the dealer is the nearest participant on R's right
    assert state.resting == (0,) and state.rotation == 0
    assert state.order == (1, 2, 3) and E.view(state, None).dealer == 3
    assert reason(state, 0, Keep()) == "resting"
    assert E.view(state, 0).own_card is None


def test_two_fools_only_their_holders_lose():
    state = start(decks=(("fool", "fool", "n1", "n2"),))
    state, _ = play(state, "keep", "keep", "keep", "keep")
    assert state.last.losers == (0, 1) and state.last.rests == (0, 1)
    assert state.order == (2, 3)


def test_one_fool_with_two_seats_both_lose_then_a_skipped_deal():
    state = start(2, decks=(("fool", "cuckoo"),))
    state, events = play(state, "keep", "keep")
    assert state.last.losers == (0, 1) and state.lives == (2, 2)
    skipped = public(events, "deal_skipped")[0].p
    assert skipped == {"deal": 2, "rotation": 0, "participants": (1,), "resting": (0,)}
    # the rest mark is used up by the skipped deal and R moved on twice
    assert state.deal == 3 and state.resting == () and state.rotation == 1 and state.order == (0, 1)


def test_a_fool_drawn_from_the_stock_is_shown():
    state = start(decks=(("n5", "n8", "n9", "n2", "fool"),))
    state, events = play(state, "keep", "keep", "keep", "ask")
    assert public(events, "fool_shown")[0].p == {"seat": 3, "source": "stock", "call": "knock"}
    assert state.last.losers == (3, 0) and state.last.rests == (3,)


def test_knock_mode():
    state = start(decks=(("n5", "fool", "n9", "fool"),), fool_auto_reveal=False)
    assert state.phase == "knock" and E.to_act(state) == (1, 3)
    assert E.view(state, None).hands == (None, None, None, None)
    assert reason(state, 0, Keep()) == "waiting_for_knock"
    assert reason(state, 1, Ask()) == "must_knock"
    assert reason(state, 0, Knock()) == "nothing_to_knock"
    assert E.legal_actions(state, 1) == (Knock(),)
    state, events = E.apply(state, 3, Knock())
    assert public(events)[0].p == {"seat": 3, "source": "knock", "call": "knock"}
    assert E.to_act(state) == (1,)
    state, _ = E.apply(state, 1, Knock())
    assert state.phase == "turn" and E.to_act(state) == (0,)
    assert E.view(state, 0).hands[1] == "fool.1"
    assert reason(state, 0, Knock()) == "nothing_to_knock"


# ---------------------------------------------------------------------------------------------
# Elimination, match end, draws


def test_elimination_mid_deal_leaves_an_uncontested_deal():
    decks = (("fool", "n1", "n5"), ("n4", "dragoon"))
    state = start(3, decks=decks, lives=2)
    state, _ = play(state, "keep", "keep", "keep")
    assert state.lives == (1, 1, 2) and state.resting == (0,) and state.order == (1, 2)
    state, events = play(state, "ask")
    assert codes(events)[:8] == [
        "requested",
        "refused",
        "life_lost",
        "eliminated",
        "cards_revealed",
        "deal_uncontested",
        "deal_ended",
        "deal_started",
    ]
    assert public(events, "eliminated")[0].p == {"seat": 1, "cause": "dragoon"}
    assert public(events, "deal_uncontested")[0].p == {"deal": 2, "seats": (2,)}
    assert state.last.end == "uncontested" and state.last.losers == () and state.last.rests == ()
    assert state.last.eliminated == (1,) and state.last.departed == (1,)
    assert state.rotation == 2 and state.order == (0, 2) and state.resting == ()
    assert reason(state, 1, Keep()) == "eliminated"


def test_a_mid_deal_loss_can_end_the_match():
    state = start(2, decks=(("n4", "dragoon"),), lives=1)
    state, events = play(state, "ask")
    assert codes(events)[-4:] == ["eliminated", "cards_revealed", "deal_ended", "match_ended"]
    assert public(events, "match_ended")[0].p == {"winners": (1,), "draw": False, "ranks": (2, 1)}
    out = E.outcome(state)
    assert out.winners == (1,) and out.ranks == (2, 1)
    assert E.to_act(state) == () and E.legal_actions(state, 1) == ()
    assert reason(state, 1, Keep()) == "game_over"
    view = E.view(state, None)
    assert view.phase == "over" and view.winners == (1,) and view.hands == ("n4.1", "dragoon.1")
    assert state.last.end == "match_won"


def test_everyone_out_in_one_settlement_is_a_draw():
    state = start(2, decks=(("n3", "n3"),), lives=1)
    state, events = play(state, "keep", "keep")
    assert public(events, "match_ended")[0].p == {"winners": (0, 1), "draw": True, "ranks": (1, 1)}
    assert E.outcome(state).winners == (0, 1)


def test_standings_follow_the_elimination_order():
    state = start(3, decks=(("n1", "n5", "n9"), ("n2", "n8")), lives=1)
    state, _ = play(state, "keep", "keep", "keep")
    assert state.rotation == 1 and state.order == (2, 1)
    state, _ = play(state, "keep", "keep")
    out = E.outcome(state)
    assert out.winners == (1,) and out.ranks == (3, 1, 2) and out.scores == (0, 1, 0)


# ---------------------------------------------------------------------------------------------
# Legality, notation, options, persistence


def test_reason_codes():
    state = start()
    assert reason(state, 1, Keep()) == "not_your_turn"
    assert reason(state, 0, Knock()) == "nothing_to_knock"
    assert reason(state, 9, Keep()) == "no_such_seat"
    assert reason(state, 0, "keep") == "unknown_action"
    assert E.legal_actions(state, 1) == ()


def test_notation():
    for action, text in ((Keep(), "keep"), (Ask(), "ask"), (Knock(), "knock")):
        assert E.notation(action) == text and E.parse_notation(text) == action
    assert E.parse_notation(" KEEP ") == Keep()
    for bad in ("swap", "", "keep 1"):
        with pytest.raises(BadNotation):
            E.parse_notation(bad)


#: the notation as the engine wrote and read it before the shared codec (engines.codec.Notation)
_OLD_WRITE = {Keep: "keep", Ask: "ask", Knock: "knock"}
_OLD_READ = {"keep": Keep(), "ask": Ask(), "knock": Knock()}


def _old_parse(text):
    action = _OLD_READ.get(text.strip().lower()) if isinstance(text, str) else None
    if action is None:
        raise BadNotation(text)
    return action


def test_the_shared_codec_writes_and_reads_exactly_what_the_old_notation_did():
    seen = set()
    for seed in range(12):
        options = Options(fool_auto_reveal=seed % 2 == 0, lives=1)

        def on_step(state, seat, action, events):
            for s in E.to_act(state):
                seen.update(E.legal_actions(state, s))

        play_ai_game(
            E, ("sensible", "random", "easy", "random")[: 2 + seed % 3], f"codec{seed}", options, on_step
        )
    assert seen == {Keep(), Ask(), Knock()}
    texts = set()
    for action in seen:
        written = E.notation(action)
        assert written == _OLD_WRITE[type(action)]
        texts |= {
            written,
            written.upper(),
            written.title(),
            f"  {written}\t",
            f"{written}\u00a0",
            f"{written} 1",
            f"{written}s",
            f"x{written}",
            f"{written} {written}",
            written[:-1],
            f"{written[:2]} {written[2:]}",
        }
    texts |= {"", " ", "swap", "next", "keep,ask", "a\u017fk", "kn\u00f6ck", "KNOCK\n"}
    # the one intended difference: look-alikes that only Unicode case folding turns into ASCII (the
    # Kelvin sign, the long s) were read by the old lower() and are refused by the shared codec
    for look_alike in ("\u212aeep", "a\u017fk", "\u212anock"):
        with pytest.raises(BadNotation):
            E.parse_notation(look_alike)
    for text in sorted(texts):
        try:
            old = _old_parse(text)
        except BadNotation:
            with pytest.raises(BadNotation):
                E.parse_notation(text)
        else:
            assert E.parse_notation(text) == old, text
    for bad in (None, 1, b"keep"):
        with pytest.raises(BadNotation):
            _old_parse(bad)
        with pytest.raises(BadNotation):
            E.parse_notation(bad)


def test_options():
    assert Options() == Options(False, 3, (), True, ())
    assert Options().seat_kinds(4) == ("human", "ai", "ai", "ai")
    opts = E.options_from_dict({"seats": ["human", "ai", "ai"], "ai_level": ["normal", "easy", "strong"]})
    assert opts.seats == ("human", "ai", "ai") and E.new_game(3, "x", opts).players == 3
    for bad in (
        {"lives": 0},
        {"lives": 10},
        {"seats": ["robot"]},
        {"ai_level": ["hard"]},
        {"traditional_cat": "yes"},
    ):
        with pytest.raises(ValueError):
            E.options_from_dict(bad)
    with pytest.raises(ValueError):
        E.new_game(4, "x", Options(seats=("human", "ai")))
    with pytest.raises(ValueError):
        E.new_game(9, "x")
    with pytest.raises(ValueError):
        start(decks=(("n1", "n1", "n1"),))
    assert E.new_game(3, "x", Options(lives=5)).lives == (5, 5, 5)
    assert ai.LEVEL_AI == {"easy": "easy", "normal": "normal", "strong": "strong"}


def test_dump_load_keeps_fixed_decks_and_options():
    state = start(decks=(("n5", "fool", "n9", "fool"), ("n1",)), fool_auto_reveal=False, traditional_cat=True)
    loaded = E.load(json.loads(json.dumps(E.dump(state))))
    assert loaded == state
    view = E.view(state, 1)
    assert E.load(json.loads(json.dumps(E.dump(view)))) == view


def test_cards_of_a_deal_depend_on_the_seed_and_deal_number_only():
    def deck_of_deal_2(move):
        state = E.new_game(4, "same")
        while state.deal < 2:
            state, _ = play(state, move)
        return [state.hands[s] for s in state.order] + list(reversed(state.stock))

    assert deck_of_deal_2("keep") == deck_of_deal_2("ask")


# ---------------------------------------------------------------------------------------------
# Information (spec 6.4)


def random_states(players, games, seed, options=None):
    rng = random.Random(seed)
    for g in range(games):
        state = E.new_game(players, f"{seed}:{g}", options)
        while E.outcome(state) is None:
            yield state
            seat = E.to_act(state)[0]
            state, _ = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
        yield state


@pytest.mark.parametrize("players", [2, 4, 7])
@pytest.mark.parametrize("options", [None, Options(fool_auto_reveal=False, traditional_cat=True)])
def test_views_name_only_known_cards(players, options):
    for state in random_states(players, 6, f"leak{players}", options):
        for seat in [None, *range(players)]:
            view = E.view(state, seat)
            text = json.dumps(E.dump(view))
            for c in range(CARDS):
                if CARD_IDS[c] in text:
                    assert knows(state.know[c], seat), (seat, CARD_IDS[c])
            # a seat in the deal always knows its own card (6.4 item 4)
            if seat is not None and seat in state.order:
                assert view.own_card == CARD_IDS[state.hands[seat]]
            # private events go to seats of the deal only
            for e in state.history:
                if e.to is not None:
                    assert set(e.to) <= set(state.order)


def test_own_card_follows_from_the_private_events():
    for state in random_states(5, 6, "replay"):
        if state.phase != "turn":
            continue
        for seat in state.order:
            if seat in state.departed:
                continue
            mine = [e for e in state.history if e.to == (seat,)]
            assert mine and mine[-1].p["rank"] == rank_of(E.view(state, seat).own_card)


def test_known_fools_and_ordinary_flags_are_public_facts():
    for state in random_states(4, 6, "flags"):
        if state.phase != "turn":
            continue
        for s in state.order:
            c = state.hands[s]
            if c >> 1 == 0:
                assert state.know[c] & PUBLIC
            if state.know[c] & ORDINARY:
                assert c >> 1 <= 15


def swap_hidden(state, seat):
    """Swap two stock cards nobody knows: nothing the seat may know changes."""
    hidden = [k for k, c in enumerate(state.stock) if not state.know[c]]
    if len(hidden) < 2:
        return None
    i, j = hidden[0], hidden[-1]
    stock = list(state.stock)
    stock[i], stock[j] = stock[j], stock[i]
    return dataclasses.replace(state, stock=tuple(stock))


def hand_swap_hidden(state, seat):
    """Swap another seat's unknown card with an unknown stock card of the same class."""
    for s in state.order:
        c = state.hands[s]
        if s == seat or knows(state.know[c], seat) or state.know[c] & ORDINARY:
            continue
        for k, d in enumerate(state.stock):
            if not state.know[d] and d >> 1 != 0:
                hands, stock = list(state.hands), list(state.stock)
                hands[s], stock[k] = d, c
                know = list(state.know)
                know[c], know[d] = know[d], know[c]
                return dataclasses.replace(state, hands=tuple(hands), stock=tuple(stock), know=tuple(know))
    return None


def test_ai_decisions_do_not_depend_on_hidden_cards():
    checked = 0
    for state in random_states(4, 3, "invariance"):
        if state.phase != "turn":
            continue
        seat = E.to_act(state)[0]
        legal = E.legal_actions(state, seat)
        for change in (swap_hidden, hand_swap_hidden):
            other = change(state, seat)
            if other is None:
                continue
            assert E.view(other, seat) == E.view(state, seat)
            for name in ("easy", "normal", "sensible", "strong"):
                a = E.ai_action(name, E.view(state, seat), legal, rng_for("x", state.ply, name))
                b = E.ai_action(name, E.view(other, seat), legal, rng_for("x", state.ply, name))
                assert a == b
            checked += 1
    assert checked > 20


def test_sampled_worlds_agree_with_the_view():
    rng = random.Random(5)
    checked = 0
    for state in random_states(5, 4, "worlds"):
        if state.phase != "turn":
            continue
        seat = E.to_act(state)[0]
        view = E.view(state, seat)
        world = ai.sample_world(view, rng).freeze(seed=state.seed, ply=state.ply)
        world = dataclasses.replace(
            world, history=state.history, last=state.last, eliminated=state.eliminated
        )
        assert build_view(world, seat) == view
        assert sorted(world.hands + world.stock + tuple(a.card for a in world.aside)) == sorted(
            state.hands + state.stock + tuple(a.card for a in state.aside)
        )
        checked += 1
    assert checked > 20


def test_info_from_the_view_equals_info_from_the_working_copy():
    for state in random_states(4, 4, "info"):
        if state.phase != "turn":
            continue
        seat = E.to_act(state)[0]
        a = ai.info_from_view(E.view(state, seat))
        b = ai.info_from_work(GnavWork(state), seat)
        assert (a.own, a.known, a.ordinary, a.stock_seq, a.counts) == (
            b.own,
            b.known,
            b.ordinary,
            b.stock_seq,
            b.counts,
        )


# ---------------------------------------------------------------------------------------------
# AI players


def decide(name, state):
    seat = E.to_act(state)[0]
    return E.ai_action(name, E.view(state, seat), E.legal_actions(state, seat), random.Random(1))


def with_public(state, *cards):
    """The state with these card ids made public, as if they had answered a request."""
    know = list(state.know)
    for cid in cards:
        know[CARD_IDS.index(cid)] |= PUBLIC
    return dataclasses.replace(state, know=tuple(know))


@pytest.mark.parametrize("name", ["easy", "normal", "sensible", "strong"])
def test_ai_keeps_a_matador(name):
    for matador in ("house", "horse", "cat", "dragoon", "cuckoo"):
        assert decide(name, start(decks=((matador, "n1", "n2", "n3"),))) == Keep()


@pytest.mark.parametrize("name", ["easy", "normal", "sensible", "strong"])
def test_ai_does_not_ask_a_known_dragoon_or_cat(name):
    for penalty in ("dragoon", "cat"):
        state = with_public(start(decks=(("n1", penalty, "n5", "n7"),)), f"{penalty}.1")
        assert E.view(state, 0).hands[1] == f"{penalty}.1"
        assert decide(name, state) == Keep()
        # behind a public horse too
        state = with_public(start(decks=(("n1", "horse", penalty, "n7"),)), "horse.1", f"{penalty}.1")
        assert decide(name, state) == Keep()


@pytest.mark.parametrize("name", ["normal", "sensible", "strong"])
def test_ai_does_not_ask_for_a_fool_but_asks_a_known_cuckoo(name):
    assert decide(name, start(decks=(("n3", "fool", "n5", "n7"),))) == Keep()
    state = with_public(start(decks=(("n5", "cuckoo", "n4", "n7"),)), "cuckoo.1")
    assert decide(name, state) == Ask()


@pytest.mark.parametrize("name", ["normal", "sensible", "strong"])
def test_ai_asks_with_the_fool_and_with_a_low_card_and_keeps_a_high_one(name):
    assert decide(name, start(decks=(("fool", "n5", "n6", "n7"),))) == Ask()
    assert decide(name, start(decks=(("owl", "n5", "n6", "n7"),))) == Ask()
    assert decide(name, start(decks=(("n12", "n5", "n6", "n7"),))) == Keep()


@pytest.mark.parametrize("name", ["normal", "sensible", "strong"])
def test_dealer_weighs_the_own_card_against_the_stock(name):
    state, _ = play(start(decks=(("n7", "n8", "n9", "pot"),)), "keep", "keep", "keep")
    assert decide(name, state) == Ask()
    state, _ = play(start(decks=(("n7", "n8", "n9", "n11"),)), "keep", "keep", "keep")
    assert decide(name, state) == Keep()


@pytest.mark.parametrize("players", [2, 5, 8])
@pytest.mark.parametrize("name", ["easy", "normal", "sensible", "strong"])
def test_ai_plays_whole_matches(name, players):
    seats = (name,) * players
    state, log = play_ai_game(E, seats, f"match:{name}:{players}", Options(lives=2))
    assert E.outcome(state) is not None and log


def test_win_chance():
    assert ai.win_chance(3, (3, 3, 3)) == pytest.approx(0.25)
    assert ai.win_chance(1, (3,)) < 0.5 < ai.win_chance(3, (1,))
    assert ai.win_chance(0, (1,)) == 0.0 and ai.win_chance(1, ()) == 1.0


# ---------------------------------------------------------------------------------------------
# Strength (slow)


@pytest.mark.slow
def test_sensible_beats_random():
    result = simulate("gnav", 400, "slow1", 4, ["sensible", "random"])
    assert result["errors"] == 0 and result["win_rate"]["sensible"] > 0.7


def _strong_share(seats, seed):
    """The strong AI's share of the win in one match (a draw is shared)."""
    state, _ = play_ai_game(E, seats, seed)
    out = E.outcome(state)
    return sum(1 for w in out.winners if seats[w] == "strong") / len(out.winners)


@pytest.mark.slow
def test_strong_beats_sensible():
    """Strong against sensible heads-up, each seed played twice with the seats swapped: the cards of a deal
    depend only on the seed and the deal number, so the pair cancels the luck of the cards, and only a pair
    that one AI wins twice tells them apart (about one in ten). Wald's sequential test on those pairs
    (H0: each AI wins such a pair half the time; H1: strong wins 7 in 10; α = 1 %, β = 5 %) stops as soon as
    the evidence is clear; with these seeds after 219 pairs (16 to 1), about 15 s of CPU (337 pairs, 25 to 7,
    before the strong player sampled until its choice was clear; 813 pairs, 49 to 23, before the rollouts
    counted a draw as a shared win).

    [measured] Heads-up, strong takes about 52 % of the wins (2,000 games, ±0.5 %); in unpaired games
    (scripts/bench_ai.py, 6,000 games, seed final) .511 [.498, .523]: the pairs are what make the edge show
    in a few hundred matches. At a four-seat table of
    two strong and two sensible seats the edge does not show: 1,000 games gave strong 50.45 %, 300 paired
    games 48.3 %; the test that asserted it there passed by chance.
    """
    upper, lower = log(0.95 / 0.01), log(0.05 / 0.99)
    strong_pair, sensible_pair = log(0.7 / 0.5), log(0.3 / 0.5)
    llr = 0.0
    for k in range(4000):
        pair = _strong_share(("strong", "sensible"), f"slow2:{k}") + _strong_share(
            ("sensible", "strong"), f"slow2:{k}"
        )
        llr += strong_pair if pair == 2 else sensible_pair if pair == 0 else 0.0
        if llr >= upper:
            return
        assert llr > lower, f"sensible is as strong as strong: decided after {k + 1} pairs"
    pytest.fail("undecided after 4000 pairs")
