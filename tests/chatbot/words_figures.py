"""Pass rates per category of the project's phrase tables, for both lemmatiser backends (issue #27):
``python -m tests.chatbot.fresh_figures --categories [--failures]`` (or ``python -m
tests.chatbot.words_figures``).

Each row is read as the core reads it: the command reader of the core (:class:`chatbot.core.talk.
Reader`, with the seats' names and, in a lobby, its game), then, where a game is running and the
command is weak or there is none, the game's own parser (a move wins over a weak command); a step of
a replay or an answer to the fill question that means nothing where it is said falls to the game as
in :meth:`BotCore._command`. A row is *right* (the reading meant), *asked* (the bot asks which of
two: no harm), *missed* (not understood, a rules or help text instead) or *wrong* (another command,
another count, level or target, a move where a command was meant, or a command or a move from chat).

To measure an older tree, copy this module with ``words_corpus``, ``fresh_figures``,
``fresh_corpus`` and ``rule_questions`` into its ``tests/chatbot`` and run it there.

Categories: moves (the fresh corpus' moves and ``words_corpus.MOVES``), meta (the lobby: new games,
bots, options, pace, fill, start, join, leave, language), admin, after-game, own-state, rule
questions and chatter (said unaddressed: nothing may come of it).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

from chatbot.core import pace
from chatbot.core.commands import Command
from chatbot.core.lobby import _option_value, ai_kind

try:
    from chatbot.core.lobby import _level_words
except ImportError:  # a tree from before the levels said in words counted (to measure it)

    def _level_words(cmd: Any) -> Any:
        return cmd.args


from chatbot.core.nlp import Lemmatizer, LemmatizerUnavailable, match_seat
from chatbot.core.parsing import NotUnderstood, Parsed
from chatbot.core.talk import Reader
from chatbot.games import UIS
from engines import GAMES
from tests.chatbot import fresh_corpus as fresh
from tests.chatbot import talk_corpus, words_corpus
from tests.chatbot.chatter_corpus import CHATTER
from tests.chatbot.fresh_figures import PARSERS, context, grade
from tests.chatbot.rule_questions import RULE_QUESTIONS

RIGHT, ASKED, MISSED, WRONG = "right", "asked", "missed", "wrong"
CATEGORIES = ("moves", "meta", "admin", "after-game", "own-state", "rules", "chatter")
OUTCOMES = (RIGHT, ASKED, MISSED, WRONG)

#: the seats in each kind of context (Matti speaks)
LOBBY_NAMES = ("Matti", "Liisa")
GAME_NAMES = {
    "gnav": ("Matti", "Liisa", "Pekka", "Botti 1"),
    "majavajengi": ("Matti", "Liisa", "Pekka"),
}
#: the commands that only read or explain: a wrong one of them is a miss, not a wrong reading
_READING = frozenset({"help", "rules", "games"})
_STEPS = frozenset({"replay_next", "replay_previous", "replay_start", "replay_end"})
_SEATS = frozenset({"kick", "to_ai", "restore", "hand_over"})
_LEVEL_OF_KIND = {"easy": "easy", "random": "easy", "normal": "normal", "sensible": "normal"}
_LEVEL_OF_KIND |= {"smart": "normal", "strong": "strong"}


@lru_cache(maxsize=16)
def _parser(game: str, lemmatizer: Lemmatizer) -> Any:
    return PARSERS[game](lemmatizer)


def _reader(lemmatizer: Lemmatizer) -> Reader:
    return Reader(dict(GAMES), dict(UIS), lemmatizer)


def _read(
    reader: Reader, text: str, lang: str, addressed: bool, names: Sequence[str], game: str | None
) -> Any:
    """The core's reading: the reader with the seats' names (and, in a lobby, its game)."""
    try:
        return reader.read(text, lang, addressed, tuple(names), game)
    except TypeError:  # a reader from before the lobby's game was given (to measure an older tree)
        return reader.read(text, lang, addressed, tuple(names))


def _ai_level(cmd: Command, game: str | None) -> str:
    """The level of the AI players the lobby would seat for ``cmd`` (as ``:easy``), or "" for the
    game's default when no level was said."""
    engine = GAMES[game or "majavajengi"]
    kind = ai_kind(_level_words(cmd), engine)
    if cmd.level is None and kind == engine.default_ai:
        return ""
    return ":" + _LEVEL_OF_KIND.get(kind, kind)


