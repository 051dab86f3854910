"""7. What a message says: :class:`Reading` collects the concepts said and denied over the items."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Self

from chatbot.core.nlp.lexicon import Item


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
