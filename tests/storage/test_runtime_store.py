"""The runtime's storage on real SQLite and PostgreSQL: one transaction per update (with the update
id, the outbox rows and the deadlines), redelivery, outbox order and claims, deadline claims."""

from __future__ import annotations

import json

import pytest

from chatbot.core.ports import (
    AI_TURN,
    REMIND,
    RUNNING,
    ChatQueue,
    Deadline,
    SeatRec,
    StorageUnavailable,
    UpdateSeen,
)
from chatbot.core.types import Outbound
from chatbot.storage import SqlRepository

Q = ChatQueue.parse


def _match(repo):
    user = repo.user("t", "u1", "Matti")
    room = repo.room("t", "g1")
    match = repo.create_match(room.id, "majavajengi", {}, "seed", user.id, (SeatRec(0, "Matti", user.id),))
    seats = (SeatRec(0, "Matti", user.id), SeatRec(1, "Botti 1", None, "smart"))
    assert repo.start_match(match.id, match.version, seats, {"ply": 0}, "seed:1")
    return repo.match(match.id)


def _out(text, chat="g1", key=None, user=None):
    if user is not None:
        return Outbound("t", text, user_id=user, key=key)
    return Outbound("t", text, chat_id=chat, key=key)


def test_a_unit_commits_the_action_outbox_deadlines_and_update_id_together_or_nothing(db_url):
    repo = SqlRepository(db_url)
    match = _match(repo)
    with pytest.raises(RuntimeError), repo.unit(update=("t", "17")) as fresh:
        assert fresh
        assert repo.commit_action(match.id, match.version, 0, "draw", [], {"ply": 1}, RUNNING)
        repo.outbox_add([_out("drew")])
        repo.set_deadlines(match.id, [Deadline(match.id, AI_TURN, 5.0, match.version + 1, (1,))])
        raise RuntimeError("the process failed after the action insert")
    assert repo.match(match.id).version == match.version and repo.actions(match.id) == []
    assert repo.outbox_pending(Q("t:g:g1"), now=10.0) == [] and repo.deadlines(match.id) == []
    assert not repo.seen_update("t", "17")

    with repo.unit(update=("t", "17")) as fresh:
        assert fresh
        # inside the unit the match is the unit's own copy, kept up to date by its writes
        assert repo.commit_action(match.id, match.version, 0, "draw", [], {"ply": 1}, RUNNING)
        assert repo.match(match.id).version == match.version + 1
        repo.outbox_add([_out("drew"), _out("private", user="u1")])
        repo.set_deadlines(match.id, [Deadline(match.id, AI_TURN, 5.0, match.version + 1, (1,))])
    assert repo.seen_update("t", "17")
    assert [r.out.text for r in repo.outbox_pending(Q("t:g:g1"), now=10.0)] == ["drew"]
    assert [d.kind for d in repo.deadlines(match.id)] == [AI_TURN]

    told = []  # the same update again: told, and nothing kept
    try:
        with repo.unit(update=("t", "17")) as fresh:
            if not fresh:
                told.append("when the unit began")  # SQLite: the update id is its first statement
            repo.outbox_add([_out("again")])
    except UpdateSeen:
        told.append("by its first statement")  # PostgreSQL: recorded along with the first one
    assert len(told) == 1
    assert [r.out.text for r in repo.outbox_pending(Q("t:g:g1"), now=10.0)] == ["drew"]


def test_outbox_order_retry_coalescing_refs_and_holds(db_url):
    repo = SqlRepository(db_url)
    repo.outbox_add([_out("a", key="table:1"), _out("b"), _out("c", key="table:1")])
    rows = repo.outbox_pending(Q("t:g:g1"), now=0.0)
    assert [r.out.text for r in rows] == ["a", "b", "c"] and rows[0].chat == ChatQueue.of(rows[0].out)
    repo.outbox_later(rows[1].id, not_before=50.0)  # b waits: nothing after it overtakes
    assert [r.out.text for r in repo.outbox_pending(Q("t:g:g1"), now=10.0)] == ["a"]
    assert [r.attempts for r in repo.outbox_pending(Q("t:g:g1"), now=60.0)] == [0, 1, 0]
    repo.outbox_done(rows[2].id, "m7")  # the newest table edit went out: the older one is superseded
    repo.outbox_done(rows[1].id, None)
    assert repo.outbox_pending(Q("t:g:g1"), now=60.0) == []
    assert repo.message_ref(Q("t:g:g1"), "table:1") == "m7"

    repo.outbox_add([_out("hand", user="u1")])
    assert repo.outbox_hold(Q("t:u:u1")) == 1
    assert repo.outbox_pending(Q("t:u:u1"), now=0.0) == []
    assert repo.outbox_claim("t", "w1", now=0.0, lease=30.0, limit=10) == []
    assert repo.outbox_unhold(Q("t:u:u1")) == 1
    assert [r.out.text for r in repo.outbox_pending(Q("t:u:u1"), now=0.0)] == ["hand"]


