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


def test_a_room_moves_to_the_chat_it_became(db_url):
    """A Telegram group upgraded to a supergroup: room, matches and undelivered messages move to the
    new chat id; the old chat's message references are forgotten (they cannot be edited from there);
    a second notice of the same move does nothing."""
    from chatbot.core.types import Outbound

    repo = SqlRepository(db_url)
    _, room, match = _running_match(repo)
    repo.outbox_add([Outbound("test", "pöytä", chat_id="g1", key=f"table:{match.id}")])
    [row] = repo.outbox_pending("test:g:g1", now=1e12)
    repo.outbox_done(row.id, '{"id": 5}')
    repo.outbox_add([Outbound("test", "vastaus", chat_id="g1"), Outbound("test", "muualle", chat_id="g2")])
    moved = repo.move_room("test", "g1", "g9")
    assert moved is not None and moved.id == room.id and moved.ext_id == "g9"
    assert repo.active_match(repo.room("test", "g9").id).id == match.id
    assert repo.outbox_pending("test:g:g1", now=1e12) == []
    [pending] = repo.outbox_pending("test:g:g9", now=1e12)
    assert pending.out.chat_id == "g9" and pending.out.text == "vastaus"
    assert repo.outbox_pending("test:g:g2", now=1e12)[0].out.chat_id == "g2"  # other chats untouched
    assert repo.message_ref("test:g:g1", f"table:{match.id}") is None
    assert repo.move_room("test", "g1", "g9") is None
    # somebody wrote in the new chat before the move was known: the rooms become one
    _, other, _ = _running_match(SqlRepository(db_url))  # g1 again, a new room
    assert other.id != room.id
    merged = repo.move_room("test", "g1", "g9")
    assert merged is not None and merged.id == room.id
    assert {m.id for m in repo.running_matches() if m.room_id == room.id} >= {match.id}


def test_the_recent_action_keys_are_the_log_whoever_acted(db_url):
    """The keys of the recent actions a table shows are kept per version after a process's own
    action: they stay equal to the action log when another worker acts in between, and an action
    that was rolled back is not among them."""
    a, b = SqlRepository(db_url), SqlRepository(db_url)
    _, _, match = _running_match(a)
    version = match.version

    def act(repo, seat, notation, ply):
        nonlocal version
        with repo.unit():
            assert repo.commit_action(match.id, version, seat, notation, [], {"ply": ply}, RUNNING)
            keys = repo.action_keys(match.id, max(0, ply - 3))
        version += 1
        return keys

    def log(since):
        return SqlRepository(db_url).action_keys(match.id, since)

    for ply in range(1, 6):
        assert act(a, ply % 2, f"a{ply}", ply) == log(max(0, ply - 3))
    act(b, 0, "b6", 6)
    assert act(a, 1, "a7", 7) == log(4)
    assert [n for _, _, n in log(4)] == ["a5", "b6", "a7"]
    try:
        with a.unit():
            assert a.commit_action(match.id, version, 0, "lost", [], {"ply": 8}, RUNNING)
            assert [n for _, _, n in a.action_keys(match.id, 5)] == ["b6", "a7", "lost"]
            raise RuntimeError("the update fails after its action")
    except RuntimeError:
        pass
    act(b, 0, "b8", 8)
    assert act(a, 1, "a9", 9) == log(6)
    assert [n for _, _, n in log(6)] == ["a7", "b8", "a9"]
    act(b, 0, "b10", 10)
    with a.unit():  # a table shown without an action (the status command): the version read
        a.match(match.id)
        assert a.action_keys(match.id, 7) == log(7)
