"""The Afrikan Tähti AI levels: in Retkikunnat the strong player chooses the character that wins most
at its table's size, leaves a token to a nearer rival, keeps the last equipment token shut while its
expedition alone is complete, sells a spare card to pay for its flip once the equipment is gone (and
buys none far from complete), and flies home with the Star; in the base game it flips for the Star
where the normal one fears for its money, flies home with the Star, keeps its fare home, and goes for
the Capetown bonus when broke; and no AI shuttles between two ports to the round limit."""

from __future__ import annotations

from dataclasses import replace
from random import Random
from typing import Any

from engines.afrikan_tahti import ENGINE, ai_strong
from engines.afrikan_tahti.base import ai as base_ai
from engines.afrikan_tahti.board import CAPETOWN, GOALS, TREASURE_PLACES
from engines.afrikan_tahti.model import (
    BuyDiscard,
    Character,
    EndPhase,
    Flip,
    Fly,
    FreeSail,
    Move,
    Movement,
    Options,
    Roll,
    Sell,
    Use,
)
from engines.afrikan_tahti.retkikunnat import ai as retkikunnat_ai
from engines.afrikan_tahti.retkikunnat.content import card_id
from tests.engines.afrikan_tahti_helpers import play


def _choice(state, seat: int, level: str) -> Any:
    legal = ENGINE.legal_actions(state, seat)
    return ENGINE.ais[level](ENGINE.view(state, seat), legal, Random(0))


def test_the_strong_player_takes_the_archaeologist_and_the_normal_one_its_own_taste():
    st = ENGINE.new_game(3, "strong-character")
    assert st.phase == "character"
    assert _choice(st, 0, "strong") == Character("archaeologist")
    assert _choice(st, 0, "normal") == Character("sea_captain")
    st, _ = play(st, 0, "character archaeologist")
    # the Archaeologist taken: the next best by the measured figures
    assert _choice(st, 1, "strong") == Character("sea_captain")
    st, _ = play(st, 1, "character sea_captain")
    # at three seats or more the Aviator wins least (it is third at two seats): the Merchant
    assert _choice(st, 2, "strong") == Character("merchant")
    st2 = ENGINE.new_game(2, "strong-character")
    st2, _ = play(st2, 0, "character merchant")
    assert _choice(st2, 1, "strong") == Character("archaeologist")


# ---------------------------------------------------------------------------------------------
# Retkikunnat: rivals' tokens, the last equipment token, the race home


def _x(*at: str, players: int = 3, **fields: Any):
    """A Retkikunnat game at seat 0's declaration with the pawns on ``at`` (merchant, teacher,
    doctor, ...: characters whose abilities stay out of the way)."""
    chars = ("merchant", "teacher", "doctor", "tycoon")[:players]
    st = ENGINE.new_game(
        players, "strong-x", Options(start_place="random"), characters=chars, first_seat=0, **fields
    )
    pawns = tuple(replace(p, node=at[s] if s < len(at) else "tangier") for s, p in enumerate(st.pawns))
    return replace(st, phase="declare", turn=0, round=5, pawns=pawns)


def _only(st, *places: str):
    """The state with the tokens of ``places`` alone left on the board."""
    return replace(
        st, stacks=tuple(s if p in places else () for p, s in zip(TREASURE_PLACES, st.stacks, strict=True))
    )


def test_the_strong_player_leaves_a_token_to_the_rival_next_to_it_and_heads_for_another():
    # At Addis Abeba: Cape Guardafui's token is 3 steps away, Bahr el Ghasal's 5. A rival stands one
    # step from Cape Guardafui, the nearest token for it: it will turn that one over first. The
    # normal player heads for the nearer token all the same; the strong one for the other.
    st = _only(_x("addis_abeba", "l_cape_guardafui__daressalam_1"), "cape_guardafui", "bahr_el_ghasal")
    view = ENGINE.view(st, 0)
    assert ai_strong.targets(view, 0) == ("bahr_el_ghasal",)
    assert base_ai._dist("addis_abeba", retkikunnat_ai.targets(view, 0)) == 3
    # with the rival elsewhere the strong player too goes for the nearer token
    st = replace(st, pawns=(st.pawns[0], replace(st.pawns[1], node="tangier"), st.pawns[2]))
    assert ai_strong.targets(ENGINE.view(st, 0), 0) == ("cape_guardafui",)


