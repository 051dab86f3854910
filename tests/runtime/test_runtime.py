"""The runtime driver over the seam, with in-memory TEST DOUBLES of the store, the core and the
transport (tests/runtime/doubles.py). End-to-end tests over the real core live with the transports."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable
from typing import Any

import pytest

from chatbot.core.ports import RetryLater
from chatbot.core.types import Inbound, Outbound
from chatbot.runtime import Limits, RateLimiter, Runtime, Settings
from tests.runtime.doubles import EchoCore, MemoryStore, RecordingTransport

FAST = dict(poll_every=0.05, deadline_poll=0.05, storage_retry=0.05, lease=3.0, drain_timeout=2.0)


def run(coro: Awaitable[Any], timeout: float = 20.0) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded())


def setup(transport: RecordingTransport | None = None, **settings: Any):
    store = MemoryStore(time.time)
    core = EchoCore(store, time.time)
    tr = transport or RecordingTransport()
    rt = Runtime(core, tr, settings=Settings(**{**FAST, "worker": "w1", **settings}))
    return store, core, tr, rt


def msg(
    text: str, user: str = "u1", chat: str = "g", key: str | None = None, private: bool = False
) -> Inbound:
    return Inbound("test", user, user.capitalize(), chat, private, text=text, update_key=key, message_id=key)


def test_answers_are_delivered_in_order_and_marked_done():
    async def body():
        store, _core, tr, rt = setup()
        await rt.start()
        for i in range(5):
            await rt.handle(msg(f"say {i}", key=str(i)))
        assert await rt.idle(5)
        await rt.stop()
        assert tr.texts() == ["0", "1", "2", "3", "4"]
        assert [s.txn for s in tr.sent] == [f"ob{i}" for i in range(1, 6)]
        assert store.states() == ["done"] * 5
        assert not store.claims  # released
        # the core ran on its own thread and the delivery's bookkeeping on another, never on the loop's
        assert store.threads == {"test-core_0", "test-outbox_0"}

    run(body())


def test_a_redelivered_update_is_not_handled_again():
    async def body():
        _store, core, tr, rt = setup()
        await rt.start()
        assert await rt.handle(msg("say hi", key="7"))
        assert await rt.handle(msg("say hi", key="7")) == []
        assert await rt.idle(5)
        await rt.stop()
        assert len(core.handled) == 1 and rt.stats.duplicates == 1 and tr.texts() == ["hi"]

    run(body())


def test_pending_table_edits_coalesce_to_the_newest():
    async def body():
        store, core, tr, rt = setup()
        for i in range(6):  # committed while no runtime ran (a restart)
            core.handle(msg(f"table {i}"))
            core.handle(msg(f"say answer {i}"))
        await rt.start()
        assert await rt.idle(5)
        await rt.stop()
        assert tr.texts() == [f"answer {i}" for i in range(5)] + ["table 5", "answer 5"]
        assert store.states().count("superseded") == 5 and rt.stats.superseded == 5
        assert "pending" not in store.states()

    run(body())


def test_an_edit_goes_to_the_message_sent_before():
    async def body():
        store, _core, tr, rt = setup()
        await rt.start()
        await rt.handle(msg("table a"))
        assert await rt.idle(5)
        await rt.handle(msg("table b"))
        assert await rt.idle(5)
        await rt.stop()
        assert [(s.out.text, s.ref) for s in tr.sent] == [("table a", None), ("table b", "msg1")]
        assert store.refs[("test:g:g", "table:1")] == "msg1"

    run(body())


def test_chats_run_in_parallel_in_order_and_bounded():
    async def body():
        _store, _core, tr, rt = setup(RecordingTransport(delay=0.02), max_in_flight=3)
        await rt.start()
        for chat in range(8):
            await rt.handle(msg("many 5", chat=f"c{chat}"))
        started = time.monotonic()
        assert await rt.idle(10)
        took = time.monotonic() - started
        await rt.stop()
        for chat in range(8):
            assert tr.texts(f"test:g:c{chat}") == [f"m{i}" for i in range(5)]
        assert tr.max_in_flight == 3 and rt.stats.max_in_flight_seen == 3
        assert took < 40 * 0.02  # parallel: well under one request after another

    run(body())


def test_retry_later_waits_and_keeps_the_order():
    async def body():
        tr = RecordingTransport(script={"m1": [RetryLater(0.3), RetryLater(0.2)]})
        store, _core, tr, rt = setup(tr)
        await rt.start()
        started = time.monotonic()
        await rt.handle(msg("many 4"))
        assert await rt.idle(5)
        await rt.stop()
        assert tr.texts() == ["m0", "m1", "m2", "m3"]
        assert time.monotonic() - started >= 0.5 and rt.stats.retry_later == 2
        assert store.rows[1].attempts == 2 and store.states() == ["done"] * 4

    run(body())


def test_a_long_retry_releases_the_chat_and_comes_back():
    async def body():
        tr = RecordingTransport(script={"m0": [RetryLater(1.2)]})
        store, _core, tr, rt = setup(tr, lease=3.0)
        await rt.start()
        await rt.handle(msg("many 2"))
        await asyncio.sleep(0.3)
        assert "test:g:g" not in store.claims  # not held while waiting
        assert await rt.idle(5)
        await rt.stop()
        assert tr.texts() == ["m0", "m1"]

    run(body())


@pytest.mark.logs_errors("delivery of outbox row")
def test_an_unexpected_failure_is_retried_then_given_up():
    async def body():
        tr = RecordingTransport(script={"m0": [OSError("boom")] * 2, "m1": [ValueError("bad")] * 10})
        _store, _core, tr, rt = setup(tr, max_attempts=3)
        await rt.start()
        await rt.handle(msg("many 3"))
        assert await rt.idle(15)
        await rt.stop()
        assert tr.texts() == ["m0", "m2"]  # m1 given up after 3 attempts, the queue went on
        assert rt.stats.given_up == 1

    run(body())


def test_blocked_private_chat_asks_the_core_and_holds():
    async def body():
        tr = RecordingTransport(blocked_users={"u2"})
        store, core, tr, rt = setup(tr)
        await rt.start()
        await rt.handle(msg("dm one", user="u2"))
        await rt.handle(msg("dm two", user="u2"))
        assert await rt.idle(5)
        await rt.stop()
        assert core.blocked == [("test", "u2")]
        assert core.link_template == tr.link_template  # the transport's deep link reached the core
        assert tr.texts("test:g:g") == ["u2: open the bot https://t.me/testbot?start={payload}"]
        assert [r.held for r in store.rows[:2]] == [True, True]
        assert store.states()[:2] == ["pending", "pending"]  # kept for when they open the chat

    run(body())


def test_a_persons_answer_goes_before_a_table_edit_when_the_group_budget_is_spent():
    async def body():
        limiter = RateLimiter(Limits(overall=None, per_group=(2, 0.5), per_private=None))
        tr = RecordingTransport(limiter=limiter)
        _store, core, tr, rt = setup(tr)
        await rt.start()
        await rt.handle(msg("table 0"))
        assert await rt.idle(5)
        # one slot left in the window: commit order while it lasts
        core.handle(msg("table 1"))
        core.handle(msg("say first"))
        core.handle(msg("say second"))
        rt.wake()
        assert await rt.idle(5)
        await rt.stop()
        assert tr.texts() == ["table 0", "table 1", "first", "second"]
        # with the budget spent the answer overtakes the edit
        limiter2 = RateLimiter(Limits(overall=None, per_group=(1, 0.5), per_private=None))
        tr2 = RecordingTransport(limiter=limiter2)
        _store, core, tr2, rt = setup(tr2)
        await rt.start()
        await rt.handle(msg("table 0"))
        assert await rt.idle(5)
        core.handle(msg("table 1"))
        core.handle(msg("say first"))
        rt.wake()
        assert await rt.idle(5)
        await rt.stop()
        assert tr2.texts() == ["table 0", "first", "table 1"]

    run(body())


def test_deadlines_run_ai_moves_when_due():
    async def body():
        store, _core, tr, rt = setup()
        await rt.start()
        await rt.handle(msg("ai 3"))
        await asyncio.sleep(0.1)
        assert await rt.idle(5)
        await rt.stop()
        said = [t for t in tr.texts() if t.startswith("ai said")]
        assert said == ["ai said 3", "ai said 2", "ai said 1"]
        assert "ai move 1" in tr.texts()  # the table edits may coalesce, the newest arrives
        assert not store.deadlines

    run(body())


def test_the_runtime_survives_a_database_outage():
    async def body():
        store, core, tr, rt = setup()
        await rt.start()
        core.handle(msg("say before"))
        store.down = True
        rt.wake()
        answer = await rt.handle(msg("say during"))
        assert answer[0].text == "sorry"  # the core apologises; the runtime sends it directly
        await asyncio.sleep(0.3)
        assert rt.stats.storage_errors > 0
        store.down = False
        await rt.handle(msg("say after"))
        assert await rt.idle(5)
        await rt.stop()
        assert tr.texts() == ["sorry", "before", "after"]

    run(body())


def test_two_workers_share_one_store_and_send_each_row_once():
    async def body():
        store = MemoryStore(time.time)
        core = EchoCore(store, time.time)
        tr1, tr2 = RecordingTransport(delay=0.005), RecordingTransport(delay=0.005)
        rt1 = Runtime(core, tr1, store=store, settings=Settings(**{**FAST, "worker": "w1"}))
        rt2 = Runtime(core, tr2, store=store, settings=Settings(**{**FAST, "worker": "w2"}))
        await rt1.start()
        await rt2.start()
        for i in range(30):
            await (rt1 if i % 2 else rt2).handle(msg("many 3", chat=f"c{i % 5}"))
        assert await rt1.idle(10) and await rt2.idle(10)
        await rt1.stop()
        await rt2.stop()
        sent = tr1.sent + tr2.sent
        assert len(sent) == 90 and len({s.txn for s in sent}) == 90
        for c in range(5):  # per chat: commit order, whichever worker sent
            mine = sorted((s for s in sent if s.out.chat_id == f"c{c}"), key=lambda s: s.at)
            assert [int(s.txn[2:]) for s in mine] == sorted(int(s.txn[2:]) for s in mine)

    run(body())


def test_stop_is_bounded_and_leaves_the_rest_in_the_outbox():
    async def body():
        store, core, tr, rt = setup(RecordingTransport(delay=0.2), drain_timeout=0.5)
        await rt.start()
        await rt.handle(msg("many 20"))
        await asyncio.sleep(0.1)
        started = time.monotonic()
        await rt.stop()
        assert time.monotonic() - started < 1.5
        assert 0 < store.states().count("pending") < 20
        # the next start sends the rest, in order
        store2, tr2 = store, RecordingTransport()
        rt2 = Runtime(core, tr2, settings=Settings(**{**FAST, "worker": "w2", "lease": 0.2}))
        await asyncio.sleep(0.25)  # the first worker's claims were released; leases are short anyway
        await rt2.start()
        assert await rt2.idle(5)
        await rt2.stop()
        assert tr.texts() + tr2.texts() == [f"m{i}" for i in range(20)]
        assert store2.states() == ["done"] * 20

    run(body())


def test_a_toast_taken_by_the_transport_is_not_sent():
    async def body():
        store, _core, tr, rt = setup()
        await rt.start()
        outs = await rt.handle(msg("say short"), take=lambda outs: outs[0])
        assert outs[0].text == "short"
        assert await rt.idle(5)
        await rt.stop()
        assert tr.texts() == [] and store.states() == ["done"] and rt.stats.toasts == 1

    run(body())


def test_serial_mode_delivers_in_global_commit_order_without_coalescing():
    async def body():
        store, _core, tr, rt = setup(serial=True, inline=True)
        await rt.start()
        await rt.handle(msg("table 1"))
        await rt.handle(msg("dm hello", user="u2"))
        await rt.handle(msg("ai 2"))
        await rt.run_due_all()
        await rt.stop()
        assert tr.texts() == ["table 1", "hello", "ai move 2", "ai said 2", "ai move 1", "ai said 1"]
        assert store.threads == {"MainThread"}

    run(body())


@pytest.mark.parametrize("setting,expected", [("off", None), ("default", (20, 60.0)), (None, (20, 60.0))])
def test_telegram_rate_limit_setting(monkeypatch, setting, expected):
    from chatbot.runtime import telegram_limits

    monkeypatch.delenv("TELEGRAM_RATE_LIMITS", raising=False)
    if setting is not None:
        monkeypatch.setenv("TELEGRAM_RATE_LIMITS", setting)
    assert telegram_limits().per_group == expected
    with pytest.raises(ValueError):
        telegram_limits("sometimes")


def test_outbound_round_trip_is_equal():
    out = Outbound("test", "x", chat_id="g", key="k", image=b"\x89PNG..")
    assert Outbound.from_json(out.to_json()) == out


def test_urgent_calls_run_inside_a_long_call_of_the_same_thread_only():
    from chatbot.runtime.threads import PriorityThread

    thread = PriorityThread("test")
    order: list[str] = []
    started, release = threading.Event(), threading.Event()

    def long() -> int:
        started.set()
        release.wait(5)
        ran = thread.run_urgent()  # between two pieces of the long work
        order.append("long")
        return ran

    first = thread.submit(long)
    assert started.wait(5)
    urgent = thread.submit(lambda: order.append("urgent"), urgent=True)
    assert thread.run_urgent() == 0  # not on the thread: nothing
    release.set()
    assert first.result(5) == 1 and urgent.result(5) is None
    assert order == ["urgent", "long"]
    thread.shutdown()


def test_a_backlog_of_one_row_chats_is_claimed_as_fast_as_it_is_sent():
    """A restart on a backlog of chats with a row each: a sender that empties a chat nobody is
    answering lets the claim go at once, and the next chat is claimed then (issue #26: lingering
    senders waited for the next poll; 2,000 rows drained at 8-15 a second of the 24 allowed)."""

    async def body():
        store = MemoryStore(time.time)
        core = EchoCore(store, time.time)
        store.add([Outbound("test", f"r{i}", chat_id=f"c{i}") for i in range(40)])
        tr = RecordingTransport(delay=0.005)
        settings = {**FAST, "worker": "w1", "poll_every": 30.0, "backlog_chats": 4, "linger": 5.0}
        rt = Runtime(core, tr, store=store, settings=Settings(**settings))
        started = time.monotonic()
        await rt.start()
        while len(tr.sent) < 40 and time.monotonic() - started < 5:
            await asyncio.sleep(0.02)
        took = time.monotonic() - started
        await rt.stop()
        assert sorted(tr.texts()) == sorted(f"r{i}" for i in range(40)) and store.states() == ["done"] * 40
        assert took < 3.0  # not one poll (30 s) or one linger (5 s) per four chats

    run(body())
