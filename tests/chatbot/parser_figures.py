"""Print the pass figures of the table-driven parser tests per game, language and lemmatiser backend:
``python -m tests.chatbot.parser_figures``. The spoken-form rows of issue #15 are counted apart from the
older rows, so the figure of each is seen (the tests themselves assert that every row passes)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from chatbot.core.nlp import Lemmatizer, LemmatizerUnavailable
from chatbot.games.afrikan_tahti.parser import AfrikanTahtiParser
from chatbot.games.coloretto_amazonas.parser import ColorettoParser
from chatbot.games.gnav.parser import GnavParser
from chatbot.games.majavajengi.parser import MajavajengiParser
from tests.chatbot import test_afrikan_tahti_parser as at
from tests.chatbot import test_coloretto_amazonas_parser as co
from tests.chatbot import test_gnav_parser as gn
from tests.chatbot import test_majavajengi_parser as mj

Row = tuple[str, Callable[[Any], None]]


def _rows(parser: Any, game: str) -> Iterable[tuple[str, str, Callable[[], None]]]:
    """(table, language, check) for every row of the game's tables."""
    if game == "gnav":
        for table, lang, rows in (("base", "fi", gn.FI), ("base", "en", gn.EN), ("spoken", "fi", gn.SPOKEN_FI),
                                  ("spoken", "en", gn.SPOKEN_EN)):  # fmt: skip
            for text, where, expected in rows:
                yield (
                    table,
                    lang,
                    lambda t=text, w=where, e=expected, lg=lang: gn.test_parse(parser, t, lg, w, e),
                )
    elif game == "majavajengi":
        for table, lang, rows in (("base", "fi", mj.FI), ("base", "en", mj.EN), ("spoken", "fi", mj.SPOKEN_FI),
                                  ("spoken", "en", mj.SPOKEN_EN)):  # fmt: skip
            for text, where, expected in rows:
                yield (
                    table,
                    lang,
                    lambda t=text, w=where, e=expected, lg=lang: mj.test_parse(parser, t, lg, w, e),
                )
    elif game == "coloretto_amazonas":
        for table, lang, rows in (("base", "fi", co.FINNISH), ("base", "en", co.ENGLISH),
                                  ("spoken", "fi", co.SPOKEN_FI), ("spoken", "en", co.SPOKEN_EN)):  # fmt: skip
            for scenario, seat, text, expected in rows:
                yield (
                    table,
                    lang,
                    lambda s=scenario, k=seat, t=text, e=expected, lg=lang: co.check(parser, s, k, lg, t, e),
                )
    else:
        for table, lang, rows in (("base", "fi", at.FI), ("base", "en", at.EN), ("spoken", "fi", at.SPOKEN_FI),
                                  ("spoken", "en", at.SPOKEN_EN)):  # fmt: skip
            for text, name, expected in rows:
                yield (
                    table,
                    lang,
                    lambda t=text, n=name, e=expected, lg=lang: at._check_row(parser, t, n, e, lg),
                )


PARSERS = {
    "gnav": GnavParser,
    "majavajengi": MajavajengiParser,
    "coloretto_amazonas": ColorettoParser,
    "afrikan_tahti": AfrikanTahtiParser,
}


def main() -> None:
    for backend in ("voikko", "table"):
        try:
            lemmatizer = Lemmatizer(backend=backend)
        except LemmatizerUnavailable:
            print(f"{backend}: not available")
            continue
        for game, cls in PARSERS.items():
            parser = cls(lemmatizer)
            counts: dict[tuple[str, str], list[int]] = {}
            for table, lang, check in _rows(parser, game):
                ok = counts.setdefault((table, lang), [0, 0])
                ok[1] += 1
                try:
                    check()
                    ok[0] += 1
                except Exception:
                    pass
            figures = "  ".join(f"{t}/{lg} {p}/{n}" for (t, lg), (p, n) in sorted(counts.items()))
            print(f"{backend:6} {game:19} {figures}")


if __name__ == "__main__":
    main()
