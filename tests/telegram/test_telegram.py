"""The Telegram transport against the fake Bot API server (real PTB Application, real HTTP)."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from chatbot.core.ports import OVER, RUNNING
from chatbot.core.types import Button, Outbound
from chatbot.transports.telegram import Limits, RateLimiter
from chatbot.transports.telegram.app import coalesce
from chatbot.transports.telegram.delivery import parse_ref, split_text, utf16_len
from tests.telegram.conftest import ANNA, BERTTA, CEDER, DAVID, EERO, GROUP, Harness, run
from tests.telegram.fake_api import NOT_MODIFIED

pytestmark = pytest.mark.telegram

PLAYERS = {ANNA: "Anna", BERTTA: "Bertta", CEDER: "Ceder"}
#: button preference of the test players: end rounds soon
PREFERENCE = ("knock", "end", "discard", "stop", "draw")
#: texts that only a private chat may show
PRIVATE_MARKERS = (
    "Nostit",
    "You drew",
    "Katsot reunimmaiset",
    "You look at your outer cards",
    "In your hand",
    "Kädessäsi",
)
FINAL = "🏆"


def notation(data: str) -> str:
    return data.split(":", 2)[2]


def version(data: str) -> int:
    return int(data.split(":", 2)[1])


def choose(datas: list[str]) -> str:
    by_notation = {notation(d): d for d in datas}
    for wanted in PREFERENCE:
        if wanted in by_notation:
            return by_notation[wanted]
    return datas[0]


def table_ref(h: Harness, mid: int) -> dict:
    """The stored reference of the group's table message (the runtime keeps it per chat and key)."""
    return parse_ref(h.core.repo.message_ref(f"telegram:g:{GROUP}", f"table:{mid}"))


def final_text(h: Harness) -> str | None:
    for text in h.group_texts():
        if FINAL in text:
            return text
    return None


async def new_game(h: Harness, options: str = " rounds=1") -> int:
    await h.say(ANNA, f"/uusi majavajengi{options}")
    await h.say(BERTTA, "liity")
    await h.settle()
    mid = h.match_id()
    lobby = h.table()
    join = next(d for d in lobby.callback_data() if d.endswith("@join"))
    await h.press(CEDER, GROUP, lobby, join)
    await h.server.wait_for(lambda: "Ceder" in h.table().shown, 5, "Ceder seated")
    return mid


async def current_prompt(h: Harness, mid: int, players=PLAYERS, timeout: float = 5.0):
    """(user, message, data) of the acting user's fresh private prompt, or None when the game is over."""

    def ready():
        if final_text(h):
            return ("over",)
        match = h.core.repo.match(mid)
        for uid in players:
            msg = h.prompt(uid)
            if msg is not None and version(msg.callback_data()[0]) == match.version:
                return (uid, msg)
        return None

    found = await h.server.wait_for(ready, timeout, "the acting player's prompt")
    return None if found[0] == "over" else found


async def play(
    h: Harness, mid: int, *, text_player: int | None = ANNA, max_actions: int = 400, players=PLAYERS
) -> int:
    """Play to the end: ``text_player`` writes Finnish, the others press private buttons."""
    actions = 0
    while actions < max_actions:
        found = await current_prompt(h, mid, players)
        if found is None:
            return actions
        uid, msg = found
        datas = msg.callback_data()
        before = h.core.repo.match(mid).version
        if uid == text_player:
            h.used(uid, msg)  # answered by text: this keyboard is used up
            kinds = {notation(d) for d in datas}
            if "draw" in kinds:
                await h.say(uid, "nostan")  # group-safe: in the group
            elif "discard" in kinds:
                await h.say(uid, "hylkään", chat=uid)  # while holding a card: in private
            elif "knock" in kinds:
                await h.say(uid, "koputan")
            elif "end" in kinds:
                await h.say(uid, "valmis")
            else:
                await h.press(uid, uid, msg, choose(datas))
        else:
            await h.press(uid, uid, msg, choose(datas))
        await h.server.wait_for(
            lambda b=before: h.core.repo.match(mid).version > b or final_text(h),
            5,
            f"the game to move after {uid}'s action",
        )
        actions += 1
    raise AssertionError("the game did not end")


# ------------------------------------------------------------------------------------------------
# a whole game


