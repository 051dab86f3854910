"""Reactions work every time on Matrix (issue #27), against a real Synapse.

Synapse refuses the same reaction by one person on one event a second time, and the table and each
seat's panel are edited in place (one panel per turn, issue #28). So after a reaction key pressed a
button the bot takes the reaction back where it may (the direct rooms it opened), and where it may
not (a group room where it is no moderator) the message's next edit goes out as a new message.
"""

from __future__ import annotations

import pytest

from chatbot.transports.matrix import KEYCAPS, MatrixBot
from tests.matrix.players import Msg, Player
from tests.matrix.test_matrix import (
    LABEL,
    TURN,
    _until,
    as_prompt,
    close,
    keys_of,
    new_game,
    open_table,
    options_of,
    run,
)

pytestmark = pytest.mark.matrix


def _acting(bot: MatrixBot, mid: int, people: list[Player]) -> Player | None:
    repo = bot.core.repo
    match = repo.match(mid)
    engine = bot.core.games[match.game]
    for seat in engine.to_act(engine.load(match.state)):
        user = match.seats[seat].user_id
        for p in people:
            found = repo.find_user("matrix", p.user_id)
            if found is not None and found.id == user:
                return p
    return None


async def _live_message(bot: MatrixBot, who: Player, room: str, mid: int) -> Msg:
    """The bot's message in ``room`` whose reaction keys press buttons of the match's current version,
    as it shows now (its newest edit standing for the original)."""
    version = bot.core.repo.match(mid).version
    live = f"{mid}:{version}:"
    # the bot's buttons of a message change when its edit has been sent, so an older version of the
    # message (the original post, an earlier edit) matches as well: wait until the player has
    # everything the bot sent, then take the newest version
    await _caught_up(bot, who, room)
    found = await who.wait_for(
        lambda m: (
            m.sender == bot.user_id
            and m.room_id == room
            and any(str(d).startswith(live) for d in bot._buttons.get(m.replaces or m.event_id, ()))
        ),
        20,
        what=f"a message with live keys at version {version}",
    )
    original = found.replaces or found.event_id
    versions = [m for m in who.messages if m.sender == bot.user_id and (m.replaces or m.event_id) == original]
    return as_prompt(versions[-1])


async def _caught_up(bot: MatrixBot, who: Player, room: str) -> None:
    """Until ``who`` has received every event the bot has sent to ``room`` so far."""
    await bot.wait_idle(20)
    assert who.client is not None
    resp = await who.client.room_messages(room, limit=20)
    newest = next((e.event_id for e in getattr(resp, "chunk", ()) if e.sender == bot.user_id), None)
    if newest is not None:
        await who.wait_for(lambda m: m.event_id == newest, what="the bot's newest event")


async def _press(bot: MatrixBot, who: Player, msg: Msg, label: str, mid: int) -> str:
    """React with the key the message shows for ``label`` and wait until the match moved on; returns
    the key."""
    labels, keys = options_of(msg.body), keys_of(msg.body)
    assert label in labels[: len(keys)], (label, labels)
    key = keys[labels.index(label)]
    version = bot.core.repo.match(mid).version
    await who.react(msg.room_id, msg.event_id, key)
    await _until(lambda: bot.core.repo.match(mid).version > version)
    return key


def test_the_same_key_on_a_panel_edited_in_place_works_again(synapse, bot_factory, tmp_path):
    """In the direct room the bot opened, a person's reaction is taken back once it pressed its
    button, so the turn's one panel, edited with the next step's options, takes the same key again."""

    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Aino", "Ville"], tmp_path)
            await new_game(table)
            await table.say(table.people[1], "liity")
            await table.say(table.host, "aloita")
            mid = await _running(bot, table.room)
            who = _acting(bot, mid, table.people)
            assert who is not None
            await _until(lambda: who.user_id in bot._dms)
            dm = bot._dms[who.user_id]
            panel = await _live_message(bot, who, dm, mid)
            assert TURN in panel.body
            labels = options_of(panel.body)
            key = labels.index(LABEL["draw"])
            used = await _press(bot, who, panel, LABEL["draw"], mid)
            # the same panel, edited with the options of the card in hand
            held = await _live_message(bot, who, dm, mid)
            assert held.event_id == panel.event_id, "the turn's panel was not edited in place"
            again = options_of(held.body)
            assert len(again) > key, again
            # the bot took the first reaction back, so the same key is not refused
            await who.wait_for(
                lambda m: m.type == "m.room.redaction" and m.room_id == dm and m.sender == bot.user_id,
                what="the reaction taken back",
            )
            assert keys_of(held.body)[key] == used  # the same key, which is not refused
            await _press(bot, who, held, again[key], mid)
            assert bot.stats.dropped == 0
        finally:
            await close(table, bot)

    run(scenario(), timeout=120)


def test_a_table_reacted_on_without_the_power_to_redact_numbers_its_options_anew(
    synapse, bot_factory, tmp_path
):
    """In a group room the bot is no moderator of, a reaction stays: the table's next edit numbers
    its options with another set of keys (① …), so the same person's next press is not refused; the
    table stays one message."""

    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Aino", "Ville"], tmp_path)
            await new_game(table)
            await table.say(table.people[1], "liity")
            await table.say(table.host, "aloita")
            mid = await _running(bot, table.room)
            who = _acting(bot, mid, table.people)
            assert who is not None
            board = await _live_message(bot, who, table.room, mid)
            assert LABEL["draw"] in options_of(board.body)
            used = await _press(bot, who, board, LABEL["draw"], mid)
            assert used in KEYCAPS
            version = bot.core.repo.match(mid).version
            # the drawn card is placed or thrown away in private; then the table offers the turn's end
            await _until(lambda: who.user_id in bot._dms)
            dm = bot._dms[who.user_id]
            await _live_message(bot, who, dm, mid)  # joined the direct room: the card is there
            await who.say(dm, "hylkään")
            await _until(lambda: bot.core.repo.match(mid).version > version)
            after = await _live_message(bot, who, table.room, mid)
            assert after.event_id == board.event_id, "the table was posted anew"
            keys = keys_of(after.body)
            assert keys and not set(keys) & set(KEYCAPS), keys  # ① …: keys nobody used on it
            # the bot put the new keys on the table, and one of them plays
            await who.wait_for(
                lambda m: (
                    m.type == "m.reaction"
                    and m.sender == bot.user_id
                    and m.relates.get("event_id") == board.event_id
                    and m.relates.get("key") == keys[-1]
                ),
                what="the new reaction keys on the table",
            )
            await _press(bot, who, after, LABEL["end"], mid)
            assert bot.stats.dropped == 0
        finally:
            await close(table, bot)

    run(scenario(), timeout=120)


async def _running(bot: MatrixBot, room: str) -> int:
    found: list[int] = []

    def running() -> bool:
        match = bot.core.repo.active_match(bot.core.repo.room("matrix", room).id)
        if match is not None and match.status == "running":
            found.append(match.id)
            return True
        return False

    await _until(running)
    return found[-1]
