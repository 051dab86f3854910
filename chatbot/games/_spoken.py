"""Spoken and written Finnish (and English) that every game's parser reads alike (issue #15).

The games' vocabularies say what a word means in a game; this module says what a message is, whatever
the game:

- :func:`answer_word`: a one-word answer to the prompt in front of the player ("ok", "joo", "käy",
  "ei", "pass", "yes", "nope"); each game decides what it answers there.
- :func:`is_question`: a question form is never a move: a final "?", an opening question word, a
  -ko/-kö clitic on a verb ("vaihdanko", "pitäisköhän", "voinko"), the spoken -ks ("otanks"), or a
  modal question ("can I", "should I").
- :class:`Unfolded` and :func:`fold_doubts`: a word typed without ä/ö is read both as it is and as
  the word with ä/ö ("kayta" is *käytä*), but where the word as typed is itself another word of the
  game ("jaa" is *deal*, "jää" is *stay*), the folded reading is only a guess: the parser reads the
  message both ways and asks when they differ (DESIGN.md §4: a fold that changes the meaning of the
  words is a question, never a move).
- :func:`without_false_questions`: "minä" and "mä" open a statement, though Voikko also reads "minä"
  as the essive of *mikä*.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from chatbot.core.nlp import (
    NEG,
    OWN,
    QUESTION,
    Item,
    Lemmatizer,
    Lexicon,
    fold,
    number_words,
    tokens,
    unclipped,
)

YES, NO, PASS = "yes", "no", "pass"

#: whole messages that answer a prompt: folded, lower-case, punctuation dropped
ANSWERS: dict[str, tuple[str, ...]] = {
    YES: (
        "ok",
        "okei",
        "okey",
        "oki",
        "okk",
        "okok",
        "joo",
        "juu",
        "jep",
        "jes",
        "jees",
        "kyllä",
        "kylla",
        "käy",
        "kay",
        "käy se",
        "se käy",
        "sopii",
        "selvä",
        "selva",
        "hyvä",
        "hyva",
        "mennään",
        "mennaan",
        "joo joo",
        "no joo",
        "ok kiitos",
        "joo kiitos",
        "kyllä kiitos",
        "yes",
        "yeah",
        "yep",
        "yup",
        "sure",
        "okay",
        "fine",
        "ok sure",
        "yes please",
        "sounds good",
        "go ahead",
        "do it",
    ),
    NO: (
        "ei",
        "en",
        "eipä",
        "eipa",
        "ei kiitos",
        "ei tarvi",
        "ei tarvii",
        "ei käy",
        "ei kay",
        "en halua",
        "no",
        "nope",
        "nah",
        "no thanks",
        "no thank you",
        "not now",
    ),
    PASS: ("pass", "passaan", "passi", "passataan", "ohi", "skip", "skippaan", "ohitan"),
}
_ANSWER_OF = {fold(" ".join(tokens(w))): kind for kind, words in ANSWERS.items() for w in words}


def answer_word(text: str) -> str | None:
    """``YES``, ``NO`` or ``PASS`` when the whole message is a short answer, else ``None``."""
    return _ANSWER_OF.get(fold(" ".join(tokens(text))))


# --- questions ------------------------------------------------------------------------------------

#: modal question words that the lemmatiser's table may not know ("voisinko vaihtaa")
MODAL_QUESTIONS = frozenset(
    fold(w)
    for w in (
        "voinko",
        "voisinko",
        "voiks",
        "voinks",
        "saanko",
        "saisinko",
        "saako",
        "saanks",
        "pitäisikö",
        "pitäiskö",
        "pitäisköhän",
        "pitäisikohän",
        "pitääkö",
        "kannattaako",
        "kannattaisiko",
        "kannattaisko",
        "kannattaaks",
        "täytyykö",
        "viitsinkö",
        "uskallanko",
        "olisiko",
        "oisko",
        "onko",
        "onks",
        "mitäs",
        "entäs",
        "entä",
    )
)
#: English openings of a question about a move (not a move)
EN_QUESTION_OPENINGS = (
    ("can", "i"),
    ("could", "i"),
    ("should", "i"),
    ("shall", "i"),
    ("may", "i"),
    ("do", "i"),
    ("is", "it"),
    ("what", "if"),
    ("would", "it"),
    ("am", "i"),
    ("must", "i"),
    ("is", "that"),
)
_CLITICS = ("kohan", "ko", "ks")  # folded: -kö/-köhän fold to -ko/-kohan ("-kaan" is no question)


def _clitic_stem(word: str) -> str | None:
    folded = fold(word)
    for clitic in _CLITICS:
        if folded.endswith(clitic) and len(folded) - len(clitic) >= 3:
            return word[: len(word) - len(clitic)]
    return None


def is_question_word(
    word: str, lemmatizer: Lemmatizer, lexicon: Lexicon | None = None, lang: str = "fi"
) -> bool:
    """A -ko/-kö (-köhän, spoken -ks) question of a verb: "vaihdanko", "pidänkö", "otanks", "pitäisköhän".
    The word without the clitic must be a real word that is not a number ("tokaks" is *as the
    second*, "Marokko" and "pakko" have no stem)."""
    if fold(word) in MODAL_QUESTIONS:
        return True
    stem = _clitic_stem(word)
    if stem is None or number_words(stem):
        return False
    if lexicon is not None and lexicon.concepts(stem, lang) - {QUESTION, OWN}:
        return True
    return lemmatizer.known(stem) and fold(word).endswith(("ko", "kohan"))


def is_question(text: str, items: Sequence[Item], lexicon: Lexicon, lang: str) -> bool:
    """Whether ``text`` asks rather than tells: a final "?", an opening question word (not "minä"),
    a clitic question of a word, or an English modal opening ("can I", "should I")."""
    if text.rstrip().endswith("?"):
        return True
    words = tokens(text)
    if not words:
        return False
    first = without_false_questions(items[:1])
    if first and first[0].has(QUESTION):
        return True
    if tuple(words[:2]) in EN_QUESTION_OPENINGS:
        return True
    return any(
        len(it.words) == 1 and is_question_word(it.words[0], lexicon.lemmatizer, lexicon, lang)
        for it in items
    )


def without_false_questions(items: Sequence[Item]) -> list[Item]:
    """Items with the question concept dropped from the first-person words ("minä" is not *mikä*)."""
    return [
        dataclasses.replace(it, concepts=it.concepts - {QUESTION}) if it.has(OWN) and it.has(QUESTION) else it
        for it in items
    ]


# --- words typed without ä/ö ----------------------------------------------------------------------

_UMLAUTS = frozenset("äöå")


class Unfolded(Lemmatizer):
    """The readings of a word as it is typed: a word without ä/ö does not also read as the word with
    them ("jaa" is *jakaa* only, not *jäädä*). Wraps a lemmatiser; used to check a folded reading."""

    def __init__(self, base: Lemmatizer) -> None:  # no super().__init__: nothing of its own to open
        self.base = base
        self.backend = base.backend

    def readings(self, word: str) -> frozenset[str]:
        readings = self.base.readings(word)
        if _UMLAUTS & set(word.casefold()):
            return readings
        return frozenset(r for r in readings if not (_UMLAUTS & set(r)))

    def forms_of(self, base: str) -> frozenset[str]:
        return self.base.forms_of(base)

    def known(self, word: str) -> bool:
        """As typed: a word without ä/ö is known only by its readings without them."""
        if not self.base.known(word):
            return False
        low = word.casefold()
        if _UMLAUTS & set(low):
            return True
        return bool(self.readings(low) - {low} - set(unclipped(low)))


def fold_doubts(items: Sequence[Item], strict: Lexicon, lang: str) -> list[Item] | None:
    """``items`` read without the folded guesses, or ``None`` when no word needed one: a one-word item
    typed without ä/ö whose meaning as typed is another concept of the game than its folded meaning
    ("jaa": *deal* as typed, *stay* folded). Phrases are trusted ("jaan tahan" is *jään tähän*)."""
    out: list[Item] = []
    doubtful = False
    for item in items:
        if len(item.words) == 1 and not item.fuzzy and item.concepts and not (_UMLAUTS & set(item.words[0])):
            as_typed = strict.concepts(item.words[0], lang)
            if as_typed and as_typed != item.concepts:
                out.append(dataclasses.replace(item, concepts=as_typed))
                doubtful = True
                continue
        out.append(item)
    return out if doubtful else None


# --- spoken forms written out -------------------------------------------------------------------

#: spoken numerals and their written forms ("yhen" -> "yhden")
SPOKEN_NUMERALS = {
    "yhen": "yhden",
    "yhelle": "yhdelle",
    "yhellä": "yhdellä",
    "kahen": "kahden",
    "kahelle": "kahdelle",
    "kuuen": "kuuden",
    "kaheksan": "kahdeksan",
    "yheksän": "yhdeksän",
    "kymmenen": "kymmenen",
}
_POSITION_STEMS = {
    "ykkös": "ykkösen",
    "kakkos": "kakkosen",
    "kolmos": "kolmosen",
    "nelos": "nelosen",
    "vitos": "vitosen",
    "kutos": "kutosen",
    "eka": "ekan",
    "toka": "tokan",
    "vika": "vikan",
    "viimeis": "viimeisen",
}
_SLOT_NOUNS = ("paik", "kort", "kohda", "kohta", "kohd", "slot", "rivi")


def written(text: str) -> str:
    """``text`` with the spoken forms of positions and numbers written out, for the games' scanners:
    the spoken translative "tokaks", "vikaks", "kolmanneks" (-> "tokaksi"), compounds of a number and
    a slot word "ykköspaikalle", "kakkoskortin", "tokapaikkaan" (-> "ykkösen paikalle") and spoken
    numerals "yhen", "kahen" (-> "yhden"). Other words are left as they are."""
    out: list[str] = []
    for word in text.split():
        bare = word.strip(".,!?;:()\"'").casefold()
        tail = word[len(word.rstrip(".,!?;:()\"'")) :]
        replaced = _written_word(bare)
        out.append(replaced + tail if replaced is not None else word)
    return " ".join(out)


def _written_word(word: str) -> str | None:
    if word in SPOKEN_NUMERALS:
        return SPOKEN_NUMERALS[word]
    if word.endswith("ks") and not number_words(word) and number_words(word + "i"):
        return word + "i"
    folded = fold(word)
    for stem, genitive in _POSITION_STEMS.items():
        if folded.startswith(fold(stem)) and len(word) > len(stem) + 2:
            rest = word[len(stem) :]
            if fold(rest).startswith(_SLOT_NOUNS):
                return f"{genitive} {rest}"
    return None


def abessive_negated(items: Sequence[Item]) -> list[Item]:
    """Items with the abessive infinitive read as a negation: "jätän kiekon kääntämättä", "jätän
    koputtamatta", "jätän vaihtamatta" say *not* to turn, knock or swap (the lemmatiser gives the verb)."""
    return [
        dataclasses.replace(it, negated=True)
        if len(it.words) == 1 and it.concepts and fold(it.words[0]).endswith(("matta", "mata"))
        else it
        for it in items
    ]


