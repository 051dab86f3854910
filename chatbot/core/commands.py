"""Meta commands (new, join, add bots, start, leave, language, questions…) read from natural text.

A message goes through the same language pipeline as a game move (:class:`chatbot.core.nlp.Lexicon`:
Finnish base forms by Voikko or the word-form table, English stems, numerals in digits or words,
negation), so word order is free and polite or spoken forms work: "haluaisin aloittaa uuden gnavin",
"voisitko lisätä kaksi bottia", "uus gnav 5 bottia", "let's play coloretto with 2 bots", "mä lähden
pois", "vaihda kieli englanniksi". Slash commands (``/uusi``, ``/new``; Telegram allows ASCII only)
are read by their first word as before.

Three rules keep the chat and the games safe:

* A question (``?``, a question word, the clitic *-ko/-kö*) is never a command that changes
  anything: it becomes a question about one's own situation (``ask``), a ``help``/``games`` request,
  or a rule question (``rules``).
* A command made only of words that may also be a game move ("lopeta", "aloitan", "lähden",
  "uusi kortti") is ``weak``: the core lets the game's parser read it first, and uses the command
  only when the game does not understand it.
* Text not addressed to the bot must read as a command: words the command pipeline does not know
  make it chat (``None``). Addressed text with a doubtful destructive command ("lähden kauppaan")
  becomes ``unsure`` and the core asks instead of acting.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from chatbot.core.nlp import (
    DIGIT,
    FILLER,
    NEG,
    NUMERAL,
    OWN,
    SEP,
    Item,
    Lemmatizer,
    Lexicon,
    default_lemmatizer,
    detect_language,
    english_stems,
    fold,
    is_question,
    match_seat,
    normalise,
    numeral_value,
    tokens,
)


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    args: tuple[str, ...] = ()
    raw_args: str = ""
    #: the arguments as typed (case and punctuation kept), for options such as ``rounds=3``
    tokens: tuple[str, ...] = ()
    #: the game a ``new`` names (a game id of the ``games`` given to :func:`parse_command`)
    game: str | None = None
    #: how many AI players ("lisää kaksi bottia", "uus gnav 5 bottia"), None when not said
    count: int | None = None
    #: the AI level word said ("vahva", "easy"), None when not said
    level: str | None = None
    #: made only of words a game move may also use: the game's parser reads the text first
    weak: bool = False
    #: the language the text is written in ("fi", "en"), for answering a question in kind
    lang: str | None = None
    #: for ``ask``: what the question is about (``hand``, ``money``, ``score``, ``lives``,
    #: ``position``, ``turn``, ``holder``, ``learnt``); for ``unsure``: the command it might be
    topic: str = ""
    slash: bool = field(default=False, compare=False)


# --------------------------------------------------------------------------------------------------
# Slash commands and the old one-word forms: the first word decides
# --------------------------------------------------------------------------------------------------

# verb (folded, no slash) -> command name. Slash forms map the same way.
_WORDS: dict[str, str] = {}
for _name, _words in {
    "new": ["uusi", "new", "uusipeli", "newgame", "uus"],
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
    # issue #16: the answer to "fill the empty seats?" and a new game with the same players
    "fill": ["tayta", "taytetaan", "fill"],
    "as_is": ["pelataan_nain", "as_is"],  # the slash forms (/pelataan_nain): ASCII, one word
    "rematch": ["rematch", "revanssi", "uusinta", "uusintapeli"],
}.items():
    for _w in _words:
        _WORDS[_w] = _name

#: the commands of issue #16 keep their listed forms (a first word, a two-word phrase, a whole text):
#: statistics, history, replay and its steps, rematch and the answer to "fill the empty seats?"
_LISTED = frozenset(
    {"stats", "my_stats", "history", "replay", "replay_next", "replay_previous", "replay_end", "replay_start"}
    | {"fill", "as_is", "rematch"}
)
_STEPS = frozenset({"replay_next", "replay_previous", "replay_end", "replay_start"})

# two-word phrases (folded) of those commands
_PHRASES: dict[str, str] = {
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

#: whole texts (folded) that are meta commands (issue #16): the answers to "fill the empty seats
#: with AI players, or play as we are?" and a new game with the same players
_WHOLE: dict[str, str] = {
    "pelataan nain": "as_is",
    "pelataan nain vain": "as_is",
    "as we are": "as_is",
    "play as we are": "as_is",
    "as is": "as_is",
    "tayta tekoalylla": "fill",
    "tayta tekoalyilla": "fill",
    "tayta paikat": "fill",
    "fill with ai": "fill",
    "fill with bots": "fill",
    "fill the seats": "fill",
    "uusi peli samoilla pelaajilla": "rematch",
    "samoilla pelaajilla": "rematch",
    "pelataan uudestaan": "rematch",
    "pelataan uudelleen": "rematch",
    "play again": "rematch",
    "same players again": "rematch",
}


def _listed(words: Sequence[str], folded: Sequence[str], typed: Sequence[str]) -> Command | None:
    """The listed forms of the commands of issue #16 ("tilastot", "näytä peli 12", "seuraava")."""
    whole = _WHOLE.get(" ".join(folded))
    if whole is not None:
        return Command(whole)
    if len(folded) >= 2 and f"{folded[0]} {folded[1]}" in _PHRASES:
        rest = list(words[2:])
        return Command(_PHRASES[f"{folded[0]} {folded[1]}"], tuple(rest), " ".join(rest), tuple(typed[2:]))
    name = _WORDS.get(folded[0])
    if name not in _LISTED or (name in _STEPS and len(words) > 1):
        return None  # "end the game", "seuraava kortti": other words
    if name in {"fill", "as_is", "rematch"} and len(words) > 1:
        return None
    rest = list(words[1:])
    return Command(name, tuple(rest), " ".join(rest), tuple(typed[1:]))


#: commands that only read or explain: never weak, never unsure
_SAFE = frozenset({"help", "rules", "games", "lang", "ask", "options"})

# --------------------------------------------------------------------------------------------------
# The command vocabulary (concept keys are local to this module)
# --------------------------------------------------------------------------------------------------