def _options(tokens: Sequence[str], game: str | None, bare: bool) -> list[str]:
    """The options typed in ``tokens`` as ``key=value`` the way the lobby reads them (the pace by
    its field, a game's option by its engine key; ``bare``: flag words count too)."""
    typed_pace, rest = pace.split_options(list(tokens))
    out = []
    for field, value in typed_pace.items():
        if field == "mode":
            out.append(f"pace={pace._MODES.get(pace.fold(value.casefold()), value)}")
        elif field == "standin":
            out.append(f"standin={'yes' if pace.fold(value.casefold()) in pace._YES else 'no'}")
        else:
            out.append(f"{field}={value}")
    ui = UIS.get(game or "")
    words = ui.option_words() if ui else {}
    flags = {pace.fold(k.casefold()): v for k, v in ui.option_flags().items()} if ui else {}
    for token in rest:
        if "=" in token:
            key, _, value = token.partition("=")
            parsed = _option_value(value)
            shown = "on" if parsed is True else "off" if parsed is False else str(parsed)
            out.append(f"{words.get(key.casefold(), key.casefold())}={shown}")
        elif bare and pace.fold(token.casefold().strip(".,!")) in flags:
            key, value = flags[pace.fold(token.casefold().strip(".,!"))]
            out.append(f"{key}={'on' if value is True else 'off' if value is False else value}")
    return sorted(set(out))


def label(cmd: Command | None, game: str | None, names: Sequence[str]) -> str | None:
    """A command as the phrase tables write it (see ``words_corpus``)."""
    if cmd is None:
        return None
    name = cmd.name
    if name == "new":
        parts = ["new", *([cmd.game] if cmd.game else [])]
        if cmd.count:
            parts.append(str(cmd.count) + _ai_level(cmd, cmd.game))
        opts = _options(cmd.tokens, cmd.game, bare=True)
        return ":".join(parts) + "".join(f"+{o}" for o in opts)
    if name == "add_ai":
        return f"add_ai:{cmd.count or 1}{_ai_level(cmd, game)}"
    if name == "remove_ai":
        return f"remove_ai:{cmd.count or 1}"
    if name == "options":
        return "options" + "".join(f"+{o}" for o in _options(cmd.tokens, game, bare=False))
    if name == "lang":
        return f"lang:{cmd.tokens[0]}" if cmd.tokens else "lang"
    if name == "ask":
        return f"ask:{cmd.topic}"
    if name == "unsure":
        return f"unsure:{cmd.topic}"
    if name == "replay":
        numbers = [a.lstrip("#") for a in cmd.args if a.lstrip("#").isdigit()]
        return f"replay:{numbers[0]}" if numbers else "replay"
    if name in _SEATS:
        everyone = (*names, *(n for n in ("Liisa", "Pekka") if n not in names))
        found = match_seat(cmd.raw_args, everyone, loose=False) if cmd.raw_args else []
        return f"{name}:{everyone[found[0]]}" if len(found) == 1 else f"{name}:?{cmd.raw_args}"
    return str(name)


def _unaddressed_new(cmd: Command | None, addressed: bool) -> Command | None:
    """A weak "new" that names no game, said unaddressed ("ostin uuden puhelimen"): chat."""
    if cmd is not None and cmd.name == "new" and cmd.game is None and cmd.weak and not addressed:
        return None
    return cmd


@lru_cache(maxsize=4)
def _certainty(lemmatizer: Lemmatizer) -> Any:
    """The core's group gate (:mod:`chatbot.core.certainty`), or None in a tree without it."""
    try:
        from chatbot.core.certainty import Certainty
    except ImportError:
        return None
    return Certainty(dict(UIS), lemmatizer)


