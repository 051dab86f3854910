"""The Afrikan Tähti AI levels: the strong player chooses the character that wins most (Retkikunnat)
and, in the base game, flips for the Star where the normal one fears for its money."""

from __future__ import annotations

from dataclasses import replace
from random import Random
from typing import Any

from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.board import GOALS, TREASURE_PLACES
from engines.afrikan_tahti.model import Character, EndPhase, Flip, Options
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
    assert _choice(st, 2, "strong") == Character("aviator")


def test_in_the_base_game_a_rich_strong_player_still_flips_where_the_normal_one_fears_the_robber():
    # Only the Star (or a horseshoe after it) carried home wins; money does not. On a face-down
    # token with 3000 pounds the normal player declines to flip (a robber would take it all), the
    # strong one flips: each flip is a chance at the Star, and a token left is one for the rival.
    st = ENGINE.new_game(2, "strong-base-flip", Options(expansion=False, start_place="random"), first_seat=0)
    place = next(p for p in TREASURE_PLACES if p not in GOALS)
    st = replace(st, phase="after_move", pawns=(replace(st.pawns[0], node=place, cash=3000), st.pawns[1]))
    assert set(ENGINE.legal_actions(st, 0)) == {Flip(), EndPhase()}
    assert _choice(st, 0, "normal") == EndPhase()
    assert _choice(st, 0, "strong") == Flip()
    # poor, both flip: the robber has little to take
    st = replace(st, pawns=(replace(st.pawns[0], cash=300), st.pawns[1]))
    assert _choice(st, 0, "normal") == _choice(st, 0, "strong") == Flip()
