"""Retkikunnat content as read-only tables (``data/content.json``): cards by id, the full decks,
characters, abilities, the token mixes of the two layers and the danger dice. Card *instances* are
``<id>#<n>`` (the copies of a card numbered from 1); every id is unique across the three decks, so an
id alone says which deck a card belongs to.
"""

from __future__ import annotations

from typing import Any

from engines.afrikan_tahti.board import CONTENT


def instances(cards: list[dict[str, Any]]) -> tuple[str, ...]:
    """Card instance ids ``<id>#<n>`` with the copies of ``content.json`` expanded, in file order."""
    return tuple(f"{c['id']}#{n}" for c in cards for n in range(1, int(c.get("copies", 1)) + 1))


def card_id(instance: str) -> str:
    return instance.partition("#")[0]


#: full decks in file order (before setup removes starting cards): 55 / 59 / 42 cards
EXPEDITION_CARDS: tuple[str, ...] = instances(CONTENT["expedition_cards"])
EVENT_CARDS: tuple[str, ...] = instances(CONTENT["event_cards"])
DANGER_CARDS: tuple[str, ...] = instances(CONTENT["danger_cards"])

EXP: dict[str, dict[str, Any]] = {c["id"]: c for c in CONTENT["expedition_cards"]}
EVT: dict[str, dict[str, Any]] = {c["id"]: c for c in CONTENT["event_cards"]}
DNG: dict[str, dict[str, Any]] = {c["id"]: c for c in CONTENT["danger_cards"]}
CHARS: dict[str, dict[str, Any]] = {c["id"]: c for c in CONTENT["characters"]}
CHARACTERS: tuple[str, ...] = tuple(CHARS)
HAND_CARDS: frozenset[str] = frozenset(i for i, c in EVT.items() if c["kind"] == "hand")
TYPES: dict[str, dict[str, Any]] = {t["id"]: t for t in CONTENT["card_types"]}

ATTRS: tuple[str, ...] = tuple(a["id"] for a in CONTENT["attributes"])  # action, resources, travel
FACES: tuple[str, ...] = tuple(f["id"] for f in CONTENT["danger_dice"]["faces"])  # ... skull, blank
DUEL_FACES: tuple[str, ...] = tuple(f for f in FACES if f != "blank")  # tie-break order (§5.12 †)
DICE = int(CONTENT["danger_dice"]["count"])

EQUIPMENT_MIX: dict[str, int] = dict(CONTENT["tokens"]["equipment_layer"])
DISCOVERY_MIX: dict[str, int] = dict(CONTENT["tokens"]["discovery_layer"])
EQUIPMENT_TOKENS: tuple[str, ...] = tuple(k for k, n in EQUIPMENT_MIX.items() for _ in range(n))
DISCOVERY_TOKENS: tuple[str, ...] = tuple(k for k, n in DISCOVERY_MIX.items() for _ in range(n))
assert len(EQUIPMENT_TOKENS) == len(DISCOVERY_TOKENS) == 30

#: response timings of hand cards -> the cards that answer them
RESPONSES: dict[str, frozenset[str]] = {
    timing: frozenset(i for i, c in EVT.items() if timing in c.get("timing", ()))
    for timing in ("response:card_use", "response:hand_card", "response:duel_defender_lost")
}
WINDOW_TIMING = {
    "sabotage": "response:card_use",
    "gotcha": "response:hand_card",
    "rescue": "response:duel_defender_lost",
}
#: the cards a window of each kind accepts
WINDOW_CARDS: dict[str, frozenset[str]] = {w: RESPONSES[t] for w, t in WINDOW_TIMING.items()}


