"""The shared language toolkit of the games' text parsers (DESIGN.md section 4).

Every game's parser turns a player's free text into notations. The pieces that do not depend on a
game live here, read top-down:

1. Text: :func:`normalise`, :func:`fold`, :func:`tokens`, :func:`english_stems`.
2. Finnish base forms: :class:`Lemmatizer` (Voikko, or a committed word-form table when Voikko is
   missing; ``scripts/build_wordforms.py`` builds the table).
3. Numbers and positions: :class:`NumberWord` and :func:`number_words` (ordinals, numerals,
   number-nouns, colloquial forms, digits with suffixes, left/right/last, edge/middle), with the
   convenience functions :func:`ordinal_value`, :func:`numeral_value`, :func:`number_noun_value`,
   :func:`card_value` and :func:`position_values`.
4. Typos: :func:`fuzzy_pick` (rapidfuzz against a closed vocabulary).
5. Player names: :func:`name_forms` (Finnish case forms with consonant gradation) and
   :func:`match_seat`.
6. A game's vocabulary: :class:`Lexicon` maps words and phrases of each language to the game's own
   concept keys, and :meth:`Lexicon.scan` turns a message into items (:class:`Item`: concepts,
   numbers, seats, negation) that a game's parser matches against its legal actions.
7. What a message says: :class:`Reading` collects the concepts said and denied over the items;
   each game's parser subclasses it with the facts it cares about (positions, places, names).

Nothing here knows a game's rules; concept keys are plain strings chosen by each game.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Self

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------------------------------
# 1. Text
# --------------------------------------------------------------------------------------------------

_QUOTES = str.maketrans({"’": "'", "‘": "'", "´": "'", "`": "'", "–": "-", "—": "-", "‐": "-"})
# Everything but word characters, spaces and the marks that can carry meaning inside a token.
_DROP = re.compile(r"[^\w\s#@:'\-]")
# ':' ("2:een"), "'" ("matti's", "don't") and '-' ("sirkka-liisa") only count between word characters.
_LONE_MARK = re.compile(r"(?<!\w)[:'\-]+|[:'\-]+(?!\w)")
# '#' and '@' only count at the start of a token ("#2", "@matti").
_LONE_SIGIL = re.compile(r"[#@]+(?!\w)|(?<=\w)[#@]+")
_SPACES = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Casefold, drop punctuation (keeping digits, ä/ö/å, ``:`` inside tokens, ``#``/``@`` sigils and
    apostrophes inside words) and collapse spaces: ``"Vaihda 2:een!"`` -> ``"vaihda 2:een"``."""
    text = unicodedata.normalize("NFC", text).translate(_QUOTES).casefold()
    text = _DROP.sub(" ", text)
    text = _LONE_MARK.sub(" ", text)
    text = _LONE_SIGIL.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


_FOLD = str.maketrans({"ä": "a", "ö": "o", "å": "a"})


def fold(word: str) -> str:
    """ä -> a, ö -> o, å -> a, so that "hylkaa" and "hylkää" compare equal."""
    return word.translate(_FOLD)


def tokens(text: str) -> list[str]:
    """The normalised words of ``text``."""
    return normalise(text).split()


