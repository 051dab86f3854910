"""Meta commands (new, join, start, leave, rules, language…) recognised before any game parser.

Commands may come as ASCII slash commands (``/uusi``, ``/new``; Telegram allows ASCII only) or as
plain words in Finnish or English. Only the first word (or a fixed two-word phrase) decides, so a
game command such as "lopeta" (stop a Draw 2) is never taken for a meta command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chatbot.core.nlp import fold, normalise


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    args: tuple[str, ...] = ()
    raw_args: str = ""
    #: the arguments as typed (case and punctuation kept), for options such as ``rounds=3``
    tokens: tuple[str, ...] = ()


# verb (folded, no slash) -> command name. Slash forms map the same way.
_WORDS: dict[str, str] = {}
for _name, _words in {
    "new": ["uusi", "new", "uusipeli", "newgame"],
    "join": ["liity", "liityn", "liitytaan", "mukaan", "join", "minakin"],
    "add_ai": ["botti", "lisaabotti", "addai", "addbot", "bot", "ai"],
    "remove_ai": ["poistabotti", "removeai", "removebot", "kickbot"],
    "start": ["aloita", "aloitetaan", "aloitan", "start", "begin", "alkaa"],
    "leave": ["poistu", "poistun", "lahden", "leave", "quit"],
    "cancel": ["peru", "peruuta", "perutaan", "cancel", "abort"],
    "status": [
        "tila",
        "status",
        "tilanne",
        "poyta",
        "table",
        "pisteet",
        "score",
        "scores",
        "elamat",
        "lives",
    ],
    "help": ["apua", "ohje", "ohjeet", "help", "commands", "komennot"],
    "lang": ["kieli", "lang", "language"],
    "rules": ["saannot", "saanto", "rules", "rule", "explain", "selita", "selitys"],
    "games": ["pelit", "games"],
    "hand": ["kasi", "kortit", "korttini", "hand", "cards"],
    "map": ["kartta", "map", "lauta", "kuva", "picture"],
    "options": ["asetukset", "asetus", "options", "option", "settings"],
    "back": ["palaan", "back", "rejoin"],
    # statistics, history and replay (issue #16); the step words act only on a replay shown in the
    # chat and only when the speaker is not in a running game (they are moves in several games)
    "stats": ["tilastot", "tilasto", "stats", "statistics", "leaderboard"],
    "my_stats": ["tilastoni", "omattilastot", "mystats"],
    "history": ["historia", "pelihistoria", "history"],
    "replay": ["replay", "naytapeli"],
    "replay_next": ["seuraava", "next"],
    "replay_previous": ["edellinen", "previous", "prev"],
    "replay_end": ["loppuun", "end"],
    "replay_start": ["alkuun"],
}.items():
    for _w in _words:
        _WORDS[_w] = _name

# two-word phrases (folded) that are meta commands
_PHRASES: dict[str, str] = {
    "lisaa botti": "add_ai",
    "lisaa tekoaly": "add_ai",
    "lisaa ai": "add_ai",
    "add ai": "add_ai",
    "add bot": "add_ai",
    "add computer": "add_ai",
    "poista botti": "remove_ai",
    "poista tekoaly": "remove_ai",
    "remove ai": "remove_ai",
    "remove bot": "remove_ai",
    "lopeta peli": "cancel",
    "end game": "cancel",
    "cancel game": "cancel",
    "peru peli": "cancel",
    "peruuta peli": "cancel",
    "uusi peli": "new",
    "new game": "new",
    "aloita peli": "start",
    "start game": "start",
    "mika tilanne": "status",
    "missa mennaan": "status",
    "kenen vuoro": "status",
    "whose turn": "status",
    "my hand": "hand",
    "minun korttini": "hand",
    "mun kortit": "hand",
    "nayta kateni": "hand",
    "nayta korttini": "hand",
    "my card": "hand",
    "my cards": "hand",
    "nayta kortit": "hand",
    "show hand": "hand",
    "show cards": "hand",
    "nayta pisteet": "status",
    "show score": "status",
    "show scores": "status",
    "nayta kartta": "map",
    "nayta lauta": "map",
    "show map": "map",
    "show board": "map",
    "nayta kuva": "map",
    "show picture": "map",
    "nayta poyta": "status",
    "show table": "status",
    "palaan peliin": "back",
    "palaan mukaan": "back",
    "olen takaisin": "back",
    "tulin takaisin": "back",
    "oon takas": "back",
    "oon takaisin": "back",
    "i'm back": "back",
    "im back": "back",
    "back again": "back",
    "omat tilastot": "my_stats",
    "omat tilastoni": "my_stats",
    "minun tilastoni": "my_stats",
    "mun tilastot": "my_stats",
    "my stats": "my_stats",
    "my statistics": "my_stats",
    "nayta tilastot": "stats",
    "show stats": "stats",
    "nayta historia": "history",
    "show history": "history",
    "nayta peli": "replay",
    "katso peli": "replay",
    "replay game": "replay",
    "show game": "replay",
}

#: "lisää vahva botti", "add strong bot": an AI level between the verb and the noun (folded words)
_ADD_VERBS = frozenset({"lisaa", "add"})
_BOT_NOUNS = frozenset({"botti", "tekoaly", "ai", "bot", "computer"})
_LEVEL_WORDS = frozenset(
    {"helppo", "normaali", "vahva", "vaikea", "fiksu", "jarkeva", "satunnainen"}
    | {"easy", "normal", "strong", "hard", "smart", "sensible", "random"}
)

_QUESTION = re.compile(
    r"^(miten|kuinka|mita|mika|mitka|mikä|mitä|saako|voiko|how|what|why|can|explain|selita|kerro)\b"
)


#: seat commands (issue #13) whose argument is a player's name, in any case form:
#: kick ("poista Pekka pelistä", "kick Pekka"), to_ai ("anna Pekan paikka botille"), restore
#: ("palauta Pekka peliin"), hand_over ("anna paikkani Liisalle") and take_seat ("otan paikan")
_KICK_HEADS = {"kick", "potki", "potkaise", "erota"}
_RESTORE_HEADS = {"palauta", "restore"}
_SEAT_WORDS = {"paikka", "paikan", "paikkaa", "paikkansa", "seat"}
_BOT_WORDS = {"botille", "bot", "botti", "tekoalylle", "ai", "koneelle", "computer"}
_MY_SEAT = {"paikkani", "paikkaani", "paikkasi"}
_TAKE = {
    "otan paikan",
    "otan paikkasi",
    "otan sen",
    "otan paikan vastaan",
    "take seat",
    "take the seat",
    "i take the seat",
    "i take it",
    "accept seat",
    "accept the seat",
}


def _seat_command(words: list[str], folded: list[str], typed: list[str]) -> Command | None:
    n = len(folded)
    joined = " ".join(folded)
    if joined in _TAKE:
        return Command("take_seat")
    if n >= 2 and folded[0] in _KICK_HEADS:
        rest = [w for w in words[1:] if fold(w) not in {"pelista", "from", "the", "game", "out"}]
        return Command("kick", tuple(rest), " ".join(rest)) if rest else None
    if n >= 3 and folded[0] in {"poista", "remove"} and folded[-1] in {"pelista", "game", "peleista"}:
        rest = [w for w in words[1:-1] if fold(w) not in {"from", "the"}]
        return Command("kick", tuple(rest), " ".join(rest)) if rest else None
    if n >= 2 and folded[0] in _RESTORE_HEADS:
        rest = [w for w in words[1:] if fold(w) not in {"peliin", "paikalleen", "back", "to", "the", "game"}]
        rest = [w for w in rest if fold(w) not in _SEAT_WORDS]
        return Command("restore", tuple(rest), " ".join(rest)) if rest else None
    if n >= 3 and folded[0] == "bring" and "back" in folded:
        rest = [w for w in words[1:] if fold(w) not in {"back", "to", "the", "game"}]
        return Command("restore", tuple(rest), " ".join(rest)) if rest else None
    if n >= 3 and folded[0] in {"anna", "give", "hand", "luovuta"}:
        if folded[1] in _MY_SEAT or (n >= 3 and folded[1] == "my" and folded[2] == "seat"):
            skip = 2 if folded[1] in _MY_SEAT else 3
            rest = [w for w in words[skip:] if fold(w) not in {"to", "over"}]
            return Command("hand_over", tuple(rest), " ".join(rest))
        if folded[-1] in _BOT_WORDS and any(w in _SEAT_WORDS or w.endswith("seat") for w in folded):
            rest = [
                w
                for w in words[1:-1]
                if fold(w) not in _SEAT_WORDS and fold(w) not in {"to", "a", "an", "the"}
            ]
            return Command("to_ai", tuple(rest), " ".join(rest)) if rest else None
        if n >= 3 and folded[-1] == "back" and folded[-2] in _SEAT_WORDS:
            rest = [w for w in words[1:-2]]
            return Command("restore", tuple(rest), " ".join(rest)) if rest else None
    if n == 2 and folded[0] in {"anna", "give", "hand", "luovuta"} and folded[1] in _MY_SEAT:
        return Command("hand_over")
    if n == 3 and folded[:3] == ["give", "my", "seat"]:
        return Command("hand_over")
    return None


def parse_command(text: str) -> Command | None:
    """The meta command in ``text``, or None. Questions about rules become ``rules`` commands."""
    stripped = text.strip()
    slash = stripped.startswith(("/", "!"))
    body = stripped[1:] if slash else stripped
    # "/uusi@pelibotti majavajengi": drop a Telegram bot mention on the command
    body = re.sub(r"^(\S+)@\S+", r"\1", body)
    norm = normalise(body)
    if not norm:
        return None
    words = norm.split()
    typed = body.split()
    folded = [fold(w) for w in words]
    seat_command = _seat_command(words, folded, typed)
    if seat_command is not None:
        return seat_command
    if len(folded) >= 2:
        phrase = f"{folded[0]} {folded[1]}"
        if phrase in _PHRASES:
            rest = words[2:]
            return Command(_PHRASES[phrase], tuple(rest), " ".join(rest), tuple(typed[2:]))
    if len(folded) >= 3 and folded[0] in _ADD_VERBS and folded[1] in _LEVEL_WORDS and folded[2] in _BOT_NOUNS:
        rest = [folded[1], *words[3:]]
        return Command("add_ai", tuple(rest), " ".join(rest), (typed[1], *typed[3:]))
    head = folded[0]
    name = _WORDS.get(head)
    if name is not None:
        # bare words that double as game commands ("lähden Kairosta", "aloitan Kairosta") stay
        # game commands unless slashed
        if (
            not slash
            and name in {"hand", "status", "map", "leave", "start", "cancel", "back"}
            and len(words) > 1
        ):
            return None
        if not slash and name == "new" and len([w for w in typed[1:] if "=" not in w]) > 4:
            return None  # a long sentence starting with "uusi" is not a command ("uusi afrikan
            #              tähti pikapeli laajennus" is one: a game's name and option words)
        return Command(name, tuple(words[1:]), " ".join(words[1:]), tuple(typed[1:]))
    if _QUESTION.match(norm) or norm.endswith("?") or stripped.endswith("?"):
        return Command("rules", tuple(words), norm)
    return None
