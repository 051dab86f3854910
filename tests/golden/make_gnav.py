"""Generate the Gnav golden transcripts: ``python -m tests.golden.make_gnav``.

One person and three AI players (the spec's default table: "uusi gnav" and "aloita" fill the empty seats)
play a whole match with two lives each. The person chooses keep or swap with a seeded generator and
*types* it as a player would, in the group or in private, so the transcript also pins the parser; only
when the words are not understood is the button pressed instead. The input lines are written to
``*.in.jsonl`` (the first carries the seed); ``test_golden.py`` replays them through the script transport
and compares the output with ``*.out.jsonl``.
"""

from __future__ import annotations

import random

from engines import GAMES
from tests.golden.transcript import Transcript

PHRASES = {
    "fi": {
        "keep": ["pidän", "pidän korttini", "jään tähän", "en vaihda", "seison"],
        "ask": ["vaihdan", "pyydän vaihtoa", "vaihdetaan", "vaihda"],
        "ask_dealer": ["otan pakasta", "nostan pakasta", "vaihdan"],
        "knock": ["koputan"],
    },
    "en": {
        "keep": ["keep", "I'll keep my card", "stay", "don't swap", "I stand"],
        "ask": ["swap", "trade please", "exchange", "swap please"],
        "ask_dealer": ["take from the stock", "draw", "swap"],
        "knock": ["knock"],
    },
}


def phrase(notation: str, dealer: bool, lang: str, rng: random.Random) -> str:
    key = "ask_dealer" if notation == "ask" and dealer else notation
    return rng.choice(PHRASES[lang][key])


def drive(seed: str, lang: str, options: str) -> Transcript:
    """Play one match."""
    rng = random.Random(seed)
    tr = Transcript(seed)
    send = tr.send
    user = "matti" if lang == "fi" else "alice"
    new = "uusi gnav" if lang == "fi" else "new gnav"
    send({"user": user, "chat": "group", "text": f"{new} {options}", "lang": lang, "seed": seed})
    send({"user": user, "chat": "group", "text": "aloita" if lang == "fi" else "start", "lang": lang})
    send(
        {
            "user": user,
            "chat": "group",
            "text": "mitä kissa tekee?" if lang == "fi" else "what does the cat do?",
            "lang": lang,
        }
    )
    engine = GAMES["gnav"]
    for match, state in tr.turns(500):
        seat = engine.to_act(state)[0]
        legal = [engine.notation(a) for a in engine.legal_actions(state, seat)]
        # mostly what a sensible player would do (so the person stays in the match for a while), sometimes not
        if len(legal) == 1 or rng.random() < 0.8:
            choice = engine.notation(
                engine.ai_action("sensible", engine.view(state, seat), engine.legal_actions(state, seat), rng)
            )
        else:
            choice = rng.choice(legal)
        dealer = state.order[state.turn] == state.order[-1] if state.phase == "turn" else False
        text = phrase(choice, dealer, lang, rng)
        chat = "group" if rng.random() < 0.5 and choice != "knock" else "private"
        send({"user": user, "chat": chat, "text": text, "lang": lang})
        after = tr.core.repo.match(match.id)
        if after.version == match.version:  # the words were not understood: press the button instead
            tr.take_back()
            send(
                {
                    "user": user,
                    "chat": "private",
                    "button": f"{match.id}:{match.version}:{choice}",
                    "lang": lang,
                }
            )
    return tr


GAMES_TO_MAKE = {
    "gnav_fi": dict(seed="golden-gnav-fi-13", lang="fi", options="elämät=2"),
    "gnav_en": dict(seed="golden-gnav-en-9", lang="en", options="lives=2"),
}


if __name__ == "__main__":
    for name, spec in GAMES_TO_MAKE.items():
        drive(**spec).write(name)
        print("wrote", name)
