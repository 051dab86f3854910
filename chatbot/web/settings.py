"""The web view's settings (issue #29), from the environment:

``WEB_PUBLIC_URL``   the page's public address (https://example.org/poyta/); set, it turns the view on
``WEB_PORT``         the port the view listens on (default 8080; in Telegram's webhook mode the same
                     port as ``TELEGRAM_WEBHOOK_PORT`` serves both)
``WEB_LISTEN``       the address it listens on (default 127.0.0.1, behind a reverse proxy)
``WEB_SECRET``       the key that signs the bot's links (default: a random one kept in the database,
                     shared by every worker of the same database)
``WEB_LINK_DAYS``    how many days a link the bot hands out stays valid (default 7)
``WEB_TELEGRAM_APP`` the Mini App's direct link (https://t.me/<bot>/<app>, made with BotFather's
                     /newapp): groups' table messages open it, with the match in ``startapp``;
                     without it a group's button opens the public table in the browser
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from chatbot.web.auth import INIT_DATA_MAX_AGE, LINK_TTL


@dataclass(frozen=True, slots=True)
class WebSettings:
    public_url: str
    port: int = 8080
    listen: str = "127.0.0.1"
    secret: bytes | None = None
    link_ttl: float = LINK_TTL
    init_max_age: float = INIT_DATA_MAX_AGE
    telegram_app: str | None = None

    def __post_init__(self) -> None:
        if not self.public_url.endswith("/"):
            object.__setattr__(self, "public_url", self.public_url + "/")

    @property
    def path(self) -> str:
        """The path the page is served at ("/poyta/"), the same behind a proxy as on the server."""
        return urlsplit(self.public_url).path or "/"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> WebSettings | None:
        """The settings of the environment, None when ``WEB_PUBLIC_URL`` is not set (the view is off)."""
        env = os.environ if env is None else env
        url = (env.get("WEB_PUBLIC_URL") or "").strip()
        if not url:
            return None
        if urlsplit(url).scheme not in ("https", "http"):
            raise ValueError("WEB_PUBLIC_URL must be an http(s) address")
        secret = env.get("WEB_SECRET") or None
        return cls(
            public_url=url,
            port=int(env.get("WEB_PORT") or 8080),
            listen=env.get("WEB_LISTEN") or "127.0.0.1",
            secret=secret.encode() if secret else None,
            link_ttl=float(env.get("WEB_LINK_DAYS") or 7) * 24 * 3600,
            telegram_app=(env.get("WEB_TELEGRAM_APP") or "").strip() or None,
        )
