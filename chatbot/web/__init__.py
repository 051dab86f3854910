"""The web view of a match (issue #29): the table one tap away from the chat.

The bot serves it itself (:class:`~chatbot.web.server.WebServer`, aiohttp) beside the Telegram
polling or webhook bot or the Matrix bot, when ``WEB_PUBLIC_URL`` is set
(:mod:`chatbot.web.settings`). Telegram opens it as a Mini App and vouches for the user
(:mod:`chatbot.web.auth`); elsewhere the bot hands out signed links. What a page shows is made by
:mod:`chatbot.web.snapshot` from the same views and renderers as the chat, with the table drawn by
:mod:`chatbot.web.pictures`.
"""

from __future__ import annotations

from typing import Any

from chatbot.web.settings import WebSettings


def web_from_env(core: Any, bot_token: str | None = None) -> Any:
    """The web view configured by the environment, its links handed to ``core``; None when off."""
    settings = WebSettings.from_env()
    if settings is None:
        return None
    from chatbot.web.server import WebServer

    server = WebServer(core, settings, bot_token)
    core.web_links = server.links
    return server


__all__ = ["WebSettings", "web_from_env"]
