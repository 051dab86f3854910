"""Generate the Afrikan Tähti golden transcript: ``python -m tests.golden.make_afrikan_tahti``.

A fixed seed drives a table of three people through the real core. Each move is the one the
engine's smart AI would choose for that seat (so the game ends in a sensible number of turns), and
the person *types* it in Finnish as a player would, so the transcript also pins the parser; only
when the words are not understood does the person press the button instead. The input lines go to
``*.in.jsonl``; ``test_golden.py`` replays them through the script transport and compares the
output with ``*.out.jsonl``. The board picture of the final position is written next to them.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.core.service import BotCore
from chatbot.games.afrikan_tahti import UI
from chatbot.games.afrikan_tahti.lexicon import PLACE_FI
from chatbot.games.afrikan_tahti.names import ahead, move_menu_of, path_of
from engines import GAMES
from engines.afrikan_tahti.board import PLACE_SET, node_of
from tests.golden.transcript import HERE, Transcript

NAME = "afrikan_tahti_3p_fi"
SEED = "golden-tahti-378"
#: the first line creates the game: the plain base game, once the engine also knows Retkikunnat
NEW_GAME = "uusi afrikan tähti" + (
    " laajennus=ei"
    if "expansion" in {f.name for f in dataclasses.fields(GAMES["afrikan_tahti"].Options)}
    else ""
)
PEOPLE = (("matti", "Matti"), ("liisa", "Liisa"), ("pekka", "Pekka"))

# Finnish phrasings per action; {to}, {frm}, {gen}, {nom} are place forms, {via} a "kautta" phrase.
FI: dict[str, list[str]] = {
    "start": ["valitsen {gen}", "aloituspaikka {nom}", "{nom}"],
    "roll": ["heitä noppaa", "heitän", "liikun"],
    "roll_release": ["heitän", "heitä noppaa"],
    "roll_voyage": ["jatka purjehdusta", "heitä noppaa"],
    "board": ["purjehdi {to}", "laivalla {to}", "otan laivan {to}"],
    "free_sail": ["purjehdi ilmaiseksi {to}", "ilmaismatka {to}"],
    "free_sail_voyage": ["jatka purjehdusta", "purjehdi {to}"],
    "fly": ["lennä {to}", "lennän {to}", "lento {to}"],
    "flip": ["käännä kiekko", "käännän kiekon", "maksan ja käännän"],
    "flip_roll": ["yritän kääntää nopalla", "käännä nopalla"],
    "stay": ["pysyn paikallani", "odotan"],
    "end_phase": ["en käännä", "valmis", "ei kiitos"],
    "move_here": ["jään tähän", "pysähdyn tähän"],
    "move_place": ["mene {to}", "kävelen {to}", "{to}", "siirryn {to}"],
    "move_via": ["mene {to} {via}"],
    "move_dot": ["{n} askelta {toward}"],
    "move_dot_1": ["1 askel {toward}"],
}


def phrase(notation: str, view: Any, rng: random.Random) -> str:
    """One Finnish way to say ``notation`` in the situation of ``view`` (the speaker's own)."""
    words = notation.split()
    verb = words[0]
    me = view.pawns[view.turn]
    key = verb
    forms: dict[str, str | int] = {}
    if len(words) > 1:
        node = node_of(words[1]) or words[1]
        if node in PLACE_FI:
            f = PLACE_FI[node]
            forms = {"to": f.to, "frm": f.from_, "gen": f.genitive, "nom": f.nominative}
    if verb == "roll":
        key = "roll_release" if view.phase == "release" else "roll_voyage" if me.voyage else "roll"
    elif verb == "free_sail" and me.voyage is not None:
        key = "free_sail_voyage"
    elif verb == "move":
        to = node_of(words[1]) or words[1]
        if to == me.node and len(words) == 2:
            key = "move_here"
        elif to in PLACE_SET:
            key = "move_via" if len(words) == 4 else "move_place"
            if len(words) == 4:
                forms["via"] = PLACE_FI[node_of(words[3]) or words[3]].genitive + " kautta"
        else:
            path = path_of(move_menu_of(view, view.turn), to, None)
            prev = path[-2] if len(path) > 1 else me.node
            toward = ahead(prev, to)
            key = "move_dot_1" if len(path) == 1 else "move_dot"
            forms = {
                "n": len(path),
                "toward": (PLACE_FI[toward[0][0]].genitive + " suuntaan") if toward else "",
            }
    return rng.choice(FI[key]).format(**forms).strip()


#: (text, notation) pairs the parser did not take, for the maker's summary
FALLBACKS: list[tuple[str, str]] = []


def drive(seed: str = SEED, new_game: str = NEW_GAME) -> Transcript:
    """Play one game (its core stays for the final picture)."""
    rng = random.Random(seed)
    tr = Transcript(seed)
    send, core = tr.send, tr.core
    engine = core.games["afrikan_tahti"]

    host = PEOPLE[0][0]
    send({"user": host, "chat": "group", "text": new_game, "lang": "fi", "seed": seed})
    for user, _name in PEOPLE[1:]:
        send({"user": user, "chat": "group", "text": "liity", "lang": "fi"})
    send({"user": host, "chat": "group", "text": "aloita", "lang": "fi"})
    asked_map = False
    for m, state in tr.turns(2000):
        seat = engine.to_act(state)[0]
        user = tr.user(m, seat)
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        choice = engine.notation(engine.ai_action("smart", view, legal, engine.ai_rng(state, seat)))
        if not asked_map and state.round == 3:
            send({"user": user, "chat": "group", "text": "näytä kartta", "lang": "fi"})
            asked_map = True
        text = phrase(choice, view, rng)
        chat = "group" if rng.random() < 0.7 else "private"
        before = m.version
        send({"user": user, "chat": chat, "text": text, "lang": "fi"})
        after = core.repo.match(m.id)
        if after.version == before or after.state is None or _last_action(core, m.id) != choice:
            # not understood (or understood as something else, which the AI did not choose): the
            # transcript must follow the AI's game, so take the words back and press the button
            if after.version != before:
                raise RuntimeError(f"{text!r} was taken as {_last_action(core, m.id)!r}, wanted {choice!r}")
            tr.take_back()
            FALLBACKS.append((text, choice))
            send({"user": user, "chat": "private", "button": f"{m.id}:{before}:{choice}", "lang": "fi"})
    return tr


def _last_action(core: BotCore, match_id: int) -> str | None:
    actions = core.repo.actions(match_id, since_ply=0)
    return actions[-1].notation if actions else None


def final_picture(core: BotCore) -> bytes:
    """The board picture of the finished match, as the group would see it."""
    match = core.repo.match(1)
    engine = core.games["afrikan_tahti"]
    state = engine.load(match.state)
    ctx = RenderContext(translator("fi"), tuple(s.name for s in match.seats))
    image = UI.render_image(engine.view(state, None), ctx)
    assert image is not None
    return image


def write(tr: Transcript) -> None:
    tr.write(NAME)
    (HERE / "afrikan_tahti_3p_final.png").write_bytes(final_picture(tr.core))


if __name__ == "__main__":
    tr = drive()
    write(tr)
    print("wrote", NAME, len(tr.lines), "lines;", "engine:", type(GAMES["afrikan_tahti"]).__name__)