def test_each_chat_has_one_sender_at_a_time_and_a_lease_ends(db_url):
    repo = SqlRepository(db_url)
    other = SqlRepository(db_url)
    repo.outbox_add([_out("one", chat="g1"), _out("two", chat="g2")])
    assert repo.outbox_claim("t", "w1", now=100.0, lease=30.0, limit=1) == [Q("t:g:g2")]  # freshest first
    assert other.outbox_claim("t", "w2", now=101.0, lease=30.0, limit=10) == [Q("t:g:g1")]
    assert repo.outbox_claim("t", "w1", now=102.0, lease=30.0, limit=10) == [Q("t:g:g2")]  # renews its own
    assert other.outbox_claim("t", "w2", now=103.0, lease=30.0, limit=10) == [Q("t:g:g1")]
    other.outbox_release(Q("t:g:g1"), "w2")
    assert repo.outbox_claim("t", "w1", now=104.0, lease=30.0, limit=10) == [Q("t:g:g2"), Q("t:g:g1")]
    # w1 died: after its lease w2 takes both
    assert other.outbox_claim("t", "w2", now=200.0, lease=30.0, limit=10) == [Q("t:g:g2"), Q("t:g:g1")]


def test_a_sender_renews_its_claims_and_learns_which_it_lost(db_url):
    repo = SqlRepository(db_url)
    other = SqlRepository(db_url)
    repo.outbox_add([_out("one", chat="g1"), _out("two", chat="g2")])
    assert repo.outbox_claim("t", "w1", now=100.0, lease=30.0, limit=10) == [Q("t:g:g2"), Q("t:g:g1")]
    # still sending at 125: renewed, so w2 cannot take the chats when the first lease ends
    assert sorted(repo.outbox_renew([Q("t:g:g1"), Q("t:g:g2")], "w1", now=125.0, lease=30.0)) == [
        Q("t:g:g1"),
        Q("t:g:g2"),
    ]
    assert other.outbox_claim("t", "w2", now=140.0, lease=30.0, limit=10) == []
    # w1 stalled past its lease and w2 took g2: w1's renewal tells it so, and does not take g2 back
    assert other.outbox_claim("t", "w2", now=160.0, lease=30.0, limit=1) == [Q("t:g:g2")]
    assert repo.outbox_renew([Q("t:g:g1"), Q("t:g:g2")], "w1", now=161.0, lease=30.0) == [Q("t:g:g1")]
    assert other.outbox_claim("t", "w2", now=170.0, lease=30.0, limit=10) == [Q("t:g:g2")]
    assert repo.outbox_renew([], "w1", now=171.0, lease=30.0) == []


def test_deadlines_are_claimed_once_and_a_dead_workers_claim_expires(db_url):
    repo = SqlRepository(db_url)
    other = SqlRepository(db_url)
    match = _match(repo)
    repo.set_deadlines(
        match.id,
        [
            Deadline(match.id, REMIND, 10.0, match.version, (0,)),
            Deadline(match.id, AI_TURN, 20.0, match.version, (1,)),
        ],
    )
    assert repo.next_due() == 10.0
    assert repo.due_deadlines(5.0, "w1", 30.0, 10) == []
    got = repo.due_deadlines(15.0, "w1", 30.0, 10)
    assert [d.kind for d in got] == [REMIND]
    assert other.due_deadlines(15.0, "w2", 30.0, 10) == []
    assert repo.next_due() == 20.0
    assert [d.kind for d in other.due_deadlines(25.0, "w2", 30.0, 10)] == [AI_TURN]
    assert not other.drop_deadline(got[0], "w2")  # not w2's
    # w1 died holding the reminder: once its lease is over, someone else takes it
    assert [d.kind for d in other.due_deadlines(46.0, "w2", 30.0, 10)] == [REMIND]
    assert not repo.drop_deadline(got[0], "w1")
    assert other.drop_deadline(got[0], "w2")
    assert [d.kind for d in repo.deadlines(match.id)] == [AI_TURN]


