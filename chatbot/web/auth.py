"""Who is looking at a match: Telegram Mini App ``initData`` and the bot's own signed links.

Telegram signs what a Mini App is opened with: the ``initData`` query string carries ``hash``, the
HMAC-SHA256 of its other fields (sorted ``key=value`` lines joined by ``\\n``) under the key
``HMAC_SHA256(key="WebAppData", msg=<bot token>)``. :func:`check_init_data` checks that and the age
of ``auth_date`` before anything in it (the user id) is trusted.

A link the bot hands out itself (a Matrix player's personal link, a group's link to the public
table, a Telegram group's Mini App ``startapp`` parameter) is a :class:`Grant` signed with the
server's secret: the match, optionally the platform user whose seats it opens, and an expiry. The
token is ``<32 hex digits of HMAC-SHA256><base64url of the compact JSON>``, so it fits where
Telegram allows only ``[A-Za-z0-9_-]`` (``startapp``, at most 512 characters).

Anything that does not check out raises :class:`Forbidden`, whose text says nothing about why (the
server answers every refusal the same way).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode

#: how old a Mini App's ``auth_date`` may be (seconds): a day, as a Mini App stays open for long
INIT_DATA_MAX_AGE = 24 * 3600
#: how long a link the bot hands out is valid (seconds)
LINK_TTL = 7 * 24 * 3600
_SIG_LEN = 32


class Forbidden(Exception):
    """The request may not see what it asks for (a forged, expired or foreign credential)."""


@dataclass(frozen=True, slots=True)
class TelegramUser:
    """The user a valid ``initData`` names, and what it says besides."""

    id: str
    name: str
    lang: str | None
    start_param: str | None


def _secret_key(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def _check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")


def sign_init_data(fields: dict[str, str], bot_token: str) -> str:
    """``fields`` as Telegram would hand them to a Mini App: the query string with its ``hash``
    (for tests and the benchmark; the server only checks)."""
    digest = hmac.new(_secret_key(bot_token), _check_string(fields).encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def check_init_data(
    init_data: str, bot_token: str | None, max_age: float = INIT_DATA_MAX_AGE, now: float | None = None
) -> TelegramUser:
    """The user of a Mini App's ``initData`` once its signature and age check out; else Forbidden."""
    if not bot_token or not init_data or len(init_data) > 8192:
        raise Forbidden()
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise Forbidden() from None
    fields = dict(pairs)
    if len(fields) != len(pairs):  # a field twice: which one was signed?
        raise Forbidden()
    given = fields.get("hash", "")
    want = hmac.new(_secret_key(bot_token), _check_string(fields).encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode(), want.encode()):
        raise Forbidden()
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError):
        raise Forbidden() from None
    now = time.time() if now is None else now
    if not (now - max_age <= auth_date <= now + 60):
        raise Forbidden()
    name = str(user.get("first_name") or user.get("username") or user_id)
    lang = user.get("language_code")
    return TelegramUser(str(user_id), name, str(lang) if lang else None, fields.get("start_param") or None)


@dataclass(frozen=True, slots=True)
class Grant:
    """What a signed link opens: match ``match``; with ``user`` (a platform user id on ``platform``)
    also that user's seats; valid until ``expires`` (epoch seconds)."""

    match: int
    expires: int
    user: str | None = None
    platform: str | None = None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"m": self.match, "e": self.expires}
        if self.user is not None:
            data["u"] = self.user
            data["p"] = self.platform
        return data


class Signer:
    """Signs and reads :class:`Grant` tokens with the server's secret."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the web view's secret must be at least 16 bytes")
        self._secret = secret

    def _sig(self, body: bytes) -> str:
        return hmac.new(self._secret, b"web-link:" + body, hashlib.sha256).hexdigest()[:_SIG_LEN]

    def token(self, grant: Grant) -> str:
        body = json.dumps(grant.payload(), separators=(",", ":"), sort_keys=True).encode()
        return self._sig(body) + base64.urlsafe_b64encode(body).decode().rstrip("=")

    def read(self, token: str, now: float | None = None) -> Grant:
        """The grant of a token that is the server's own and not expired; else Forbidden."""
        if not token or len(token) > 512 or not token.isascii():
            raise Forbidden()
        sig, text = token[:_SIG_LEN], token[_SIG_LEN:]
        try:
            body = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        except ValueError:
            raise Forbidden() from None
        if not hmac.compare_digest(sig.encode(), self._sig(body).encode()):
            raise Forbidden()
        try:
            data = json.loads(body)
            grant = Grant(
                match=int(data["m"]),
                expires=int(data["e"]),
                user=str(data["u"]) if "u" in data else None,
                platform=str(data["p"]) if "u" in data else None,
            )
        except (KeyError, ValueError, TypeError):
            raise Forbidden() from None
        if grant.expires < (time.time() if now is None else now):
            raise Forbidden()
        return grant


def expiry(now: float, ttl: float = LINK_TTL) -> int:
    """An expiry at least ``ttl`` seconds away, rounded up to a whole day, so that the link in a
    table edited all day long stays the same text (no edit only for a new link)."""
    day = 24 * 3600
    return int((now + ttl) // day + 1) * day
