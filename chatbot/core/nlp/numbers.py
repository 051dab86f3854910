"""3. Numbers and positions: ordinals, numerals, number-nouns, digits with suffixes and side words."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from chatbot.core.nlp.text import fold
from chatbot.core.nlp.typos import FuzzyIndex

# Kinds of number words. An ordinal, an explicit position ("#2", "p2") and a side word always name a
# position; a numeral, a number-noun or a bare digit may be a position or a card value.
ORDINAL, NUMERAL, NUMBER_NOUN, DIGIT, POSITION, SIDE, EDGE, MIDDLE = (
    "ordinal",
    "numeral",
    "number_noun",
    "digit",
    "position",
    "side",
    "edge",
    "middle",
)
POSITIONAL_KINDS = frozenset({ORDINAL, POSITION, SIDE, EDGE, MIDDLE})


@dataclass(frozen=True, slots=True)
class NumberWord:
    """One reading of a word as a number or a position.

    ``value`` is the number; for side words a negative value counts from the end like a Python index
    (``-1`` = last, "oikea", "right"), and edge/middle words have ``value = 0`` (see :meth:`positions`).
    ``case`` is the Finnish case ("illative", "genitive", …) or ``None``; ``possessive`` is true for a
    form with the possessive suffix ("kakkoseni"); ``base`` is the dictionary form ("toinen")."""

    value: int
    kind: str
    base: str
    lang: str
    case: str | None = None
    possessive: bool = False

    @property
    def positional(self) -> bool:
        """True when the word can only name a position, never a count or a card value."""
        return self.kind in POSITIONAL_KINDS

    def positions(self, size: int) -> tuple[int, ...]:
        """The 1-based positions this word can name in a row of ``size``: "reunimmainen" names both
        ends, "keskimmäinen" every inner position, "viimeinen" the last one."""
        if self.kind == EDGE:
            return (1, size) if size > 1 else (1,)
        if self.kind == MIDDLE:
            return tuple(range(2, size))
        position = size + 1 + self.value if self.value < 0 else self.value
        return (position,) if 1 <= position <= size else ()


_CASES_LOCAL = ("allative", "adessive", "ablative", "inessive", "elative", "translative")


def _back_vowel(word: str) -> str:
    """Finnish vowel harmony: the a/ä of endings follows the word's back vowels."""
    return "a" if any(c in "aou" for c in word) else "ä"


def _declension(nom: str, gen: str, part: str, ill: str, ess: str) -> dict[str, str]:
    """The singular case forms of a Finnish word; the local cases hang on the genitive's stem
    (toise-lle, kolmanne-lla, kakkose-sta, yhde-ltä), which holds for every number word here."""
    a = _back_vowel(nom)
    stem = gen[:-1]
    local = (stem + "lle", stem + "ll" + a, stem + "lt" + a, stem + "ss" + a, stem + "st" + a, stem + "ksi")
    return {
        "nominative": nom,
        "genitive": gen,
        "partitive": part,
        "illative": ill,
        "essive": ess,
        **dict(zip(_CASES_LOCAL, local)),
    }


def _nen(nom: str) -> dict[str, str]:
    """-nen words: ensimmäinen, toinen, ykkönen, kakkonen, viimeinen, reunimmainen…"""
    s, a = nom[:-3] + "s", _back_vowel(nom)
    return _declension(nom, s + "en", s + "t" + a, s + "een", s + "en" + a)


def _ordinal_s(nom: str) -> dict[str, str]:
    """Ordinals in -s: kolmas -> kolmannen, kolmatta, kolmanteen."""
    s, a = nom[:-1], _back_vowel(nom)
    return _declension(nom, s + "nnen", s + "tt" + a, s + "nteen", s + "nten" + a)


def _vowel(nom: str, weak: str | None = None) -> dict[str, str]:
    """Vowel-final nouns: eka, toka, seiska, kasi, ysi, kymppi (weak stem kympi-), reuna, vika."""
    weak, a = weak or nom, _back_vowel(nom)
    return _declension(nom, weak + "n", nom + a, nom + nom[-1] + "n", nom + "n" + a)


def _superlative(nom: str) -> dict[str, str]:
    """Superlatives in -in: vasemmaisin -> vasemmaisimman, vasemmaisimpaan."""
    s, a = nom[:-2], _back_vowel(nom)
    return _declension(nom, s + "imman", nom + "t" + a, s + "imp" + a + a + "n", s + "imp" + a + "n" + a)


