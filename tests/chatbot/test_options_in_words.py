"""Options said in words when a game is set up ("kahdella kierroksella", "ilman laajennusta"), #15."""

from __future__ import annotations

import json

import pytest

from chatbot.compose import new_core
from chatbot.core.commands import option_phrases
from chatbot.core.nlp import Lemmatizer
from chatbot.storage import SqlRepository
from chatbot.transports.script import run_lines

CASES = [
    ("fi", "pelataan majavajengiä kahdella kierroksella", "majavajengi", {"rounds": 2}),
    ("fi", "Haluaisin pelata majavajengiä kolmella kierroksella", "majavajengi", {"rounds": 3}),
    ("fi", "uusi majavajengi 4 kierrosta", "majavajengi", {"rounds": 4}),
    ("fi", "Pelataan gnavia viidellä elämällä", "gnav", {"lives": 5}),
    ("fi", "uusi afrikan tähti ilman laajennusta", "afrikan_tahti", {"expansion": False}),
    ("fi", "Pelataan afrikan tähteä pikapelinä", "afrikan_tahti", {"quick_game": True}),
    (
        "fi",
        "Pelataan afrikan tähteä ilman retkikuntia, pikapelinä",
        "afrikan_tahti",
        {"expansion": False, "quick_game": True},
    ),
    ("en", "let's play beaver gang with two rounds", "majavajengi", {"rounds": 2}),
    ("en", "new gnav with 2 lives and 3 bots", "gnav", {"lives": 2}),
    ("en", "let's play afrikan tahti without the expansion", "afrikan_tahti", {"expansion": False}),
    ("fi", "uusi gnav kolme bottia", "gnav", {}),  # bots are seats, not an option
    ("fi", "uusi majavajengi kierrokset=2", "majavajengi", {"rounds": 2}),  # the typed form still
]


@pytest.mark.parametrize(("lang", "text", "game", "options"), CASES)
def test_a_game_set_up_with_its_options_in_words(lang, text, game, options):
    core = new_core(SqlRepository("sqlite://"), seed="words")
    out = list(run_lines(core, [json.dumps({"user": "matti", "chat": "group", "text": text, "lang": lang})]))
    assert out, "the lobby is shown"
    match = core.repo.match(1)  # the one match of this fresh database
    assert match is not None
    assert match.game == game
    assert match.options == options


@pytest.mark.parametrize("backend", ["voikko", "table"])
def test_the_rewrite_leaves_other_words_alone(backend):
    try:
        lem = Lemmatizer(backend=backend)
    except Exception:
        pytest.skip(f"{backend} is not available here")
    counts = {"kierros": "rounds", "round": "rounds"}
    flags = {"pikapeli": ("quick_game", True)}
    assert option_phrases("lisää kaksi bottia", counts, flags, lem) == "lisää kaksi bottia"
    assert (
        option_phrases("uusi majavajengi kierrokset=3", counts, flags, lem) == "uusi majavajengi kierrokset=3"
    )
    assert option_phrases("two rounds please", counts, flags, lem) == "rounds=2 please"
    assert option_phrases("ilman pikapeliä", counts, flags, lem) == "quick_game=off"
    assert option_phrases("pikapeli", counts, flags, lem) == "pikapeli"  # the listed word as typed


def test_options_in_words_without_voikko():
    """The word-form table does not know every compound's forms: a case ending on a known stem."""
    lem = Lemmatizer(backend="table")
    counts = {"kierros": "rounds", "kierrok": "rounds"}
    flags = {
        "pikapeli": ("quick_game", True),
        "laajennus": ("expansion", True),
        "laajennuks": ("expansion", True),
    }
    text = "uusi majavajengi kahdella kierroksella ilman laajennusta pikapelinä"
    assert option_phrases(text, counts, flags, lem) == "uusi majavajengi rounds=2 expansion=off quick_game=on"


@pytest.mark.parametrize(
    ("lang", "text", "shown"),
    [
        ("fi", "pelataan majavajengiä kahdella kierroksella", "⚙️ 2 kierrosta"),
        ("fi", "uusi majavajengi kierrokset=1 muistiapu=on", "⚙️ 1 kierros · muistiapu"),
        ("fi", "Pelataan gnavia viidellä elämällä", "⚙️ 5 elämää kullakin"),
        ("en", "new gnav with 1 life", "⚙️ 1 life each"),
    ],
)
def test_the_lobby_says_which_options_were_taken(lang, text, shown):
    core = new_core(SqlRepository("sqlite://"), seed="words")
    out = list(run_lines(core, [json.dumps({"user": "matti", "chat": "group", "text": text, "lang": lang})]))
    assert shown in out[0]["text"].split("\n")