def english_stems(word: str) -> frozenset[str]:
    """The word and its likely English stems ("draws" -> "draw", "swapped" -> "swap"). English needs
    no dictionary for a closed command vocabulary; over-generating is harmless because the stems are
    only looked up in that vocabulary."""
    out = {word}
    if word.endswith("'s"):
        out.add(word[:-2])
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        out.add(word[:-1])
        if word.endswith("es"):
            out.add(word[:-2])
    for suffix in ("ing", "ed"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            stem = word[: -len(suffix)]
            out |= {stem, stem + "e"}
            if len(stem) > 2 and stem[-1] == stem[-2]:
                out.add(stem[:-1])  # swapped -> swap
    return frozenset(out)


# --------------------------------------------------------------------------------------------------
# 2. Finnish base forms
# --------------------------------------------------------------------------------------------------

DATA_DIR = Path(__file__).with_name("data")
WORDFORMS_PATH = DATA_DIR / "fi_wordforms.json"
VOCABULARY_PATH = DATA_DIR / "fi_vocabulary.txt"


class LemmatizerUnavailable(RuntimeError):
    """The requested lemmatiser backend cannot be used here (e.g. libvoikko or voikko-fi missing)."""


class _FormTable:
    """The committed word-form table: inflected form -> base forms, the same looked up without ä/ö
    (for forms that have them), and base form -> forms, built on first use (only typo matching
    needs it)."""

    def __init__(self, forms: dict[str, tuple[str, ...]]) -> None:
        self.forms = forms
        folded: dict[str, set[str]] = {}
        for form, bases in forms.items():
            if not _UMLAUT_SET.isdisjoint(form):
                folded.setdefault(fold(form), set()).update(bases)
        self.folded = {k: tuple(sorted(v)) for k, v in folded.items()}
        self._by_base: dict[str, tuple[str, ...]] | None = None

    @property
    def by_base(self) -> Mapping[str, tuple[str, ...]]:
        if self._by_base is None:
            by_base: dict[str, list[str]] = {}
            for form, bases in self.forms.items():
                for base in bases:
                    by_base.setdefault(base, []).append(form)
            self._by_base = {k: tuple(sorted(v)) for k, v in by_base.items()}
        return self._by_base


_UMLAUT_SET = frozenset("äöå")


@lru_cache(maxsize=4)
def _load_table(path: Path) -> _FormTable:
    try:
        raw: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        log.warning("Finnish word-form table %s is missing; lemmatising only with Voikko", path)
        raw = {}
    return _FormTable({form: tuple(bases) for form, bases in raw.items()})


def _open_voikko() -> object:
    """A working ``libvoikko.Voikko("fi")`` or an exception: the Python module, the C library and the
    Finnish dictionary are three separate installs, and any of them can be missing."""
    import libvoikko  # optional dependency, imported only when wanted

    voikko = libvoikko.Voikko("fi")
    if not voikko.analyze("kissa"):
        voikko.terminate()
        raise LemmatizerUnavailable("Voikko loaded but has no Finnish dictionary")
    return voikko


_announced: set[str] = set()


class Lemmatizer:
    """All base forms of a Finnish word.

    ``backend`` is ``"voikko"`` or ``"table"``; ``Lemmatizer()`` picks Voikko when it loads and
    otherwise the committed word-form table, ``Lemmatizer(backend="table")`` forces the table (tests
    cover both paths). Both backends also look a word without ä/ö up folded in the table, so "hylkaa"
    reads as *hylätä* and "kayta" as *käyttää* (which Voikko alone reads as something else).
    """

    def __init__(self, backend: str | None = None, table_path: Path = WORDFORMS_PATH) -> None:
        if backend not in (None, "voikko", "table"):
            raise ValueError(f"unknown lemmatiser backend {backend!r}")
        self._table = _load_table(table_path)
        self._voikko: object | None = None
        # One Voikko handle is not safe to share between threads; analysing is ~30 µs, so a lock is cheap.
        self._lock = threading.Lock()
        if backend in (None, "voikko"):
            try:
                self._voikko = _open_voikko()
            except Exception as exc:
                if backend == "voikko":
                    raise LemmatizerUnavailable(f"Voikko cannot be used: {exc}") from exc
                log.info("Voikko is not available (%s); using the word-form table", exc)
        self.backend = "voikko" if self._voikko is not None else "table"
        if self.backend not in _announced:
            _announced.add(self.backend)
            log.info("Finnish lemmatiser backend: %s", self.backend)
        self._cached_readings = lru_cache(maxsize=16384)(self._readings)
        self._cached_known = lru_cache(maxsize=16384)(lambda w: bool(self._bases(w) - {w}))

    def readings(self, word: str) -> frozenset[str]:
        """Every base form (lower-case) of ``word``, plus the word itself. Ambiguous words keep all
        readings ("hylkään" -> hylätä and hyljätä); the game's vocabulary picks the one it knows."""
        return self._cached_readings(word.casefold())

    def forms_of(self, base: str) -> frozenset[str]:
        """The inflected forms of ``base`` that the word-form table knows (for typo matching)."""
        return frozenset(self._table.by_base.get(base.casefold(), ()))

    def known(self, word: str) -> bool:
        """Whether ``word`` is an inflected form of a dictionary word ("alussa" of *alku*): such a word
        is what it says, never a typo of another ("avussa")."""
        return self._cached_known(word.casefold())

    def _readings(self, word: str) -> frozenset[str]:
        bases = self._bases(word)
        if not bases:
            # spoken Finnish clips the local cases: "kierroksel" (-lla), "botil", "kädes" (-ssä),
            # "pakast" (-sta); a word that reads as nothing else is read as the full forms too (like
            # english_stems, over-generating is harmless: readings are looked up in vocabularies)
            for full in unclipped(word):
                bases |= self._bases(full) | {full}
        if "minä" in bases:
            bases.discard("mikä")  # "minä" is the pronoun, not the essive of *mikä* (a question word)
        return frozenset(bases | {word})

    def _bases(self, word: str) -> set[str]:
        bases: set[str] = set()
        if self._voikko is not None:
            with self._lock:
                analyses = self._voikko.analyze(word)  # type: ignore[attr-defined]
            bases = {a["BASEFORM"].casefold() for a in analyses if a.get("BASEFORM")}
        bases.update(self._table.forms.get(word, ()))  # the table is built from Voikko: no conflict
        if word == fold(word):  # perhaps typed with a/o for ä/ö
            bases.update(self._table.folded.get(word, ()))
        return bases


def unclipped(word: str) -> tuple[str, ...]:
    """The written forms a clipped spoken case form may stand for: "kierroksel" -> kierroksella,
    kierrokselle; "kädes" -> kädessä; "pakast" -> pakasta. Only words of four letters or more whose
    clipped ending follows a vowel."""
    if len(word) < 4 or not word.isalpha():
        return ()
    a = _back_vowel(word)
    if word.endswith("l") and word[-2] in _VOWELS:
        return (word + "l" + a, word + "le")
    if word.endswith("lt") and word[-3] in _VOWELS:
        return (word + a,)
    if word.endswith("st") and word[-3] in _VOWELS:
        return (word + a,)
    if word.endswith("s") and word[-2] in "eiy" and len(word) >= 5:
        return (word + "s" + a,)
    return ()


@lru_cache(maxsize=1)
def default_lemmatizer() -> Lemmatizer:
    """The process-wide lemmatiser with the best available backend."""
    return Lemmatizer()


# --------------------------------------------------------------------------------------------------
# 3. Numbers and positions
# --------------------------------------------------------------------------------------------------

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


# --------------------------------------------------------------------------------------------------
# 4. Typos
# --------------------------------------------------------------------------------------------------


def max_typos(word: str) -> int:
    """Edits allowed for a typo: none up to 4 letters ("ota" must not become "nosta", nor "move"
    "more"), one up to 8 ("nsota" -> "nosta", "koputn" -> "koputan"), two for longer words."""
    n = len(word)
    return 0 if n <= 4 else 1 if n <= 8 else 2


class FuzzyIndex:
    """A closed vocabulary prepared for typo matching (folded once, searched many times)."""

    def __init__(self, vocabulary: Iterable[str]) -> None:
        self._by_folded: dict[str, list[str]] = {}
        for word in vocabulary:
            self._by_folded.setdefault(fold(word.casefold()), []).append(word)
        self._choices = list(self._by_folded)

    def nearest(self, word: str, cutoff: float = 75.0) -> list[str]:
        """The vocabulary words nearest to ``word`` within :func:`max_typos` edits (transpositions
        count as one) and a normalised similarity of at least ``cutoff``; several on a tie."""
        key = fold(word.casefold())
        if key in self._by_folded:
            return list(self._by_folded[key])
        limit = max_typos(key)
        if limit == 0 or not self._choices:
            return []
        found = process.extract(key, self._choices, scorer=OSA.distance, score_cutoff=limit, limit=None)
        hits = [(choice, dist) for choice, dist, _ in found if fuzz.ratio(key, choice) >= cutoff]
        if not hits:
            return []
        best = min(dist for _, dist in hits)
        return [w for choice, dist in hits if dist == best for w in self._by_folded[choice]]


@lru_cache(maxsize=64)
def _fuzzy_index(vocabulary: frozenset[str]) -> FuzzyIndex:
    return FuzzyIndex(vocabulary)


def fuzzy_pick(word: str, vocabulary: Iterable[str], cutoff: float = 75.0) -> str | None:
    """The one word of ``vocabulary`` that ``word`` is a typo of, or ``None`` when nothing is close
    enough or two words are equally close. ``cutoff`` is the minimum rapidfuzz ratio (0–100); short
    words also need an exact or near-exact match (:func:`max_typos`)."""
    nearest = _fuzzy_index(frozenset(vocabulary)).nearest(word, cutoff)
    if len(set(nearest)) == 1:
        return nearest[0]
    # On a tie of edits the more similar spelling wins ("koputn": koputan over koputa); else no guess.
    scored = sorted(((fuzz.ratio(fold(word), fold(w)), w) for w in set(nearest)), reverse=True)
    if len(scored) > 1 and scored[0][0] > scored[1][0]:
        return scored[0][1]
    return None


# --------------------------------------------------------------------------------------------------
# 5. Player names
# --------------------------------------------------------------------------------------------------

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


# --------------------------------------------------------------------------------------------------
# 6. A game's vocabulary
# --------------------------------------------------------------------------------------------------

# Structural concepts every game shares. NEG negates the command words after it up to the next SEP
# ("en koputa" = don't knock); OWN marks the speaker's own cards ("mun", "my"); QUESTION words start a
# question, which is not a command ("miten kurkistus toimii"); FILLER words are known so that they are
# never mistaken for a name or a typo.
NEG, SEP, OWN, WITH, QUESTION, FILLER = "neg", "sep", "own", "with", "question", "filler"

COMMON_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "fi": {
        NEG: ("ei", "en", "et", "älä", "älkää", "enkä", "eikä", "etkä", "emme", "ette"),
        SEP: ("ja", "sitten", "sekä", "vaan", "mutta", "enkä", "eikä", "etkä", "jälkeen"),
        OWN: (
            "mun",
            "mu",
            "minun",
            "mä",
            "mää",
            "minä",
            "mie",
            "miun",
            "oma",
            "omaa",
            "omani",
            "omaan",
            "oman",
        ),
        WITH: ("kanssa",),
        QUESTION: (
            "miten",
            "mikä",
            "mitä",
            "kuka",
            "kenen",
            "miksi",
            "milloin",
            "paljonko",
            "montako",
            "kumpi",
            "mites",
            "voiko",
            "saako",
            "mitäs",
        ),
        FILLER: (
            "se",
            "sen",
            "sitä",
            "siihen",
            "sille",
            "siitä",
            "sit",
            "no",
            "niin",
            "okei",
            "ok",
            "joo",
            "juu",
            "nyt",
            "tämä",
            "tää",
            "tän",
            "tätä",
            "kiitos",
            "pliis",
            "hei",
            "vain",
            "vaikka",
            "kyllä",
            "taas",
            "kun",
            "että",
            "jos",
            "sinne",
            "tuo",
            "tuon",
            "kuin",
        ),
    },
    "en": {
        NEG: ("no", "not", "don't", "dont", "never", "do not", "i don't", "nope"),
        SEP: ("and", "then", "but", "after"),
        OWN: ("my", "mine", "own", "me"),
        WITH: ("with",),
        QUESTION: ("how", "what", "why", "who", "whose", "when", "which", "what's", "how's"),
        FILLER: (
            "the",
            "a",
            "an",
            "it",
            "its",
            "to",
            "into",
            "in",
            "at",
            "on",
            "of",
            "from",
            "i",
            "i'll",
            "please",
            "this",
            "that",
            "is",
            "for",
            "up",
            "let's",
            "lets",
            "ok",
            "okay",
            "now",
            "just",
            "you",
            "your",
            "card's",
            "as",
            "by",
        ),
    },
}


