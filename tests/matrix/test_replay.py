"""A replay on Matrix (issue #16), against the real Synapse: the replay's buttons become the numbered
reaction keys of its one message, a reaction steps it and so does a typed word, by edits of that
message rather than new ones."""

from __future__ import annotations

import pytest

from chatbot.transports.matrix import KEYCAPS
from tests.chatbot.finished import finished_match
from tests.matrix.test_matrix import _until, close, open_table, run

pytestmark = pytest.mark.matrix


def test_a_replay_is_stepped_by_reactions_and_typed_words(synapse, bot_factory, tmp_path):
    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Iida", "Oona"], tmp_path)
            iida, oona = table.people
            people = [(p.user_id, name) for p, name in zip(table.people, ["Iida", "Oona"], strict=True)]
            mid = finished_match(bot.core.repo, "matrix", table.room, people)
            mark = len(iida.messages)
            await table.say(oona, f"näytä peli {mid}")
            replay = await iida.wait_for(
                lambda m: m.sender == bot.user_id and m.room_id == table.room and m.body.startswith("🎬"),
                start=mark,
                what="the replay",
            )
            assert f"{KEYCAPS[1]} Seuraava ▶" in replay.body and "alkuasetelma" in replay.body
            await iida.wait_for(
                lambda m: (
                    m.type == "m.reaction"
                    and m.sender == bot.user_id
                    and m.relates.get("event_id") == replay.event_id
                    and m.relates.get("key") == KEYCAPS[3]
                ),
                what="the reaction keys on the replay",
            )
            await iida.react(table.room, replay.event_id, KEYCAPS[1])  # Seuraava
            await _until(lambda: "siirto 1/" in iida.current(replay))
            await table.say(oona, "seuraava")
            await _until(lambda: "siirto 2/" in iida.current(replay))
            await iida.react(table.room, replay.event_id, KEYCAPS[3])  # Loppuun
            last = len(bot.core.repo.actions(mid))
            await _until(lambda: f"siirto {last}/{last}" in iida.current(replay))
            # one message, edited: no second replay was posted
            assert len([m for m in table.bot_notices(iida) if m.body.startswith("🎬")]) == 1
        finally:
            await close(table, bot)

    run(scenario())
