"""Score the fresh phrases of ``tests/chatbot/fresh_corpus.py`` on both lemmatiser backends:
``python -m tests.chatbot.fresh_figures [--batch 1|2|3] [--failures]``; ``--categories`` scores every
phrase table per category instead (:mod:`tests.chatbot.words_figures`). Each batch was measured once
as written, before its misses were fixed; the first try of each is in the commit that added it
(``git log tests/chatbot/fresh_corpus.py``).

Each game row is *right* (the move meant, or the clear refusal or no-move expected), *asked* (the bot
asks back: no harm), *missed* (not understood, or refused though it was a legal move meant) or
*wrong* (another legal move than meant, or a move from a question: the worst; a move the engine
refuses changes nothing and is a miss). Meta rows compare the
command label as ``scripts/talk_figures.py`` does; option rows the options written as typed."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from chatbot.core.commands import find_game, option_phrases, parse_command
from chatbot.core.nlp import Lemmatizer, LemmatizerUnavailable, normalise
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed
from chatbot.games import UIS
from chatbot.games.afrikan_tahti.parser import AfrikanTahtiParser
from chatbot.games.coloretto_amazonas.parser import ColorettoParser
from chatbot.games.gnav.parser import GnavParser
from chatbot.games.majavajengi.parser import MajavajengiParser
from tests.chatbot import test_afrikan_tahti_parser as at
from tests.chatbot import test_coloretto_amazonas_parser as co
from tests.chatbot import test_gnav_parser as gn
from tests.chatbot import test_majavajengi_parser as mj
from tests.chatbot.fresh_corpus import (
    ASK,
    GAME_ROWS,
    GAME_ROWS_2,
    GAME_ROWS_3,
    META_ROWS,
    META_ROWS_2,
    META_ROWS_3,
    NONE,
    OPTION_ROWS,
    REFUSE,
    RULE_ROWS,
)
from tests.chatbot.notations import notation, notations

PARSERS = {
    "gnav": GnavParser,
    "majavajengi": MajavajengiParser,
    "coloretto_amazonas": ColorettoParser,
    "afrikan_tahti": AfrikanTahtiParser,
}
RIGHT, ASKED, MISSED, WRONG = "right", "asked", "missed", "wrong"


def context(game: str, where: str, lang: str) -> ParseContext[Any]:
    if game == "gnav":
        return getattr(gn, where).ctx(lang)
    if game == "majavajengi":
        return getattr(mj, where).ctx(lang)
    if game == "coloretto_amazonas":
        seat = 1 if where.startswith("GIFT") else 0
        return co.context(where, seat, lang)
    return at.context(where, lang)


def grade(result: Any, expected: object, legal: tuple[Any, ...]) -> str:
    """The outcome of one game row (see the module docstring); ``legal`` are the speaker's legal
    actions, the expected moves are notations."""
    written = notations(legal)
    if isinstance(result, Parsed):
        first = notation(result.actions[0])
        if expected == REFUSE:
            return RIGHT if first not in written else WRONG  # the engine refuses it with its reason
        if isinstance(expected, tuple) and first in expected:
            return RIGHT
        # a move the engine refuses changes nothing (the player is told why): a miss, not a wrong move
        return WRONG if first in written or expected == NONE else MISSED
    if isinstance(result, Ambiguous):
        if expected in (ASK, NONE):
            return RIGHT
        return ASKED if expected != REFUSE else RIGHT
    if isinstance(result, NotLegal):
        return RIGHT if expected in (REFUSE, NONE) else MISSED
    assert isinstance(result, NotUnderstood)
    return RIGHT if expected == NONE else MISSED


def game_outcomes(lemmatizer: Lemmatizer, rows: Any = None) -> Iterator[tuple[str, str, str, str, Any]]:
    parsers = {game: cls(lemmatizer) for game, cls in PARSERS.items()}
    for game, where, lang, text, expected in GAME_ROWS + GAME_ROWS_2 if rows is None else rows:
        ctx = context(game, where, lang)
        result = parsers[game].parse(text, ctx)
        yield game, lang, text, grade(result, expected, ctx.legal), result


def label(command: Any) -> str | None:
    if command is None:
        return None
    name = command.name
    if name == "new":
        return ":".join(
            [
                "new",
                *([command.game] if command.game else []),
                *([str(command.count)] if command.count else []),
            ]
        )
    if name in {"add_ai", "remove_ai"}:
        return f"{name}:{command.count}" if command.count else f"{name}:1"
    if name == "lang":
        return f"lang:{command.tokens[0]}" if command.tokens else "lang"
    if name == "ask":
        return f"ask:{command.topic}"
    if name == "unsure":
        return f"unsure:{command.topic}"
    return str(name)


def meta_outcomes(lemmatizer: Lemmatizer, rows: Any = None) -> Iterator[tuple[str, str, str, str | None]]:
    games = {gid: (*ui.aliases, gid) for gid, ui in UIS.items()}
    for lang, text, expected in META_ROWS + META_ROWS_2 + META_ROWS_3 if rows is None else rows:
        typed = text
        found = find_game(normalise(text).split(), games, lemmatizer)
        if found is not None:  # options said in words, as the core reads them first
            ui = UIS[found[0]]
            typed = option_phrases(text, ui.option_counts(), ui.option_flags(), lemmatizer)
        got = label(parse_command(typed, games, lang, addressed=expected is not None, lemmatizer=lemmatizer))
        if got == expected or (expected is None and got == "rules"):
            yield lang, text, RIGHT, got
        elif got is not None and got.startswith("unsure:") and expected == got.split(":")[1]:
            yield lang, text, ASKED, got
        elif got is None or got in {"rules", "help"} or (expected or "").startswith(f"{got}:"):
            yield lang, text, MISSED, got
        else:
            yield lang, text, WRONG, got


def option_outcomes(lemmatizer: Lemmatizer) -> Iterator[tuple[str, str, str, str]]:
    for lang, text, game, wanted in OPTION_ROWS:
        ui = UIS[game]
        got = option_phrases(text, ui.option_counts(), ui.option_flags(), lemmatizer)
        ok = all(w in got.split() for w in wanted)
        yield lang, text, RIGHT if ok else MISSED, got


def rule_outcomes(lemmatizer: Lemmatizer) -> Iterator[tuple[str, str, str, Any]]:
    from chatbot.core import explain

    games = {gid: (*ui.aliases, gid) for gid, ui in UIS.items()}
    for game, lang, text, key in RULE_ROWS:
        cmd = parse_command(text, games, lang, addressed=True, lemmatizer=lemmatizer)
        found = []
        if cmd is not None and cmd.name in {"rules", "ask"}:
            found = [
                t.key for _, t in explain.find_topics(cmd.raw_args, [UIS[game]], lemmatizer, prefer=game)
            ]
        wanted = {f"{game}.{k}" for k in key.split("|")}
        yield lang, text, RIGHT if found and set(found) <= wanted else MISSED, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--failures", action="store_true", help="list the rows that are not right")
    parser.add_argument("--batch", choices=["1", "2", "3", "all"], default="all", help="one batch only")
    parser.add_argument(
        "--categories",
        action="store_true",
        help="the pass rate per category of every phrase table (tests/chatbot/words_figures.py)",
    )
    args = parser.parse_args()
    if args.categories:
        from tests.chatbot.words_figures import report

        report(args.failures)
        return
    game_rows = {"1": GAME_ROWS, "2": GAME_ROWS_2, "3": GAME_ROWS_3}.get(
        args.batch, GAME_ROWS + GAME_ROWS_2 + GAME_ROWS_3
    )
    meta_rows = {"1": META_ROWS, "2": META_ROWS_2, "3": META_ROWS_3}.get(
        args.batch, META_ROWS + META_ROWS_2 + META_ROWS_3
    )
    extras = args.batch in ("1", "all")  # options and rule questions are in the first batch
    for backend in ("voikko", "table"):
        try:
            lemmatizer = Lemmatizer(backend=backend)
        except LemmatizerUnavailable:
            print(f"{backend}: not available")
            continue
        counts: dict[tuple[str, str], dict[str, int]] = {}
        for game, lang, text, outcome, result in game_outcomes(lemmatizer, game_rows):
            counts.setdefault((game, lang), {}).setdefault(outcome, 0)
            counts[(game, lang)][outcome] += 1
            if args.failures and outcome != RIGHT:
                print(f"  {backend} {game} {lang} {outcome.upper()}: {text!r} -> {result}")
        for lang, text, outcome, got in meta_outcomes(lemmatizer, meta_rows):
            counts.setdefault(("meta", lang), {}).setdefault(outcome, 0)
            counts[("meta", lang)][outcome] += 1
            if args.failures and outcome != RIGHT:
                print(f"  {backend} meta {lang} {outcome.upper()}: {text!r} -> {got}")
        for lang, text, outcome, got in rule_outcomes(lemmatizer) if extras else ():
            counts.setdefault(("rules", lang), {}).setdefault(outcome, 0)
            counts[("rules", lang)][outcome] += 1
            if args.failures and outcome != RIGHT:
                print(f"  {backend} rules {lang} {outcome.upper()}: {text!r} -> {got}")
        for lang, text, outcome, got in option_outcomes(lemmatizer) if extras else ():
            counts.setdefault(("options", lang), {}).setdefault(outcome, 0)
            counts[("options", lang)][outcome] += 1
            if args.failures and outcome != RIGHT:
                print(f"  {backend} options {lang} {outcome.upper()}: {text!r} -> {got}")
        total = {k: 0 for k in (RIGHT, ASKED, MISSED, WRONG)}
        for (group, lang), c in sorted(counts.items()):
            n = sum(c.values())
            for k in total:
                total[k] += c.get(k, 0)
            parts = ", ".join(f"{k} {c.get(k, 0)}" for k in (RIGHT, ASKED, MISSED, WRONG))
            print(f"{backend:6} {group:19} {lang}: {c.get(RIGHT, 0)}/{n} right ({parts})")
        n = sum(total.values())
        print(
            f"{backend:6} all: {total[RIGHT]}/{n} right ({100 * total[RIGHT] / n:.1f} %), asked "
            f"{total[ASKED]}, missed {total[MISSED]}, wrong {total[WRONG]}"
        )


if __name__ == "__main__":
    main()