def test_a_complete_strong_expedition_leaves_the_last_equipment_token_shut():
    # Seat 0's expedition is complete, the rival's is not. On the last face-down equipment token
    # the normal player turns it over, which opens every discovery token (where the Star is) to the
    # rival at 200; the strong one leaves it and flips the discovery tokens it alone may flip.
    st = _only(_x("congo", players=2), "congo", "ocomba")
    i = TREASURE_PLACES.index("ocomba")
    st = replace(st, stacks=tuple(s[:1] if k == i else s for k, s in enumerate(st.stacks)))
    st = _cards(st, 0, ("rifle", "binoculars", "automobile", "horse", "rum_barrel", "fortune"))
    st = replace(st, phase="phase3")
    view = ENGINE.view(st, 0)
    assert view.x.players[0].complete and not view.x.players[1].complete
    assert [t[0] for _p, t in view.face_down] == ["d", "e", "d"]
    legal = ENGINE.legal_actions(st, 0)
    assert Flip() in legal
    assert _choice(st, 0, "normal") == Flip()
    assert _choice(st, 0, "strong") == EndPhase()
    # with no discovery token left open elsewhere it turns the last one over (else the game stalls)
    st2 = _only(st, "congo")
    assert [t[0] for _p, t in ENGINE.view(st2, 0).face_down] == ["d", "e"]
    assert _choice(st2, 0, "strong") == Flip()
    # the rival's expedition complete as well: nothing to keep shut
    st = _cards(st, 1, ("assistant", "guide", "steamship", "camel", "trade_goods", "languages"))
    assert ENGINE.view(st, 0).x.players[1].complete
    assert _choice(st, 0, "strong") == Flip()


def test_the_strong_holder_of_the_star_flies_home_in_the_expansion_too():
    # In Congo with the Star and 600: the strong player flies (to Gold Coast, next to Tangier), the
    # normal one walks the sixteen steps to Cairo.
    st = _x("congo", lower={"ocomba": "star"})
    i = TREASURE_PLACES.index("ocomba")
    tid = st.stacks[i][0]
    st = replace(
        st,
        star_found=True,
        stacks=tuple(() if k == i else s for k, s in enumerate(st.stacks)),
        revealed=((tid, "ocomba"),),
        pawns=(replace(st.pawns[0], cash=600, items=(tid,)), *st.pawns[1:]),
    )
    assert ENGINE.view(st, 0).star_holder == 0
    assert _choice(st, 0, "normal") == Roll()
    assert _choice(st, 0, "strong") == Fly("gold_coast")


def test_with_the_equipment_gone_the_strong_player_sells_a_card_to_pay_for_its_token():
    # The equipment tokens are all gone: a discovery token costs 200 to an incomplete expedition,
    # or a roll of 5-6. With 100 on one, the normal player ends Phase 2 and rolls; the strong one
    # sells its Horse (100) and pays, a sure flip instead of one in three.
    st = _only(_x("congo", players=2), "congo", "ocomba")
    st = replace(st, stacks=tuple(s[:1] for s in st.stacks), phase="phase2")
    st = _cards(st, 0, ("horse", "rum_barrel"))
    st = replace(st, pawns=(replace(st.pawns[0], cash=100), st.pawns[1]))
    view = ENGINE.view(st, 0)
    assert not view.x.players[0].complete and all(t.startswith("d") for _p, t in view.face_down)
    assert Sell("horse") in ENGINE.legal_actions(st, 0)
    assert _choice(st, 0, "normal") == EndPhase()
    assert _choice(st, 0, "strong") == Sell("horse")
    # with an equipment token left the cards the expedition lacks are kept (a complete expedition
    # flips the discovery tokens before the others may)
    st = _only(_x("congo", players=2), "congo", "ocomba")
    i = TREASURE_PLACES.index("congo")
    st = replace(st, stacks=tuple(s[:1] if k == i else s for k, s in enumerate(st.stacks)), phase="phase2")
    st = _cards(st, 0, ("horse", "rum_barrel"))
    st = replace(st, pawns=(replace(st.pawns[0], cash=100), st.pawns[1]))
    assert _choice(st, 0, "strong") == EndPhase()