@dataclass(frozen=True, slots=True)
class Item:
    """One unit of a scanned message: a word, a phrase or a (multi-word) player name.

    ``concepts`` are the game's concept keys the unit expresses (several when a word is ambiguous);
    ``numbers`` its readings as a number or position; ``seats`` the seats it names; ``negated`` is
    true inside the scope of a negation ("en *koputa*"); ``fuzzy`` when it was recognised as a typo."""

    start: int
    words: tuple[str, ...]
    concepts: frozenset[str] = frozenset()
    numbers: tuple[NumberWord, ...] = ()
    seats: tuple[int, ...] = ()
    negated: bool = False
    fuzzy: bool = False

    @property
    def text(self) -> str:
        return " ".join(self.words)

    def has(self, *concepts: str) -> bool:
        return any(c in self.concepts for c in concepts)

    @property
    def known(self) -> bool:
        return bool(self.concepts or self.numbers or self.seats)


Analyser = Callable[[str], Iterable[str]]


class Lexicon:
    """A game's closed vocabulary: ``{lang: {concept: [word or phrase, …]}}``.

    Finnish entries are base forms (or colloquial surface forms): "nostaa" matches nostan, nosta,
    nostetaan through the lemmatiser; a phrase ("avoin kortti", "nostaa kakkonen") matches word by word
    and wins over its parts. English entries match through :func:`english_stems`. Comparison is
    folded, so a/o typed for ä/ö still match. Both languages are always accepted; a word known in the
    speaker's language takes that language's meaning ("no" is a filler in Finnish, a negation in
    English). :data:`COMMON_WORDS` are merged in unless ``common=False``. Typos are matched against
    the listed words and, unless ``fuzzy_forms=False``, against their forms in the word-form table.
    """

    def __init__(
        self,
        words: Mapping[str, Mapping[str, Iterable[str]]],
        lemmatizer: Lemmatizer | None = None,
        *,
        common: bool = True,
        fuzzy_forms: bool = True,
    ) -> None:
        self.lemmatizer = lemmatizer or default_lemmatizer()
        self._fuzzy_forms = fuzzy_forms
        self._analysers: dict[str, Analyser] = {"fi": self.lemmatizer.readings, "en": english_stems}
        self._words: dict[str, dict[str, set[str]]] = {}
        self._phrases: dict[str, dict[str, list[tuple[tuple[str, ...], str]]]] = {}
        self._entries: dict[str, set[str]] = {}  # folded word -> the words as listed (for their forms)
        self._listed: dict[str, dict[str, None]] = {}  # lang -> every word as listed, in order
        sources = [COMMON_WORDS, words] if common else [words]
        for source in sources:
            for lang, concepts in source.items():
                for concept, entries in concepts.items():
                    for entry in entries:
                        self._add(lang, concept, entry)
        self._fuzzy: tuple[FuzzyIndex, dict[str, dict[str, set[str]]]] | None = None
        self._keys = lru_cache(maxsize=8192)(self._compute_keys)

    def listed_words(self, lang: str = "fi") -> list[str]:
        """Every word of the vocabulary as listed, phrases' words too (for building the word-form
        table: scripts/build_wordforms.py)."""
        return list(self._listed.get(lang, ()))

    def _add(self, lang: str, concept: str, entry: str) -> None:
        self._listed.setdefault(lang, {}).update(dict.fromkeys(tokens(entry)))
        parts = tuple(fold(w) for w in tokens(entry))
        if len(parts) == 1:
            self._words.setdefault(lang, {}).setdefault(parts[0], set()).add(concept)
            self._entries.setdefault(parts[0], set()).add(entry.casefold())
        elif parts:
            self._phrases.setdefault(lang, {}).setdefault(parts[0], []).append((parts, concept))

    @property
    def langs(self) -> list[str]:
        return list(dict.fromkeys([*self._words, *self._phrases]))

    def _compute_keys(self, word: str, lang: str) -> frozenset[str]:
        analyse = self._analysers.get(lang, lambda w: (w,))
        return frozenset(fold(r) for r in analyse(word))

    def _ordered_langs(self, lang: str) -> list[str]:
        return [lang] + [other for other in self.langs if other != lang]

    def concepts(self, word: str, lang: str) -> frozenset[str]:
        """The concepts a single word expresses, preferring the speaker's language on a conflict."""
        for candidate in self._ordered_langs(lang):
            table = self._words.get(candidate, {})
            hits = {c for key in self._keys(word, candidate) for c in table.get(key, ())}
            if hits:
                return frozenset(hits)
        return frozenset()

    def fuzzy_concepts(self, word: str, lang: str) -> frozenset[str]:
        """The concepts of the single vocabulary word that ``word`` is a typo of (empty when no word,
        or words of different meaning, are near)."""
        if len(word) < 4 or any(c.isdigit() for c in word):
            return frozenset()
        index, meanings = self._fuzzy_vocabulary()
        found: set[frozenset[str]] = set()
        for form in index.nearest(word):
            by_lang = meanings[form]
            preferred = by_lang.get(lang) or next(iter(by_lang.values()))
            found.add(frozenset(preferred))
        return next(iter(found)) if len(found) == 1 else frozenset()

    def _fuzzy_vocabulary(self) -> tuple[FuzzyIndex, dict[str, dict[str, set[str]]]]:
        """Every known single-word form (Finnish entries with their table inflections) -> concepts."""
        if self._fuzzy is None:
            meanings: dict[str, dict[str, set[str]]] = {}
            for lang, table in self._words.items():
                for key, concepts in table.items():
                    # the forms of the word as listed: "älkää" folds to "alkaa", whose forms are not its
                    forms = {key}
                    if lang == "fi" and self._fuzzy_forms:
                        forms.update(
                            f for e in self._entries.get(key, ()) for f in self.lemmatizer.forms_of(e)
                        )
                    for form in forms:
                        meanings.setdefault(fold(form), {}).setdefault(lang, set()).update(concepts)
            self._fuzzy = (FuzzyIndex(meanings), meanings)
        return self._fuzzy

    def _phrase_at(self, words: Sequence[str], i: int, lang: str) -> tuple[int, frozenset[str]]:
        """The longest phrase starting at ``words[i]``: (length, concepts), or (0, ∅)."""
        best, concepts = 0, set[str]()
        for candidate in self._ordered_langs(lang):
            phrases = self._phrases.get(candidate, {})
            for key in self._keys(words[i], candidate):
                for parts, concept in phrases.get(key, ()):
                    n = len(parts)
                    if n < best or i + n > len(words):
                        continue
                    if all(parts[k] in self._keys(words[i + k], candidate) for k in range(1, n)):
                        if n > best:
                            best, concepts = n, set()
                        concepts.add(concept)
        return best, frozenset(concepts)

    def scan(self, text: str, lang: str, names: Sequence[str] = ()) -> list[Item]:
        """Split a message into :class:`Item` units, in this order of trust: phrases of the vocabulary,
        exact player names (case forms, @mentions, "pelaaja 2"), single vocabulary words and number
        words, then loose names (prefix, typo) and typos of vocabulary words for what is left."""
        words = tokens(text)
        name_len = max((len(tokens(n)) for n in names), default=0) + 1  # +1 for "pelaajan 2"
        items: list[Item] = []
        i = 0
        while i < len(words):
            item = self._item_at(words, i, lang, names, name_len)
            items.append(item)
            i += len(item.words)
        return _apply_negation(items, clause_starts(text))

    def _item_at(self, words: Sequence[str], i: int, lang: str, names: Sequence[str], name_len: int) -> Item:
        length, concepts = self._phrase_at(words, i, lang)
        if length > 1:
            return Item(i, tuple(words[i : i + length]), concepts)
        word = words[i]
        concepts = self.concepts(word, lang)
        numbers = number_words(word)
        if names and (word.startswith("@") or not (concepts or numbers)):
            for n in range(min(name_len, len(words) - i), 0, -1):
                seats = match_seat(" ".join(words[i : i + n]), names, loose=False)
                if seats:
                    return Item(i, tuple(words[i : i + n]), seats=tuple(seats))
        if concepts or numbers:
            return Item(i, (word,), concepts, numbers)
        seats = match_seat(word, names) if names else []
        if seats:
            return Item(i, (word,), seats=tuple(seats), fuzzy=True)
        concepts = self.fuzzy_concepts(word, lang) if not self.lemmatizer.known(word) else frozenset()
        if concepts:
            return Item(i, (word,), concepts, fuzzy=True)
        numbers = number_words(word, typos=True)
        if numbers:
            return Item(i, (word,), numbers=numbers, fuzzy=True)
        return Item(i, (word,))


