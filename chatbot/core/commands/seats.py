"""Seat commands (issue #13): kick, to_ai, restore, hand_over and take_seat, with a player's name in
any case form.
"""

from __future__ import annotations

from chatbot.core.commands.command import Command
from chatbot.core.nlp import fold

_KICK_HEADS = {"kick", "potki", "potkaise", "erota"}
_RESTORE_HEADS = {"palauta", "restore"}
_SEAT_WORDS = {"paikka", "paikan", "paikkaa", "paikkansa", "seat"}
_BOT_WORDS = {"botille", "bot", "botti", "tekoalylle", "ai", "koneelle", "computer"}
_MY_SEAT = {"paikkani", "paikkaani", "paikkasi"}
_TAKE = {
    "otan paikan",
    "otan paikkasi",
    "otan sen",
    "otan paikan vastaan",
    "take seat",
    "take the seat",
    "i take the seat",
    "i take it",
    "accept seat",
    "accept the seat",
}


def _seat_command(words: list[str], folded: list[str], typed: list[str]) -> Command | None:
    n = len(folded)
    joined = " ".join(folded)
    if joined in _TAKE:
        # "otan sen", "I take it" also accept a gift or a card: the running game reads them first
        return Command("take_seat", weak=not any(w in {"paikan", "paikkasi", "seat"} for w in folded))
    if n >= 2 and folded[0] in _KICK_HEADS:
        rest = [w for w in words[1:] if fold(w) not in {"pelista", "from", "the", "game", "out"}]
        if rest and all(fold(w) in {"bot", "botti", "bots", "ai"} for w in rest):
            return None  # "kick bot": an AI seat, not a person's
        return Command("kick", tuple(rest), " ".join(rest)) if rest else None
    if n >= 3 and folded[0] in {"poista", "remove"} and folded[-1] in {"pelista", "game", "peleista"}:
        rest = [w for w in words[1:-1] if fold(w) not in {"from", "the"}]
        if rest and all(fold(w) in {"bot", "botti", "bots", "ai", "yksi", "yks", "one", "a"} for w in rest):
            return None  # "poista botti pelistä": an AI seat
        return Command("kick", tuple(rest), " ".join(rest)) if rest else None
    if n >= 2 and folded[0] in _RESTORE_HEADS:
        rest = [w for w in words[1:] if fold(w) not in {"peliin", "paikalleen", "back", "to", "the", "game"}]
        rest = [w for w in rest if fold(w) not in _SEAT_WORDS]
        return Command("restore", tuple(rest), " ".join(rest)) if rest else None
    if n >= 3 and folded[0] == "bring" and "back" in folded:
        rest = [w for w in words[1:] if fold(w) not in {"back", "to", "the", "game"}]
        return Command("restore", tuple(rest), " ".join(rest)) if rest else None
    if n >= 3 and folded[0] in {"anna", "give", "hand", "luovuta"}:
        if folded[1] in _MY_SEAT or (n >= 3 and folded[1] == "my" and folded[2] == "seat"):
            skip = 2 if folded[1] in _MY_SEAT else 3
            rest = [w for w in words[skip:] if fold(w) not in {"to", "over", "the", "a", "an"}]
            if rest and all(fold(w) in _BOT_WORDS for w in rest):
                return Command("leave")  # "anna paikkani botille": an AI takes the seat, as on leaving
            return Command("hand_over", tuple(rest), " ".join(rest))
        if folded[-1] in _BOT_WORDS and any(w in _SEAT_WORDS or w.endswith("seat") for w in folded):
            rest = [
                w
                for w in words[1:-1]
                if fold(w) not in _SEAT_WORDS and fold(w) not in {"to", "a", "an", "the"}
            ]
            return Command("to_ai", tuple(rest), " ".join(rest)) if rest else None
        if n >= 3 and folded[-1] == "back" and folded[-2] in _SEAT_WORDS:
            rest = [w for w in words[1:-2]]
            return Command("restore", tuple(rest), " ".join(rest)) if rest else None
    if n == 2 and folded[0] in {"anna", "give", "hand", "luovuta"} and folded[1] in _MY_SEAT:
        return Command("hand_over")
    if n == 3 and folded[:3] == ["give", "my", "seat"]:
        return Command("hand_over")
    return None
