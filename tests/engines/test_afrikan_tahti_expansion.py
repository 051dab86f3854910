"""Scenario tests for Afrikan Tähti with Retkikunnat (spec shared/rules/afrikan_tahti/spec.md §3.3-3.4,
§5, §6-10): every card and character ability pinned with fixed decks, dice and danger dice."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from engines.afrikan_tahti import ENGINE, board
from engines.afrikan_tahti.board import LEGS, TREASURE_PLACES
from engines.afrikan_tahti.model import Options, Pawn, Reroll, Voyage, content_id
from engines.afrikan_tahti.retkikunnat.content import (
    CHARACTERS,
    CHARS,
    DANGER_CARDS,
    DISCOVERY_MIX,
    EQUIPMENT_MIX,
    EVENT_CARDS,
    EXP,
    EXPEDITION_CARDS,
    card_id,
)
from engines.afrikan_tahti.retkikunnat.model import TurnX
from engines.codec import BadNotation
from engines.playout import play_ai_game, replay
from engines.simulate import simulate
from tests.engines.afrikan_tahti_helpers import codes, first, idle, legal, play, refused

BLANKS = ("blank",) * 5
EXP_START = {c: tuple(CHARS[c]["starting_cards"]) for c in CHARACTERS}


def xnew(
    *at,
    chars=None,
    cards=None,
    hands=None,
    cash=None,
    decks=None,
    dice=(),
    ddice=(),
    layout=None,
    lower=None,
    players=None,
    **options,
):
    """An expansion game at seat 0's declaration: pawns on ``at`` (node ids or Pawn values), characters
    ``chars`` (default: ones whose abilities stay out of the way), expedition ``cards`` and ``hands``
    ({seat: (ids)}), top of the decks, d6 ``dice`` and danger dice ``ddice``."""
    n = players or max(2, len(at))
    chars = tuple(chars or ("merchant", "aviator", "teacher", "doctor", "archaeologist", "tycoon"))[:n]
    st = ENGINE.new_game(
        n,
        "xtest",
        Options(start_place="random", **options),
        characters=chars,
        first_seat=0,
        layout=layout,
        lower=lower,
        decks=decks,
        dice=dice,
        danger_dice=ddice,
    )
    pawns = list(st.pawns)
    for s in range(n):
        where = at[s] if s < len(at) else "cairo"
        pawn = where if isinstance(where, Pawn) else Pawn(node=where)
        c = 300 if cash is None else cash[s] if isinstance(cash, tuple) else cash
        pawns[s] = replace(pawn, cash=c if pawn.cash == 300 else pawn.cash)
    st = replace(st, pawns=tuple(pawns))
    for s, ids in (cards or {}).items():
        st = set_cards(st, s, ids)
    for s, ids in (hands or {}).items():
        st = set_hand(st, s, ids)
    node = pawns[0].node
    turn = TurnX(visited=(node,), places=(node,) if node in board.PLACE_SET else ())
    return replace(st, phase="release" if pawns[0].captured else "declare", ext=replace(st.ext, turn=turn))


def set_cards(st, seat, ids):
    """Give ``seat`` exactly these expedition cards; the ones it held go to the bottom of the deck."""
    x = st.ext
    seats = list(x.seats)
    pool = list(x.expedition.draw) + list(seats[seat].cards)
    new = []
    for cid in ids:
        inst = next((i for i in pool if card_id(i) == cid), None)
        if inst is None:  # held by another seat: take it from there
            other = next(s for s, sx in enumerate(seats) if any(card_id(i) == cid for i in sx.cards))
            inst = next(i for i in seats[other].cards if card_id(i) == cid)
            seats[other] = replace(seats[other], cards=tuple(i for i in seats[other].cards if i != inst))
        else:
            pool.remove(inst)
        new.append(inst)
    seats[seat] = replace(seats[seat], cards=tuple(new))
    return replace(st, ext=replace(x, seats=tuple(seats), expedition=replace(x.expedition, draw=tuple(pool))))


def set_hand(st, seat, ids):
    x = st.ext
    pool = list(x.event.draw) + list(x.seats[seat].hand)
    new = []
    for cid in ids:
        inst = next(i for i in reversed(pool) if card_id(i) == cid)
        pool.remove(inst)
        new.append(inst)
    seats = list(x.seats)
    seats[seat] = replace(seats[seat], hand=tuple(new))
    return replace(st, ext=replace(x, seats=tuple(seats), event=replace(x.event, draw=tuple(pool))))


def cards_of(st, seat):
    return [card_id(i) for i in st.ext.seats[seat].cards]


def hand_of(st, seat):
    return [card_id(i) for i in st.ext.seats[seat].hand]


def top_kind(st, place):
    tid = st.stacks[TREASURE_PLACES.index(place)][-1]
    return dict(st.contents)[tid]


def prompt(st):
    return st.ext.stack[-1].kind if st.ext.stack else None


def drain(st, seat=0):
    """End seat's Phase 2 and Phase 3 where they are open."""
    for _ in range(3):
        if st.turn == seat and st.phase in ("phase2", "phase3") and not st.ext.stack:
            st, _ = play(st, seat, "end_phase")
    return st


# ---------------------------------------------------------------------------------------------
# Setup (§3.1, §3.3, §3.4)


def test_default_is_the_expansion_characters_then_start_places():
    st = ENGINE.new_game(3, "setup")
    assert st.options.expansion and st.phase == "character" and ENGINE.to_act(st) == (0,)
    assert legal(st, 0) == {f"character {c}" for c in CHARACTERS}
    st, evs = play(st, 0, "character adventurer")
    assert first(evs, "character")["cards"] == tuple(i for i in st.ext.seats[0].cards)
    assert cards_of(st, 0) == ["rifle", "horse"]
    assert refused(st, 1, "character adventurer") == "character_taken"
    st, _ = play(st, 1, "character doctor")
    st, _ = play(st, 2, "character merchant")
    assert st.phase == "setup" and ENGINE.to_act(st) == (0,)
    for s in range(3):
        st, evs = play(st, s, "start cairo")
    assert st.phase == "declare" and st.turn == st.first_seat and codes(evs)[-1] == "turn"
    assert all(p.cash == 300 for p in st.pawns)
    assert (
        len(st.ext.expedition.draw) == 55 - 6
        and len(st.ext.event.draw) == 59
        and len(st.ext.danger.draw) == 42
    )


def test_two_token_layers_with_their_mixes_and_random_assignment():
    st = ENGINE.new_game(4, "layers", Options(character_assignment="random", start_place="random"))
    assert st.phase == "declare" and len({x.character for x in st.ext.seats}) == 4
    kinds = dict(st.contents)
    assert all(len(s) == 2 and s[0].startswith("d") and s[1].startswith("e") for s in st.stacks)
    assert Counter(kinds[s[1]] for s in st.stacks) == Counter({k: v for k, v in EQUIPMENT_MIX.items() if v})
    assert Counter(kinds[s[0]] for s in st.stacks) == Counter(DISCOVERY_MIX)
    view = ENGINE.view(st, None)
    # the layer of every face-down token is public (its id), its content is not
    assert {t[0] for _p, t in view.face_down} == {"d", "e"}
    text = json.dumps(ENGINE.dump(view))
    assert not any(t in text for t in ENGINE.hidden_tokens(st, None))
    starters = sum(len(EXP_START[c]) for c in (x.character for x in st.ext.seats))
    assert len(st.ext.expedition.draw) == 55 - starters


def test_quick_game_one_layer_400_two_cards_and_the_five_six_player_rules():
    st = ENGINE.new_game(
        2, "quick", Options(quick_game=True, start_place="random", character_assignment="random")
    )
    assert all(len(s) == 1 and s[0].startswith("d") for s in st.stacks)
    assert all(len(x.cards) == len(EXP_START[x.character]) + 2 for x in st.ext.seats)
    tycoon_bonus = [
        100 * sum(1 for i in x.cards[-2:] if EXP[card_id(i)]["type"] in ("equipment", "vehicle"))
        if x.character == "tycoon"
        else 0
        for x in st.ext.seats
    ]
    assert [p.cash for p in st.pawns] == [400 + b for b in tycoon_bonus]
    view = ENGINE.view(st, None)
    assert view.x.threshold == 2 and view.x.gem_roll
    evs = ENGINE.start_events(st)
    assert [e.code for e in evs].count("card_gained") == 4 and all(e.public for e in evs)
    # quick_game is ignored without the expansion
    assert ENGINE.new_game(2, "q", Options(expansion=False, quick_game=True)).options.quick_game is False


def test_start_events_show_ids_only_and_replay_with_presets():
    st = ENGINE.new_game(
        3,
        "se",
        Options(character_assignment="random", start_place="random"),
        decks={"event": ("reward",)},
        first_seat=1,
    )
    evs = ENGINE.start_events(st)
    assert [e.code for e in evs][:1] == ["tokens_placed"] and "first_player" in codes(evs)
    assert first(evs, "first_player")["seat"] == 1
    text = json.dumps([e.params for e in evs])
    assert not any(t in text for t in ENGINE.hidden_tokens(st, None))
    assert card_id(st.ext.event.draw[0]) == "reward"
    again = ENGINE.new_game(
        3,
        "se",
        Options(character_assignment="random", start_place="random"),
        decks={"event": ("reward",)},
        first_seat=1,
    )
    assert again == st


# ---------------------------------------------------------------------------------------------
# The turn, movement and event draws (§5.4-5.6)


def test_three_phases_and_an_event_card_for_every_place_passed_or_reached():
    st = xnew("dar_fur", dice=(4,), decks={"event": ("reward", "found_wallet")})
    st, evs = play(st, 0, "roll", "move lake_victoria")
    # Bahr el Ghasal passed, Lake Victoria reached: one card each, resolved in order
    incomes = [e for e in evs if e.code == "income"]
    assert [e["amount"] for e in incomes] == [200, 100] and st.pawns[0].cash == 600
    moved = [e for e in evs if e.code == "moved"]
    assert [m["dest"] for m in moved] == ["bahr_el_ghasal", "lake_victoria"]
    assert st.phase == "phase2" and ENGINE.view(st, None).x.declared == "roll"
    st, _ = play(st, 0, "end_phase")
    assert st.phase == "phase3"  # a token to flip
    st, evs = play(st, 0, "end_phase")
    assert st.turn == 1 and codes(evs)[-1] == "turn"