def test_full_game_in_a_group(tg):
    async def body():
        async with tg() as h:
            mid = await new_game(h)
            await h.say(ANNA, "aloita")
            actions = await play(h, mid)
            await h.settle()
            final = final_text(h)
            assert final is not None and actions > 0
            # final scores are those of the engine
            match = h.core.repo.match(mid)
            engine = h.core.games["majavajengi"]
            outcome = engine.outcome(engine.load(match.state))
            for seat, name in enumerate(PLAYERS.values()):
                assert re.search(rf"\d+\. {name}: {outcome.scores[seat]}\b", final), (name, final)
            # rounds=1 was asked for
            assert match.options.get("rounds") == 1, f"options not parsed by the core: {match.options}"
            # hands only in private: no private event line and no private marker in any group text
            group = "\n".join(h.group_texts())
            for marker in PRIVATE_MARKERS:
                assert marker not in group
            for uid in PLAYERS:
                for text in h.server.texts(uid):
                    for line in text.splitlines():
                        if line.startswith("▸ "):
                            assert line not in group, line
            # every private prompt went to a private chat; group keyboards only on the table
            assert all(m.chat_id == GROUP for m in h.server.bot_messages(GROUP))
            # about one new group message per turn at most: the table is edited in place
            new_group = h.server.calls_to(GROUP, {"sendmessage", "sendphoto"})
            seats = [a.seat for a in h.core.repo.actions(mid)]
            turns = sum(1 for i, seat in enumerate(seats) if i == 0 or seats[i - 1] != seat)
            assert len(new_group) <= turns + 3, (len(new_group), turns)
            # no private keyboard outlives the game
            assert not [m for uid in PLAYERS for m in h.server.bot_messages(uid) if m.callback_data()]
            # every callback query was answered
            assert set(h.server.answers) == set(h.server.queries)

    run(body(), timeout=45)


# ------------------------------------------------------------------------------------------------
# users who never opened the bot


def test_unopened_user_gets_deep_link_and_held_messages(tg):
    users = {ANNA: ("Anna", True), BERTTA: ("Bertta", True), CEDER: ("Ceder", False), DAVID: ("David", False)}

    async def body():
        async with tg(users=users) as h:
            await h.say(ANNA, "/uusi majavajengi rounds=1")
            await h.say(BERTTA, "/liity")
            await h.settle()
            mid = h.match_id()
            # the link the group is shown (it carries the match's invitation word)
            link = h.core.deep_link(mid)
            assert link.startswith(f"https://t.me/{h.server.username}?start=join-{mid}-")
            payload = link.rpartition("=")[2]
            # David opens the bot through the deep link: he is seated and his private chat opens
            await h.say(DAVID, f"/start {payload}", chat=DAVID)
            await h.server.wait_for(lambda: "David" in h.table().shown, 5, "David seated through the link")
            await h.server.wait_for(lambda: h.server.bot_messages(DAVID), 5, "a greeting in David's chat")
            # Ceder joins in the group but never opened the bot
            await h.say(CEDER, "liity")
            await h.server.wait_for(lambda: "Ceder" in h.table().shown, 5, "Ceder seated")
            await h.say(ANNA, "aloita")
            notice = await h.server.wait_for(
                lambda: next((m for m in h.server.bot_messages(GROUP) if link in m.shown), None),
                5,
                "the deep-link notice in the group",
            )
            assert "Ceder" in notice.shown
            assert any(data == link for row in notice.buttons() for _label, data in row)
            await h.settle()
            assert h.server.bot_messages(CEDER) == []
            assert h.server.bot_messages(DAVID)[-1].shown.startswith("🦫")  # David got his cards
            assert sum(link in t for t in h.group_texts()) == 1  # one notice, not one per message
            # Ceder opens the link: nothing is lost, the held private message arrives
            await h.say(CEDER, f"/start {payload}", chat=CEDER)
            held = await h.server.wait_for(lambda: h.server.bot_messages(CEDER), 5, "Ceder's held message")
            assert "Majavajengi" in held[0].shown and "▸" in held[0].shown
            seats = [s.name for s in h.core.repo.match(mid).seats]
            assert seats == ["Anna", "Bertta", "David", "Ceder"]
            # and the game goes on with Ceder in it
            players = {ANNA: "Anna", BERTTA: "Bertta", DAVID: "David", CEDER: "Ceder"}
            found = await current_prompt(h, mid, players)
            assert found is not None

    run(body())


# ------------------------------------------------------------------------------------------------
# buttons that must not act


def test_stale_and_forged_buttons(tg):
    async def body():
        async with tg() as h:
            mid = await new_game(h)
            await h.say(ANNA, "aloita")
            uid, msg = await current_prompt(h, mid)
            assert uid == ANNA
            stale_data = choose(msg.callback_data())
            await h.press(ANNA, ANNA, msg, stale_data)
            await h.server.wait_for(lambda: h.core.repo.match(mid).version > version(stale_data), 5, "a move")
            await h.settle()
            v = h.core.repo.match(mid).version
            group_calls = len(h.server.calls_to(GROUP))

            async def toast(user: int, chat: int, message_id: int, data: str) -> str:
                qid = await h.server.press(user, chat, message_id, data)
                answer = await h.server.wait_for(lambda: h.server.answer_of(qid), 5, f"answer to {data}")
                return answer.get("text") or ""

            # the same button once more: stale
            stale = await toast(ANNA, ANNA, msg.message_id, stale_data)
            # a forged match id, garbage, and another user's seat
            wrong_match = await toast(ANNA, ANNA, msg.message_id, f"{mid + 41}:{v}:draw")
            garbage = await toast(ANNA, ANNA, msg.message_id, "x" * 10)
            acting_uid, prompt = await current_prompt(h, mid)
            other = next(u for u in PLAYERS if u != acting_uid)
            not_yours = await toast(other, other, prompt.message_id, prompt.callback_data()[0])
            await h.settle()
            assert stale and wrong_match and garbage and not_yours, (stale, wrong_match, garbage, not_yours)
            # a forged id and garbage get one answer that tells nothing about any match
            assert "vanhentunut" in stale and "ei toimi täällä" in wrong_match
            assert wrong_match == garbage
            assert not_yours not in (stale, wrong_match)
            assert h.core.repo.match(mid).version == v  # nothing was applied
            assert len(h.server.calls_to(GROUP)) == group_calls  # and the group saw nothing

    run(body())


