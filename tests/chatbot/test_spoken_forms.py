"""Spoken Finnish read alike by both lemmatiser backends (issue #15 follow-ups): "minä", "mä" and
"mie" never make a text a question, clipped case endings read as their full forms ("kierroksel",
"kädes", "pakast"), and a dictionary word is never taken as a typo of another."""

from __future__ import annotations

import pytest

from chatbot.core.nlp import QUESTION, Lexicon, is_question
from chatbot.games import _spoken
from tests.chatbot.fresh_figures import PARSERS, context
from tests.chatbot.notations import written


@pytest.mark.parametrize("word", ["minä", "minäkin", "minähän", "mina", "mä", "mie", "mää"])
def test_the_first_person_pronoun_is_no_question_word(lemmatizer, word):
    assert "mikä" not in lemmatizer.readings(word)
    lexicon = Lexicon({}, lemmatizer)
    assert QUESTION not in lexicon.concepts(word, "fi")
    for text in (f"{word} pidän", f"{word} nostan kortin", f"nyt {word} heitän"):
        assert not is_question(text, lemmatizer)
        assert not _spoken.is_question(text, lexicon.scan(text, "fi"), lexicon, "fi")


def test_a_real_question_word_still_asks(lemmatizer):
    lexicon = Lexicon({}, lemmatizer)
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
def test_a_move_said_with_the_pronoun_is_that_move(lemmatizer, game, where, text, action):
    result = PARSERS[game](lemmatizer).parse(text, context(game, where, "fi"))
    assert getattr(written(result), "actions", None) == (action,), result


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
def test_clipped_case_endings_read_as_the_full_form(lemmatizer, word, base):
    assert base in lemmatizer.readings(word)


def test_a_dictionary_word_is_no_typo_of_another(lemmatizer):
    # "alussa" (at the start) is one letter from "avussa" (a form of *apu*, help)
    from chatbot.core.commands import _lexicon

    items = _lexicon(lemmatizer).scan("montako korttia jaetaan alussa", "fi")
    assert not any(item.fuzzy for item in items if item.text == "alussa")
