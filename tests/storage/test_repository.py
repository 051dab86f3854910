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


def test_matches_without_deadlines_come_a_chunk_at_a_time_and_after_a_pause_as_they_are_now(
    db_url, monkeypatch
):
    """A first start over many matches stored before deadlines holds one chunk of them at a time;
    the runtime's urgent work runs between two of them, and what it changed is read again."""
    from chatbot.core.ports import REMIND, Deadline
    from chatbot.storage import game_store

    monkeypatch.setattr(game_store, "RECOVER_CHUNK", 3)
    repo = SqlRepository(db_url)
    ids = []
    for i in range(7):
        user = repo.user("t", f"u{i}", "Matti")
        room = repo.room("t", f"g{i}")
        match = repo.create_match(
            room.id, "majavajengi", {}, "seed", user.id, (SeatRec(0, "Matti", user.id),)
        )
        assert repo.start_match(match.id, match.version, match.seats, {"ply": 0}, "seed")
        ids.append(match.id)
    reads: list[str] = []
    from sqlalchemy import event

    event.listen(
        repo.engine,
        "before_cursor_execute",
        lambda *a: reads.append(a[2]) if a[2].startswith("SELECT") else None,
    )
    ran = []

    def urgent() -> int:
        if len(ran) == 1:  # the second pause: a person's update gives match 5 its deadlines
            repo.set_deadlines(ids[4], [Deadline(ids[4], REMIND, 10.0, 2)])
            ran.append("update")
            return 1
        ran.append("nothing")
        return 0

    repo.yield_to(urgent)
    got = [m.id for m in repo.matches_without_deadlines()]
    assert got == [ids[0], ids[1], ids[2], ids[3], ids[5], ids[6]]  # match 5 read again: it has some now
    assert len(reads) == 3  # chunk 1-3, then again from 2 after the update (3, 4, 6), then 7
    repo.yield_to(None)
    assert [m.id for m in repo.matches_without_deadlines()] == [i for i in ids if i != ids[4]]
