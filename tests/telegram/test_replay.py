"""A replay on Telegram (issue #16): one message edited in place by its buttons, not a flood; a
press moves only the replay message it was made on, and every press is answered."""

from __future__ import annotations

import pytest

from tests.chatbot.finished import finished_match
from tests.telegram.conftest import ANNA, BERTTA, GROUP, Harness, run

pytestmark = pytest.mark.telegram


def labelled(msg, label: str) -> str:
    return next(data for row in msg.buttons() for text, data in row if text == label)


async def replay_message(h: Harness, count: int):
    await h.server.wait_for(
        lambda: len([m for m in h.server.bot_messages(GROUP) if m.shown.startswith("🎬")]) >= count,
        10,
        "the replay message",
    )
    return [m for m in h.server.bot_messages(GROUP) if m.shown.startswith("🎬")][count - 1]


def test_replay_buttons_edit_their_own_message(tg):
    async def body():
        async with tg() as h:
            people = [(str(ANNA), "Anna"), (str(BERTTA), "Bertta")]
            mid = finished_match(h.core.repo, "telegram", str(GROUP), people)
            await h.say(BERTTA, f"/replay {mid}")
            first = await replay_message(h, 1)
            assert " – alkuasetelma\n" in first.shown
            await h.say(ANNA, f"näytä peli {mid}")
            second = await replay_message(h, 2)
            before = len(h.server.bot_messages(GROUP))
            await h.press(BERTTA, GROUP, first, labelled(first, "Seuraava ▶"))
            await h.server.wait_for(lambda: "siirto 1/" in first.shown, 10, "the first replay to step")
            await h.press(ANNA, GROUP, first, labelled(first, "Seuraava ▶"))
            await h.server.wait_for(lambda: "siirto 2/" in first.shown, 10, "the second step")
            await h.press(ANNA, GROUP, first, labelled(first, "Loppuun ⏭"))
            last = len(h.core.repo.actions(mid))
            await h.server.wait_for(lambda: f"siirto {last}/{last}" in first.shown, 10, "the end")
            await h.settle()
            # one message edited in place; the other replay untouched; every press answered
            assert len(h.server.bot_messages(GROUP)) == before
            assert first.edits == 3 and second.edits == 0 and " – alkuasetelma\n" in second.shown
            assert set(h.server.answers) == set(h.server.queries)
            # typed words step the latest replay pressed in the chat
            await h.say(BERTTA, "edellinen")
            await h.server.wait_for(lambda: f"siirto {last - 1}/{last}" in first.shown, 10, "a typed step")
            assert second.edits == 0

    run(body(), timeout=90)
