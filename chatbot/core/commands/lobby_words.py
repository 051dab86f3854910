"""The lobby in words (issue #27): the answer to "fill the empty seats with AI players, or play as we
are?" ("täytä boteilla", "ei tarvii botteja", "pelataan kolmestaan", "just us", "don't fill"), the
pace ("päivätahdilla", "hidas tahti", "ei muistutuksia", "no stand-in", "hiljaiset tunnit 23-7") and
a game's options said in words in its lobby (``options``; the core writes them as typed options
first, :func:`chatbot.core.commands.option_phrases`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chatbot.core.commands.command import Command
from chatbot.core.commands.more_words import (
    EMPTY,
    FAST,
    FILL,
    ONLY_US,
    PACE,
    PACE_DAILY,
    PACE_LIVE,
    QUIET,
    REMIND,
    SEAT,
    SLOW,
    STANDIN,
    THIS_WAY,
    WITHOUT,
)
from chatbot.core.commands.said import Said
from chatbot.core.commands.vocabulary import (
    ADD,
    AWAY,
    BE,
    BOT,
    GAME,
    JOIN,
    OPTIONS,
    PLAY,
    PLAYER,
    REMOVE,
    SWITCH,
    WANT,
)
from chatbot.core.nlp import NEG, OWN

QUIET_HOURS = re.compile(r"^\d{1,2}(?:[.:]\d{2})?-\d{1,2}(?:[.:]\d{2})?$")
#: what an answer to the fill question may say besides its own words
_ANSWER_AROUND = frozenset(
    {BOT, SEAT, EMPTY, PLAYER, WANT, BE, PLAY, GAME, OWN, NEG, "status", "learnt", "show", "question", "with"}
    | {"filler", "sep"}
)
#: what a change of options may say besides the options: "pelataan", "vaihda", "laita", "otetaan mukaan"
_OPTIONS_AROUND = frozenset(
    {
        PLAY,
        SWITCH,
        OPTIONS,
        WANT,
        BE,
        ADD,
        JOIN,
        GAME,
        AWAY,
        WITHOUT,
        NEG,
        OWN,
        "give",
        "take",
        "with",
        "filler",
        "sep",
    }
)
_PACE_WORDS = frozenset({PACE, PACE_DAILY, PACE_LIVE, SLOW, FAST, REMIND, STANDIN, QUIET})


def fill_answer(s: Said, addressed: bool) -> Command | None:
    """``fill`` or ``as_is``, the answers to the fill question, or None."""
    said, denied = s.said, s.denied
    if s.unknown and not (addressed and set(s.unknown) <= set(s.aside)):
        return None
    if said & {ADD, REMOVE} or denied & {ADD, REMOVE}:
        return None  # "älä lisää bottia", "poista botti": the bots, not the answer
    without = BOT in denied or FILL in denied or PLAYER in denied
    as_is = said & {THIS_WAY, ONLY_US} or without
    # "pelataan näillä", "ei botteja", "just us", "don't fill"; "näillä boteilla" is no answer
    if (
        as_is
        and FILL not in said
        and said - {THIS_WAY, ONLY_US, "start"} <= _ANSWER_AROUND
        and (without or BOT not in said)
    ):
        return Command("as_is")
    if FILL in said and said - {FILL, "last"} <= _ANSWER_AROUND:
        return Command("fill")
    return None


def pace_tokens(s: Said, typed: Sequence[str]) -> list[str]:
    """The pace said in words as typed options: ``pace=daily`` ("päivätahdilla", "hidas tahti",
    "daily pace"), ``pace=live``, ``pace=off`` ("ei muistutuksia", "no reminders", "tahti pois"),
    ``standin=no`` / ``standin=yes``, ``quiet=22-8`` ("hiljaa 22-8", "quiet hours 23-7")."""
    said, denied = s.said, s.denied
    out: list[str] = []
    if PACE_DAILY in said or (PACE in said and SLOW in said):
        out.append("pace=daily")
    elif PACE_LIVE in said or (PACE in said and FAST in said):
        out.append("pace=live")
    elif REMIND in denied or PACE in denied or (PACE in said and AWAY in said):
        out.append("pace=off")
    if STANDIN in denied:
        out.append("standin=no")
    elif STANDIN in said:
        out.append("standin=yes")
    if QUIET in said or QUIET in denied:
        hours = [w for w in typed if QUIET_HOURS.match(w)]
        if hours:
            out.append(f"quiet={hours[0]}")
    return out


def says_pace(s: Said) -> bool:
    return bool((s.said | s.denied) & _PACE_WORDS)


def options_command(s: Said, options: Sequence[str], lang: str, addressed: bool) -> Command | None:
    """A change of options said in a lobby: the typed options (``rounds=3``, from words the core
    rewrote, or ``tahti=päivä`` as typed) and the pace in words, when the rest says nothing else."""
    typed = list(options) + pace_tokens(s, s.folded)
    if not typed:
        return None
    rest = s.said - _PACE_WORDS - {SLOW, FAST}
    if not rest <= _OPTIONS_AROUND:
        return None
    loose = [w for w in s.unknown if not QUIET_HOURS.match(w)]
    if len(loose) > (1 if addressed else 0):
        return None
    return Command("options", tuple(typed), " ".join(typed), tuple(typed), lang=lang)
