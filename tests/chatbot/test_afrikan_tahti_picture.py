"""The board picture shows the expedition (issue 17, part 5): per player the money, lost turns,
symbols towards 3/3/3 (2/2/2) and hand-card count; the rainy season; the two token layers told
apart; a legend. It is drawn from the public view only: nothing a seat keeps secret (hand cards,
peeks, the face-down tokens' contents) changes what it shows."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.games.afrikan_tahti.picture import board_png, scene_of
from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.model import Options

FI = translator("fi")
NAMES = ("Anna", "Bertta", "Ceder", "Daavid", "Eemeli", "Fanni")


def ctx(n: int) -> RenderContext:
    return RenderContext(FI, NAMES[:n], None)


def played(players: int, options: Options, plies: int, seed: str = "kuva"):
    st = ENGINE.new_game(players, seed, options)
    rng = random.Random(seed)
    for _ in range(plies):
        if ENGINE.outcome(st) is not None:
            break
        seat = ENGINE.to_act(st)[0]
        legal = ENGINE.legal_actions(st, seat)
        st, _ = ENGINE.apply(st, seat, ENGINE.ai_action("smart", ENGINE.view(st, seat), legal, rng))
    return st


def test_the_scene_shows_each_players_expedition_money_hand_and_lost_turns():
    st = played(4, Options(), 60)
    view = ENGINE.view(st, None)
    scene = scene_of(view, ctx(4))
    assert len(scene.players) == 4 and scene.threshold == 3
    for (cash, lost, symbols, complete, hand), pawn, p in zip(
        scene.players, view.pawns, view.x.players, strict=True
    ):
        assert cash == f"{pawn.cash} £" or cash.replace("\u00a0", " ") == f"{pawn.cash:,} £".replace(",", " ")
        assert lost == pawn.lost_turns and hand == p.hand_count and complete == p.complete
        assert len(symbols) == 3 and all(0 <= n <= 3 for n in symbols)
    assert any(sum(s[2]) for s in scene.players)  # some expedition has symbols after 60 plies
    assert {"varustekiekko", "löytökiekko", "toimintakyky", "käsikortit"} <= set(scene.legend)
    # the two layers told apart: a stack of two shows the equipment token on the discovery token
    assert ("equipment", "discovery") in {layers for _p, layers in scene.face_down}
    quick = scene_of(ENGINE.view(played(6, Options(quick_game=True), 5), None), ctx(6))
    assert quick.threshold == 2 and {layers for _p, layers in quick.face_down} == {("discovery",)}


def test_the_rainy_season_is_in_the_picture():
    view = ENGINE.view(played(3, Options(), 10), None)
    assert scene_of(view, ctx(3)).rain is None
    rainy = replace(view, x=replace(view.x, rain=True))
    assert "Sadekausi" in (scene_of(rainy, ctx(3)).rain or "")
    assert board_png(rainy, ctx(3)) != board_png(view, ctx(3))


def test_a_complete_expedition_shows_full_bars():
    view = ENGINE.view(played(3, Options(), 10), None)
    players = list(view.x.players)
    players[1] = replace(players[1], complete=True, symbols=(3, 3, 3))
    scene = scene_of(replace(view, x=replace(view.x, players=tuple(players))), ctx(3))
    assert scene.players[1][2:4] == ((3, 3, 3), True)


def _hide_differently(st, rng):
    """The same public table with other secrets: hands of the same sizes hold other cards, and the
    face-down tokens' contents are shuffled among themselves."""
    seats = tuple(
        replace(sx, hand=tuple(f"tailwind#{9 + k}" for k in range(len(sx.hand)))) for sx in st.ext.seats
    )
    down = {t for stack in st.stacks for t in stack}
    contents = dict(st.contents)
    kinds = [contents[t] for t in sorted(down)]
    rng.shuffle(kinds)
    contents.update(zip(sorted(down), kinds, strict=True))
    return replace(st, ext=replace(st.ext, seats=seats), contents=tuple(sorted(contents.items())))


@pytest.mark.parametrize("players,quick", [(3, False), (6, True)])
def test_no_secret_changes_the_picture(players, quick):
    rng = random.Random(players)
    st = ENGINE.new_game(players, f"leak-{players}", Options(quick_game=quick))
    checked = 0
    for _ in range(80):
        if ENGINE.outcome(st) is not None:
            break
        public = scene_of(ENGINE.view(st, None), ctx(players))
        other = _hide_differently(st, rng)
        assert scene_of(ENGINE.view(other, None), ctx(players)) == public
        for seat in range(players):  # a seat's own view (its hand, its peeks) draws the same scene
            assert scene_of(ENGINE.view(st, seat), ctx(players)) == public
        checked += 1
        seat = ENGINE.to_act(st)[0]
        legal = ENGINE.legal_actions(st, seat)
        st, _ = ENGINE.apply(st, seat, ENGINE.ai_action("smart", ENGINE.view(st, seat), legal, rng))
    assert checked > 40
    with pytest.raises(AssertionError):
        board_png(ENGINE.view(st, 0), ctx(players))  # only the public view is drawn


def test_the_base_game_picture_still_draws():
    view = ENGINE.view(played(3, Options(expansion=False), 20), None)
    png = board_png(view, ctx(3))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert all(p[2] == () for p in scene_of(view, ctx(3)).players)
