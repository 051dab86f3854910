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

import random
from typing import Any

from engines import GAMES
from tests.golden.transcript import Transcript


class Driver(Transcript):
    """A transcript whose lines are given as keywords, in ``lang`` unless they say otherwise."""

    def __init__(self, seed: str, lang: str) -> None:
        super().__init__(seed, first={"seed": seed})
        self.lang = lang
        self.rng = random.Random(seed)

    def say(self, **line: Any) -> list[dict[str, Any]]:
        line.setdefault("lang", self.lang)
        return self.send(line)

    def button(self, label_part: str) -> str:
        """The data of the newest group button whose label has ``label_part``."""
        for item in reversed(self.out):
            for label, data in item.get("buttons", []):
                if item["chat"] == "group" and label_part in label:
                    return data
        raise AssertionError(f"no button {label_part!r}")

    def play_to_the_end(self, users: dict[int, str]) -> None:
        """The people press their private buttons (moves a default AI picks on their view)."""
        for match, state in self.turns(3000):
            engine = GAMES[match.game]
            seat = next(s for s in engine.to_act(state) if match.seats[s].user_id is not None)
            legal = engine.legal_actions(state, seat)
            action = engine.ai_action(engine.default_ai, engine.view(state, seat), legal, self.rng)
            user = users[match.seats[seat].user_id]
            self.say(
                user=user, chat="private", button=f"{match.id}:{match.version}:{engine.notation(action)}"
            )

    def user_ids(self) -> dict[int, str]:
        match = self.core.repo.running_matches()[0]
        return {
            s.user_id: self.core.repo.user_by_id(s.user_id).ext_id
            for s in match.seats
            if s.user_id is not None
        }


def finnish() -> Driver:
    d = Driver("golden-rematch-fi-2", "fi")
    d.say(user="matti", chat="group", text="uusi gnav elämät=1")
    d.say(user="liisa", chat="group", text="liity")
    d.say(user="matti", chat="group", text="aloita")
    d.say(user="liisa", chat="group", button=d.button("Täytä"))
    d.play_to_the_end(d.user_ids())
    rematch = d.button("Uusi peli samoilla pelaajilla")
    d.say(user="matti", chat="group", button=rematch)
    d.say(user="pekka", chat="group", button=rematch)
    d.say(user="liisa", chat="group", text="liity")
    return d


def english() -> Driver:
    d = Driver("golden-rematch-en-1", "en")
    d.say(user="alice", chat="group", text="new coloretto")
    d.say(user="bob", chat="group", text="join")
    d.say(user="alice", chat="group", text="start")
    d.play_to_the_end(d.user_ids())
    rematch = d.button("Rematch")
    d.say(user="bob", chat="group", text="rematch")
    d.say(user="alice", chat="private", button=rematch)
    d.say(user="alice", chat="group", button=rematch)
    return d


if __name__ == "__main__":
    finnish().write("rematch_gnav_fi")
    english().write("rematch_coloretto_en")
    print("wrote rematch_gnav_fi, rematch_coloretto_en")
