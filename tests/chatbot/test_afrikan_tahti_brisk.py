"""A plain turn of Afrikan Tähti costs a person one or two presses (issue #28 point 1): before the roll
"🎲 Heitä ja suuntaa Kongoon (4 askelta)" rolls and moves there, or as near as the die allows, and
the turn then ends (or the token is flipped) with one more press. A move is still asked where it is a
real choice: two ends as near, a die the Compass or the Maps could change, a hazard dot. The new
buttons act only where they are offered and only for their player, and their labels typed back (or
"mene Kongoon" typed before the roll) do the same."""

from __future__ import annotations

import collections
from typing import Any

import pytest

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.core.parsing import Later, ParseContext, Parsed
from chatbot.core.ports import THEN
from chatbot.games.afrikan_tahti import UI, buttons
from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.board import DIST_LAND, HAZARDS, PLACE_SET, node_of
from engines.afrikan_tahti.model import Roll
from scripts.evening_figures import choose
from tests.chatbot.table import GROUP
from tests.chatbot.test_afrikan_tahti_evening import NAMES, Evening

#: the label of the head-for buttons, as a Finnish player sees it
HEAD_FOR = "🎲 Heitä ja suuntaa "
#: the labels that end a plain turn: flip the token (or roll for it), or end the turn
ENDS = ("🪙 Käännä kiekko", "🎲 Heitä kiekosta", "✋ Lopeta vuoro", "✋ Älä käännä")


class PlainEvening(Evening):
    """People who play plain turns: before the roll they press the first head-for button (the
    nearest place they may flip), and then the first button that ends the turn (a flip where one is
    offered); any other question they answer as the default AI would. Each own turn's presses are
    counted, and whether the turn held anything but the head-for press and its end."""

    def __init__(self, mode: str, seed: str) -> None:
        super().__init__(mode, seed)
        self.turns: list[tuple[int, list[str]]] = []  # (seat, the kinds of its presses)
        self.seen_ply = 0

    def seen(self, state: Any) -> None:
        for rec in self.table.repo.actions(self.match_id, since_ply=self.seen_ply):
            self.turns.extend((rec.seat, []) for e in rec.events if e.get("code") == "turn")
        self.seen_ply = state.ply

    def press(self, state: Any, seat: int, offered: list[tuple[str, str]]) -> str:
        pressed, kind = self._plain(state, seat, offered)
        if state.phase not in ("setup", "character") and self.turns and ENGINE.view(state, None).turn == seat:
            self.turns[-1][1].append(kind)
        return pressed

    def _plain(self, state: Any, seat: int, offered: list[tuple[str, str]]) -> tuple[str, str]:
        heads = [n for label, n in offered if label.startswith(HEAD_FOR)]
        if state.phase == "declare" and heads:
            return heads[0], "head"
        ends = [n for end in ENDS for label, n in offered if label.startswith(end)]
        if ends and state.phase in ("phase2", "phase3", "after_move"):
            return ends[0], "end"
        public = ENGINE.view(state, None)
        where = public.x.prompt.kind if public.x is not None and public.x.prompt is not None else state.phase
        if where == "move" and any(n.split()[0] in buttons.DIE_CHANGES for _label, n in offered):
            where = "die"  # the Compass or the Maps may change the die: a real choice
        return choose(ENGINE, state, seat, [n for _label, n in offered]), f"other {where}"


@pytest.fixture(scope="module", params=["quick", "base"])
def plain(request) -> PlainEvening:
    evening = PlainEvening(request.param, f"ripeä-{request.param}")
    assert evening.play() is None
    return evening


def test_a_plain_turn_takes_at_most_two_presses(plain):
    """A head-for press, then the flip or the end: the move between them is no press. A move is
    asked after a head-for press only where the die may still be changed (the Compass)."""
    shapes = collections.Counter(tuple(kinds) for _seat, kinds in plain.turns if kinds)
    headed = [kinds for _seat, kinds in plain.turns if kinds[:1] == ["head"]]
    assert len(headed) >= 15, shapes.most_common(8)
    plain_turns = [kinds for kinds in headed if set(kinds) <= {"head", "end"}]
    assert all(len(kinds) <= 2 for kinds in plain_turns), shapes.most_common(8)
    assert len(plain_turns) >= 0.6 * len(headed), shapes.most_common(8)
    # (after the die was changed, the move is the person's to choose again)
    asked = [
        kinds
        for kinds in headed
        if "other move" in kinds[: kinds.index("other die") if "other die" in kinds else None]
    ]
    assert not asked, asked[:5]