def test_zero_step_move_stay_and_start_node_draw_nothing():
    st = xnew("dar_fur", dice=(3,), decks={"event": ("reward",)})
    st, evs = play(st, 0, "roll", "move dar_fur")
    assert "event_card" not in codes(evs) and st.phase == "phase2"
    st = xnew("dar_fur", decks={"event": ("reward",)})
    st, evs = play(st, 0, "stay")
    assert "event_card" not in codes(evs) and st.phase == "phase2"


def test_teacher_draws_two_cards_where_he_stops_one_where_he_passes():
    st = xnew(
        "dar_fur",
        chars=("teacher", "merchant"),
        dice=(4,),
        decks={"event": ("reward", "found_wallet", "inheritance", "toll")},
    )
    st, evs = play(st, 0, "roll", "move lake_victoria")
    assert [e["amount"] for e in evs if e.code == "income"] == [200, 100, 300]
    assert st.pawns[0].cash == 900


def test_flight_free_passage_and_seaplane_draw_at_the_destination():
    st = xnew("cairo", cash=300, decks={"event": ("reward",)})
    st, evs = play(st, 0, "fly suakin")
    assert "event_card" in codes(evs) and st.pawns[0].cash == 200  # 300 fare, +200 reward
    st = xnew(
        Pawn("s_cairo__suakin_3", cash=0, voyage=Voyage("sea:cairo:suakin", "cairo", "suakin", 3, False)),
        decks={"event": ("found_wallet",)},
    )
    st, evs = play(st, 0, "free_sail suakin")
    assert st.pawns[0].node == "suakin" and st.pawns[0].cash == 100
    # the Aviator's Seaplane: 200, a whole leg, a stop at the far port
    st = xnew("cairo", chars=("aviator", "merchant"), cash=400, decks={"event": ("reward",)})
    assert "seaplane suakin" in legal(st)
    st, evs = play(st, 0, "seaplane suakin")
    assert codes(evs)[:2] == ["card_used", "seaplane"] and st.pawns[0].node == "suakin"
    assert st.pawns[0].cash == 400 - 200 + 200 and st.phase == "phase2"
    assert refused(xnew("cairo", cash=400), 0, "seaplane suakin") == "card_not_usable"


def test_instant_card_relocation_cuts_the_move_and_draws_no_event():
    st = xnew("dar_fur", dice=(4,), decks={"event": ("shortcut", "reward")})
    st, evs = play(st, 0, "roll", "move lake_victoria")
    # the Shortcut drawn at Bahr el Ghasal: optional, to the first place in a direction
    assert prompt(st) == "choose" and legal(st) == {"choose dar_fur", "choose lake_victoria", "decline"}
    st, evs = play(st, 0, "choose dar_fur")
    assert st.pawns[0].node == "dar_fur" and "event_card" not in codes(evs) and st.phase == "phase2"
    assert st.ext.event.discard[-1].startswith("shortcut")
    # declined: the move goes on, the next card comes at Lake Victoria
    st = xnew("dar_fur", dice=(4,), decks={"event": ("shortcut", "reward")})
    st, _ = play(st, 0, "roll", "move lake_victoria")
    st, evs = play(st, 0, "decline")
    assert st.pawns[0].node == "lake_victoria" and first(evs, "income")["amount"] == 200


def test_black_magic_swaps_pawns_and_checks_both():
    star = Pawn("cairo", items=("d99",))
    st = xnew("dar_fur", star, "sahara", dice=(3,), decks={"event": ("black_magic",)})
    st = replace(st, contents=(*st.contents, ("d99", "star")), star_found=True)
    st, _ = play(st, 0, "roll", "move egypt")
    assert prompt(st) == "choose" and legal(st) == {"choose seat1", "choose seat2"}
    assert refused(st, 0, "decline") == "must_choose"
    st, evs = play(st, 0, "choose seat2")
    assert st.pawns[0].node == "sahara" and st.pawns[2].node == "egypt"
    # the Star holder swapped onto a goal wins at once (M6, any relocation)
    st = xnew("tangier", star, dice=(1,), decks={"event": ("black_magic",)})
    st = replace(st, contents=(*st.contents, ("d99", "star")), star_found=True)
    st = replace(st, pawns=(Pawn("l_tangier__tunis_1"), st.pawns[1]))
    st = replace(st, ext=replace(st.ext, turn=TurnX(visited=("l_tangier__tunis_1",))))
    st, evs = play(st, 0, "roll", "move tangier", "choose seat1")
    assert first(evs, "won")["seat"] == 1 and ENGINE.outcome(st).winners == (1,)


def test_a_move_may_stop_where_another_pawn_stands():
    st = xnew("dar_fur", "l_bahr_el_ghasal__dar_fur_1", dice=(6,))
    st, _ = play(st, 0, "roll")
    assert "move p" + board.CODE["l_bahr_el_ghasal__dar_fur_1"][1:] in legal(st)
    st, _ = play(st, 0, f"move {board.CODE['l_bahr_el_ghasal__dar_fur_1']}")
    assert st.pawns[0].node == st.pawns[1].node and st.phase == "phase2"
    # at sea too, on the leg ahead
    sea = Pawn("s_cairo__suakin_2", voyage=Voyage("sea:cairo:suakin", "cairo", "suakin", 2, True))
    st = xnew("cairo", sea, dice=(6,))
    st, _ = play(st, 0, "roll")
    assert {"board suakin", f"move {board.CODE['s_cairo__suakin_2']}"} <= legal(st)
    st, _ = play(st, 0, f"move {board.CODE['s_cairo__suakin_2']}")
    assert st.pawns[0].node == "s_cairo__suakin_2" and st.pawns[0].voyage.at == 2 and st.pawns[0].cash == 200


def test_rainy_season_shortens_land_moves_until_the_reshuffle():
    st = xnew("dar_fur", "cairo", dice=(3, 3, 1), decks={"event": ("rainy_season",)})
    st, evs = play(st, 0, "roll", "move egypt")
    assert "rain_started" in codes(evs) and ENGINE.view(st, None).x.rain
    st = drain(st)
    st, _ = play(st, 1, "roll")  # 3 on land: 2 steps
    assert ENGINE.view(st, None).x.allowance == (2, 3)
    assert {a for a in legal(st, 1) if a.startswith("move")} == {
        f"move {board.CODE['l_cairo__egypt_2']}",
        "move cairo",
    }
    st, _ = play(st, 1, f"move {board.CODE['l_cairo__egypt_2']}")
    st = drain(st, 1)
    st, _ = play(st, 0, "roll")  # a 1 stays 1 (edge 20)
    assert ENGINE.view(st, None).x.allowance == (1, 1)
    # Tent: immune
    st = xnew("egypt", cards={0: ("tent",)}, dice=(3,))
    st = replace(
        st,
        ext=replace(
            st.ext,
            rain="rainy_season#1",
            event=replace(st.ext.event, draw=tuple(c for c in st.ext.event.draw if c != "rainy_season#1")),
        ),
    )
    st, _ = play(st, 0, "roll")
    assert f"move {board.CODE['l_cairo__egypt_1']}" in legal(st)


def test_fair_weather_ends_the_rain_or_draws_again_and_reshuffle_ends_it():
    st = xnew("dar_fur", dice=(3, 4), decks={"event": ("rainy_season", "fair_weather")})
    st, evs = play(st, 0, "roll", "move egypt")
    st = drain(st)
    st, _ = play(st, 1, "stay")
    st = drain(st, 1)
    st, evs = play(st, 0, "roll", "move dar_fur")
    assert first(evs, "rain_ended")["reason"] == "fair_weather" and st.ext.rain is None
    st = xnew("dar_fur", dice=(3,), decks={"event": ("fair_weather", "reward")})
    st, evs = play(st, 0, "roll", "move egypt")
    assert first(evs, "income")["amount"] == 200
    # the event deck runs out: its discard pile is reshuffled and the rain ends (edge 21)
    st = xnew("dar_fur", dice=(4,))  # 4 in the rain: 3 steps
    x = st.ext
    pile = x.event.draw
    st = replace(st, ext=replace(x, rain=pile[0], event=replace(x.event, draw=(), discard=pile[1:])))
    st, evs = play(st, 0, "roll", "move egypt")
    assert first(evs, "rain_ended")["reason"] == "reshuffle" and "reshuffled" in codes(evs)
    assert st.ext.rain is None


def test_compass_maps_and_the_sea_captain_change_the_die():
    st = xnew("dar_fur", cards={0: ("compass", "maps")}, dice=(1, 5))
    st, _ = play(st, 0, "roll")
    assert {"reroll_move", "adjust +1", "adjust -1"} <= legal(st)
    st, evs = play(st, 0, "reroll_move")
    assert first(evs, "rolled")["die"] == 5 and st.move.steps == 5
    assert "reroll_move" not in legal(st)
    st, evs = play(st, 0, "adjust +1")
    assert st.move.steps == 6 and "adjust -1" not in legal(st)
    # Maps first: no Compass afterwards
    st = play(xnew("dar_fur", cards={0: ("compass", "maps")}, dice=(3,)), 0, "roll", "adjust -1")[0]
    assert st.move.steps == 2 and "reroll_move" not in legal(st)
    # the Sea captain: no fare, +1 when the move's first step is at sea
    st = xnew("cairo", chars=("sea_captain", "merchant"), dice=(2,))
    st, evs = play(st, 0, "board suakin")
    assert first(evs, "boarded")["fare"] == 0 and first(evs, "sailed")["steps"] == 3