def without_word_typos(items: Sequence[Item], lemmatizer: Lemmatizer) -> list[Item]:
    """Items without the typo readings of words that are words of their own: "jätän" is *jättää*, not
    a typo of "jaan" (*deal*), so it means nothing here rather than another move (DESIGN.md §4)."""
    out = []
    for it in items:
        if (
            it.fuzzy
            and it.concepts
            and len(it.words) == 1
            and lemmatizer.readings(it.words[0]) - {it.words[0]}
        ):
            it = dataclasses.replace(it, concepts=frozenset(), fuzzy=False)
        out.append(it)
    return out


#: words that leave the decision open ("ehkä vaihdan", "maybe I'll swap"): the bot asks, never moves
HEDGES = frozenset(
    fold(w) for w in ("ehkä", "ehka", "kenties", "mahdollisesti", "varmaan", "maybe", "perhaps", "possibly")
)


def is_hedged(text: str) -> bool:
    """Whether the message leaves its own decision open: "ehkä vaihdan", "maybe I'll keep it"."""
    words = [fold(w) for w in tokens(text)]
    return any(w in HEDGES for w in words) or "en tiedä" in " ".join(tokens(text)) or "dunno" in words


def negation_once(items: Sequence[Item], commands: frozenset[str]) -> list[Item]:
    """A negation denies the first command word after it only: "en lennä, heitän noppaa" denies the
    flight and rolls (the comma, dropped by the normaliser, would otherwise carry the "en" on)."""
    out: list[Item] = []
    spent = False
    for it in items:
        if it.has(NEG):
            spent = False
        elif it.negated and spent:
            it = dataclasses.replace(it, negated=False)
        elif it.negated and it.concepts & commands:
            spent = True
        out.append(it)
    return out


_CLITIC_ENDINGS = ("kaan", "kään", "kin", "han", "hän", "pa", "pä")


def without_clitics(text: str, lemmatizer: Lemmatizer) -> str:
    """``text`` with the clitics -kin, -kaan/-kään, -han/-hän, -pa/-pä taken off the words that the
    lemmatiser knows only without them ("pidänkin" -> "pidän" for the word-form table, which lists no
    clitic forms; Voikko reads both)."""
    out = []
    for word in text.split():
        bare = word.strip(".,!?;:()\"'")
        low = bare.casefold()
        for clitic in _CLITIC_ENDINGS:
            stem = low[: -len(clitic)]
            if low.endswith(clitic) and len(stem) >= 3 and lemmatizer.readings(low) == {low}:
                if lemmatizer.known(stem):
                    word = word.replace(bare, bare[: len(stem)])
                break
        out.append(word)
    return " ".join(out)
