"""A question is never a command that changes anything (issue #15): it is about one's own situation
(``ask``: "mitä mulla o kädes", "paljon mul o fyrkkaa", "kenenkä vuoro on", "onks mun vuoro", "where
is my pawn", "what animals i have"), the commands (``help``), the games (``games``), the options, the
records of finished games ("kuka on voittanut eniten?", "mitä pelejä on pelattu?", "one more game?"),
or else a rule (``rules``; "why" questions included).
"""

from __future__ import annotations

from collections.abc import Sequence

from chatbot.core.commands.after import after_game
from chatbot.core.commands.command import Command
from chatbot.core.commands.more_words import WIN
from chatbot.core.commands.said import FIRST_PERSON, HAVING, Said
from chatbot.core.commands.vocabulary import (
    DO,
    GAMES,
    HAND,
    HAVE,
    HELP,
    LEARNT,
    LIVES,
    MONEY,
    OPTIONS,
    SCORE,
    STATUS,
    TURN,
    WANT,
    WHERE,
    WHO_HAS,
    WHY,
)
from chatbot.core.nlp import OWN, fold

#: clitics on a question word: "kenenkä", "missäs", "kukas", "mitäs"
_CLITICS = ("kaan", "kaan", "ka", "s", "pa", "han")
_WHO = frozenset({"kenen", "whose", "kuka", "who", "kuka's", "who's"})
_NOW = frozenset({"nyt", "now", "nyts", "talla", "hetkella", "tassa", "currently"})
_WHAT = frozenset({"mita", "mika", "mitka", "what", "which", "mitas"})


def question_word(word: str) -> str:
    """A question word without its clitic ("kenenkä" -> kenen, "missäs" -> missä)."""
    w = fold(word)
    if w in _WHO | _WHAT:
        return w
    for clitic in _CLITICS:
        if w.endswith(clitic) and w[: -len(clitic)] in _WHO | _WHAT | {"missa", "mis", "miten", "mihin"}:
            return w[: -len(clitic)]
    return w


def question(words: Sequence[str], typed: Sequence[str], s: Said, lang: str) -> Command:
    """What a question asks for (see the module docstring)."""
    said = s.said | s.denied
    rest = tuple(words)
    raw = " ".join(rest)

    def ask(topic: str) -> Command:
        return Command("ask", rest, raw, tuple(typed), lang=lang, topic=topic)

    first = question_word(words[0])
    plain = not s.unknown  # every word is a question or command word: about now, not a rule
    own = OWN in said or any(fold(w) in FIRST_PERSON for w in words)
    if WHY in said or first in {"miksi", "miks", "why", "miksei"}:
        return Command("rules", rest, raw, tuple(typed), lang=lang)
    if (HELP in said or (DO in said and (own or WANT in said) and TURN not in said)) and plain:
        return Command("help", rest, raw, tuple(typed), lang=lang)
    records = after_game(s, lang, addressed=True, asked=True)
    if records is not None:
        return records  # "kuka on voittanut eniten?", "mitä pelejä on pelattu?", "one more game?"
    if GAMES in said and plain and not s.game:
        return Command("games", rest, raw, tuple(typed), lang=lang)
    if TURN in said and (plain or first in _WHO) and (first in _WHO or own):
        return ask("turn")
    if WIN in said and first in _WHO and plain and any(fold(w) in _NOW for w in words):
        return ask("score")  # "kuka voittaa nyt"; "kuka voittaa?" alone asks the rule
    if WHO_HAS in said:
        return ask("holder")
    having = any(fold(w) in HAVING for w in words) or HAVE in said
    if plain or own:
        if MONEY in said:
            return ask("money")
        if LIVES in said and (own or plain):
            return ask("lives")
        if SCORE in said:
            return ask("score")
        if HAND in said and own:
            return ask("hand")
        if WHERE in said and own:
            return ask("position")
        if LEARNT in said and own:
            return ask("learnt")
        if STATUS in said:
            return Command("status", rest, raw, tuple(typed), lang=lang)
        if OPTIONS in said and plain:
            return Command("options", rest, raw, (), lang=lang)
    if first in _WHAT and own and having and len(s.unknown) <= 1:
        return ask("hand")  # "what animals i have", "mitäs mulla on": what one holds
    return Command("rules", rest, raw, tuple(typed), lang=lang)