_CLAUSE_END = re.compile(r"[,;.!?:]+$")


def clause_starts(text: str) -> frozenset[int]:
    """The indices (into :func:`tokens`) of the words that open a new clause after a comma or a full
    stop ("ei oo rahaa, heitän": *heitän* is not denied)."""
    starts: set[int] = set()
    count = 0
    for raw in text.split():
        count += len(normalise(raw).split())
        if _CLAUSE_END.search(raw.translate(_QUOTES)):
            starts.add(count)
    return frozenset(starts)


def _apply_negation(items: list[Item], clause_starts: frozenset[int] = frozenset()) -> list[Item]:
    """Mark the items after a negation word as negated, up to the next separator ("en koputa",
    "don't use it", "hylkään enkä nosta": "enkä" both closes the first part and negates the next)
    or the next clause after a comma ("ei oo rahaa, heitän")."""
    out: list[Item] = []
    negating = False
    for item in items:
        if item.has(SEP) or item.start in clause_starts:
            negating = False
        if item.has(NEG):
            negating = True
            out.append(item)
            continue
        out.append(dataclasses.replace(item, negated=True) if negating and item.concepts else item)
    return out


@dataclasses.dataclass(slots=True)
class Reading:
    """What a message says, whatever the phase: the concepts said, the concepts denied (inside a
    negation: "en *koputa*"), how many words meant nothing, and whether it opens as a question.

    :meth:`of` walks the items once; a game's subclass adds its own fields and reads them in
    :meth:`take` (called for every item, with its index), and may change which concepts count in
    :meth:`concepts_of`. The game's parser then decides what the reading means in the phase.
    """

    said: set[str] = dataclasses.field(default_factory=set)
    denied: set[str] = dataclasses.field(default_factory=set)
    unknown: int = 0
    question: bool = False

    @classmethod
    def of(cls, items: Sequence[Item], question: str | None = None) -> Self:
        """Read ``items``; ``question`` is the concept key that opens a question ("miten", "how")."""
        reading = cls()
        reading.question = bool(items) and question is not None and items[0].has(question)
        for index, item in enumerate(items):
            (reading.denied if item.negated else reading.said).update(reading.concepts_of(item))
            reading.unknown += not item.known
            reading.take(items, index)
        return reading

    def concepts_of(self, item: Item) -> Iterable[str]:
        return item.concepts

    def take(self, items: Sequence[Item], index: int) -> None:
        """A game's own reading of ``items[index]``; the base reads nothing more."""

    def has(self, *concepts: str) -> bool:
        return any(c in self.said for c in concepts)

    def denies(self, *concepts: str) -> bool:
        return any(c in self.denied for c in concepts)


