"""Generate the three-player Retkikunnat golden transcript:
``python -m tests.golden.make_afrikan_tahti_exp3``.

Three people play a quick game of Afrikan Tähti with the expansion in Finnish, set up with the
option typed as a word ("uusi afrikan tähti pikapeli"). Each person's move is the smart AI's
choice for that seat, typed in Finnish where the parser takes the words (see
:mod:`tests.golden.make_afrikan_tahti_exp`), pressed otherwise; hand cards and window answers go
to the private chat. On the way someone asks for the detail ("tilanne") and why a move is not
possible ("miksi en voi kääntää kiekkoa?"), and one player tells the bot not to ask her in reaction
windows. Then ``UPDATE_GOLDEN=1 pytest tests/golden -k afrikan_tahti_exp_3p`` writes ``*.out.jsonl``.
"""

from __future__ import annotations

import json
import random

from chatbot.compose import new_core
from chatbot.core.service import BotCore
from chatbot.storage import SqlRepository
from chatbot.transports.script import run_lines
from tests.golden.make_afrikan_tahti import HERE
from tests.golden.make_afrikan_tahti_exp import x_phrase

NAME = "afrikan_tahti_exp_3p_fi"
SEED = "golden-retki-3"
PEOPLE = (("matti", "Matti"), ("liisa", "Liisa"), ("pekka", "Pekka"))


def drive(seed: str = SEED) -> tuple[list[dict], BotCore, int]:
    rng = random.Random(seed)
    core = new_core(SqlRepository("sqlite://"), seed=seed)
    engine = core.games["afrikan_tahti"]
    lines: list[dict] = []
    pressed = 0

    def send(line: dict) -> None:
        lines.append(line)
        list(run_lines(core, [json.dumps(line)]))

    host = PEOPLE[0][0]
    send({"user": host, "chat": "group", "text": "uusi afrikan tähti pikapeli", "lang": "fi", "seed": seed})
    for user, _name in PEOPLE[1:]:
        send({"user": user, "chat": "group", "text": "liity", "lang": "fi"})
    send({"user": host, "chat": "group", "text": "aloita", "lang": "fi"})
    send({"user": "liisa", "chat": "private", "text": "älä kysy minulta", "lang": "fi"})
    asked_detail = asked_why = False
    for step in range(3000):
        running = core.repo.running_matches()
        if not running:
            break
        m = running[0]
        state = engine.load(m.state)
        seat = engine.to_act(state)[0]
        user = core.repo.user_by_id(m.seats[seat].user_id).ext_id
        view = engine.view(state, seat)
        if not asked_detail and step > 40:
            asked_detail = True
            send({"user": user, "chat": "group", "text": "tilanne", "lang": "fi"})
        now = {engine.notation(a) for a in engine.legal_actions(state, seat)}
        if (
            not asked_why
            and view.phase == "phase3"
            and view.x.prompt is None
            and not now & {"flip", "flip_roll"}
        ):
            asked_why = True
            send({"user": user, "chat": "private", "text": "miksi en voi kääntää kiekkoa?", "lang": "fi"})
        legal = engine.legal_actions(state, seat)
        choice = engine.notation(engine.ai_action("smart", view, legal, engine.ai_rng(state, seat)))
        text = x_phrase(choice, view, rng, tuple(s.name for s in m.seats))
        before = m.version
        if text is not None:
            secret = choice.startswith(("play ", "discard ")) or view.x.prompt is not None
            chat = "private" if secret or rng.random() < 0.3 else "group"
            send({"user": user, "chat": chat, "text": text, "lang": "fi"})
            after = core.repo.match(m.id)
            taken = next(
                (r.notation for r in core.repo.actions(m.id, since_ply=state.ply) if r.seat == seat), None
            )
            if after.version != before and taken != choice:
                raise RuntimeError(f"{text!r} was taken as {taken!r}, wanted {choice!r}")
            if after.version != before:
                continue
            lines.pop()
        pressed += 1
        send({"user": user, "chat": "private", "button": f"{m.id}:{before}:{choice}", "lang": "fi"})
    return lines, core, pressed


if __name__ == "__main__":
    lines, core, pressed = drive()
    (HERE / f"{NAME}.in.jsonl").write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8"
    )
    print("wrote", NAME, len(lines), "lines;", pressed, "buttons")
