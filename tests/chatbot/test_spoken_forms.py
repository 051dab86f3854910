"""Spoken Finnish read alike by both lemmatiser backends (issue #15 follow-ups): "minä", "mä" and
"mie" never make a text a question, clipped case endings read as their full forms ("kierroksel",
"kädes", "pakast"), and a dictionary word is never taken as a typo of another."""

from __future__ import annotations

import pytest

from chatbot.core.nlp import QUESTION, Lemmatizer, LemmatizerUnavailable, Lexicon, is_question
from chatbot.games import _spoken
from tests.chatbot.fresh_figures import PARSERS, context


@pytest.fixture(params=["voikko", "table"], scope="module")
def lem(request) -> Lemmatizer:
    try:
        return Lemmatizer(backend=request.param)
    except LemmatizerUnavailable:
        pytest.skip(f"{request.param} is not available here")


@pytest.mark.parametrize("word", ["minä", "minäkin", "minähän", "mina", "mä", "mie", "mää"])
def test_the_first_person_pronoun_is_no_question_word(lem, word):
    assert "mikä" not in lem.readings(word)
    lexicon = Lexicon({}, lem)
    assert QUESTION not in lexicon.concepts(word, "fi")
    for text in (f"{word} pidän", f"{word} nostan kortin", f"nyt {word} heitän"):
        assert not is_question(text, lem)
        assert not _spoken.is_question(text, lexicon.scan(text, "fi"), lexicon, "fi")


def test_a_real_question_word_still_asks(lem):
    lexicon = Lexicon({}, lem)
    for text in ("mitä mä nyt teen", "mikä on mun kortti", "mihin mä laitan tän"):
        assert _spoken.is_question(text, lexicon.scan(text, "fi"), lexicon, "fi"), text


MOVES = [
    ("gnav", "TURN", "minä pidän", "keep"),
    ("gnav", "TURN", "mie pidän", "keep"),
    ("gnav", "TURN", "minähän vaihdan", "ask"),
    ("majavajengi", "START", "minä nostan", "draw"),
    ("majavajengi", "END", "mie koputan", "knock"),
    ("coloretto_amazonas", "A", "minä annan piraijan Liisalle", "give B2 seat1"),
    ("coloretto_amazonas", "A", "mie pelaan tukaanin", "play P2"),
    ("afrikan_tahti", "cairo", "minä heitän noppaa", "roll"),
    ("afrikan_tahti", "cairo", "mie lennän Suakiniin", "fly suakin"),
]


@pytest.mark.parametrize(("game", "where", "text", "action"), MOVES)
def test_a_move_said_with_the_pronoun_is_that_move(lem, game, where, text, action):
    result = PARSERS[game](lem).parse(text, context(game, where, "fi"))
    assert getattr(result, "actions", None) == (action,), result


@pytest.mark.parametrize(
    ("word", "base"),
    [
        ("kierroksel", "kierros"),
        ("elämäl", "elämä"),
        ("hengel", "henki"),
        ("kädes", "käsi"),
        ("pakast", "pakka"),
    ],
)
def test_clipped_case_endings_read_as_the_full_form(lem, word, base):
    assert base in lem.readings(word)


def test_a_dictionary_word_is_no_typo_of_another(lem):
    # "alussa" (at the start) is one letter from "avussa" (a form of *apu*, help)
    from chatbot.core.commands import _lexicon

    items = _lexicon(lem).scan("montako korttia jaetaan alussa", "fi")
    assert not any(item.fuzzy for item in items if item.text == "alussa")