# --------------------------------------------------------------------------------------------------
# 8. Which language a message is written in, and whether it asks
# --------------------------------------------------------------------------------------------------

#: words that only an English sentence has (function words, question words, common verbs of the
#: bot's talk); Finnish chat borrows few of them ("ok", "bot" and game words are left out)
_ENGLISH_WORDS = frozenset(
    [
        "the",
        "is",
        "are",
        "am",
        "was",
        "were",
        "do",
        "does",
        "did",
        "can",
        "could",
        "would",
        "should",
        "will",
        "shall",
        "what",
        "how",
        "why",
        "who",
        "whose",
        "when",
        "where",
        "which",
        "if",
        "i",
        "i'm",
        "im",
        "my",
        "mine",
        "you",
        "your",
        "we",
        "us",
        "our",
        "it",
        "its",
        "this",
        "that",
        "there",
        "a",
        "an",
        "of",
        "to",
        "in",
        "at",
        "for",
        "with",
        "from",
        "and",
        "or",
        "but",
        "not",
        "don't",
        "dont",
        "doesn't",
        "cant",
        "can't",
        "happens",
        "happen",
        "get",
        "got",
        "have",
        "has",
        "had",
        "much",
        "many",
        "any",
        "some",
        "lets",
        "let's",
        "please",
        "want",
        "like",
        "play",
        "new",
        "add",
        "join",
        "start",
        "leave",
        "switch",
        "change",
        "speak",
        "english",
        "finnish",
        "game",
        "bots",
        "bot",
        "rules",
        "rule",
        "explain",
        "turn",
        "cards",
        "card",
        "hand",
        "money",
        "points",
        "score",
        "scores",
        "lives",
        "life",
        "whats",
        "what's",
        "hows",
        "how's",
        "wheres",
        "where's",
        "who's",
        "else",
        "about",
        "when's",
        "out",
        "going",
        "go",
        "does",
        "anyone",
        "be",
        "been",
        "being",
        "help",
        "show",
        "tell",
        "again",
    ]
)
_ENGLISH_WEAK = frozenset({"ok", "bot", "bots", "game", "start", "help", "play", "new", "a", "i", "me"})
#: words that only a Finnish sentence has, for texts typed without ä/ö
_FINNISH_WORDS = frozenset(
    [
        "mita",
        "mika",
        "miten",
        "miksi",
        "kuka",
        "kenen",
        "kenella",
        "milloin",
        "montako",
        "paljonko",
        "kuinka",
        "voiko",
        "saako",
        "voinko",
        "saanko",
        "onko",
        "mulla",
        "mun",
        "mä",
        "ma",
        "mää",
        "minä",
        "mina",
        "minulla",
        "sulla",
        "sun",
        "sinä",
        "sina",
        "on",
        "oon",
        "olen",
        "ja",
        "tai",
        "ei",
        "en",
        "jos",
        "kun",
        "että",
        "etta",
        "se",
        "sen",
        "sitä",
        "sita",
        "nyt",
        "vielä",
        "viela",
        "pitää",
        "pitaa",
        "täytyy",
        "taytyy",
        "voi",
        "saa",
        "uusi",
        "uus",
        "peli",
        "pelit",
        "liity",
        "lisää",
        "lisaa",
        "botti",
        "botteja",
        "bottia",
        "aloita",
        "aloitetaan",
        "lähden",
        "lahden",
        "kieli",
        "suomeksi",
        "englanniksi",
        "kiitos",
        "moi",
        "hei",
        "no",
        "niin",
        "joo",
        "juu",
        "kyllä",
        "kylla",
        "mitäs",
        "mites",
    ]
)


