"""A new message sent just before the process died is not sent again (issue #12, kill -9).

The Bot API has no idempotency key: the bot notes, before a new message goes out, the newest message
id it knows in that chat's sequence; a restarted bot that finds the row still pending edits the ids
after the note to the row's own text, and Telegram's "message is not modified" tells that the message
is there. The fake numbers messages as Telegram does (private chats and basic groups share the bot's
one sequence), so other chats' messages fall between the note and the message.
"""

from __future__ import annotations

import time

from chatbot.core.ports import ChatQueue
from chatbot.core.types import Button, Outbound
from chatbot.storage import SqlRepository
from tests.telegram.conftest import ANNA, BERTTA, GROUP, run

TEXT = "Nostit kortin [7]. Mitä teet sillä?"
BUTTONS = ((Button("Vaihda", "1:3:replace 1"), Button("Poista", "1:3:discard")),)


def _newest_box_id(server) -> int:
    return max(
        (
            m.message_id
            for chat, ms in server.messages.items()
            for m in ms.values()
            if chat > -1_000_000_000_000
        ),
        default=0,
    )


async def _dead_attempt(h, *, reached: bool) -> int:
    """Stop the bot, commit a row, and play the dead process's attempt: the note, then (if
    ``reached``) the message on Telegram with other chats' messages before it. Returns the row id."""
    await h.say(ANNA, "/apua", chat=ANNA)
    await h.settle()
    await h.transport.stop()
    repo = SqlRepository(f"sqlite:///{h.db_path}")
    out = Outbound("telegram", TEXT, user_id=str(ANNA), buttons=BUTTONS)
    repo.outbox_add([out])
    (row,) = repo.outbox_pending(ChatQueue.user("telegram", str(ANNA)), time.time())
    note = h.transport.sender.send_note(row.out, None)
    assert note == {"after": _newest_box_id(h.server), "box": True}
    repo.outbox_sending(row.id, note)
    # meanwhile someone writes in another private chat and in the group: ids of the same sequence
    await h.server.send(BERTTA, BERTTA, "moi")
    await h.server.send(BERTTA, GROUP, "hei kaikki")
    if reached:
        h.server.m_sendmessage(
            {
                "chat_id": ANNA,
                "text": TEXT,
                "reply_markup": {
                    "inline_keyboard": [
                        [
                            {"text": "Vaihda", "callback_data": "1:3:replace 1"},
                            {"text": "Poista", "callback_data": "1:3:discard"},
                        ]
                    ]
                },
            }
        )
    repo.engine.dispose()
    return row.id


def _state(h, row_id: int) -> str:
    from sqlalchemy import text

    with h.core.repo.engine.connect() as conn:
        return str(conn.execute(text("SELECT state FROM outbox WHERE id = :i"), {"i": row_id}).scalar())


def test_a_message_that_reached_telegram_before_the_crash_is_not_sent_again(tg):
    async def body():
        async with tg() as h:
            row_id = await _dead_attempt(h, reached=True)
            await h.start_transport()
            await h.settle()
            sent = [m for m in h.server.bot_messages(ANNA) if m.shown == TEXT]
            assert len(sent) == 1, [m.message_id for m in sent]
            assert sent[0].callback_data() == ["1:3:replace 1", "1:3:discard"]  # the probe changed nothing
            assert sent[0].edits == 0
            assert _state(h, row_id) == "done"
            assert h.transport.sender.stats["found"] == 1
            # someone else's message in between was not touched
            assert [m.shown for m in h.server.messages[BERTTA].values() if not m.from_bot] == ["moi"]

    run(body())


def test_a_message_that_never_left_is_sent_once_after_the_restart(tg):
    async def body():
        async with tg() as h:
            row_id = await _dead_attempt(h, reached=False)
            await h.start_transport()
            await h.settle()
            sent = [m for m in h.server.bot_messages(ANNA) if m.shown == TEXT]
            assert len(sent) == 1
            assert _state(h, row_id) == "done"
            assert h.transport.sender.stats["found"] == 0

    run(body())
