"""Registry of the chat side of every game: ``UIS`` maps a game id to its :class:`GameUI`.

Every module or package here that defines ``UI`` is registered, so adding a game edits no file here.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil

from chatbot.games.base import GameUI

#: game modules that failed to import, with the error (a test asserts this stays empty)
BROKEN: dict[str, str] = {}


def _discover() -> dict[str, GameUI]:
    found: dict[str, GameUI] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name == "base" or info.name.startswith("_") or info.name.endswith("_parser"):
            continue
        try:
            module = importlib.import_module(f"{__name__}.{info.name}")
        except Exception as exc:  # one broken game must not take the others down; tests assert none
            BROKEN[info.name] = repr(exc)
            logging.getLogger(__name__).exception("cannot load game module %s", info.name)
            continue
        ui = getattr(module, "UI", None)
        if isinstance(ui, GameUI):
            found[ui.game_id] = ui
    return found


UIS: dict[str, GameUI] = _discover()
