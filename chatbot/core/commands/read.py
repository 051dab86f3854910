"""Reading a message: :func:`parse_command` and its helpers (see :mod:`chatbot.core.commands` for
the rules that keep the chat and the games safe).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from typing import Any

from chatbot.core.commands.after import _REMATCH_NOUNS, after_game
from chatbot.core.commands.asking import question as question_asked
from chatbot.core.commands.command import Command
from chatbot.core.commands.game_names import find_game
from chatbot.core.commands.lobby_words import (
    QUIET_HOURS,
    fill_answer,
    options_command,
    pace_tokens,
    says_pace,
)
from chatbot.core.commands.more_words import AGAIN, EMPTY, FILL, GIVE, KICK, PLAYED, SAME, SEAT, TAKE
from chatbot.core.commands.said import Said, persons_in, read_items, unknown_names, without_names
from chatbot.core.commands.seats import seat_command
from chatbot.core.commands.vocabulary import (
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
    RULES,
    SCORE,
    SHOW,
    START,
    STATS,
    STATUS,
    SWITCH,
    TURN,
    WANT,
)
from chatbot.core.nlp import (
    FILLER,
    NEG,
    OWN,
    SEP,
    Lemmatizer,
    Lexicon,
    clause_starts,
    default_lemmatizer,
    detect_language,
    fold,
    is_question,
    normalise,
    number_words,
)


def _listed(words: Sequence[str], folded: Sequence[str], typed: Sequence[str]) -> Command | None:
    """The listed forms of the commands of issue #16 ("tilastot", "näytä peli 12", "seuraava")."""
    whole = _WHOLE.get(" ".join(folded))
    if whole is not None:
        return Command(whole)
    if len(folded) >= 2 and f"{folded[0]} {folded[1]}" in _PHRASES:
        rest = list(words[2:])
        phrase = _PHRASES[f"{folded[0]} {folded[1]}"]
        if phrase != "replay" and any(not w.lstrip("#").isdigit() for w in rest):
            return None  # "my stats homework is due": other words, read as a whole
        return Command(phrase, tuple(rest), " ".join(rest), tuple(typed[2:]))
    name = _WORDS.get(folded[0])
    if name not in _LISTED or (name in _STEPS and len(words) > 1):
        return None  # "end the game", "seuraava kortti": other words
    if name in {"fill", "as_is", "rematch"} and len(words) > 1:
        return None
    rest = list(words[1:])
    return Command(name, tuple(rest), " ".join(rest), tuple(typed[1:]))


#: nouns of the commands that the dictionary lacks and whose case forms are read by their stem
#: ("botti": "boteilla", "botilla"; "fyrkka": "fyrkkaa"; "revari": "revaria")
_STEMMED = frozenset({BOT, MONEY, REMATCH, STATS, PLAYER, HISTORY})


@lru_cache(maxsize=4)
def _lexicon(lemmatizer: Lemmatizer) -> Lexicon:
    # typos only of the words as listed: every inflection of *tulla* or *ottaa* would make game
    # words ("tukaani") near one of them
    return Lexicon(_VOCABULARY, lemmatizer, fuzzy_forms=False, stems=_STEMMED, spoken=True)


_MENTION = re.compile(r"^(\S+)@\S+")
#: a request put as a question: "voisitko lisätä botin", "pelataanko gnavia", "could you start"
_REQUEST = re.compile(
    r"^(voisitko|voitko|voisitteko|voitteko|voisiko|voisko|voiks|viitsisitko|viitsitko|"
    r"\w+(t|d|n|l|r)aan(ko|ks)|\w+ttaisiko|\w{3,}isitko)$"  # "lisäisitkö": would you add
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
        and folded[1] in {"you", "we", "u", "ya"}
    ) or folded[0] in {"wanna", "lets", "let's"}  # "wanna play gnav?"


def _may_i(folded: Sequence[str]) -> bool:
    """Asking leave for oneself ("voisinko liittyä peliin?", "could I join?"): a request when the
    command is one of :data:`_MAY_I_COMMANDS`, otherwise a question."""
    if _MAY_I.match(folded[0]):
        return True
    return len(folded) > 1 and folded[0] in {"can", "could", "may"} and folded[1] == "i"