def test_an_unreachable_database_is_storage_unavailable():
    from tests.conftest import free_port

    with pytest.raises(StorageUnavailable):
        SqlRepository(f"postgresql+psycopg2://postgres@127.0.0.1:{free_port()}/postgres")


def test_a_worker_restarted_under_its_name_gets_its_claims_back_at_once(db_url):
    repo = SqlRepository(db_url)
    match = _match(repo)
    repo.set_deadlines(match.id, [Deadline(match.id, AI_TURN, 10.0, match.version, (1,))])
    assert [d.kind for d in repo.due_deadlines(10.0, "w1", 30.0, 10)] == [AI_TURN]
    # the live worker that holds the claim does not get it twice, nor does any other worker
    assert repo.due_deadlines(11.0, "w1", 30.0, 10) == []
    assert SqlRepository(db_url).due_deadlines(11.0, "w2", 30.0, 10) == []
    # w1 was killed while it held the claim; the process started in its place takes the same name
    # and gets the claim at once, not when the 30 s lease ends
    restarted = SqlRepository(db_url)
    assert [d.kind for d in restarted.due_deadlines(12.0, "w1", 30.0, 10)] == [AI_TURN]
    assert restarted.due_deadlines(13.0, "w1", 30.0, 10) == []  # and only once
    # the older way (the core releases a reused name's claims when it starts) still works
    assert repo.release_deadlines("w1", now=14.0) == 1
    assert repo.next_due() == 14.0
    assert [d.kind for d in repo.due_deadlines(14.0, "w1", 30.0, 10)] == [AI_TURN]


def test_rows_marked_superseded_are_never_sent(db_url):
    repo = SqlRepository(db_url)
    repo.outbox_add([_out("old", key="table:1"), _out("new", key="table:1")])
    rows = repo.outbox_pending(Q("t:g:g1"), now=0.0)
    repo.outbox_superseded([rows[0].id])
    assert [r.out.text for r in repo.outbox_pending(Q("t:g:g1"), now=0.0)] == ["new"]


def test_old_delivered_rows_and_update_ids_are_forgotten(db_url):
    import time

    repo = SqlRepository(db_url)
    with repo.unit(update=("t", "1")):
        repo.outbox_add([_out("sent"), _out("waiting")])
    sent, _waiting = repo.outbox_pending(Q("t:g:g1"), now=0.0)
    repo.outbox_done(sent.id, None)
    now = time.time()
    assert repo.prune(done_before=now - 60, seen_before=now - 60) == 0  # all of it is newer
    assert repo.prune(done_before=now + 60, seen_before=now + 60) == 2  # the sent row and the id
    assert [r.out.text for r in repo.outbox_pending(Q("t:g:g1"), now=0.0)] == ["waiting"]
    assert not repo.seen_update("t", "1")


@pytest.mark.postgres
def test_a_row_lock_held_too_long_is_storage_unavailable_not_a_hang(pg_url, monkeypatch):
    from sqlalchemy import create_engine, text

    from chatbot.storage import db

    engine = create_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    monkeypatch.setattr(db, "LOCK_TIMEOUT_MS", 300)
    repo = SqlRepository(pg_url)
    match = _match(repo)
    with engine.connect() as other:
        other.execute(text('SELECT id FROM "match" WHERE id = :id FOR UPDATE'), {"id": match.id})
        with pytest.raises(StorageUnavailable), repo.unit(update=("t", "lock")):
            repo.commit_action(match.id, match.version, 0, "draw", [], {"ply": 1}, RUNNING)
        other.rollback()
    assert not repo.seen_update("t", "lock")
    assert repo.commit_action(match.id, match.version, 0, "draw", [], {"ply": 1}, RUNNING)
    engine.dispose()


def test_the_committing_hook_reads_the_queue_inside_the_update_and_only_a_commit_counts(db_url):
    """The runtime reads the first answer's chat queue inside the update's own transaction (on
    PostgreSQL along with the insert of its rows): what it reads is the queue as it is after the
    commit, rows queued earlier first; a unit that rolls back hands nothing on."""
    repo = SqlRepository(db_url)
    repo.outbox_add([_out("earlier")])
    got = []

    def hook(queued):
        rows = repo.outbox_pending(ChatQueue.of(queued[0]), now=10.0, limit=20)
        return lambda: got.append([r.out.text for r in rows])

    def wants(outs):
        return ChatQueue.of(outs[0]), 20

    with repo.committing(hook, wants):
        with repo.unit(update=("t", "40")):
            repo.outbox_add([_out("answer"), _out("private", user="u1"), _out("table", key="table:1")])
        assert got == [["earlier", "answer", "table"]]
        assert [r.out.text for r in repo.outbox_pending(Q("t:g:g1"), now=10.0)] == got[0]
        with pytest.raises(RuntimeError), repo.unit(update=("t", "41")):
            repo.outbox_add([_out("lost")])
            raise RuntimeError("the update fails after queueing its answer")
    assert len(got) == 1
    assert [r.out.text for r in repo.outbox_pending(Q("t:g:g1"), now=10.0)] == ["earlier", "answer", "table"]


