"""Issue #13 on Matrix against a real Synapse: the roles, with room admins told apart by their power
level (50 or more) in the room's ``m.room.power_levels``."""

from __future__ import annotations

import asyncio

import pytest

from tests.matrix.test_matrix import FI, close, new_game, open_table, run

pytestmark = pytest.mark.matrix

OUTSIDER_AI = FI.gettext(
    "Only the player who set up the game, the seated players or the group’s admins can add or remove AI players."
).split(",")[0]
END = FI.gettext(
    "Only the player who set up the game or the group’s admins can end a running game. "
    "To give your own seat to an AI, write “leave”."
).split(".")[0]


async def until(predicate, timeout: float = 20.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if predicate():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("condition not met in time")


async def until_value(get, timeout: float = 20.0):
    for _ in range(int(timeout / 0.05)):
        value = get()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError("no value in time")


def test_roles_on_matrix_follow_the_rooms_power_levels(synapse, bot_factory, tmp_path):
    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            # Aino creates the room (power level 100); the others have 0
            table = await open_table(synapse, bot, ["Aino", "Ville", "Kaisa", "Olli"], tmp_path)
            aino, ville, kaisa, olli = table.people
            table.people = [ville, aino, kaisa, olli]  # Ville sets the game up
            await new_game(table)
            repo = bot.core.repo
            match = repo.active_match(repo.room("matrix", table.room).id)
            await table.say(kaisa, "liity")
            await until(lambda: len(repo.match(match.id).seats) == 2)
            # Olli: no seat, power level 0
            answer = await table.ask(olli, "lisää botti")
            assert answer.body.startswith(OUTSIDER_AI)
            assert [s.name for s in repo.match(match.id).seats] == ["Ville", "Kaisa"]
            # Aino: no seat, but the room's admin
            mark = len(ville.messages)
            await table.say(aino, "lisää botti")
            await ville.wait_for(
                lambda m: m.sender == bot.user_id and "Botti 1" in m.body, start=mark, what="the bot seat"
            )
            await table.say(ville, "aloita")
            await table.next_prompt()
            # Kaisa has a seat but did not set the game up: she cannot end it
            answer = await table.ask(kaisa, "peru")
            assert answer.body.startswith(END)
            # the admin removes Kaisa: an AI takes the seat and Kaisa is told in her direct room
            mark = len(kaisa.messages)
            await table.say(aino, "poista Kaisa pelistä")
            told = await kaisa.wait_for(
                lambda m: m.sender == bot.user_id and m.room_id != table.room and "poisti sinut" in m.body,
                start=mark,
                what="Kaisa told in private",
            )
            assert "Aino" in told.body
            assert repo.match(match.id).seats[1].user_id is None
            # Aino makes Olli a moderator (power level 50): now he may give the seat back
            assert aino.client is not None
            state = await aino.client.room_get_state_event(table.room, "m.room.power_levels")
            content = dict(state.content)
            content["users"] = {**content.get("users", {}), olli.user_id: 50}
            await aino.client.room_put_state(table.room, "m.room.power_levels", content)
            bot.members.forget(table.room)  # what was remembered of the room is gone
            mark = len(ville.messages)
            await table.say(olli, "palauta Kaisa peliin")
            await ville.wait_for(
                lambda m: m.sender == bot.user_id and "Kaisa on taas mukana" in m.body,
                start=mark,
                what="back",
            )
            assert repo.match(match.id).seats[1].user_id is not None
            # Kaisa hands her seat to Olli, who takes it by writing in the room
            await table.say(kaisa, "anna paikkani Ollille")
            await table.say(olli, "otan paikan")
            olli_rec = await until_value(lambda: repo.find_user("matrix", olli.user_id))
            await until(lambda: repo.match(match.id).seats[1].user_id == olli_rec.id)
            await table.say(olli, "peru")
            await until(lambda: repo.match(match.id).status == "cancelled")
        finally:
            await close(table, bot)

    run(scenario())
