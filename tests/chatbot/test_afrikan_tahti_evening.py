"""An evening's Afrikan Tähti (issue #28): a person never presses for a lone answer that is no decision
(the core takes it and the table says so), Phase 2 reaches the flip and the end of the turn in one
press, every typed form of the flip is read where a flip applies, the group gets at most one new board
picture a round, and the lobby offers the quick game to a table new to the game."""

from __future__ import annotations

import collections
import hashlib
import re
from typing import Any

import pytest

from chatbot.compose import new_core
from chatbot.core.i18n import translator
from chatbot.core.parsing import NotLegal, NotUnderstood, ParseContext, Parsed
from chatbot.core.ports import THEN
from chatbot.games.afrikan_tahti import UI
from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.model import EndPhase, Flip, FlipRoll
from scripts.evening_figures import choose
from tests.chatbot.table import GROUP, Table

PEOPLE = ("anna", "bertta", "ceder")
NAMES = ("Anna", "Bertta", "Ceder")
OPTIONS = {"base": "laajennus=ei", "quick": "pikapeli"}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Evening:
    """A whole seeded chat game of people who press what the default AI would choose (a button of
    two steps where it carries the AI's two choices), recording every state a person acted in."""

    def __init__(self, mode: str, seed: str, people: tuple[str, ...] = PEOPLE) -> None:
        self.clock = Clock()
        self.table = Table(seed=seed)
        self.table.core = new_core(
            self.table.repo, seed=seed, clock=self.clock, remind_after=600, act_after=1800
        )
        self.people = people
        self.asked: list[tuple[Any, int, tuple[str, ...]]] = []  # (state, seat, buttons offered)
        self.table.say(people[0], f"uusi afrikan tähti {OPTIONS[mode]}")
        for user in people[1:]:
            self.table.say(user, "liity")
        self.table.say(people[0], "aloita")
        self.match_id = self.table.match().id

    def play(self, until: Any = None, limit: int = 6000) -> Any:
        """Play on until ``until(state, seat)`` holds for the person to act (returns that state), or
        to the end (returns None). Each person presses what :meth:`press` picks of the buttons of
        their prompt; :meth:`seen` hears of every state read."""
        table = self.table
        for _ in range(limit):
            match = table.repo.match(self.match_id)
            if match is None or match.status != "running":
                return None
            state = ENGINE.load(match.state)
            self.seen(state)
            acting = [s for s in ENGINE.to_act(state) if match.seats[s].user_id is not None]
            if not acting:
                self.clock.now += 1
                table.run_due()
                continue
            seat = acting[0]
            if until is not None and until(state, seat):
                return state
            if UI.deadline(ENGINE.view(state, None)) is not None:  # windows run out: a pass
                due = [d.due for d in table.repo.deadlines(self.match_id) if d.kind == "window"]
                self.clock.now = max(self.clock.now, min(due)) if due else self.clock.now + 60
                table.run_due()
                continue
            user = table.repo.user_by_id(match.seats[seat].user_id).ext_id
            prompt = table.prompt_for(user)
            offered = [
                (b.label, b.data.split(":", 2)[2]) for row in (prompt.buttons if prompt else ()) for b in row
            ]
            pressed = self.press(state, seat, offered)
            self.clock.now += 5
            table.press(user, f"{self.match_id}:{match.version}:{pressed}")
        raise AssertionError("the game did not end")

    def seen(self, state: Any) -> None:
        """A state read before anyone acts in it (subclasses count what they need)."""

    def press(self, state: Any, seat: int, offered: list[tuple[str, str]]) -> str:
        """The notation the person of ``seat`` presses of ``offered`` (label, notation): what the
        default AI would choose."""
        notations = tuple(n for _label, n in offered)
        self.asked.append((state, seat, notations))
        return choose(ENGINE, state, seat, list(notations))

    def user(self, seat: int) -> str:
        return self.people[seat]


@pytest.fixture(scope="module")
def quick_evening() -> Evening:
    evening = Evening("quick", "ilta-quick-2")
    assert evening.play() is None
    return evening


