"""A lighter HTTP client under python-telegram-bot: :class:`AiohttpRequest` (issue #12, fast path).

PTB's default :class:`~telegram.request.HTTPXRequest` spends about a millisecond of Python per Bot
API call in httpx/httpcore/anyio (a profile of ``scripts/bench_echo.py``: the bot makes about five
calls per update, the echo bot one). aiohttp (already a dependency: the webhook server, the Matrix
client) does the same work in C for the most part. ``TELEGRAM_HTTP=httpx`` switches back to PTB's
own class.

Requests are PTB's ``RequestData``: plain parameters go as an urlencoded form (as HTTPXRequest
sends them), uploads (a photo) as multipart. Timeouts map to aiohttp's: ``connect`` covers the wait
for a free pooled connection (PTB's pool timeout) plus connecting, ``sock_read`` is the read timeout.
"""

from __future__ import annotations

import os
from typing import Any

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, HTTPXRequest, RequestData


def _value(given: ODVInput[float], default: float | None) -> float | None:
    return default if isinstance(given, DefaultValue) else given


class AiohttpRequest(BaseRequest):
    """:class:`telegram.request.BaseRequest` on one :class:`aiohttp.ClientSession`."""

    __slots__ = ("_connect", "_limit", "_media_write", "_pool", "_read", "_session", "_write")

    def __init__(
        self,
        connection_pool_size: int = 32,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        self._limit = connection_pool_size
        self._read, self._write, self._connect = read_timeout, write_timeout, connect_timeout
        self._pool, self._media_write = pool_timeout, media_write_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._limit, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(
                connector=connector, headers={"User-Agent": self.USER_AGENT}, trust_env=True
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data else None
        fields = request_data.json_parameters if request_data else None
        body: Any = None
        if files:
            form = aiohttp.FormData(quote_fields=False)
            for name, value in (fields or {}).items():
                form.add_field(name, value)
            for name, (filename, content, mimetype) in files.items():
                form.add_field(name, content, filename=filename, content_type=mimetype)
            body = form
        elif fields:
            body = fields
        connect = _value(connect_timeout, self._connect)
        pool = _value(pool_timeout, self._pool)
        write = _value(write_timeout, self._media_write if files else self._write)
        read = _value(read_timeout, self._read)
        timeout = aiohttp.ClientTimeout(
            total=None,
            connect=None if connect is None or pool is None else connect + pool,
            sock_connect=connect,
            # aiohttp has no write timeout of its own: a slow upload counts against the read one
            sock_read=None if read is None else read + (write or 0.0),
        )
        try:
            async with session.request(method, url, data=body, timeout=timeout) as response:
                return response.status, await response.read()
        except TimeoutError as exc:
            raise TimedOut from exc
        except aiohttp.ClientError as exc:
            raise NetworkError(f"aiohttp.{type(exc).__name__}: {exc}") from exc


def bot_request(connection_pool_size: int) -> BaseRequest:
    """A request object for the bot's calls: aiohttp unless ``TELEGRAM_HTTP=httpx``."""
    if os.environ.get("TELEGRAM_HTTP", "").strip().lower() == "httpx":
        return HTTPXRequest(connection_pool_size=connection_pool_size)
    return AiohttpRequest(connection_pool_size=connection_pool_size)


__all__ = ["AiohttpRequest", "bot_request"]