def test_with_the_equipment_gone_the_strong_merchant_buys_no_card_far_from_complete():
    # The equipment tokens are all gone and the Merchant lacks several symbols: the normal player
    # buys the Rifle off the discard pile for 200 (a flip's price now), the strong one keeps the money.
    st = _only(_x("congo", players=2), "congo", "ocomba")
    st = replace(st, stacks=tuple(s[:1] for s in st.stacks), phase="phase2")
    st = _cards(st, 0, ("camel",))
    x = st.ext
    rifle = next(i for i in x.expedition.draw if card_id(i) == "rifle")
    draw = tuple(i for i in x.expedition.draw if i != rifle)
    st = replace(st, ext=replace(x, expedition=replace(x.expedition, draw=draw, discard=(rifle,))))
    st = replace(st, pawns=(replace(st.pawns[0], cash=500), st.pawns[1]))
    assert BuyDiscard() in ENGINE.legal_actions(st, 0)
    assert _choice(st, 0, "normal") == BuyDiscard()
    assert _choice(st, 0, "strong") == EndPhase()


def _cards(st, seat: int, ids: tuple[str, ...]):
    """``seat`` holds exactly these expedition cards (taken from the deck or from another seat)."""
    x = st.ext
    seats = list(x.seats)
    pool = list(x.expedition.draw) + [i for sx in seats for i in sx.cards]
    new = [next(i for i in pool if card_id(i) == cid) for cid in ids]
    seats = [replace(sx, cards=tuple(i for i in sx.cards if i not in new)) for sx in seats]
    seats[seat] = replace(seats[seat], cards=tuple(new))
    old = tuple(i for i in x.seats[seat].cards if i not in new)
    draw = tuple(i for i in x.expedition.draw if i not in new) + old  # the old ones to the deck
    return replace(st, ext=replace(x, seats=tuple(seats), expedition=replace(x.expedition, draw=draw)))


def test_in_the_base_game_a_rich_strong_player_still_flips_where_the_normal_one_fears_the_robber():
    # Only the Star (or a horseshoe after it) carried home wins; money does not. On a face-down
    # token with 3000 pounds the normal player declines to flip (a robber would take it all) while a
    # token it values more is left (Gold Coast's, gems double there), the strong one flips: each flip
    # is a chance at the Star, and a token left is one for the rival.
    st = ENGINE.new_game(2, "strong-base-flip", Options(expansion=False, start_place="random"), first_seat=0)
    place = next(p for p in TREASURE_PLACES if p not in GOALS)
    st = replace(st, phase="after_move", pawns=(replace(st.pawns[0], node=place, cash=3000), st.pawns[1]))
    assert set(ENGINE.legal_actions(st, 0)) == {Flip(), EndPhase()}
    assert _choice(st, 0, "normal") == EndPhase()
    assert _choice(st, 0, "strong") == Flip()
    # poor, both flip: the robber has little to take
    st = replace(st, pawns=(replace(st.pawns[0], cash=300), st.pawns[1]))
    assert _choice(st, 0, "normal") == _choice(st, 0, "strong") == Flip()


# ---------------------------------------------------------------------------------------------
# The base game: the race home after the Star, money for the flight, Capetown, free passages