def _gated(
    cmd: Command | None,
    lemmatizer: Lemmatizer,
    text: str,
    lang: str,
    names: Sequence[str],
    game: str | None,
    addressed: bool,
) -> Command | None:
    """The command the core acts on: unaddressed, only a certain one (as :class:`BotCore` gates)."""
    certainty = _certainty(lemmatizer)
    if cmd is None or addressed or certainty is None:
        return cmd
    return cmd if certainty.command(cmd, text, game, lang, names) else None


def reading(
    reader: Reader, lemmatizer: Lemmatizer, where: str, lang: str, text: str, addressed: bool = True
) -> tuple[str | None, Any]:
    """(label, the game parser's result or None) of ``text`` said by Matti in ``where``; said
    unaddressed, through the core's group gate as :class:`BotCore` and :class:`Play` apply it."""
    kind, _, situation = where.partition(":")
    if kind == "lobby":
        game = situation
        read, cmd = _read(reader, text, lang, addressed, LOBBY_NAMES, game)
        cmd = _gated(cmd, lemmatizer, read, lang, LOBBY_NAMES, game, addressed)
        return label(_unaddressed_new(cmd, addressed), game, LOBBY_NAMES), None
    if kind in ("none", "over"):
        read, cmd = _read(reader, text, lang, addressed, (), None)
        cmd = _gated(cmd, lemmatizer, read, lang, (), None, addressed)
        if cmd is not None and cmd.name in {"fill", "as_is"}:
            cmd = None  # the fill question's words mean nothing outside a lobby
        return label(_unaddressed_new(cmd, addressed), None, ()), None
    game = kind
    names = GAME_NAMES.get(game, (*LOBBY_NAMES, "Pekka"))
    read, cmd = _read(reader, text, lang, addressed, names, None)
    cmd = _gated(cmd, lemmatizer, read, lang, names, game, addressed)
    ctx = context(game, situation, lang)
    result = _parser(game, lemmatizer).parse(read, ctx)
    certainty = _certainty(lemmatizer)
    legal = isinstance(result, Parsed) and bool(result.actions) and result.actions[0] in ctx.legal
    if not addressed and certainty is not None:
        # friends' talk unless all of it is a legal move: no refusal or question back either
        certain = legal and certainty.move(read, UIS[game], lang, ctx.seat_names)
        result = result if certain else NotUnderstood()
    if cmd is not None and cmd.weak and not isinstance(result, NotUnderstood):
        cmd = None  # the game's own words
    if cmd is not None and (cmd.name in _STEPS or cmd.name in {"fill", "as_is"}):
        cmd = None  # a seated player's step word, the fill answer outside a lobby: the game reads it
    if cmd is not None and cmd.name == "new" and cmd.game is None and cmd.weak:
        cmd = None
    if cmd is not None:
        return label(cmd, game, names), None
    if isinstance(result, NotUnderstood):
        return None, result
    return "move", result


def _outcome(expected: str | None, got: str | None) -> str:
    if got == expected or (expected is None and got == "rules"):
        return RIGHT
    if (
        got is not None
        and got.startswith("unsure:")
        and expected is not None
        and expected.startswith(got[7:])
    ):
        return ASKED
    if got is None or got in _READING or got.startswith("unsure:"):
        return MISSED
    if expected is not None and got == "options" and expected.startswith("options+"):
        return MISSED  # the options shown, nothing changed
    return WRONG


def _category_of(expected: str | None) -> str:
    """The category of a row of the older corpora, by what it expects."""
    if expected is None:
        return "chatter"
    name = expected.split(":")[0].split("+")[0]
    if name in {"ask", "status", "hand", "map"}:
        return "own-state"
    if name in {"rematch", "stats", "my_stats", "history", "replay", *_STEPS}:
        return "after-game"
    if name in {*_SEATS, "take_seat"}:
        return "admin"
    return "meta"


#: the older corpora's labels say no level, replay number or options: "add_ai" is one bot
OLDER = "older:"


