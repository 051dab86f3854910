"""Generate the Majavajengi golden transcripts: ``python -m tests.golden.make_majavajengi``.

A fixed seed drives a table through the real core; people choose a legal action with a seeded
generator and *type* it as a player would (Finnish or English), so the transcript also pins the
parser. The input lines are written to ``*.in.jsonl``; ``test_golden.py`` replays them through the
script transport and compares the output with ``*.out.jsonl``.
"""

from __future__ import annotations

import random

from engines import GAMES
from tests.golden.transcript import Transcript

FI = {
    "draw": ["nostan", "nosta", "otan pakasta"],
    "take": ["otan poistopakasta paikkaan {0}", "vaihda {0}", "ota poistosta {0}"],
    "replace": ["laitan sen paikkaan {0}", "vaihda {0}", "korvaa {0}"],
    "discard": ["hylkään", "heitä pois"],
    "peek": ["kurkistan korttiin {0}", "katso {0}"],
    "swap": ["vaihdan {0} pelaajan {name} {2} kanssa"],
    "draw2": ["käytän nosta kakkosen"],
    "next": ["nostan vielä"],
    "stop": ["lopeta"],
    "knock": ["koputan"],
    "end": ["en koputa", "valmis"],
}
EN = {
    "draw": ["draw", "draw a card"],
    "take": ["take the discard into slot {0}", "take {0}"],
    "replace": ["replace my card {0}", "put it in position {0}"],
    "discard": ["discard", "throw it away"],
    "peek": ["peek at card {0}"],
    "swap": ["swap my {0} with {name}'s {2}"],
    "draw2": ["use draw two"],
    "next": ["draw another"],
    "stop": ["stop"],
    "knock": ["knock"],
    "end": ["done"],
}


def phrase(notation: str, names: list[str], vocab: dict, rng: random.Random) -> str:
    verb, *args = notation.split()
    template = rng.choice(vocab[verb])
    name = names[int(args[1].removeprefix("seat"))] if verb == "swap" else ""
    return template.format(*args, name=name)


def drive(seed: str, people: list[tuple[str, str]], bots: int, lang: str, options: str) -> Transcript:
    """Play one game. ``people`` are (user id, language) pairs."""
    rng = random.Random(seed)
    tr = Transcript(seed)
    send = tr.send

    host = people[0][0]
    hint = {user: user_lang for user, user_lang in people}
    send(
        {
            "user": host,
            "chat": "group",
            "text": f"{'new' if lang == 'en' else 'uusi'} majavajengi {options}".strip(),
            "lang": hint[host],
        }
    )
    for user, user_lang in people[1:]:
        send(
            {
                "user": user,
                "chat": "group",
                "text": "join" if user_lang == "en" else "liity",
                "lang": user_lang,
            }
        )
    for _ in range(bots):
        send(
            {
                "user": host,
                "chat": "group",
                "text": "add bot" if lang == "en" else "lisää botti",
                "lang": hint[host],
            }
        )
    send({"user": host, "chat": "group", "text": "start" if lang == "en" else "aloita", "lang": hint[host]})
    engine = GAMES["majavajengi"]
    for m, state in tr.turns(3000):
        seat = engine.to_act(state)[0]
        user = tr.user(m, seat)
        legal = [engine.notation(a) for a in engine.legal_actions(state, seat)]
        choice = rng.choice(legal)
        if choice == "knock" and rng.random() < 0.85:
            choice = "end"  # knock later, so that the transcript shows a longer round
        if choice.startswith("take") and "draw" in legal and rng.random() < 0.6:
            choice = "draw"
        names = [s.name for s in m.seats]
        text = phrase(choice, names, EN if hint[user] == "en" else FI, rng)
        chat = (
            "group"
            if choice.split()[0] in {"draw", "take", "knock", "end"} and rng.random() < 0.5
            else "private"
        )
        before = m.version
        send({"user": user, "chat": chat, "text": text, "lang": hint[user]})
        after = tr.core.repo.match(m.id)
        if after.version == before:  # the words were not understood: press the button instead
            tr.take_back()
            send({"user": user, "chat": "private", "button": f"{m.id}:{before}:{choice}", "lang": hint[user]})
    return tr


GAMES_TO_MAKE = {
    "majavajengi_2p_fi": dict(
        seed="golden-fi", people=[("matti", "fi"), ("liisa", "fi")], bots=0, lang="fi", options="kierrokset=2"
    ),
    "majavajengi_4p_en": dict(
        seed="golden-en", people=[("alice", "en"), ("bob", "en")], bots=2, lang="en", options="rounds=1"
    ),
}


if __name__ == "__main__":
    for name, spec in GAMES_TO_MAKE.items():
        drive(**spec).write(name)
        print("wrote", name)
