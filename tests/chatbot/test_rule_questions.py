"""Rule questions in many question forms (issue #15): every topic of every game is asked at least
twice in each language, and the matcher finds the right topic for nearly all of them (the figures
per game and language: ``python scripts/talk_figures.py``)."""

from __future__ import annotations

from collections import Counter

import pytest

from chatbot.core.commands import parse_command
from chatbot.core.explain import find_topics
from chatbot.core.nlp import default_lemmatizer, detect_language
from chatbot.games import UIS
from tests.chatbot.rule_questions import RULE_QUESTIONS

GAMES = {gid: ui.aliases for gid, ui in UIS.items()}


def test_every_topic_of_every_game_is_asked_twice_in_both_languages():
    asked = Counter()
    for game, lang, _, key in RULE_QUESTIONS:
        for k in key.split("|"):
            asked[(f"{game}.{k}", lang)] += 1
    for ui in UIS.values():
        for topic in ui.rule_topics():
            for lang in ("fi", "en"):
                assert asked[(topic.key, lang)] >= 2, (topic.key, lang)


def _found(game: str, text: str) -> set[str]:
    command = parse_command(text, GAMES, "fi", addressed=True)
    assert command is not None and command.name in {"rules", "ask"}, (text, command)
    return {t.key for _, t in find_topics(command.raw_args, [UIS[game]], default_lemmatizer(), prefer=game)}


@pytest.mark.parametrize("game", sorted(UIS))
@pytest.mark.parametrize("lang", ["fi", "en"])
def test_rule_questions_find_their_topic(game, lang):
    cases = [(text, key) for g, la, text, key in RULE_QUESTIONS if g == game and la == lang]
    wrong = []
    for text, key in cases:
        wanted = {f"{game}.{k}" for k in key.split("|")}
        found = _found(game, text)
        if not found or not found <= wanted:
            wrong.append((text, sorted(found)))
    assert len(wrong) <= 0.1 * len(cases), wrong


@pytest.mark.parametrize(
    ("game", "lang", "text", "key"), [q for q in RULE_QUESTIONS if "|" not in q[3]][:400:7]
)
def test_a_rule_question_is_read_in_its_own_language(game, lang, text, key):
    if len(text.split()) < 3:
        pytest.skip("too short to tell")
    assert detect_language(text, "xx", default_lemmatizer()) in {lang, "xx"}, text