NEW, GAME, PLAY, START, JOIN, ADD, BOT, REMOVE, AWAY = (
    "new",
    "game",
    "play",
    "start",
    "join",
    "add",
    "bot",
    "remove",
    "away",
)
LEAVE, CANCEL, LANG, EN, FI, SWITCH, STATUS, TURN, SCORE = (
    "leave",
    "cancel",
    "lang",
    "en",
    "fi",
    "switch",
    "status",
    "turn",
    "score",
)
LIVES, MONEY, HAND, HELP, RULES, GAMES, MAP, SHOW, OPTIONS = (
    "lives",
    "money",
    "hand",
    "help",
    "rules",
    "games",
    "map",
    "show",
    "options",
)
END = "end"
STATS, HISTORY, REMATCH, REPLAY = "stats", "history", "rematch", "replay"
BACK, WANT, BE, WHERE, WHO_HAS, WHY, DO, LEARNT, PLAYER = (
    "back",
    "want",
    "be",
    "where",
    "who_has",
    "why",
    "do",
    "learnt",
    "player",
)
LEVELS = {
    "easy": "level:easy",
    "normal": "level:normal",
    "strong": "level:strong",
    "random": "level:random",
    "smart": "level:smart",
}

_VOCABULARY: dict[str, dict[str, tuple[str, ...]]] = {
    "fi": {
        NEW: ("uusi", "uus", "uuden", "uutta", "uusipeli", "uudet"),
        GAME: ("peli", "pelin", "peliä", "pelii", "peliin", "matsi", "erä", "pelikierros", "pelata peli"),
        PLAY: ("pelata", "pelailla", "pelataanko", "pelaa"),
        START: (
            "aloittaa",
            "aloitella",
            "alkaa",
            "aloitus",
            "käynnistää",
            "startata",
            "antaa mennä",
            "anna mennä",
            "annetaan mennä",
            "laittaa käyntiin",
            "pistää käyntiin",
            "panna käyntiin",
            "pistää pystyyn",
            "laittaa pystyyn",
            "käyntiin",
            "pystyyn",
            "mennään",
            "mennään sitten",
        ),
        JOIN: (
            "liittyä",
            "mukaan",
            "mukana",
            "minäkin",
            "mäkin",
            "mäki",
            "minäki",
            "tuun",
            "tulen",
            "lähteä mukaan",
            "tulla mukaan",
            "olla mukana",
            "ottaa mukaan minut",
            "ottakaa mukaan",
            "ottakaa minut mukaan",
        ),
        ADD: (
            "lisätä",
            "lisää",
            "ottaa",
            "tuoda",
            "laittaa",
            "lisäys",
            "heittää",
            "pistää",
            "hakea",
            "haetaan",
        ),
        BOT: (
            "botti",
            "botit",
            "bottia",
            "botteja",
            "botin",
            "bottii",
            "bottei",
            "bottien",
            "botille",
            "botiksi",
            "botteina",
            "tekoäly",
            "tekoälypelaaja",
            "konepelaaja",
            "tietokone",
            "tietokonepelaaja",
            "kone",
            "robotti",
            "ai",
        ),
        REMOVE: ("poistaa", "vähentää", "potkia", "potkaista", "ottaa pois", "heittää pois", "poisto"),
        AWAY: ("pois", "ulos", "pihalle", "täältä", "kesken"),
        LEAVE: ("poistua", "lähteä", "luovuttaa", "jättää", "häipyä", "lähtö", "jättää kesken"),
        CANCEL: ("perua", "peruuttaa", "peruutus", "perutaan"),
        END: ("lopettaa", "päättää", "keskeyttää", "lopetus", "lopettaminen", "poikki", "katki"),
        STATS: ("tilasto", "tilastot", "voittotilasto", "pistetaulu", "kärkilista", "voitot"),
        HISTORY: ("historia", "pelihistoria", "pelatut pelit", "aiemmat pelit", "vanhat pelit"),
        REMATCH: ("revanssi", "uusinta", "uusintapeli", "uusiks", "uusiksi", "samat pelaajat"),
        REPLAY: ("uusinta näytä", "katsoa uudestaan", "toisto"),
        LANG: ("kieli",),
        EN: ("englanti", "englanniksi", "enkku", "enkuksi", "englantia", "eng"),
        FI: ("suomi", "suomeksi", "suomea", "suomen", "fi"),
        SWITCH: ("vaihtaa", "puhua", "käyttää", "kirjoittaa", "vaihto", "asettaa", "muuttaa", "vaihdetaanko"),
        STATUS: ("tila", "tilanne", "pöytä", "pelitilanne", "missä mennään", "mikä tilanne", "pelitila"),
        TURN: ("vuoro", "kenen vuoro", "vuorossa"),
        SCORE: (
            "piste",
            "pisteet",
            "pistetilanne",
            "tulos",
            "tulokset",
            "pistetaulukko",
            "johtaa",
            "johdossa",
            "kärjessä",
            "voitolla",
        ),
        LIVES: ("elämä", "elämät", "henki"),
        MONEY: ("raha", "rahat", "punta", "puntaa", "massi", "fyrkka", "rahaa", "varat"),
        HAND: ("käsi", "kortti", "kortit", "korttini", "käsikortit", "kädessä", "käteni"),
        HELP: ("apu", "apua", "ohje", "ohjeet", "komento", "komennot", "neuvo", "auttaa", "help"),
        RULES: ("sääntö", "säännöt", "selittää", "selitys", "kertoa", "opettaa", "sääntökirja"),
        GAMES: ("pelit", "pelejä", "pelivalikoima"),
        MAP: ("kartta", "lauta", "pelilauta", "kuva", "kuvana"),
        SHOW: ("näyttää", "katsoa", "nähdä", "tsekata", "vilkaista"),
        OPTIONS: ("asetus", "asetukset", "vaihtoehto", "säätö", "säädöt"),
        BACK: ("palata", "takaisin", "takas", "paluu", "tulla takaisin"),
        WANT: (
            "haluta",
            "voida",
            "vois",
            "voisko",
            "voisitko",
            "voitko",
            "voisitteko",
            "saada",
            "pliis",
            "please",
            "pitäisi",
            "pitää",
            "kannattaa",
            "tahtoa",
            "mennä",
            "ruveta",
            "ryhtyä",
            "ois",
            "täytyä",
            "joutua",
            "viittiä",
            "viitsisitkö",
            "voinko",
            "voisinko",
            "saanko",
            "saisinko",
            "pääsenkö",
            "pääsisinkö",
            "tarvita",
            "tarvitaan",
            "tarvii",
            "tarvis",
        ),
        BE: ("olla", "on", "oon", "olen", "ole", "oot", "ollaan", "ois", "onko"),
        WHERE: ("missä", "missäs", "mis", "missä päin", "sijainti"),
        WHO_HAS: ("kenellä", "kenel", "kellä", "kenen hallussa"),
        WHY: ("miksi", "miks", "miksei"),
        DO: ("tehdä", "teen", "tekee", "tekemistä"),
        LEARNT: ("tietää", "nähdä", "näin", "muistaa", "tiedän", "oppia"),
        PLAYER: ("pelaaja", "pelaajaa", "pelaajaksi", "kaveri", "kaveriksi", "vastustaja", "vastustajaa"),
        FILLER: (
            "me",
            "myö",
            "te",
            "meille",
            "mulle",
            "minulle",
            "sulle",
            "sinä",
            "sä",
            "mää",
            "vielä",
            "myös",
            "kans",
            "jo",
            "kai",
            "ihan",
            "heti",
            "uudelleen",
            "uudestaan",
            "tähän",
            "tänne",
            "täällä",
            "tästä",
            "nyt",
            "sitten",
            "sit",
            "vaan",
            "kaikki",
            "yhteensä",
            "lisää",
            "kpl",
            "kappaletta",
            "minulla",
            "mulla",
            "sulla",
            "hetkellä",
            "tällä hetkellä",
            "tällä",
            "jäljellä",
            "minut",
            "mut",
            "siis",
            "äkkiä",
            "no",
            "niin",
            "okei",
            "jee",
            "jes",
            "moi",
            "hei",
            "heippa",
            "morjens",
            "moro",
            "kiitos",
            "kiitti",
            "kaveri",
            "porukka",
            "kanssa",
            "kera",
            "kaa",
            # question words and the others asked about ("kuka johtaa", "paljonko muilla on rahaa")
            "kuka",
            "ketkä",
            "muilla",
            "muiden",
            "muut",
            "kaikilla",
            "moikka",
            "nähdään",
            # small words a command may open with ("kohta tuun mukaan", "okei aloitetaan")
            "kohta",
            "pian",
            "huomenna",
            "tänään",
            "illalla",
            "myöhemmin",
            "just",
            "justiinsa",
            "ok",
            "joo",
            "juu",
            "jep",
            "noni",
            "nonii",
            "sitte",
            "taas",
            "sama",
            "niitä",
            "niitä",
            "pari",
            "yks",
            "yhden",
            "pelaajana",
            "toinen",
            "kaksi",
            "oikein",
            "tehdään",
            "mikä",
            "mitä",
            "mitkä",
            "ootte",
            "olette",
            "täs",
            "tässä",
            "tämän",
            "tähänastiset",
            "nää",
            "ne",
            "bottina",
        ),
        "level:easy": ("helppo", "helpompi", "helppoja", "helppoa", "heikko", "aloittelija"),
        "level:normal": ("normaali", "keskitaso", "tavallinen", "järkevä"),
        "level:strong": ("vahva", "vaikea", "kova", "vahvoja", "vahvaa", "kovaa", "vaikeaa", "taitava"),
        "level:random": ("satunnainen",),
        "level:smart": ("fiksu", "fiksuja", "fiksua"),
    },
    "en": {
        NEW: ("new", "newgame", "another", "set up", "setup"),
        GAME: ("game", "match", "round", "games"),
        PLAY: ("play", "playing"),
        START: (
            "start",
            "begin",
            "launch",
            "kick off",
            "let's go",
            "lets go",
            "go ahead",
            "get going",
            "go go",
            "here we go",
        ),
        JOIN: ("join", "count me in", "i'm in", "im in", "me too", "deal me in", "sign me up", "i'm playing"),
        ADD: ("add", "bring", "get", "put"),
        BOT: ("bot", "ai", "computer", "robot", "cpu", "bots", "computer player"),
        REMOVE: ("remove", "kick", "drop", "delete", "fewer", "less", "take out"),
        AWAY: ("out", "away", "off", "from"),
        LEAVE: (
            "leave",
            "quit",
            "exit",
            "i'm out",
            "im out",
            "give up",
            "resign",
            "count me out",
            "leaving",
            "must go",
            "gotta go",
            "have to go",
            "need to go",
        ),
        CANCEL: ("cancel", "abort", "scrap", "call off", "cancel game"),
        END: ("end", "stop", "finish"),
        STATS: ("stats", "statistics", "leaderboard", "wins"),
        HISTORY: ("history", "past games", "earlier games", "old games"),
        REMATCH: ("rematch", "play again", "same players", "another round"),
        REPLAY: ("replay", "watch again", "rewatch"),
        LANG: ("language", "lang"),
        EN: ("english", "en", "eng"),
        FI: ("finnish", "suomi", "fi", "suomeksi"),
        SWITCH: ("switch", "change", "speak", "use", "talk", "set", "write"),
        STATUS: ("status", "table", "state", "standing", "situation", "where are we"),
        TURN: ("turn", "whose turn", "who's turn", "who is next", "who's next"),
        SCORE: (
            "score",
            "points",
            "scores",
            "standings",
            "scoreboard",
            "winning",
            "leading",
            "in the lead",
            "ahead",
        ),
        LIVES: ("lives", "life"),
        MONEY: ("money", "cash", "pounds", "coins", "funds"),
        HAND: ("hand", "cards", "card", "my hand"),
        HELP: ("help", "commands", "command", "what can i do", "what can you do"),
        RULES: ("rules", "rule", "explain", "rulebook", "teach"),
        GAMES: ("games", "which games", "what games"),
        MAP: ("map", "board", "picture"),
        SHOW: ("show", "see", "look", "view", "display"),
        OPTIONS: ("options", "settings", "option", "setting"),
        BACK: ("back", "rejoin", "return", "i'm back", "im back"),
        WANT: (
            "want",
            "would",
            "like",
            "could",
            "can",
            "please",
            "pls",
            "let",
            "let's",
            "lets",
            "shall",
            "wanna",
            "go",
            "may",
        ),
        BE: ("be", "is", "am", "are", "i'm", "im"),
        WHERE: ("where", "where's", "wheres", "position", "location"),
        WHO_HAS: ("who has", "who's got", "who holds", "who owns", "who has got"),
        WHY: ("why",),
        LEARNT: ("know", "saw", "learnt", "learned", "seen"),
        PLAYER: ("player", "players", "opponent", "opponents", "friend"),
        FILLER: (
            "me",
            "we",
            "us",
            "some",
            "more",
            "again",
            "hey",
            "hi",
            "hello",
            "thanks",
            "thank",
            "everyone",
            "all",
            "right",
            "guys",
            "folks",
            "there",
            "have",
            "got",
            "currently",
            "so",
            "far",
            "yet",
            "pls",
            "one",
            "do",
            "does",
            "are",
            "what",
            "a",
            "couple",
            "of",
            "left",
            "now",
            "here",
            "to",
            "with",
            "and",
            "who",
            "others",
            "bye",
            "goodbye",
            "cya",
            "later",
            "soon",
            "ok",
            "okay",
            "yeah",
            "then",
            "just",
            "also",
        ),
        "level:easy": ("easy", "weak", "beginner"),
        "level:normal": ("normal", "medium", "sensible", "average"),
        "level:strong": ("strong", "hard", "tough", "difficult", "good"),
        "level:random": ("random",),
        "level:smart": ("smart", "clever"),
    },
}