def test_stranger_presses_group_button(tg):
    async def body():
        async with tg() as h:
            h.server.add_user(EERO, "Eero", "en")
            mid = await new_game(h)
            await h.say(ANNA, "aloita")
            await current_prompt(h, mid)
            await h.settle()
            table = h.table()
            v = h.core.repo.match(mid).version
            assert table.callback_data(), "the table offers the group-safe actions"
            qid = await h.server.press(EERO, GROUP, table.message_id, table.callback_data()[0])
            answer = await h.server.wait_for(lambda: h.server.answer_of(qid), 5, "the answer")
            assert answer.get("text")  # "You are not playing in this game."
            await h.settle()
            assert h.core.repo.match(mid).version == v

    run(body())


# ------------------------------------------------------------------------------------------------
# transport robustness


def test_duplicate_update_is_applied_once(tg):
    async def body():
        async with tg() as h:
            await h.say(ANNA, "/uusi majavajengi")
            join = await h.say(BERTTA, "/liity")
            await h.settle()
            calls = len(h.server.calls)
            update_id = next(
                u
                for u, upd in h.server.sent_updates.items()
                if upd.get("message", {}).get("message_id") == join.message_id
            )
            await h.server.redeliver(update_id)
            await h.server.wait_for(lambda: h.transport.stats["duplicates"] == 1, 5, "the duplicate dropped")
            await h.settle()
            assert len(h.server.calls) == calls  # no "you already have a seat" answer
            assert [s.name for s in h.core.repo.match(h.match_id()).seats] == ["Anna", "Bertta"]

    run(body())


def test_429_storm_loses_nothing(tg):
    async def body():
        async with tg() as h:
            mid = await new_game(h)
            await h.settle()
            h.server.fail(None, times=4, code=429, retry_after=1)
            started = time.monotonic()
            await h.say(ANNA, "aloita")
            await h.settle()
            assert len(h.server.failed) == 4
            assert h.transport.sender.stats["retry_after"] >= 4
            assert time.monotonic() - started >= 1.0
            # everything arrived: the started table and each player's hand
            assert "Majavajengi" in h.table().shown and h.table().callback_data()
            for uid in PLAYERS:
                assert any("▸" in m.shown for m in h.server.bot_messages(uid)), uid
            assert await current_prompt(h, mid) is not None

    run(body())


def test_rejected_edits(tg):
    async def body():
        async with tg() as h:
            mid = await new_game(h)
            await h.settle()
            table = h.table()
            # 400 "message is not modified": taken as done, the same message stays the table
            h.server.fail("editMessageText", times=1, code=400, description=NOT_MODIFIED)
            await h.say(ANNA, "/botti")
            await h.settle()
            assert h.server.failed == [("editmessagetext", 400)]
            assert h.table().message_id == table.message_id
            # the table message was deleted: the next edit fails, the table is sent anew
            h.server.messages[GROUP][table.message_id].deleted = True
            await h.say(ANNA, "aloita")
            await h.settle()
            new_table = h.table()
            assert new_table.message_id != table.message_id
            assert "1/" in new_table.shown or "Majavajengi" in new_table.shown
            stored = table_ref(h, mid)
            assert stored["id"] == new_table.message_id
            # and later edits go to the new message
            uid, msg = await current_prompt(h, mid)
            await h.press(uid, uid, msg, choose(msg.callback_data()))
            await h.server.wait_for(
                lambda: h.server.messages[GROUP][new_table.message_id].edits > 0,
                5,
                "an edit of the new table",
            )
            await h.settle()
            assert h.table().message_id == new_table.message_id

    run(body())