@pytest.fixture(scope="module")
def base_evening() -> Evening:
    evening = Evening("base", "ilta-base-1")
    assert evening.play() is None
    return evening


# --- a lone answer that is no decision -------------------------------------------------------


@pytest.mark.parametrize("mode", ["base", "quick"])
def test_no_person_presses_for_a_lone_answer_that_is_no_decision(mode, request):
    evening: Evening = request.getfixturevalue(f"{mode}_evening")
    lone = []
    for state, seat, _offered in evening.asked:
        legal = ENGINE.legal_actions(state, seat)
        if len(legal) == 1 and UI.automatic(ENGINE.notation(legal[0]), ENGINE.view(state, None)):
            lone.append((state.phase, ENGINE.notation(legal[0])))
    assert not lone, lone[:5]
    # the table says what was taken, naming the player and the action as its button reads
    taken = [
        line
        for text in evening.table.group_texts()
        for line in text.splitlines()
        if "(ainoa vaihtoehto, joten tein sen heti)" in line
    ]
    assert taken, "no single answer was taken in a whole game"
    assert all(re.match(r"[·▸] ⏩ (Anna|Bertta|Ceder): \S", line) for line in taken), taken[:3]


def test_a_lone_roll_is_taken_only_where_a_hand_card_could_not_be_the_other_answer(quick_evening):
    """Whether a danger roll is the only answer depends on the hand; taking it by itself would tell
    the group that the hand holds nothing for it, so with cards in hand the person presses."""
    checked = 0
    for state, seat, _offered in quick_evening.asked:
        public = ENGINE.view(state, None)
        prompt = public.x.prompt
        if prompt is not None and prompt.kind == "danger" and public.x.players[seat].hand_count > 0:
            checked += 1
            assert not UI.automatic("roll", public)
    assert checked > 0
    # nor does a hand in a phase that takes no card stop it: the release roll, the one way to move
    for state, _seat, _offered in quick_evening.asked:
        public = ENGINE.view(state, None)
        if public.x.prompt is None and public.phase in ("release", "move"):
            assert UI.automatic("roll" if public.phase == "release" else "move p1", public)


# --- Phase 2 reaches the flip and the end of the turn ------------------------------------------


def test_phase_2_offers_the_flip_and_the_end_of_the_turn_as_one_press(quick_evening):
    both = collections.Counter()
    for state, seat, offered in quick_evening.asked:
        if state.phase != "phase2" or ENGINE.view(state, None).x.prompt is not None:
            continue
        x = ENGINE.view(state, seat).x
        assert f"end_phase{THEN}end_phase" in offered, offered
        cash = state.pawns[seat].cash
        if x.flip_price is not None:
            wanted = "flip" if cash >= x.flip_price else "flip_roll"
            assert f"end_phase{THEN}{wanted}" in offered, offered
            both[wanted] += 1
        else:
            assert not any(n.startswith(f"end_phase{THEN}flip") for n in offered), offered
    assert both["flip"] > 0
    # pressed, the two steps happened in one change: the token was flipped from Phase 2
    flips = [t for t in quick_evening.table.group_texts() if "käänsi kiekon" in t]
    assert flips


def test_a_forged_button_of_two_steps_in_the_group_is_not_applied():
    evening = Evening("quick", "ilta-vale")
    state = evening.play(
        until=lambda st, seat: st.phase == "phase2" and ENGINE.view(st, None).x.prompt is None
    )
    assert state is not None
    match = evening.table.match()
    seat = state.turn
    user = evening.user(seat)
    forged = f"{match.id}:{match.version}:end_phase{THEN}sell nothing"
    out = evening.table.press(user, forged, private=False)
    assert out[0].text.startswith("Tämä painike ei toimi täällä")
    assert evening.table.match().version == match.version
    # the table's own button of two steps works in the group
    table_rows = [
        b.data for o in evening.table.sent if o.chat_id == GROUP and o.key for row in o.buttons for b in row
    ]
    ending = f"{match.id}:{match.version}:end_phase{THEN}end_phase"
    assert ending in table_rows
    evening.table.press(user, ending, private=False)
    after = ENGINE.load(evening.table.match().state)
    assert after.turn != seat or after.round != state.round


