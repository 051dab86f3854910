"""Print the pass figures of the table-driven parser tests per game, language and lemmatiser backend:
``python -m tests.chatbot.parser_figures``. The spoken-form rows of issue #15 are counted apart from the
older rows, so the figure of each is seen (the tests themselves assert that every row passes)."""

from __future__ import annotations

from collections.abc import Callable
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


def _tables(fi: list, en: list, spoken_fi: list, spoken_en: list) -> dict[tuple[str, str], list]:
    return {("base", "fi"): fi, ("base", "en"): en, ("spoken", "fi"): spoken_fi, ("spoken", "en"): spoken_en}


#: per game: its parser, its tables of rows by (table, language), and how one row is checked (it
#: raises when the row does not pass)
GAMES: dict[str, tuple[type, dict[tuple[str, str], list], Callable[[Any, str, tuple], None]]] = {
    "gnav": (
        GnavParser,
        _tables(gn.FI, gn.EN, gn.SPOKEN_FI, gn.SPOKEN_EN),
        lambda parser, lang, row: gn.test_parse(parser, row[0], lang, row[1], row[2]),
    ),
    "majavajengi": (
        MajavajengiParser,
        _tables(mj.FI, mj.EN, mj.SPOKEN_FI, mj.SPOKEN_EN),
        lambda parser, lang, row: mj.test_parse(parser, row[0], lang, row[1], row[2]),
    ),
    "coloretto_amazonas": (
        ColorettoParser,
        _tables(co.FINNISH, co.ENGLISH, co.SPOKEN_FI, co.SPOKEN_EN),
        lambda parser, lang, row: co.check(parser, row[0], row[1], lang, row[2], row[3]),
    ),
    "afrikan_tahti": (
        AfrikanTahtiParser,
        _tables(at.FI, at.EN, at.SPOKEN_FI, at.SPOKEN_EN),
        lambda parser, lang, row: at._check_row(parser, row[0], row[1], row[2], lang),
    ),
}


def main() -> None:
    for backend in ("voikko", "table"):
        try:
            lemmatizer = Lemmatizer(backend=backend)
        except LemmatizerUnavailable:
            print(f"{backend}: not available")
            continue
        for game, (cls, tables, check) in GAMES.items():
            parser = cls(lemmatizer)
            counts: dict[tuple[str, str], list[int]] = {}
            for (table, lang), rows in tables.items():
                ok = counts.setdefault((table, lang), [0, 0])
                for row in rows:
                    ok[1] += 1
                    try:
                        check(parser, lang, row)
                        ok[0] += 1
                    except Exception:
                        pass
            figures = "  ".join(f"{t}/{lg} {p}/{n}" for (t, lg), (p, n) in sorted(counts.items()))
            print(f"{backend:6} {game:19} {figures}")


if __name__ == "__main__":
    main()