def _loose(got: str | None) -> str | None:
    """A label as the older corpora write it: no AI level, no replay number, no options."""
    if got is None:
        return None
    got = got.split("+")[0]
    parts = got.split(":")
    if parts[0] in {"add_ai", "remove_ai", "new"} and parts[-1] in _LEVEL_OF_KIND.values():
        parts = parts[:-1]
    if parts[0] == "replay":
        parts = parts[:1]
    return ":".join(parts)


def command_rows() -> Iterator[tuple[str, str, str, str, str | None]]:
    """(category, context, lang, text, expected) of every command row: the older corpora's (read
    without a game at the table; their labels marked :data:`OLDER`) and the words corpus'."""
    older = [("fi", text, e) for text, e in talk_corpus.META_FI]
    older += [("en", text, e) for text, e in talk_corpus.META_EN]
    older += [row for row in fresh.META_ROWS + fresh.META_ROWS_2 + fresh.META_ROWS_3 if row[2]]
    for lang, text, expected in older:
        assert expected is not None
        if expected in {"add_ai", "remove_ai"}:
            expected += ":1"
        yield _category_of(expected), "none", lang, text, OLDER + expected
    for category, rows in (
        ("meta", words_corpus.LOBBY),
        ("admin", words_corpus.ADMIN),
        ("after-game", words_corpus.AFTER),
        ("own-state", words_corpus.OWN),
        ("moves", words_corpus.MOVES),
    ):
        for where, lang, text, expected in rows:
            yield category, where, lang, text, expected
    for category, where, lang, text, expected in words_corpus.SECOND + words_corpus.THIRD:
        if category != "chatter":
            yield category, where, lang, text, expected


def chatter_rows() -> Iterator[tuple[str, str, str]]:
    """(context, lang, text) of every chatter line, said unaddressed."""
    for text in talk_corpus.CHAT:
        yield "none", "fi", text
    for lang, text, expected in fresh.META_ROWS + fresh.META_ROWS_2 + fresh.META_ROWS_3:
        if expected is None:
            yield "none", lang, text
    situations = {
        "gnav": "gnav:TURN",
        "majavajengi": "majavajengi:START",
        "coloretto_amazonas": "coloretto_amazonas:A",
        "afrikan_tahti": "afrikan_tahti:cairo",
    }
    for where, lines in CHATTER.items():
        for text in lines:
            yield ("lobby:majavajengi" if where == "lobby" else situations.get(where, "none")), "fi", text
    yield from words_corpus.CHATTER_WORDS
    yield from (
        (where, lang, text) for category, where, lang, text, _ in words_corpus.SECOND if category == "chatter"
    )


def _rule_outcome(found: list[str], wanted: set[str]) -> str:
    if found and set(found) <= wanted:
        return RIGHT
    if len(found) > 1 and set(found) & wanted:
        return ASKED
    if found and not set(found) & wanted:
        return WRONG
    return MISSED


def rule_outcomes(lemmatizer: Lemmatizer) -> Iterator[tuple[str, str, str, Any]]:
    from chatbot.core import explain
    from chatbot.core.commands import parse_command

    games = {gid: (*ui.aliases, gid) for gid, ui in UIS.items()}
    rows = [*RULE_QUESTIONS, *fresh.RULE_ROWS, *words_corpus.RULES]
    for game, lang, text, key in rows:
        cmd = parse_command(text, games, lang, addressed=True, lemmatizer=lemmatizer)
        found: list[str] = []
        if cmd is not None and cmd.name in {"rules", "ask"}:
            topics = explain.find_topics(cmd.raw_args, [UIS[game]], lemmatizer, prefer=game)
            found = list(dict.fromkeys(t.key for _, t in topics))
        yield lang, text, _rule_outcome(found, {f"{game}.{k}" for k in key.split("|")}), found