# --- the flip typed in every phase where it applies ----------------------------------------------

FLIP_FI = ("käännä kiekko", "käännän kiekon", "käännä", "nosta kiekko", "osta kiekko", "maksan ja käännän")
ROLL_FI = ("yritä kääntää nopalla", "käännä nopalla", "heitän kiekosta")
FLIP_EN = ("flip", "flip the token", "turn it over", "buy the token")
ROLL_EN = ("roll for the token", "flip by rolling")


def _forms():
    for lang, flips, rolls in (("fi", FLIP_FI, ROLL_FI), ("en", FLIP_EN, ROLL_EN)):
        yield from ((lang, f, False) for f in flips)
        yield from ((lang, f, True) for f in rolls)


@pytest.mark.parametrize("mode", ["base", "quick"])
def test_every_typed_form_of_the_flip_is_read_in_every_phase_where_it_applies(mode, request):
    """Where a flip is legal, each form is that flip (or the roll for it); in Retkikunnat's Phase 2
    it ends the phase and flips, when the place allows a flip; elsewhere it is answered with a
    reason, never "not understood"."""
    evening: Evening = request.getfixturevalue(f"{mode}_evening")
    phases: collections.Counter[str] = collections.Counter()
    wrong = []
    states = []
    for state, seat, _offered in evening.asked:
        states.append((state, seat))
        if state.phase == "phase2" and ENGINE.view(state, None).x.prompt is None:
            after, _events = ENGINE.apply(state, seat, EndPhase())  # Phase 3, when it comes
            if after.phase == "phase3" and seat in ENGINE.to_act(after):
                states.append((after, seat))
    for state, seat in states:
        view = ENGINE.view(state, seat)
        if state.phase in ("setup", "character") or (view.x is not None and view.x.prompt is not None):
            continue  # before the first turn, or a question on the table that takes its own answers
        legal = ENGINE.legal_actions(state, seat)
        for lang, text, rolled in _forms():
            got = UI.parse(text, ParseContext(lang, seat, legal, view, NAMES, private=True))
            phases[state.phase] += 1
            if isinstance(got, NotUnderstood):
                wrong.append((state.phase, text, got))
            elif state.phase == "phase2" and view.x.flip_price is not None and not isinstance(got, NotLegal):
                # ends Phase 2 and flips at once: both steps apply
                assert isinstance(got, Parsed) and got.actions[0] == EndPhase(), (text, got)
                assert isinstance(got.actions[1], Flip | FlipRoll), (text, got)
                after, _events = ENGINE.apply(state, seat, got.actions[0])
                if seat in ENGINE.to_act(after):
                    ENGINE.apply(after, seat, got.actions[1])  # legal: raises otherwise
            elif any(isinstance(a, Flip | FlipRoll) for a in legal) and isinstance(got, Parsed):
                kind = FlipRoll if rolled else Flip
                assert isinstance(got.actions[-1], Flip | FlipRoll), (state.phase, text, got)
                if kind() in legal:
                    assert isinstance(got.actions[-1], kind), (state.phase, text, got)
    assert not wrong, wrong[:8]
    expected = (
        {"declare", "move", "after_move"} if mode == "base" else {"declare", "move", "phase2", "phase3"}
    )
    assert expected <= set(phases), phases


def test_kaanna_kiekko_typed_in_phase_2_flips_the_token():
    evening = Evening("quick", "ilta-kaanna")

    def ready(state, seat):
        x = ENGINE.view(state, seat).x
        return (
            state.phase == "phase2"
            and x.prompt is None
            and x.flip_price is not None
            and state.pawns[seat].cash >= x.flip_price
        )

    state = evening.play(until=ready)
    assert state is not None
    seat = state.turn
    place = state.pawns[seat].node
    out = evening.table.say(evening.user(seat), "käännä kiekko", private=True)
    assert any(f"{NAMES[seat]} käänsi kiekon" in o.text for o in out if o.chat_id == GROUP), [
        o.text for o in out
    ]
    after = ENGINE.load(evening.table.match().state)
    assert after.pawns[seat].cash < state.pawns[seat].cash or any(p == place for _t, p in after.revealed)


