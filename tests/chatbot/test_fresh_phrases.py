"""The fresh phrases of tests/chatbot/fresh_corpus.py (written as players type them, before the
parsers were read; ``python -m tests.chatbot.fresh_figures`` prints their figures): on both
lemmatiser backends each is understood as meant or asked back, never another move and never
missed."""

from __future__ import annotations

from tests.chatbot import fresh_figures as ff
from tests.chatbot.fresh_corpus import GAME_ROWS, META_ROWS, OPTION_ROWS


def test_game_phrases(lemmatizer):
    bad = [
        (g, lang, text, o, r)
        for g, lang, text, o, r in ff.game_outcomes(lemmatizer)
        if o not in (ff.RIGHT, ff.ASKED)
    ]
    assert not bad, bad
    assert len(GAME_ROWS) >= 160


def test_meta_phrases(lemmatizer):
    bad = [row for row in ff.meta_outcomes(lemmatizer) if row[2] not in (ff.RIGHT, ff.ASKED)]
    assert not bad, bad
    assert len(META_ROWS) >= 50


def test_option_phrases(lemmatizer):
    bad = [row for row in ff.option_outcomes(lemmatizer) if row[2] != ff.RIGHT]
    assert not bad, bad
    assert len(OPTION_ROWS) >= 10


def test_rule_questions(lemmatizer):
    bad = [row for row in ff.rule_outcomes(lemmatizer) if row[2] != ff.RIGHT]
    assert not bad, bad


#: commands that only read or show, or that act only where their thing is shown (a replay's steps)
_HARMLESS = frozenset(
    {"rules", "ask", "help", "hand", "status", "map", "options", "replay_next", "replay_previous"}
)


def test_no_game_move_is_taken_by_a_lobby_command(lemmatizer):
    """Every move text of the games' phrase tables and of the fresh phrases, said in a group at a
    table of these names, is either no command, a weak one (the game reads it first) or one that
    only shows something: a lobby command never grabs a move ("pelaa tukaani" joined once)."""
    from chatbot.core.commands import parse_command
    from chatbot.games import UIS
    from tests.chatbot import test_afrikan_tahti_parser as at
    from tests.chatbot import test_coloretto_amazonas_parser as co
    from tests.chatbot import test_gnav_parser as gn
    from tests.chatbot import test_majavajengi_parser as mj
    from tests.chatbot.fresh_corpus import GAME_ROWS_2

    texts: set[str] = set()
    for rows in (gn.FI, gn.EN, gn.SPOKEN_FI, gn.SPOKEN_EN, mj.FI, mj.EN, mj.SPOKEN_FI, mj.SPOKEN_EN):
        texts.update(row[0] for row in rows)
    for rows in (at.FI, at.EN, at.SPOKEN_FI, at.SPOKEN_EN):
        texts.update(row[0] for row in rows)
    for rows in (co.FINNISH, co.ENGLISH, co.SPOKEN_FI, co.SPOKEN_EN):
        texts.update(row[2] for row in rows)
    texts.update(row[3] for row in GAME_ROWS + GAME_ROWS_2)
    games = {gid: (*ui.aliases, gid) for gid, ui in UIS.items()}
    names = ("Matti", "Liisa", "Pekka", "Botti 1", "Anna", "Jussi")
    grabbed = []
    for text in sorted(texts):
        command = parse_command(text, games, "fi", lemmatizer=lemmatizer, names=names)
        if command is not None and not command.weak and command.name not in _HARMLESS:
            grabbed.append((text, command.name))
    assert not grabbed
    assert len(texts) > 1000