def test_extra_steps_in_phase_two_continue_the_path_and_draw_events():
    st = xnew("dar_fur", cards={0: ("horse",)}, dice=(1,), decks={"event": ("reward",)})
    st, _ = play(st, 0, "roll", f"move {board.CODE['l_bahr_el_ghasal__dar_fur_1']}")
    assert st.phase == "phase2" and "use horse" in legal(st)
    st, evs = play(st, 0, "use horse")
    assert first(evs, "card_used")["ability"] == "extra_steps"
    assert st.pawns[0].node == "bahr_el_ghasal" and first(evs, "income")["amount"] == 200
    assert "use horse" not in legal(st)  # once per round
    # M2: the extra steps cannot go back over the turn's path
    st = xnew("dar_fur", cards={0: ("horse",)}, dice=(1,))
    st, _ = play(st, 0, "roll", f"move {board.CODE['l_bahr_el_ghasal__dar_fur_1']}", "use horse")
    assert st.pawns[0].node == "bahr_el_ghasal"
    # not after stay or a flight (the Aviator excepted); Mechanic: +1 for a vehicle
    st = play(xnew("dar_fur", cards={0: ("horse",)}), 0, "stay")[0]
    assert refused(st, 0, "use horse") == "no_extra_steps"
    st = play(xnew("cairo", cards={0: ("horse",)}, cash=1000), 0, "fly suakin")[0]
    assert refused(st, 0, "use horse") == "no_extra_steps"
    st = play(
        xnew("cairo", chars=("aviator", "merchant"), cards={0: ("horse",)}, cash=1000), 0, "fly suakin"
    )[0]
    assert "use horse" in legal(st)
    st = xnew("dar_fur", cards={0: ("horse", "mechanic")}, dice=(1,))
    st, _ = play(st, 0, "roll", f"move {board.CODE['l_dar_fur__egypt_1']}")
    st, evs = play(st, 0, "use horse")
    assert st.pawns[0].node == "egypt" and first(evs, "moved")["steps"] == 2


def test_capture_is_checked_when_phase_two_ends():
    st = xnew("sahara", cards={0: ("horse",)}, dice=(2,))
    st, _ = play(st, 0, "roll", "move p0")
    assert st.pawns[0].node == "hz_bedouins_sahara" and not st.pawns[0].captured
    st, evs = play(st, 0, "use horse")  # extra steps carry him past the bedouins (edge 8)
    assert st.pawns[0].node == "l_dar_fur__sahara_5"
    st, evs = play(st, 0, "end_phase")
    assert "captured" not in codes(evs)
    st = xnew("sahara", chars=("aviator", "teacher"), dice=(2,))
    st, _ = play(st, 0, "roll", "move p0")
    st, evs = play(st, 0, "end_phase")
    assert "captured" in codes(evs) and st.pawns[0].captured
    # Camel: the bedouins do not capture (an announced passive use)
    st = xnew("sahara", chars=("merchant", "aviator"), dice=(2,))  # the Merchant's camel
    st, evs = play(st, 0, "roll", "move p0", "end_phase")
    assert "not_captured" in codes(evs) and not st.pawns[0].captured


def test_captured_player_rolls_then_phases_two_and_three_without_movement():
    st = xnew(
        Pawn(
            "hz_pirates_st_helena_south",
            captured=True,
            voyage=Voyage("sea:capetown:st_helena", "st_helena", "capetown", 1, True),
        ),
        cards={0: ("canoe", "old_salt")},
        dice=(5,),
    )
    assert st.phase == "release" and legal(st) == {"roll"}
    st, evs = play(st, 0, "roll")
    # 5 is no release face, but Old salt releases from the pirates on 1-5
    assert codes(evs)[:4] == ["rolled", "still_captured", "card_used", "released"]
    assert st.phase == "phase2" and refused(st, 0, "use canoe") == "no_extra_steps"


def test_forced_march_and_tailwind_move_without_events():
    st = xnew("cairo", cash=1000, hands={0: ("forced_march",)}, decks={"event": ("reward",)})
    st, _ = play(st, 0, "fly suakin")
    assert "play forced_march" in legal(st)
    st, evs = play(st, 0, "play forced_march")
    assert first(evs, "hand_card_played")["card"].startswith("forced_march") and st.phase == "move"
    st, evs = play(st, 0, "move addis_abeba")
    assert st.pawns[0].node == "addis_abeba" and "event_card" not in codes(evs) and st.phase == "phase2"
    st = play(xnew("cairo", hands={0: ("tailwind",)}), 0, "stay")[0]
    st, _ = play(st, 0, "play tailwind")
    st, evs = play(st, 0, "board suakin")
    assert first(evs, "sailed")["steps"] == 3 and st.pawns[0].cash == 200


# ---------------------------------------------------------------------------------------------
# Expedition cards: selling, the card limit, completeness (§5.3, §5.9)

COMPLETE = ("village_chief", "gold_digger", "hunter", "porters")  # 3 of each attribute


def phase3(st, seat=0):
    st, _ = play(st, seat, "stay", "end_phase")
    assert st.phase == "phase3", st.phase
    return st


def no_equipment(st):
    """Every equipment token gone (as if flipped)."""
    gone = [(t, TREASURE_PLACES[i]) for i, s in enumerate(st.stacks) for t in s if t.startswith("e")]
    return replace(
        st,
        stacks=tuple(tuple(t for t in s if t.startswith("d")) for s in st.stacks),
        revealed=(*st.revealed, *gone),
    )


def test_selling_and_discarding_in_phase_two_with_merchant_and_haggling():
    st = xnew(
        "egypt", chars=("merchant", "aviator"), cards={0: ("coffee_beans", "hunter", "guide", "haggling")}
    )
    st, _ = play(st, 0, "stay")
    assert refused(st, 1, "sell rifle") == "not_your_turn"  # edge 54
    assert (
        refused(st, 0, "sell guide") == "not_sellable" and refused(st, 0, "discard coffee_beans") == "sell_it"
    )
    st, evs = play(st, 0, "sell coffee_beans")
    assert first(evs, "sold")["amount"] == 300 + 100 + 100  # Merchant and Haggling
    st, evs = play(st, 0, "discard hunter")
    assert first(evs, "card_discarded")["amount"] == 200 + 200
    st, evs = play(st, 0, "discard guide")
    assert first(evs, "card_discarded")["amount"] == 0
    assert st.pawns[0].cash == 300 + 500 + 400 and st.ext.expedition.discard[-3:] == tuple(
        i for i in st.ext.expedition.discard[-3:]
    )


def test_card_limit_discards_at_once_with_sale_values_and_full_kit():
    seven = ("rope", "revolver", "compass", "tent", "maps", "bicycle", "canoe")
    st = xnew(
        "dar_fur",
        chars=("aviator", "teacher"),
        cards={0: seven},
        dice=(3,),
        decks={"event": ("new_recruit",), "expedition": ("automobile",)},
    )
    st, evs = play(st, 0, "roll", "move egypt")
    assert prompt(st) == "limit_discard" and ENGINE.to_act(st) == (0,)
    st, evs = play(st, 0, "discard automobile")  # the new card may go (edge 25), for its sale value
    assert first(evs, "card_discarded")["amount"] == 200 and st.pawns[0].cash == 500 and prompt(st) is None
    st = xnew(
        "dar_fur",
        cards={0: (*seven[:6], "full_kit")},
        dice=(3,),
        decks={"event": ("new_recruit",), "expedition": ("automobile",)},
    )
    st, _ = play(st, 0, "roll", "move egypt")
    assert prompt(st) is None and len(cards_of(st, 0)) == 8
    assert ENGINE.view(st, None).x.players[0].card_limit == 8


def test_completeness_any_either_or_choice_three_of_each_or_two_with_five_players():
    from engines.afrikan_tahti.retkikunnat.content import complete

    inst = lambda *ids: tuple(f"{i}#1" for i in ids)  # noqa: E731
    assert complete(inst(*COMPLETE), 3)
    assert not complete(inst("village_chief", "gold_digger", "hunter"), 3)
    # either-or cards count for whichever attribute is short
    assert complete(inst("village_chief", "gold_digger", "hunter", "machete", "tinned_food"), 3)
    assert not complete(inst("village_chief", "gold_digger", "hunter", "machete", "rope"), 3)
    assert complete(inst("village_chief", "porters", "hunter"), 2)
    assert not complete(inst("village_chief", "guide"), 2)
    st = xnew("egypt", players=5)
    assert ENGINE.view(st, None).x.threshold == 2 and ENGINE.view(st, None).x.gem_roll


def test_lower_layer_needs_a_complete_expedition_or_no_equipment_left():
    st = xnew("egypt", layout={"egypt": "topaz"}, lower={"egypt": "ruby"})
    st, evs = play(phase3(st), 0, "flip")
    assert first(evs, "gem")["amount"] == 300 and top_kind(st, "egypt") == "ruby"
    st = replace(st, turn=0, phase="declare", ext=replace(st.ext, turn=TurnX(visited=("egypt",))))
    st = phase3(replace(st, pawns=(st.pawns[0], replace(st.pawns[1], node="egypt"))))
    assert refused(st, 0, "flip") == "expedition_incomplete"
    # complete: the normal price
    st = set_cards(st, 0, COMPLETE)
    st, evs = play(st, 0, "flip")
    assert first(evs, "flipped")["paid"] == 100 and first(evs, "gem")["amount"] == 1000 + 100  # Gold digger
    # a discovery token under an equipment token is never flipped, even when complete
    st = phase3(xnew("egypt", cards={0: COMPLETE}, layout={"egypt": "topaz"}))
    st, evs = play(st, 0, "flip")
    assert first(evs, "flipped")["kind"] == "topaz"


def test_no_equipment_left_200_or_a_five_six_roll_and_the_shovel():
    st = no_equipment(xnew("egypt", lower={"egypt": "emerald"}, dice=(4, 5)))
    st = phase3(st)
    st, evs = play(st, 0, "flip")
    assert first(evs, "flipped")["paid"] == 200 and st.pawns[0].cash == 300 - 200 + 600
    st = phase3(no_equipment(xnew("egypt", cash=100, lower={"egypt": "emerald"}, dice=(4, 5))))
    assert refused(st, 0, "flip") == "cannot_afford"  # edge 43: a 5-6 roll instead
    _, evs = play(st, 0, "flip_roll")
    assert "flip_failed" in codes(evs)  # a 4 is not enough here
    st = phase3(no_equipment(xnew("egypt", cash=100, lower={"egypt": "emerald"}, dice=(5,))))
    _, evs = play(st, 0, "flip_roll")
    assert first(evs, "flipped")["by"] == "roll" and first(evs, "flipped")["paid"] == 0
    st = phase3(no_equipment(xnew("egypt", cash=300, lower={"egypt": "emerald"})))
    assert refused(st, 0, "flip_roll") == "can_afford_flip"  # edge 44
    # Shovel: 100 (an announced passive use)
    st = phase3(
        no_equipment(xnew("egypt", cash=100, chars=("archaeologist", "merchant"), lower={"egypt": "emerald"}))
    )
    st, evs = play(st, 0, "flip")
    assert codes(evs)[:2] == ["card_used", "flipped"] and first(evs, "flipped")["paid"] == 100


