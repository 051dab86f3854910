"""The fresh phrases of tests/chatbot/fresh_corpus.py (written as players type them, before the
parsers were read; ``python -m tests.chatbot.fresh_figures`` prints their figures): on both
lemmatiser backends each is understood as meant or asked back, never another move and never
missed."""

from __future__ import annotations

import pytest

from chatbot.core.nlp import Lemmatizer, LemmatizerUnavailable
from tests.chatbot import fresh_figures as ff
from tests.chatbot.fresh_corpus import GAME_ROWS, META_ROWS, OPTION_ROWS


@pytest.fixture(params=["voikko", "table"], scope="module")
def lem(request) -> Lemmatizer:
    try:
        return Lemmatizer(backend=request.param)
    except LemmatizerUnavailable:
        pytest.skip(f"{request.param} is not available here")


def test_game_phrases(lem):
    bad = [
        (g, lang, text, o, r)
        for g, lang, text, o, r in ff.game_outcomes(lem)
        if o not in (ff.RIGHT, ff.ASKED)
    ]
    assert not bad, bad
    assert len(GAME_ROWS) >= 160


def test_meta_phrases(lem):
    bad = [row for row in ff.meta_outcomes(lem) if row[2] not in (ff.RIGHT, ff.ASKED)]
    assert not bad, bad
    assert len(META_ROWS) >= 50


def test_option_phrases(lem):
    bad = [row for row in ff.option_outcomes(lem) if row[2] != ff.RIGHT]
    assert not bad, bad
    assert len(OPTION_ROWS) >= 10


def test_rule_questions(lem):
    bad = [row for row in ff.rule_outcomes(lem) if row[2] != ff.RIGHT]
    assert not bad, bad
