"""After a game (issues #16 and #27): a rematch, the statistics, the history, a replay of a finished
game and its steps, in any words: "otetaan uusiks", "vielä yks erä samoilla", "one more round",
"kuka on voittanut eniten", "mun voitot", "mitä pelejä on pelattu", "kelaa peli 12", "can I see game
12", "yks taaksepäin", "hyppää loppuun", "go back", "to the start".

Each reading is decided by the concepts said (:mod:`chatbot.core.commands.more_words`); words a game
also uses ("uudestaan", "vielä yks", "seuraava", "takaisin") make the command weak or leave it to the
core, which lets a running game read them first.
"""

from __future__ import annotations

import re

from chatbot.core.commands.command import Command
from chatbot.core.commands.more_words import (
    AGAIN,
    CONTINUE,
    FIRST,
    LAST,
    MOST,
    NEXT,
    OLD,
    PLAYED,
    PREVIOUS,
    SAME,
    STEP,
    WIN,
    WIND,
)
from chatbot.core.commands.said import OWNER, Said
from chatbot.core.commands.vocabulary import (
    ADD,
    BACK,
    BE,
    GAME,
    GAMES,
    HISTORY,
    LEARNT,
    NEW,
    PLAY,
    PLAYER,
    REMATCH,
    REPLAY,
    SHOW,
    START,
    STATS,
    WANT,
)
from chatbot.core.nlp import OWN

#: a game by its number: "peli 12", "pelin #12", "peli nro 12", "game number 12", "#12"
_NUMBERED = re.compile(
    r"(?:^|\s)(?:peli\w*|game|match|matsi\w*|replay|uusinta\w*)\s+(?:(?:nro|numero|number|no)\s+)?#?(\d{1,9})\b"
    r"|#(\d{1,9})\b"
)
#: the rematch said outright (the other words are also a game's: "uusinta" may be a reroll)
_REMATCH_NOUNS = frozenset(
    {"rematch", "revanssi", "revanssia", "revari", "revaria", "uusintaottelu", "uusintamatsi", "re-match"}
)
#: the wins counted: a noun, not the verb ("how do I win?" asks the rules)
_WINS = frozenset({"wins", "victories", "voitot", "voittoja", "voittoni", "voittojen", "voittoa"})
#: the back words that step a replay back; "palaan", "oon takas", "I'm back" are a person coming back
_BACK_STEPS = frozenset({"takaisin", "takas", "back", "taakse", "taaksepain"})
#: what a step of a replay may say besides its direction
_STEP_AROUND = frozenset({STEP, WIND, SHOW, WANT, BE, CONTINUE, "filler", "sep"})
#: what a rematch may say besides "again": play, a game, the same players, shall we
_REMATCH_AROUND = frozenset(
    {AGAIN, REMATCH, PLAY, GAME, SAME, PLAYER, WANT, ADD, NEW, START, BE, OWN, "take", "filler", "sep"}
)


def _plain(name: str, lang: str, **extra: object) -> Command:
    return Command(name, lang=lang, **extra)  # type: ignore[arg-type]


def replay_number(folded: list[str]) -> str | None:
    """The number of the game a text names ("peli 12", "game #3"), as digits."""
    found = _NUMBERED.search(" ".join(folded))
    if found is None:
        return None
    return found.group(1) or found.group(2)


def after_game(s: Said, lang: str, addressed: bool, *, asked: bool = False) -> Command | None:
    """The after-game command ``s`` says, or None. ``asked``: the text is a question ("one more
    game?", "kuka on voittanut eniten?"), which only these read: the steps are never asked."""
    loose = len([w for w in s.unknown if w not in s.aside]) if addressed else len(s.unknown)
    tolerated = 1 if addressed else 0
    return (
        _replay(s, lang, loose)
        or _records(s, lang, loose <= tolerated, asked)
        or _rematch(s, lang, loose)
        or (None if asked else _step(s, lang, loose))
    )


