"""2. Finnish base forms: :class:`Lemmatizer` (Voikko, or the committed word-form table)."""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from chatbot.core.nlp.names import _VOWELS
from chatbot.core.nlp.numbers import _back_vowel
from chatbot.core.nlp.text import fold

log = logging.getLogger(__package__)  # the logger of chatbot.core.nlp, as before the split

DATA_DIR = Path(__file__).parent.with_name("data")  # chatbot/core/data
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
        self._cached_spoken = lru_cache(maxsize=16384)(self._spoken_readings)
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

    def spoken_readings(self, word: str) -> frozenset[str]:
        """:meth:`readings`, and for a word the dictionary does not read at all, the readings of the
        written forms it may stand for in spoken Finnish and the dialects (:func:`spoken_forms`:
        "helppoo", "lissää", "lähen", "kolome", "vaikeeta"). The command reader uses them; a game's
        own words are read by :meth:`readings` alone."""
        return self._cached_spoken(word.casefold())

    def _spoken_readings(self, word: str) -> frozenset[str]:
        readings = self._readings(word)
        if self._bases(word):
            return readings
        more = {form for full in spoken_forms(word) for form in (*self._bases(full), full)}
        if "minä" in more:
            more.discard("mikä")
        return readings | more

    def is_word(self, word: str) -> bool:
        """Whether the dictionary (Voikko or the table) reads ``word`` at all, base forms included."""
        return bool(self._bases(word.casefold()))

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


_V = "aeiouyäö"
#: an epenthetic vowel of Savo and other eastern dialects: "kolome" (kolme), "vanaha" (vanha)
_EPENTHESIS = re.compile(rf"([{_V}])([lhrn])\1(?=[^{_V}])")
#: a dropped d between vowels after h: "lähen" (lähden), "tehään" (tehdään), "kahen" (kahden)
_DROPPED_D = re.compile(rf"(?<=[{_V}])h(?=[{_V}])")
#: a doubled consonant of Savo or of emphasis: "lissää" (lisää), "mukkaan" (mukaan), "rahhaa"
_GEMINATE = re.compile(r"([bcdfghjklmnprstvz])\1")
#: clitics on a spoken word: "lisäppä", "annappa", "näytäs", "mäkin", "sitähän", "aloitetaanko", "onks"
_CLITICS = ("ppa", "ppä", "pa", "pä", "han", "hän", "kaan", "kään", "kin", "ki", "ko", "kö", "ks", "s")


def spoken_forms(word: str) -> tuple[str, ...]:
    """The written forms a spoken or dialect word may stand for, for a word the dictionary does not
    know (so a real word is never read as another): the clipped cases of :func:`unclipped`, and

    * a long final vowel for a partitive or infinitive ending: "helppoo" -> helppoa, "vaikee" ->
      vaikea, "bottii" -> bottia, "lähtee" -> lähteä; or for a slang base lengthened: "fyrkkaa" ->
      fyrkka, "massii" -> massi; or a dropped final n: "pelataa" -> pelataan, "uudellee";
    * a short vowel of Turku before a final n: "mukan" -> mukaan;
    * a dropped final t: "voittanu" -> voittanut; a clipped partitive plural: "pisteit" -> pisteitä;
      a clipped inessive after any vowel: "vuoros" -> vuorossa;
    * Savo's doubled consonant ("lissää", "mukkaan", "rahhaa") and epenthetic vowel ("kolome");
    * a dropped d after h ("lähen" -> lähden, "kahen" -> kahden);
    * a clitic taken off ("lisäppä" -> lisää, "näytäs" -> näytä).
    Over-generating is harmless: the forms are only looked up in closed vocabularies."""
    if len(word) < 3 or not word.isalpha():
        return ()
    out = list(unclipped(word))
    a = _back_vowel(word)
    last, before = word[-1], word[-2]
    if last in _V and before == last and len(word) >= 4:
        if last not in "aä":
            out.append(word[:-1] + a)  # helppoo, vaikee, bottii
        out.append(word[:-1])  # fyrkkaa, massii
        out.append(word + "n")  # pelataa, uudellee
    if last == "n" and before in _V and word[-3] not in _V and len(word) >= 5:
        out.append(word[:-1] + before + "n")  # mukan
    if word.endswith(("nu", "ny")) and len(word) >= 6:
        out.append(word + "t")  # voittanu
    if word.endswith(("eeta", "eetä")) and len(word) >= 6:
        out.append(word[:-3] + a + word[-2:])  # vaikeeta
    if word.endswith("it") and len(word) >= 5:
        out.append(word + a)  # pisteit
    if last == "s" and before in _V and len(word) >= 5:
        out.append(word + "s" + a)  # vuoros
    if last not in _V and before in _V and len(word) >= 4:
        out.extend(word + v for v in "aeio")  # a clipped last vowel: "vuor", "pel"
    out.extend(_GEMINATE.sub(r"\1", word, count=1) for _ in [0] if _GEMINATE.search(word))
    for pattern, repl in ((_EPENTHESIS, r"\1\2"), (_DROPPED_D, "hd")):
        changed = pattern.sub(repl, word)
        if changed != word:
            out.append(changed)
    for clitic in _CLITICS:
        stem = word[: -len(clitic)]
        if word.endswith(clitic) and len(stem) >= 3:
            out += [stem, stem + stem[-1]] if stem[-1] in _V else [stem]
            break
    return tuple(dict.fromkeys(f for f in out if f != word))


@lru_cache(maxsize=1)
def default_lemmatizer() -> Lemmatizer:
    """The process-wide lemmatiser with the best available backend."""
    return Lemmatizer()
