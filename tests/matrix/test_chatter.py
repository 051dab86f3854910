"""Friends talking in a Matrix room (issue #27), against a real Synapse: the bot reads every message
of the room, so talk that shares a verb with a move must change nothing and get no answer, while
the same words addressed to the bot (a reply to its message, as clients send it since Matrix 1.13
without the quoted fallback) get an answer, and a plain move is still played."""

from __future__ import annotations

import asyncio

import pytest

from tests.matrix.test_matrix import _until, close, new_game, open_table, run

pytestmark = pytest.mark.matrix


def test_talk_in_the_room_is_left_alone_and_a_reply_to_the_bot_is_answered(synapse, bot_factory, tmp_path):
    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            names = ["Aino", "Ville", "Kaisa"]
            table = await open_table(synapse, bot, names, tmp_path)
            await new_game(table, "uusi gnav")
            repo = bot.core.repo
            for p in table.people[1:]:
                await table.say(p, "liity")
            room = repo.room("matrix", table.room)
            await _until(lambda: len(repo.active_match(room.id).seats) == 3)
            match = repo.active_match(room.id).id
            await table.say(table.host, "aloita")
            await _until(
                lambda: (
                    repo.match(match).status == "running"
                    or any(str(d).endswith("@as_is") for datas in bot._buttons.values() for d in datas)
                )
            )
            if repo.match(match).status == "lobby":
                await table.say(table.host, "pelataan näin")
            await _until(lambda: repo.match(match).status == "running")

            engine = bot.core.games["gnav"]

            def acting():
                now = repo.match(match)
                seat = engine.to_act(engine.load(now.state))[0]
                user = now.seats[seat].user_id
                return next(
                    p for p in table.people if (repo.find_user("matrix", p.user_id) or _No).id == user
                )

            await _until(
                lambda: (
                    repo.match(match).seats[engine.to_act(engine.load(repo.match(match).state))[0]].user_id
                    is not None
                )
            )
            person = acting()
            version = repo.match(match).version

            def from_bot_since(mark: int) -> list:
                """New messages of the bot in the room (not edits of the table, not reaction keys,
                not state events such as a direct room being set up under load)."""
                return [
                    m
                    for m in person.messages[mark:]
                    if m.sender == bot.user_id
                    and m.room_id == table.room
                    and m.type == "m.room.message"
                    and not m.replaces
                ]

            async def settled() -> None:
                """Until the bot has sent nothing for two seconds (the deal's keys and edits)."""
                seen = -1
                while seen != len(person.messages):
                    seen = len(person.messages)
                    await asyncio.sleep(2)

            await settled()
            # talk among friends: a verb of the game's moves, about clothes
            mark = len(person.messages)
            await table.say(person, "vaihdan vaatteet ja tuun sit")
            await asyncio.sleep(3)
            assert repo.match(match).version == version
            assert from_bot_since(mark) == [], [m.body for m in from_bot_since(mark)]

            # the same kind of words as a reply to the bot's own message, without a quoted fallback:
            # addressed, so answered (asked back), and still nothing changes
            said_by_bot = [m for m in person.messages if m.sender == bot.user_id and m.room_id == table.room]
            target = said_by_bot[-1].event_id
            mark = len(person.messages)
            reply = {
                "msgtype": "m.text",
                "body": "vaihdan vaatteet ja tuun sit",
                "m.relates_to": {"m.in_reply_to": {"event_id": target}},
            }
            await person.client.room_send(table.room, "m.room.message", reply, ignore_unverified_devices=True)
            await _until(lambda: bool(from_bot_since(mark)))
            assert repo.match(match).version == version

            # a plain move, unaddressed, is still the bot's
            await table.say(person, "pidän korttini")
            await _until(lambda: repo.match(match).version > version)
        finally:
            await close(table, bot)

    run(scenario(), timeout=180)


class _No:
    id = None
