"""The web view with the real Telegram transport (python-telegram-bot against the fake Bot API):
the group's table carries a link to the public table, a player's private prompt a Mini App button;
the Mini App opened with the player's signed initData shows their own seat, and a move pressed in the
Telegram chat shows in the open page within 2 s."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any
from urllib.parse import quote

import pytest

from chatbot.web.auth import sign_init_data
from chatbot.web.server import WebServer
from chatbot.web.settings import WebSettings
from tests.conftest import free_port
from tests.telegram.conftest import ANNA, harness

pytestmark = pytest.mark.telegram


def test_telegram_opens_the_view_and_a_move_pressed_in_chat_shows_within_two_seconds(tmp_path, page) -> None:
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()

    def on_loop(coro: Any, timeout: float = 30) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, loop).result(timeout)

    manager = harness(tmp_path, users={ANNA: ("Anna", True)})
    h = on_loop(manager.__aenter__())
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    web = WebServer(
        h.core, WebSettings(base, port=port, secret=b"telegram-test-secret-of-the-view"), h.server.token
    )
    h.core.web_links = web.links
    h.transport.sender.web_app = base
    web.act = h.transport.runtime.handle
    on_loop(web.start("127.0.0.1", port))
    try:
        for text in ("/uusi majavajengi", "lisää botti", "/aloita"):
            on_loop(h.say(ANNA, text))
            on_loop(h.settle())
        table = h.table()
        urls = [b.get("url") for row in table.reply_markup["inline_keyboard"] for b in row if b.get("url")]
        assert urls and urls[0].startswith(f"{base}?t="), table.reply_markup  # the group: public table
        prompt = next(m for m in reversed(h.server.bot_messages(ANNA)) if m.reply_markup)
        apps = [
            b["web_app"]["url"]
            for row in prompt.reply_markup["inline_keyboard"]
            for b in row
            if "web_app" in b
        ]
        assert apps == [f"{base}?m={h.match_id()}"], prompt.reply_markup  # private: a Mini App button
        fields = {
            "auth_date": str(int(time.time())),
            "user": json.dumps({"id": ANNA, "first_name": "Anna", "language_code": "fi"}),
        }
        page.goto(
            f"{apps[0]}#tgWebAppData={quote(sign_init_data(fields, h.server.token))}&tgWebAppVersion=8.0"
        )
        page.wait_for_function("document.body.dataset.state === 'ready'", timeout=10_000)
        assert page.locator("#private .panel").count() == 1
        assert "Anna" in page.inner_text("#private")
        # Anna presses a move in her private chat (Telegram's callback query)
        for _ in range(50):
            prompt = h.prompt(ANNA)
            if prompt is not None:
                break
            on_loop(h.settle())
        assert prompt is not None
        before = page.evaluate("document.body.dataset.version")
        pressed = time.monotonic()
        on_loop(h.press(ANNA, ANNA, prompt, prompt.callback_data()[0]))
        page.wait_for_function(f"document.body.dataset.version !== '{before}'", timeout=2000)
        assert time.monotonic() - pressed < 2.0
    finally:
        on_loop(web.stop())
        on_loop(manager.__aexit__(None, None, None))
        loop.call_soon_threadsafe(loop.stop)
