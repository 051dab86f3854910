"""Every Afrikan Tähti line true (issue #28): move buttons name the steps the move really takes,
the phase-3 line offers only what the legal actions allow, a player's name is never glued after an
inflected noun ("pelaajalla Bertta"), duel and danger results say who won and by how much, and the
table says how far the game has come in one short line."""

from __future__ import annotations

import re
from dataclasses import replace
from random import Random

import pytest

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.games.afrikan_tahti import UI, buttons, events, render
from chatbot.i18n_tool import LOCALES
from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.base.rules import menu_of
from engines.afrikan_tahti.board import TREASURE_PLACES
from engines.afrikan_tahti.model import Move, Options, chosen_path
from engines.afrikan_tahti.retkikunnat import predicates
from engines.afrikan_tahti.retkikunnat.predicates import MAX_OFFERS
from engines.afrikan_tahti.retkikunnat.rules import snapshot
from engines.contract import ev
from tests.engines.afrikan_tahti_helpers import play
from tests.engines.test_afrikan_tahti_expansion import phase3, xnew

NAMES = ("Anna", "Bertta", "Ceder", "Daavid", "Eemeli", "Fanni")
FI, EN = translator("fi"), translator("en")
#: (players, options) of the seeded AI games: Retkikunnat, its quick game and the base game
GAMES = (
    (4, Options()),
    (3, Options(quick_game=True)),
    (5, Options(max_rounds=25)),
    (2, Options(expansion=False)),
    (6, Options(quick_game=True, max_rounds=25)),
)


def ctx(t, n: int, seat: int | None = None) -> RenderContext:
    return RenderContext(t, NAMES[:n], seat)


def ai_states(players: int, options: Options, seed: str):
    """Every state of a seeded game the smart AI plays to the end."""
    st = ENGINE.new_game(players, seed, options)
    rng = Random(seed)
    while ENGINE.outcome(st) is None:
        yield st
        seat = ENGINE.to_act(st)[0]
        legal = ENGINE.legal_actions(st, seat)
        st, _ = ENGINE.apply(st, seat, ENGINE.ai_action("smart", ENGINE.view(st, seat), legal, rng))


def engine_steps(st, seat: int, move: Move) -> int:
    """How many steps ``move`` takes, by the engine's own menu of the move in progress."""
    node = st.pawns[seat].node
    if move.to == node and move.via is None:
        return 0
    menu = predicates.menu(snapshot(st), seat) if st.options.expansion else menu_of(st, seat)
    path = chosen_path(menu.paths(move.to), move.via)
    if path:
        return len(path)
    target = menu.sea_target(move.to)
    assert target is not None, move
    return target[2]


ZERO_TOWARD = re.compile(r"^(⚠️ )?(⛵ )?0 (askelta|steps)\b|\(0\)$")


def label_steps(label: str) -> int | None:
    found = re.search(r"(\d+) (askel|askelta|step|steps)\b", label) or re.search(r"\((\d+)\)$", label)
    return int(found.group(1)) if found else None


@pytest.mark.slow
def test_every_move_button_of_seeded_ai_games_names_the_real_steps():
    checked = sea = 0
    for g, (players, options) in enumerate(GAMES):
        for st in ai_states(players, options, f"lines-{g}"):
            if st.phase != "move":
                continue
            for seat in ENGINE.to_act(st):
                view = ENGINE.view(st, seat)
                for action in ENGINE.legal_actions(st, seat):
                    if not isinstance(action, Move) or action.to == st.pawns[seat].node:
                        continue
                    notation = ENGINE.notation(action)
                    want = engine_steps(st, seat, action)
                    for t in (FI, EN):
                        label = buttons.label(notation, view, ctx(t, players, seat))
                        assert not ZERO_TOWARD.search(label), (notation, label)
                        assert label_steps(label) == want, (notation, label, want)
                    checked += 1
                    sea += "⛵" in label
    assert checked > 1500 and sea > 10, (checked, sea)


def test_a_stop_where_another_pawn_stands_counts_its_steps():
    # Anna rolls 4 in Cairo; Bertta stands two dots toward Egypt, where the move may stop (M3c)
    st = xnew("cairo", "l_cairo__egypt_2", dice=(4,))
    st, _ = play(st, 0, "roll")
    view = ENGINE.view(st, 0)
    labels = {
        n: buttons.label(n, view, ctx(FI, 2, 0)) for n in map(ENGINE.notation, ENGINE.legal_actions(st, 0))
    }
    stop = next(label for n, label in labels.items() if n.startswith("move p") and "Egyptin" in label)
    assert stop.startswith("2 askelta Egyptin suuntaan"), labels


def phase3_words(line: str) -> tuple[bool, bool, bool]:
    return "käännä kiekko" in line, "haasta yhteenottoon" in line, "käy kauppaa" in line


