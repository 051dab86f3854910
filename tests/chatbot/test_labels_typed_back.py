"""Every button label a player can be shown, typed back as text, is that button's own action (issue #15,
DESIGN.md §4: the words on the buttons are commands too), in every game and in both languages.

The states are those of real AI games; the buttons are the rows each game's UI lays out for the seat to
act, in Finnish and in English, and the label is parsed as the speaker's own words in the private chat.
A player sees the labels in their own language; a label typed by a speaker of the other language (a
Finnish label copied by someone who plays in English) is that button too.
"""

from __future__ import annotations

import random

import pytest

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.core.parsing import Parsed
from chatbot.core.ports import THEN
from chatbot.games import UIS
from engines import GAMES
from tests.chatbot.notations import notations, written

NAMES = ("Matti", "Liisa", "Botti 1", "Botti 2")
GAME_STATES = {
    "gnav": (6, 400),
    "majavajengi": (3, 400),
    "coloretto_amazonas": (1, 300),
    "afrikan_tahti": (2, 250),
}


def _states(game: str):
    engine = GAMES[game]
    games, per_game = GAME_STATES[game]
    for g in range(games):
        state = engine.new_game(3, f"labels-{g}", None)
        rng = random.Random(g)
        for _ in range(per_game):
            if engine.outcome(state) is not None:
                break
            seat = engine.to_act(state)[0]
            yield state, seat
            legal = engine.legal_actions(state, seat)
            action = (
                rng.choice(list(legal))
                if rng.random() < 0.3
                else engine.ai_action("random", engine.view(state, seat), legal, rng)
            )
            state, _ = engine.apply(state, seat, action)


@pytest.mark.parametrize("game", sorted(GAME_STATES))
def test_every_button_label_typed_back_is_that_button(game):
    from chatbot.core.parsing import ParseContext

    ui, engine = UIS[game], GAMES[game]
    checked, wrong = 0, []
    for state, seat in _states(game):
        legal = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        names = NAMES[:3]
        for label_lang in ("fi", "en"):
            rows = ui.button_rows(notations(legal), view, RenderContext(translator(label_lang), names, seat))
            for speaker in ("fi", "en"):
                ctx = ParseContext(speaker, seat, legal, view, names, private=True)
                for row in rows:
                    for label, notation in row:
                        checked += 1
                        result = ui.parse(label, ctx)
                        # a button of several steps ("end_phase;flip") is those steps typed back
                        steps = notation.count(THEN) + 1
                        said = (
                            THEN.join(written(result).actions[:steps]) if isinstance(result, Parsed) else None
                        )
                        if said != notation:
                            wrong.append((label_lang, speaker, label, notation, result))
    assert checked > 100
    assert not wrong, wrong[:10]


@pytest.mark.parametrize("game", sorted(GAME_STATES))
def test_a_label_asked_as_a_question_is_no_move(game):
    """A question form is never a move (issue #15): every label with a question mark is asked, not done."""
    from chatbot.core.parsing import ParseContext

    ui, engine = UIS[game], GAMES[game]
    checked, moved = 0, []
    for n, (state, seat) in enumerate(_states(game)):
        if n % 5:
            continue
        legal = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        for lang in ("fi", "en"):
            ctx = ParseContext(lang, seat, legal, view, NAMES[:3], private=True)
            for row in ui.button_rows(
                notations(legal), view, RenderContext(translator(lang), NAMES[:3], seat)
            ):
                for label, _notation in row:
                    checked += 1
                    if isinstance(ui.parse(label + "?", ctx), Parsed):
                        moved.append((lang, label))
    assert checked > 20
    assert not moved, moved[:10]