@pytest.mark.parametrize("lang", ["fi", "en"])
@pytest.mark.parametrize("game", ["majavajengi", "gnav", "coloretto", "afrikan tähti"])
def test_the_options_example_works_when_typed_back(game, lang):
    """ "asetukset" shows the game's options and an example of its own; typed back, it is taken."""
    core = new_core(SqlRepository("sqlite://"), seed="words")

    def say(text: str) -> str:
        line = json.dumps({"user": "matti", "chat": "group", "text": text, "lang": lang})
        outs = list(run_lines(core, [line]))  # the whole answer, AI moves included
        return outs[0]["text"]

    say(("uusi " if lang == "fi" else "new ") + game)
    before = (core.repo.match(1).options, core.repo.match(1).meta.get("pace"))
    shown = say("asetukset" if lang == "fi" else "options")
    example = shown.rsplit("“", 1)[1].rstrip("”.")
    assert example.split()[0] in {"asetukset", "options"} and "=" in example
    answer = say(example)
    assert "did not understand" not in answer and "ymmärtänyt" not in answer
    assert (core.repo.match(1).options, core.repo.match(1).meta.get("pace")) != before


# --- spoken numerals and clipped cases, read alike by both lemmatiser backends ----------------------

SPOKEN = [
    ("majavajengi", "uusi majavajengi kahel kierroksel", "rounds=2"),
    ("majavajengi", "pelataan majavajengiä kahella kierroksella", "rounds=2"),
    ("majavajengi", "uus majavajengi kaks kierrosta", "rounds=2"),
    ("majavajengi", "uusi majavajengi yhellä kierroksella", "rounds=1"),
    ("majavajengi", "majavajengi seittemällä kierroksella", "rounds=7"),
    ("gnav", "uusi gnav kolmel elämäl", "lives=3"),
    ("gnav", "pelataan gnavia viiel elämäl", "lives=5"),
    ("gnav", "pelataan gnavia kahella hengellä", "lives=2"),
    ("gnav", "gnav kuuella elämällä", "lives=6"),
    ("gnav", "uus gnav neljäl elämäl ja kolmella botilla", "lives=4"),
    ("afrikan_tahti", "afrikan tähti retkikuntien kanssa", "expansion=on"),
    ("afrikan_tahti", "uusi afrikan tähti ilman retkikuntia", "expansion=off"),
    ("afrikan_tahti", "pelataan afrikan tähteä pikapelinä", "quick_game=on"),
    ("afrikan_tahti", "afrikan tähti ilman laajennuksia", "expansion=off"),
]


@pytest.mark.parametrize(("game", "text", "option"), SPOKEN)
def test_spoken_numerals_and_clipped_cases_in_options(lemmatizer, game, text, option):
    from chatbot.games import UIS

    ui = UIS[game]
    assert option in option_phrases(text, ui.option_counts(), ui.option_flags(), lemmatizer).split()


@pytest.mark.parametrize(
    ("word", "value"),
    [("kahel", 2), ("kahella", 2), ("kahen", 2), ("kolmel", 3), ("viiel", 5), ("viiellä", 5), ("yhellä", 1),
     ("kuuel", 6), ("seittemäl", 7), ("kaheksal", 8), ("yheksällä", 9), ("kymmenel", 10), ("neljält", 4)],
)  # fmt: skip
def test_spoken_numerals_have_their_value(word, value):
    from chatbot.core.nlp import numeral_value

    assert numeral_value(word) == value


def test_a_game_set_up_in_spoken_finnish_takes_its_options_and_bots():
    core = new_core(SqlRepository("sqlite://"), seed="words")
    line = json.dumps(
        {"user": "matti", "chat": "group", "text": "uus gnav kolmel elämäl kahel botil", "lang": "fi"}
    )
    assert list(run_lines(core, [line]))
    match = core.repo.match(1)
    assert match is not None and match.game == "gnav" and match.options == {"lives": 3}
    assert len(match.seats) == 3  # Matti and two AI players
