"""PostgreSQL stopped and started mid-match under a real ``python -m chatbot telegram`` process
(long polling against the fake Bot API, a PostgreSQL server of this test's own): the process keeps
running, a button press and a typed command while the database is down are answered with an
apology in each person's own language, and when the database is back the same press is applied and
the match is played to its end.

    pytest tests/transports/test_outage_process.py -s
"""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from sqlalchemy import text

from chatbot.storage import SqlRepository
from tests.chatbot.test_outage import Cluster
from tests.telegram.fake_api import FakeTelegram
from tests.transports.test_kill import Bot

pytestmark = [pytest.mark.telegram, pytest.mark.postgres, pytest.mark.slow]

GROUP = -400
AADA, BOB = 51, 52  # Aada writes Finnish, Bob English
SORRY = {AADA: "Pahoittelen, en tavoita muistiani", BOB: "Sorry, I cannot reach my memory"}


@pytest.fixture
def cluster():
    c = Cluster()
    c.start()
    try:
        yield c
    finally:
        c.remove()


def live_prompt(server: FakeTelegram, repo: SqlRepository, match_id: int):
    """(uid, message, datas) of a prompt at the match's current version, if one is out."""
    match = repo.match(match_id)
    if match is None or match.status != "running":
        return None
    for uid in (AADA, BOB):
        for m in reversed(server.bot_messages(uid)):
            datas = [d for d in m.callback_data() if d.startswith(f"{match_id}:")]
            if datas:
                if int(datas[0].split(":")[1]) == match.version:
                    return uid, m, datas
                break
    return None


async def outage_run(tmp_path, cluster: Cluster) -> dict:
    server = FakeTelegram()
    await server.start()
    server.add_group(GROUP)
    server.add_user(AADA, "Aada", "fi", opened=True)
    server.add_user(BOB, "Bob", "en", opened=True)
    repo = SqlRepository(cluster.url)
    bot = Bot(server, cluster.url, tmp_path / "bot.log")
    figures: dict = {}
    rng = random.Random(3)
    try:
        await bot.start()
        await server.send(AADA, GROUP, "/uusi majavajengi rounds=1")
        await server.send(BOB, GROUP, "/liity")
        room = repo.room("telegram", str(GROUP))
        match = await server.wait_for(
            lambda: (m := repo.active_match(room.id)) is not None and len(m.seats) == 2 and m,
            30,
            "Bob seated",
        )
        await server.send(AADA, GROUP, "/aloita")
        uid, msg, datas = await server.wait_for(lambda: live_prompt(server, repo, match.id), 30, "a prompt")
        version = repo.match(match.id).version
        other = BOB if uid == AADA else AADA

        cluster.stop()
        down = time.monotonic()
        data = rng.choice(datas)
        qid = await server.press(uid, uid, msg.message_id, data)
        answer = await server.wait_for(lambda: server.answer_of(qid), 30, "the press to be answered")
        # the first press of a live prompt is answered at once (before the core decides) unless the
        # bot already knows the database is away: then the apology is the press's toast; a press
        # that came before the bot noticed gets it as a message in the private chat. Once, either way.
        as_message = await server.wait_for(
            lambda: (
                [m for m in server.bot_messages(uid) if SORRY[uid] in m.shown]
                or SORRY[uid] in (answer.get("text") or "")
            ),
            30,
            f"an apology to {uid} for the press",
        )
        await asyncio.sleep(0.5)
        sorry_messages = [m for m in server.bot_messages(uid) if SORRY[uid] in m.shown]
        in_toast = SORRY[uid] in (answer.get("text") or "")
        assert in_toast != bool(sorry_messages), (answer, as_message)
        assert len(sorry_messages) <= 1
        figures["press_apology"] = "toast" if in_toast else "message"
        before = len(server.bot_messages(GROUP))
        await server.send(other, GROUP, "/tila")
        sorry = await server.wait_for(
            lambda: next((m for m in server.bot_messages(GROUP)[before:] if SORRY[other] in m.shown), None),
            30,
            f"an apology to {other} in the group",
        )
        assert sorry.reply_to is not None  # it answers that person's message
        figures["apology_seconds"] = time.monotonic() - down
        await asyncio.sleep(3.0)  # the deadline and delivery loops keep trying meanwhile
        assert bot.alive, "the bot exited while the database was down"

        cluster.start()
        # the person presses the same button again: applied now
        await server.press(uid, uid, msg.message_id, data)
        await server.wait_for(lambda: repo.match(match.id).version > version, 30, "the press to be applied")
        figures["presses_after"] = 0
        while repo.match(match.id).status == "running":
            found = await server.wait_for(
                lambda: live_prompt(server, repo, match.id) or repo.match(match.id).status != "running",
                30,
                "a prompt after the outage",
            )
            if found is True:
                break
            uid, msg, datas = found
            at = repo.match(match.id).version
            await server.press(uid, uid, msg.message_id, rng.choice(datas))
            figures["presses_after"] += 1
            await server.wait_for(
                lambda at=at: repo.match(match.id).version > at, 30, "the press to be applied"
            )
        assert repo.match(match.id).status == "over"

        def all_sent():
            with repo.engine.connect() as conn:
                return conn.execute(text("SELECT count(*) FROM outbox WHERE state = 'pending'")).scalar() == 0

        await server.wait_for(all_sent, 30, "the outbox to empty")
        assert any("🏆" in t for t in server.texts(GROUP))
        assert bot.alive
        assert await bot.stop() == 0
    except BaseException:
        import sys

        sys.stderr.write(bot.log.read_text(errors="replace")[-4000:] if bot.log.exists() else "")
        if bot.alive:
            await bot.kill()
        raise
    finally:
        await server.stop()
    print("\nPostgreSQL outage under python -m chatbot telegram:", figures)
    return figures


@pytest.mark.timeout(300)
def test_postgresql_stopped_and_started_under_a_running_bot(tmp_path, cluster):
    asyncio.run(asyncio.wait_for(outage_run(tmp_path, cluster), 240))
