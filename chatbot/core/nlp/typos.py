"""4. Typos: :func:`fuzzy_pick` (rapidfuzz against a closed vocabulary)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from chatbot.core.nlp.text import fold


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