#: inflected forms for the word-form table backend (Voikko reads them by their base forms)
_SURFACE_FI: dict[str, tuple[str, ...]] = {
    JOIN: ("liity", "liityn", "liitytään", "liitymme", "liityttiin", "liittyisin", "liityn mukaan"),
    START: (
        "aloita",
        "aloitetaan",
        "aloitan",
        "aletaan",
        "alotetaan",
        "aloitellaan",
        "aloittakaa",
        "aloitappa",
        "aloitetaas",
    ),
    PLAY: ("pelataan", "pelaamaan", "pelaan", "pelattais", "pelattaisiin", "pelaamaan"),
    WANT: ("haluaisin", "haluun", "haluan", "haluttais", "halutaan", "voin", "voit", "voitaisiin", "voidaan"),
    LEAVE: ("lähden", "lähdetään", "poistun", "jätän", "luovutan", "lähtee"),
    CANCEL: ("peru", "peruuta", "perukaa"),
    END: ("lopeta", "lopetetaan", "lopetan", "keskeytä", "keskeytetään", "päätetään"),
    BACK: ("palaan", "palataan", "tulin takaisin"),
    ADD: ("lisää", "lisätään", "lisäisitkö", "ota", "otetaan", "laita", "laitetaan", "tuo"),
    REMOVE: ("poista", "poistetaan", "poistaisitko"),
    SWITCH: ("vaihda", "vaihdetaan", "puhu", "puhutaan", "käytä"),
    SHOW: ("näytä", "näytäs", "näytätkö", "katso"),
    DO: ("tehdä", "tehdään", "teen"),
}