# ---------------------------------------------------------------------------------------------
# Tokens (§5.14) and Surprise! (§5.18)


def test_expedition_token_draws_a_card_and_the_tycoon_earns():
    st = phase3(
        xnew(
            "egypt",
            chars=("tycoon", "merchant"),
            layout={"egypt": "expedition"},
            decks={"expedition": ("bicycle",)},
        )
    )
    st, evs = play(st, 0, "flip")
    assert cards_of(st, 0)[-1] == "bicycle" and first(evs, "income")["reason"] == "tycoon"
    assert st.pawns[0].cash == 300 - 100 + 100


def test_robber_money_belt_bookkeeping_and_the_adventurer():
    st = phase3(xnew("egypt", cash=700, cards={0: ("money_belt", "bookkeeping")}, layout={"egypt": "robber"}))
    st, evs = play(st, 0, "flip")
    assert first(evs, "card_used")["card"].startswith("bookkeeping")
    assert first(evs, "robbed")["lost"] == 400 and st.pawns[0].cash == 200
    st = phase3(xnew("egypt", cash=700, cards={0: ("money_belt",)}, layout={"egypt": "robber"}))
    st, evs = play(st, 0, "flip")
    assert st.pawns[0].cash == 100
    st = phase3(
        xnew(
            "egypt",
            cash=700,
            chars=("adventurer", "merchant"),
            layout={"egypt": "robber"},
            decks={"danger": ("holy_land",)},
            ddice=BLANKS,
        )
    )
    st, _ = play(st, 0, "flip")
    assert prompt(st) == "exchange" and legal(st) == {"exchange", "decline"}
    st, evs = play(st, 0, "exchange")
    assert first(evs, "danger_card")["card"].startswith("holy_land") and st.pawns[0].cash == 600


def test_gems_double_at_gold_coast_then_gold_digger():
    st = phase3(xnew("gold_coast", cards={0: ("gold_digger",)}, layout={"gold_coast": "ruby"}))
    st, evs = play(st, 0, "flip")
    gem = first(evs, "gem")
    assert gem["amount"] == 2100 and gem["doubled"] and gem["bonus"] == 100  # edge 6


def test_slave_coast_robber_or_danger_costs_three_turns_explorer_one():
    st = phase3(xnew("slave_coast", layout={"slave_coast": "robber"}))
    st, evs = play(st, 0, "flip")
    assert first(evs, "turns_lost")["turns"] == 3 and st.pawns[0].lost_turns == 3
    st = phase3(
        xnew(
            "slave_coast",
            chars=("explorer", "merchant"),
            layout={"slave_coast": "danger"},
            decks={"danger": ("holy_land",)},
            ddice=("coin", *BLANKS[1:]),
        )
    )
    st, evs = play(st, 0, "flip", "roll")
    assert "danger_passed" in codes(evs) and st.pawns[0].lost_turns == 1  # capped


def test_surprise_swaps_the_revealed_token_for_another_of_the_same_layer():
    st = phase3(xnew("egypt", hands={0: ("surprise",)}, layout={"egypt": "robber", "sahara": "ruby"}))
    st, evs = play(st, 0, "flip")
    assert prompt(st) == "reveal" and "play surprise sahara" in legal(st) and "pass" in legal(st)
    robber = st.revealed[-1][0]
    st, evs = play(st, 0, "play surprise sahara")
    assert first(evs, "surprise")["kind"] == "ruby" and first(evs, "gem")["amount"] == 1000
    # the robber now lies face down at Sahara, known to all
    assert st.stacks[TREASURE_PLACES.index("sahara")][-1] == robber
    view = ENGINE.view(st, None)
    assert ("sahara", content_id(robber, "robber")) in view.x.known
    assert content_id(robber, "robber") not in ENGINE.hidden_tokens(st, 1)
    # a player holding any hand card gets the moment, whether or not it is a Surprise!
    st = phase3(xnew("egypt", hands={0: ("gotcha",)}, layout={"egypt": "topaz"}))
    st, _ = play(st, 0, "flip")
    assert prompt(st) == "reveal" and legal(st) == {"pass", "ask never"}


# ---------------------------------------------------------------------------------------------
# Peeks, stacks and the characters' own abilities (§5.22)


def test_archaeologist_peek_is_private_and_fortune_seeker_swaps_stacks():
    st = xnew("egypt", chars=("archaeologist", "merchant"), layout={"egypt": "ruby"})
    st, evs = play(st, 0, "stay", "peek")
    result = first(evs, "peek_result")
    assert result.to == (0,) and result["token"].endswith(":ruby") and first(evs, "peeked").public
    assert refused(st, 0, "peek") == "ability_used"
    assert ("egypt", result["token"]) in ENGINE.view(st, 0).x.peeks
    assert ENGINE.view(st, 1).x.peeks == () and result["token"] in ENGINE.hidden_tokens(st, 1)
    assert result["token"] not in ENGINE.hidden_tokens(st, 0)
    st = xnew("egypt", chars=("fortune_seeker", "merchant"), layout={"egypt": "ruby", "sahara": "robber"})
    st, _ = play(st, 0, "stay")
    st, evs = play(st, 0, "swap_stack sahara")
    assert top_kind(st, "egypt") == "robber" and top_kind(st, "sahara") == "ruby"
    assert refused(st, 0, "swap_stack tunis") == "ability_used"


def test_binoculars_scout_old_map_and_earthquake():
    st = xnew(
        "dar_fur",
        chars=("aviator", "merchant"),
        cards={0: ("binoculars", "scout")},
        dice=(3,),
        layout={"bahr_el_ghasal": "ruby", "egypt": "topaz"},
    )
    st, _ = play(st, 0, "roll", "move egypt")
    # places within six land steps: Bahr el Ghasal (5), not Suakin (7)
    assert "use binoculars bahr_el_ghasal" in legal(st) and "use binoculars suakin" not in legal(st)
    st, evs = play(st, 0, "use binoculars bahr_el_ghasal")
    assert first(evs, "peek_result")["token"].endswith(":ruby") and first(evs, "peek_result").to == (0,)
    assert "use scout egypt" in legal(st) and "use scout suakin" not in legal(st)
    st = xnew(
        "dar_fur", dice=(3,), decks={"event": ("old_map",)}, layout={"tunis": "ruby", "sahara": "robber"}
    )
    st, _ = play(st, 0, "roll", "move egypt", "choose tunis")
    assert prompt(st) == "choose"
    st, evs = play(st, 0, "choose sahara")
    assert [p for p, _c in ENGINE.view(st, 0).x.peeks] == ["tunis", "sahara"]
    st = xnew(
        "dar_fur", dice=(3,), decks={"event": ("earthquake",)}, layout={"egypt": "ruby", "tunis": "robber"}
    )
    st, _ = play(st, 0, "roll", "move egypt")
    st, evs = play(st, 0, "choose tunis")
    assert top_kind(st, "egypt") == "robber" and first(evs, "stacks_swapped")["places"] == ("egypt", "tunis")


def test_merchant_buys_the_top_discard_and_tinned_food_saves_a_lost_turn():
    st = xnew("egypt", chars=("merchant", "aviator"))
    x = st.ext
    top = x.expedition.draw[0]
    st = replace(
        st, ext=replace(x, expedition=replace(x.expedition, draw=x.expedition.draw[1:], discard=(top,)))
    )
    st, evs = play(st, 0, "stay", "buy_discard")
    assert st.ext.seats[0].cards[-1] == top and st.pawns[0].cash == 100
    st = xnew("egypt", "sahara", cards={1: ("tinned_food",)})
    st = replace(st, pawns=(st.pawns[0], replace(st.pawns[1], lost_turns=1)))
    st = drain(play(st, 0, "stay")[0])
    assert (
        prompt(st) == "lost_turn"
        and ENGINE.to_act(st) == (1,)
        and legal(st, 1) == {"use tinned_food", "pass"}
    )
    st, evs = play(st, 1, "use tinned_food")
    assert "lost_turn_cancelled" in codes(evs) and st.turn == 1 and st.phase == "declare"


# ---------------------------------------------------------------------------------------------
# Event cards (§5.6, §5.17, §5.19)


def event_at_egypt(card, *at, **kw):
    """Seat 0 walks from Dar-Fur to Egypt (3) and draws ``card`` there."""
    kw.setdefault("dice", (3,))
    decks = kw.pop("decks", {})
    return play(xnew("dar_fur", *at, decks={"event": (card,), **decks}, **kw), 0, "roll", "move egypt")


@pytest.mark.parametrize(
    ("card", "cash", "change"),
    [
        ("reward", 300, 200),
        ("found_wallet", 300, 100),
        ("inheritance", 300, 300),
        ("toll", 300, -100),
        ("toll", 0, 0),
        ("pickpocket", 300, -200),
    ],
)
def test_money_events(card, cash, change):
    st, evs = event_at_egypt(card, cash=cash, chars=("aviator", "teacher"))
    assert st.pawns[0].cash == cash + change and first(evs, "event_card")["card"].startswith(card)
    assert st.ext.event.discard[-1].startswith(card)


def test_pickpocket_is_a_robbery_the_money_belt_keeps_100():
    st, evs = event_at_egypt("pickpocket", cash=200, cards={0: ("money_belt",)})
    assert st.pawns[0].cash == 100 and first(evs, "robbed")["kept"] == 100


def test_card_losses_random_allies_equipment_and_the_doctor():
    st, evs = event_at_egypt("porters_desert", cards={0: ("guide", "compass")})
    assert cards_of(st, 0) == ["compass"] and first(evs, "card_lost")["reason"] == "random"
    st, evs = event_at_egypt("gear_soaked", cards={0: ("guide",)})
    assert cards_of(st, 0) == ["guide"] and "penalty_void" in codes(evs)  # edge 50
    st, evs = event_at_egypt("porters_desert", chars=("doctor", "merchant"))
    assert cards_of(st, 0) == ["medical_kit", "guide"]  # immune to ally loss