@pytest.mark.slow
def test_the_phase3_line_offers_only_what_the_legal_actions_allow():
    checked = 0
    for g, (players, options) in enumerate(GAMES[:3] + GAMES[4:]):
        for st in ai_states(players, options, f"phase3-{g}"):
            view = ENGINE.view(st, None)
            if st.phase != "phase3" or view.x.prompt is not None:
                continue
            seat = st.turn
            verbs = {ENGINE.notation(a).split()[0] for a in ENGINE.legal_actions(st, seat)}
            legal = (bool(verbs & {"flip", "flip_roll"}), "duel" in verbs, "offer" in verbs)
            line = render.turn_line(view, ctx(FI, players)) or ""
            said = phase3_words(line)
            if st.ext.turn.offers >= MAX_OFFERS:
                # the view does not count declined offers: only then may trading read as open
                said, legal = said[:2], legal[:2]
            assert said == legal, (line, legal)
            assert "lopeta vuoro" in line
            checked += 1
    assert checked > 120


def without_equipment_at(st, place: str):
    """The state with the equipment token on ``place`` gone (as if flipped), others left."""
    i = TREASURE_PLACES.index(place)
    gone = tuple((t, place) for t in st.stacks[i] if t.startswith("e"))
    stacks = tuple(tuple(t for t in s if t.startswith("d")) if k == i else s for k, s in enumerate(st.stacks))
    return replace(st, stacks=stacks, revealed=(*st.revealed, *gone))


def test_no_flip_is_offered_on_a_discovery_token_with_an_incomplete_expedition():
    st = phase3(xnew("egypt", "cairo"))
    line = render.turn_line(ENGINE.view(st, None), ctx(FI, 2)) or ""
    assert line == "▶ Vuoro: Anna – käännä kiekko tai lopeta vuoro.", line  # the equipment token on top
    # Bertta stands there too, penniless and without cards: phase 3 opens, but nothing is possible
    st = phase3(without_equipment_at(xnew("egypt", "egypt", cash=(300, 0), cards={1: ()}), "egypt"))
    verbs = {ENGINE.notation(a).split()[0] for a in ENGINE.legal_actions(st, 0)}
    assert not verbs & {"flip", "flip_roll", "duel", "offer"}, verbs
    line = render.turn_line(ENGINE.view(st, None), ctx(FI, 2)) or ""
    assert line == "▶ Vuoro: Anna – täällä ei voi kääntää kiekkoa eikä haastaa ketään: lopeta vuoro.", line
    # Bertta on the same place with money: a duel and a trade are possible, a flip still not
    st = phase3(without_equipment_at(xnew("egypt", "egypt"), "egypt"))
    line = render.turn_line(ENGINE.view(st, None), ctx(FI, 2)) or ""
    assert line == "▶ Vuoro: Anna – haasta yhteenottoon, käy kauppaa tai lopeta vuoro.", line
    assert render.turn_line(ENGINE.view(st, None), ctx(EN, 2)) == (
        "▶ Turn: Anna – challenge someone to a duel, trade, or end the turn."
    )


def test_no_finnish_line_glues_a_name_after_an_inflected_noun():
    catalog = _fi_catalog()
    text = catalog.replace("\n", " ")
    assert not re.search(r"pelaaja(lla|lle|n|a|lta|sta|ssa|an) \{", text), "a name after an inflected noun"
    star = render.star_status(_view_with_star_holder(1), ctx(FI, 2))
    assert star.startswith("⭐ Bertta kantaa tähteä"), star
    robbed = events.lines([ev("robbed", None, seat=1, lost=0)], ctx(FI, 2))
    assert robbed == ["Bertta oli jo rahaton, joten rosvo ei saanut mitään."]
    assert "pelaajalla" not in catalog


def _fi_catalog() -> str:
    return (LOCALES / "fi" / "LC_MESSAGES" / "afrikan_tahti.po").read_text(encoding="utf-8")


def _view_with_star_holder(seat: int):
    view = ENGINE.view(ENGINE.new_game(2, "tähti", Options(expansion=False, start_place="random")), None)
    return replace(view, star_found=True, star_holder=seat)


def duel(winner: int, hits: int, k: int, face: str = "gem") -> str:
    e = ev(
        "duel_result",
        None,
        attacker=0,
        defender=1,
        target="money:200",
        winner=winner,
        face=face,
        k=k,
        hits=hits,
    )
    (line,) = events.lines([e], ctx(FI, 2))
    return line


