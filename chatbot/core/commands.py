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
}

_QUESTION = re.compile(
    r"^(miten|kuinka|mita|mika|mitka|mikä|mitä|saako|voiko|how|what|why|can|explain|selita|kerro)\b"
)


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
    if len(folded) >= 2:
        phrase = f"{folded[0]} {folded[1]}"
        if phrase in _PHRASES:
            rest = words[2:]
            return Command(_PHRASES[phrase], tuple(rest), " ".join(rest), tuple(typed[2:]))
    head = folded[0]
    name = _WORDS.get(head)
    if name is not None:
        # bare words that double as game commands ("lähden Kairosta", "aloitan Kairosta") stay
        # game commands unless slashed
        if not slash and name in {"hand", "status", "map", "leave", "start", "cancel"} and len(words) > 1:
            return None
        if not slash and name == "new" and len([w for w in typed[1:] if "=" not in w]) > 4:
            return None  # a long sentence starting with "uusi" is not a command ("uusi afrikan
            #              tähti pikapeli laajennus" is one: a game's name and option words)
        return Command(name, tuple(words[1:]), " ".join(words[1:]), tuple(typed[1:]))
    if _QUESTION.match(norm) or norm.endswith("?") or stripped.endswith("?"):
        return Command("rules", tuple(words), norm)
    return None