# --- the step toward a place: what it moves, where it asks ----------------------------------------


def _ai_games(seed: str, games: int, limit: int, quick: Any = None):
    """(state, seat, view, legal actions) of every decision of seeded 3-seat games of the smart AI
    (``quick``: the quick game always, or in every other game when None)."""
    for g in range(games):
        options = ENGINE.options_from_dict({"quick_game": g % 2 == 0 if quick is None else quick})
        state = ENGINE.new_game(3, f"{seed}-{g}", options)
        for _ in range(limit):
            if ENGINE.outcome(state) is not None:
                break
            seat = ENGINE.to_act(state)[0]
            view = ENGINE.view(state, seat)
            legal = ENGINE.legal_actions(state, seat)
            yield state, seat, view, legal
            action = ENGINE.ai_action("smart", view, legal, ENGINE.ai_rng(state, seat))
            state, _events = ENGINE.apply(state, seat, action)


def _move_states(games: int = 3):
    """(view, legal notations) of the seat to move after a die roll, from seeded AI games."""
    for state, _seat, view, legal in _ai_games("ripeä-siirrot", games, 1500):
        if state.phase == "move" and view.x.prompt is None and state.ext.turn.mv.kind == "die":
            yield view, tuple(ENGINE.notation(a) for a in legal)


def test_the_step_toward_a_place_is_legal_nearer_and_never_onto_a_hazard():
    checked = collections.Counter()
    for view, legal in _move_states():
        seat = view.turn
        here = view.pawns[seat].node
        for pid in ("congo", "cairo", "sahara", "timbuktu", "capetown", "lake_victoria"):
            got = buttons.toward(pid, view, legal)
            if got is None:
                checked["asked"] += 1
                continue
            first = got.split(THEN)[0]
            assert first in legal, (got, legal)
            to = node_of(first.split()[1])
            if to == pid:
                checked["there"] += 1
                continue
            checked["nearer"] += 1
            assert to not in HAZARDS
            assert DIST_LAND[pid][to] < DIST_LAND[pid][here]
            assert not any(n.split()[0] in ("reroll_move", "adjust") for n in legal)
            # no other end of a move is as near
            ties = [
                n
                for n in legal
                if n.split()[0] == "move"
                and len(n.split()) == 2
                and node_of(n.split()[1]) not in HAZARDS
                and DIST_LAND[pid].get(node_of(n.split()[1])) == DIST_LAND[pid][to]
                and (node_of(n.split()[1]) in PLACE_SET) == (to in PLACE_SET)
            ]
            assert ties == [first], (pid, ties)
    assert checked["there"] > 5 and checked["nearer"] > 50 and checked["asked"] > 5, checked


# --- the buttons act only where offered and for their player -------------------------------------


def _before_a_roll(evening: Evening) -> Any:
    """Play on to a person's declaration on land with places to head for."""
    return evening.play(
        until=lambda st, seat: (
            st.phase == "declare"
            and ENGINE.view(st, None).x.prompt is None
            and st.round > 1
            and len(buttons.aims(ENGINE.view(st, seat))) == 3
        )
    )


def test_a_forged_or_foreign_head_for_press_is_refused():
    evening = Evening("quick", "ripeä-vale")
    state = _before_a_roll(evening)
    table, match = evening.table, evening.table.match()
    seat = state.turn
    user, other = evening.user(seat), evening.user((seat + 1) % 3)
    offered = [b.data for row in table.prompt_for(user).buttons for b in row]
    heads = [d for d in offered if f"roll{THEN}toward " in d]
    assert len(heads) == 3, offered
    aimed = {d.rsplit(" ", 1)[1] for d in heads}
    elsewhere = next(p for p in ("tangier", "cairo", "congo", "sahara", "timbuktu") if p not in aimed)
    # a head-for step the prompt does not offer, in private: nothing happens
    forged = f"{match.id}:{match.version}:roll{THEN}toward {elsewhere}"
    assert table.press(user, forged)[0].text.startswith("Tämä painike ei toimi täällä")
    forged_card = f"{match.id}:{match.version}:roll{THEN}use navigation#1"
    assert table.press(user, forged_card)[0].text.startswith("Tämä painike ei toimi täällä")
    # the real button pressed by another player, in private or in the group
    assert table.press(other, heads[0])[0].text == "Nyt ei ole sinun vuorosi."
    assert table.press(other, heads[0], private=False)[0].text.startswith("Nyt ei ole sinun vuorosi")
    assert table.press("ville", heads[0])[0].text.startswith("Tämä painike ei toimi täällä")
    assert table.match().version == match.version
    # pressed by its player it rolls and moves in one press
    table.press(user, heads[0])
    after = ENGINE.load(table.match().state)
    assert after.ply > state.ply + 1
    assert after.pawns[seat].node != state.pawns[seat].node or after.phase != "move"


