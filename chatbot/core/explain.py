"""Finding the rule explanation a player asks for, in any question form.

"miten kurkistus toimii?", "saako kaksintaistelussa heittää uudelleen?", "kuka aloittaa?", "montako
korttia kädessä saa olla?", "what if the deck runs out?", "who deals?", "explain knocking": the
question words are dropped, the rest is matched word by word to each topic's keywords, its
synonyms (:attr:`GameUI.topic_words`) and its title in every language, by base form (Voikko or the
word-form table) or English stem, so "kaksintaistelussa" finds the duel and "viimeisellä
kierroksella" the last lap. Phrases count more than single words; the game being played is
preferred.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from chatbot.core import i18n
from chatbot.core.gameui import GameUI, RuleTopic
from chatbot.core.nlp import Lemmatizer, english_stems, fold, normalise, tokens

#: question and filler words in both languages: they say that something is asked, not what
_STOP = frozenset(
    fold(w)
    for w in [
        "miten",
        "mites",
        "kuinka",
        "mitä",
        "mitäs",
        "mikä",
        "mitkä",
        "mihin",
        "missä",
        "mistä",
        "milloin",
        "kuka",
        "ketkä",
        "kenen",
        "kenellä",
        "kelle",
        "keneltä",
        "montako",
        "monta",
        "paljonko",
        "miksi",
        "miks",
        "kumpi",
        "jos",
        "entä",
        "entäs",
        "saako",
        "saanko",
        "saa",
        "voiko",
        "voinko",
        "voi",
        "voin",
        "voida",
        "pitääkö",
        "täytyykö",
        "pitää",
        "täytyy",
        "onko",
        "on",
        "ole",
        "olla",
        "oon",
        "olen",
        "ei",
        "en",
        "et",
        "eikö",
        "enkö",
        "toimii",
        "toimia",
        "tekee",
        "tehdä",
        "tapahtuu",
        "tarkoittaa",
        "tarkoitetaan",
        "käy",
        "käykö",
        "mennä",
        "menee",
        "selitä",
        "kerro",
        "kertoa",
        "selittää",
        "säännöt",
        "sääntö",
        "sääntöjen",
        "säännöissä",
        "ja",
        "tai",
        "se",
        "sen",
        "sitä",
        "siinä",
        "siitä",
        "siihen",
        "niin",
        "no",
        "nyt",
        "sitten",
        "sit",
        "kun",
        "että",
        "mun",
        "mulla",
        "minulla",
        "minä",
        "mä",
        "sä",
        "sinä",
        "me",
        "te",
        "he",
        "hän",
        "ne",
        "joka",
        "jota",
        "jonka",
        "pelissä",
        "peliin",
        "pelin",
        "peli",
        "pelaaja",
        "pelaajan",
        "pelaajat",
        "pelaajalla",
        "vähän",
        "paljon",
        "kanssa",
        "vai",
        "mut",
        "mutta",
        "vielä",
        "myös",
        "oikein",
        "aina",
        "koskaan",
        "ihan",
        "tässä",
        "tämä",
        "tää",
        "how",
        "does",
        "do",
        "did",
        "what",
        "whats",
        "what's",
        "is",
        "are",
        "was",
        "the",
        "a",
        "an",
        "work",
        "works",
        "working",
        "explain",
        "rules",
        "rule",
        "about",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "with",
        "and",
        "or",
        "if",
        "why",
        "can",
        "could",
        "may",
        "might",
        "must",
        "should",
        "i",
        "me",
        "my",
        "we",
        "you",
        "it",
        "its",
        "this",
        "that",
        "who",
        "whom",
        "whose",
        "when",
        "which",
        "many",
        "much",
        "happens",
        "happen",
        "happened",
        "does",
        "doesn't",
        "get",
        "gets",
        "there",
        "be",
        "been",
        "tell",
        "please",
        "mean",
        "means",
        "game",
        "player",
        "players",
        "rulebook",
        "again",
        "kerrotko",
        "selittäisitkö",
        "selittäisit",
        "voisitko",
        "voitko",
        "kertoisitko",
    ]
)


@lru_cache(maxsize=65536)
def _forms(word: str, lemmatizer: Lemmatizer) -> frozenset[str]:
    """A word's base forms (Finnish) and stems (English), folded, the word itself included."""
    return frozenset(fold(r) for r in lemmatizer.readings(word)) | {fold(s) for s in english_stems(word)}


