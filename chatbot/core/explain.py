"""Finding the rule explanation a player asks for ("miten kurkistus toimii?", "explain knocking")."""

from __future__ import annotations

from collections.abc import Iterable

from chatbot.core.nlp import Lemmatizer, fold, normalise
from chatbot.core.ports import GameUI, RuleTopic

_STOP = {
    "miten",
    "kuinka",
    "mita",
    "mika",
    "toimii",
    "toimia",
    "tekee",
    "tarkoittaa",
    "saako",
    "voiko",
    "how",
    "does",
    "do",
    "what",
    "is",
    "the",
    "a",
    "an",
    "work",
    "works",
    "explain",
    "rules",
    "rule",
    "saannot",
    "saanto",
    "selita",
    "kerro",
    "about",
    "of",
    "in",
    "ja",
    "and",
    "why",
    "can",
    "i",
}


def _stem(word: str) -> str:
    return word[:5] if len(word) > 5 else word


def score_topic(topic: RuleTopic, text: str, readings: list[set[str]]) -> float:
    """How well a topic's keywords match the question: whole phrases count more than single words."""
    score = 0.0
    folded_text = f" {fold(text)} "
    for keyword in topic.keywords:
        k = fold(normalise(keyword))
        if not k:
            continue
        if " " in k:
            if f" {k} " in folded_text:
                score += 2.0 * len(k.split())
            continue
        for forms in readings:
            if k in forms:
                score += 1.5
                break
            if len(k) >= 5 and any(len(f) >= 5 and _stem(f) == _stem(k) for f in forms):
                score += 1.0
                break
    return score


def find_topics(
    question: str, uis: Iterable[GameUI], lemmatizer: Lemmatizer, prefer: str | None = None
) -> list[tuple[GameUI, RuleTopic]]:
    """The best matching topics (ties included), preferring the game being played."""
    norm = normalise(question)
    words = [w for w in norm.split() if fold(w) not in _STOP]
    readings = [{fold(r) for r in lemmatizer.readings(w)} | {fold(w)} for w in words]
    best: list[tuple[float, GameUI, RuleTopic]] = []
    for ui in uis:
        for topic in ui.rule_topics():
            s = score_topic(topic, norm, readings)
            if s <= 0:
                continue
            if prefer and ui.game_id == prefer:
                s += 0.5
            best.append((s, ui, topic))
    if not best:
        return []
    top = max(s for s, _, _ in best)
    return [(ui, topic) for s, ui, topic in best if s == top]


def game_named(words: Iterable[str], uis: Iterable[GameUI]) -> GameUI | None:
    """The game a phrase names ("majavajengi", "afrikan tähti", "gnav")."""
    text = f" {fold(' '.join(words))} "
    for ui in uis:
        for alias in ui.aliases:
            if f" {fold(alias)} " in text or (len(alias) >= 4 and f" {fold(alias)}" in text):
                return ui
    return None