for _concept, _forms in _SURFACE_FI.items():
    _VOCABULARY["fi"][_concept] = (*_VOCABULARY["fi"][_concept], *_forms)

_LEVEL_WORD = {
    "level:easy": "easy",
    "level:normal": "normal",
    "level:strong": "strong",
    "level:random": "random",
    "level:smart": "smart",
}

# concepts that only a meta command uses: a command with one of them is never weak
_META_ONLY = frozenset({NEW, GAME, JOIN, BOT, LANG, EN, FI, HELP, RULES, GAMES, OPTIONS, BACK, *_LEVEL_WORD})


@lru_cache(maxsize=4)
def _lexicon(lemmatizer: Lemmatizer) -> Lexicon:
    # typos only of the words as listed: every inflection of *tulla* or *ottaa* would make game
    # words ("tukaani") near one of them
    return Lexicon(_VOCABULARY, lemmatizer, fuzzy_forms=False)


# --------------------------------------------------------------------------------------------------
# Game names in any case ("gnavin", "colorettoa", "afrikan tähteä", "Majavajengissä")
# --------------------------------------------------------------------------------------------------


def _word_matches(word: str, alias_word: str, lemmatizer: Lemmatizer) -> bool:
    w, a = fold(word), fold(alias_word)
    if w == a:
        return True
    if len(a) >= 4 and w.startswith(a) and len(w) - len(a) <= 5:
        return True  # a case ending on a foreign or compound name: gnav-in, coloretto-a, majavajengi-ssä
    if len(a) >= 4 and a.endswith("ti") and w.startswith((a[:-2] + "te", a[:-2] + "de")):
        return True  # tähti: tähteä, tähden, tähdessä (the word-form table may not have them)
    return a in {fold(r) for r in lemmatizer.readings(word)}


def find_game(
    words: Sequence[str], games: Mapping[str, Sequence[str]], lemmatizer: Lemmatizer
) -> tuple[str, int, int] | None:
    """(game id, first word, word count) of the longest game name in ``words``, in any case form."""
    best: tuple[str, int, int] | None = None
    for game_id, aliases in games.items():
        for alias in aliases:
            parts = tokens(alias)
            n = len(parts)
            if not parts or (best is not None and n <= best[2]):
                continue
            for i in range(len(words) - n + 1):
                if all(_word_matches(words[i + k], parts[k], lemmatizer) for k in range(n)):
                    best = (game_id, i, n)
                    break
    return best