def _with_possessives(forms: dict[str, str]) -> Iterable[tuple[str, str, bool]]:
    """(form, case, possessive) for every case form and its first-person possessive form
    ("kakkoseni", "toiseeni", "korttiani"): the possessive drops a final -n of the genitive and
    illative, and the nominative shares the genitive's. The clipped spoken forms of the local cases
    come too: "kahel", "tokal" (-lla/-lle), "kolmelt" (-lta)."""
    for case, form in forms.items():
        yield form, case, False
        if case in ("adessive", "allative", "ablative") and form[-3:-1] in ("ll", "lt"):
            yield form[:-2] if case != "ablative" else form[:-1], case, False
        if case in ("nominative", "genitive"):
            yield forms["genitive"][:-1] + "ni", case, True
        elif case == "illative":
            yield form[:-1] + "ni", case, True
        else:
            yield form + "ni", case, True


# value -> (nom, gen, part, ill, ess) of the Finnish cardinal numerals
_FI_NUMERALS = {
    0: ("nolla", "nollan", "nollaa", "nollaan", "nollana"),
    1: ("yksi", "yhden", "yhtä", "yhteen", "yhtenä"),
    2: ("kaksi", "kahden", "kahta", "kahteen", "kahtena"),
    3: ("kolme", "kolmen", "kolmea", "kolmeen", "kolmena"),
    4: ("neljä", "neljän", "neljää", "neljään", "neljänä"),
    5: ("viisi", "viiden", "viittä", "viiteen", "viitenä"),
    6: ("kuusi", "kuuden", "kuutta", "kuuteen", "kuutena"),
    7: ("seitsemän", "seitsemän", "seitsemää", "seitsemään", "seitsemänä"),
    8: ("kahdeksan", "kahdeksan", "kahdeksaa", "kahdeksaan", "kahdeksana"),
    9: ("yhdeksän", "yhdeksän", "yhdeksää", "yhdeksään", "yhdeksänä"),
    10: ("kymmenen", "kymmenen", "kymmentä", "kymmeneen", "kymmenenä"),
}
# Spoken nominatives the spoken declensions below do not give ("yks", "kaks", "seittemän" come
# from those).
_FI_NUMERALS_SPOKEN = {10: ("kymmene",)}
# Spoken declensions: the d of the stem drops ("kahella", "yhen", "viiellä", "kaheksalla").
_FI_NUMERALS_SPOKEN_DECLINED = {
    1: ("yks", "yhen", "yhtä", "yhteen", "yhtenä"),
    2: ("kaks", "kahen", "kahta", "kahteen", "kahtena"),
    5: ("viis", "viien", "viittä", "viiteen", "viitenä"),
    6: ("kuus", "kuuen", "kuutta", "kuuteen", "kuutena"),
    7: ("seittemän", "seittemän", "seittemää", "seittemään", "seittemänä"),
    8: ("kaheksan", "kaheksan", "kaheksaa", "kaheksaan", "kaheksana"),
    9: ("yheksän", "yheksän", "yheksää", "yheksään", "yheksänä"),
}
_FI_ORDINALS = {
    1: (_nen("ensimmäinen"), _vowel("eka")),
    2: (_nen("toinen"), _vowel("toka")),
    3: (_ordinal_s("kolmas"),),
    4: (_ordinal_s("neljäs"),),
    5: (_ordinal_s("viides"),),
    6: (_ordinal_s("kuudes"),),
    7: (_ordinal_s("seitsemäs"),),
    8: (_ordinal_s("kahdeksas"),),
    9: (_ordinal_s("yhdeksäs"),),
    10: (_ordinal_s("kymmenes"),),
}
# Number-nouns name a card or a position by its number ("kakkonen" = the two); several are colloquial.
_FI_NUMBER_NOUNS = {
    0: (_vowel("nolla"), _vowel("nollakortti", "nollakorti")),
    1: (_nen("ykkönen"),),
    2: (_nen("kakkonen"),),
    3: (_nen("kolmonen"),),
    4: (_nen("nelonen"),),
    5: (_nen("vitonen"), _nen("viitonen")),
    6: (_nen("kutonen"), _nen("kuutonen")),
    7: (_vowel("seiska"), _vowel("seitska"), _nen("seitsemäinen")),
    8: (_vowel("kasi"), _vowel("kahdeksikko", "kahdeksiko"), _nen("kahdeksainen")),
    9: (_vowel("ysi"), _vowel("yhdeksikkö", "yhdeksikö"), _nen("yhdeksäinen")),
    10: (_vowel("kymppi", "kympi"),),
}
# Side words: value 1 = first, -1 = last; EDGE / MIDDLE are ambiguous and make a parser ask.
_FI_SIDES: dict[tuple[str, int], tuple[dict[str, str], ...]] = {
    (SIDE, 1): (
        _declension("vasen", "vasemman", "vasenta", "vasempaan", "vasempana"),
        _nen("vasemmanpuoleinen"),
        _superlative("vasemmaisin"),
        _superlative("vasemmanpuoleisin"),
    ),
    (SIDE, -1): (
        _declension("oikea", "oikean", "oikeaa", "oikeaan", "oikeana"),
        _nen("oikeanpuoleinen"),
        _superlative("oikeimmaisin"),
        _superlative("oikeanpuoleisin"),
        _nen("oikeimmainen"),
        _nen("viimeinen"),
        _vowel("vika"),
    ),
    (EDGE, 0): (_nen("reunimmainen"), _vowel("reuna"), _superlative("reunimmaisin"), _superlative("uloin")),
    (MIDDLE, 0): (_nen("keskimmäinen"), _superlative("keskimmäisin"), {"nominative": "keski"}),
}

