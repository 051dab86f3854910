"""Reading a message: :func:`parse_command` and its helpers (see :mod:`chatbot.core.commands` for
the rules that keep the chat and the games safe).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from chatbot.core.commands.command import Command
from chatbot.core.commands.game_names import find_game
from chatbot.core.commands.seats import _seat_command
from chatbot.core.commands.vocabulary import (
    _LEVEL_WORD,
    _LISTED,
    _PHRASES,
    _STEPS,
    _VOCABULARY,
    _WHOLE,
    _WORDS,
    ADD,
    AWAY,
    BACK,
    BE,
    BOT,
    CANCEL,
    DO,
    EN,
    END,
    FI,
    GAME,
    GAMES,
    HAND,
    HELP,
    HISTORY,
    JOIN,
    LANG,
    LEARNT,
    LEAVE,
    LEVELS,
    LIVES,
    MAP,
    MONEY,
    NEW,
    OPTIONS,
    PLAY,
    PLAYER,
    REMATCH,
    REMOVE,
    REPLAY,
    RULES,
    SCORE,
    SHOW,
    START,
    STATS,
    STATUS,
    SWITCH,
    TURN,
    WANT,
    WHERE,
    WHO_HAS,
    WHY,
)
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
    fold,
    is_question,
    match_seat,
    normalise,
    tokens,
)


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


@lru_cache(maxsize=4)
def _lexicon(lemmatizer: Lemmatizer) -> Lexicon:
    # typos only of the words as listed: every inflection of *tulla* or *ottaa* would make game
    # words ("tukaani") near one of them
    return Lexicon(_VOCABULARY, lemmatizer, fuzzy_forms=False)


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