def test_fever_and_the_explorer_cap():
    st, evs = event_at_egypt("fever")
    assert st.pawns[0].lost_turns == 1 and first(evs, "turns_lost")["reason"] == "event"
    st = xnew(
        Pawn("dar_fur", lost_turns=1), chars=("explorer", "merchant"), dice=(3,), decks={"event": ("fever",)}
    )
    st, evs = play(st, 0, "roll", "move egypt")
    assert first(evs, "turns_lost")["pending"] == 1 and st.pawns[0].lost_turns == 1


def test_draws_searches_and_market_day():
    st, evs = event_at_egypt("new_recruit", chars=("tycoon", "merchant"), decks={"expedition": ("canoe",)})
    assert cards_of(st, 0)[-1] == "canoe" and st.pawns[0].cash == 400
    st, evs = event_at_egypt("vehicle_for_hire", decks={"expedition": ("rope", "tent", "automobile")})
    assert cards_of(st, 0)[-1] == "automobile" and "reshuffled" not in codes(evs)
    st, evs = event_at_egypt("ally_offers_help")
    assert EXP[cards_of(st, 0)[-1]]["type"] == "ally"
    st, evs = event_at_egypt("market_day", decks={"expedition": ("pearl_necklace",)})
    assert prompt(st) == "market_day" and legal(st) == {"accept", "decline"}
    st2, _ = play(st, 0, "accept")
    assert cards_of(st2, 0)[-1] == "pearl_necklace" and st2.pawns[0].cash == 100
    st2, _ = play(st, 0, "decline")
    assert "pearl_necklace" not in cards_of(st2, 0)
    st, evs = event_at_egypt("market_day", cash=100)
    assert prompt(st) is None  # edge 66


def test_telegram_takes_100_from_the_richest_opponent_ties_chosen():
    st, _ = event_at_egypt("telegram", "cairo", "cairo", cash=(300, 500, 200))
    assert [p.cash for p in st.pawns] == [400, 400, 200]
    st, _evs = event_at_egypt("telegram", "cairo", "cairo", cash=(300, 500, 500))
    assert prompt(st) == "choose" and legal(st) == {"choose seat1", "choose seat2"}
    st, _ = play(st, 0, "choose seat2")
    assert [p.cash for p in st.pawns] == [400, 500, 400]


def test_a_fifth_hand_card_is_discarded_at_once_privately_chosen():
    st, evs = event_at_egypt("sabotage", hands={0: ("gotcha", "bribe", "favour", "tailwind")})
    drawn = first(evs, "hand_card_drawn")
    assert (
        drawn.to == (0,) and first(evs, "drew_hand_card").public and first(evs, "drew_hand_card")["hand"] == 5
    )
    assert prompt(st) == "hand_discard" and "discard sabotage" in legal(st)
    pub = ENGINE.view(st, None).x.prompt
    assert pub.kind == "hand_discard" and pub.options == () and pub.card is None
    st, evs = play(st, 0, "discard tailwind")
    assert first(evs, "hand_card_discarded").public and len(st.ext.seats[0].hand) == 4 and prompt(st) is None


# ---------------------------------------------------------------------------------------------
# Danger situations (§5.11)


def danger_at_egypt(card, ddice, **kw):
    decks = {"event": ("lions_roar",), "danger": (card,)}
    return play(xnew("dar_fur", decks=decks, ddice=ddice, dice=(3,), **kw), 0, "roll", "move egypt")


def test_unlucky_event_starts_a_danger_situation_success_continues_the_turn():
    st, evs = danger_at_egypt("ambush", ("spears", "boot", "blank", "blank", "blank"))
    assert prompt(st) == "danger" and ENGINE.view(st, None).x.danger.stage == "drawn"
    assert ENGINE.view(st, None).x.danger.requires == (("boot", 1), ("spears", 1))
    st, evs = play(st, 0, "roll")
    assert first(evs, "danger_dice")["dice"] == ("spears", "boot", "blank", "blank", "blank")
    assert "danger_passed" in codes(evs) and st.phase == "phase2" and prompt(st) is None


def test_failure_applies_the_penalty_and_ends_the_turn_mid_move():
    st = xnew(
        "dar_fur",
        dice=(4,),
        ddice=BLANKS,
        decks={"event": ("lions_roar", "reward"), "danger": ("quicksand",)},
    )
    st, _ = play(st, 0, "roll", "move lake_victoria", "roll")  # failed at Bahr el Ghasal (edge 22)
    assert st.pawns[0].node == "bahr_el_ghasal" and st.turn == 1 and st.pawns[0].lost_turns == 2
    assert st.ext.danger.discard[-1].startswith("quicksand") and st.pawns[0].cash == 300


def test_rerolls_choose_dice_and_may_be_sabotaged():
    st, _ = danger_at_egypt(
        "challenge",
        ("spears", "blank", "blank", "coin", "gem", "spears"),
        cards={0: ("rifle",)},
        chars=("aviator", "teacher"),
    )
    assert prompt(st) == "danger"
    st, evs = play(st, 0, "roll")
    assert (
        "danger_passed" not in codes(evs) and "reroll rifle 2,3" in legal(st) and "reroll_done" in legal(st)
    )
    assert refused(st, 0, "reroll feint 2") == "card_not_usable"
    st, evs = play(st, 0, "reroll rifle 2")
    assert first(evs, "rerolled")["result"][1] == "spears" and "danger_passed" in codes(evs)


def test_doctor_reroll_dynamite_bribe_and_reroll_done():
    st, _ = danger_at_egypt("trap", ("blank",) * 5 + ("boot",), chars=("doctor", "merchant"))
    st, _ = play(st, 0, "roll")
    assert "reroll doctor 1" in legal(st) and "reroll doctor 1,2" not in legal(st)
    st, evs = play(st, 0, "reroll doctor 3")
    assert "danger_passed" in codes(evs)
    st, _ = danger_at_egypt("trap", BLANKS, cards={0: ("dynamite",)})
    st, evs = play(st, 0, "use dynamite")  # before rolling
    assert first(evs, "danger_passed")["reason"] == "dynamite" and "dynamite" not in cards_of(st, 0)
    st, _ = danger_at_egypt("quicksand", BLANKS, hands={0: ("bribe",)})
    st, evs = play(st, 0, "play bribe")
    assert first(evs, "bribed")["paid"] == 100 and st.pawns[0].cash == 200 and st.phase == "phase2"
    st, _ = danger_at_egypt("holy_land", BLANKS, cards={0: ("rifle",)}, chars=("aviator", "teacher"))
    st, evs = play(st, 0, "roll", "reroll_done")
    assert "danger_failed" in codes(evs) and st.pawns[0].lost_turns == 1


def test_penalty_modifiers_cook_first_aid_medical_kit_survival():
    st, evs = danger_at_egypt("holy_land", BLANKS, cards={0: ("cook",)})
    st, evs = play(st, 0, "roll")
    assert st.pawns[0].lost_turns == 0 and "card_used" in codes(evs)
    st, _ = danger_at_egypt("quicksand", BLANKS, cards={0: ("first_aid",)})
    st, _ = play(st, 0, "roll")
    assert st.pawns[0].lost_turns == 1
    st, _ = danger_at_egypt("quicksand", BLANKS, cards={0: ("medical_kit",)})
    st, evs = play(st, 0, "roll")
    assert prompt(st) == "danger" and legal(st) == {"use medical_kit", "pass"}
    st, evs = play(st, 0, "use medical_kit")
    assert "penalty_cancelled" in codes(evs) and st.pawns[0].lost_turns == 0 and st.turn == 1
    st, _ = danger_at_egypt("quicksand", BLANKS, cards={0: ("survival",)}, cash=300)
    st, evs = play(st, 0, "roll", "use survival")
    assert st.pawns[0].cash == 100 and st.pawns[0].lost_turns == 0
    st, _ = danger_at_egypt("devil_in_the_night", BLANKS, cards={0: ("guide", "cook")})
    st, _ = play(st, 0, "roll")
    assert prompt(st) == "choose" and legal(st) == {"choose guide", "choose cook"}
    st, evs = play(st, 0, "choose cook")
    assert cards_of(st, 0) == ["guide"] and st.pawns[0].lost_turns == 1


# ---------------------------------------------------------------------------------------------
# Reaction windows (§5.10)


def horse_use(**kw):
    """Seat 0 in Phase 2 after a 1 toward Bahr el Ghasal, about to use the horse."""
    st = xnew("dar_fur", "cairo", "cairo", cards={0: ("horse",)}, dice=(1,), **kw)
    return play(st, 0, "roll", f"move {board.CODE['l_bahr_el_ghasal__dar_fur_1']}")[0]


def test_a_window_prompts_every_opponent_holding_a_hand_card_whatever_it_is():
    st = horse_use(hands={1: ("gotcha",), 2: ("sabotage",)})
    st, evs = play(st, 0, "use horse")
    window = first(evs, "window")
    assert window["kind"] == "sabotage" and window["seats"] == (1, 2) and window.public
    assert ENGINE.to_act(st) == (1, 2) and st.pawns[0].node != "bahr_el_ghasal"
    assert legal(st, 1) == {"pass", "ask never"} and legal(st, 2) == {"pass", "play sabotage", "ask never"}
    assert ENGINE.view(st, None).x.prompt.seats == (1, 2)
    assert refused(st, 0, "end_phase") == "not_asked"
    assert refused(st, 1, "play gotcha") == "not_an_answer"
    st, _ = play(st, 1, "pass")
    assert ENGINE.to_act(st) == (2,)
    st, evs = play(st, 2, "pass")
    assert "window_closed" in codes(evs) and st.pawns[0].node == "bahr_el_ghasal"


def test_no_window_without_hand_cards_or_when_every_answer_is_discarded():
    st = horse_use()
    st, evs = play(st, 0, "use horse")
    assert "window" not in codes(evs)
    st = horse_use(hands={1: ("gotcha",)})
    x = st.ext
    sabotages = tuple(c for c in x.event.draw if c.startswith("sabotage"))
    st = replace(
        st,
        ext=replace(
            x,
            event=replace(
                x.event, draw=tuple(c for c in x.event.draw if c not in sabotages), discard=sabotages
            ),
        ),
    )
    st, evs = play(st, 0, "use horse")
    assert "window" not in codes(evs)