def test_a_batch_s_bookkeeping_is_one_statement_and_rides_with_the_next_read(db_url):
    """The deliverer books a batch's done marks (a keyed row's reference kept and the older rows
    of its key superseded, where a keyless row landed kept as its note), the note of the next new
    message and the chat's rate-limit window, and writes them all with ONE statement, in the same
    transaction as its next read."""
    from sqlalchemy import event

    from chatbot.core.ports import Booking

    repo = SqlRepository(db_url)
    repo.outbox_add([_out("old table", key="table:1"), _out("hello"), _out("table", key="table:1")])
    repo.outbox_add([_out("next")])
    old, hello, table, nxt = repo.outbox_pending(Q("t:g:g1"), now=0.0)
    statements: list[str] = []
    event.listen(repo.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    booking = Booking(
        done=[(hello, '{"id": 41, "box": false}'), (table, "ref-7")],
        sending=(nxt.id, {"after": 41}),
        kv={("ratelimit", "t:g:g1"): [[1.0, 0.0]]},
    )
    repo.outbox_book(booking)
    assert len(statements) == 1
    rows = repo.outbox_pending(Q("t:g:g1"), now=0.0)
    assert [r.out.text for r in rows] == ["next"] and rows[0].sending == {"after": 41}
    assert repo.message_ref(Q("t:g:g1"), "table:1") == "ref-7"
    assert repo.kv_get("ratelimit", "t:g:g1") == [[1.0, 0.0]]
    with repo.engine.connect() as conn:
        from sqlalchemy import text

        states = dict(conn.execute(text("SELECT id, state FROM outbox")).all())
        sent = conn.execute(text("SELECT sending FROM outbox WHERE id = :i"), {"i": hello.id}).scalar()
    assert [states[r.id] for r in (old, hello, table, nxt)] == ["superseded", "done", "done", "pending"]
    assert (sent if isinstance(sent, dict) else json.loads(sent)) == {"id": 41, "box": False}
    # with the next read: done, then read, in one transaction
    statements.clear()
    rows = repo.outbox_pending(Q("t:g:g1"), now=0.0, booking=Booking(done=[(nxt, None)]))
    assert rows == [] and len(statements) == 2


def test_a_read_writes_the_first_new_message_s_note_in_its_own_transaction(db_url):
    repo = SqlRepository(db_url)
    repo.outbox_add([_out("hello"), _out("again")])
    seen = []

    def note(rows):
        seen.append([r.out.text for r in rows])
        return rows[0].id, {"after": 9}

    rows = repo.outbox_pending(Q("t:g:g1"), now=0.0, note=note)
    assert seen == [["hello", "again"]] and rows[0].sending is None  # returned as read
    assert repo.outbox_pending(Q("t:g:g1"), now=0.0)[0].sending == {"after": 9}


def test_a_claim_round_lists_the_chats_this_worker_sends_with_rows_but_claims_only_new_ones(db_url):
    """The chats a worker sends already are not claimed again (their claims are renewed by the
    heartbeat) and take no room of the round; with rows they are listed, so their senders look
    again. A chat another worker sends is neither."""
    from sqlalchemy import event

    repo = SqlRepository(db_url)
    repo.outbox_add([_out("a", chat="g1"), _out("b", chat="g2"), _out("c", chat="g3"), _out("d", chat="g4")])
    assert repo.outbox_claim("t", "w2", now=100.0, lease=30.0, limit=1) == [Q("t:g:g4")]
    assert repo.outbox_claim("t", "w1", now=100.0, lease=30.0, limit=1) == [Q("t:g:g3")]
    upserts: list[str] = []
    event.listen(
        repo.engine,
        "before_cursor_execute",
        lambda *a: upserts.append(a[2]) if a[2].startswith("INSERT INTO chatclaim") else None,
    )
    got = repo.outbox_claim("t", "w1", now=101.0, lease=30.0, limit=1, sending=[Q("t:g:g3")])
    assert got == [Q("t:g:g3"), Q("t:g:g2")] and len(upserts) == 1  # g2 claimed; g3 only listed