def effects(card: str, use: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """``(use kind, effect)`` pairs of an expedition card, optionally of one use kind."""
    out: list[tuple[str, dict[str, Any]]] = []
    for ab in EXP[card]["abilities"]:
        if use is None or ab["use"] == use:
            out.extend((ab["use"], e) for e in ab["effects"])
    return out


def effect(card: str, name: str) -> dict[str, Any] | None:
    for _use, e in effects(card):
        if e["effect"] == name:
            return e
    return None


def use_kind(card: str, name: str) -> str | None:
    for use, e in effects(card):
        if e["effect"] == name:
            return use
    return None


def cards_with(name: str) -> frozenset[str]:
    return frozenset(c for c in EXP if effect(c, name) is not None)


#: card -> (dice, scope) of its reroll ability
REROLLS: dict[str, tuple[int, str]] = {
    c: (int(e["dice"]), str(e["scope"])) for c in EXP if (e := effect(c, "reroll_danger_dice")) is not None
}
#: card -> (steps, terrain) of its extra-step ability
EXTRA_STEPS: dict[str, tuple[int, str]] = {
    c: (int(e["steps"]), str(e["terrain"])) for c in EXP if (e := effect(c, "extra_steps")) is not None
}
CARD_LIMIT = cards_with("card_limit")
RAIN_IMMUNE = cards_with("rain_immunity")
#: the "active" or "discard" use a ``use <card>`` command names, by card
ACTIVE: dict[str, str] = {
    c: e["effect"] for c in EXP for use, e in effects(c) if use in ("active", "discard")
}
DISCARD_USES = frozenset(c for c in EXP if any(ab["use"] == "discard" for ab in EXP[c]["abilities"]))
#: cards whose ``use`` command is given in Phase 2 of the owner's turn
PHASE2_USES = frozenset(
    c
    for c, e in ACTIVE.items()
    if e in ("extra_steps", "peek_token", "draw_expedition", "low_roll_bonus", "cancel_lost_turn")
)


def card_type(card: str) -> str:
    return str(EXP[card]["type"])


def sellable(card: str) -> bool:
    return bool(TYPES[card_type(card)]["sellable"])


def stealable(card: str) -> bool:
    return bool(TYPES[card_type(card)]["stealable"])


def tradeable(card: str) -> bool:
    return bool(TYPES[card_type(card)]["tradeable"])


def sale_value(card: str) -> int:
    """What the bank pays when the card is sold or discarded to the limit (§5.9): equipment and
    vehicles their ``sale_value``; allies and skills 0, except Hunter's discard income."""
    if sellable(card):
        return int(EXP[card]["sale_value"])
    income = effect(card, "discard_income")
    return int(income["amount"]) if income else 0


def printed_symbols(card: str) -> int:
    """Symbols printed on the card: an either-or card shows two (§5.12 step 6)."""
    c = EXP[card]
    return 2 if c["either_or"] else sum(int(v) for v in c["symbols"].values())


def progress(cards: tuple[str, ...], threshold: int) -> tuple[int, ...]:
    """Symbols of each attribute (in :data:`ATTRS` order) towards ``threshold``, capped at it: the
    printed symbols, then each either-or symbol where it is short most (every attribute at the
    threshold exactly when :func:`complete`)."""
    if complete(cards, threshold):
        return tuple(threshold for _ in ATTRS)
    have = dict.fromkeys(ATTRS, 0)
    pairs: list[tuple[str, str]] = []
    for inst in cards:
        c = EXP[card_id(inst)]
        for attr, n in c["symbols"].items():
            have[attr] += int(n)
        if c["either_or"]:
            a, b = c["either_or"]
            pairs.append((a, b))
    for a, b in pairs:
        pick = a if have[a] <= have[b] else b
        have[pick] += 1
    return tuple(min(have[a], threshold) for a in ATTRS)


def complete(cards: tuple[str, ...], threshold: int) -> bool:
    """Whether some choice of the either-or symbols gives ``threshold`` of every attribute (§5.3)."""
    need = dict.fromkeys(ATTRS, threshold)
    pairs: list[tuple[str, str]] = []
    for inst in cards:
        c = EXP[card_id(inst)]
        for attr, n in c["symbols"].items():
            need[attr] -= int(n)
        if c["either_or"]:
            a, b = c["either_or"]
            pairs.append((a, b))
    short = {a: n for a, n in need.items() if n > 0}
    if sum(short.values()) > len(pairs):
        return False

    def cover(i: int, left: dict[str, int]) -> bool:
        if not any(n > 0 for n in left.values()):
            return True
        if i == len(pairs):
            return False
        for attr in pairs[i]:
            if left.get(attr, 0) > 0:
                left[attr] -= 1
                if cover(i + 1, left):
                    return True
                left[attr] += 1
        return cover(i + 1, left)

    return cover(0, short)


def starting_cards(character: str) -> tuple[str, ...]:
    return tuple(CHARS[character]["starting_cards"])


def char_effect(character: str | None, name: str) -> dict[str, Any] | None:
    if character is None:
        return None
    for e in CHARS[character]["abilities"]:
        if e["effect"] == name:
            return dict(e)
    return None