def test_sabotage_destroys_the_card_and_cancels_the_use_first_answer_counts():
    st = horse_use(hands={1: ("sabotage",), 2: ("sabotage",)})
    st, _ = play(st, 0, "use horse")
    st, evs = play(st, 2, "play sabotage")
    assert first(evs, "hand_card_played")["target"].startswith("horse")
    assert ENGINE.to_act(st) == (1,)  # the gotcha window: seat 1's Sabotage stays in hand, seat 0 holds none
    st, evs = play(st, 1, "pass")
    assert "sabotaged" in codes(evs) and "use_cancelled" in codes(evs)
    assert cards_of(st, 0) == [] and st.pawns[0].node == "l_bahr_el_ghasal__dar_fur_1"
    assert hand_of(st, 1) == ["sabotage"] and st.ext.event.discard[-1].startswith("sabotage")


def test_gotcha_cancels_a_played_card_and_gotcha_answers_gotcha():
    st = horse_use(hands={0: ("gotcha",), 1: ("sabotage",), 2: ("gotcha",)})
    st, _ = play(st, 0, "use horse")
    st, _ = play(st, 1, "play sabotage")
    assert ENGINE.view(st, None).x.prompt.target.startswith("horse")
    st, evs = play(st, 0, "play gotcha")  # the owner defends his horse
    assert ENGINE.to_act(st) == (2,)  # seat 1 holds no hand card any more
    st, evs = play(st, 2, "play gotcha")  # ... and seat 2 cancels the owner's gotcha (edge 28)
    assert "hand_card_cancelled" in codes(evs) and "sabotaged" in codes(evs) and cards_of(st, 0) == []
    st = horse_use(hands={0: ("gotcha",), 1: ("sabotage",)})
    st, _ = play(st, 0, "use horse")
    st, _ = play(st, 1, "play sabotage")
    st, evs = play(st, 0, "play gotcha")
    assert "hand_card_cancelled" in codes(evs) and cards_of(st, 0) == ["horse"]
    assert st.pawns[0].node == "bahr_el_ghasal"


def test_proactive_sabotage_against_an_exposed_lasting_card():
    st = xnew("egypt", "cairo", cards={1: ("tent",)}, hands={0: ("sabotage",)})
    assert not any(a.startswith("play sabotage") for a in legal(st))
    st = replace(st, ext=replace(st.ext, rain=next(c for c in st.ext.event.draw if c.startswith("rainy"))))
    st = replace(
        st,
        ext=replace(
            st.ext,
            event=replace(
                st.ext.event, draw=tuple(c for c in st.ext.event.draw if not c.startswith("rainy"))
            ),
        ),
    )
    assert "play sabotage seat1:tent" in legal(st)
    st, evs = play(st, 0, "play sabotage seat1:tent")
    assert "sabotaged" in codes(evs) and cards_of(st, 1) == []
    # a card-limit card is exposed while its owner holds more than 7 cards
    eight = ("rope", "revolver", "compass", "maps", "bicycle", "canoe", "tent", "full_kit")
    st = xnew("egypt", "cairo", cards={1: eight}, hands={0: ("sabotage",)})
    st, evs = play(st, 0, "play sabotage seat1:full_kit")
    assert "full_kit" not in cards_of(st, 1) and len(cards_of(st, 1)) == 7 and prompt(st) is None


# ---------------------------------------------------------------------------------------------
# Duels (§5.12)

SPEARS2 = ("spears", "spears", "coin", "blank", "blank")  # the defender's X = spears, k = 2


def duel_table(*at, **kw):
    kw.setdefault("chars", ("aviator", "teacher", "tycoon"))
    return phase3(xnew(*(at or ("egypt", "egypt")), **kw))


def test_duel_targets_and_the_defender_sets_x_and_k():
    st = duel_table(cards={1: ("compass", "feint", "guide")}, cash=(300, 500))
    targets = {a for a in legal(st) if a.startswith("duel")}
    assert targets == {
        "duel seat1 card:compass",
        "duel seat1 card:guide",
        "duel seat1 money:200",
        "duel seat1 money:400",
    }
    assert refused(st, 0, "duel seat1 money:600") == "no_such_target"  # edge 33
    assert refused(st, 0, "duel seat1 card:feint") == "no_such_target"  # a skill (edge 36)
    st, evs = play(st, 0, "duel seat1 card:compass")
    assert first(evs, "duel")["target"] == "card:compass" and ENGINE.to_act(st) == (1,)
    assert ENGINE.view(st, None).x.duel.stage == "defender_roll"


def test_attacker_wins_the_card_and_the_defender_loses_one_turn():
    st = duel_table(cards={1: ("compass",)}, ddice=(*SPEARS2, "spears", "spears", "blank", "blank", "blank"))
    st, _ = play(st, 0, "duel seat1 card:compass")
    st, evs = play(st, 1, "roll")
    assert first(evs, "duel_defence")["face"] == "spears" and first(evs, "duel_defence")["k"] == 2
    st, evs = play(st, 0, "roll")
    assert (
        first(evs, "duel_result")["winner"] == 0
        and cards_of(st, 0)[-1] == "compass"
        and cards_of(st, 1) == []
    )
    assert st.pawns[1].lost_turns == 0 and "turn_lost" in codes(evs) and st.turn == 0  # seat 1's turn skipped


@pytest.mark.parametrize(
    ("target", "lost"),
    [("card:compass", 1), ("card:rope", 2), ("card:automobile", 2), ("money:400", 2), ("money:200", 1)],
)
def test_the_attacker_who_loses_loses_turns_by_target(target, lost):
    st = duel_table(
        cards={1: ("compass", "rope", "automobile")},
        cash=(300, 500),
        ddice=(*SPEARS2, "spears", "blank", "blank", "blank", "blank"),
    )
    st, _ = play(
        st,
        0,
        f"duel seat1 {target}",
    )
    st, _ = play(st, 1, "roll")
    st, evs = play(st, 0, "roll")
    assert first(evs, "duel_result")["winner"] == 1 and first(evs, "turns_lost")["turns"] == lost
    assert st.pawns[0].lost_turns == lost and st.turn == 1


def test_blank_defence_loses_without_a_roll_and_money_belt_keeps_100():
    st = duel_table(cards={1: ("money_belt",)}, cash=(300, 400), ddice=BLANKS)
    st, _ = play(st, 0, "duel seat1 money:400")
    st, evs = play(st, 1, "roll")
    assert first(evs, "duel_defence")["k"] == 0 and first(evs, "duel_result")["winner"] == 0  # edge 39
    assert first(evs, "robbed")["lost"] == 300 and [p.cash for p in st.pawns] == [600, 100]  # edge 34


def test_rerolls_in_a_duel_by_scope():
    st = duel_table(
        cards={0: ("boxing",), 1: ("bodyguard", "compass")},
        ddice=(
            "spears",
            "coin",
            "boot",
            "gem",
            "skull",
            "spears",
            "spears",
            "blank",
            "blank",
            "skull",
            "blank",
            "blank",
            "spears",
        ),
    )
    st, _ = play(st, 0, "duel seat1 card:compass")
    st, _ = play(st, 1, "roll")
    # all faces differ: k = 1 so far; Bodyguard (2 dice, defence only) may raise it
    assert ENGINE.view(st, None).x.duel.stage == "defender_reroll"
    assert "reroll bodyguard 1,2" in legal(st, 1) and "reroll_done" in legal(st, 1)
    st, evs = play(st, 1, "reroll bodyguard 2,3")
    assert first(evs, "duel_defence")["face"] == "spears" and first(evs, "duel_defence")["k"] == 3
    st, evs = play(st, 0, "roll")
    assert legal(st, 0) == {f"reroll boxing {i}" for i in range(1, 6)} | {"reroll_done"}
    st, evs = play(st, 0, "reroll boxing 1")  # one spears of three needed: still lost
    assert first(evs, "duel_result")["winner"] == 1 and first(evs, "duel_result")["hits"] == 1
    assert st.pawns[0].lost_turns == 1


def test_a_third_player_rescues_the_defender():
    st = duel_table(
        "egypt",
        "egypt",
        "cairo",
        cards={1: ("compass",)},
        hands={2: ("favour",)},
        ddice=(*SPEARS2, "spears", "spears", "blank", "blank", "blank"),
    )
    st, _ = play(st, 0, "duel seat1 card:compass")
    st, _ = play(st, 1, "roll")
    st, evs = play(st, 0, "roll")
    window = first(evs, "window")
    assert window["kind"] == "rescue" and window["seats"] == (2,) and window["target"] == "card:compass"
    st, evs = play(st, 2, "play favour")
    assert "duel_rescued" in codes(evs) and cards_of(st, 1) == ["compass"]
    assert st.pawns[1].lost_turns == 0 and st.pawns[0].lost_turns == 0 and st.turn == 1


def test_the_star_can_be_stolen():
    st = duel_table(Pawn("egypt"), Pawn("egypt", items=("d99",)), ddice=BLANKS)
    st = replace(st, contents=(*st.contents, ("d99", "star")), star_found=True)
    assert "duel seat1 star" in legal(st)
    st, evs = play(
        st,
        0,
        "duel seat1 star",
    )
    st, evs = play(st, 1, "roll")
    assert (
        st.pawns[0].items == ("d99",)
        and st.pawns[1].items == ()
        and first(evs, "item_taken")["item"] == "star"
    )
    assert ENGINE.view(st, None).star_holder == 0


# ---------------------------------------------------------------------------------------------
# Trading (§5.13)


def test_trade_offer_accepted_or_declined():
    st = duel_table(cards={0: ("compass", "feint"), 1: ("horse",)}, layout={"egypt": "topaz"})
    assert "offer seat1 compass for horse" in legal(st) and "offer seat1 100 for horse" in legal(st)
    assert ENGINE.parse_notation("offer seat1 give compass get horse") == ENGINE.parse_notation(
        "offer seat1 compass for horse"
    )  # the spec's wording is accepted too
    assert refused(st, 0, "offer seat1 feint for 100") == "not_tradeable"
    assert refused(st, 0, "offer seat1 400 for horse") == "not_enough_money"
    st2, evs = play(st, 0, "offer seat1 compass for horse")
    assert ENGINE.to_act(st2) == (1,) and legal(st2, 1) == {"accept", "decline"}
    assert ENGINE.view(st2, None).x.offer.give == ("compass",)
    st3, evs = play(st2, 1, "decline")
    assert "offer_declined" in codes(evs) and st3.phase == "phase3" and "flip" in legal(st3)
    st3, evs = play(st2, 1, "accept")
    assert cards_of(st3, 0) == ["feint", "horse"] and cards_of(st3, 1) == ["compass"]
    assert refused(st3, 0, "flip") == "action_taken"
    st4, _ = play(play(st3, 0, "offer seat1 100 for compass")[0], 1, "accept")
    assert st4.pawns[0].cash == 200 and st4.pawns[1].cash == 400
    assert refused(st4, 0, "offer seat1 100 for compass") == "too_many_offers"