#: "ilman laajennusta", "without the expansion", "no expansion": the flag after it is off
_WITHOUT = frozenset({"ilman", "without", "no"})
_ARTICLES = frozenset({"the", "a", "an"})


def option_phrases(
    text: str,
    counts: Mapping[str, str],
    flags: Mapping[str, tuple[str, Any]],
    lemmatizer: Lemmatizer,
) -> str:
    """``text`` with the options said in words written as typed options, for the game it names:
    a number and a counted noun ("kahdella kierroksella", "3 rounds", "viidellä elämällä") becomes
    ``rounds=2``, a flag word in any form ("pikapelinä") ``quick_game=on``, and "ilman" / "without"
    before a flag that turns something on ("ilman laajennusta", "without the expansion") turns it
    off. ``counts`` maps counted nouns (base forms, English singulars, or a stem that case endings
    follow) to option keys; ``flags`` are the game's option words (:meth:`GameUI.option_flags`).
    Spoken numerals and clipped cases count ("kahel kierroksel", "viiel elämäl", "kaks kierrosta").
    Other words stay as typed."""
    typed = text.split()

    def lookup(word: str, table: Mapping[str, Any]) -> Any:
        w = normalise(word)
        if not w:
            return None
        forms = {w, fold(w), *english_stems(w), *lemmatizer.readings(w)}
        for form in forms:
            hit = table.get(form, table.get(fold(form)))
            if hit is not None:
                return hit
        return None  # the base forms come from Voikko or the word-form table alike

    folded_counts = {fold(k.casefold()): v for k, v in counts.items()}
    folded_flags = {fold(k.casefold()): v for k, v in flags.items()}
    out: list[str] = []
    i = 0
    while i < len(typed):
        word = typed[i]
        low = fold(normalise(word))
        if "=" in word or not low:
            out.append(word)
            i += 1
            continue
        number = numeral_value(low) if i + 1 < len(typed) else None
        if number is not None:
            key = lookup(typed[i + 1], folded_counts)
            if key is not None:
                out.append(f"{key}={number}")
                i += 2
                continue
        if low in _WITHOUT:
            j = i + 1
            while j < len(typed) and fold(normalise(typed[j])) in _ARTICLES:
                j += 1
            flag = lookup(typed[j], folded_flags) if j < len(typed) else None
            if flag is not None and flag[1] is True:
                out.append(f"{flag[0]}=off")
                i = j + 1
                continue
        flag = lookup(word, folded_flags)
        if flag is not None and low not in folded_flags and isinstance(flag[1], bool):
            out.append(f"{flag[0]}={'on' if flag[1] else 'off'}")  # "pikapelinä": a form of the word
        else:
            out.append(word)
        i += 1
    return " ".join(out)


# --------------------------------------------------------------------------------------------------
# Reading a message
# --------------------------------------------------------------------------------------------------

_MENTION = re.compile(r"^(\S+)@\S+")
#: a request put as a question: "voisitko lisätä botin", "pelataanko gnavia", "could you start"
_REQUEST = re.compile(
    r"^(voisitko|voitko|voisitteko|voitteko|voisiko|voisko|voiks|viitsisitko|viitsitko|"
    r"\w+(t|d|n|l|r)aanko|\w+ttaisiko|\w{3,}isitko)$"  # "lisäisitkö": would you add
)
#: asking leave for oneself: "voisinko liittyä", "saanko tulla mukaan", "could I join"
_MAY_I = re.compile(r"^(voinko|voisinko|saanko|saisinko|paasenko|paasisinko|voisko\s?ma)$")
#: what one may ask leave for: joining, an AI player, coming back, one's language
_MAY_I_COMMANDS = frozenset({"join", "add_ai", "back", "lang"})


def _request(folded: Sequence[str]) -> bool:
    """A request put as a question: "voisitko lisätä botin", "pelataanko gnavia", "can you start"."""
    if _REQUEST.match(folded[0]):
        return True
    return (
        len(folded) > 1
        and folded[0] in {"can", "could", "would", "will", "shall"}
        and folded[1] in {"you", "we"}
    ) or folded[0] in {"wanna", "lets", "let's"}  # "wanna play gnav?"


def _may_i(folded: Sequence[str]) -> bool:
    """Asking leave for oneself ("voisinko liittyä peliin?", "could I join?"): a request when the
    command is one of :data:`_MAY_I_COMMANDS`, otherwise a question."""
    if _MAY_I.match(folded[0]):
        return True
    return len(folded) > 1 and folded[0] in {"can", "could", "may"} and folded[1] == "i"


@dataclass(slots=True)
class _Said:
    said: set[str]
    denied: set[str]
    unknown: list[str]  # the words as typed that mean nothing to the command vocabulary
    count: int | None
    level: str | None
    game: str | None
    level_word: str = ""  # as written ("vahva", "strong"), the argument of add_ai
    #: the sentence is about someone else: it opens with a name, a word the commands do not know
    #: ("Pekka tulee mukaan") or a third-person pronoun ("hän liittyy", "it starts")
    other_subject: bool = False
    #: a bot is named by its number ("Botti 1:lle sammakko", "bot 2 takes it"): a seat, not a count
    bot_named: bool = False
    #: the bot word is a receiver or a source ("botille sammakko", "to the bot"): a move's words
    bot_receiver: bool = False