def _base(node: str, cash: int, phase: str = "declare", *, star_at: str | None = None, **fields: Any):
    """A two-player base game with seat 0 to act on ``node`` (seat 1 in Cairo); with ``star_at`` the
    Star was found there by seat 0, which holds it."""
    layout = {star_at: "star"} if star_at else {}
    st = ENGINE.new_game(
        2, "strong-base", Options(expansion=False, start_place="random"), layout=layout, first_seat=0
    )
    items: tuple[str, ...] = ()
    if star_at:
        i = TREASURE_PLACES.index(star_at)
        tid = st.stacks[i][0]
        items = (tid,)
        st = replace(
            st,
            star_found=True,
            stacks=tuple(() if k == i else s for k, s in enumerate(st.stacks)),
            revealed=((tid, star_at),),
        )
    me = replace(st.pawns[0], node=node, cash=cash, items=items)
    return replace(st, phase=phase, turn=0, round=5, pawns=(me, replace(st.pawns[1], node="cairo")), **fields)


def test_the_strong_holder_of_the_star_flies_home_when_it_can_afford_it_the_normal_one_walks():
    # In Congo with the Star and 600: sixteen steps to Cairo on foot (five turns or so); the strong
    # player flies (Congo - Gold Coast - Morocco, next to Tangier), the normal one walks.
    st = _base("congo", 600, star_at="ocomba")
    assert _choice(st, 0, "normal") == Roll()
    assert _choice(st, 0, "strong") == Fly("gold_coast")
    # without the fare both walk
    st = _base("congo", 200, star_at="ocomba")
    assert _choice(st, 0, "strong") == _choice(st, 0, "normal") == Roll()


def test_the_strong_holder_keeps_its_fare_home_rather_than_pay_for_a_token():
    # At Suakin with the Star, the flight to Cairo costs 300: with 300 the strong player leaves the
    # token under it alone (and flies home next turn), the normal one spends 100 of the fare on it.
    st = _base("suakin", 300, "after_move", star_at="ocomba")
    assert set(ENGINE.legal_actions(st, 0)) == {Flip(), EndPhase()}
    assert _choice(st, 0, "normal") == Flip()
    assert _choice(st, 0, "strong") == EndPhase()
    st = replace(st, phase="declare")
    assert _choice(st, 0, "strong") == Fly("cairo")
    # with money to spare it turns the token over: a horseshoe there is one the rival cannot win with
    st = _base("suakin", 400, "after_move", star_at="ocomba")
    assert _choice(st, 0, "strong") == Flip()


def test_a_broke_strong_player_takes_the_capetown_bonus_the_roll_reaches_before_a_token():
    # Broke at Whalefish Bay with a 4: Capetown (its token gone, its 500 unclaimed) or Victoria Falls'
    # token. Broke, the token would cost turns of rolling; the bonus pays five flips.
    st = _base("whalefish_bay", 0, "move", move=Movement(4, 4, ("whalefish_bay",), "start"))
    st = replace(
        st, stacks=tuple(() if p == CAPETOWN else s for p, s in zip(TREASURE_PLACES, st.stacks, strict=True))
    )
    moves = {a.to for a in ENGINE.legal_actions(st, 0) if isinstance(a, Move)}
    assert {CAPETOWN, "victoria_falls"} <= moves
    assert _choice(st, 0, "normal").to == "victoria_falls"
    assert _choice(st, 0, "strong").to == CAPETOWN
    # with money it takes the token
    st = replace(st, pawns=(replace(st.pawns[0], cash=300), st.pawns[1]))
    assert _choice(st, 0, "strong").to == "victoria_falls"


def test_broke_players_sail_free_to_the_last_token_on_st_helena_and_do_not_shuttle():
    # Two broke AIs once sailed back and forth between Cape Verde and Sierra Leone to the round
    # limit, the last token (the Star) being on St. Helena, reached only by sea.
    for level in ("easy", "normal", "strong"):
        for port in ("sierra_leone", "cape_verde"):
            st = _base(port, 0)
            st = replace(
                st,
                stacks=tuple(
                    s if p == "st_helena" else () for p, s in zip(TREASURE_PLACES, st.stacks, strict=True)
                ),
            )
            assert FreeSail("st_helena") in ENGINE.legal_actions(st, 0)
            assert _choice(st, 0, level) == FreeSail("st_helena"), (level, port)