def test_a_trade_over_the_limit_discards_at_once():
    seven = ("rope", "revolver", "compass", "tent", "maps", "bicycle", "canoe")
    st = duel_table(chars=("aviator", "teacher"), cards={0: ("horse",), 1: seven})
    st, _ = play(play(st, 0, "offer seat1 horse for 100")[0], 1, "accept")
    assert prompt(st) == "limit_discard" and ENGINE.to_act(st) == (1,)
    st, _ = play(st, 1, "discard rope")
    assert prompt(st) is None and st.turn == 0 and st.phase == "phase3"


# ---------------------------------------------------------------------------------------------
# Lost turns, 5-6 players, the quick game (§5.16, §5.20, §5.21)


def test_gem_roll_gives_up_the_turn_for_a_card_with_two_gems():
    st = xnew(
        "egypt",
        players=5,
        chars=("aviator", "teacher", "doctor", "tycoon", "merchant"),
        ddice=("gem", "gem", "blank", "blank", "blank"),
        decks={"expedition": ("canoe",)},
    )
    assert "gem_roll" in legal(st)
    st, evs = play(st, 0, "gem_roll")
    assert first(evs, "gem_roll")["gems"] == 2 and cards_of(st, 0)[-1] == "canoe" and st.turn == 1
    assert refused(xnew("egypt"), 0, "gem_roll") == "no_gem_roll"  # edge 67


def test_teacher_second_card_is_not_drawn_when_the_first_ends_the_turn():
    st = xnew(
        "dar_fur",
        chars=("teacher", "merchant"),
        dice=(3,),
        ddice=BLANKS,
        decks={"event": ("lions_roar", "reward"), "danger": ("holy_land",)},
    )
    st, evs = play(st, 0, "roll", "move egypt", "roll", "reroll_done")  # Languages would allow a reroll
    assert "danger_failed" in codes(evs) and "income" not in codes(evs) and st.turn == 1  # edge 53


def test_adventurer_exchanges_a_drawn_card_which_becomes_public():
    st = xnew(
        "dar_fur",
        chars=("adventurer", "merchant"),
        dice=(3,),
        ddice=BLANKS,
        decks={"event": ("sabotage",), "danger": ("gorilla",)},
    )
    st, evs = play(st, 0, "roll", "move egypt")
    assert prompt(st) == "exchange" and first(evs, "hand_card_drawn").to == (0,)
    assert ENGINE.view(st, None).x.prompt.card is None and ENGINE.view(st, 0).x.prompt.card.startswith(
        "sabotage"
    )
    st, evs = play(st, 0, "exchange")
    assert first(evs, "exchanged")["card"].startswith("sabotage") and hand_of(st, 0) == []  # edge 52
    assert first(evs, "danger_card")["card"].startswith("gorilla")


# ---------------------------------------------------------------------------------------------
# Information (§9), notation (§7), defaults, persistence


def test_hands_are_private_and_the_deck_order_hidden():
    st, evs = event_at_egypt("gotcha", "cairo", hands={1: ("bribe",)})
    mine = ENGINE.view(st, 0)
    assert hand_of(st, 0) == ["gotcha"] and mine.x.hand == st.ext.seats[0].hand
    public, other = ENGINE.view(st, None), ENGINE.view(st, 1)
    assert public.x.hand == () and other.x.hand == st.ext.seats[1].hand
    assert [p.hand_count for p in public.x.players] == [1, 1]
    for observer, view in ((None, public), (1, other), (0, mine)):
        text = json.dumps(ENGINE.dump(view))
        hidden = ENGINE.hidden_tokens(st, observer)
        assert not any(t in text for t in hidden)
        assert all(f'"{c}"' in hidden for c in st.ext.event.draw)
    assert f'"{st.ext.seats[0].hand[0]}"' in ENGINE.hidden_tokens(st, 1)
    # private events go to the drawer only; the table hears "drew a hand card"
    assert [e.code for e in evs if e.to is not None] == ["hand_card_drawn"]
    assert all(st.ext.seats[0].hand[0] not in json.dumps(e.params) for e in evs if e.public)


def test_notation_of_the_expansion_round_trips_within_45_bytes():
    texts = (
        "character sea_captain",
        "seaplane whalefish_bay",
        "gem_roll",
        "reroll_move",
        "adjust +1",
        "adjust -1",
        "use horse",
        "use binoculars kandjama",
        "reroll rifle 2,5",
        "reroll doctor 3",
        "reroll_done",
        "sell coffee_beans",
        "discard hunter",
        "discard gotcha",
        "hold money_belt",
        "unhold money_belt",
        "play sabotage",
        "play sabotage seat3:rifle",
        "play surprise cape_st_marie",
        "pass",
        "duel seat1 star",
        "duel seat2 card:pearl_necklace",
        "duel seat5 money:600",
        "offer seat1 compass,200 for horse",
        "offer seat5 pearl_necklace for village_chief",
        "offer seat2 - for 300",
        "accept",
        "decline",
        "swap_stack sahara",
        "peek",
        "exchange",
        "buy_discard",
        "choose kandjama",
        "choose seat2",
        "choose guide",
        "end_phase",
        "roll",
        "flip",
    )
    for text in texts:
        action = ENGINE.parse_notation(text)
        assert ENGINE.notation(action) == text and len(text.encode()) <= 45
    for bad in (
        "use nothing",
        "reroll rifle 5,2",
        "reroll rifle 0",
        "duel seat1 money:300",
        "duel 1 star",
        "offer seat1 compass,100,200 for -",
        "offer seat1 give x get -",
        "play horse",
        "adjust +2",
        "character nobody",
        "choose nowhere",
        "sell",
        "play sabotage seat9:rifle",
    ):
        with pytest.raises(BadNotation):
            ENGINE.parse_notation(bad)


def test_idle_defaults_follow_the_spec_table():
    st = horse_use(hands={1: ("sabotage",)})
    assert idle(st, 0).__class__.__name__ == "EndPhase"
    st, _ = play(st, 0, "use horse")
    assert ENGINE.notation(idle(st, 1)) == "pass"
    st, _ = danger_at_egypt("trap", BLANKS, cards={0: ("rifle",)}, chars=("aviator", "teacher"))
    assert ENGINE.notation(idle(st, 0)) == "roll"
    st, _ = play(st, 0, "roll")
    assert ENGINE.notation(idle(st, 0)) == "reroll_done"
    st, _ = event_at_egypt("shortcut")
    assert ENGINE.notation(idle(st, 0)) == "decline"
    st = xnew("egypt")
    assert ENGINE.notation(idle(st, 0)) == "stay"
    st = ENGINE.new_game(2, "idle")
    assert ENGINE.notation(idle(st, 0)) == "character adventurer"


def check_invariants(st):
    x = st.ext
    down = [t for s in st.stacks for t in s]
    total = 30 if st.options.quick_game else 60
    assert len(down) + len(st.revealed) == total and len(set(down)) == len(down)
    kinds = dict(st.contents)
    assert sum(1 for p in st.pawns for t in p.items if kinds[t] == "star") <= 1
    for p in st.pawns:
        assert p.cash >= 0 and p.cash % 100 == 0
        if p.node is not None:
            assert (p.node in board.SEA_DOTS) == (p.voyage is not None)
            if p.voyage is not None:
                assert LEGS[(p.voyage.origin, p.voyage.dest)].path[p.voyage.at] == p.node
    drawn = [c for j in x.stack for k, v in j.p if k == "drawn" for c in v]
    exp = [*x.expedition.draw, *x.expedition.discard, *(c for s in x.seats for c in s.cards), *drawn]
    evt = [
        *x.event.draw,
        *x.event.discard,
        *(c for s in x.seats for c in s.hand),
        *([x.rain] if x.rain else []),
        *(c for c in x.resolving if c in EVENT_CARDS),
    ]
    dng = [*x.danger.draw, *x.danger.discard, *(c for c in x.resolving if c in DANGER_CARDS)]
    assert sorted(exp) == sorted(EXPEDITION_CARDS) and sorted(evt) == sorted(EVENT_CARDS)
    assert sorted(dng) == sorted(DANGER_CARDS)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {"quick_game": True}),
        (5, {}),
        (6, {"hazard_trigger": "pass_through", "broke_sea_steps": 1}),
    ],
)
def test_invariants_and_replay_in_random_and_smart_play(players, options):
    opts = ENGINE.options_from_dict(options)
    for g in range(2):

        def step(state, seat, action, events):
            check_invariants(state)
            if ENGINE.outcome(state) is None:
                assert all(ENGINE.legal_actions(state, s) for s in ENGINE.to_act(state))

        ais = tuple(("random", "smart")[(s + g) % 2] for s in range(players))
        st, log = play_ai_game(ENGINE, ais, f"inv{players}:{g}", opts, step)
        assert ENGINE.outcome(st) is not None
        assert replay(ENGINE, players, f"inv{players}:{g}", opts, log) == st
        assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(st)))) == st


def test_smart_plays_only_from_its_view_and_answers_windows_and_dangers():
    st, _ = danger_at_egypt(
        "challenge",
        ("spears", "blank", "blank", "coin", "gem"),
        cards={0: ("rifle",)},
        chars=("aviator", "teacher"),
    )
    st, _ = play(st, 0, "roll")
    view = ENGINE.view(st, 0)
    action = ENGINE.ai_action("smart", view, ENGINE.legal_actions(st, 0), random.Random(1))
    assert (
        isinstance(action, Reroll)
        and action.card == "rifle"
        and len(action.dice) == 2
        and 1 not in action.dice
    )


def test_simulate_runs_expansion_games_without_errors():
    result = simulate("afrikan_tahti", 6, "x-sim", 4, ["smart", "random"])
    assert result["errors"] == 0 and result["games"] == 6


