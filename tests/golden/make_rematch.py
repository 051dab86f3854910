"""Generate the rematch golden transcripts: ``python -m tests.golden.make_rematch``.

Finnish: two people set up Gnav (one life each), are asked whether to fill the table of four, fill it
with the button, and play; each round's settlement is a message of its own. At the end Matti presses
"Uusi peli samoilla pelaajilla", Pekka (who did not play) presses it too and is refused, and Liisa
says yes with "liity": the same four seats start again. English: two people play Coloretto; Bob types
"rematch", a press in Alice's private chat does nothing, Alice presses the final message's button,
and the game starts at once because both people said yes.

People choose their moves with the game's default AI on their own view and press the private
buttons. The input lines go to ``*.in.jsonl`` (the first carries the seed); ``test_golden.py``
replays them through the script transport and compares the output with ``*.out.jsonl``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from chatbot.compose import new_core
from chatbot.storage import SqlRepository
from chatbot.transports.script import run_lines
from engines import GAMES

HERE = Path(__file__).resolve().parent


class Driver:
    def __init__(self, seed: str, lang: str) -> None:
        self.core = new_core(SqlRepository("sqlite://"), seed=seed)
        self.lang = lang
        self.seed = seed
        self.lines: list[dict[str, Any]] = []
        self.out: list[dict[str, Any]] = []
        self.rng = random.Random(seed)

    def send(self, **line: Any) -> list[dict[str, Any]]:
        line.setdefault("lang", self.lang)
        if not self.lines:
            line["seed"] = self.seed
        self.lines.append(line)
        got = [x for x in run_lines(self.core, [json.dumps(line)])]
        self.out.extend(got)
        return got

    def button(self, label_part: str) -> str:
        """The data of the newest group button whose label has ``label_part``."""
        for item in reversed(self.out):
            for label, data in item.get("buttons", []):
                if item["chat"] == "group" and label_part in label:
                    return data
        raise AssertionError(f"no button {label_part!r}")

    def play_to_the_end(self, users: dict[int, str]) -> None:
        """The people press their private buttons (moves a default AI picks on their view)."""
        for _ in range(3000):
            running = self.core.repo.running_matches()
            if not running:
                return
            match = running[0]
            engine = GAMES[match.game]
            state = engine.load(match.state)
            seat = next(s for s in engine.to_act(state) if match.seats[s].user_id is not None)
            legal = engine.legal_actions(state, seat)
            action = engine.ai_action(engine.default_ai, engine.view(state, seat), legal, self.rng)
            user = users[match.seats[seat].user_id]
            self.send(
                user=user, chat="private", button=f"{match.id}:{match.version}:{engine.notation(action)}"
            )
        raise AssertionError("the match did not end")

    def user_ids(self) -> dict[int, str]:
        match = self.core.repo.running_matches()[0]
        return {
            s.user_id: self.core.repo.user_by_id(s.user_id).ext_id
            for s in match.seats
            if s.user_id is not None
        }


def finnish() -> list[dict[str, Any]]:
    d = Driver("golden-rematch-fi-2", "fi")
    d.send(user="matti", chat="group", text="uusi gnav elämät=1")
    d.send(user="liisa", chat="group", text="liity")
    d.send(user="matti", chat="group", text="aloita")
    d.send(user="liisa", chat="group", button=d.button("Täytä"))
    d.play_to_the_end(d.user_ids())
    rematch = d.button("Uusi peli samoilla pelaajilla")
    d.send(user="matti", chat="group", button=rematch)
    d.send(user="pekka", chat="group", button=rematch)
    d.send(user="liisa", chat="group", text="liity")
    return d.lines


def english() -> list[dict[str, Any]]:
    d = Driver("golden-rematch-en-1", "en")
    d.send(user="alice", chat="group", text="new coloretto")
    d.send(user="bob", chat="group", text="join")
    d.send(user="alice", chat="group", text="start")
    d.play_to_the_end(d.user_ids())
    rematch = d.button("Rematch")
    d.send(user="bob", chat="group", text="rematch")
    d.send(user="alice", chat="private", button=rematch)
    d.send(user="alice", chat="group", button=rematch)
    return d.lines


def write(name: str, lines: list[dict[str, Any]]) -> None:
    (HERE / f"{name}.in.jsonl").write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8"
    )


if __name__ == "__main__":
    write("rematch_gnav_fi", finnish())
    write("rematch_coloretto_en", english())
    print("wrote rematch_gnav_fi, rematch_coloretto_en")
