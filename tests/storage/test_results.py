"""The results of finished matches (issue #16) on both databases: written with the last action,
read back by room, by player and newest first, replaced when written again, older matches without one."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from sqlalchemy import text

from chatbot.compose import new_core
from tests.chatbot.table import PLATFORM, Table
from tests.chatbot.test_records import play

#: 2 December 2026, 18:30 UTC
WHEN = datetime(2026, 12, 2, 18, 30, tzinfo=UTC).timestamp()


def test_finished_matches_by_room_and_by_player_newest_first(db_url):
    table = Table(url=db_url, seed="results")
    table.core = new_core(table.repo, seed="results", clock=lambda: WHEN)
    rng = random.Random(5)
    first = play(table, "majavajengi", "g1", ["matti", "liisa"], 0, rng)
    second = play(table, "gnav", "g2", ["matti"], 3, rng)
    third = play(table, "majavajengi", "g1", ["liisa", "matti"], 1, rng)
    room1 = table.repo.room(PLATFORM, "g1").id
    matti = table.repo.user(PLATFORM, "matti", "Matti").id
    liisa = table.repo.user(PLATFORM, "liisa", "Liisa").id

    assert [f.id for f in table.repo.finished_matches(room_id=room1)] == [third, first]
    assert [f.id for f in table.repo.finished_matches(user_id=matti)] == [third, second, first]
    assert [f.id for f in table.repo.finished_matches(user_id=liisa, limit=1)] == [third]
    assert [f.id for f in table.repo.finished_matches()] == [third, second, first]
    found = table.repo.finished_matches(room_id=room1)[0]
    assert found.finished_at == WHEN and found.room_id == room1 and found.game == "majavajengi"
    assert [s.name for s in found.seats] == ["Liisa", "Matti", "Botti 1"]
    assert found.result is not None and found.result["figures"] == [
        {"total": t} for t in found.result["scores"]
    ]
    # written again, the result replaces the one before; a match without one reads as None with
    # the time it was last changed
    table.repo.set_result(first, WHEN + 60, {"v": 1, "winners": [1]})
    again = next(f for f in table.repo.finished_matches(room_id=room1) if f.id == first)
    assert (again.finished_at, again.result) == (WHEN + 60, {"v": 1, "winners": [1]})
    with table.repo.engine.begin() as conn:
        conn.execute(text("DELETE FROM matchresult WHERE match_id = :m"), {"m": first})
    old = next(f for f in table.repo.finished_matches(room_id=room1) if f.id == first)
    assert old.result is None and abs(old.finished_at - datetime.now(UTC).timestamp()) < 600