def test_restart_in_the_middle_of_a_match(tg):
    async def body():
        async with tg() as h:
            mid = await new_game(h, options="")
            await h.say(ANNA, "aloita")
            for _ in range(4):
                uid, msg = await current_prompt(h, mid)
                before = h.core.repo.match(mid).version
                await h.press(uid, uid, msg, choose(msg.callback_data()))
                await h.server.wait_for(lambda b=before: h.core.repo.match(mid).version > b, 5, "a move")
            await h.settle()
            table_id = h.table().message_id
            first_update = min(h.server.sent_updates)
            v = h.core.repo.match(mid).version
            await h.restart()
            await h.settle()
            assert h.core.repo.match(mid).version == v
            # the table is the same message (re-edited if its text changed), not a new one
            assert h.table().message_id == table_id
            # an update Telegram delivers again after the restart is still applied once
            await h.server.redeliver(first_update)
            await h.server.wait_for(lambda: h.transport.stats["duplicates"] == 1, 5, "the old update dropped")
            # the match continues: the acting player's prompt from before the restart still works
            uid, msg = await current_prompt(h, mid)
            await h.press(uid, uid, msg, choose(msg.callback_data()))
            await h.server.wait_for(lambda: h.core.repo.match(mid).version > v, 5, "a move after the restart")
            await h.settle()
            assert h.table().message_id == table_id
            assert h.server.messages[GROUP][table_id].edits >= 1

    run(body())


SUPERGROUP = -1001234567890


async def press_until_over(h: Harness, mid: int, chat: int) -> None:
    """Press the acting player's private buttons until the match is over (its result in ``chat``)."""
    for _ in range(300):
        match = h.core.repo.match(mid)
        if match.status != RUNNING:
            break
        found = await current_prompt(h, mid)
        if found is None:
            break
        uid, msg = found
        await h.press(uid, uid, msg, choose(msg.callback_data()))
        await h.server.wait_for(
            lambda v=match.version: h.core.repo.match(mid).version > v, 5, "a move in the supergroup"
        )
    await h.settle()
    assert h.core.repo.match(mid).status == OVER
    assert any(FINAL in t for t in h.group_texts(chat))


@pytest.mark.parametrize("notify", [True, False], ids=["service-messages", "refused-send-only"])
def test_a_group_upgraded_to_a_supergroup_keeps_its_match(tg, notify):
    """Telegram upgrades a group to a supergroup when an admin changes some settings: the chat id
    changes and the old one refuses every call. The running match, its queue and its table move to
    the new chat, whether the bot hears of it from the service messages or only from a refused send."""

    async def body():
        async with tg() as h:
            mid = await new_game(h)
            await h.say(ANNA, "aloita")
            for _ in range(3):
                uid, msg = await current_prompt(h, mid)
                before = h.core.repo.match(mid).version
                await h.press(uid, uid, msg, choose(msg.callback_data()))
                await h.server.wait_for(lambda b=before: h.core.repo.match(mid).version > b, 5, "a move")
            await h.settle()
            await h.server.migrate(GROUP, SUPERGROUP, by=ANNA, notify=notify)
            if not notify:
                # the next change of the match makes a send to the old chat, which is refused
                uid, msg = await current_prompt(h, mid)
                await h.press(uid, uid, msg, choose(msg.callback_data()))
            await h.server.wait_for(
                lambda: any(
                    m.callback_data() or "Majavajengi" in m.shown for m in h.server.bot_messages(SUPERGROUP)
                ),
                5,
                "the table posted in the supergroup",
            )
            await h.settle()
            room = h.core.repo.room("telegram", str(SUPERGROUP))
            assert h.core.repo.active_match(room.id).id == mid
            # "tila" in the new chat shows this match, not "no game here"
            await h.say(BERTTA, "tila", chat=SUPERGROUP)
            await h.settle()
            assert "Majavajengi" in h.group_texts(SUPERGROUP)[-1]
            await press_until_over(h, mid, SUPERGROUP)
            # nothing was lost on the way: every call to the old chat after the move was refused,
            # and the only ones were the refused send that told the bot of it
            refused = [
                c for c in h.server.calls if str(c[2].get("chat_id")) == str(GROUP) and "_error" in c[2]
            ]
            assert len(refused) == (0 if notify else 1)

    run(body())


def test_a_whole_game_in_privacy_mode_by_replies_mentions_and_buttons(tg):
    """Telegram's default privacy mode: in a group the bot gets only commands, replies to its own
    messages and mentions. The lobby and the table say what works, one message tells the admins how
    to let the bot read plain messages, and a whole match is played by replies, a mention, commands
    and buttons; a plain message in the group never reaches the bot and is not needed."""

    async def body():
        async with tg(privacy=True) as h:
            bot = f"@{h.server.username}"
            await h.say(ANNA, "/uusi majavajengi rounds=1")
            await h.settle()
            lobby = h.table()
            assert "/liity" in lobby.shown and "vastauksena" in lobby.shown
            admin_notes = [t for t in h.group_texts() if "/setprivacy" in t]
            assert len(admin_notes) == 1
            await h.say(BERTTA, "liity")  # plain text: withheld by Telegram
            await h.settle()
            assert [m.text for m in h.server.withheld] == ["liity"]
            mid = h.match_id()
            assert [s.name for s in h.core.repo.match(mid).seats] == ["Anna"]
            await h.say(BERTTA, f"{bot} liity")  # a mention reaches the bot, without the mention
            await h.say(CEDER, "liity", reply_to=lobby.message_id)  # so does a reply to its message
            await h.settle()
            assert [s.name for s in h.core.repo.match(mid).seats] == ["Anna", "Bertta", "Ceder"]
            await h.say(ANNA, "/aloita")
            await h.settle()
            assert "↩️" in h.table().shown
            typed = 0
            for _ in range(300):
                found = await current_prompt(h, mid)
                if found is None:
                    break
                uid, msg = found
                datas = msg.callback_data()
                kinds = {notation(d) for d in datas}
                before = h.core.repo.match(mid).version
                if uid == ANNA and kinds & {"draw", "knock", "end"}:
                    h.used(uid, msg)
                    word = "nostan" if "draw" in kinds else "koputan" if "knock" in kinds else "valmis"
                    await h.say(ANNA, word, reply_to=h.table().message_id)  # typed, as a reply
                    typed += 1
                else:
                    await h.press(uid, uid, msg, choose(datas))
                await h.server.wait_for(
                    lambda b=before: h.core.repo.match(mid).version > b or final_text(h), 5, "a move"
                )
            await h.settle()
            assert typed >= 1
            assert h.core.repo.match(mid).status == OVER and final_text(h)
            # the admins were told once, and no plain group message was ever needed
            assert len([t for t in h.group_texts() if "/setprivacy" in t]) == 1
            assert [m.text for m in h.server.withheld] == ["liity"]

    run(body(), timeout=60)


