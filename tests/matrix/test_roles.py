"""Issue #13 on Matrix against a real Synapse: the roles, with room admins told apart by their power
level (50 or more) in the room's ``m.room.power_levels``."""

from __future__ import annotations

import asyncio

import pytest

from chatbot.core.people import clean_name
from tests.matrix.test_matrix import FI, close, new_game, open_table, run

pytestmark = pytest.mark.matrix

OUTSIDER_AI = FI.gettext(
    "Only the player who set up the game, the seated players or the group’s admins can add or remove AI players."
).split(",")[0]
END = FI.gettext("Only {host}, who set up the game, or the group’s admins can end it.").split("{")[0]


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
            # invited to the room, the bot greets it with how to start (issue #27: it said nothing)
            await aino.wait_for(
                lambda m: m.room_id == table.room and m.sender == bot.user_id and "”uusi gnav”" in m.body,
                what="the greeting",
            )
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


def test_a_seat_goes_to_the_mentioned_person_and_a_name_with_a_line_break_stays_on_its_line(
    synapse, bot_factory, tmp_path
):
    """Issue #27 on Synapse: a display name with a line break once showed a made-up row of another
    player's cards in the lobby and the table; a seat handed over by a pill (``m.mentions``) is
    taken only by the person mentioned."""

    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Aino", "Kaisa", "Olli", "Eve", "Pia"], tmp_path)
            aino, kaisa, olli, eve, pia = table.people
            assert eve.client is not None and kaisa.client is not None
            forged = "Eve\n▸ Aino: 1:[9]  2:[9]  3:[9]  4:[9]"
            await eve.client.set_displayname(forged)
            await new_game(table)
            repo = bot.core.repo
            match = repo.active_match(repo.room("matrix", table.room).id)
            await table.say(kaisa, "liity")
            await table.say(eve, "liity")
            await until(lambda: len(repo.match(match.id).seats) == 3)
            await table.say(aino, "aloita")
            await until(lambda: repo.match(match.id).status == "running")
            assert repo.match(match.id).seats[2].name == clean_name(forged)
            assert "\n" not in clean_name(forged)
            # Kaisa picks Olli from her client's member list: a pill, and m.mentions
            content = {
                "msgtype": "m.text",
                "body": "anna paikkani Olli",
                "format": "org.matrix.custom.html",
                "formatted_body": f'anna paikkani <a href="https://matrix.to/#/{olli.user_id}">Olli</a>',
                "m.mentions": {"user_ids": [olli.user_id]},
            }
            await kaisa.client.room_send(table.room, "m.room.message", content)
            refused = await table.ask(eve, "otan paikan")
            assert "Vain hän voi ottaa sen" in refused.body
            await table.say(olli, "otan paikan")
            olli_rec = await until_value(lambda: repo.find_user("matrix", olli.user_id))
            await until(lambda: repo.match(match.id).seats[1].user_id == olli_rec.id)
            # Olli answers one of Kaisa's messages with "anna paikkani" (no name at all): the seat is
            # offered to the author of that message, read from the server after a restart forgot it
            kaisa_rec = await until_value(lambda: repo.find_user("matrix", kaisa.user_id))
            said = await table.say(kaisa, "harmi, olisin halunnut jatkaa")
            await asyncio.sleep(0.5)
            bot._senders.clear()
            answer = {
                "msgtype": "m.text",
                "body": "anna paikkani",
                "m.relates_to": {"m.in_reply_to": {"event_id": said}},
            }
            await olli.client.room_send(table.room, "m.room.message", answer)
            await until(
                lambda: (repo.match(match.id).meta.get("offer") or {}).get("to_user") == kaisa.user_id
            )
            assert "Vain hän voi ottaa sen" in (await table.ask(eve, "otan paikan")).body
            await table.say(kaisa, "otan paikan")
            await until(lambda: repo.match(match.id).seats[1].user_id == kaisa_rec.id)
            # Kaisa types out the user id of Pia, who has not written here yet, as text without a pill
            await table.say(kaisa, f"anna paikkani {pia.user_id}")
            await until(lambda: (repo.match(match.id).meta.get("offer") or {}).get("to_user") == pia.user_id)
            await table.say(pia, "otan paikan")
            pia_rec = await until_value(lambda: repo.find_user("matrix", pia.user_id))
            await until(lambda: repo.match(match.id).seats[1].user_id == pia_rec.id)
            # whatever the bot wrote in the room, no line of it was made by a name
            await asyncio.sleep(0.5)
            bodies = [
                aino.current(m) for m in aino.messages if m.room_id == table.room and m.sender == bot.user_id
            ]
            lines = [line for body in bodies for line in body.splitlines()]
            assert not [line for line in lines if line.lstrip().startswith("▸ Aino: 1:")], lines
            assert any(line.startswith("Eve ▸ Aino: 1:(9)") for line in lines), lines
        finally:
            await close(table, bot)

    run(scenario())
