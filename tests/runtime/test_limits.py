"""The rate limiter's windows: calls count until they are answered, a chat's window is shared by
the workers (through the database), and the setting can scale the windows for a test."""

from __future__ import annotations

import asyncio
import time

import pytest

from chatbot.runtime.limits import Limits, RateLimiter, telegram_limits


class Windows:
    """The shared windows as the database holds them (one value per chat)."""

    def __init__(self) -> None:
        self.rows: dict[str, list[list[float]]] = {}
        self.saves = 0

    async def load(self, chat_id):
        return list(self.rows.get(str(chat_id), []))

    async def save(self, chat_id, calls, before_call=False):
        self.saves += 1
        self.rows[str(chat_id)] = [list(c) for c in calls]


def test_a_groups_window_goes_with_its_claim_to_the_next_worker():
    async def body():
        windows = Windows()
        limits = Limits(overall=None, per_group=(3, 0.5), per_private=None)
        first, second = RateLimiter(limits, clock=time.time), RateLimiter(limits, clock=time.time)
        first.shared = second.shared = windows
        start = time.time()
        for _ in range(3):
            await first.acquire("g", True)
            first.done("g")
        # the window is in the store before the call is made, not only when the claim ends
        assert len(windows.rows["g"]) == 3
        # the first worker dies (no release); the next one to claim the chat must wait for the window
        await second.acquire("g", True)
        assert time.time() - start >= 0.5
        second.done("g")
        await second.release("g")
        assert len(windows.rows["g"]) == 1 and windows.rows["g"][0][0] >= start + 0.5  # the old ones expired

    asyncio.run(asyncio.wait_for(body(), 5))


def test_a_call_left_open_by_a_dead_worker_counts_as_made_when_the_next_one_claims():
    async def body():
        windows = Windows()
        limits = Limits(overall=None, per_group=(1, 0.3), per_private=None)
        first, second = RateLimiter(limits, clock=time.time), RateLimiter(limits, clock=time.time)
        first.shared = second.shared = windows
        await first.acquire("g", True)  # ...and the worker is killed before the answer comes
        assert windows.rows["g"][0][1] == 1.0
        await asyncio.sleep(0.4)  # a window after the call was let through, but it may have just arrived
        claimed = time.time()
        await second.acquire("g", True)
        assert time.time() - claimed >= 0.29

    asyncio.run(asyncio.wait_for(body(), 5))


def test_a_call_counts_from_its_answer():
    async def body():
        limiter = RateLimiter(Limits(overall=(1, 0.3), per_group=None, per_private=None))
        await limiter.acquire(1, False)
        await asyncio.sleep(0.2)  # the request takes 0.2 s
        limiter.done(1)
        answered = time.monotonic()
        await limiter.acquire(2, False)
        assert time.monotonic() - answered >= 0.29  # not 0.1 s after: the platform saw it late

    asyncio.run(asyncio.wait_for(body(), 5))


def test_scaled_and_split_windows():
    assert telegram_limits("default") == Limits()
    assert telegram_limits("default", workers=3).overall == (10, 1.0)
    assert telegram_limits("overall=30/1,group=20/6", workers=3) == Limits(
        overall=(10, 1.0), per_group=(20, 6.0), per_private=None
    )
    assert telegram_limits("group=off").per_group is None
    for bad in ("group=20", "groups=20/60", "group=0/60", "sometimes"):
        with pytest.raises(ValueError):
            telegram_limits(bad)


def test_a_groups_window_is_in_the_database_before_each_call_to_it():
    """A worker killed right after a call must leave that call in the group's shared window: the
    process that sends the group next (another worker once the claim runs out, or one restarted
    under the same name, which takes the claim over at once) counts it. Kept only with the chat's
    next bookkeeping, the calls of a batch were lost with the worker, and the successor's group got
    26 calls in a window of 20 (tests/transports/test_workers.py)."""
    from chatbot.core.ports import ChatQueue
    from chatbot.runtime import Runtime, Settings
    from chatbot.runtime.outbox import StoreWindows
    from tests.runtime.doubles import EchoCore, MemoryStore, RecordingTransport
    from tests.runtime.test_runtime import FAST, msg, run

    class Checking(RecordingTransport):
        """Looks in the store at each call: the group's saved window holds every call so far."""

        def __init__(self, store: MemoryStore, limiter: RateLimiter) -> None:
            super().__init__(limiter=limiter)
            self.store = store
            self.short: list[tuple[int, int]] = []

        async def deliver(self, out, ref, txn):
            chat = ChatQueue.of(out)
            saved = self.store.kv.get((StoreWindows.NAMESPACE, str(chat))) or []
            made = sum(1 for s in self.sent if ChatQueue.of(s.out) == chat) + 1
            if len(saved) < made:
                self.short.append((made, len(saved)))
            return await super().deliver(out, ref, txn)

    async def body():
        store = MemoryStore(time.time)
        core = EchoCore(store, time.time)
        limiter = RateLimiter(Limits(overall=(100, 1.0), per_group=(50, 60.0)), clock=time.time)
        transport = Checking(store, limiter)
        rt = Runtime(core, transport, store=store, settings=Settings(**{**FAST, "worker": "w1"}))
        await rt.start()
        await rt.handle(msg("many 6", chat="g"))
        assert await rt.idle(10)
        await rt.stop()
        assert len(transport.sent) == 6
        assert not transport.short, transport.short

    run(body())
