"""The command line entry point: a bot configured by ``MATRIX_*`` environment variables."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from typing import TYPE_CHECKING, Any

from chatbot.transports.matrix.base import LoginFailed
from chatbot.transports.matrix.bot import MatrixBot
from chatbot.web import web_from_env

if TYPE_CHECKING:
    from chatbot.core.service import BotCore

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


# ----------------------------------------------------------------------------------------------
# the command line entry point


def _env_flag(name: str) -> bool | None:
    value = os.environ.get(name)
    if value is None or value == "":
        return None
    return value.strip().lower() in {"1", "true", "yes", "on"}


def bot_from_env(core: BotCore) -> MatrixBot:
    """A :class:`MatrixBot` configured by ``MATRIX_*`` environment variables (see deploy/matrix.md)."""
    homeserver = os.environ.get("MATRIX_HOMESERVER", "")
    user = os.environ.get("MATRIX_USER", "")
    if not homeserver or not user:
        raise ValueError("MATRIX_HOMESERVER and MATRIX_USER must be set")
    repost = os.environ.get("MATRIX_REPOST_AFTER")
    return MatrixBot(
        core,
        homeserver,
        user,
        password=os.environ.get("MATRIX_PASSWORD") or None,
        access_token=os.environ.get("MATRIX_ACCESS_TOKEN") or None,
        store_path=os.environ.get("MATRIX_STORE") or None,
        encryption=_env_flag("MATRIX_E2E"),
        encrypt_dms=_env_flag("MATRIX_ENCRYPT_DMS"),
        device_name=os.environ.get("MATRIX_DEVICE_NAME") or "Pelibotti",
        display_name=os.environ.get("MATRIX_DISPLAY_NAME") or None,
        ai_delay=float(os.environ.get("MATRIX_AI_DELAY") or 1.0),
        repost_after=None if repost in {"0", "never"} else int(repost or 12),
    )


async def _serve(bot: MatrixBot, web: Any = None) -> int:
    """The bot (and the web view beside it, on its own port) until SIGINT/SIGTERM."""
    if web is not None:
        await web.start()
    try:
        return await _serve_bot(bot)
    finally:
        if web is not None:
            await web.stop()


async def _serve_bot(bot: MatrixBot) -> int:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await bot.start()
    except LoginFailed as exc:
        log.error("%s", exc)
        return 1
    waiter = asyncio.create_task(stop.wait())
    finished = asyncio.create_task(bot.done.wait())
    await asyncio.wait({waiter, finished}, return_when=asyncio.FIRST_COMPLETED)
    waiter.cancel()
    finished.cancel()
    failed = bot.failed
    await bot.stop()
    return 1 if failed is not None else 0


def main(core: BotCore) -> int:
    """Run the Matrix bot until SIGINT/SIGTERM; the exit code for ``python -m chatbot matrix``."""
    try:
        bot = bot_from_env(core)
        web = web_from_env(core)  # the web view (issue #29), when WEB_PUBLIC_URL is set
        if web is not None:
            web.act = bot.runtime.handle  # a move pressed in the page, as a press in private
    except ValueError as exc:
        print(f"matrix: {exc} (see deploy/matrix.md)", flush=True)
        return 2
    return asyncio.run(_serve(bot, web))
