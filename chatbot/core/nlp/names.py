"""5. Player names: Finnish case forms of a name and :func:`match_seat`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from rapidfuzz.distance import OSA

from chatbot.core.nlp.numbers import _back_vowel, numeral_value
from chatbot.core.nlp.text import fold, tokens
from chatbot.core.nlp.typos import max_typos

_VOWELS = "aeiouyäöå"
# Endings after a colon for names ending in a digit or symbol ("Botti 2:n", "Botti 2:lle"): the
# pronunciation decides the vowel, so accept every variant.
_COLON_ENDINGS = (
    "n",
    "a",
    "ä",
    "ta",
    "tä",
    "een",
    "seen",
    "teen",
    "hin",
    "iin",
    "lle",
    "lta",
    "ltä",
    "lla",
    "llä",
    "ssa",
    "ssä",
    "sta",
    "stä",
    "na",
    "nä",
    "ksi",
)


def _gradate(word: str) -> str:
    """Weak grade of a double stop in the last syllable (Matti -> Mati-, Pekka -> Peka-)."""
    if len(word) > 3 and word[-1] in _VOWELS and word[-3:-1] in ("kk", "pp", "tt"):
        return word[:-2] + word[-1]
    return word


def _finnish_name_forms(word: str) -> set[str]:
    """Case forms of one lower-case name: nominative, genitive, partitive, illative, allative,
    ablative, adessive, elative, inessive, essive, translative. Generous on purpose (the forms are
    matched, never generated for output, DESIGN.md §10), so uncertain endings get every variant."""
    a = _back_vowel(word)
    if word.endswith("nen") and len(word) > 4:  # Virtanen -> Virtase-
        s = word[:-3] + "s"
        strong = weak = s + "e"
        part = {s + "t" + a}
        ill = {s + "een"}
    elif word[-1] in _VOWELS:
        strong, weak = word, _gradate(word)
        part = {word + a, word + "t" + a}
        ill = {word + word[-1] + "n", word + "h" + word[-1] + "n"}
    else:  # consonant-final: John -> Johni-; Finnish -s names also Markus -> Markukse-
        strong = weak = word + "i"
        part = {strong + a}
        ill = {strong + "in"}
        if word.endswith("s"):
            kse = word[:-1] + "kse"
            part.add(word + "t" + a)
            ill.add(kse + "en")
            forms = {kse + e for e in ("n", "lle", "lt" + a, "ll" + a, "ss" + a, "st" + a, "n" + a, "ksi")}
            return {word, *forms, *_case_forms(strong, weak, a), *part, *ill}
    return {word, *_case_forms(strong, weak, a), *part, *ill}


def _case_forms(strong: str, weak: str, a: str) -> set[str]:
    return {
        weak + "n",
        weak + "lle",
        weak + "lt" + a,
        weak + "ll" + a,
        weak + "ss" + a,
        weak + "st" + a,
        strong + "n" + a,
        weak + "ksi",
    }


@lru_cache(maxsize=512)
def name_forms(name: str) -> frozenset[str]:
    """The casefolded forms by which a player named ``name`` can be referred to: the Finnish cases of
    the last word (Matti -> matin, matille, matilta; Pekka -> pekan; Virtanen -> virtasen; John ->
    johnin), colon forms after a digit or symbol ("botti 2:n"), and the English possessive
    ("matti's")."""
    words = tokens(name)
    if not words:
        return frozenset()
    head = " ".join(words[:-1])
    prefix = head + " " if head else ""
    last = words[-1]
    if last[-1].isalpha():
        lasts = _finnish_name_forms(last)
    else:
        lasts = {last} | {f"{last}:{ending}" for ending in _COLON_ENDINGS}
    full = prefix + last
    return frozenset({prefix + form for form in lasts} | {full + "'s", full + "s"})


@lru_cache(maxsize=512)
def _folded_forms(name: str) -> frozenset[str]:
    return frozenset(fold(form) for form in name_forms(name))


_PLAYER_WORD = re.compile(r"pelaaja\w*|players?|player's")


def match_seat(token_or_phrase: str, names: Sequence[str], *, loose: bool = True) -> list[int]:
    """The seats (0-based) that a word or phrase names, by their display ``names``.

    Exact references: a case form of the name (:func:`name_forms`), an ``@mention``, "pelaaja 2",
    "pelaajan 2", "player 2" (1-based). With ``loose`` also: the first word of a multi-word name in any
    case, a prefix of three letters or more, and a typo within :func:`max_typos`. Several seats come back
    when the reference fits several players; the caller asks which one."""
    words = tokens(token_or_phrase)
    if not words or not names:
        return []
    mention = words[0].startswith("@")
    if mention:
        words[0] = words[0].lstrip("@")
    if len(words) == 2 and _PLAYER_WORD.fullmatch(words[0]):
        number = numeral_value(words[1])
        return [number - 1] if number is not None and 1 <= number <= len(names) else []
    text = fold(" ".join(words))
    exact = [seat for seat, name in enumerate(names) if text in _folded_forms(name)]
    if mention and not exact:  # chat mentions drop spaces: "@botti2", "@botti_2"
        bare = text.replace("_", "")
        exact = [seat for seat, name in enumerate(names) if fold("".join(tokens(name))) == bare]
    if exact or not loose or len(text) < 3:
        return exact
    firsts = [
        seat
        for seat, name in enumerate(names)
        if len(tokens(name)) > 1 and text in _folded_forms(tokens(name)[0])
    ]
    if firsts:
        return firsts
    prefixed = [seat for seat, name in enumerate(names) if fold(" ".join(tokens(name))).startswith(text)]
    if prefixed:
        return prefixed
    limit = max_typos(text)
    if limit == 0:
        return []
    distance = {
        seat: min(OSA.distance(text, form) for form in _folded_forms(name)) for seat, name in enumerate(names)
    }
    best = min(distance.values())
    return [seat for seat, d in distance.items() if d == best] if best <= limit else []