def test_the_group_table_offers_the_head_for_buttons_in_the_base_game():
    evening = Evening("base", "ripeä-ryhmä")
    state = evening.play(
        until=lambda st, seat: st.phase == "declare" and len(buttons.aims(ENGINE.view(st, seat))) == 3
    )
    table, match = evening.table, evening.table.match()
    seat = state.turn
    data = [
        b.data
        for o in table.sent
        if o.chat_id == GROUP and o.key == f"table:{match.id}"
        for row in o.buttons
        for b in row
        if b.data.startswith(f"{match.id}:{match.version}:")
    ]
    heads = [d for d in data if f"roll{THEN}toward " in d]
    assert heads, data
    other = evening.user((seat + 1) % 3)
    assert table.press(other, heads[0], private=False)[0].text.startswith("Nyt ei ole sinun vuorosi")
    assert table.match().version == match.version
    table.press(evening.user(seat), heads[0], private=False)
    assert ENGINE.load(table.match().state).ply > state.ply + 1


# --- typed, the same as the button ------------------------------------------------------------


def _short_roll(st: Any, seat: int) -> bool:
    """A declaration whose roll falls short of the nearest place to head for (by land)."""
    view = ENGINE.view(st, seat)
    if st.phase != "declare" or view.x.prompt is not None or st.round < 2:
        return False
    found = buttons.aims(view)
    if not found:
        return False
    after, _events = ENGINE.apply(st, seat, Roll())
    legal = [ENGINE.notation(a) for a in ENGINE.legal_actions(after, seat)]
    later = buttons.toward(found[0][0], ENGINE.view(after, seat), legal)
    return after.phase == "move" and later is not None and not later.startswith(f"move {found[0][0]}")


@pytest.mark.parametrize(
    "typed",
    ["label", "heitä ja suuntaa {to}", "mene {to}", "head for {en}"],
)
def test_a_head_for_typed_moves_as_near_as_the_die_allows(typed):
    evening = Evening("quick", "ripeä-kirjoitus")
    state = evening.play(until=_short_roll)
    assert state is not None, "no roll fell short of the place headed for"
    seat = state.turn
    aim, _n = buttons.aims(ENGINE.view(state, seat))[0]
    fi = translator("fi")
    ctx = RenderContext(fi, NAMES, seat)
    label = buttons.label(f"roll{THEN}toward {aim}", ENGINE.view(state, seat), ctx)
    assert label.startswith(HEAD_FOR)
    text = (
        label
        if typed == "label"
        else typed.format(to=buttons.place(aim, fi, buttons.TO), en=buttons.place(aim, translator("en")))
    )
    lang = "en" if typed.startswith("head") else "fi"
    evening.table.say(evening.user(seat), text, private=True, lang=lang)
    after = ENGINE.load(evening.table.match().state)
    node = after.pawns[seat].node
    assert after.phase != "move" or seat not in ENGINE.to_act(after), (text, after.phase)
    assert DIST_LAND[aim][node] < DIST_LAND[aim][state.pawns[seat].node], (text, node)


def test_every_head_for_label_typed_back_is_its_button():
    fi, en = translator("fi"), translator("en")
    checked = 0
    for _state, seat, view, legal in _ai_games("ripeä-nimet", 2, 600, quick=True):
        notations = tuple(ENGINE.notation(a) for a in legal)
        for t in (fi, en):
            for row in buttons.rows(notations, view, RenderContext(t, NAMES, seat)):
                for label, notation in row:
                    if f"{THEN}toward " not in notation:
                        continue
                    got = UI.parse(label, ParseContext(t.lang, seat, legal, view, NAMES, private=True))
                    first, then = notation.split(THEN)
                    assert isinstance(got, Parsed), (label, got)
                    assert ENGINE.notation(got.actions[0]) == first and got.actions[1] == Later(then)
                    checked += 1
    assert checked > 100