def test_without_privacy_mode_the_lobby_asks_for_plain_words(tg):
    async def body():
        async with tg() as h:
            await h.say(ANNA, "/uusi majavajengi")
            await h.settle()
            assert "”liity”" in h.table().shown and not [t for t in h.group_texts() if "/setprivacy" in t]

    run(body())


FORUM = -1009876543210


def test_two_games_in_two_topics_of_one_forum_group(tg):
    """A forum group: a match belongs to its chat and topic, every message goes to the topic where
    the game was set up, and two topics host two games at once (nothing lands in General)."""

    async def body():
        async with tg() as h:
            server = h.server
            server.add_group(FORUM, "Pelikerho", topics=(11, 12))

            def in_topic(thread: int | None) -> list:
                return server.bot_messages(FORUM, thread=thread)

            def table_in(thread: int):
                return [m for m in in_topic(thread) if m.callback_data()][-1]

            await server.send(ANNA, FORUM, "/uusi majavajengi rounds=1", thread=11)
            await server.send(BERTTA, FORUM, "/uusi gnav", thread=12)
            await h.settle()
            await server.send(CEDER, FORUM, "liity", thread=11)
            await h.settle()
            mid11 = int(table_in(11).callback_data()[0].split(":")[0])
            mid12 = int(table_in(12).callback_data()[0].split(":")[0])
            assert mid11 != mid12
            assert [s.name for s in h.core.repo.match(mid11).seats] == ["Anna", "Ceder"]
            assert [s.name for s in h.core.repo.match(mid12).seats] == ["Bertta"]
            await server.send(ANNA, FORUM, "aloita", thread=11)
            await server.send(BERTTA, FORUM, "aloita", thread=12)
            await h.settle()
            assert h.core.repo.match(mid11).game == "majavajengi" and h.core.repo.match(mid12).game == "gnav"
            assert "Majavajengi" in table_in(11).shown and "Gnav" in table_in(12).shown
            # a move in each game, by its private buttons; each table is edited in its own topic
            for mid in (mid11, mid12):
                players = {ANNA: "Anna", CEDER: "Ceder"} if mid == mid11 else {BERTTA: "Bertta"}
                for _ in range(2):
                    found = await current_prompt(h, mid, players=players)
                    if found is None:
                        break
                    uid, msg = found
                    before = h.core.repo.match(mid).version
                    await h.press(uid, uid, msg, choose(msg.callback_data()))
                    await server.wait_for(
                        lambda b=before, m=mid: h.core.repo.match(m).version > b, 5, "a move"
                    )
            await h.settle()
            # "tila" in a topic shows that topic's game
            await server.send(CEDER, FORUM, "tila", thread=12)
            await h.settle()
            assert "Gnav" in in_topic(12)[-1].shown
            assert in_topic(None) == []  # nothing in General
            assert all(m.thread in (11, 12) for m in server.bot_messages(FORUM))
            assert not any("Gnav" in m.shown for m in in_topic(11))
            assert not any("Majavajengi" in m.shown for m in in_topic(12))

    run(body())


def test_removing_the_bot_pauses_the_match_and_adding_it_back_resumes_it(tg):
    async def body():
        async with tg() as h:
            mid = await new_game(h)
            await h.say(ANNA, "aloita")
            uid, msg = await current_prompt(h, mid)
            await h.press(uid, uid, msg, choose(msg.callback_data()))
            await h.settle()
            await h.server.remove_bot(GROUP, by=BERTTA)
            await h.settle()
            match = h.core.repo.match(mid)
            assert match.meta.get("paused") and h.core.repo.deadlines(mid) == []
            for player in PLAYERS:  # every seated person is told in private
                assert "tauolla" in h.server.bot_messages(player)[-1].shown
            # a private button of the paused match changes nothing and says why
            uid, msg = await current_prompt(h, mid)
            await h.press(uid, uid, msg, choose(msg.callback_data()))
            await h.settle()
            assert h.core.repo.match(mid).version == match.version
            answer = h.server.answer_of(max(h.server.queries, key=lambda q: int(q[1:])))
            shown = (answer or {}).get("text") or h.server.bot_messages(uid)[-1].shown
            assert "tauolla" in shown
            await h.server.add_bot(GROUP, by=BERTTA)
            await h.settle()
            assert not h.core.repo.match(mid).meta.get("paused") and h.core.repo.deadlines(mid)
            assert any("jatkuu" in t for t in h.group_texts()[-3:])
            await press_until_over(h, mid, GROUP)

    run(body(), timeout=60)


