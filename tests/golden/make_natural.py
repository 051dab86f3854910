"""Generate the natural-language golden transcripts (issue #15): ``python -m tests.golden.make_natural``.

A whole game of each of the four games, from the lobby to the final score, in a group, by one person who
types only natural sentences ("Pidän tämän kortin.", "Laitan sen kolmanneksi.", "Annan tukaanin Botti
1:lle.", "Lennän Kairoon."): no button is pressed and no bare keyword is typed. Each move is the one the
game's AI would choose for the person's seat (so the game ends in a sensible number of turns); the words
for it are picked with a seeded generator from the sentences below, written for the person's situation
(its positions, animals, places and names). The generator is strict: a sentence that is not understood,
or is taken as another move than the one meant, stops it with an error, so these transcripts also pin
that the parser reads every one of them.

The lobby is natural sentences too ("Pelataan gnavia kolmella elämällä!", "Lisää kolme bottia",
"Nyt aloitetaan"), options said in words; the generator stops when the lobby did not end in a running
game with the seats and options meant.

``test_golden.py`` replays the ``*.in.jsonl`` files through the script transport and compares the output
with ``*.out.jsonl``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from chatbot.games.afrikan_tahti.lexicon import PLACE_FI
from chatbot.games.afrikan_tahti.names import ahead, move_menu_of, path_of
from chatbot.games.coloretto_amazonas.parser import FI_ANIMALS
from engines.afrikan_tahti.board import PLACE_SET, node_of
from tests.golden.transcript import Transcript

USER = "matti"

# Finnish ordinals by position: nominative, genitive, partitive, illative, translative
ORD = {
    1: ("ensimmäinen", "ensimmäisen", "ensimmäistä", "ensimmäiseen", "ensimmäiseksi"),
    2: ("toinen", "toisen", "toista", "toiseen", "toiseksi"),
    3: ("kolmas", "kolmannen", "kolmatta", "kolmanteen", "kolmanneksi"),
    4: ("neljäs", "neljännen", "neljättä", "neljänteen", "neljänneksi"),
}
SPOKEN_ORD = {1: "ekaks", 2: "tokaks", 3: "kolmanneks", 4: "vikaks"}

# --------------------------------------------------------------------------------------------------
# Gnav
# --------------------------------------------------------------------------------------------------

GNAV = {
    "fi": {
        "keep": [
            "Pidän tämän kortin.",
            "Mä pidän tän.",
            "Pidän korttini, kiitos.",
            "Tää kelpaa, pidän sen.",
            "En vaihda, pidän tämän.",
            "Jään tähän.",
        ],
        "ask": [
            "Haluaisin vaihtaa.",
            "Mä vaihdan.",
            "Pyydän vaihtoa.",
            "Vaihdetaan kortit!",
            "Vaihtaisin mielelläni.",
        ],
        "ask_dealer": ["Otan uuden kortin pakasta.", "Vaihdan pakan kanssa.", "Nostan pakasta uuden."],
        "knock": ["Koputan: kop kop!", "Mä koputan."],
    },
    "en": {
        "keep": [
            "I'll keep my card.",
            "I'm keeping this one.",
            "I'll stick with this card.",
            "No swap for me, I'll keep it.",
        ],
        "ask": ["I'd like to swap.", "Let's swap cards.", "I want to trade my card.", "Swap, please."],
        "ask_dealer": ["I'll take a new card from the deck.", "Let me draw from the deck."],
        "knock": ["Knock knock!", "I'll knock."],
    },
}


def gnav_phrase(notation: str, view: Any, names: list[str], lang: str, rng: random.Random) -> str:
    dealer = view.phase == "turn" and view.order[view.turn] == view.dealer
    key = "ask_dealer" if notation == "ask" and dealer else notation
    return rng.choice(GNAV[lang][key])


# --------------------------------------------------------------------------------------------------
# Majavajengi
# --------------------------------------------------------------------------------------------------


def _genitive(name: str) -> str:
    return f"{name}:n" if name[-1].isdigit() else f"{name}n"


def majavajengi_phrase(notation: str, view: Any, names: list[str], lang: str, rng: random.Random) -> str:
    verb, *args = notation.split()
    n = [int(a) for a in args if a.isdigit()]
    if verb == "draw":
        return rng.choice(
            ["Nostan kortin pakasta.", "Otan uuden kortin pakasta.", "Mä nostan.", "Nostan uuden kortin."]
        )
    if verb == "take":
        o = ORD[n[0]]
        return rng.choice(
            [
                f"Otan poistopakan kortin {o[3]} paikkaan.",
                f"Otan avoimen kortin ja laitan sen {o[4]}.",
                f"Otan poistopakasta kortin ja laitan sen {SPOKEN_ORD[n[0]]}.",
            ]
        )
    if verb == "replace":
        o = ORD[n[0]]
        return rng.choice(
            [
                f"Laitan sen {o[3]} paikkaan.",
                f"Pidän tämän ja laitan sen {o[4]}.",
                f"Laitan kortin {o[1]} tilalle.",
            ]
        )
    if verb == "discard":
        return rng.choice(["Heitän tämän pois.", "En tarvitse tätä, poistoon.", "Tää menee poistopakkaan."])
    if verb == "peek":
        o = ORD[n[0]]
        return rng.choice([f"Kurkistan {o[2]} korttiani.", f"Katson {o[1]} korttini."])
    if verb == "swap":
        own, other, their = n[0], int(args[1].removeprefix("seat")), n[-1]
        return rng.choice(
            [
                f"Vaihdan {ORD[own][1]} korttini {_genitive(names[other])} {ORD[their][3]} korttiin.",
                f"Vaihdetaan mun {ORD[own][0]} {_genitive(names[other])} {ORD[their][1]} kanssa.",
            ]
        )
    if verb == "draw2":
        return rng.choice(["Käytän Nosta 2 -kortin.", "Käytän tämän tuplanoston."])
    if verb == "next":
        return rng.choice(["Nostan vielä yhden.", "Otan vielä yhden kortin."])
    if verb == "stop":
        return "Nyt riittää, en nosta enempää."
    if verb == "knock":
        return rng.choice(["Koputan nyt.", "Mä koputan!"])
    if verb == "end":
        return rng.choice(["En koputa vielä.", "Lopetan vuoroni."])
    raise KeyError(notation)


# --------------------------------------------------------------------------------------------------
# Coloretto Amazonas
# --------------------------------------------------------------------------------------------------


def coloretto_phrase(notation: str, view: Any, names: list[str], lang: str, rng: random.Random) -> str:
    verb, *args = notation.split()
    animal = FI_ANIMALS[args[0]][0][1] if args else ""  # the genitive is the object form: "tukaanin"
    if verb == "play":
        return rng.choice(
            [
                f"Pelaan {animal} omaan riviini.",
                f"Laitan {animal} riviin.",
                f"Pidän {animal} itse.",
                f"Pelaan {animal}.",
            ]
        )
    if verb == "give":
        name = names[int(args[1].removeprefix("seat"))]
        to = f"{name}:lle" if name[-1].isdigit() else f"{name}lle"
        nominative = FI_ANIMALS[args[0]][0][0]
        return rng.choice(
            [
                f"Annan {animal} pelaajalle {name}.",
                f"Annan {animal} {to}.",
                f"{nominative.capitalize()} menee {to}.",
            ]
        )
    if verb == "accept":
        return rng.choice(["Otan sen vastaan.", "Kelpaa, otan sen.", "Hyväksyn lahjan."])
    if verb == "refuse":
        return rng.choice([f"En ota, poistan {animal}.", f"Kieltäydyn ja poistan {animal}."])
    raise KeyError(notation)


# --------------------------------------------------------------------------------------------------
# Afrikan Tähti
# --------------------------------------------------------------------------------------------------


def tahti_phrase(notation: str, view: Any, names: list[str], lang: str, rng: random.Random) -> str:
    words = notation.split()
    verb = words[0]
    me = view.pawns[view.turn]
    f = PLACE_FI.get(node_of(words[1]) or words[1]) if len(words) > 1 else None
    if verb == "start":
        assert f is not None
        return rng.choice([f"Aloitan {f.from_}.", f"Valitsen lähtöpaikaksi {f.genitive}."])
    if verb == "roll":
        if view.phase == "release":
            return "Yritän päästä vapaaksi, heitän noppaa."
        if me.voyage is not None:
            return rng.choice(["Jatketaan purjehdusta.", "Heitän noppaa ja jatkan matkaa."])
        return rng.choice(["Heitän noppaa ja lähden liikkeelle.", "Heitän noppaa, mennään!"])
    if verb == "board":
        return rng.choice([f"Purjehdin {f.to}.", f"Otan laivan {f.to}."])
    if verb == "free_sail":
        return "Jatketaan purjehdusta." if me.voyage is not None else f"Purjehdin ilmaiseksi {f.to}."
    if verb == "fly":
        return rng.choice([f"Lennän {f.to}.", f"Otan lennon {f.to}."])
    if verb == "flip":
        return rng.choice(["Käännän kiekon.", "Maksan ja käännän kiekon."])
    if verb == "flip_roll":
        return "Yritän kääntää kiekon nopalla."
    if verb == "stay":
        return "Pysyn paikallani tämän vuoron."
    if verb == "end_phase":
        return rng.choice(["En käännä kiekkoa.", "En käännä tällä kertaa."])
    if verb == "move":
        to = node_of(words[1]) or words[1]
        if to == me.node and len(words) == 2:
            return "Jään tähän."
        if to in PLACE_SET:
            forms = PLACE_FI[to]
            if len(words) == 4:
                via = PLACE_FI[node_of(words[3]) or words[3]].genitive
                return f"Kävelen {forms.to} {via} kautta."
            return rng.choice([f"Kävelen {forms.to}.", f"Menen {forms.to}.", f"Siirryn {forms.to}."])
        path = path_of(move_menu_of(view, view.turn), to, None)
        prev = path[-2] if len(path) > 1 else me.node
        toward = ahead(prev, to)
        steps = "askeleen" if len(path) == 1 else "askelta"
        return f"Kävelen {len(path)} {steps} {PLACE_FI[toward[0][0]].genitive} suuntaan."
    raise KeyError(notation)


# --------------------------------------------------------------------------------------------------
# The driver
# --------------------------------------------------------------------------------------------------

Phrase = Callable[[str, Any, list[str], str, random.Random], str]


def drive(game: str, seed: str, lang: str, lobby: list[str], options: dict[str, Any]) -> Transcript:
    """Play one game (its way of play from :data:`PLAY`). Raises when a sentence is not taken as
    the move meant."""
    phrase, ai, private = PLAY[game]
    rng = random.Random(seed)
    tr = Transcript(seed, first={"seed": seed})
    send, core = tr.send, tr.core
    for text in lobby:
        send({"user": USER, "chat": "group", "text": text, "lang": lang})
    running = core.repo.running_matches()
    if len(running) != 1 or running[0].game != game or running[0].options != options:
        raise RuntimeError(f"{game}: the lobby lines {lobby!r} did not start the game meant: {running}")
    engine = core.games[game]
    for m, state in tr.turns(3000):
        seat = engine.to_act(state)[0]
        if m.seats[seat].user_id is None:
            raise RuntimeError("an AI seat is to act and the runtime did not move it")
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        choice = engine.notation(engine.ai_action(ai, view, legal, rng))
        names = [s.name for s in m.seats]
        text = phrase(choice, view, names, lang, rng)
        chat = "private" if choice.split()[0] in private else "group"
        before = len(core.repo.actions(m.id))
        out = send({"user": USER, "chat": chat, "text": text, "lang": lang})
        done = core.repo.actions(m.id)
        if len(done) == before or done[before].notation != choice:
            got = done[before].notation if len(done) > before else None
            answer = [o.get("text") for o in out][:1]
            raise RuntimeError(
                f"{game}: {text!r} was taken as {got!r}, meant {choice!r}; the bot said {answer}"
            )
    return tr


#: per game: how a move is said, the AI that picks the person's moves, the verbs said in private
PLAY: dict[str, tuple[Phrase, str, frozenset[str]]] = {
    "gnav": (gnav_phrase, "sensible", frozenset({"knock"})),
    "majavajengi": (majavajengi_phrase, "normal", frozenset()),
    "coloretto_amazonas": (coloretto_phrase, "normal", frozenset()),
    "afrikan_tahti": (tahti_phrase, "smart", frozenset()),
}

#: transcript: (game, seed, language, the lobby's lines, the options they must set)
GAMES_TO_MAKE: dict[str, tuple[str, str, str, list[str], dict[str, Any]]] = {
    "natural_gnav_fi": (
        "gnav",
        "natural-natural_gnav_fi-14",
        "fi",
        ["Pelataan gnavia kolmella elämällä!", "Lisää kolme bottia", "Aloitetaan peli"],
        {"lives": 3},
    ),
    "natural_gnav_en": (
        "gnav",
        "natural-natural_gnav_en-3",
        "en",
        ["Let's play gnav with three lives", "Add three bots please", "OK, let's start"],
        {"lives": 3},
    ),
    "natural_majavajengi_fi": (
        "majavajengi",
        "natural-majavajengi-fi-1",
        "fi",
        ["Pelataan majavajengiä kahdella kierroksella", "Ota yksi botti mukaan", "Aloitetaan!"],
        {"rounds": 2},
    ),
    "natural_coloretto_fi": (
        "coloretto_amazonas",
        "natural-coloretto-fi-1",
        "fi",
        ["Pelataanko colorettoa?", "Lisää yksi botti", "No aloitetaan sitten"],
        {},
    ),
    "natural_afrikan_tahti_fi": (
        "afrikan_tahti",
        "natural-tahti-fi-1",
        "fi",
        ["Pelataan afrikan tähteä ilman laajennusta", "Lisää tekoälypelaaja", "Nyt aloitetaan"],
        {"expansion": False},
    ),
}


if __name__ == "__main__":
    import sys

    wanted = sys.argv[1:] or list(GAMES_TO_MAKE)
    for name in wanted:
        tr = drive(*GAMES_TO_MAKE[name])
        tr.write(name)
        print("wrote", name, len(tr.lines), "lines")