_EN_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_EN_NUMERALS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_EN_SIDES = {
    (SIDE, 1): ("left", "leftmost", "far-left"),
    (SIDE, -1): ("right", "rightmost", "far-right", "last", "final"),
    (EDGE, 0): ("edge", "outer", "outermost"),
    (MIDDLE, 0): ("middle", "center", "centre", "inner", "central"),
}


def _build_number_table() -> dict[str, tuple[NumberWord, ...]]:
    table: dict[str, list[NumberWord]] = {}

    def add(form: str, word: NumberWord) -> None:
        readings = table.setdefault(fold(form), [])
        if word not in readings:
            readings.append(word)

    def add_declined(value: int, kind: str, paradigms: Iterable[dict[str, str]]) -> None:
        for forms in paradigms:
            base = forms["nominative"]
            if len(forms) == 1:
                add(base, NumberWord(value, kind, base, "fi", "nominative"))
                continue
            for form, case, possessive in _with_possessives(forms):
                add(form, NumberWord(value, kind, base, "fi", case, possessive))

    for value, (nom, gen, part, ill, ess) in _FI_NUMERALS.items():
        add_declined(value, NUMERAL, [_declension(nom, gen, part, ill, ess)])
        for spoken in _FI_NUMERALS_SPOKEN.get(value, ()):
            add(spoken, NumberWord(value, NUMERAL, nom, "fi", "nominative"))
        if value in _FI_NUMERALS_SPOKEN_DECLINED:
            for form, case, possessive in _with_possessives(
                _declension(*_FI_NUMERALS_SPOKEN_DECLINED[value])
            ):
                add(form, NumberWord(value, NUMERAL, nom, "fi", case, possessive))
    for value, paradigms in _FI_ORDINALS.items():
        add_declined(value, ORDINAL, paradigms)
    for value, paradigms in _FI_NUMBER_NOUNS.items():
        add_declined(value, NUMBER_NOUN, paradigms)
    for (kind, value), paradigms in _FI_SIDES.items():
        add_declined(value, kind, paradigms)
    for value, word in enumerate(_EN_ORDINALS, start=1):
        add(word, NumberWord(value, ORDINAL, word, "en"))
    for value, word in enumerate(_EN_NUMERALS):
        add(word, NumberWord(value, NUMERAL, word, "en"))
    for (kind, value), words in _EN_SIDES.items():
        for word in words:
            add(word, NumberWord(value, kind, word, "en"))
    return {form: tuple(words) for form, words in table.items()}


_NUMBER_TABLE = _build_number_table()