def _read(
    items: Sequence[Item],
    typed: Sequence[str],
    game_span: tuple[int, int] | None,
    lang: str,
    lemmatizer: Lemmatizer | None = None,
) -> _Said:
    lemmatizer = lemmatizer or default_lemmatizer()
    said: set[str] = set()
    denied: set[str] = set()
    unknown: list[str] = []
    counts: list[int] = []
    level: str | None = None
    level_word = ""
    first = True
    other_subject = bot_named = bot_receiver = False
    previous: Item | None = None
    for item in items:
        if game_span is not None and game_span[0] <= item.start < game_span[0] + game_span[1]:
            continue
        if first:
            first = False
            other_subject = _about_someone_else(item, lemmatizer)
        concepts = set(item.concepts)
        if BOT in concepts and fold(item.text).endswith(_RECEIVER_ENDINGS):
            bot_receiver = True
        if previous is not None and BOT in previous.concepts and item.numbers and not item.concepts:
            bot_named = True  # "Botti 1:lle", "bot 2": the seat's name, not how many
            previous = item
            continue
        if BOT in concepts and previous is not None and fold(previous.text) in {"to", "for", "from"}:
            bot_receiver = True
        previous = item
        if item.fuzzy and len(item.text) < 6:
            concepts = set()  # a short word near a command word is another word ("tulee", "tulen")
        span = range(item.start, min(item.start + len(item.words), len(typed)))
        if "=" in item.text or any("=" in typed[i] for i in span):
            continue  # an option ("kierrokset=3")
        if EN in concepts and NEG in concepts:
            concepts.discard(NEG)  # "kieli en"
        (denied if item.negated else said).update(concepts)
        for concept in concepts:
            if concept in _LEVEL_WORD and not item.negated:
                level = _LEVEL_WORD[concept]
                level_word = item.text
        values = [n.value for n in item.numbers if n.kind in (NUMERAL, DIGIT)]
        if values and not item.concepts - {FILLER}:
            counts.append(values[0])
        elif item.text in {"pari", "couple"}:
            counts.append(2)
        if (not item.known or (not concepts and item.fuzzy)) and item.text not in {"pari", "couple"}:
            unknown.extend(typed[item.start : item.start + len(item.words)])
    return _Said(
        said,
        denied,
        unknown,
        counts[0] if counts else None,
        level,
        None,
        level_word,
        other_subject,
        bot_named,
        bot_receiver,
    )


#: what an add-AI command may say besides the bot: the verb, a want, a level, filler
_ADD_AI_WORDS = frozenset({BOT, ADD, JOIN, WANT, FILLER, OWN, PLAYER, GAME, BE, NEG, SEP, *LEVELS.values()})
#: the allative and ablative of the bot word ("botille", "koneelta"): a receiver or a source
_RECEIVER_ENDINGS = ("lle", "lta", "lt")
#: third-person pronouns: a sentence opening with one is about someone else
_THIRD_PERSON = frozenset({"han", "he", "she", "they", "hankin", "hanki"})


def _about_someone_else(item: Item, lemmatizer: Lemmatizer) -> bool:
    """Whether the first item makes a third party the subject: a third-person pronoun, a seat's
    name, or a word that is neither a command word nor an inflected dictionary word, as a name is
    ("Pekka tulee mukaan", "Botti 1 aloittaa"; "tarvitaan botti" opens with a verb). The small
    words a command may open with ("kohta", "okei", "no") are known fillers."""
    if fold(item.text) in _THIRD_PERSON:
        return True
    if item.numbers or (item.known and item.concepts):
        return False
    return not lemmatizer.known(item.words[0])


#: a game span not looked for yet (``parse_command(found=...)``)
UNSEEN: Any = object()


def _body(text: str) -> tuple[str, bool]:
    """The text without a leading slash or "!" and without the bot's @name after the command."""
    stripped = text.strip()
    slash = stripped.startswith(("/", "!"))
    body = stripped[1:] if slash else stripped
    return _MENTION.sub(r"\1", body), slash  # "/uusi@pelibotti majavajengi"


def game_in(
    text: str, games: Mapping[str, Sequence[str]], lemmatizer: Lemmatizer
) -> tuple[str, int, int] | None:
    """The game ``text`` names, as :func:`parse_command` finds it: (game id, first word, word count)
    over the words that are not typed options ("tahti=päivä" names no "tähti")."""
    body, _ = _body(text)
    named_words = normalise(" ".join(w for w in body.split() if "=" not in w)).split()
    return find_game(named_words, games, lemmatizer)


def parse_command(
    text: str,
    games: Mapping[str, Sequence[str]] | None = None,
    lang: str = "fi",
    *,
    addressed: bool = False,
    lemmatizer: Lemmatizer | None = None,
    known: Collection[str] = (),
    names: Sequence[str] = (),
    found: tuple[str, int, int] | None = UNSEEN,
) -> Command | None:
    """The meta command in ``text``, or None (a game move or chat).

    ``games`` maps game ids to their names (aliases) so that "uus gnav" names the game; ``lang`` is
    the speaker's language, used when the text is too short to tell; ``addressed`` is false for a
    group message that neither mentions nor answers the bot: then only a text that reads wholly as
    a command is one. ``known`` are more words (casefolded) that count as understood: the games'
    option words ("pikapeli"). ``names`` are the seats' names at the table: a name is never read as
    a command word ("anna papukaija Botti 1:lle" gives a card, it adds no bot). ``found`` is the game
    span of :func:`game_in` when the caller looked for it already (each message once)."""
    lemmatizer = lemmatizer or default_lemmatizer()
    stripped = text.strip()
    body, slash = _body(text)
    norm = normalise(body)
    if not norm:
        return None
    words = norm.split()
    typed = body.split()
    folded = [fold(w) for w in words]
    written = detect_language(body, lang, lemmatizer)
    seat_command = _seat_command(words, folded, typed)
    if seat_command is not None:
        return seat_command
    listed = _listed(words, folded, typed) if not slash or _WORDS.get(folded[0]) in _LISTED else None
    if listed is not None:
        return dataclasses.replace(listed, slash=slash)
    if found is UNSEEN:
        found = game_in(text, games or {}, lemmatizer)
    game = found[0] if found else None
    if slash:
        name = _WORDS.get(folded[0])
        if name is not None:
            rest = words[1:]
            count, level = _slash_extras(name, rest, typed[1:], lang, lemmatizer)
            return Command(
                name,
                tuple(rest),
                " ".join(rest),
                tuple(typed[1:]),
                game=game,
                slash=True,
                count=count,
                level=level,
            )
    # options ("kierrokset=3") are passed on as typed and not read as words
    typed = [w for w in body.split() if "=" not in w] or typed
    options = [w for w in body.split() if "=" in w]
    body = " ".join(w for w in body.split() if "=" not in w)
    words = normalise(body).split() or words
    if len(typed) != len(words):
        typed = words
    lexicon = _lexicon(lemmatizer)
    items = lexicon.scan(body, written)
    if names:
        items = _without_names(items, words, names)
    said = _read(items, typed, (found[1], found[2]) if found else None, written, lemmatizer)
    if known:
        folded_known = {fold(k) for k in known}
        said.unknown = [w for w in said.unknown if fold(normalise(w)) not in folded_known]
    said.game = game
    if LANG in said.said and "en" in words:
        said.said.add(EN)  # "kieli en": the language code, not the negation
    question = is_question(stripped, lemmatizer)
    may_i = question and _may_i(folded)
    if question and not _request(folded) and not may_i:
        return _question(words, typed, said, written)
    command = _decide(words, typed, said, written, addressed)
    if may_i and command is not None and command.name not in _MAY_I_COMMANDS:
        command = None  # "voinko vaihtaa jakajan kanssa?": a rule question
    if question and (command is None or command.name == "unsure"):
        return _question(words, typed, said, written)
    if command is None:
        return None
    if options:
        command = dataclasses.replace(command, tokens=(*command.tokens, *options))
    if slash:
        return dataclasses.replace(command, weak=False, slash=True)
    return command


