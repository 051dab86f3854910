"""Serving the Telegram bot: :func:`main` runs it until SIGINT/SIGTERM, by long polling or, when
``TELEGRAM_WEBHOOK_URL`` is set, as a webhook.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from typing import Any
from urllib.parse import urlsplit

from telegram import Update

from chatbot.runtime.limits import telegram_limits
from chatbot.transports.telegram.app import AI_DELAY, ALLOWED_UPDATES, TelegramTransport, build_transport
from chatbot.web import web_from_env


def main(core: Any) -> int:
    """Run the bot until SIGINT/SIGTERM: long polling, or a webhook when ``TELEGRAM_WEBHOOK_URL`` is
    set. ``TELEGRAM_RATE_LIMITS=off`` switches Telegram's limits off (a local or test Bot API)."""
    token = os.environ.get("TELEGRAM_TOKEN")
    if not token:
        print("TELEGRAM_TOKEN is not set", file=sys.stderr)
        return 2
    try:
        limits = telegram_limits()
    except ValueError as exc:
        print(f"telegram: {exc}", file=sys.stderr)
        return 2
    try:
        ai_delay = float(os.environ.get("TELEGRAM_AI_DELAY") or AI_DELAY)
    except ValueError:
        print("telegram: TELEGRAM_AI_DELAY must be a number of seconds", file=sys.stderr)
        return 2
    transport = build_transport(
        core, token, os.environ.get("TELEGRAM_API_URL") or None, limits=limits, ai_delay=ai_delay
    )
    webhook = os.environ.get("TELEGRAM_WEBHOOK_URL")
    try:
        web = web_from_env(core, token)  # the web view (issue #29), when WEB_PUBLIC_URL is set
    except ValueError as exc:
        print(f"telegram: {exc}", file=sys.stderr)
        return 2
    if web is not None:
        transport.sender.web_app = web.settings.public_url
        web.act = transport.runtime.handle  # a move pressed in the page, as a press in private
    try:
        if webhook:
            asyncio.run(
                _serve_webhook(
                    transport,
                    listen=os.environ.get("TELEGRAM_WEBHOOK_LISTEN", "127.0.0.1"),
                    port=int(os.environ.get("TELEGRAM_WEBHOOK_PORT", "8443")),
                    url=webhook,
                    secret=os.environ.get("TELEGRAM_WEBHOOK_SECRET") or None,
                    web=web,
                )
            )
        else:
            asyncio.run(_serve_polling(transport, web))
    except OSError as exc:  # the webhook port is taken, for example
        print(f"telegram: {exc}", file=sys.stderr)
        return 1
    return 0


def _stop_event() -> asyncio.Event:
    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stopped.set)
    return stopped


async def _serve_webhook(
    transport: TelegramTransport, *, listen: str, port: int, url: str, secret: str | None, web: Any = None
) -> None:
    """Webhook mode (N workers behind one URL): an update is answered 200 only after it has been
    handled and committed, so Telegram sends an update that a dying worker took again (to any
    worker; the update id deduplicates it). SIGINT/SIGTERM stop cleanly. ``web`` is the web view
    (issue #29), served on the same port when its settings say so."""
    from aiohttp import web as aio

    view = web

    stopped = _stop_event()
    app = transport.application
    await app.initialize()
    await transport._post_init(app)
    await app.start()

    async def receive(request: aio.Request) -> aio.Response:
        if secret and request.headers.get("X-Telegram-Bot-Api-Secret-Token") != secret:
            return aio.Response(status=403)
        try:
            data = await request.json()
        except ValueError:
            return aio.Response(status=400)
        update = Update.de_json(data, app.bot)
        if update is None:
            return aio.Response(status=400)
        await app.process_update(update)
        return aio.Response(status=200)

    server = aio.Application()
    server.router.add_post("/" + urlsplit(url).path.lstrip("/"), receive)
    # the web view: on the webhook's own server when it has the same port, else on its own
    shared = view is not None and view.settings.port == port
    if shared:
        view.mount(server)
    runner = aio.AppRunner(server, access_log=None)
    await runner.setup()
    site = aio.TCPSite(runner, listen, port)
    try:
        await site.start()
        if view is not None and not shared:
            await view.start()
        await app.bot.set_webhook(url, secret_token=secret, allowed_updates=ALLOWED_UPDATES)
        await stopped.wait()
    finally:
        if view is not None and not shared:
            await view.stop()
        await runner.cleanup()
        await transport.stop()


async def _serve_polling(transport: TelegramTransport, web: Any = None) -> None:
    """Long polling until SIGINT/SIGTERM, then a clean stop (pending rows stay in the outbox); the
    web view (issue #29) on its own port beside it."""
    stopped = _stop_event()
    if web is not None:
        await web.start()
    await transport.start(poll_timeout=30)
    try:
        await stopped.wait()
    finally:
        await transport.stop()
        if web is not None:
            await web.stop()