def test_a_table_deleted_while_the_bot_was_down_is_sent_anew(tg):
    # A restart no longer re-posts every running table (issue #12: 1,000 tables at once starved new
    # commands); the outbox holds only what is pending. The acting player's private prompt is live,
    # and the table deleted meanwhile is sent anew at the match's next change.
    async def body():
        async with tg() as h:
            mid = await new_game(h, options="")
            await h.say(ANNA, "aloita")
            await current_prompt(h, mid)
            await h.settle()
            old = h.table()
            await h.transport.stop()
            old.deleted = True
            h.server.messages[GROUP][old.message_id].text = (
                old.text + " (vanha)"
            )  # differs from the table now
            await h.start_transport()
            await h.settle()
            uid, msg = await current_prompt(h, mid)  # the prompt from before the restart still works
            await h.press(uid, uid, msg, choose(msg.callback_data()))
            await h.server.wait_for(
                lambda: (
                    h.server.bot_messages(GROUP)
                    and any(m.message_id != old.message_id for m in h.server.bot_messages(GROUP))
                ),
                5,
                "the table anew",
            )
            await h.settle()
            assert h.table().message_id != old.message_id
            assert table_ref(h, mid)["id"] == h.table().message_id

    run(body())


# ------------------------------------------------------------------------------------------------
# delivery details


def test_buried_table_is_sent_anew(tg):
    async def body():
        async with tg(bury_after=4) as h:
            mid = await new_game(h)
            await h.say(ANNA, f"/start@{h.server.username}")  # in a group, /start starts the game
            await current_prompt(h, mid)
            await h.settle()
            old = h.table()
            for i in range(5):
                await h.say(BERTTA, f"juttelua {i}")
            await h.settle()
            uid, msg = await current_prompt(h, mid)
            await h.press(uid, uid, msg, choose(msg.callback_data()))
            await h.server.wait_for(lambda: h.table().message_id != old.message_id, 5, "the table re-posted")
            await h.settle()
            assert old.deleted  # the buried copy is gone; one live table
            assert [m for m in h.server.bot_messages(GROUP) if "Majavajengi –" in m.shown] == [h.table()]

    run(body())


def test_commands_and_mentions(tg):
    async def body():
        async with tg() as h:
            commands = h.server.commands
            assert [c["command"] for c in commands[("default", "fi")]] == [
                "uusi",
                "liity",
                "aloita",
                "saannot",
                "kieli",
                "tila",
                "tilastot",
                "historia",
                "uusinta",
                "apua",
            ]
            assert [c["command"] for c in commands[("default", "en")]] == [
                "new",
                "join",
                "start",
                "rules",
                "lang",
                "status",
                "stats",
                "history",
                "rematch",
                "help",
            ]
            assert ("default", "") in commands
            await h.say(ANNA, f"/uusi@{h.server.username} majavajengi")
            await h.say(BERTTA, "/liity@toinen_bot")  # for another bot: ignored
            await h.settle()
            assert [s.name for s in h.core.repo.match(h.match_id()).seats] == ["Anna"]
            # a plain /start in private is Telegram's bot start: the help text
            await h.say(BERTTA, "/start", chat=BERTTA)
            await h.server.wait_for(lambda: h.server.bot_messages(BERTTA), 5, "help in private")
            # a mention goes out of the text and nothing else: the rest keeps its line breaks
            bot = f"@{h.server.username}"
            clean = h.transport.clean_text
            assert clean(f"{bot} nostan\nja sitten koputan") == "nostan\nja sitten koputan"
            assert clean(f"kiitos {bot}, hyvä peli\n\nuusiksi?") == "kiitos hyvä peli\n\nuusiksi?"
            assert clean(f"{bot.upper()}: liity") == "liity"
            assert clean("sähköposti matti@example.org") == "sähköposti matti@example.org"

    run(body())


