"""Registry of the chat side of every game: ``UIS`` maps a game id to its :class:`GameUI`.

Every package here that defines ``UI`` is registered, so adding a game edits no file here: a new game
starts as a copy of a game's folder. ``drawing`` is the pictures' shared font loader, not a game.
"""

from __future__ import annotations

from chatbot.core.gameui import GameUI
from engines.registry import discover


def _not_a_game(name: str) -> bool:
    return name == "drawing"


#: ``UIS`` by game id; ``BROKEN``: modules that failed to import, with the error (tests assert none)
UIS, BROKEN = discover(__name__, __path__, "UI", GameUI, lambda ui: ui.game_id, _not_a_game)  # type: ignore[type-abstract]  # only used for isinstance()
