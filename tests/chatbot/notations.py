"""Parser results in notation, so that the parser tests' tables stay readable.

The parsers take and return the engines' action objects (``Parsed((Take(2),))``); a table row reads
better as ``P("take 2")``. :func:`notation` writes one action with its engine's codec, and
:func:`written` a whole result (``Parsed`` and ``Ambiguous`` in notation, anything else as it is).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from chatbot.core.parsing import Ambiguous, Later, Parsed
from engines import GAMES


def notation(action: Any) -> str:
    """The action's notation, in the codec of the engine whose action it is (a :class:`Later` step:
    its own notation)."""
    if isinstance(action, Later):
        return action.notation
    for engine in GAMES.values():
        try:
            return engine.notation(action)
        except TypeError:  # not an action of this game
            continue
    raise TypeError(f"not an action of any game: {action!r}")


def notations(actions: Any) -> tuple[str, ...]:
    return tuple(notation(a) for a in actions)


def written(result: Any) -> Any:
    """``result`` with its actions (``Parsed``) or candidates (``Ambiguous``) as notations."""
    if isinstance(result, Parsed):
        return Parsed(notations(result.actions))
    if isinstance(result, Ambiguous):
        return replace(result, candidates=notations(result.candidates))
    return result