@pytest.mark.slow
def test_smart_beats_random_in_three_player_expansion_games():
    result = simulate("afrikan_tahti", 30, "x-ai", 3, ["smart", "random"])  # smart won all 30
    assert result["errors"] == 0 and result["win_rate"]["smart"] >= 0.8


def test_sabotaged_uses_seaplane_reroll_and_a_held_card():
    st = xnew("cairo", "cairo", chars=("aviator", "merchant"), cash=400, hands={1: ("sabotage",)})
    st, _ = play(st, 0, "seaplane suakin")
    st, evs = play(st, 1, "play sabotage")
    assert "use_cancelled" in codes(evs) and st.pawns[0].node == "cairo" and st.phase == "declare"
    assert "seaplane" not in cards_of(st, 0) and st.pawns[0].cash == 400  # nothing paid; declare again
    # a sabotaged reroll card is destroyed and the reroll not made (edge 27)
    st, _ = danger_at_egypt(
        "challenge",
        ("spears", "blank", "blank", "coin", "gem"),
        cards={0: ("rifle",)},
        chars=("aviator", "teacher"),
        hands={1: ("sabotage",)},
    )
    st, _ = play(st, 0, "roll", "reroll rifle 2,3")
    st, evs = play(st, 1, "play sabotage")
    assert "rerolled" not in codes(evs) and "danger_failed" in codes(evs) and "rifle" not in cards_of(st, 0)
    # a held passive card is not used (nor exposed): the robber takes everything
    st = xnew("egypt", cash=700, cards={0: ("money_belt",)}, layout={"egypt": "robber"})
    st, _ = play(st, 0, "stay", "hold money_belt", "end_phase", "flip")
    assert st.pawns[0].cash == 0 and ENGINE.view(st, None).x.players[0].held == st.ext.seats[0].cards


def test_a_duel_target_destroyed_in_a_reroll_window_voids_the_duel():
    st = duel_table(
        "egypt",
        "egypt",
        "cairo",
        cards={1: ("revolver",)},
        hands={2: ("sabotage",)},
        ddice=("spears", "coin", "boot", "gem", "skull", "spears", "spears", "spears", "blank", "blank"),
    )
    st, _ = play(st, 0, "duel seat1 card:revolver")
    st, _ = play(st, 1, "roll", "reroll revolver 2")
    st, evs = play(st, 2, "play sabotage")  # a third player destroys the target
    assert "sabotaged" in codes(evs) and "revolver" not in cards_of(st, 1)
    st, evs = play(st, 0, "roll")
    assert first(evs, "duel_result")["winner"] == 0 and first(evs, "duel_void")["reason"] == "target_gone"
    assert st.pawns[1].lost_turns == 0 and st.pawns[0].lost_turns == 0  # edge 35


# ---------------------------------------------------------------------------------------------
# Every card's ability as data, and the ones not pinned above


def test_card_tables_match_the_content():
    from engines.afrikan_tahti.retkikunnat.content import (
        CARD_LIMIT,
        EXTRA_STEPS,
        RAIN_IMMUNE,
        REROLLS,
        sale_value,
    )

    assert REROLLS == {
        "rifle": (2, "any"),
        "machete": (1, "any"),
        "rope": (1, "danger"),
        "revolver": (1, "duel"),
        "hunter": (1, "any"),
        "interpreter": (1, "danger"),
        "bodyguard": (2, "duel_defence"),
        "feint": (1, "any"),
        "languages": (1, "danger"),
        "marksmanship": (1, "duel"),
        "boxing": (1, "duel_attack"),
    }
    assert EXTRA_STEPS == {
        "machete": (1, "land"),
        "travel_papers": (1, "any"),
        "horse": (1, "land"),
        "automobile": (2, "land"),
        "steamship": (2, "sea"),
        "camel": (1, "land"),
        "bicycle": (1, "land"),
        "canoe": (1, "sea"),
        "motor_boat": (1, "sea"),
        "guide": (1, "land"),
        "old_salt": (1, "sea"),
        "navigation": (1, "any"),
    }
    assert {"full_kit", "ox_wagon", "porters"} == CARD_LIMIT and {"tent", "orienteering"} == RAIN_IMMUNE
    assert {
        c: sale_value(c)
        for c in (
            "fortune",
            "rum_barrel",
            "pearl_necklace",
            "coffee_beans",
            "machete",
            "hunter",
            "guide",
            "navigation",
        )
    } == {
        "fortune": 500,
        "rum_barrel": 300,
        "pearl_necklace": 400,
        "coffee_beans": 300,
        "machete": 100,
        "hunter": 200,
        "guide": 0,
        "navigation": 0,
    }


def test_dual_machete_one_use_per_round():
    st = xnew(
        "dar_fur",
        cards={0: ("machete",)},
        dice=(1,),
        ddice=BLANKS,
        chars=("aviator", "teacher"),
        decks={"event": ("lions_roar",), "danger": ("trap",)},
    )
    st, _ = play(st, 0, "roll", f"move {board.CODE['l_bahr_el_ghasal__dar_fur_1']}", "use machete")
    assert ENGINE.view(st, None).x.players[0].used == st.ext.seats[0].cards
    # used for extra steps, its reroll is spent too: the danger at Bahr el Ghasal fails outright
    st, evs = play(st, 0, "roll")
    assert "danger_failed" in codes(evs) and st.turn == 1
    st, _ = play(st, 1, "stay")
    st = drain(st, 1)
    # his next turn (lost to the trap) still refreshes his cards (§5.4 step 1 before step 2)
    assert st.pawns[0].lost_turns == 0 and ENGINE.view(st, None).x.players[0].used == ()


def test_trade_goods_draws_two_keeps_one_barter_goods_draws_one():
    st = xnew("egypt", chars=("merchant", "aviator"), decks={"expedition": ("compass", "bicycle")})
    st, _ = play(st, 0, "stay", "use trade_goods")
    assert prompt(st) == "choose" and legal(st) == {"choose compass", "choose bicycle"}
    st, _evs = play(st, 0, "choose bicycle")
    assert cards_of(st, 0) == ["camel", "bicycle"] and st.ext.expedition.discard[-2:][-1].startswith(
        "compass"
    )
    st = xnew(
        "egypt", cards={0: ("barter_goods",)}, chars=("aviator", "teacher"), decks={"expedition": ("tent",)}
    )
    st, _ = play(st, 0, "stay", "use barter_goods")
    assert cards_of(st, 0) == ["tent"]


def test_motor_boat_free_fare_swimming_three_step_free_passage_orienteering_low_roll():
    st = xnew("cairo", cards={0: ("motor_boat",)}, chars=("aviator", "teacher"), dice=(2,))
    st, evs = play(st, 0, "board suakin")
    assert first(evs, "boarded")["fare"] == 0 and st.pawns[0].cash == 300
    st = xnew("cairo", cash=0, cards={0: ("swimming",)}, chars=("aviator", "teacher"))
    st, evs = play(st, 0, "free_sail suakin")
    assert first(evs, "sailed")["steps"] == 3
    st = xnew("dar_fur", cards={0: ("orienteering",)}, chars=("aviator", "teacher"), dice=(2,))
    st, _ = play(st, 0, "roll", "move bahr_el_ghasal")
    assert "use orienteering" in legal(st)
    st = xnew("dar_fur", cards={0: ("orienteering",)}, chars=("aviator", "teacher"), dice=(3,))
    st, _ = play(st, 0, "roll", "move egypt")
    assert refused(st, 0, "use orienteering") == "not_a_low_roll"


def test_farmer_pays_300_after_a_stay_and_the_aviator_flies_for_200():
    st = xnew("egypt", cards={0: ("farmer",)}, chars=("aviator", "teacher"))
    st, evs = play(st, 0, "stay", "end_phase", "end_phase")
    assert first(evs, "income")["reason"] == "farmer" and st.pawns[0].cash == 600 and st.turn == 1
    st = xnew("cairo", chars=("aviator", "teacher"))
    st, evs = play(st, 0, "fly suakin")
    assert first(evs, "flew")["fare"] == 200


@pytest.mark.parametrize(
    ("card", "cards", "cash", "left", "kept"),
    [
        ("lioness", (), 300, (), 100),
        ("thieves_in_camp", ("money_belt",), 500, ("money_belt",), 300),
        ("bandit_gang", ("money_belt",), 200, ("money_belt",), 100),
        ("wild_current", ("canoe", "compass"), 300, ("compass",), 300),
        ("elephant_stampede", ("guide", "navigation"), 300, ("navigation",), 300),
    ],
)
def test_danger_penalties(card, cards, cash, left, kept):
    st, _ = danger_at_egypt(card, BLANKS, cards={0: cards}, cash=cash, chars=("aviator", "teacher"))
    st, _ = play(st, 0, "roll")
    assert st.pawns[0].cash == kept and tuple(c for c in cards_of(st, 0) if c in cards) == left


def test_any_terrain_and_sea_extra_steps():
    sea = Pawn("s_cairo__suakin_2", voyage=Voyage("sea:cairo:suakin", "cairo", "suakin", 2, True))
    st = play(xnew(sea, cards={0: ("navigation",)}, chars=("aviator", "teacher")), 0, "stay")[0]
    assert refused(st, 0, "use navigation") == "no_extra_steps"
    st = xnew(sea, cards={0: ("navigation",)}, chars=("aviator", "teacher"), dice=(1,))
    st, evs = play(st, 0, "roll", "use navigation")
    leg = LEGS[("cairo", "suakin")]
    assert [e["at"] for e in evs if e.code == "sailed"] == [3, 4] and st.pawns[0].node == leg.path[4]
    st = xnew("dar_fur", cards={0: ("steamship",)}, chars=("aviator", "teacher"), dice=(1,))
    st, _ = play(st, 0, "roll", "move p74")
    assert refused(st, 0, "use steamship") == "not_at_sea"
    st = xnew("cairo", cards={0: ("steamship",)}, chars=("aviator", "teacher"), dice=(1,))
    st, _ = play(st, 0, "roll", "move cairo", "use steamship")  # at a port: a new paid leg
    assert st.phase == "move" and "board suakin" in legal(st)
    st, evs = play(st, 0, "board suakin")
    assert first(evs, "sailed")["steps"] == 2 and st.pawns[0].cash == 200