def detect_language(text: str, default: str, lemmatizer: Lemmatizer | None = None) -> str:
    """``"fi"`` or ``"en"``: the language ``text`` is written in, or ``default`` (the speaker's or the
    room's language) when the text is too short or mixed to tell ("ok", "gnav?", "start")."""
    words = tokens(text)
    if not words:
        return default
    en = fi = 0.0
    for word in words:
        if any(c in "äöå" for c in word):
            fi += 1.5
            continue
        folded = fold(word)
        if word in _ENGLISH_WORDS:
            en += 0.5 if word in _ENGLISH_WEAK else 1.0
            continue
        if folded in _FINNISH_WORDS:
            fi += 1.0
            continue
        if len(word) > 4 and word.endswith(("ko", "kö", "ksi", "lla", "llä", "ssa", "ssä", "sta", "stä")):
            fi += 0.5
            continue
        if lemmatizer is not None and len(word) > 3 and lemmatizer.known(word):
            fi += 0.5
    if en >= 1.0 and en > fi * 1.5:
        return "en"
    if fi >= 1.0 and fi > en * 1.5:
        return "fi"
    return default


_QUESTION_STARTS = frozenset(
    {
        "miten",
        "mites",
        "kuinka",
        "mita",
        "mitas",
        "mika",
        "mitka",
        "miksi",
        "miks",
        "kuka",
        "ketka",
        "kenen",
        "kenella",
        "kelle",
        "kenelta",
        "milloin",
        "montako",
        "paljonko",
        "kumpi",
        "missa",
        "mihin",
        "mista",
        "onko",
        "saako",
        "voiko",
        "voinko",
        "saanko",
        "pitaako",
        "taytyyko",
        "kayko",
        "meneeko",
        "paaseeko",
        "kannattaako",
        "how",
        "what",
        "whats",
        "what's",
        "why",
        "who",
        "whose",
        "who's",
        "when",
        "where",
        "where's",
        "which",
        "can",
        "could",
        "may",
        "do",
        "does",
        "did",
        "is",
        "are",
        "am",
        "should",
    }
)


_QUESTION_LEADS = frozenset({"enta", "no", "ja", "mut", "mutta", "so", "and", "but", "ok", "okei", "entas"})


def is_question(text: str, lemmatizer: Lemmatizer | None = None) -> bool:
    """Whether ``text`` asks something: it ends with "?", opens with a question word ("miten",
    "kuka", "what if", "can I"), or its first words carry the question clitic -ko/-kö ("voinko",
    "saako", "nostanko"). A question is never a move."""
    stripped = text.strip()
    if stripped.endswith("?"):
        return True
    words = tokens(stripped)
    if not words:
        return False
    first = fold(words[0])
    if first in _QUESTION_STARTS:
        return True
    if len(words) > 1 and first in _QUESTION_LEADS and fold(words[1]) in _QUESTION_STARTS | {"jos", "if"}:
        return True  # "entä jos…", "no miten…", "and what if…"
    if lemmatizer is None:
        return False
    for word in words[:2]:
        if len(word) > 4 and word.endswith(("ko", "kö")):
            stem = word[:-2]
            if lemmatizer.known(stem) and (lemmatizer.backend == "table" or lemmatizer.known(word)):
                return True  # "voinko", "nostanko": the clitic on a verb form ("peikko" is a noun)
    return False
