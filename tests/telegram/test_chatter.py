"""Friends talking in a Telegram group (issue #27): with privacy mode off the bot reads every group
message, and acts on one only when it is addressed to the bot (a mention, a reply to the bot, a
command) or all of it is a move of the player to act. Everyday talk that shares a word with a move
changes nothing and sends nothing, on the real PTB Application over the fake Bot API; the same
sentence with a mention or as a reply is answered. With privacy mode on, Telegram never delivers the
plain sentence at all."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import ANNA, BERTTA, CEDER, GROUP, Harness, run

pytestmark = pytest.mark.telegram

NAMES = {ANNA: "Anna", BERTTA: "Bertta", CEDER: "Ceder"}
#: chatter of the corpus (tests/chatbot/chatter_corpus.py) that old versions applied as a move or
#: answered, in several registers
CHATTER = (
    "nostan maljan Bertalle, onnea!",
    "mä nostin eilen sata kiloa penkistä",
    "i will draw a bath later",
    "vaihda kanavaa, tuo ohjelma on tylsä",
    "joku koputtaa ovella",
    "should i draw or take the discard?",
    "ehkä mä koputan kohta",
    "kurkistin jaakaappiin, ei mitaan syotavaa",
)


async def _game(h: Harness) -> tuple[int, int]:
    """A running Majavajengi match of three; (match id, the user to act)."""
    await h.say(ANNA, "/uusi majavajengi")
    await h.say(BERTTA, "liity")
    await h.say(CEDER, "liity")
    await h.settle()
    await h.say(ANNA, "aloita")
    await h.settle()
    mid = h.match_id()
    match = h.core.repo.match(mid)
    engine = h.core.games[match.game]
    seat = engine.to_act(engine.load(match.state))[0]
    user = h.core.repo.user_by_id(match.seats[seat].user_id)
    return mid, int(user.ext_id)


def _sent(h: Harness) -> list[tuple[str, object]]:
    """What the bot has called that a person would see (messages sent or edited, in any chat)."""
    return [
        (name, params.get("chat_id"))
        for _, name, params in h.server.calls
        if name in {"sendmessage", "editmessagetext", "editmessagereplymarkup", "sendphoto"}
    ]


def test_chatter_in_a_group_changes_nothing_and_sends_nothing_but_addressed_it_is_answered(tg):
    async def body():
        async with tg() as h:  # privacy mode off: every group message reaches the bot
            mid, acting = await _game(h)
            version = h.core.repo.match(mid).version
            for text in CHATTER:
                before = _sent(h)
                await h.say(acting, text)
                await h.settle()
                assert _sent(h) == before, text  # no answer, no table edited, nothing in private
                assert h.core.repo.match(mid).version == version, text
            # the same sentences addressed to the bot: each gets an answer in the group
            bot = f"@{h.server.username}"
            for i, text in enumerate(CHATTER):
                before = len(h.server.bot_messages(GROUP))
                if i % 2:
                    await h.say(acting, f"{bot} {text}")
                else:
                    await h.say(acting, text, reply_to=h.table().message_id)
                await h.settle()
                assert len(h.server.bot_messages(GROUP)) > before, text
                assert h.core.repo.match(mid).version == version, text
            # and a move said plainly by the player to act is still a move
            await h.say(acting, "nostan")
            await h.settle()
            assert h.core.repo.match(mid).version > version

    run(body(), timeout=90)


def test_with_privacy_mode_on_plain_chatter_never_reaches_the_bot(tg):
    async def body():
        async with tg(privacy=True) as h:
            await h.say(ANNA, "/uusi majavajengi")
            await h.settle()
            mid = h.match_id()
            before = _sent(h)
            await h.say(BERTTA, "mennään sit seiskalta")
            await h.settle()
            assert [m.text for m in h.server.withheld] == ["mennään sit seiskalta"]
            assert _sent(h) == before and [s.name for s in h.core.repo.match(mid).seats] == ["Anna"]
            await h.say(BERTTA, f"@{h.server.username} mennään sit seiskalta")
            await h.settle()
            assert len(_sent(h)) > len(before)  # addressed: an answer (what is possible now)

    run(body())
