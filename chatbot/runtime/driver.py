"""The runtime: one async driver under every transport (issue #12).

inbound update -> :meth:`Runtime.handle` -> ``core.handle`` on the core's thread (one transaction:
the change, its outbox rows, the next deadlines, the update id) -> the deliverer claims the touched
chat queues and sends their rows in order through :meth:`Transport.deliver`, marking each row done
only after the platform accepted it. The deadline loop sleeps until ``core.next_due()`` (or a wake)
and lets ``core.run_due`` perform what is due (AI turns, reminders, idle moves, reaction windows).

No state lives here that another worker would need: the outbox, the claims and the deadlines are in
the database, so a restart is just a start (pending rows go out, fresh ones first) and N workers can
share one database.

The core and the store are synchronous and are called on ONE thread per process (the core
executor), in order; the event loop stays free for platform traffic. Console and script run them
inline (``Settings(inline=True)``) and deliver serially in commit order (``serial=True``), which
keeps transcripts deterministic.

The parts: :mod:`~chatbot.runtime.inbound` (an update to its first answer),
:mod:`~chatbot.runtime.outbox` (claims, senders, bookkeeping), :mod:`~chatbot.runtime.deadlines`,
:mod:`~chatbot.runtime.threads`, :mod:`~chatbot.runtime.settings`, :mod:`~chatbot.runtime.workers`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from chatbot.core.ports import (
    Answer,
    Blocked,
    OutboxRow,
    RuntimeCore,
    RuntimeStore,
    StorageUnavailable,
    Transport,
)
from chatbot.core.types import Inbound, Outbound
from chatbot.runtime.deadlines import DeadlineLoop
from chatbot.runtime.inbound import Take, Updates
from chatbot.runtime.outbox import Deliverer, StoreWindows
from chatbot.runtime.settings import Settings, Stats
from chatbot.runtime.threads import PriorityThread
from chatbot.runtime.workers import default_worker

log = logging.getLogger(__name__)

T = TypeVar("T")

__all__ = ["Runtime", "Settings", "Stats", "default_worker", "run_until_signal"]


class Runtime:
    """Drives ``core`` for one ``transport`` (see the module docstring).

    ``store`` is the :class:`~chatbot.core.ports.RuntimeStore` (by default ``core.repo``, which
    implements it). Transports call :meth:`handle` for every inbound update, and may keep a small
    state of their own through :meth:`kv_get`/:meth:`kv_set`."""

    def __init__(
        self,
        core: RuntimeCore,
        transport: Transport,
        *,
        store: RuntimeStore | None = None,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.core = core
        self.transport = transport
        self.store = store if store is not None else _store_of(core)
        url = self.store.url
        self.settings = settings or Settings()
        if not self.settings.worker:
            self.settings = replace(self.settings, worker=default_worker(url))
        self.clock = clock
        self.platform: str = transport.platform
        self.stats = Stats()
        self._executor: PriorityThread | None = None
        self._book_executor: PriorityThread | None = None
        self._two_threads = self.settings.delivery_thread and not (
            url in {"sqlite://", "sqlite:///:memory:"} or ":memory:" in url or "mode=memory" in url
        )
        self._tasks: list[asyncio.Task[Any]] = []
        self.running = False
        self.stopping = False
        self._serial_lock = asyncio.Lock()
        #: False from a database failure until the next committed update (a transport answers a press
        #: before the core has decided only while the database works: otherwise the apology is the answer)
        self.storage_ok = True
        self.outbox = Deliverer(self)
        self.updates = Updates(self)
        self.deadlines = DeadlineLoop(self)

    # ------------------------------------------------------------------------------------------
    # the core's thread and the delivery's thread

    async def call(self, fn: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        """``fn(*args)`` on the core's thread (one call at a time, in order; ``urgent`` calls, a
        person's update, before the deadlines' and the AI seats' work that waits)."""
        if self.settings.inline:
            return fn(*args)
        if self._executor is None:
            self._executor = PriorityThread(f"{self.platform}-core")
        return await asyncio.wrap_future(self._executor.submit(functools.partial(fn, *args), urgent))

    async def book(self, fn: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        """``fn(*args)`` on the delivery's own thread: marking a sent row done must not wait behind
        a core call (a crash in between sends the row again), and the core need not wait for it.
        One thread too when the database is in memory (each thread would see a database of its own).

        ``urgent`` work (for a chat that answers a person just now) runs before any other work
        waiting for that thread: after a restart, a backlog of a thousand chats queues its
        bookkeeping there, and a new command's claim, read and window would wait behind it."""
        if self.settings.inline or not self._two_threads:
            return await self.call(fn, *args, urgent=urgent)
        if self._book_executor is None:
            self._book_executor = PriorityThread(f"{self.platform}-outbox")
        return await asyncio.wrap_future(self._book_executor.submit(functools.partial(fn, *args), urgent))

    async def kv_get(self, namespace: str, key: str) -> Any:
        """The transport's own small state (a sync token, a room map), stored with the rest."""
        return await self.book(self.store.kv_get, namespace, key)

    async def kv_set(self, namespace: str, key: str, value: Any) -> None:
        await self.book(self.store.kv_set, namespace, key, value)

    def storage_error(self, where: str, exc: BaseException) -> None:
        self.stats.storage_errors += 1
        self.storage_ok = False
        if isinstance(exc, StorageUnavailable):
            log.warning("%s: the database is unavailable (%s); trying again", where, exc)
        else:
            log.exception("%s failed; trying again", where, exc_info=exc)

    # ------------------------------------------------------------------------------------------
    # life cycle

    async def start(self) -> None:
        """Start the deliverer and the deadline loop; pending rows of an earlier run go out now."""
        self.running = True
        self.stopping = False
        template = self.transport.link_template
        if template:
            self.core.link_template = template
        limiter = self.transport.limiter
        if limiter is not None and not limiter.off and not self.settings.serial:
            limiter.shared = StoreWindows(self)
        if not self.transport.group_text_visible:
            self.core.addressed_only.add(self.platform)
        if self.settings.serial:
            await self.drain()
            return
        if self.settings.switch_interval and not self.settings.inline:
            sys.setswitchinterval(min(sys.getswitchinterval(), self.settings.switch_interval))
        if not self.settings.inline:
            await self.call(self.core.warm)  # the first answers do not pay for catalogs and indexes
            if self._executor is not None:
                # a long read on the core's thread (a first start's rebuild of missing deadlines)
                # lets a person's update go first between its chunks
                self.store.yield_to(self._executor.run_urgent)
        if self.settings.freeze_gc and not self.settings.inline:
            gc.collect()
            gc.freeze()
        self._tasks = [
            asyncio.create_task(self.outbox.claim_loop(), name=f"{self.platform}-claims"),
            asyncio.create_task(self.deadlines.loop(), name=f"{self.platform}-deadlines"),
            asyncio.create_task(self.outbox.renew_loop(), name=f"{self.platform}-renewals"),
        ]
        self.wake()

    async def stop(self) -> None:
        """Stop taking work, let what is being sent finish (bounded by ``drain_timeout``), release
        the claims. Rows not sent stay in the outbox for the next start or another worker."""
        if not self.running:
            return
        self.stopping = True
        senders = self.outbox.stop()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        if senders:
            _done, pending = await asyncio.wait(senders, timeout=self.settings.drain_timeout)
            for task in pending:
                task.cancel()
            for task in pending:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self.running = False
        self.store.yield_to(None)
        for executor in (self._executor, self._book_executor):
            if executor is not None:
                executor.shutdown(wait=True)
        self._executor = self._book_executor = None

    def wake(self) -> None:
        """Something may be pending: look for claimable chats and due deadlines now."""
        self.outbox.claim_wake.set()
        self.deadlines.wake.set()

    async def idle(self, timeout: float = 10.0) -> bool:
        """Wait until no chat of this platform has a row that can be sent now (tests, benchmarks)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.outbox.busy():
                chats, due = await self.call(self._pending_work)
                if not chats and not due and self.outbox.all_lingering():
                    return True
                self.wake()
            await asyncio.sleep(0.02)
        return False

    def _pending_work(self) -> tuple[bool, bool]:
        # a claim under a name no worker uses, released at once: only to see whether anything waits
        probe = f"{self.settings.worker}:probe"
        now = self.clock()
        chats = self.store.outbox_claim(self.platform, probe, now, 0.001, 1)
        for chat in chats:
            self.store.outbox_release(chat, probe)
        due = self.core.next_due()
        return bool(chats), due is not None and due <= now

    # ------------------------------------------------------------------------------------------
    # what transports call

    async def handle(
        self,
        msg: Inbound,
        take: Take | None = None,
        first: Callable[[list[Outbound]], Awaitable[None]] | None = None,
    ) -> Answer:
        """Let the core answer ``msg`` and deliver what it committed.

        A redelivered update (``msg.update_key`` seen before) returns an empty answer and does
        nothing: the core records the update id first in the change's transaction and says so
        (``Answer.duplicate``). ``take`` may pick one of the answers that the transport shows by
        itself (a callback toast): that row is marked done without being sent. ``first`` (a callback
        query's answer) is started before the deliverer is woken, so that it is not queued behind
        the rows' bookkeeping; it is awaited before ``handle`` returns."""
        return await self.updates.handle(msg, take, first)

    async def perform(self, fn: Callable[..., Answer], *args: Any) -> Answer:
        """A core use case that is not a message (a chat moved, the bot removed from a group): run on
        the core's thread like :meth:`handle`, and deliver what it committed."""
        return await self.updates.perform(fn, *args)

    async def run_due(self) -> Sequence[Outbound]:
        """Perform what is due now (one ``core.run_due`` call) and deliver it."""
        return await self.deadlines.run_due()

    async def run_due_all(self, limit: int = 100_000) -> list[Outbound]:
        """Perform deadlines until nothing is due (AI seats move until a person must act)."""
        return await self.deadlines.run_due_all(limit)

    # ------------------------------------------------------------------------------------------
    # serial delivery (console, script)

    async def drain(self) -> int:
        """Deliver every pending row of this platform in global commit order (no coalescing
        across steps: each step is drained before the next)."""
        async with self._serial_lock:
            sent = 0
            while True:
                rows = await self.call(self._all_pending)
                if not rows:
                    return sent
                progressed = False
                for row in rows:
                    key = row.out.key
                    ref = await self.call(self.store.message_ref, row.chat, key) if key else None
                    try:
                        new_ref = await self.outbox.deliver(row, ref)
                    except Blocked:
                        if row.out.user_id is not None:
                            await self.call(self.core.private_blocked, row.out.platform, row.out.user_id)
                        else:
                            await self.call(self.store.outbox_done, row.id, None)
                        progressed = True
                        break
                    await self.call(self.store.outbox_done, row.id, new_ref)
                    self.stats.delivered += 1
                    sent += 1
                    progressed = True
                if not progressed:
                    return sent

    def _all_pending(self) -> list[OutboxRow]:
        worker = self.settings.worker
        chats = self.store.outbox_claim(self.platform, worker, self.clock(), self.settings.lease, 10_000)
        rows: list[OutboxRow] = []
        try:
            for chat in chats:
                rows.extend(self.store.outbox_pending(chat, self.clock(), 10_000))
        finally:
            for chat in chats:
                self.store.outbox_release(chat, worker)
        return sorted(rows, key=lambda r: r.id)


def _store_of(core: RuntimeCore) -> RuntimeStore:
    """The core's repository as the runtime's store (the SQL repository implements both ports)."""
    repo = core.repo
    if not isinstance(repo, RuntimeStore):
        raise TypeError(f"{type(repo).__name__} is no RuntimeStore: give the runtime a store")
    return repo


async def run_until_signal(
    runtime: Runtime, start: Callable[[], Awaitable[None]], stop: Callable[[], Awaitable[None]]
) -> None:
    """Start, wait for SIGINT/SIGTERM, stop: the shape of every long-running transport."""
    import signal

    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stopped.set)
    await start()
    try:
        await stopped.wait()
    finally:
        await stop()