#: what an add-AI command may say besides the bot: the verb, a want, a level, filler
_ADD_AI_WORDS = frozenset(
    {BOT, ADD, JOIN, WANT, FILLER, OWN, PLAYER, GAME, BE, NEG, SEP, AGAIN, SEAT, EMPTY, TAKE, GIVE, PLAY}
    | set(LEVELS.values())
)


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
    listed = _listed(words, folded, typed) if not slash or _WORDS.get(folded[0]) in _LISTED else None
    if listed is not None:
        if (listed.name == "rematch" and folded[0] not in _REMATCH_NOUNS) or listed.name in _STEPS:
            listed = dataclasses.replace(listed, weak=True)  # "uusinta" may be a reroll, "seuraava" a move
        numbered = listed.name == "replay"  # "näytä peli 12": the number is the game's
        counted = numbered or listed.name in _STEPS  # "yks taaksepäin": the steps' count
        unread = tuple(w for w in listed.args if not (counted and number_words(w.lstrip("#"))))
        return dataclasses.replace(listed, slash=slash, unread=unread)
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
    persons = persons_in(words, typed, names) if names else []
    items = without_names(items, persons)
    said = read_items(items, typed, (found[1], found[2]) if found else None, lemmatizer, clause_starts(body))
    seated = {k for p in persons for k in range(p.start, p.start + p.length)}
    strangers = [p for p in unknown_names(items, typed, words) if p.start not in seated]
    said.persons = sorted([*persons, *strangers], key=lambda p: p.start)
    said.folded = [fold(w) for w in words]
    if known:
        folded_known = {fold(k) for k in known}
        said.unknown = [w for w in said.unknown if fold(normalise(w)) not in folded_known]
    said.game = game
    if not addressed:
        said.unknown += said.guessed  # a typo guessed is no certainty among friends
    if PLAY in said.said and "did" in said.folded:
        said.said.add(PLAYED)  # "what games did we play"
    if LANG in said.said and "en" in words:
        said.said.add(EN)  # "kieli en": the language code, not the negation
    question = is_question(stripped, lemmatizer)
    may_i = question and _may_i(folded)
    if question and not _request(folded) and not may_i:
        return _unread(question_asked(words, typed, said, written), said)
    command = _decide(words, typed, said, written, addressed, options, names)
    if command is None and slash and said.said == {END} and not said.unknown:
        # "/lopeta": a command by its slash, but which? The game's move where "lopeta" is one (weak),
        # else the question whether the game should end ("lopeta peli" ends it)
        return Command("unsure", (), "", tuple(typed[1:]), topic="cancel", weak=True, slash=True)
    if may_i and command is not None and command.name not in _MAY_I_COMMANDS:
        command = None  # "voinko vaihtaa jakajan kanssa?": a rule question
    if question and (command is None or command.name == "unsure"):
        return _unread(question_asked(words, typed, said, written), said)
    if command is None:
        return None
    command = _unread(command, said)
    if options and command.name != "options":
        command = dataclasses.replace(command, tokens=(*command.tokens, *options))
    if slash:
        return dataclasses.replace(command, weak=False, slash=True)
    return command


#: commands that count with the numbers said: bots, a new game's bots, a game to replay, steps of
#: a replay ("yks taaksepäin"), an option's value or the quiet hours ("ei muistutuksia yöllä 22-8")
_COUNTING = frozenset({"add_ai", "remove_ai", "replay", "options", *_STEPS})
#: commands whose argument is a person: the person's name is the command's word
_PERSONAL = frozenset({"kick", "to_ai", "restore", "hand_over", "take_seat", "join"})


def _unread(command: Command, said: Said) -> Command:
    """``command`` with the words it does not use (:attr:`Command.unread`): those the command
    vocabulary does not know, and numbers it counts nothing with ("mennään sit seiskalta" is no
    start: *seiskalta* is seven o'clock). The people a seat command names are its own words."""
    counts = command.name in _COUNTING or (command.name == "new" and command.count is not None)
    numbers = () if counts or command.name in {"rules", "ask"} else tuple(said.numerals)
    unknown = list(said.unknown)
    if command.name == "options":
        unknown = [w for w in unknown if not QUIET_HOURS.match(w)]  # "yöllä 22-8": the option's
    if command.name in _PERSONAL:
        named = {fold(w) for p in said.persons for w in p.typed.split()} | {fold(w) for w in command.tokens}
        unknown = [w for w in unknown if fold(normalise(w)) not in named and fold(w) not in named]
    return dataclasses.replace(command, unread=(*unknown, *numbers))


def _slash_extras(
    name: str, rest: Sequence[str], typed: Sequence[str], lang: str, lemmatizer: Lemmatizer
) -> tuple[int | None, str | None]:
    """``/new gnav 3 bots``, ``/bot 2 vahva``: the count and level of a slash command's arguments."""
    if name not in {"new", "add_ai", "remove_ai"} or not rest:
        return None, None
    plain = normalise(" ".join(w for w in typed if "=" not in w))
    items = _lexicon(lemmatizer).scan(plain, lang)
    said = read_items(items, plain.split(), None, lemmatizer)
    count = said.count if (name != "new" or BOT in said.said) else None
    return count, said.level


