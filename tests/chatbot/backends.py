"""The whole bot on one lemmatiser backend: Voikko, or the committed word-form table as when Voikko
is not installed (DESIGN.md §4). The games' parsers and the core take the process-wide default
lemmatiser, so a backend is chosen by what ``Lemmatizer()`` finds: with Voikko made unloadable it
falls back to the table, exactly as on a machine without libvoikko."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from chatbot.core.nlp import Lemmatizer, LemmatizerUnavailable, lemmas
from chatbot.games.afrikan_tahti import parser as at_parser
from chatbot.games.coloretto_amazonas import parser as co_parser
from chatbot.games.gnav import parser as gn_parser
from chatbot.games.majavajengi import parser as mj_parser

_DEFAULTS = (
    lemmas.default_lemmatizer,
    mj_parser._default_parser,
    gn_parser._default_parser,
    co_parser._default_parser,
    at_parser._default_parser,
)
_REAL_OPEN = lemmas._open_voikko


def _no_voikko() -> object:
    raise LemmatizerUnavailable("Voikko switched off for this run")


def _clear() -> None:
    for cached in _DEFAULTS:
        cached.cache_clear()


def use_backend(backend: str) -> None:
    """Make ``backend`` ("voikko" or "table") the default of the process from now on; raises
    :class:`LemmatizerUnavailable` when Voikko is asked for and cannot be loaded."""
    lemmas._open_voikko = _no_voikko if backend == "table" else _REAL_OPEN  # type: ignore[assignment]
    _clear()
    if backend == "voikko":
        Lemmatizer(backend="voikko")  # raises where Voikko is missing
    assert lemmas.default_lemmatizer().backend == backend


@contextmanager
def backend(name: str) -> Iterator[Lemmatizer]:
    """The default lemmatiser of the process is ``name``'s while inside (see :func:`use_backend`)."""
    try:
        use_backend(name)
        yield lemmas.default_lemmatizer()
    finally:
        lemmas._open_voikko = _REAL_OPEN  # type: ignore[assignment]
        _clear()
