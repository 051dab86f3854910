"""Pure rule engines. ``GAMES`` maps a game id to its engine; every module (or package) here that
defines ``ENGINE`` is registered, so a new game needs no edit in this file."""

from __future__ import annotations

import importlib
import logging
import pkgutil

from engines.base import Engine

_NOT_GAMES = {"base", "__main__", "simulate"}


#: game modules that failed to import, with the error (a test asserts this stays empty)
BROKEN: dict[str, str] = {}


def _discover() -> dict[str, Engine]:
    found: dict[str, Engine] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name in _NOT_GAMES or info.name.startswith("_"):
            continue
        try:
            module = importlib.import_module(f"{__name__}.{info.name}")
        except Exception as exc:  # one broken game must not take the others down; tests assert none
            BROKEN[info.name] = repr(exc)
            logging.getLogger(__name__).exception("cannot load game module %s", info.name)
            continue
        engine = getattr(module, "ENGINE", None)
        if isinstance(engine, Engine):
            found[engine.id] = engine
    return found


GAMES: dict[str, Engine] = _discover()

__all__ = ["GAMES", "Engine"]
