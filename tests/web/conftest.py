"""Fixtures of the web view's tests: a real table (the core over a SQLite file) with the view served
on a free port in a thread of its own, and ONE headless Chromium per test session (Debian's
``chromium`` driven by Playwright; no browser is downloaded)."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from chatbot.core.types import Inbound, Outbound
from chatbot.web.server import WebServer
from chatbot.web.settings import WebSettings
from tests.chatbot.table import GROUP, Table
from tests.conftest import free_port

CHROMIUM = "/usr/bin/chromium"
BOT_TOKEN = "123456:TEST-token-of-the-fake-bot"


class BrowserThread:
    """Playwright's sync API on a thread of its own. Playwright leaves its event loop marked as
    running in the thread that started it, and every later ``asyncio.run()`` of that thread then
    fails (the Telegram and Matrix tests that share the pytest worker): the tests' thread must never
    start it."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="playwright")
        self.browser: Any = None

    def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return self._pool.submit(fn, *args, **kwargs).result()

    def start(self, executable: str) -> Any:
        def launch() -> Any:
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
            return self._playwright.chromium.launch(
                executable_path=executable,
                headless=True,
                args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
            )

        self.browser = self.call(launch)
        return Remote(self, self.browser)

    def close(self) -> None:
        def stop() -> None:
            self.browser.close()
            self._playwright.stop()

        try:
            self.call(stop)
        finally:
            self._pool.shutdown(wait=True)


class Remote:
    """A Playwright object used from the tests' thread: every access runs on the browser's thread
    (event handlers it is given run there too)."""

    def __init__(self, thread: BrowserThread, target: Any) -> None:
        object.__setattr__(self, "_thread", thread)
        object.__setattr__(self, "_target", target)

    def __getattr__(self, name: str) -> Any:
        thread: BrowserThread = object.__getattribute__(self, "_thread")
        value = thread.call(getattr, object.__getattribute__(self, "_target"), name)
        if callable(value) and not isinstance(value, type):

            def method(*args: Any, **kwargs: Any) -> Any:
                return _wrap(thread, thread.call(value, *args, **kwargs))

            return method
        return _wrap(thread, value)


def _wrap(thread: BrowserThread, value: Any) -> Any:
    if type(value).__module__.startswith("playwright."):
        return Remote(thread, value)
    if isinstance(value, list):
        return [_wrap(thread, v) for v in value]
    return value


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole session (each test opens its own context)."""
    executable = shutil.which("chromium") or (CHROMIUM if Path(CHROMIUM).exists() else None)
    if executable is None:
        pytest.skip("chromium is not installed (scripts/setup.sh test installs Debian's chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("the playwright package is not installed (scripts/setup.sh test installs it)")
    thread = BrowserThread()
    try:
        yield thread.start(executable)
    finally:
        thread.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A phone-sized page of its own."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    try:
        yield context.new_page()
    finally:
        context.close()


@dataclass
class WebTable:
    """A table of the chat tests with the web view served beside it."""

    table: Table
    server: WebServer
    loop: asyncio.AbstractEventLoop
    base: str

    @property
    def core(self) -> Any:
        return self.table.core

    def links(self, outs: list[Outbound]) -> list[str]:
        return [b.data for o in outs for row in o.buttons for b in row if b.data.startswith(self.base)]

    def personal_link(self, user: str) -> str:
        """The newest link in ``user``'s private chat."""
        mine = self.links([o for o in self.table.sent if o.user_id == user])
        assert mine, f"no link was sent to {user}"
        return mine[-1]

    def group_link(self, group: str = GROUP) -> str:
        mine = self.links([o for o in self.table.sent if o.chat_id == group])
        assert mine, "no link in the group"
        return mine[-1]

    def press_move(self, user: str, choose: Any) -> bool:
        """``user`` presses one of the game's buttons of their newest prompt (``choose`` picks it
        from the list); False when they have none."""
        prompt = self.table.prompt_for(user)
        if prompt is None:
            return False
        moves = [b for row in prompt.buttons for b in row if not b.data.startswith(("http://", "https://"))]
        if not moves:
            return False
        self.table.press(user, choose(moves).data)
        return True


def start_web(table: Table, bot_token: str | None = BOT_TOKEN, **kwargs: Any) -> WebTable:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="web-test-loop", daemon=True)
    thread.start()
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    lock = threading.Lock()

    async def act(msg: Inbound) -> None:
        """A press in the page, as the transport's runtime would hand it to the core (the AI moves
        that follow included)."""

        def press() -> None:
            with lock:
                table._deliver(table.core.handle(msg))

        await asyncio.to_thread(press)

    kwargs.setdefault("act", act)
    server = WebServer(
        table.core, WebSettings(base, port=port, secret=b"test-secret-of-the-web-view"), bot_token, **kwargs
    )
    table.core.web_links = server.links
    asyncio.run_coroutine_threadsafe(server.start("127.0.0.1", port), loop).result(10)
    return WebTable(table, server, loop, base)


def stop_web(web: WebTable) -> None:
    asyncio.run_coroutine_threadsafe(web.server.stop(), web.loop).result(10)
    web.loop.call_soon_threadsafe(web.loop.stop)


@pytest.fixture
def web() -> Iterator[WebTable]:
    """A fresh table over a SQLite file with the web view on a free port."""
    folder = tempfile.mkdtemp(prefix="webview-")
    made = start_web(Table(url=f"sqlite:///{folder}/table.sqlite"))
    try:
        yield made
    finally:
        stop_web(made)
        shutil.rmtree(folder, ignore_errors=True)
