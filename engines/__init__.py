"""Pure rule engines. ``GAMES`` maps a game id to its engine; every module (or package) here that
defines ``ENGINE`` is registered, so a new game needs no edit in this file."""

from __future__ import annotations

from engines.contract import Engine
from engines.registry import discover

_NOT_GAMES = {"codec", "contract", "playout", "registry", "simulate", "work"}

#: ``GAMES`` by id; ``BROKEN``: game modules that failed to import, with the error (tests assert none)
GAMES, BROKEN = discover(
    __name__,
    __path__,
    "ENGINE",
    Engine,  # type: ignore[type-abstract]  # only used for isinstance()
    lambda e: e.id,
    _NOT_GAMES.__contains__,
)

__all__ = ["BROKEN", "GAMES", "Engine"]