def _without_names(items: Sequence[Item], words: Sequence[str], names: Sequence[str]) -> list[Item]:
    """The items with the words of a seat's name ("Botti 1", "Liisalle") stripped of meaning."""
    taken: set[int] = set()
    longest = max((len(tokens(n)) for n in names), default=0)
    i = 0
    while i < len(words):
        for n in range(min(longest + 1, len(words) - i), 0, -1):
            if match_seat(" ".join(words[i : i + n]), names, loose=False):
                taken.update(range(i, i + n))
                i += n - 1
                break
        i += 1
    if not taken:
        return list(items)
    return [
        dataclasses.replace(item, concepts=frozenset(), numbers=())
        if any(k in taken for k in range(item.start, item.start + len(item.words)))
        else item
        for item in items
    ]


def _slash_extras(
    name: str, rest: Sequence[str], typed: Sequence[str], lang: str, lemmatizer: Lemmatizer
) -> tuple[int | None, str | None]:
    """``/new gnav 3 bots``, ``/bot 2 vahva``: the count and level of a slash command's arguments."""
    if name not in {"new", "add_ai", "remove_ai"} or not rest:
        return None, None
    plain = normalise(" ".join(w for w in typed if "=" not in w))
    items = _lexicon(lemmatizer).scan(plain, lang)
    said = _read(items, plain.split(), None, lang, lemmatizer)
    count = said.count if (name != "new" or BOT in said.said) else None
    return count, said.level


def _decide(
    words: Sequence[str], typed: Sequence[str], s: _Said, lang: str, addressed: bool
) -> Command | None:
    said, unknown = s.said, s.unknown
    rest = tuple(words)

    def make(name: str, *, weak: bool = False, toks: Sequence[str] = (), **extra: object) -> Command:
        return Command(name, rest, " ".join(rest), tuple(toks), lang=lang, weak=weak, **extra)  # type: ignore[arg-type]

    # how much of the text is not command words: chat unless addressed
    loose = len(unknown)

    # language: "vaihda kieli englanniksi", "switch to finnish", "puhu suomea", "english please"
    target = "en" if EN in said and FI not in said else "fi" if FI in said and EN not in said else None
    if LANG in said or (target and (SWITCH in said or WANT in said or len(words) <= 2)):
        if loose > 1 and not addressed:
            return None
        return make("lang", toks=(target,) if target else ()) if target else make("lang")

    # a new game: "uusi gnav", "haluaisin aloittaa uuden gnavin", "let's play coloretto with 2 bots"
    if s.game is not None and (said & {NEW, START, PLAY, BOT, ADD} or (WANT in said and not unknown)):
        if loose > 0 and not addressed:
            return None
        count = s.count if BOT in said else None
        # a game's name may be a word of a move ("put the amazon river dolphin in my row", "tuon
        # tähden Kairoon"): without "uusi"/"peli"/bots the game reads the text first
        weak = not said & {NEW, GAME, BOT}
        return make("new", toks=typed, game=s.game, count=count, level=s.level, weak=weak)
    if NEW in said and (GAME in said or (not unknown and s.game is None and len(words) == 1)):
        return make("new", toks=typed)
    if NEW in said and s.game is None:
        # "uusi kortti" is a game's own; "uusi peli" above. A weak "new" lets the game read it.
        if loose > 2 and not addressed:
            return None
        return make(
            "new", weak=True, toks=[w for w in typed if fold(normalise(w)) not in {"uusi", "uus", "new"}]
        )

    # AI players: "lisää kaksi bottia", "add 2 bots", "botti pois", "poista yks botti", "vahva botti"
    if BOT in said or (s.level and (ADD in said or PLAYER in said)):
        if loose > 1 and not addressed:
            return None
        if REMOVE in said or AWAY in said:
            return make("remove_ai", count=s.count)
        if BOT in s.denied or s.bot_receiver or s.other_subject:
            return None  # "botille sammakko", "Pekka lisää botin": a move's receiver, or not to us
        if (unknown or BE in said) and not said & {ADD, JOIN}:
            return None  # "botti voitti", "bots are dumb", "tää botti on hyvä": talk about bots
        extra = said - _ADD_AI_WORDS
        if extra and not (ADD in said and extra <= {START}):
            return None  # "the bot wins", "ota botti 1:n kortti": other things said of a bot
        if s.bot_named and not (ADD in said and not unknown):
            return None  # "Botti 1:lle sammakko", "bot 2 takes it": a seat by its name
        args = (s.level_word,) if s.level_word else ()
        return Command("add_ai", args, " ".join(args), args, lang=lang, count=s.count, level=s.level)

    # rejoin: "palaan peliin", "oon takas", "i'm back"
    if BACK in said and not unknown:
        return make("back")

    # join: "liity", "mä tuun mukaan", "count me in", "liity Liisa" (a second seat under that name)
    if JOIN in said and JOIN not in s.denied:
        if (loose > 1 and not addressed) or s.other_subject:
            return None  # "Pekka tulee mukaan", "hän liittyy": someone else joins, not the speaker
        # "liity Liisa": one more seat under that name; only right after the verb
        named = fold(words[0]) in {"liity", "liityn", "join"} and list(unknown) == list(typed[1:])
        return make("join", toks=unknown if named else ())

    # leaving and ending: never on a doubtful text
    # "lopeta" alone is a game's move (Majavajengi's Draw 2); ending needs the game: "lopeta peli"
    if CANCEL in said or (END in said and GAME in said):
        if unknown:
            return make("unsure", topic="cancel", weak=True) if addressed else None
        return make("cancel", weak=GAME not in said)
    if LEAVE in said:
        if s.other_subject:
            return None  # "Matti lähtee pois": news of someone else
        if unknown:
            return make("unsure", topic="leave", weak=True) if addressed else None
        return make("leave", weak=GAME not in said and AWAY not in said)
    if AWAY in said and said <= {AWAY, OWN, FILLER, WANT, BE, GAME} and GAME in said and not unknown:
        return make("leave")  # "mä oon pois pelistä"

    if START in said and START not in s.denied:
        if unknown:
            return None if not addressed else make("unsure", topic="start", weak=True)
        return make("start", weak=GAME not in said)

    # issue #16 in other words: "näytä mun tilastot", "show me the leaderboard", "revanssi!",
    # "näytä peli 12", "replay game #3", "mitä on pelattu" (history)
    if REMATCH in said and not unknown:
        return make("rematch")
    if STATS in said and not unknown:
        mine = {"my", "mine", "mun", "minun", "oma", "omat", "omani", "mulla", "minulla", "ma", "mina"}
        return make("my_stats" if any(fold(w) in mine for w in words) else "stats")
    if HISTORY in said and not unknown:
        return make("history")
    numbers = [w for w in words if w.lstrip("#").isdigit()]
    if (REPLAY in said or (SHOW in said and GAME in said)) and numbers and len(unknown) <= len(numbers):
        return Command("replay", tuple(numbers), " ".join(numbers), tuple(numbers), lang=lang)
    if RULES in said:
        return make("rules", toks=typed)  # "explain knocking": the other words name the rule
    if loose > (1 if addressed else 0):
        return None
    if HELP in said:
        return make("help")
    if GAMES in said:
        return make("games")
    if OPTIONS in said:
        return make("options", toks=typed)
    if MAP in said:
        return make("map", weak=True)
    if HAND in said and (SHOW in said or OWN in said or len(words) == 1):
        return make("hand", weak=True)
    if STATUS in said or TURN in said or SCORE in said or LIVES in said:
        return make("status", weak=True)
    return None


