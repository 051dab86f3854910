"""A live prompt for every seat on Matrix (issue #26), against a real Synapse: after each seat change
(a kick, a seat given to an AI, a restore, a hand-over, a leave, a come-back) the person to act finds
a prompt in their direct room whose reaction keys play, in every registered game. On Matrix one
person cannot send the same reaction twice to one event, so a prompt that went stale would leave them
stuck until they typed."""

from __future__ import annotations

import pytest

from chatbot.games import UIS
from chatbot.transports.matrix import KEYCAPS
from tests.matrix.test_matrix import _until, as_prompt, close, new_game, open_table, options_of, run

pytestmark = pytest.mark.matrix

OPTIONS = {"afrikan_tahti": "pikapeli=kyllä"}
#: (who types, what) for each change; names as the room shows them
CHANGES = (
    ("kick", "Aino", "poista Kaisa pelistä"),
    ("restore", "Aino", "palauta Kaisa peliin"),
    ("to_ai", "Aino", "anna Kaisan paikka botille"),
    ("restore", "Aino", "palauta Kaisa peliin"),
    ("leave", "Kaisa", "poistu"),
    ("back", "Kaisa", "palaan"),
    ("chat", "Olli", "moi kaikille"),  # Olli has written here: "Ollille" names him (issue #27)
    ("offer", "Kaisa", "anna paikkani Ollille"),
    ("hand_over", "Olli", "otan paikan"),
)


@pytest.mark.parametrize("game", sorted(UIS))
def test_the_person_to_act_can_react_after_every_seat_change(synapse, bot_factory, tmp_path, game):
    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            names = ["Aino", "Ville", "Kaisa", "Olli"]
            table = await open_table(synapse, bot, names, tmp_path)
            people = dict(zip(names, table.people, strict=True))
            await new_game(table, f"uusi {game.replace('_', ' ')} {OPTIONS.get(game, '')}".strip())
            repo = bot.core.repo
            await table.say(people["Ville"], "liity")
            await table.say(people["Kaisa"], "liity")
            match = await _wait_match(repo, table.room, seats=3)
            await table.say(people["Aino"], "aloita")
            # dealt, or asked whether to fill the table (Gnav's usual table is four)
            await _until(
                lambda: (
                    repo.match(match).status == "running"
                    or any(str(d).endswith("@as_is") for datas in bot._buttons.values() for d in datas)
                )
            )
            if repo.match(match).status == "lobby":
                await table.say(people["Aino"], "pelataan näin")
            await _until(lambda: repo.match(match).status == "running")
            engine = bot.core.games[game]
            changed = 0
            for what, who, text in CHANGES:
                version = repo.match(match).version
                if what == "chat":
                    await table.say(people[who], text)
                    continue
                if what == "offer":  # the seat changes hands when it is taken
                    await table.ask(people[who], text)
                    continue
                await table.say(people[who], text)
                await _until(lambda v=version: repo.match(match).version > v)
                current = repo.match(match)
                if current.status != "running":
                    break
                found: list = []

                def live_panel(found: list = found) -> bool:
                    """The person to act now has a new panel, or the turn's panel edited in place
                    (issue #28), whose keys press the buttons of the version now (an edit that changes
                    no word sends nothing). Read anew at each look: an AI seat may have moved since."""
                    now = repo.match(match)
                    state = engine.load(now.state)
                    acting = [s for s in engine.to_act(state) if now.seats[s].user_id is not None]
                    if not acting:
                        found[:] = [None]
                        return True
                    user_id = now.seats[acting[0]].user_id
                    name = next(
                        n
                        for n, p in people.items()
                        if (repo.find_user("matrix", p.user_id) or _No).id == user_id
                    )
                    person, live = people[name], f"{match}:{now.version}:"
                    for m in reversed(person.messages):
                        original = m.replaces or m.event_id
                        if (
                            m.sender == bot.user_id
                            and m.room_id != table.room
                            and m.type == "m.room.message"
                            and any(str(d).startswith(live) for d in bot._buttons.get(original, ()))
                        ):
                            found[:] = [(person, now, as_prompt(m))]
                            return True
                    return False

                await _until(live_panel)
                if found[0] is None:
                    continue
                person, current, prompt = found[0]
                keys = min(len(options_of(prompt.body)), len(KEYCAPS))
                await person.wait_for(
                    lambda m, e=prompt.event_id, n=keys: (
                        m.type == "m.reaction"
                        and m.sender == bot.user_id
                        and m.relates.get("event_id") == e
                        and m.relates.get("key") == KEYCAPS[n - 1]
                    ),
                    what="the reaction keys on the prompt",
                )
                await person.react(prompt.room_id, prompt.event_id, KEYCAPS[0])
                await _until(lambda v=current.version: repo.match(match).version > v)
                changed += 1
            assert changed >= 4, changed
        finally:
            await close(table, bot)

    run(scenario(), timeout=240)


class _No:
    id = None


async def _wait_match(repo, room: str, seats: int) -> int:
    found: list[int] = []

    def ready() -> bool:
        rec = repo.active_match(repo.room("matrix", room).id)
        if rec is not None and len(rec.seats) >= seats:
            found.append(rec.id)
            return True
        return False

    await _until(ready)
    return found[-1]
