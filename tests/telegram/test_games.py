"""Every other game through the same Telegram transport, with no game-specific code in it: three
people in a group play a whole match by their private buttons (each choosing the move the game's
own AI would choose, so matches end in a sensible number of moves)."""

from __future__ import annotations

import random

import pytest

from chatbot.games import UIS
from engines.contract import rng_for
from tests.telegram.conftest import ANNA, BERTTA, CEDER, GROUP, Harness, run

pytestmark = pytest.mark.telegram

PEOPLE = {ANNA: "Anna", BERTTA: "Bertta", CEDER: "Ceder"}

#: options that keep a whole match short, and the variants played besides (by game id); every
#: registered game is played, with its default options when it is not named here
SHORT = {"gnav": "lives=1", "majavajengi": "rounds=1", "afrikan_tahti": "quick_game=on"}
VARIANTS = {"afrikan_tahti": [("expansion=off", "afrikan_tahti_base")]}
GAMES = [pytest.param(game.replace("_", " "), SHORT.get(game, ""), id=game) for game in sorted(UIS)] + [
    pytest.param(game.replace("_", " "), options, id=name)
    for game, variants in VARIANTS.items()
    for options, name in variants
]


def notation(data: str) -> str:
    return data.split(":", 2)[2]


async def play_by_buttons(h: Harness, mid: int, limit: int = 2000) -> int:
    engine_of = h.core.games
    rng = random.Random(7)
    for step in range(limit):
        match = h.core.repo.match(mid)
        if match.status != "running":
            return step
        engine = engine_of[match.game]
        state = engine.load(match.state)
        acting = [s for s in engine.to_act(state) if match.seats[s].user_id is not None]
        if not acting:  # an AI seat is moving; the transport runs it
            await h.server.wait_for(
                lambda v=match.version: (
                    h.core.repo.match(mid).version > v or h.core.repo.match(mid).status != "running"
                ),
                10,
                "the AI to move",
            )
            continue
        seat = acting[0]
        uid = int(h.core.repo.user_by_id(match.seats[seat].user_id).ext_id)

        def fresh(uid=uid, version=match.version):
            msg = h.prompt(uid)
            if msg is not None and all(d.split(":")[1] == str(version) for d in msg.callback_data()):
                return msg
            return None

        msg = await h.server.wait_for(fresh, 10, f"a fresh prompt for {PEOPLE[uid]}")
        legal = engine.legal_actions(state, seat)
        wanted = engine.notation(
            engine.ai_action(
                engine.default_ai, engine.view(state, seat), legal, rng_for(state.seed, state.ply, "test")
            )
        )
        datas = msg.callback_data()
        data = next((d for d in datas if notation(d) == wanted), None) or rng.choice(datas)
        await h.press(uid, uid, msg, data)
        await h.server.wait_for(
            lambda v=match.version: h.core.repo.match(mid).version > v,
            10,
            f"the game to move after {PEOPLE[uid]} pressed {notation(data)}",
        )
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_three_people_play_a_whole_match(tg, game, options):
    async def body():
        async with tg() as h:
            await h.say(ANNA, f"/uusi {game} {options}".strip())
            await h.say(BERTTA, "liity")
            await h.say(CEDER, "liity")
            await h.settle()
            mid = h.match_id()
            await h.say(ANNA, "aloita")
            await h.settle()
            if h.core.repo.match(mid).status == "lobby":  # Gnav asks whether to fill its table of four
                await h.say(ANNA, "pelataan näin")
                await h.settle()
            moves = await play_by_buttons(h, mid)
            await h.settle()
            group = h.group_texts()
            assert moves > 0 and any("🏆" in text for text in group), group[-2:]
            match = h.core.repo.match(mid)
            assert match.status == "over" and [s.name for s in match.seats] == list(PEOPLE.values())
            # whatever a person saw in private stays out of the group
            joined = "\n".join(group)
            for uid in PEOPLE:
                for text in h.server.texts(uid):
                    for line in text.splitlines():
                        if line.startswith("▸ "):
                            assert line not in joined.splitlines(), line
            assert all(m.chat_id == GROUP for m in h.server.bot_messages(GROUP))
            assert set(h.server.answers) == set(h.server.queries)

    run(body(), timeout=120)
