"""Generate the Retkikunnat golden transcript: ``python -m tests.golden.make_afrikan_tahti_exp``.

Two people and two AI seats play a quick game (``pikapeli=kyllä``) of Afrikan Tähti with the
expansion in Finnish. Each person's move is the smart AI's choice for that seat, *typed* in Finnish
(card names in their case forms, vocabulary.md §2 and §4); only where the parser does not take the
words does the person press the button. Hand cards are played in the private chat. Then
``UPDATE_GOLDEN=1 pytest tests/golden -k afrikan_tahti_exp`` writes ``*.out.jsonl``.
"""

from __future__ import annotations

import random
from typing import Any

from chatbot.games.afrikan_tahti.card_forms_generated import FI_FORMS
from chatbot.games.afrikan_tahti.lexicon import PLACE_FI
from tests.golden.make_afrikan_tahti import FI, phrase
from tests.golden.transcript import Transcript

NAME = "afrikan_tahti_exp_4p_fi"
SEED = "golden-retki-4"
NEW_GAME = "uusi afrikan tähti pikapeli=kyllä"
PEOPLE = (("matti", "Matti"), ("liisa", "Liisa"))
GENITIVE = {"Matti": "Matin", "Liisa": "Liisan"}

# Finnish phrasings of the expansion's actions: {nom}, {gen}, {part}, {ill} are a card's case forms
# (vocabulary.md §4.1), {to} a place's illative, {who} a player's name.
X_FI: dict[str, list[str]] = {
    "character": ["valitsen {gen}", "olen {nom}"],
    "sell": ["myyn {gen}", "myy {nom}"],
    "use": ["käytän {part}", "käytä {part}"],
    "hold": ["säästä {nom}"],
    "unhold": ["käytä taas {part}"],
    "discard": ["poista {nom}", "luovun {elat}"],
    "play": ["pelaan {gen}", "pelaa {nom}"],
    "pass": ["ohitan", "en pelaa", "ohita"],
    "accept": ["hyväksyn", "hyväksy"],
    "decline": ["en hyväksy", "hylkään"],
    "reroll_done": ["valmis", "pidän nämä"],
    "peek": ["kurkista", "kurkistan"],
    "gem_roll": ["jalokiviheitto", "heitä jalokiviä"],
    "exchange": ["otan vaaratilannekortin"],
    "buy_discard": ["osta poistopakasta"],
    "swap_stack": ["vaihda pino {place}"],
    "seaplane": ["vesitasolla {to}"],
    "roll_danger": ["heitän nopat", "heitä vaaranopat"],
    "end_phase": ["lopeta vuoro", "valmis"],
    "end_phase2": ["jatka", "valmis"],
    "flip3": ["käännä kiekko", "käännän kiekon"],
}


def card_forms(ident: str) -> dict[str, str]:
    forms = FI_FORMS.get(ident, (ident,))
    nom, gen, part, ill, elat = (list(forms) + [forms[0]] * 5)[:5]
    return {"nom": nom, "gen": gen, "part": part, "ill": ill, "elat": elat}


def x_phrase(notation: str, view: Any, rng: random.Random, names: tuple[str, ...]) -> str | None:
    """A Finnish way to say an expansion action, or None to press its button."""
    words = notation.split()
    verb = words[0]
    prompt = view.x.prompt
    if verb in ("character", "sell", "use", "hold", "unhold", "discard", "play") and len(words) == 2:
        return rng.choice(X_FI[verb]).format(**card_forms(words[1]))
    if verb == "duel":
        seat = int(words[1][4:])
        target = words[2]
        gen = GENITIVE.get(names[seat], names[seat])
        if target == "star":
            return f"haastan {gen} ryöstämään Afrikan tähden"
        if target.startswith("money:"):
            return f"haastan {gen} {target[6:]} punnasta"
        return None
    if verb in ("swap_stack", "seaplane"):
        f = PLACE_FI[words[1]]
        return rng.choice(X_FI[verb]).format(to=f.to, place=f.nominative)
    if verb == "roll" and prompt is not None and prompt.kind in ("danger", "duel"):
        return rng.choice(X_FI["roll_danger"])
    if verb == "end_phase" and view.phase == "phase2":
        return rng.choice(X_FI["end_phase2"])
    if verb == "end_phase" and view.phase == "phase3":
        return rng.choice(X_FI["end_phase"])
    if verb == "flip" and view.phase == "phase3":
        return rng.choice(X_FI["flip3"])
    if verb in X_FI and len(words) == 1:
        return rng.choice(X_FI[verb])
    if verb in FI and prompt is None and view.phase in ("setup", "declare", "release", "move", "after_move"):
        return phrase(notation, view, rng)
    return None


class Game(Transcript):
    """A transcript of a Retkikunnat game, and the buttons pressed on the way."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.engine = self.core.games["afrikan_tahti"]
        self.pressed = 0

    def move(self, m: Any, state: Any, seat: int, rng: random.Random) -> None:
        """The smart AI's choice for ``seat``, made by its person: typed in Finnish where
        :func:`x_phrase` has words for it (hand cards and answers to a prompt in private, other
        moves in the group now and then), its button pressed where it has none or the words were
        not taken. Raises when the words were taken as another move."""
        core, engine = self.core, self.engine
        user = self.user(m, seat)
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        choice = engine.notation(engine.ai_action("smart", view, legal, engine.ai_rng(state, seat)))
        text = x_phrase(choice, view, rng, tuple(s.name for s in m.seats))
        before = m.version
        if text is not None:
            secret = choice.startswith(("play ", "discard ")) or view.x.prompt is not None
            chat = "private" if secret or rng.random() < 0.3 else "group"
            self.send({"user": user, "chat": chat, "text": text, "lang": "fi"})
            after = core.repo.match(m.id)
            taken = next(
                (r.notation for r in core.repo.actions(m.id, since_ply=state.ply) if r.seat == seat), None
            )
            if after.version != before and taken != choice:
                raise RuntimeError(f"{text!r} was taken as {taken!r}, wanted {choice!r}")
            if after.version != before:
                return
            self.take_back()
        self.pressed += 1
        self.send({"user": user, "chat": "private", "button": f"{m.id}:{before}:{choice}", "lang": "fi"})

    def write(self, name: str, answers: bool = False) -> None:
        super().write(name, answers)
        print("wrote", name, len(self.lines), "lines;", self.pressed, "buttons")


def drive(seed: str = SEED) -> Game:
    rng = random.Random(seed)
    tr = Game(seed)
    host = PEOPLE[0][0]
    tr.send({"user": host, "chat": "group", "text": NEW_GAME, "lang": "fi", "seed": seed})
    tr.send({"user": PEOPLE[1][0], "chat": "group", "text": "liity", "lang": "fi"})
    tr.send({"user": host, "chat": "group", "text": "lisää botti", "lang": "fi"})
    tr.send({"user": host, "chat": "group", "text": "lisää botti", "lang": "fi"})
    tr.send({"user": host, "chat": "group", "text": "aloita", "lang": "fi"})
    for m, state in tr.turns(3000):
        humans = [s for s in tr.engine.to_act(state) if m.seats[s].user_id is not None]
        if not humans:
            raise RuntimeError("only AI seats to act, but the core did not move them")
        tr.move(m, state, humans[0], rng)
    return tr


if __name__ == "__main__":
    drive().write(NAME)