def test_a_rich_normal_player_flips_the_token_it_stands_on_when_none_is_worth_more():
    # It once stood on its token turn after turn, fearing the robber, to the round limit.
    st = ENGINE.new_game(2, "normal-rich", Options(expansion=False, start_place="random"), first_seat=0)
    st = replace(
        st,
        phase="after_move",
        stacks=tuple(
            s if p in ("dragon_mountain", "congo") else ()
            for p, s in zip(TREASURE_PLACES, st.stacks, strict=True)
        ),
        pawns=(replace(st.pawns[0], node="dragon_mountain", cash=2500), st.pawns[1]),
    )
    for level in ("easy", "normal", "strong"):
        assert _choice(st, 0, level) == Flip(), level


# ---------------------------------------------------------------------------------------------
# Retkikunnat, the normal player: the Merchant's Trade goods, extra steps beside a hazard


def test_the_normal_merchant_keeps_its_trade_goods_for_sale_rather_than_draw_with_them():
    # In Phase 2 with an incomplete expedition the normal player discarded Trade goods to draw two
    # expedition cards and keep one (a card it lacks is worth about 350 to it), although the
    # Merchant gets 400 for them sold (300, and its 100 on every card sold): it keeps them now, and
    # sells them when broke. Barter goods (200 to it sold) still buy a draw, and so do Trade goods in
    # the hands of a player without the Merchant's bonus (300).
    st = replace(_x("congo", players=2), phase="phase2")
    st = _cards(st, 0, ("trade_goods", "camel", "barter_goods"))
    view = ENGINE.view(st, 0)
    assert view.x.players[0].character == "merchant" and not view.x.players[0].complete
    assert retkikunnat_ai.sale_income(view, 0, "trade_goods") == 400
    legal = ENGINE.legal_actions(st, 0)
    assert Use("trade_goods") in legal and Use("barter_goods") in legal
    assert _choice(st, 0, "normal") == Use("barter_goods")
    st = _cards(st, 0, ("trade_goods", "camel"))
    assert Use("trade_goods") in ENGINE.legal_actions(st, 0)
    assert _choice(st, 0, "normal") == EndPhase()
    # broke with nothing else to sell: sold (for 400), not thrown away
    st = _cards(st, 0, ("trade_goods",))
    st = replace(st, pawns=(replace(st.pawns[0], cash=0), st.pawns[1]))
    assert _choice(st, 0, "normal") == Sell("trade_goods")
    # the Teacher (no sale bonus) still draws with them
    st = replace(_x("congo", players=2), phase="phase2")
    st = replace(st, turn=1, pawns=(st.pawns[0], replace(st.pawns[1], node="congo")))
    st = _cards(st, 1, ("trade_goods",))
    assert ENGINE.view(st, 1).x.players[1].character == "teacher"
    assert _choice(st, 1, "normal") == Use("trade_goods")


def test_the_normal_player_keeps_its_camel_step_where_it_could_only_lead_onto_the_bedouins():
    # After its die move, on the Sahara track one dot short of the bedouins, heading for Dar Fur:
    # the Camel's extra step can only go on (in a game the dot behind is this turn's path, which a
    # step may not re-enter), onto the bedouins, and a move with one ending is carried out at once.
    # The normal player now keeps the Camel there; a dot further on (the bedouins behind) it takes
    # the step.
    st = replace(_x("l_dar_fur__sahara_7", players=2), phase="phase2")
    st = replace(st, ext=replace(st.ext, turn=replace(st.ext.turn, declared="roll", moved=True)))
    st = _cards(st, 0, ("camel",))
    assert Use("camel") in ENGINE.legal_actions(st, 0)
    assert _choice(st, 0, "normal") != Use("camel")
    st = replace(st, pawns=(replace(st.pawns[0], node="l_dar_fur__sahara_3"), st.pawns[1]))
    assert Use("camel") in ENGINE.legal_actions(st, 0)
    assert _choice(st, 0, "normal") == Use("camel")
