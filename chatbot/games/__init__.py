"""Registry of the chat side of every game: ``UIS`` maps a game id to its :class:`GameUI`.

Every module or package here that defines ``UI`` is registered, so adding a game edits no file here.
"""

from __future__ import annotations

import importlib
import pkgutil

from chatbot.games.base import GameUI


def _discover() -> dict[str, GameUI]:
    found: dict[str, GameUI] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name == "base" or info.name.startswith("_") or info.name.endswith("_parser"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        ui = getattr(module, "UI", None)
        if isinstance(ui, GameUI):
            found[ui.game_id] = ui
    return found


UIS: dict[str, GameUI] = _discover()
