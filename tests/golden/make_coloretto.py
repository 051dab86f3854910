"""Generate the Coloretto Amazonas golden transcripts: ``python -m tests.golden.make_coloretto``.

A fixed seed drives a real core over in-memory SQLite. People choose their moves with the engine's
smart AI (on their own view only) and say them as text that the parser understands, in varying
words; a button is pressed only when no phrasing parses to the chosen move. The script writes the
input lines (``*.in.jsonl``, the first line also carries the seed) and the bot's answers
(``*.out.jsonl``); ``test_coloretto_golden.py`` (and the generic ``test_golden.py``) replay the input.

:func:`phrase` is also used by the chat tests to play whole games by text.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Any

from chatbot.core.parsing import ParseContext, Parsed
from chatbot.games.coloretto_amazonas import UI
from chatbot.games.coloretto_amazonas.parser import EN_ANIMALS, FI_ANIMALS
from engines.coloretto_amazonas import ENGINE
from tests.golden.transcript import Transcript

ORDINALS = {"fi": ("ensimmäinen", "toinen", "kolmas"), "en": ("first", "second", "third")}

# (seed, language, people, AI players, file stem)
CASES = (
    ("golden-fi-2", "fi", ("matti", "liisa"), 0, "coloretto_2p_fi"),
    ("golden-en-4", "en", ("alice", "bob"), 2, "coloretto_4p_en"),
)


def allative(name: str) -> str:
    """Finnish allative of the test players' names (Matti -> Matille, Liisa -> Liisalle)."""
    low = name
    if len(low) > 3 and low[-1] in "aeiouyäö" and low[-3:-1] in ("tt", "kk", "pp"):
        low = low[:-2] + low[-1]  # consonant gradation of a double stop
    elif low[-1] not in "aeiouyäö":
        low += "i"
    return low + "lle"


def phrase(notation: str, view: Any, names: Sequence[str], lang: str, rng: random.Random) -> list[str]:
    """Ways a player might say ``notation``, in a random order (spec §8.6 and §8.7)."""
    parts = notation.split()
    hand = [c[:2] for c in getattr(view, "hand", ())]
    out: list[str]
    if lang == "fi":
        match parts:
            case ["play", kind]:
                nom, gen, _ = FI_ANIMALS[kind][0]
                out = [f"pelaan {gen}", f"pelaa {nom}", f"laita {nom} riviin", f"laitan {gen} riviin"]
                if kind in hand:
                    out.append(f"pelaa {ORDINALS['fi'][hand.index(kind)]} kortti")
            case ["give", kind, seat]:
                nom, gen, _ = FI_ANIMALS[kind][0]
                to = allative(names[int(seat[4:])])
                out = [f"anna {nom} {to}", f"annan {to} {gen}", f"{to} {nom}", f"heitä {nom} {to}"]
            case ["accept"]:
                out = ["otan vastaan", "hyväksyn", "joo, otan sen", "pidän sen"]
            case ["refuse", kind]:
                nom, gen, _ = FI_ANIMALS[kind][0]
                out = [f"hylkään ja poistan {gen}", f"en ota, heitä {nom} pois", f"kieltäydyn, poista {nom}"]
            case _:
                out = []
    else:
        match parts:
            case ["play", kind]:
                name = EN_ANIMALS[kind][0]
                out = [f"play the {name}", f"put the {name} in my row", f"play {name}"]
                if kind in hand:
                    out.append(f"play the {ORDINALS['en'][hand.index(kind)]} card")
            case ["give", kind, seat]:
                name, to = EN_ANIMALS[kind][0], names[int(seat[4:])]
                out = [f"give the {name} to {to}", f"give {to} the {name}", f"pass the {name} to {to}"]
            case ["accept"]:
                out = ["accept", "take it", "yes, I'll keep it"]
            case ["refuse", kind]:
                name = EN_ANIMALS[kind][0]
                out = [
                    f"refuse and remove the {name}",
                    f"decline, drop the {name}",
                    f"no, discard the {name}",
                ]
            case _:
                out = []
    rng.shuffle(out)
    return out


def understood_as(
    text: str, legal: Sequence[Any], view: Any, seat: int, names: Sequence[str], lang: str
) -> str | None:
    """The notation of the one move ``text`` is read as, or None."""
    result = UI.parse(text, ParseContext(lang, seat, tuple(legal), view, tuple(names)))
    return (
        ENGINE.notation(result.actions[0])
        if isinstance(result, Parsed) and len(result.actions) == 1
        else None
    )


class Driver(Transcript):
    """A transcript that answers "who acts now and what may they do"."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed, first={"seed": seed})  # replays read the seed from the first line

    def turn(self):
        """(match, state, seat, user ext id) of the person to act, or None when the game is over."""
        repo = self.core.repo
        matches = [m for m in repo.running_matches()]
        if not matches:
            return None
        match = matches[0]
        state = ENGINE.load(match.state)
        for seat in ENGINE.to_act(state):
            rec = match.seats[seat]
            if rec.user_id is not None:
                return match, state, seat, repo.user_by_id(rec.user_id).ext_id
        return None


def generate(seed: str, lang: str, people: Sequence[str], bots: int, limit: int = 2000) -> Driver:
    rng = random.Random(seed)
    d = Driver(seed)
    hint = {"lang": lang} if lang == "en" else {}
    host = people[0]
    if lang == "en":
        d.send({"user": host, "chat": "group", "text": "language en", **hint})
    d.send(
        {"user": host, "chat": "group", "text": "new coloretto" if lang == "en" else "uusi coloretto", **hint}
    )
    for person in people[1:]:
        d.send({"user": person, "chat": "group", "text": "join" if lang == "en" else "liity", **hint})
    for _ in range(bots):
        d.send({"user": host, "chat": "group", "text": "add bot" if lang == "en" else "lisää botti", **hint})
    d.send({"user": host, "chat": "group", "text": "start" if lang == "en" else "aloita", **hint})
    asked_rules = False
    for step in range(limit):
        now = d.turn()
        if now is None:
            return d
        match, state, seat, user = now
        if not asked_rules and step == 3:
            # someone asks about a rule in the middle of the game
            question = (
                "how does the protection card work?" if lang == "en" else "miten kieltäytyminen toimii?"
            )
            d.send({"user": people[-1], "chat": "group", "text": question, **hint})
            asked_rules = True
        view = ENGINE.view(state, seat)
        legal = ENGINE.legal_actions(state, seat)
        action = ENGINE.ai_action("smart", view, legal, rng)
        wanted = ENGINE.notation(action)
        names = [s.name for s in match.seats]
        # Gift answers are public anyway: said in the group; other moves in either chat.
        chat = "group" if wanted.split()[0] in ("accept", "refuse") or rng.random() < 0.6 else "private"
        for text in phrase(wanted, view, names, lang, rng):
            if understood_as(text, legal, view, seat, names, lang) == wanted:
                d.send({"user": user, "chat": chat, "text": text, **hint})
                break
        else:
            d.send(
                {"user": user, "chat": "private", "button": f"{match.id}:{match.version}:{wanted}", **hint}
            )
    raise RuntimeError("the game did not end")


def main(argv: Sequence[str]) -> int:
    for seed, lang, people, bots, stem in CASES:
        d = generate(seed, lang, people, bots)
        d.write(stem, answers=True)
        buttons = sum(1 for line in d.lines if "button" in line)
        print(f"{stem}: {len(d.lines)} input lines ({buttons} button presses), {len(d.out)} output lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
