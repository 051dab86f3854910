"""Generate the golden transcripts of statistics, history and replay: ``python -m tests.golden.make_records``.

Two people play a one-round Majavajengi and a one-life Gnav with two AI players (their moves are the
engine's AI choices, pressed as buttons in private), then ask for the history, the group's and their own
statistics, and step through a replay of the first match with its buttons and with typed words; a replay
of a match that does not exist and of one still running is refused. The first input line carries the
seed and a fixed clock (the history shows dates); ``test_golden.py`` replays the lines through the script
transport and compares the output with ``*.out.jsonl``.
"""

from __future__ import annotations

import random

from engines import GAMES
from tests.golden.transcript import Transcript

#: 2 December 2026, 19:00 UTC
CLOCK = 1796238000.0

WORDS = {
    "fi": {
        "new": "uusi",
        "join": "liity",
        "bot": "lisää botti",
        "start": "aloita",
        "history": "historia",
        "stats": "tilastot",
        "my": "omat tilastot",
        "replay": "näytä peli",
        "next": "seuraava",
        "previous": "edellinen",
        "cancel": "peru",
    },
    "en": {
        "new": "new",
        "join": "join",
        "bot": "add bot",
        "start": "start",
        "history": "history",
        "stats": "stats",
        "my": "my stats",
        "replay": "replay",
        "next": "next",
        "previous": "previous",
        "cancel": "cancel",
    },
}


def drive(seed: str, lang: str, people: tuple[str, str]) -> Transcript:
    rng = random.Random(seed)
    tr = Transcript(seed, first={"seed": seed, "clock": CLOCK}, clock=lambda: CLOCK)
    words = WORDS[lang]
    host, guest = people

    def send(line: dict) -> list[dict]:
        return tr.send({**line, "lang": lang})

    def say(user: str, text: str, chat: str = "group") -> list[dict]:
        return send({"user": user, "chat": chat, "text": text})

    def play_out() -> None:
        for match, state in tr.turns(2000):
            engine = GAMES[match.game]
            seat = engine.to_act(state)[0]
            user = tr.user(match, seat)
            legal = engine.legal_actions(state, seat)
            action = engine.ai_action(engine.default_ai, engine.view(state, seat), legal, rng)
            data = f"{match.id}:{match.version}:{engine.notation(action)}"
            send({"user": user, "chat": "private", "button": data})

    say(host, f"{words['new']} majavajengi {'kierrokset' if lang == 'fi' else 'rounds'}=1")
    say(guest, words["join"])
    say(host, words["start"])
    play_out()
    say(guest, f"{words['new']} gnav {'elämät' if lang == 'fi' else 'lives'}=1")
    say(host, words["join"])
    say(guest, words["bot"])
    say(guest, words["bot"])
    say(guest, words["start"])
    play_out()
    say(host, words["history"])
    say(guest, words["stats"])
    say(host, words["my"])
    shown = say(guest, f"{words['replay']} 1")
    replay = next(x for x in shown if x.get("edit", "").startswith("replay:"))
    labels = {label: data for label, data in replay["buttons"]}
    next_label = "Seuraava ▶" if lang == "fi" else "Next ▶"
    end_label = "Loppuun ⏭" if lang == "fi" else "To the end ⏭"
    send({"user": host, "chat": "group", "button": labels[next_label]})
    say(guest, words["next"])
    send({"user": guest, "chat": "group", "button": labels[end_label]})
    say(host, words["previous"])
    say(host, f"{words['replay']} 3")
    say(host, f"{words['new']} majavajengi")
    say(guest, words["join"])
    say(host, words["start"])
    say(guest, f"{words['replay']} 3")
    say(host, words["cancel"])
    return tr


CASES = {
    "records_fi": dict(seed="golden-records-fi", lang="fi", people=("matti", "liisa")),
    "records_en": dict(seed="golden-records-en", lang="en", people=("alice", "bob")),
}


if __name__ == "__main__":
    for name, spec in CASES.items():
        drive(**spec).write(name)
        print("wrote", name)
