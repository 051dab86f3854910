"""Card and deck structures, ready for the Retkikunnat expansion (spec §5.19); the base game has no cards.

A deck is a frozen value: the draw pile (index 0 = top) and a face-up discard pile (last = top). Card
instances are ``<id>#<n>`` (content.json notes). Drawing from an empty pile reshuffles the discard pile
into a new draw pile with the generator the caller passes (always one from ``rng_for``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from random import Random
from typing import Any

from engines.afrikan_tahti.board import CONTENT


@dataclass(frozen=True, slots=True)
class Deck:
    name: str  # "expedition" | "event" | "danger"
    draw: tuple[str, ...] = ()  # index 0 = top
    discard: tuple[str, ...] = ()  # last = top


def instances(cards: list[dict[str, Any]]) -> tuple[str, ...]:
    """Card instance ids ``<id>#<n>`` with the copies of ``content.json`` expanded, in file order."""
    return tuple(f"{c['id']}#{n}" for c in cards for n in range(1, int(c.get("copies", 1)) + 1))


def card_id(instance: str) -> str:
    return instance.partition("#")[0]


#: full decks in file order (before setup removes starting cards): 55 / 59 / 42 cards
EXPEDITION_CARDS: tuple[str, ...] = instances(CONTENT["expedition_cards"])
EVENT_CARDS: tuple[str, ...] = instances(CONTENT["event_cards"])
DANGER_CARDS: tuple[str, ...] = instances(CONTENT["danger_cards"])


def shuffled(name: str, cards: tuple[str, ...], rng: Random) -> Deck:
    pile = list(cards)
    rng.shuffle(pile)
    return Deck(name, tuple(pile), ())


def draw(deck: Deck, rng: Random) -> tuple[Deck, str | None, bool]:
    """Take the top card: ``(deck, card or None, reshuffled)``. An empty draw pile is refilled from
    the shuffled discard pile first; with both empty nothing is drawn (spec §5.19 step 2)."""
    reshuffled = False
    if not deck.draw:
        if not deck.discard:
            return deck, None, False
        pile = list(deck.discard)
        rng.shuffle(pile)
        deck = replace(deck, draw=tuple(pile), discard=())
        reshuffled = True
    return replace(deck, draw=deck.draw[1:]), deck.draw[0], reshuffled


def discard(deck: Deck, card: str) -> Deck:
    return replace(deck, discard=(*deck.discard, card))
