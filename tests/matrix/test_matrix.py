"""The Matrix transport against a real Synapse: whole games, restarts, leaving, rate limits, encryption.

Each test runs its own event loop (``asyncio.run``) with fresh accounts and a fresh bot database;
the homeserver is shared by the session. Players act from the private prompts the bot sends them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Sequence
from pathlib import Path
from typing import Any

import pytest
from nio.crypto import ENCRYPTION_ENABLED

from chatbot.core import i18n
from chatbot.core.types import Outbound
from chatbot.transports.matrix import KEY_INDEX, KEYCAPS, MatrixBot
from chatbot.transports.matrix.crypto import need_plain_text
from tests.matrix.players import Msg, Player, players

pytestmark = pytest.mark.matrix

FI = i18n.translator("fi")
ROOT = Path(__file__).resolve().parents[2]


def _prefix(msgid: str, placeholder: str) -> str:
    return FI.gettext(msgid).split(placeholder)[0].strip()


TURN = _prefix("Your turn, {name}! What will you do?", "{name}").rstrip(",")  # "Sinun vuorosi"
OPTIONS = _prefix("Options: {options}", "{options}")
YOUR_CARDS = _prefix("Your cards: {cards}", "{cards}")
LABEL = {
    "draw": FI.gettext("Draw"),
    "discard": FI.gettext("Discard"),
    "knock": FI.gettext("Knock"),
    "end": FI.gettext("End turn"),
    "place2": FI.gettext("Put in place {pos}").format(pos=2),
    "next": FI.gettext("Draw again"),
    "stop": FI.gettext("Stop drawing"),
}


def run(coro: Awaitable[Any], timeout: float = 150) -> Any:
    return asyncio.run(asyncio.wait_for(coro, timeout))  # type: ignore[arg-type]


def as_prompt(m: Msg) -> Msg:
    """A message as it shows now: an edit (``m.replace``) stands for its original message with the
    new content (a seat's panel is one message per turn, edited at each step)."""
    if m.replaces is None:
        return m
    return dataclasses.replace(m, event_id=m.replaces, content=dict(m.content.get("m.new_content") or {}))


def keys_of(body: str) -> list[str]:
    """The reaction keys the options line numbers its options with, in order."""
    for line in reversed(body.splitlines()):
        if line.startswith(OPTIONS):
            entries = [x.strip() for x in line[len(OPTIONS) :].strip().split(" · ")]
            return [x.split(" ", 1)[0] for x in entries if x.split(" ", 1)[0] in KEY_INDEX]
    return []


def options_of(body: str) -> list[str]:
    for line in reversed(body.splitlines()):
        if line.startswith(OPTIONS):
            labels = [x.strip() for x in line[len(OPTIONS) :].strip().split(" · ")]
            return [x.split(" ", 1)[1] if x.split(" ", 1)[0] in KEY_INDEX else x for x in labels]
    return []


class Table:
    """A group room with some players and the bot, and the bookkeeping of a game driven by prompts."""

    def __init__(self, room: str, people: Sequence[Player], bot: MatrixBot) -> None:
        self.room = room
        self.people = list(people)
        self.bot = bot
        self.acted: set[str] = set()
        self.turns: Counter[str] = Counter()
        self.sent: list[tuple[Player, str, str]] = []  # (player, event id, text)
        self.steps = 0

    @property
    def host(self) -> Player:
        return self.people[0]

    async def say(self, who: Player, text: str, room: str | None = None) -> str:
        event_id = await who.say(room or self.room, text)
        self.sent.append((who, event_id, text))
        return event_id

    async def ask(self, who: Player, text: str, timeout: float = 20) -> Msg:
        """Say something in the room and wait for the bot's threaded answer."""
        event_id = await self.say(who, text)
        return await who.wait_for(
            lambda m: m.reply_to == event_id and m.sender == self.bot.user_id,
            timeout,
            what=f"an answer to {text!r}",
        )

    def bot_notices(self, who: Player, room: str | None = None) -> list[Msg]:
        return who.notices(room or self.room, self.bot.user_id)

    def final(self) -> Msg | None:
        for m in self.bot_notices(self.host):
            if "🏆" in m.body:
                return m
        return None

    async def next_prompt(self, timeout: float = 25) -> tuple[Player, Msg] | None:
        """The next unanswered "Sinun vuorosi" prompt in someone's direct room, or None at game end.

        Fails at once when the bot answers the last command with a hint or refusal instead."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.final() is not None:
                return None
            if self.sent:
                who, event_id, text = self.sent[-1]
                for m in who.messages:
                    if m.reply_to == event_id and m.sender == self.bot.user_id:
                        raise AssertionError(f"the bot refused {text!r}: {m.body}")
            for p in self.people:
                fresh = [
                    m
                    for m in p.messages
                    if m.sender == self.bot.user_id
                    and m.room_id != self.room
                    and m.msgtype == "m.notice"
                    and TURN in m.body
                    and m.event_id not in self.acted
                ]
                if fresh:
                    self.acted.update(m.event_id for m in fresh)
                    return p, as_prompt(fresh[-1])
            await asyncio.sleep(0.01)
        raise AssertionError("no prompt and no final result in time")

    async def play(self, knock_after: int = 2, max_steps: int = 200) -> Msg:
        """Answer prompts in Finnish until the game ends; public moves in the room, private ones in the DM."""
        while self.steps < max_steps:
            found = await self.next_prompt()
            if found is None:
                final = self.final()
                assert final is not None
                return final
            who, prompt = found
            labels = options_of(prompt.body)
            dm = prompt.room_id
            if LABEL["knock"] in labels or LABEL["end"] in labels:
                self.turns[who.user_id] += 1
                knock = self.turns[who.user_id] >= knock_after and LABEL["knock"] in labels
                text, room = ("koputan" if knock else "valmis"), self.room
            elif LABEL["place2"] in labels:
                text, room = ("laitan toiseen" if self.steps % 3 else "hylkään"), dm
            elif LABEL["stop"] in labels or LABEL["next"] in labels:
                text, room = "lopetan", dm
            elif LABEL["draw"] in labels:
                text, room = "nostan", self.room
            else:  # a special card in hand: throw it away
                text, room = "hylkään", dm
            await self.say(who, text, room)
            self.steps += 1
        raise AssertionError("the game did not end")


async def open_table(
    synapse: Any, bot: MatrixBot, names: Sequence[str], tmp: Path, e2e: bool = False
) -> Table:
    people = await players(synapse.url, [synapse.register(n, n) for n in names], tmp, e2e=e2e)
    host = people[0]
    room = await host.create_room([bot.user_id, *(p.user_id for p in people[1:])], name="Pelipöytä")
    for p in people[1:]:
        await host.wait_joined(room, p.user_id)
    await host.wait_joined(room, bot.user_id)
    return Table(room, people, bot)


async def close(table: Table | None, *bots: MatrixBot) -> None:
    if table is not None:
        for p in table.people:
            await p.stop()
    for bot in bots:
        await bot.stop()


async def new_game(table: Table, command: str = "uusi majavajengi rounds=1") -> Msg:
    """Open the lobby; its message is the table message that later edits keep up to date."""
    mark = len(table.host.messages)
    await table.say(table.host, command)
    lobby = _prefix("🎲 {game}: waiting for players ({low}–{high}).", "{game}")
    return await table.host.wait_for(
        lambda m: m.sender == table.bot.user_id and m.body.startswith(lobby), start=mark, what="the lobby"
    )


async def setup_game(table: Table, command: str = "uusi majavajengi rounds=1", bots: int = 0) -> None:
    await new_game(table, command)
    for p in table.people:
        await table.say(p, "liity")
    for _ in range(bots):
        await table.say(table.host, "lisää botti")
    await table.say(table.host, "aloita")


def scores(final: str) -> dict[str, int]:
    # "1. Ville: 16 pistettä": the standings say what their numbers are
    return {name: int(score) for _, name, score in re.findall(r"^(\d+)\. (.+): (\d+) pistettä$", final, re.M)}


# ----------------------------------------------------------------------------------------------


def test_majavajengi_three_players(synapse, bot_factory, tmp_path):
    """A whole game by Finnish text: hands only in direct rooms, the table edited, final scores."""

    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Aino", "Ville", "Kaisa"], tmp_path)
            aino, ville, kaisa = table.people
            await new_game(table)
            await table.say(aino, "liity")
            await table.say(ville, "Pelibotti: liity")  # a mention in front is dropped
            await table.say(kaisa, "liity")
            again = await table.ask(aino, "liity")  # answered in a thread
            assert again.body.startswith("Sinulla on jo paikka pöydässä.")
            await table.say(aino, "aloita")
            final = await table.play(knock_after=2)
            result = scores(final.body)
            assert set(result) == {"Aino", "Ville", "Kaisa"}, final.body
            # the final table (edited in place) shows the same totals
            tables = [
                m for m in table.bot_notices(aino) if "Majavajengi" in m.body and m.body.count("\n") >= 4
            ]
            current = aino.current(tables[-1])
            for name, score in result.items():
                line = [x for x in current.splitlines() if x.startswith(f"{name}:")][-1]  # the table body
                assert f"{score})" in line, (line, score)
            # hidden cards only in direct rooms
            for p in table.people:
                group = [p.current(m) for m in table.bot_notices(p)]
                assert not any(TURN in text or YOUR_CARDS in text for text in group)
                private = [m for m in p.messages if m.sender == bot.user_id and m.room_id != table.room]
                assert private and any(YOUR_CARDS in m.body for m in private)
                assert {m.room_id for m in private} == {bot._dms[p.user_id]}
            # the bot's direct rooms are marked as such for the clients (m.direct)
            direct = await bot.client.list_direct_rooms()
            assert all(direct.rooms.get(p.user_id) == [bot._dms[p.user_id]] for p in table.people), direct
            # the table is edited rather than posted again and again
            posts = [m for m in tables if m.room_id == table.room]
            edits = aino.edits(table.room)
            assert len(edits) >= 10 and len(posts) * 4 <= len(edits), (len(posts), len(edits))
            assert bot.stats.dropped == 0
        finally:
            await close(table, bot)

    run(scenario())


def test_reactions_press_the_prompts_buttons(synapse, bot_factory, tmp_path):
    """Matrix has no buttons: the bot numbers each prompt's options and puts the reaction keys
    1️⃣ 2️⃣ … on it, and a player's reaction acts like pressing that button (with the same version
    check: a reaction on a stale prompt changes nothing). A whole match is played by reactions: a
    panel edited in place takes the same key again (the bot takes each reaction back in the direct
    rooms it opened)."""

    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Aada", "Veeti"], tmp_path)
            aada, veeti = table.people
            await new_game(table)
            await table.say(veeti, "liity")
            await table.say(aada, "aloita")
            repo = bot.core.repo
            reacted = 0
            first: tuple[Player, Msg] | None = None
            stale_checked = False
            while reacted < 200:
                found = await table.next_prompt()
                if found is None:
                    break
                who, prompt = found
                mid = _match_id(bot, table.room)
                if first is None:
                    first = (who, prompt)
                elif not stale_checked and first[0] is who and first[1].event_id != prompt.event_id:
                    # the panel of a turn that is over, now stale: its first key changes nothing
                    moved = repo.match(mid).version
                    await who.react(first[1].room_id, first[1].event_id, KEYCAPS[0])
                    await asyncio.sleep(1.0)
                    assert repo.match(mid).version == moved
                    stale_checked = True
                labels = options_of(prompt.body)
                assert labels and f"{KEYCAPS[0]} {labels[0]}" in prompt.body
                keys = min(len(labels), len(KEYCAPS))
                # the bot has put the keys on the prompt for the player to tap
                await who.wait_for(
                    lambda m, e=prompt.event_id, n=keys: (
                        m.type == "m.reaction"
                        and m.sender == bot.user_id
                        and m.relates.get("event_id") == e
                        and m.relates.get("key") == KEYCAPS[n - 1]
                    ),
                    what="the reaction keys on the prompt",
                )
                tappable = labels[:keys]
                # end the turn a few times, then knock, so that the round (and the match) ends
                order = (
                    "Koputa" if reacted >= 4 else LABEL["end"],
                    LABEL["end"],
                    LABEL["stop"],
                    LABEL["place2"],
                )
                wanted = next((k for k in (*order, LABEL["draw"]) if k in tappable), labels[0])
                version = repo.match(mid).version
                await who.react(prompt.room_id, prompt.event_id, KEYCAPS[labels.index(wanted)])
                reacted += 1
                await _until(lambda v=version, m=mid: repo.match(m).version > v or table.final() is not None)
            final = table.final()
            assert final is not None and reacted >= 3 and stale_checked
            assert [text for _, _, text in table.sent] == ["uusi majavajengi rounds=1", "liity", "aloita"]
        finally:
            await close(table, bot)

    run(scenario())


async def _until(predicate, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the match did not move")


def _match_id(bot: MatrixBot, room: str) -> int:
    from sqlmodel import Session, select

    from chatbot.storage.tables import Match

    repo = bot.core.repo
    with Session(repo.engine) as s:
        ids = s.exec(select(Match.id).where(Match.room_id == repo.room("matrix", room).id)).all()
    return max(i for i in ids if i is not None)


def test_restart_in_the_middle_of_a_match(synapse, bot_factory, tmp_path):
    """Stop the bot mid-game, act while it is away, start a new one on the same database."""

    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = bot2 = None
        try:
            table = await open_table(synapse, bot, ["Aino", "Ville"], tmp_path)
            await setup_game(table, bots=1)
            # three prompts answered with the first bot
            for _ in range(3):
                found = await table.next_prompt()
                assert found is not None
                who, prompt = found
                labels = options_of(prompt.body)
                if LABEL["draw"] in labels:
                    await table.say(who, "nostan")
                elif LABEL["end"] in labels:
                    await table.say(who, "valmis")
                else:
                    await table.say(who, "hylkään", prompt.room_id)
            found = await table.next_prompt()
            assert found is not None
            await bot.stop()
            before = {event_id for _, event_id, _ in table.sent}
            marks = {p.user_id: len(p.messages) for p in table.people}
            # while the bot is away, the acting player answers the prompt
            who, prompt = found
            labels = options_of(prompt.body)
            text = "nostan" if LABEL["draw"] in labels else "valmis" if LABEL["end"] in labels else "hylkään"
            await table.say(who, text, table.room if text != "hylkään" else prompt.room_id)
            await asyncio.sleep(0.3)
            bot2 = bot_factory(account=bot.account)
            await bot2.start()
            final = await table.play(knock_after=1)
            assert set(scores(final.body)) == {"Aino", "Ville", "Botti 1"}
            # nothing said before the restart was answered again
            for p in table.people:
                late = [m for m in p.messages[marks[p.user_id] :] if m.reply_to in before]
                assert not late, [m.body for m in late]
            # the table kept its message: edits after the restart point at the first table post
            old_tables = {m.event_id for m in table.bot_notices(table.host)[: marks[table.host.user_id]]}
            later_edits = [
                m
                for m in table.host.messages[marks[table.host.user_id] :]
                if m.room_id == table.room and m.replaces
            ]
            assert later_edits and any(m.replaces in old_tables for m in later_edits)
        finally:
            await close(table, *(b for b in (bot, bot2) if b is not None))

    run(scenario())


def test_leaving_the_room_gives_the_seat_to_an_ai(synapse, bot_factory, tmp_path):
    """Leaving the Matrix room counts as "poistu"; the AI plays on and the game still ends."""

    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Aino", "Ville", "Kaisa"], tmp_path)
            aino, ville, kaisa = table.people
            await setup_game(table)
            await table.next_prompt()
            table.acted.clear()  # the starter's prompt is still to be answered by the loop below
            await ville.leave(table.room)
            left = FI.gettext(
                "{name} left the game; an AI player takes over the seat. Write “back” to take it again."
            )
            await aino.wait_for(lambda m: m.body == left.format(name="Ville"), what="Ville's seat to an AI")
            await table.say(kaisa, "poistu")
            await aino.wait_for(lambda m: m.body == left.format(name="Kaisa"), what="Kaisa's seat to an AI")
            # the table shows who is played by the AI now
            await aino.wait_for(
                lambda m: "Ville (tekoäly)" in (m.content.get("m.new_content") or m.content).get("body", ""),
                what="Ville marked as played by the AI",
            )
            # Ville left by mistake: invited back, he rejoins the room and takes his seat again
            assert aino.client is not None and ville.client is not None
            await aino.client.room_invite(table.room, ville.user_id)
            await ville.client.join(table.room)
            await aino.wait_joined(table.room, ville.user_id)
            await table.say(ville, "liity")
            back = FI.gettext("{name} is back and plays their own seat again.").format(name="Ville")
            await aino.wait_for(lambda m: m.body == back, what="Ville back in his seat")
            table.people = [aino, ville]
            final = await table.play(knock_after=1)
            # Kaisa's seat was still the AI's at the end, and the standings say so
            assert set(scores(final.body)) == {"Aino", "Ville", "Kaisa (tekoäly)"}
        finally:
            await close(table, bot)

    run(scenario())


def test_the_bot_kicked_from_the_room_pauses_the_match_until_invited_back(synapse, bot_factory, tmp_path):
    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Aino", "Ville"], tmp_path)
            aino = table.host
            await setup_game(table)
            await table.next_prompt()
            table.acted.clear()
            mid = _match_id(bot, table.room)
            assert aino.client is not None
            await aino.client.room_kick(table.room, bot.user_id)
            paused = FI.gettext(
                "I was removed from the group, so our game of {game} is paused. It goes on where it "
                "was as soon as someone adds me to the group again."
            ).split("{game}")[0]
            for p in table.people:  # each player is told in their direct room
                await p.wait_for(lambda m: m.body.startswith(paused), what="the pause told in private")
            await _until(lambda: bool(bot.core.repo.match(mid).meta.get("paused")))
            assert bot.core.repo.deadlines(mid) == []
            await aino.client.room_invite(table.room, bot.user_id)
            back = FI.gettext("I am back: the game of {game} goes on where it was.").split("{game}")[0]
            await aino.wait_for(
                lambda m: m.room_id == table.room and m.body.startswith(back), what="the bot back"
            )
            assert not bot.core.repo.match(mid).meta.get("paused")
            final = await table.play(knock_after=1)
            assert set(scores(final.body)) == {"Aino", "Ville"}
        finally:
            await close(table, bot)

    run(scenario())


def test_rate_limited_burst_loses_nothing(synapse, bot_factory, tmp_path):
    """A burst of commands against tight limits: every answer arrives, in order, after 429s."""

    async def scenario() -> None:
        account = synapse.register("kiirebotti", "Pelibotti")
        # tight enough that a bot slowed by a loaded machine still meets the limit
        synapse.override_ratelimit(account.user_id, per_second=2, burst=2)
        bot = bot_factory(account=account)
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Aino"], tmp_path)
            aino = table.host
            asked = [await table.say(aino, "pelit" if i % 2 else "apua") for i in range(16)]
            for event_id in asked:
                await aino.wait_for(lambda m, e=event_id: m.reply_to == e, timeout=30, what="every answer")
            answers = [m.reply_to for m in aino.messages if m.reply_to in set(asked)]
            assert answers == asked  # one answer each, in order
            assert bot.stats.rate_limited >= 1 and bot.stats.dropped == 0
        finally:
            await close(table, bot)

    run(scenario())


def test_encrypted_direct_room(synapse, bot_factory, tmp_path):
    """With matrix-nio[e2e] the bot reads and answers in an encrypted DM and sends the hand there."""
    if not ENCRYPTION_ENABLED:
        if os.environ.get("CI"):
            pytest.fail("matrix-nio[e2e] is not installed (vodozemac)")
        pytest.skip("matrix-nio without [e2e]: only the explanation below is tested")

    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Aino"], tmp_path, e2e=True)
            aino = table.host
            dm = await aino.create_room([bot.user_id], direct=True, encrypted=True)
            await aino.wait_joined(dm, bot.user_id)
            event_id = await aino.say(dm, "apua")
            answer = await aino.wait_for(lambda m: m.reply_to == event_id, what="an encrypted answer")
            assert answer.encrypted and FI.gettext("I host table games. Commands:") in answer.body
            await setup_game(table, "uusi majavajengi", bots=1)
            prompt = await aino.wait_for(
                lambda m: m.room_id == dm and TURN in m.body, what="the hand in the DM"
            )
            assert prompt.encrypted and YOUR_CARDS in prompt.body
        finally:
            await close(table, bot)

    run(scenario())


def test_the_direct_rooms_the_bot_opens_are_encrypted(synapse, bot_factory, tmp_path):
    """With E2EE (the default) the bot opens encrypted direct rooms: the hand travels encrypted, and
    the room's topic (state, readable by any client) tells a player whose app cannot decrypt why."""
    if not ENCRYPTION_ENABLED:
        pytest.skip("matrix-nio without [e2e]")

    async def scenario() -> None:
        bot = bot_factory(encrypt_dms=True)
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Aino"], tmp_path, e2e=True)
            aino = table.host
            await setup_game(table, "uusi majavajengi", bots=1)
            prompt = await aino.wait_for(
                lambda m: m.room_id != table.room and m.sender == bot.user_id and TURN in m.body,
                timeout=40,
                what="the hand in a direct room the bot opened",
            )
            assert prompt.encrypted and YOUR_CARDS in prompt.body
            dm = prompt.room_id
            assert bot._dms[aino.user_id] == dm
            assert aino.client is not None
            room = aino.client.rooms[dm]
            assert room.encrypted and "Element" in (room.topic or "")
        finally:
            await close(table, bot)

    run(scenario())


