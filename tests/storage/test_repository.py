"""The repository on real SQLite and PostgreSQL: one transaction per action, optimistic versions,
and nothing lost when the process (here: the repository object) starts again."""

from __future__ import annotations

from chatbot.core.ports import OVER, RUNNING, SeatRec
from chatbot.storage import SqlRepository


def _running_match(repo):
    user = repo.user("test", "u1", "Matti")
    room = repo.room("test", "g1")
    match = repo.create_match(
        room.id, "majavajengi", {"rounds": 2}, "seed", user.id, (SeatRec(0, "Matti", user.id),)
    )
    seats = (SeatRec(0, "Matti", user.id), SeatRec(1, "Botti 1", None, "smart"))
    assert repo.update_lobby(match.id, match.version, seats)
    assert repo.start_match(match.id, match.version + 1, seats, {"ply": 0, "x": [1]}, "seed:1")
    return user, room, repo.match(match.id)


def test_action_snapshot_and_version_move_together(db_url):
    repo = SqlRepository(db_url)
    _, _, match = _running_match(repo)
    assert match.status == RUNNING and match.state == {"ply": 0, "x": [1]}
    assert repo.commit_action(match.id, match.version, 0, "draw", [{"code": "drew"}], {"ply": 1}, RUNNING)
    # a second writer that saw the same version loses, and writes nothing
    assert not repo.commit_action(match.id, match.version, 1, "take 2", [], {"ply": 99}, RUNNING)
    again = repo.match(match.id)
    assert again.version == match.version + 1 and again.state == {"ply": 1}
    assert [a.notation for a in repo.actions(match.id)] == ["draw"]


def test_a_new_process_sees_everything(db_url):
    repo = SqlRepository(db_url)
    user, room, match = _running_match(repo)
    repo.commit_action(match.id, match.version, 0, "draw", [], {"ply": 1}, RUNNING)
    repo.set_meta(match.id, "table", {"chat": 5, "message": 7})
    repo.set_user_lang(user.id, "en")
    repo.kv_set("telegram", "offset", 42)
    del repo
    fresh = SqlRepository(db_url)
    m = fresh.active_match(room.id)
    assert m is not None and m.state == {"ply": 1} and m.meta == {"table": {"chat": 5, "message": 7}}
    assert fresh.user("test", "u1", "Matti").lang == "en"
    assert fresh.kv_get("telegram", "offset") == 42
    assert [s.name for s in m.seats] == ["Matti", "Botti 1"] and m.seats[1].ai == "smart"
    assert [x.id for x in fresh.matches_of_user(user.id)] == [m.id]
    fresh.commit_action(m.id, m.version, 1, "end", [], {"ply": 2}, OVER)
    assert fresh.active_match(room.id) is None
    assert fresh.running_matches() == []