@lru_cache(maxsize=4096)
def _titles(title: str) -> tuple[str, ...]:
    """A topic's title in every language of the catalogs ("Sabotage", "Sabotaasi")."""
    if not title:
        return ()
    return tuple(dict.fromkeys(i18n.translator(lang).gettext(title) for lang in i18n.LANGUAGES))


def topic_keywords(ui: GameUI, topic: RuleTopic) -> tuple[str, ...]:
    """Everything that leads to ``topic``: its keywords, the game's synonyms for it and its titles."""
    extra = ui.topic_words.get(topic.key, ())
    return (*topic.keywords, *extra, *_titles(topic.title))


def _phrase_hits(parts: Sequence[str], readings: Sequence[frozenset[str]], lemmatizer: Lemmatizer) -> bool:
    """Whether the keyword's words follow one another in the question, each by a base form."""
    keys = [_forms(p, lemmatizer) for p in parts]
    n = len(keys)
    return any(all(keys[k] & readings[i + k] for k in range(n)) for i in range(len(readings) - n + 1))


#: nouns every card game's questions have: they count half
_GENERIC = frozenset({"kortti", "card", "cards", "peli", "game"})


def _close(a: str, b: str) -> bool:
    """Two words that differ only in their endings ("kurkistan", "kurkistus"): a shared beginning of
    five letters or more that leaves at most two letters of the shorter word."""
    if len(a) < 5 or len(b) < 5:
        return False
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= max(5, min(len(a), len(b)) - 2)


def word_scores(
    keywords: Iterable[str],
    text: str,
    readings: Sequence[frozenset[str]],
    lemmatizer: Lemmatizer,
    content: Sequence[bool] | None = None,
) -> tuple[list[float], float]:
    """Per question word, how well the topic's keywords match it (1.5 by base form, 1.0 by a
    shared beginning, 0 not at all), and the bonus of the keyword phrases found whole."""
    folded_text = f" {fold(text)} "
    per_word = [0.0] * len(readings)
    bonus = 0.0
    for keyword in dict.fromkeys(fold(normalise(k)) for k in keywords):
        if not keyword:
            continue
        parts = keyword.split()
        if len(parts) > 1:
            if f" {keyword} " in folded_text or _phrase_hits(parts, readings, lemmatizer):
                bonus += 1.0 * len(parts)
            continue
        key_forms = _forms(keyword, lemmatizer)
        for index, forms in enumerate(readings):
            if content is not None and not content[index]:
                continue  # a question word: "miten", "what"
            if key_forms & forms:
                per_word[index] = max(per_word[index], 1.5)
            elif any(_close(f, keyword) for f in forms):
                per_word[index] = max(per_word[index], 1.0)
    return per_word, bonus


def score_topic(
    keywords: Iterable[str],
    text: str,
    readings: Sequence[frozenset[str]],
    lemmatizer: Lemmatizer,
    content: Sequence[bool] | None = None,
) -> float:
    """How well a topic's keywords match the question, on its own (see :func:`find_topics` for
    the weighting of words that many topics share)."""
    per_word, bonus = word_scores(keywords, text, readings, lemmatizer, content)
    return sum(per_word) + bonus


def question_words(question: str) -> list[str]:
    """The words of a question that say what it is about."""
    return [w for w in tokens(question) if fold(w) not in _STOP]


def find_topics(
    question: str, uis: Iterable[GameUI], lemmatizer: Lemmatizer, prefer: str | None = None
) -> list[tuple[GameUI, RuleTopic]]:
    """The best matching topics (ties included), preferring the game being played."""
    norm = normalise(question)
    words = norm.split()
    content = [fold(w) not in _STOP for w in words]
    readings = [_forms(w, lemmatizer) for w in words]
    scored: list[tuple[list[float], float, GameUI, RuleTopic]] = []
    for ui in uis:
        for topic in ui.rule_topics():
            per_word, bonus = word_scores(topic_keywords(ui, topic), norm, readings, lemmatizer, content)
            if bonus or any(per_word):
                scored.append((per_word, bonus, ui, topic))
    # a word that many topics share ("kortti", "vaihto") says less than one only a few have ("käki")
    shared = [sum(1 for per_word, _, _, _ in scored if per_word[i] > 0) for i in range(len(words))]
    best: list[tuple[float, GameUI, RuleTopic]] = []
    for per_word, bonus, ui, topic in scored:
        s = bonus + sum(
            w / (1 + 0.25 * (n - 1)) * (0.5 if readings[i] & _GENERIC else 1.0)
            for i, (w, n) in enumerate(zip(per_word, shared, strict=True))
            if w
        )
        if prefer and ui.game_id == prefer:
            s += 0.5
        best.append((round(s, 6), ui, topic))
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