def test_pictures_and_coalescing(tg):
    png1 = b"\x89PNG\r\n\x1a\n" + b"1" * 100
    png2 = b"\x89PNG\r\n\x1a\n" + b"2" * 100

    async def body():
        async with tg() as h:
            tr = h.transport
            btn = ((Button("Nosta", "1:0:draw"),),)
            tr.dispatch(
                [
                    Outbound("telegram", "pöytä 1", chat_id=str(GROUP), key="pic:1", image=png1, buttons=btn),
                    Outbound("telegram", "pöytä 2", chat_id=str(GROUP), key="pic:1", image=png1, buttons=btn),
                ]
            )
            await h.settle()
            photos = h.server.calls_to(GROUP, {"sendphoto"})
            assert len(photos) == 1 and photos[0][2]["caption"] == "pöytä 2"  # coalesced to the last
            msg = h.server.last_bot_message(GROUP)
            assert msg.photo == png1 and msg.callback_data() == ["1:0:draw"]
            tr.dispatch([Outbound("telegram", "pöytä 3", chat_id=str(GROUP), key="pic:1", image=png1)])
            await h.settle()
            assert h.server.calls_to(GROUP)[-1][1] == "editmessagecaption"
            tr.dispatch([Outbound("telegram", "pöytä 4", chat_id=str(GROUP), key="pic:1", image=png2)])
            await h.settle()
            assert h.server.calls_to(GROUP)[-1][1] == "editmessagemedia"
            assert msg.photo == png2 and msg.caption == "pöytä 4"
            # a text too long for a caption follows the picture as a message of its own
            long_text = "rivi\n" * 400
            tr.dispatch([Outbound("telegram", long_text, user_id=str(ANNA), image=png1)])
            await h.settle()
            sent = h.server.bot_messages(ANNA)
            assert (sent[-2].photo == png1 and sent[-1].text == long_text.strip()) or sent[
                -1
            ].text == long_text
            # a long text is split, never refused
            tr.dispatch([Outbound("telegram", "x" * 5000, user_id=str(ANNA))])
            await h.settle()
            assert [len(m.text or "") for m in h.server.bot_messages(ANNA)[-2:]] == [4096, 904]

    run(body())


def test_lengths_are_counted_as_telegram_counts_them(tg):
    """Telegram counts texts and captions in UTF-16 code units: 🦫 is one character and two units.
    The fake Bot API refuses what the real one refuses, so nothing here may be sent over a limit."""
    png = b"\x89PNG\r\n\x1a\n" + b"3" * 100
    beavers = "🦫" * 510 + "abcd"  # 514 characters, 1,024 units: exactly a caption
    over = "🦫" * 511 + "abcd"  # 515 characters (under 1,024) but 1,026 units: too long for one
    assert len(over) < 1024 and utf16_len(over) > 1024

    async def body():
        async with tg() as h:
            tr = h.transport
            tr.dispatch([Outbound("telegram", beavers, user_id=str(ANNA), image=png)])
            await h.settle()
            assert h.server.bot_messages(ANNA)[-1].caption == beavers
            tr.dispatch([Outbound("telegram", over, user_id=str(ANNA), image=png)])
            await h.settle()
            sent = h.server.bot_messages(ANNA)
            assert sent[-2].photo == png and not sent[-2].caption and sent[-1].text == over
            # a text of 3,000 emoji (6,000 units) is split into chunks Telegram accepts, none cut
            # through a character, and nothing is lost
            long_text = "🃏" * 3000
            tr.dispatch([Outbound("telegram", long_text, user_id=str(ANNA))])
            await h.settle()
            chunks = [m.text or "" for m in h.server.bot_messages(ANNA)[-2:]]
            assert "".join(chunks) == long_text and [utf16_len(c) for c in chunks] == [4096, 1904]
            # a keyed table that grows past one message is sent anew (split), not cut short
            tr.dispatch([Outbound("telegram", "pöytä", chat_id=str(GROUP), key="table:9")])
            await h.settle()
            tr.dispatch([Outbound("telegram", "🦫" * 2100, chat_id=str(GROUP), key="table:9")])
            await h.settle()
            texts = [m.text or "" for m in h.server.bot_messages(GROUP)]
            assert "".join(texts[-2:]) == "🦫" * 2100
            # and not one request was refused on the way
            assert [c[1] for c in h.server.calls if "_error" in c[2]] == []

    run(body())


def test_split_text_never_cuts_a_character():
    for text in ["a" * 4095 + "🦫", "🦫" * 2049, "x\n" + "🦫" * 2048 + "\n" + "y" * 10]:
        chunks = split_text(text)
        assert all(utf16_len(c) <= 4096 for c in chunks)
        assert "".join(chunks).replace("\n", "") == text.replace("\n", "")


def test_coalesce_keeps_the_last_edit_per_key():
    a1 = Outbound("telegram", "a1", chat_id="-1", key="table:1")
    b = Outbound("telegram", "b", user_id="5")
    a2 = Outbound("telegram", "a2", chat_id="-1", key="table:1")
    other = Outbound("telegram", "o", chat_id="-2", key="table:1")
    assert coalesce([a1, b, other, a2]) == [b, other, a2]


