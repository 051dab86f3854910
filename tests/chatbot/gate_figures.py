"""How many moves and commands are still read when friends type them in the group without
addressing the bot (issue #27, :mod:`chatbot.core.certainty`), on both lemmatiser backends:
``python -m tests.chatbot.gate_figures [--failures]``.

Moves: the rows of the parser tests (``test_*_parser``: base and spoken, fi and en) and of the fresh
phrase batches (``fresh_corpus``) whose expected result is a legal move. *addressed* counts those
the parser reads as meant; *certain* those of them that the certainty check lets act at once,
addressed or not (the rest are asked back with the move's button when addressed and left to the
friends when not); *wrong* counts every row, of any kind, that would apply a legal move other than
the one expected (a question, a chat line, another move).

Commands: the command rows of ``fresh_corpus`` (all three batches) and ``talk_corpus``: *read* right
when addressed, as ``fresh_figures`` grades them; *certain* right unaddressed too, through the reader
and the certainty check; *wrong* a chat row (expected no command) that acts unaddressed.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from chatbot.core.certainty import Certainty
from chatbot.core.commands import find_game, option_phrases, parse_command
from chatbot.core.nlp import LemmatizerUnavailable, normalise
from chatbot.core.parsing import ParseContext, Parsed
from chatbot.games import UIS
from tests.chatbot import test_afrikan_tahti_parser as at
from tests.chatbot import test_coloretto_amazonas_parser as co
from tests.chatbot import test_gnav_parser as gn
from tests.chatbot import test_majavajengi_parser as mj
from tests.chatbot.backends import backend
from tests.chatbot.fresh_corpus import (
    GAME_ROWS,
    GAME_ROWS_2,
    GAME_ROWS_3,
    META_ROWS,
    META_ROWS_2,
    META_ROWS_3,
)
from tests.chatbot.fresh_figures import context as fresh_context
from tests.chatbot.fresh_figures import label
from tests.chatbot.notations import notations, written
from tests.chatbot.talk_corpus import CHAT, META_EN, META_FI

#: a move row: game, source, language, text, its parse context, and the notation(s) of the move
#: meant (empty when the row expects no move or a refusal)
Row = tuple[str, str, str, str, ParseContext[Any], tuple[str, ...]]


def _gn_rows() -> Iterator[Row]:
    for source, lang, rows in (
        ("parser", "fi", gn.FI + gn.SPOKEN_FI),
        ("parser", "en", gn.EN + gn.SPOKEN_EN),
    ):
        for text, where, expected in rows:
            meant = tuple(expected.actions) if isinstance(expected, Parsed) else ()
            yield "gnav", source, lang, text, where.ctx(lang), meant


def _mj_rows() -> Iterator[Row]:
    for source, lang, rows in (
        ("parser", "fi", mj.FI + mj.SPOKEN_FI),
        ("parser", "en", mj.EN + mj.SPOKEN_EN),
    ):
        for text, where, expected in rows:
            meant = tuple(expected.actions) if isinstance(expected, Parsed) else ()
            yield "majavajengi", source, lang, text, where.ctx(lang), meant


def _co_rows() -> Iterator[Row]:
    for lang, rows in (("fi", co.FINNISH + co.SPOKEN_FI), ("en", co.ENGLISH + co.SPOKEN_EN)):
        for scenario, seat, text, expected in rows:
            ctx = co.context(scenario, seat, lang)
            move = isinstance(expected, str) and expected and not expected.startswith("!")
            meant = tuple(expected.split(" ; ")) if move else ()
            yield "coloretto_amazonas", "parser", lang, text, ctx, meant


def _at_rows() -> Iterator[Row]:
    for lang, rows in (("fi", at.FI + at.SPOKEN_FI), ("en", at.EN + at.SPOKEN_EN)):
        for text, where, expected in rows:
            move = expected not in ("-",) and expected[0] not in "!?"
            yield (
                "afrikan_tahti",
                "parser",
                lang,
                text,
                at.context(where, lang),
                (tuple(expected.split("|")) if move else ()),
            )


def _fresh_rows() -> Iterator[Row]:
    for batch, rows in (("fresh1", GAME_ROWS), ("fresh2", GAME_ROWS_2), ("fresh3", GAME_ROWS_3)):
        for game, where, lang, text, expected in rows:
            meant = tuple(expected) if isinstance(expected, tuple) else ()
            yield game, batch, lang, text, fresh_context(game, where, lang), meant


def move_rows() -> Iterator[Row]:
    yield from _gn_rows()
    yield from _mj_rows()
    yield from _co_rows()
    yield from _at_rows()
    yield from _fresh_rows()


def _notations(actions: Any) -> tuple[str, ...]:
    return tuple(str(n) for n in notations(actions))


def move_outcomes(certainty: Certainty) -> Iterator[tuple[str, str, str, str, str]]:
    """(game, source, lang, text, outcome): outcome is "read" (also unaddressed), "addressed only",
    "missed" (not read as meant even when addressed), "wrong" (another legal move applied
    unaddressed) or "quiet" (no move expected, none applied unaddressed)."""
    for game, source, lang, text, ctx, meant in move_rows():
        ui = UIS[game]
        result = ui.parse(text, ctx)
        applied = isinstance(result, Parsed) and bool(result.actions) and result.actions[0] in ctx.legal
        first = str(written(result).actions[0]) if applied else None
        meant_first = meant[0] if meant else None
        if meant_first is not None and meant_first not in _notations(ctx.legal):
            meant_first = None  # a refusal by the engine: no move is applied
        unaddressed = applied and certainty.move(text, ui, lang, ctx.seat_names)
        if meant_first is None:
            yield game, source, lang, text, "wrong" if unaddressed else "quiet"
        elif first != meant_first:
            yield game, source, lang, text, "wrong" if unaddressed else "missed"
        else:
            yield game, source, lang, text, "read" if unaddressed else "addressed only"


def command_rows() -> Iterator[tuple[str, str, str, str | None]]:
    for batch, rows in (("fresh1", META_ROWS), ("fresh2", META_ROWS_2), ("fresh3", META_ROWS_3)):
        for lang, text, expected in rows:
            yield batch, lang, text, expected
    for lang, rows in (("fi", META_FI), ("en", META_EN)):
        for text, expected in rows:
            yield "talk", lang, text, expected
    for text in CHAT:
        yield "talk", "fi", text, None


def command_outcomes(certainty: Certainty, lemmatizer: Any) -> Iterator[tuple[str, str, str, str]]:
    games = {gid: (*ui.aliases, gid) for gid, ui in UIS.items()}
    for source, lang, text, expected in command_rows():
        typed = text
        found = find_game(normalise(text).split(), games, lemmatizer)
        if found is not None:
            ui = UIS[found[0]]
            typed = option_phrases(text, ui.option_counts(), ui.option_flags(), lemmatizer)
        addressed = label(parse_command(typed, games, lang, addressed=True, lemmatizer=lemmatizer))
        cmd = parse_command(typed, games, lang, addressed=False, lemmatizer=lemmatizer)
        if cmd is not None and not certainty.command(cmd, typed, None, lang, ()):
            cmd = None
        unaddressed = label(cmd)
        if expected is None:
            yield source, lang, text, "wrong" if unaddressed not in (None, "rules") else "quiet"
        elif _same(unaddressed, expected):
            yield source, lang, text, "read"
        elif _same(addressed, expected):
            yield source, lang, text, "addressed only"
        else:
            yield source, lang, text, "wrong" if unaddressed is not None else "missed"


def _same(got: str | None, expected: str) -> bool:
    """The labels of ``fresh_figures`` count one bot as ":1", those of ``talk_corpus`` do not."""
    return got is not None and got.removesuffix(":1") == expected.removesuffix(":1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--failures", action="store_true", help="list the rows not read unaddressed")
    args = parser.parse_args()
    for name in ("voikko", "table"):
        try:
            with backend(name) as lemmatizer:
                certainty = Certainty(UIS, lemmatizer)
                report(name, move_outcomes(certainty), args.failures, lambda o: (o[0], o[1], o[2]))
                report(
                    name,
                    command_outcomes(certainty, lemmatizer),
                    args.failures,
                    lambda o: ("commands", o[0], o[1]),
                )
        except LemmatizerUnavailable:
            print(f"{name}: not available")


def report(
    name: str,
    outcomes: Iterator[tuple[str, ...]],
    failures: bool,
    key: Callable[[tuple[str, ...]], tuple[str, ...]],
) -> None:
    counts: dict[tuple[str, ...], Counter[str]] = {}
    total: Counter[str] = Counter()
    for o in outcomes:
        counts.setdefault(key(o), Counter())[o[-1]] += 1
        total[o[-1]] += 1
        if failures and o[-1] in ("addressed only", "wrong"):
            print(f"  {name} {' '.join(key(o))} {o[-1].upper()}: {o[-2]!r}")
    for k, c in sorted(counts.items()):
        print(f"{name:6} {' '.join(k):34} {_line(c)}")
    print(f"{name:6} {'all':34} {_line(total)}")


def _line(c: Counter[str]) -> str:
    moves = c["read"] + c["addressed only"]
    return (
        f"read {moves:4}  certain {c['read']:4} ({100 * c['read'] / max(moves, 1):5.1f} %)  "
        f"missed {c['missed']:3}  wrong {c['wrong']:2}  chat quiet {c['quiet']:3}"
    )


if __name__ == "__main__":
    main()
