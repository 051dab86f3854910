"""6. A game's vocabulary: :class:`Lexicon` turns a message into items (:class:`Item`)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from chatbot.core.nlp.lemmas import Lemmatizer, default_lemmatizer, spoken_forms
from chatbot.core.nlp.names import match_seat
from chatbot.core.nlp.numbers import NumberWord, number_words
from chatbot.core.nlp.text import _QUOTES, english_stems, fold, normalise, tokens
from chatbot.core.nlp.typos import FuzzyIndex

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
    ``spoken`` reads a word the dictionary lacks by its spoken and dialect forms too
    (:meth:`Lemmatizer.spoken_readings`); ``stems`` are concepts whose nouns the dictionary lacks
    ("botti") and whose case forms are read by their stem (:meth:`stem_concepts`).
    """

    def __init__(
        self,
        words: Mapping[str, Mapping[str, Iterable[str]]],
        lemmatizer: Lemmatizer | None = None,
        *,
        common: bool = True,
        fuzzy_forms: bool = True,
        stems: Iterable[str] = (),
        spoken: bool = False,
    ) -> None:
        self.lemmatizer = lemmatizer or default_lemmatizer()
        self._fuzzy_forms = fuzzy_forms
        self._use_stems = frozenset(stems)
        self._spoken = spoken
        self._stems: list[tuple[str, frozenset[str]]] | None = None
        finnish = self.lemmatizer.spoken_readings if spoken else self.lemmatizer.readings
        self._analysers: dict[str, Analyser] = {"fi": finnish, "en": english_stems}
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

    def stem_concepts(self, word: str) -> frozenset[str]:
        """With ``stems`` (concept keys): the concepts of a Finnish noun of those concepts that the
        dictionary lacks ("botti", "fyrkka"), by its stem in either grade: "boteilla", "botilla",
        "bottien". Only for a word the dictionary does not know either; the longest stem wins."""
        if not self._use_stems or self.lemmatizer.is_word(word):
            return frozenset()
        key = fold(word.casefold())
        for stem, concepts in self._stem_index():
            if key.startswith(stem) and len(key) - len(stem) <= 6:
                return concepts
        return frozenset()

    def _stem_index(self) -> list[tuple[str, frozenset[str]]]:
        if self._stems is None:
            found: dict[str, set[str]] = {}
            for key, concepts in self._words.get("fi", {}).items():
                if not concepts & self._use_stems:
                    continue
                listed = self._entries.get(key, set())
                if len(key) < 5 or key[-1] not in "aeiouy" or any(self.lemmatizer.is_word(e) for e in listed):
                    continue  # a dictionary word or a form of one: the lemmatiser reads its forms
                if any(self.lemmatizer.is_word(r) for e in listed for r in self.lemmatizer.readings(e) - {e}):
                    continue  # a spoken form of a dictionary word ("pelii")
                stem = key[:-1]
                weak = stem[:-2] + stem[-1] if len(stem) > 3 and stem[-1] == stem[-2] in "kpt" else stem
                for s in {stem, weak}:
                    if len(s) >= 4 or (s == weak != stem and len(s) >= 3):
                        found.setdefault(s, set()).update(concepts & self._use_stems)
            self._stems = sorted(
                ((s, frozenset(c)) for s, c in found.items()), key=lambda sc: len(sc[0]), reverse=True
            )
        return self._stems

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
        if not numbers and self._spoken and word.isalpha() and not self.lemmatizer.is_word(word):
            # a spoken numeral: "kolome", "kolmee", "kahen"
            numbers = next((found for form in spoken_forms(word) if (found := number_words(form))), ())
        if names and (word.startswith("@") or not (concepts or numbers)):
            for n in range(min(name_len, len(words) - i), 0, -1):
                seats = match_seat(" ".join(words[i : i + n]), names, loose=False)
                if seats:
                    return Item(i, tuple(words[i : i + n]), seats=tuple(seats))
        if not concepts and not numbers:
            concepts = self.stem_concepts(word)
        if concepts or numbers:
            return Item(i, (word,), concepts, numbers)
        seats = match_seat(word, names) if names else []
        if seats and _other_number(words, i, [names[s] for s in seats]):
            return Item(i, (word,))  # "Botti 2" at a table with a "Botti 1": no one here
        if seats:
            return Item(i, (word,), seats=tuple(seats), fuzzy=True)
        concepts = self.fuzzy_concepts(word, lang) if not self.lemmatizer.known(word) else frozenset()
        if concepts:
            return Item(i, (word,), concepts, fuzzy=True)
        numbers = number_words(word, typos=True)
        if numbers:
            return Item(i, (word,), numbers=numbers, fuzzy=True)
        return Item(i, (word,))


def _other_number(words: Sequence[str], i: int, names: Sequence[str]) -> bool:
    """Whether the word after ``words[i]`` is a number that the loosely matched ``names`` do not end
    in: "Botti 2" names no "Botti 1" (a name told apart by its number is named by it)."""
    if i + 1 >= len(words) or not words[i + 1][:1].isdigit():
        return False
    number = words[i + 1].split(":")[0]
    return not any(tokens(name)[-1] == number for name in names)


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
