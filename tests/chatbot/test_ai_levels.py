"""The same three AI level words in every game (helppo / normaali / vahva, easy / normal / strong),
in the lobby's words "lisää vahva botti" or "add bot strong"; the older names still work."""

from __future__ import annotations

import pytest

from chatbot.core.commands import parse_command
from engines import GAMES
from tests.chatbot.table import Table


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_the_three_levels_and_keeps_its_old_names(game):
    ais = GAMES[game].ais
    assert {"easy", "normal", "strong"} <= set(ais)
    assert GAMES[game].default_ai in ais
    for old in {"majavajengi": ("smart",), "gnav": ("easy", "sensible", "strong")}.get(game, ("smart",)):
        assert old in ais


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("lisää vahva botti", "vahva"),
        ("lisää helppo botti", "helppo"),
        ("lisää botti normaali", "normaali"),
        ("add strong bot", "strong"),
        ("add bot easy", "easy"),
    ],
)
def test_the_level_word_may_stand_before_or_after_the_bot(text, level):
    command = parse_command(text)
    assert command is not None and command.name == "add_ai" and command.args == (level,)


@pytest.mark.parametrize(
    ("game", "words", "ai"),
    [
        ("majavajengi", "lisää vahva botti", "strong"),
        ("majavajengi", "lisää helppo botti", "easy"),
        ("majavajengi", "lisää botti", "smart"),  # the default, = normal
        ("gnav", "lisää normaali botti", "normal"),
        ("gnav", "lisää botti järkevä", "normal"),
        ("coloretto amazonas", "add strong bot", "strong"),
    ],
)
def test_the_lobby_seats_the_level_asked_for(game, words, ai):
    table = Table(seed="levels")
    table.say("matti", f"uusi {game}")
    table.say("matti", words)
    assert table.match().seats[-1].ai == ai


def test_the_lobby_shows_each_ai_seats_level_in_the_rooms_language():
    table = Table(seed="levels")
    table.say("matti", "uusi gnav")
    table.say("matti", "lisää vahva botti")
    table.say("matti", "lisää helppo botti")
    table.say("matti", "lisää botti")
    assert "Botti 1 🤖 (vahva), Botti 2 🤖 (helppo) ja Botti 3 🤖 (normaali)" in table.group_texts()[-1]

    english = Table(seed="levels")
    english.say("alice", "new coloretto amazonas", lang="en")
    english.say("alice", "add strong bot", lang="en")
    english.say("alice", "add bot", lang="en")
    assert "Alice, Botti 1 🤖 (strong), and Botti 2 🤖 (normal)" in english.group_texts()[-1]