# "2", "2:een", "2:seen", "2:n", "2nd", "#2", "p2", "no2"
_DIGITS = re.compile(r"(?P<pre>#|p|no|nro)?(?P<num>\d{1,3})(?P<suf>st|nd|rd|th|:[a-zåäö]+)?")
_SUFFIX_CASES = (  # the Finnish case of a suffix written after a digit with a colon, longest first
    ("lle", "allative"),
    ("lla", "adessive"),
    ("llä", "adessive"),
    ("lta", "ablative"),
    ("ltä", "ablative"),
    ("ssa", "inessive"),
    ("ssä", "inessive"),
    ("sta", "elative"),
    ("stä", "elative"),
    ("ksi", "translative"),
    ("een", "illative"),
    ("iin", "illative"),
    ("aan", "illative"),
    ("ään", "illative"),
    ("hin", "illative"),
    ("han", "illative"),
    ("hen", "illative"),
    ("ta", "partitive"),
    ("tä", "partitive"),
    ("na", "essive"),
    ("nä", "essive"),
    ("n", "genitive"),
    ("a", "partitive"),
    ("ä", "partitive"),
)


def _digit_word(word: str) -> NumberWord | None:
    match = _DIGITS.fullmatch(word)
    if match is None:
        return None
    value, pre, suf = int(match["num"]), match["pre"], match["suf"]
    if suf in ("st", "nd", "rd", "th"):
        return NumberWord(value, ORDINAL, word, "en")
    case = None
    if suf:
        case = next((c for ending, c in _SUFFIX_CASES if suf.endswith(ending)), None)
    if pre:
        return NumberWord(value, POSITION, word, "", case)
    return NumberWord(value, DIGIT, word, "", case)


def number_words(word: str, *, typos: bool = False) -> tuple[NumberWord, ...]:
    """Every reading of ``word`` (one normalised token) as a number or a position, Finnish or
    English, in any case: "toiseen" -> ordinal 2 (illative), "kakkoseni" -> number-noun 2
    (possessive), "2:een" -> digit 2 (illative), "#2" -> position 2, "2nd" -> ordinal 2, "kasi" -> 8.

    With ``typos``, a word of seven letters or more that is one typo away from number words of a
    single meaning reads as them ("neljänten"); shorter number words are too close to each other
    (kasi/kaksi) and to ordinary words to guess."""
    digit = _digit_word(word)
    if digit is not None:
        return (digit,)
    exact = _NUMBER_TABLE.get(fold(word), ())
    if exact or not typos or len(word) < 7:
        return exact
    readings = tuple(dict.fromkeys(r for form in _fuzzy_numbers().nearest(word) for r in _NUMBER_TABLE[form]))
    return readings if len({(r.kind, r.value) for r in readings}) == 1 else ()


@lru_cache(maxsize=1)
def _fuzzy_numbers() -> FuzzyIndex:
    return FuzzyIndex(_NUMBER_TABLE)


def _number_value(word: str, kinds: Iterable[str], lang: str | None) -> int | None:
    kinds = frozenset(kinds)
    readings = [w for w in number_words(word) if w.kind in kinds]
    preferred = [w for w in readings if w.lang in (lang, "")] or readings
    return preferred[0].value if preferred else None


def ordinal_value(word: str, lang: str | None = None) -> int | None:
    """1 for "ensimmäinen", "ensimmäiseen", "eka", "ekaa", "first", "1st"; ``None`` otherwise."""
    return _number_value(word, (ORDINAL,), lang)


def numeral_value(word: str, lang: str | None = None) -> int | None:
    """2 for "kaksi", "kahteen", "two", "2", "2:een", "#2"; ``None`` otherwise."""
    return _number_value(word, (NUMERAL, DIGIT, POSITION), lang)


def number_noun_value(word: str) -> int | None:
    """2 for "kakkonen", "kakkoseen", "kakkoseni"; 7 for "seiska"; 8 for "kasi"; 9 for "ysi"."""
    return _number_value(word, (NUMBER_NOUN,), "fi")


def card_value(word: str, lang: str | None = None) -> int | None:
    """The number a word names as a card value (0–10): a numeral, a number-noun or a digit."""
    return _number_value(word, (NUMBER_NOUN, NUMERAL, DIGIT), lang)


def position_values(word: str, size: int) -> tuple[int, ...]:
    """Every position 1..size that ``word`` may name, whatever its kind ("reunimmainen" -> (1, 4))."""
    out: list[int] = []
    for reading in number_words(word):
        out += [p for p in reading.positions(size) if p not in out]
    return tuple(out)