def test_encrypted_room_without_e2e_is_explained(synapse, bot_factory, tmp_path):
    """Without end-to-end support the bot says, in Finnish, that it needs an unencrypted room."""

    async def scenario() -> None:
        bot = bot_factory(encryption=False)
        await bot.start()
        aino = None
        try:
            [aino] = await players(synapse.url, [synapse.register("Aino")], tmp_path, e2e=True)
            dm = await aino.create_room([bot.user_id], direct=True, encrypted=ENCRYPTION_ENABLED)
            await aino.wait_joined(dm, bot.user_id)
            event_id = await aino.say(dm, "apua")
            answer = await aino.wait_for(lambda m: m.reply_to == event_id, what="the explanation")
            if ENCRYPTION_ENABLED:
                assert answer.body == need_plain_text(FI)
        finally:
            if aino is not None:
                await aino.stop()
            await bot.stop()

    run(scenario())


def test_image_is_uploaded_and_edited(synapse, bot_factory, tmp_path):
    from PIL import Image

    def png(color: str) -> bytes:
        buf = io.BytesIO()
        Image.new("RGB", (8, 6), color).save(buf, "PNG")
        return buf.getvalue()

    async def scenario() -> None:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Aino"], tmp_path)
            aino = table.host
            red, blue = png("red"), png("blue")
            bot.send([Outbound("matrix", "Pöytä", chat_id=table.room, image=red, key="kuva:1")])
            image = await aino.wait_for(lambda m: m.msgtype == "m.image" and not m.replaces, what="an image")
            assert image.content["info"] == {"mimetype": "image/png", "size": len(red), "w": 8, "h": 6}
            data = await aino.client.download(image.content["url"])
            assert data.body == red
            bot.send([Outbound("matrix", "Pöytä", chat_id=table.room, image=red, key="kuva:1")])  # unchanged
            bot.send([Outbound("matrix", "Pöytä 2", chat_id=table.room, image=blue, key="kuva:1")])
            edit = await aino.wait_for(lambda m: m.replaces == image.event_id, what="the image edit")
            assert edit.content["m.new_content"]["url"] != image.content["url"]
            await aino.wait_for(lambda m: m.replaces and m.content["m.new_content"]["body"] == "Pöytä 2")
            assert bot.stats.images == 1 and sum(1 for m in aino.messages if m.msgtype == "m.image") == 2
        finally:
            await close(table, bot)

    run(scenario())