def test_rate_limits_queue_and_do_not_drop(tg):
    async def body():
        limits = Limits(overall=(50, 1.0), per_group=(3, 0.6), per_private=None)
        async with tg(limits=limits) as h:
            start = time.monotonic()
            h.transport.dispatch([Outbound("telegram", f"viesti {i}", chat_id=str(GROUP)) for i in range(7)])
            await h.settle()
            sends = h.server.calls_to(GROUP, {"sendmessage"})
            assert [c[2]["text"] for c in sends] == [f"viesti {i}" for i in range(7)]
            times = [c[0] - start for c in sends]
            assert times[3] >= 0.55 and times[6] >= 1.15  # 3 per 0.6 s
            # edits of one key that wait behind the limit collapse into the newest
            h.transport.dispatch(
                [Outbound("telegram", f"pöytä {i}", chat_id=str(GROUP), key="table:9") for i in range(1)]
            )
            for i in range(1, 6):
                h.transport.dispatch([Outbound("telegram", f"pöytä {i}", chat_id=str(GROUP), key="table:9")])
            await h.settle()
            table_calls = [c for c in h.server.calls_to(GROUP) if "pöytä" in str(c[2].get("text"))]
            assert table_calls[-1][2]["text"] == "pöytä 5"
            assert len(table_calls) <= 2

    run(body())


def test_rate_limiter_windows():
    async def body():
        limiter = RateLimiter(Limits(overall=(4, 0.4), per_group=(2, 0.3), per_private=None))
        start = time.monotonic()
        waits = []
        for _ in range(3):
            waits.append(await limiter.acquire(-1, True))
            limiter.done(-1)  # answered at once
        assert waits[0] == 0 and waits[1] == 0 and waits[2] > 0.2
        await limiter.acquire(5, False)
        limiter.done(5)
        t = time.monotonic() - start
        assert t < 0.5
        await limiter.acquire(6, False)  # fifth call overall within 0.4 s waits for the window
        assert time.monotonic() - start >= 0.4

    asyncio.run(asyncio.wait_for(body(), 5))


# ------------------------------------------------------------------------------------------------
# the command line: python -m chatbot telegram


def test_cli_runs_against_the_api_server_and_stops_on_sigint(tmp_path):
    import os
    import signal
    import sys

    from tests.telegram.fake_api import FakeTelegram

    async def body():
        server = FakeTelegram()
        await server.start()
        server.add_group(GROUP)
        server.add_user(ANNA, "Anna")
        env = {
            **os.environ,
            "TELEGRAM_TOKEN": server.token,
            "TELEGRAM_API_URL": server.api_url,
            "TELEGRAM_WEBHOOK_URL": "",
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "chatbot",
            "telegram",
            "--db",
            str(tmp_path / "cli.sqlite"),
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await server.wait_for(lambda: ("default", "en") in server.commands, 20, "the bot to start")
            await server.send(ANNA, GROUP, "/uusi majavajengi")
            await server.wait_for(lambda: server.bot_messages(GROUP), 10, "the lobby")
            proc.send_signal(signal.SIGINT)
            rc = await asyncio.wait_for(proc.wait(), 15)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
            await server.stop()
        assert rc == 0, (await proc.stderr.read()).decode()[-2000:]

    run(body())


def test_cli_webhook_mode_receives_updates_by_post(tmp_path):
    import os
    import signal
    import sys

    from tests.conftest import free_port
    from tests.telegram.fake_api import FakeTelegram

    async def body():
        server = FakeTelegram()
        await server.start()
        server.add_group(GROUP)
        server.add_user(ANNA, "Anna")
        port = free_port()
        env = {
            **os.environ,
            "TELEGRAM_TOKEN": server.token,
            "TELEGRAM_API_URL": server.api_url,
            "TELEGRAM_WEBHOOK_URL": f"http://127.0.0.1:{port}/tg/hook",
            "TELEGRAM_WEBHOOK_PORT": str(port),
            "TELEGRAM_WEBHOOK_SECRET": "s3cret",
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "chatbot",
            "telegram",
            "--db",
            str(tmp_path / "hook.sqlite"),
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await server.wait_for(lambda: server.webhook.get("url"), 20, "the bot to set its webhook")
            await server.wait_for(lambda: ("default", "en") in server.commands, 20, "the command menu")
            for _ in range(50):  # the webhook server may need a moment after setWebhook
                try:
                    await server.send(ANNA, GROUP, "/uusi majavajengi")
                    break
                except OSError:
                    await asyncio.sleep(0.1)
            await server.wait_for(lambda: server.bot_messages(GROUP), 10, "the lobby via the webhook")
            assert server.webhook["secret"] == "s3cret" and server.webhook_statuses[-1] == 200
            assert "Majavajengi" in server.bot_messages(GROUP)[-1].shown
            proc.send_signal(signal.SIGINT)
            rc = await asyncio.wait_for(proc.wait(), 15)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
            await server.stop()
        assert rc == 0, (await proc.stderr.read()).decode()[-2000:]

    run(body())


def test_cli_without_token_fails_cleanly(monkeypatch):
    from chatbot.transports.telegram import main

    monkeypatch.delenv("TELEGRAM_TOKEN", raising=False)
    assert main(object()) == 2