def _decide(
    words: Sequence[str],
    typed: Sequence[str],
    s: Said,
    lang: str,
    addressed: bool,
    options: Sequence[str] = (),
    names: Sequence[str] = (),
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
        if loose > (1 if target else 0) and not addressed:
            return None
        return make("lang", toks=(target,) if target else ()) if target else make("lang")

    after = after_game(s, lang, addressed)
    if after is not None and ((after.name == "rematch" and not after.weak) or after.args):
        return after  # "uusi peli samoilla pelaajilla", "another game same people", "peli 12 uusintana"

    # a new game: "uusi gnav", "haluaisin aloittaa uuden gnavin", "let's play coloretto with 2 bots"
    if s.game is not None and (said & {NEW, START, PLAY, BOT, ADD} or (WANT in said and not unknown)):
        if loose > 0 and not addressed:
            return None
        count = s.count if BOT in said else None
        # a game's name may be a word of a move ("put the amazon river dolphin in my row", "tuon
        # tähden Kairoon"): without "uusi"/"peli"/bots the game reads the text first
        weak = not said & {NEW, GAME, BOT}
        toks = [*typed, *pace_tokens(s, typed)]
        return make("new", toks=toks, game=s.game, count=count, level=s.level, weak=weak)
    lone_new = not unknown and s.game is None and len(words) == 1 and AGAIN not in said  # not "uusiks"
    if NEW in said and (GAME in said or lone_new):
        if loose and not addressed:
            return None  # "otetaanko uusi erä huomenna saunassa?": talk of another day
        return make("new", toks=typed)
    if NEW in said and s.game is None and not said & {AGAIN, SAME}:
        # "uusi kortti" is a game's own; "uusi peli" above. A weak "new" lets the game read it.
        if loose > 2 and not addressed:
            return None
        return make(
            "new", weak=True, toks=[w for w in typed if fold(normalise(w)) not in {"uusi", "uus", "new"}]
        )

    # seats: "potki Pekka pihalle", "Pekan paikalle botti", "anna paikkani Liisalle", "otan paikan"
    seat = seat_command(s, names, addressed)
    if seat is not None:
        return dataclasses.replace(seat, lang=lang)

    # the answer to the fill question, and options or the pace said in words in a lobby
    answer = fill_answer(s, addressed)
    if answer is not None:
        return dataclasses.replace(answer, lang=lang)
    if options or says_pace(s):
        changed = options_command(s, options, lang, addressed)
        if changed is not None:
            return changed

    # AI players: "lisää kaksi bottia", "add 2 bots", "botti pois", "poista yks botti", "vahva botti"
    if BOT in said or (s.level and (ADD in said or PLAYER in said)):
        if loose > 1 and not addressed:
            return None
        if REMOVE in said or AWAY in said or KICK in said:
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

    # after a game: a rematch, statistics, history, a replay and its steps
    if after is not None:
        return after

    # rejoin: "palaan peliin", "oon takas", "i'm back"
    if BACK in said and not unknown and s.count is None:
        return make("back")

    if s.count is not None and said & {JOIN, START} and not addressed:
        return None  # "mä tuun mukaan kasilta", "kick off is at 8": when, said among friends
    # join: "liity", "mä tuun mukaan", "count me in", "liity Liisa" (a second seat under that name)
    if JOIN in said and JOIN not in s.denied:
        if (loose > 1 and not addressed) or s.other_subject:
            return None  # "Pekka tulee mukaan", "hän liittyy": someone else joins, not the speaker
        # "liity Liisa": one more seat under that name; only right after the verb
        named = fold(words[0]) in {"liity", "liityn", "join"} and list(unknown) == list(typed[1:])
        return make("join", toks=unknown if named else ())

    # leaving and ending: never on a doubtful text
    # "lopeta" alone is a game's move (Majavajengi's Draw 2); ending needs the game: "lopeta peli"
    doubt = [w for w in unknown if not (addressed and w in s.aside)]
    if CANCEL in said or (END in said and GAME in said):
        if doubt:
            return make("unsure", topic="cancel", weak=True) if addressed else None
        return make("cancel", weak=GAME not in said)
    if LEAVE in said:
        if s.other_subject:
            return None  # "Matti lähtee pois": news of someone else
        if doubt:
            return make("unsure", topic="leave", weak=True) if addressed else None
        return make("leave", weak=GAME not in said and AWAY not in said)
    if AWAY in said and said <= {AWAY, OWN, FILLER, WANT, BE, GAME} and GAME in said and not unknown:
        return make("leave")  # "mä oon pois pelistä"

    if START in said and START not in s.denied:
        if doubt:
            return None if not addressed else make("unsure", topic="start", weak=True)
        return make("start", weak=GAME not in said)

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
        # "näytä kartta" is certain; "kartta" alone may be a game's card ("Vanha kartta")
        return make("map", weak=not (SHOW in said and said <= {MAP, SHOW, OWN, WANT, FILLER, GAME}))
    if said & _ACTIONS:
        return None  # "end the turn", "fill up the table": something done, not the table shown
    if HAND in said and (SHOW in said or OWN in said or len(words) == 1):
        return make("hand", weak=True)
    if STATUS in said or TURN in said or SCORE in said or LIVES in said:
        return make("status", weak=True)
    return None


#: verbs of doing: a text with one asks for no table, hand or score
_ACTIONS = frozenset({END, ADD, REMOVE, START, JOIN, LEAVE, CANCEL, FILL, KICK, GIVE, TAKE, PLAY, SWITCH})
