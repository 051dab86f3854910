"""Generate the golden transcripts of statistics, history and replay: ``python -m tests.golden.make_records``.

Two people play a one-round Majavajengi and a one-life Gnav with two AI players (their moves are the
engine's AI choices, pressed as buttons in private), then ask for the history, the group's and their own
statistics, and step through a replay of the first match with its buttons and with typed words; a replay
of a match that does not exist and of one still running is refused. The first input line carries the
seed and a fixed clock (the history shows dates); ``test_golden.py`` replays the lines through the script
transport and compares the output with ``*.out.jsonl``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from chatbot.compose import new_core
from chatbot.storage import SqlRepository
from chatbot.transports.script import run_lines
from engines import GAMES

HERE = Path(__file__).resolve().parent
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


def drive(seed: str, lang: str, people: tuple[str, str]) -> list[dict]:
    rng = random.Random(seed)
    core = new_core(SqlRepository("sqlite://"), seed=seed, clock=lambda: CLOCK)
    words = WORDS[lang]
    lines: list[dict] = []
    host, guest = people
    outputs: list[dict] = []

    def send(line: dict) -> list[dict]:
        line = {**line, "lang": lang}
        if not lines:
            line.update(seed=seed, clock=CLOCK)
        lines.append(line)
        got = list(run_lines(core, [json.dumps(line)]))
        outputs.extend(got)
        return got

    def say(user: str, text: str, chat: str = "group") -> list[dict]:
        return send({"user": user, "chat": chat, "text": text})

    def play_out() -> None:
        for _ in range(2000):
            running = core.repo.running_matches()
            if not running:
                return
            match = running[0]
            engine = GAMES[match.game]
            state = engine.load(match.state)
            seat = engine.to_act(state)[0]
            user = core.repo.user_by_id(match.seats[seat].user_id).ext_id
            legal = engine.legal_actions(state, seat)
            action = engine.ai_action(engine.default_ai, engine.view(state, seat), legal, rng)
            data = f"{match.id}:{match.version}:{engine.notation(action)}"
            send({"user": user, "chat": "private", "button": data})
        raise AssertionError("the match did not end")

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
    return lines


CASES = {
    "records_fi": dict(seed="golden-records-fi", lang="fi", people=("matti", "liisa")),
    "records_en": dict(seed="golden-records-en", lang="en", people=("alice", "bob")),
}


def write(name: str, lines: list[dict]) -> None:
    (HERE / f"{name}.in.jsonl").write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8"
    )


if __name__ == "__main__":
    for name, spec in CASES.items():
        write(name, drive(**spec))
        print("wrote", name)