def test_a_duel_result_says_who_won_and_by_how_much():
    assert duel(1, 0, 4) == "🏅 Bertta voitti yhteenoton: Anna tarvitsi 4× 💎jalokivi mutta ei saanut yhtään."
    assert duel(1, 2, 3) == "🏅 Bertta voitti yhteenoton: Anna tarvitsi 3× 💎jalokivi mutta sai vain 2."
    assert duel(0, 3, 2) == "🏅 Anna voitti yhteenoton: 3× 💎jalokivi, kun tarvittiin 2."
    assert duel(0, 2, 2) == (
        "🏅 Anna voitti yhteenoton: 2× 💎jalokivi riitti juuri ja juuri (tasapeli ratkeaa haastajan hyväksi)."
    )
    assert duel(0, 0, 0) == "🏅 Anna voitti yhteenoton heittämättä: puolustajan nopat olivat kaikki tyhjiä."
    for line in (duel(1, 0, 4), duel(0, 3, 2)):
        assert not re.search(r"\d+/\d+", line)  # no count that reads like a score
    e = ev("duel_result", None, attacker=0, defender=1, target="star", winner=1, face="spears", k=3, hits=1)
    assert events.lines([e], ctx(EN, 2)) == [
        "🏅 Bertta wins the duel: Anna needed 3× ⚔️spears but got only 1."
    ]


def danger(code: str, dice: tuple[str, ...] | None, **more) -> str:
    evs = [ev("danger_card", None, seat=0, card="hyenas#1", requires=(("coin", 1), ("spears", 1)))]
    if dice is not None:
        evs.append(ev("danger_dice", None, seat=0, card="hyenas#1", dice=dice))
    evs.append(ev(code, None, seat=0, card="hyenas#1", **more))
    return events.lines(evs, ctx(FI, 2))[-1]


def test_a_danger_result_says_whether_it_was_survived_and_by_how_much():
    assert danger("danger_failed", ("coin", "boot", "gem", "blank", "skull")) == (
        "❌ Anna ei selvinnyt: Hyeenat – puuttui 1× ⚔️keihäät."
    )
    assert danger("danger_failed", None) == (
        "❌ Anna ei selvinnyt: Hyeenat – olisi tarvittu 1× 🪙kolikko ja 1× ⚔️keihäät."
    )
    assert danger("danger_passed", ("coin", "spears", "gem", "blank", "skull"), reason="roll") == (
        "✅ Anna selvisi täpärästi: Hyeenat – nopissa oli täsmälleen 1× 🪙kolikko ja 1× ⚔️keihäät."
    )
    assert danger("danger_passed", ("coin", "spears", "spears", "coin", "skull"), reason="roll") == (
        "✅ Anna selvisi: Hyeenat – nopissa oli 2× 🪙kolikko ja 2× ⚔️keihäät, tarvittiin 1× 🪙kolikko ja "
        "1× ⚔️keihäät."
    )
    assert danger("danger_passed", None, reason="bribe") == "✅ Anna selvisi: Hyeenat!"
    # a reroll's result is the dice that decided
    evs = [
        ev("rerolled", None, seat=0, card="rifle", dice=(2,), result=("coin", "spears", "gem", "gem", "gem")),
        ev("danger_passed", None, seat=0, card="hyenas#1", reason="roll"),
    ]
    assert "täsmälleen" in events.lines(evs, ctx(FI, 2))[-1]


def test_the_table_tells_how_far_the_game_has_come_in_one_short_line():
    for options, total in ((Options(), 60), (Options(quick_game=True), 30), (Options(expansion=False), 30)):
        st = ENGINE.new_game(3, "edistys", options)
        states = list(_first_states(st, 40))
        view = ENGINE.view(states[-1], None)
        table = UI.render_table(view, ctx(FI, 3))
        lines = [line for line in table.splitlines() if line.startswith("🧭")]
        assert len(lines) == 1, table
        down = len(view.face_down)
        star = "⭐ tähti löytynyt" if view.star_found else "tähti vielä piilossa"
        assert lines[0] == f"🧭 Kierros {view.round} · kiekkoja kääntämättä {down}/{total} · {star}"
        assert len(lines[0]) <= 70
        assert "kierros" not in table.splitlines()[0]  # the title no longer carries the round
    found = UI.render_table(_view_with_star_holder(0), ctx(FI, 2))
    assert "· ⭐ tähti löytynyt" in found and "Anna kantaa tähteä" in found
    assert "🧭 Round " in UI.render_table(_view_with_star_holder(0), ctx(EN, 2))


def _first_states(st, plies: int):
    rng = Random(plies)
    for _ in range(plies):
        yield st
        if ENGINE.outcome(st) is not None:
            return
        seat = ENGINE.to_act(st)[0]
        legal = ENGINE.legal_actions(st, seat)
        st, _ = ENGINE.apply(st, seat, ENGINE.ai_action("smart", ENGINE.view(st, seat), legal, rng))
