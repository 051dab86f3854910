"""The Afrikan Tähti AI levels: the strong player chooses the character that wins most."""

from __future__ import annotations

from random import Random

from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.model import Character
from tests.engines.afrikan_tahti_helpers import play


def _choice(state, seat: int, level: str) -> Character:
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
