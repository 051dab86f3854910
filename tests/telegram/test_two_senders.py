"""Two bot processes deliver to the same people (issue #28, the three-worker run): each private chat
is sent by whichever process holds its claim at the time, and a process's memory of a chat's live
prompt may be older than what another process did since. A table delivered by one process must not
take the buttons off a panel that the other one has just edited with the buttons of the next step:
the person would be left without a working button (the three-worker test saw exactly that after a
kill: the match at version 9, the panel still at 8's buttons, or at none).

Each process here is the real :class:`~chatbot.transports.telegram.delivery.Sender` over PTB's
``Bot`` and the fake Bot API; rows are handed over as the runtime hands them (per chat in order,
with the reference of the key's message sent before)."""

from __future__ import annotations

import asyncio

import pytest
from telegram import Bot

from chatbot.core.types import PROMPT, TABLE, Button, Outbound
from chatbot.runtime.limits import OFF, RateLimiter
from chatbot.transports.telegram.app import api_urls
from chatbot.transports.telegram.delivery import Sender
from tests.telegram.fake_api import FakeTelegram

pytestmark = pytest.mark.telegram

USER = 7001
GROUP = -4001
MATCH = 3


def panel(version: int, key: str = "prompt:3:0:5") -> Outbound:
    return Outbound(
        "telegram",
        f"Sinun vuorosi (v{version})",
        user_id=str(USER),
        buttons=((Button("Nosta", f"{MATCH}:{version}:draw"),),),
        key=key,
        role=PROMPT,
        match_id=MATCH,
        version=version,
        seat=0,
    )


def table(version: int) -> Outbound:
    return Outbound(
        "telegram",
        f"Pöytä (v{version})",
        chat_id=str(GROUP),
        key=f"table:{MATCH}",
        role=TABLE,
        match_id=MATCH,
        version=version,
    )


def question(version: int) -> Outbound:
    """A prompt that is no panel: sent once, never edited (a question that offers moves)."""
    return Outbound(
        "telegram",
        f"Kumman valitset? (v{version})",
        user_id=str(USER),
        buttons=((Button("Tämä", f"{MATCH}:{version}:take 1"),),),
        role=PROMPT,
        match_id=MATCH,
        version=version,
        seat=0,
    )


async def sender_of(server: FakeTelegram) -> Sender:
    api, files = api_urls(server.api_url)
    bot = Bot(server.token, base_url=api, base_file_url=files)
    await bot.initialize()
    sender = Sender(RateLimiter(OFF))
    sender.bot = bot
    return sender


async def started_server() -> FakeTelegram:
    """The fake Bot API with the group and the person (who opened the bot)."""
    server = FakeTelegram()
    await server.start()
    server.add_group(GROUP)
    server.add_user(USER, "Anna", "fi", opened=True)
    return server


def live_versions(server: FakeTelegram) -> list[str]:
    """The versions the buttons of the person's messages act on, per message with buttons."""
    return [d.split(":")[1] for m in server.bot_messages(USER) for d in m.callback_data()]


def test_a_table_delivered_elsewhere_leaves_the_panel_edited_since_its_buttons():
    async def body():
        server = await started_server()
        a, b = await sender_of(server), await sender_of(server)
        try:
            # process B sends the turn's panel (v7), then A holds the chat and edits it (v8, v9);
            # B's memory still says the chat's prompt is that message at v7
            ref = await b.deliver(panel(7), None, "ob70")
            ref = await a.deliver(panel(8), ref, "ob80")
            # the unit of version 9: the group's table, then the panel's next step
            ref = await a.deliver(panel(9), ref, "ob91")
            await b.deliver(table(9), None, "ob90")
            await a.settle()
            await b.settle()
            assert live_versions(server) == ["9"], server.bot_messages(USER)[-1].buttons()
            # a later table of a version the panel has not reached yet: its buttons are stale
            # now; the panel's own next edit (the core sends one with every new version)
            # carries the live buttons again
            await b.deliver(table(10), None, "ob100")
            await b.settle()
            await a.deliver(panel(10), ref, "ob101")
            await a.settle()
            assert live_versions(server) == ["10"]
        finally:
            await server.stop()

    asyncio.run(body())


def test_a_question_of_an_older_version_loses_its_buttons_when_a_newer_table_is_out():
    """What the table's delivery is for: a prompt the person answered by typing, or one the match
    moved past, keeps no buttons that would only answer "stale"."""

    async def body():
        server = await started_server()
        a = await sender_of(server)
        try:
            await a.deliver(question(4), None, "ob40")
            await a.deliver(table(4), None, "ob41")
            await a.settle()
            assert live_versions(server) == ["4"], "the table of its own version leaves it"
            await a.deliver(table(5), None, "ob50")
            await a.settle()
            assert live_versions(server) == []
        finally:
            await server.stop()

    asyncio.run(body())


def test_a_prompt_keeps_its_buttons_behind_a_table_drawn_again_at_its_version():
    """The group's table drawn again at the same version (someone asked for it) and delivered before
    the prompt of that version (the private chat's queue was slower): the prompt is live."""

    async def body():
        server = await started_server()
        a = await sender_of(server)
        try:
            await a.deliver(table(6), None, "ob60")
            await a.deliver(table(6), None, "ob62")
            await a.settle()
            await a.deliver(question(6), None, "ob61")
            await a.settle()
            assert live_versions(server) == ["6"]
            # a table of a newer version before it: the prompt goes without its stale buttons
            await a.deliver(table(8), None, "ob80")
            await a.settle()
            await a.deliver(question(7), None, "ob71")
            await a.settle()
            assert live_versions(server) == []
        finally:
            await server.stop()

    asyncio.run(body())
