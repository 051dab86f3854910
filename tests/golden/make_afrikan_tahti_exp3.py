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

import random

from tests.golden.make_afrikan_tahti_exp import Game

NAME = "afrikan_tahti_exp_3p_fi"
SEED = "golden-retki-3"
PEOPLE = (("matti", "Matti"), ("liisa", "Liisa"), ("pekka", "Pekka"))


def drive(seed: str = SEED) -> Game:
    rng = random.Random(seed)
    tr = Game(seed)
    engine = tr.engine
    host = PEOPLE[0][0]
    tr.send(
        {"user": host, "chat": "group", "text": "uusi afrikan tähti pikapeli", "lang": "fi", "seed": seed}
    )
    for user, _name in PEOPLE[1:]:
        tr.send({"user": user, "chat": "group", "text": "liity", "lang": "fi"})
    tr.send({"user": host, "chat": "group", "text": "aloita", "lang": "fi"})
    tr.send({"user": "liisa", "chat": "private", "text": "älä kysy minulta", "lang": "fi"})
    asked_detail = asked_why = False
    for step, (m, state) in enumerate(tr.turns(3000)):
        seat = engine.to_act(state)[0]
        user = tr.user(m, seat)
        view = engine.view(state, seat)
        if not asked_detail and step > 40:
            asked_detail = True
            tr.send({"user": user, "chat": "group", "text": "tilanne", "lang": "fi"})
        now = {engine.notation(a) for a in engine.legal_actions(state, seat)}
        if (
            not asked_why
            and view.phase == "phase3"
            and view.x.prompt is None
            and not now & {"flip", "flip_roll"}
        ):
            asked_why = True
            tr.send({"user": user, "chat": "private", "text": "miksi en voi kääntää kiekkoa?", "lang": "fi"})
        tr.move(m, state, seat, rng)
    return tr


if __name__ == "__main__":
    drive().write(NAME)