def _replay(s: Said, lang: str, loose: int) -> Command | None:
    """A finished game by its number: "kelaa peli 12", "watch game 12 again", "peli 12 uusintana"."""
    number = replay_number(s.folded)
    asks = s.said & {REPLAY, SHOW, AGAIN, WIND, LEARNT, WANT, GAME, REMATCH}
    if number is None or not asks or loose > 1 or s.said & {ADD, START, "bot", "join"}:
        return None
    return Command("replay", (number,), number, (number,), lang=lang)


def _records(s: Said, lang: str, plain: bool, asked: bool) -> Command | None:
    """Statistics ("tilastot", "kuka on voittanut eniten", "mun voitot", "montako peliä oon
    voittanu") and the history ("vanhat pelit", "mitä pelejä on pelattu", "what games did we play")."""
    said = s.said
    own = OWN in said or s.first_person
    if not plain or said & {NEW, START, ADD}:
        return None
    if STATS in said or (WIN in said and (MOST in said or (own and said & {GAME, GAMES, STATS}))):
        return _plain("my_stats" if any(w in OWNER for w in s.folded) else "stats", lang)
    counted = any(w in _WINS or w in {"many", "montako", "paljonko", "kuinka"} for w in s.folded)
    if WIN in said and own and counted and not said - {WIN, OWN, BE, WANT, "filler", "have", "question"}:
        return _plain("my_stats", lang)  # "mun voitot", "my wins", "how many wins do I have"
    plural = GAMES in said or any(w in {"games", "pelit", "peleja", "pelien"} for w in s.folded)
    if (
        HISTORY in said
        or (said & {OLD, PREVIOUS} and plural)
        or (PLAYED in said and (plural or GAME in said or asked))
    ):
        return _plain("history", lang)
    return None


def _rematch(s: Said, lang: str, loose: int) -> Command | None:
    """A rematch: "otetaan uusiks", "vielä yks erä samoilla", "uusi peli samoilla pelaajilla",
    "again!"; weak unless said outright ("revanssi", the same players): a game's words too."""
    said = s.said
    same_table = SAME in said and said & {PLAYER, GAME}
    if loose or not said <= _REMATCH_AROUND or not (REMATCH in said or AGAIN in said or same_table):
        return None
    if not (REMATCH in said or AGAIN in said or said & {NEW, PLAY, GAME}):
        return None
    certain = bool(same_table) or any(w in _REMATCH_NOUNS for w in s.folded)
    return _plain("rematch", lang, weak=not certain)


def _step(s: Said, lang: str, loose: int) -> Command | None:
    """A step of the replay shown: "seuraava siirto", "yks taaksepäin", "hyppää loppuun", "go back";
    "näytä edellinen peli" is the latest finished game. Weak: several games move with these words."""
    said = s.said
    if loose or s.count not in (None, 1):
        return None
    if GAME in said and PREVIOUS in said and not said - {GAME, PREVIOUS, SHOW, WANT, "filler"}:
        return _plain("replay", lang)
    back = BACK in said and any(w in _BACK_STEPS for w in s.folded) and not (s.first_person or BE in said)
    directions = [d for d in (FIRST, LAST) if d in said] or [d for d in (PREVIOUS, NEXT) if d in said]
    if not directions and back:
        directions = [PREVIOUS]
    if not directions and CONTINUE in said and said <= _STEP_AROUND:
        directions = [NEXT]
    if len(directions) != 1 or not said - {BACK} <= _STEP_AROUND | {directions[0], PREVIOUS, NEXT}:
        return None
    name = {NEXT: "replay_next", PREVIOUS: "replay_previous", FIRST: "replay_start", LAST: "replay_end"}
    topic = "back" if directions == [PREVIOUS] and back and PREVIOUS not in said else ""
    return _plain(name[directions[0]], lang, topic=topic, weak=True)
