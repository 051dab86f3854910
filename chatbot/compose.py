"""The composition root: the registries of games and their chat side handed to the core.

``chatbot.core`` never imports ``chatbot.games``, a transport or storage; this module (used by
``python -m chatbot`` and by the tests) is where they meet.
"""

from __future__ import annotations

from typing import Any

from chatbot.core.ports import Repository
from chatbot.core.service import BotCore
from chatbot.games import UIS
from engines import GAMES


def new_core(repo: Repository, *, cls: type[BotCore] = BotCore, **kwargs: Any) -> BotCore:
    """A ``cls`` core over ``repo`` with every registered game (``games=``/``uis=`` override)."""
    kwargs.setdefault("uis", UIS)
    kwargs.setdefault("games", GAMES)
    return cls(repo, **kwargs)