def test_a_flip_said_before_the_move_with_retkikunnat_says_when_it_comes():
    evening = Evening("quick", "ilta-ennen")
    state = evening.play(
        until=lambda st, seat: st.phase == "declare" and ENGINE.view(st, None).x.prompt is None
    )
    seat = state.turn
    out = evening.table.say(evening.user(seat), "käännä kiekko", private=True)
    text = "\n".join(o.text for o in out)
    assert "Retkikunnissa kiekko käännetään vuoron lopuksi" in text
    assert "heitä noppaa" in text.casefold() or "Heitä noppaa" in text
    assert ENGINE.load(evening.table.match().state).ply == state.ply  # nothing changed


# --- at most one new board picture a round -------------------------------------------------------


@pytest.mark.parametrize("mode", ["base", "quick"])
def test_the_group_gets_at_most_one_new_picture_a_round(mode, request):
    evening: Evening = request.getfixturevalue(f"{mode}_evening")
    tables = [o for o in evening.table.sent if o.chat_id == GROUP and o.key == f"table:{evening.match_id}"]
    while not tables[0].image:
        tables.pop(0)  # the lobby's messages, which have no picture
    assert tables[-1].image, "the final table has its picture"
    new_by_round: collections.Counter[int] = collections.Counter()
    last = None
    for out in tables[:-1]:  # the last one shows the final board
        assert out.image
        digest = hashlib.sha1(out.image).hexdigest()
        if digest == last:
            continue
        last = digest
        found = re.search(r"🧭 Kierros (\d+)|Kierros (\d+)", out.text)
        new_by_round[int(next(g for g in found.groups() if g)) if found else 0] += 1
    rounds = ENGINE.view(ENGINE.load(evening.table.repo.match(evening.match_id).state), None).round
    assert rounds >= 8 and len(new_by_round) >= rounds - 1
    assert max(new_by_round.values()) == 1, new_by_round.most_common(3)


# --- the quick game for a table new to the game --------------------------------------------------


def test_the_lobby_offers_the_quick_game_to_a_table_that_has_not_played_it():
    table = Table(seed="ilta-aula")
    lobby = table.say("anna", "uusi afrikan tähti")[-1]
    assert "Pikapeli sopii illaksi" in lobby.text and "kaksi kutakin merkkiä" in lobby.text
    button = next(b for row in lobby.buttons for b in row if b.label == "⚡ Pikapeli")
    # someone who is not seated may not choose it; a seated player may
    assert "voivat muuttaa" in table.press("ville", button.data, private=False)[0].text
    after = table.press("anna", button.data, private=False)[-1]
    assert table.match().options["quick_game"] is True
    assert "pikapeli" in after.text and "Pikapeli sopii" not in after.text
    # the base game and an English table: none, and in English
    other = Table(seed="ilta-aula-2")
    assert "Pikapeli" not in other.say("anna", "uusi afrikan tähti laajennus=ei")[-1].text
    english = Table(seed="ilta-aula-3").say("anna", "new afrikan tahti", lang="en")[-1]
    assert "The quick game fits an evening" in english.text


def test_a_table_that_has_finished_the_game_is_not_offered_the_quick_game_again():
    evening = Evening("base", "ilta-toinen", people=("anna", "bertta"))
    assert evening.play() is None
    table = evening.table
    assert table.repo.finished_matches(room_id=table.repo.room("test", GROUP).id)
    lobby = table.say("anna", "uusi afrikan tähti")[-1]
    assert "Pikapeli sopii" not in lobby.text
    assert not any(b.data.endswith("@suggested") for row in lobby.buttons for b in row)
    # another group, new to the game, is offered it
    assert "Pikapeli sopii" in table.say("anna", "uusi afrikan tähti", group="g2")[-1].text
    fi = translator("fi")
    assert fi.gettext("⚡ Quick game") == "⚡ Pikapeli"