def _question(words: Sequence[str], typed: Sequence[str], s: _Said, lang: str) -> Command:
    """A question: about one's own situation (``ask``), the commands (``help``), the games
    (``games``), or else a rule (``rules``; "why" questions included)."""
    said = s.said | s.denied
    rest = tuple(words)
    raw = " ".join(rest)

    def ask(topic: str) -> Command:
        return Command("ask", rest, raw, tuple(typed), lang=lang, topic=topic)

    first = fold(words[0])
    plain = not s.unknown  # every word is a question or command word: about now, not a rule
    own = OWN in said or any(fold(w) in _FIRST_PERSON for w in words)
    if WHY in said or first in {"miksi", "miks", "why", "miksei"}:
        return Command("rules", rest, raw, tuple(typed), lang=lang)
    if (HELP in said or (DO in said and (own or WANT in said) and TURN not in said)) and plain:
        return Command("help", rest, raw, tuple(typed), lang=lang)
    if GAMES in said and plain and not s.game:
        return Command("games", rest, raw, tuple(typed), lang=lang)
    if (
        TURN in said
        and (plain or first in {"kenen", "whose"})
        and (first in {"kenen", "whose", "kuka", "who"} or own)
    ):
        return ask("turn")
    if WHO_HAS in said:
        return ask("holder")
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
    return Command("rules", rest, raw, tuple(typed), lang=lang)


_FIRST_PERSON = frozenset(
    {
        "mulla",
        "minulla",
        "mun",
        "minun",
        "ma",
        "maa",
        "mina",
        "mie",
        "miun",
        "oon",
        "olen",
        "mulle",
        "minulle",
        "i",
        "my",
        "me",
        "im",
        "i'm",
        "mine",
        "minusta",
        "musta",
        "minua",
        "mua",
        "oonko",
        "olenko",
        "kadessani",
        "korttini",
        "rahani",
        "pisteeni",
        "elamani",
    }
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
        # "otan sen", "I take it" also accept a gift or a card: the running game reads them first
        return Command("take_seat", weak=not any(w in {"paikan", "paikkasi", "seat"} for w in folded))
    if n >= 2 and folded[0] in _KICK_HEADS:
        rest = [w for w in words[1:] if fold(w) not in {"pelista", "from", "the", "game", "out"}]
        if rest and all(fold(w) in {"bot", "botti", "bots", "ai"} for w in rest):
            return None  # "kick bot": an AI seat, not a person's
        return Command("kick", tuple(rest), " ".join(rest)) if rest else None
    if n >= 3 and folded[0] in {"poista", "remove"} and folded[-1] in {"pelista", "game", "peleista"}:
        rest = [w for w in words[1:-1] if fold(w) not in {"from", "the"}]
        if rest and all(fold(w) in {"bot", "botti", "bots", "ai", "yksi", "yks", "one", "a"} for w in rest):
            return None  # "poista botti pelistä": an AI seat
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
            rest = [w for w in words[skip:] if fold(w) not in {"to", "over", "the", "a", "an"}]
            if rest and all(fold(w) in _BOT_WORDS for w in rest):
                return Command("leave")  # "anna paikkani botille": an AI takes the seat, as on leaving
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
