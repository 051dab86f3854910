"""The Telegram harness: a fake Bot API server, a core over a temporary SQLite file, and the real
python-telegram-bot Application in between. pytest-asyncio is not used: each test runs its own
coroutine with :func:`run`, under a deadline."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from chatbot.transports.telegram import Limits, TelegramTransport
from tests.telegram.fake_api import FakeTelegram, Msg


def pytest_configure(config):
    # PTB itself reads RetryAfter.retry_after (int vs timedelta deprecation) while building the exception
    config.addinivalue_line("filterwarnings", "ignore::telegram.warnings.PTBDeprecationWarning")


GROUP = -100
UNLIMITED = Limits(overall=None, per_group=None, per_private=None)
ANNA, BERTTA, CEDER, DAVID, EERO = 11, 12, 13, 14, 15


def run(coro: Awaitable[Any], timeout: float = 40.0) -> Any:
    """Run a test coroutine to the end, or fail at the deadline."""

    async def bounded() -> Any:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded())


def make_core(db_path: Path):
    from chatbot.compose import new_core
    from chatbot.storage import SqlRepository

    return new_core(SqlRepository(f"sqlite:///{db_path}"), seed="tg")


@dataclass
class Harness:
    server: FakeTelegram
    transport: TelegramTransport
    db_path: Path
    limits: Limits
    poll_timeout: float = 1.0
    options: dict[str, Any] = field(default_factory=dict)
    #: keyboards used up: (chat, message id, its buttons' data); a panel edited in place with the
    #: buttons of its next step is live again
    pressed: set[tuple[int, int, tuple[str, ...]]] = field(default_factory=set)

    @property
    def core(self):
        return self.transport.core

    async def start_transport(self) -> None:
        self.transport = TelegramTransport(
            make_core(self.db_path),
            self.server.token,
            base_url=self.server.api_url,
            limits=self.limits,
            **self.options,
        )
        await self.transport.start(poll_timeout=self.poll_timeout)

    async def restart(self) -> None:
        await self.transport.stop()
        await self.start_transport()

    # --- acting ---------------------------------------------------------------------------------
    async def say(
        self,
        user: int,
        text: str,
        chat: int = GROUP,
        reply_to: int | None = None,
        text_mentions: dict[str, int] | None = None,
    ) -> Msg:
        return await self.server.send(user, chat, text, reply_to=reply_to, text_mentions=text_mentions)

    async def settle(self) -> None:
        """Wait until the bot has handled everything injected so far and sent it all."""
        server = self.server
        await server.wait_for(lambda: not server.updates and not server._forced, 5, "updates fetched")
        await asyncio.sleep(0.05)
        await server.quiet(0.15, timeout=15)
        assert await self.transport.idle(10)

    async def press(self, user: int, chat: int, msg: Msg, data: str) -> str:
        self.used(chat, msg)
        return await self.server.press(user, chat, msg.message_id, data)

    def used(self, chat: int, msg: Msg) -> None:
        """The message's keyboard as it is now is used up (pressed, or answered by text)."""
        self.pressed.add((chat, msg.message_id, tuple(msg.callback_data())))

    # --- reading --------------------------------------------------------------------------------
    def table(self, chat: int = GROUP) -> Msg:
        keyed = [m for m in self.server.bot_messages(chat) if m.callback_data() or "Majavajengi" in m.shown]
        assert keyed, "no table message in the group"
        return keyed[-1]

    def match_id(self, chat: int = GROUP) -> int:
        for m in reversed(self.server.bot_messages(chat, include_deleted=True)):
            for data in m.callback_data():
                found = re.match(r"(\d+):\d+:", data)
                if found:
                    return int(found[1])
        raise AssertionError("no match id on any group button")

    def prompt(self, user: int) -> Msg | None:
        """The user's newest private message with buttons that nobody pressed yet."""
        for m in reversed(self.server.bot_messages(user)):
            if m.callback_data():
                return None if (user, m.message_id, tuple(m.callback_data())) in self.pressed else m
        return None

    def group_texts(self, chat: int = GROUP) -> list[str]:
        return self.server.texts(chat)


@contextlib.asynccontextmanager
async def harness(
    tmp_path: Path,
    *,
    limits: Limits = UNLIMITED,
    users: dict[int, tuple[str, bool]] | None = None,
    poll_timeout: float = 1.0,
    privacy: bool = False,
    **options: Any,
) -> AsyncIterator[Harness]:
    """Server, core and transport; ``options`` go to :class:`TelegramTransport`; ``privacy`` turns
    on the fake's privacy mode (the bot sees only commands, replies to it and mentions in groups)."""
    server = FakeTelegram(privacy=privacy)
    await server.start()
    server.add_group(GROUP)
    for uid, (name, opened) in (
        users or {ANNA: ("Anna", True), BERTTA: ("Bertta", True), CEDER: ("Ceder", True)}
    ).items():
        server.add_user(uid, name, "fi", opened=opened)
    h = Harness(server, None, tmp_path / "db.sqlite", limits, poll_timeout, options)  # type: ignore[arg-type]
    await h.start_transport()
    try:
        yield h
    finally:
        try:
            await h.transport.stop()
        finally:
            await server.stop()


@pytest.fixture
def tg(tmp_path) -> Callable[..., contextlib.AbstractAsyncContextManager[Harness]]:
    return lambda **kw: harness(tmp_path, **kw)