def test_round_trip_time(synapse, bot_factory, tmp_path, capsys):
    """The median time from a player's message to the bot's answer, over 50 messages."""

    async def scenario() -> list[float]:
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Aino"], tmp_path)
            times = []
            for _ in range(50):
                started = time.monotonic()
                event_id = await table.host.say(table.room, "pelit")
                answer = await table.host.wait_for(lambda m, e=event_id: m.reply_to == e, what="an answer")
                times.append(answer.received - started)
            return times
        finally:
            await close(table, bot)

    times = run(scenario())
    median = statistics.median(times)
    with capsys.disabled():
        print(
            f"\nmatrix: Synapse started in {synapse.startup_seconds:.2f} s; round trip over "
            f"{len(times)} messages: median {median * 1000:.0f} ms, max {max(times) * 1000:.0f} ms"
        )
    assert median < 1.0


def test_main_survives_a_crash(synapse, tmp_path):
    """``python -m chatbot matrix``: killed with SIGKILL, started again, stopped with SIGTERM (exit 0)."""
    account = synapse.register("pelibotti", "Pelibotti")
    env = {
        **os.environ,
        "MATRIX_HOMESERVER": synapse.url,
        "MATRIX_USER": account.user_id,
        "MATRIX_PASSWORD": account.password,
        "MATRIX_STORE": str(tmp_path / "store"),
        "MATRIX_AI_DELAY": "0",
        "PYTHONPATH": str(ROOT),
    }
    command = [sys.executable, "-m", "chatbot", "matrix", "--db", str(tmp_path / "bot.sqlite")]

    def spawn() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=(tmp_path / "bot.log").open("ab")
        )

    async def scenario() -> None:
        process = spawn()
        aino = None
        try:
            [aino] = await players(synapse.url, [synapse.register("Aino")], tmp_path)
            room = await aino.create_room([account.user_id], name="Pöytä")
            await aino.wait_joined(room, account.user_id, timeout=30)
            first = await aino.say(room, "pelit")
            await aino.wait_for(lambda m: m.reply_to == first, what="an answer")
            process.kill()
            process.wait(10)
            second = await aino.say(room, "apua")
            process = spawn()
            await aino.wait_for(lambda m: m.reply_to == second, timeout=30, what="the missed message")
            third = await aino.say(room, "pelit")
            await aino.wait_for(lambda m: m.reply_to == third, what="an answer after the restart")
            assert sum(1 for m in aino.messages if m.reply_to == first) == 1  # not replayed
            process.send_signal(signal.SIGTERM)
            assert process.wait(20) == 0
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            if aino is not None:
                await aino.stop()

    run(scenario())


def test_access_token_login_and_expired_session(synapse, bot_factory, tmp_path):
    """MATRIX_ACCESS_TOKEN works; a password bot whose token dies logs in again on the same device."""

    async def scenario() -> None:
        from chatbot.compose import new_core
        from chatbot.storage import SqlRepository

        account = synapse.register("tokenbotti", "Pelibotti")
        core = new_core(SqlRepository(f"sqlite:///{tmp_path / 'token.sqlite'}"))
        by_token = MatrixBot(
            core,
            synapse.url,
            account.user_id,
            access_token=account.access_token,
            encryption=False,
            ai_delay=0,
        )
        await by_token.start()
        assert by_token.client.device_id == account.device_id
        bot = bot_factory()
        await bot.start()
        table = None
        try:
            table = await open_table(synapse, bot, ["Aino"], tmp_path)
            device, token = bot.client.device_id, bot.client.access_token
            synapse._request("POST", "/_matrix/client/v3/logout", {}, token=token)
            answer = await table.ask(table.host, "pelit", timeout=30)
            assert answer.sender == bot.user_id
            assert bot.client.device_id == device and bot.client.access_token != token
        finally:
            await close(table, bot, by_token)

    run(scenario())