def outcomes(lemmatizer: Lemmatizer) -> Iterator[tuple[str, str, str, str, Any]]:
    """(category, lang, text, outcome, what was read) of every row."""
    reader = _reader(lemmatizer)
    for category, where, lang, text, expected in command_rows():
        got, _ = reading(reader, lemmatizer, where, lang, text)
        if expected is not None and expected.startswith(OLDER):
            expected, got = expected[len(OLDER) :], _loose(got)
        yield category, lang, text, _outcome(expected, got), got
    for game, where, lang, text, expected in fresh.GAME_ROWS + fresh.GAME_ROWS_2 + fresh.GAME_ROWS_3:
        got, result = reading(reader, lemmatizer, f"{game}:{where}", lang, text)
        if got == "move" or (got is None and result is not None):
            ctx = context(game, where, lang)
            outcome = grade(result, expected, ctx.legal)
        elif expected == fresh.NONE:
            outcome = RIGHT if got in {None, "rules", "help"} or (got or "").startswith("ask:") else WRONG
        else:
            outcome = _outcome("move", got)
        yield "moves", lang, text, outcome, got
    for where, lang, text in chatter_rows():
        got, _ = reading(reader, lemmatizer, where, lang, text, addressed=False)
        if got == "move":  # the gate's part (a move from unaddressed chat), counted apart
            yield "chatter-moves", lang, text, WRONG, got
            continue
        yield "chatter", lang, text, _outcome(None, got), got
    for lang, text, outcome, found in rule_outcomes(lemmatizer):
        yield "rules", lang, text, outcome, found


def second_batch(lemmatizer: Lemmatizer) -> Iterator[tuple[str, str, str, str, Any]]:
    """(category, lang, text, outcome, what was read) of the second batch alone."""
    reader = _reader(lemmatizer)
    for category, where, lang, text, expected in words_corpus.SECOND:
        got, _ = reading(reader, lemmatizer, where, lang, text, addressed=expected is not None)
        if got == "move" and expected is None:
            got = None  # a move from chat is the gate's part, counted apart
        yield category, lang, text, _outcome(expected, got), got


def report(failures: bool = False, backends: Sequence[str] = ("voikko", "table")) -> None:
    for backend in backends:
        try:
            lemmatizer = Lemmatizer(backend=backend)
        except LemmatizerUnavailable:
            print(f"{backend}: not available")
            continue
        counts: dict[tuple[str, str], dict[str, int]] = {}
        for category, lang, text, outcome, got in outcomes(lemmatizer):
            bucket = counts.setdefault((category, lang), dict.fromkeys(OUTCOMES, 0))
            bucket[outcome] += 1
            if failures and outcome != RIGHT:
                print(f"  {backend} {category} {lang} {outcome.upper()}: {text!r} -> {got}")
        total = dict.fromkeys(OUTCOMES, 0)
        for category in CATEGORIES:
            for lang in ("fi", "en"):
                c = counts.get((category, lang))
                if not c:
                    continue
                n = sum(c.values())
                for k in OUTCOMES:
                    total[k] += c[k]
                print(
                    f"{backend:6} {category:10} {lang}: {100 * c[RIGHT] / n:5.1f} % right of {n:4}"
                    f" (asked {c[ASKED]}, missed {c[MISSED]}, wrong {c[WRONG]})"
                )
        gate = counts.get(("chatter-moves", "fi"), {}).get(WRONG, 0) + counts.get(
            ("chatter-moves", "en"), {}
        ).get(WRONG, 0)
        print(f"{backend:6} chatter applied as a move through the group gate: {gate}")
        n = sum(total.values())
        print(
            f"{backend:6} all: {total[RIGHT]}/{n} right ({100 * total[RIGHT] / n:.1f} %), asked "
            f"{total[ASKED]}, missed {total[MISSED]}, wrong {total[WRONG]}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--failures", action="store_true", help="list the rows that are not right")
    parser.add_argument("--second", action="store_true", help="the second batch alone")
    args = parser.parse_args()
    if not args.second:
        report(args.failures)
        return
    for backend in ("voikko", "table"):
        counts = dict.fromkeys(OUTCOMES, 0)
        for category, lang, text, outcome, got in second_batch(Lemmatizer(backend=backend)):
            counts[outcome] += 1
            if args.failures and outcome != RIGHT:
                print(f"  {backend} {category} {lang} {outcome.upper()}: {text!r} -> {got}")
        print(backend, counts)


if __name__ == "__main__":
    main()
