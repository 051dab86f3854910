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
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import gc
import hashlib
import logging
import os
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from chatbot.core.ports import Blocked, OutboxRow, RetryLater, StorageUnavailable, chat_of
from chatbot.runtime.limits import RateLimiter

log = logging.getLogger(__name__)

T = TypeVar("T")


_WORKERS: dict[str, str] = {}
_SLOT_FILES: list[Any] = []


def default_worker(database: str = "") -> str:
    """This process's worker name on ``database`` (its URL): ``$CHATBOT_WORKER``, else
    ``<host>:<slot>``.

    The slot is the lowest number whose lock file no live process holds, in a folder of the
    temporary directory kept for that database. A process killed with -9 loses its lock, so the
    process started in its place has the same name and takes over its chat claims at once instead
    of waiting for their leases to end; two live processes on one host never share a name. The
    folder is the database's: with one for the whole host, a bot of another database started
    meanwhile took the lowest slot, and the restarted worker waited out its old claims' leases."""
    if database not in _WORKERS:
        _WORKERS[database] = (
            os.environ.get("CHATBOT_WORKER") or f"{socket.gethostname()}:{_take_slot(database)}"
        )
    return _WORKERS[database]


def _take_slot(database: str) -> str:
    try:
        import fcntl
    except ImportError:  # not on POSIX: no takeover, the leases end as usual
        return f"pid{os.getpid()}"
    key = hashlib.sha256(database.encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / "chatbot-workers" / key
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
    for slot in range(256):
        try:
            handle = open(folder / f"{slot}.lock", "a")  # noqa: SIM115 - held for the process's life
        except OSError:
            break
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            continue
        _SLOT_FILES.append(handle)
        return str(slot)
    return f"pid{os.getpid()}"


@dataclass(frozen=True, slots=True)
class Settings:
    """How one runtime process behaves; the defaults suit a real bot."""

    #: this process's name in claims (unique among the workers on one database); empty: the
    #: runtime takes :func:`default_worker` of its database
    worker: str = ""
    #: seconds a chat claim or a deadline claim holds when the worker dies
    lease: float = 15.0
    #: chat queues claimed at once (each one sends in order; bounded so leases do not run out)
    max_chats: int = 64
    #: of those, chat queues that answer nobody just now (a backlog after a restart, AI seats,
    #: timers) sent at once: the rate limits space their calls anyway, and a thousand chats
    #: started at once only pile up work in front of a new command's answer (issue #12)
    backlog_chats: int = 16
    #: rows read from one chat queue at a time
    batch: int = 20
    #: platform requests in flight at once (never more than the HTTP pool holds)
    max_in_flight: int = 8
    #: seconds between looks for rows that no wake announced (other workers, restarts)
    poll_every: float = 2.0
    #: longest sleep of the deadline loop (deadlines set by other workers)
    deadline_poll: float = 5.0
    #: deadlines performed per ``run_due`` call
    due_limit: int = 20
    #: seconds to wait before trying again when the database is away
    storage_retry: float = 1.0
    #: attempts of a row that keeps failing with an unexpected error before it is given up
    max_attempts: int = 8
    #: seconds ``stop`` waits for pending deliveries
    drain_timeout: float = 10.0
    #: run the core on the event loop's thread (console, script, tests over in-memory SQLite)
    inline: bool = False
    #: deliver everything in global commit order after each step, nothing in the background
    serial: bool = False
    #: of several pending rows with one key send only the newest (off in serial mode: transcripts)
    coalesce: bool = True
    #: delivery bookkeeping on a thread of its own (not for in-memory databases)
    delivery_thread: bool = True
    #: seconds a sender keeps an emptied chat's claim for the next answer (no new claim needed)
    linger: float = 2.0
    #: the interpreter's thread switch interval while the core runs on threads of its own (None:
    #: Python's 5 ms). The core's and the delivery's threads hold the GIL for CPU-bound stretches
    #: (rendering, decoding); meanwhile the event loop, which sends the answers, waits up to the
    #: interval before it may run again
    switch_interval: float | None = 0.001
    #: move everything alive once the runtime has started (modules, tables, the platform client)
    #: out of the garbage collector's reach (``gc.freeze``): its full collections, pauses of an
    #: update's answer, then walk only what was made since (not with ``inline``: tests, console)
    freeze_gc: bool = True


@dataclass(slots=True)
class Stats:
    updates: int = 0
    duplicates: int = 0
    delivered: int = 0
    superseded: int = 0
    retry_later: int = 0
    blocked: int = 0
    failed: int = 0
    given_up: int = 0
    toasts: int = 0
    #: rows an earlier process had sent without knowing it, found on the platform after a restart
    recovered: int = 0
    deadline_steps: int = 0
    storage_errors: int = 0
    max_in_flight_seen: int = 0

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.__slots__}


def _is_group(chat: str) -> bool:
    return ":g:" in chat


#: seconds after a person's update during which its chat's rows count as fresh answers
FRESH_FOR = 10.0
#: longest wait of an update's other chats behind its first answer (see Runtime._wake_for)
GATE_FOR = 0.25


class _Slots:
    """The requests in flight (at most ``size``), fresh answers first: a row of a chat that answers a
    person just now takes a free slot before any waiting backlog row, and the backlog never holds
    the last ``reserve`` slots. After a restart with a thousand chats to send, a new command's
    answer thus starts at once instead of queueing behind them (issue #12)."""

    def __init__(self, size: int, reserve: int) -> None:
        self.size = size
        self.reserve = min(reserve, size - 1)
        self.used = 0
        self._fresh: collections.deque[asyncio.Future[None]] = collections.deque()
        self._backlog: collections.deque[asyncio.Future[None]] = collections.deque()

    def _may(self, fresh: bool) -> bool:
        if fresh:
            return self.used < self.size
        return not self._fresh and self.used < self.size - self.reserve

    async def acquire(self, fresh: bool) -> None:
        queue = self._fresh if fresh else self._backlog
        if not queue and self._may(fresh):
            self.used += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue.append(future)
        try:
            await future
        except BaseException:
            if future.done() and not future.cancelled():
                self.release()  # granted while being cancelled: hand it on
            elif future in queue:
                queue.remove(future)
            raise

    def release(self) -> None:
        self.used -= 1
        self._grant()

    def _grant(self) -> None:
        for queue, fresh in ((self._fresh, True), (self._backlog, False)):
            while queue and self._may(fresh):
                future = queue.popleft()
                if future.done():
                    continue
                self.used += 1
                future.set_result(None)


class Runtime:
    """Drives ``core`` for one ``transport`` (see the module docstring).

    ``store`` is the :class:`~chatbot.core.ports.RuntimeStore` (by default ``core.repo``, which
    implements it). Transports call :meth:`handle` for every inbound update, and may keep a small
    state of their own through :meth:`kv_get`/:meth:`kv_set`."""

    def __init__(
        self,
        core: Any,
        transport: Any,
        *,
        store: Any = None,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.core = core
        self.transport = transport
        self.store = store if store is not None else core.repo
        url = str(getattr(self.store, "url", ""))
        self.settings = settings or Settings()
        if not self.settings.worker:
            self.settings = replace(self.settings, worker=default_worker(url))
        self.clock = clock
        self.platform: str = transport.platform
        self.stats = Stats()
        self._executor: _PriorityThread | None = None
        self._book_executor: _PriorityThread | None = None
        self._two_threads = self.settings.delivery_thread and not (
            url in {"sqlite://", "sqlite:///:memory:"} or ":memory:" in url or "mode=memory" in url
        )
        self._tasks: list[asyncio.Task[Any]] = []
        self._senders: dict[str, asyncio.Task[None]] = {}
        self._dirty: set[str] = set()
        #: per claimed chat: set when new rows may be there (a lingering sender wakes up)
        self._pokes: dict[str, asyncio.Event] = {}
        self._lingering: set[str] = set()
        #: per claimed chat: until when (monotonic) this worker surely still holds the claim; the
        #: heartbeat renews it while the chat is being sent, a sender stops when it runs out
        self._held_until: dict[str, float] = {}
        #: claimed chats whose claim another worker has taken (the renewal did not find it ours)
        self._lost: set[str] = set()
        #: per claimed chat: how often its sender has read its rows (a read ahead is valid only for
        #: the read count it was made at), and the rows read ahead on the core's thread
        self._reads: dict[str, int] = {}
        self._prefetched: dict[str, tuple[int, list[OutboxRow], dict[str, str | None]]] = {}
        #: chats whose rows wait for a RetryLater time (monotonic), for idle()
        self._deferred: dict[str, float] = {}
        self._claim_wake = asyncio.Event()
        self._due_wake = asyncio.Event()
        #: when the deadline loop looks next (clock seconds); inf while it is looking
        self._due_at = float("inf")
        self._idle = asyncio.Event()
        self._slots = _Slots(self.settings.max_in_flight, max(1, self.settings.max_in_flight // 4))
        #: chats that answered a person just now, until when (monotonic): sent before the backlog
        self._fresh: dict[str, float] = {}
        self._in_flight = 0
        self._running = False
        self._stopping = False
        self._serial_lock = asyncio.Lock()
        #: while a person's first answer is on its way: its chat, and the wakes of the update's other
        #: chats held back until it was sent (see :meth:`_wake_for`)
        self._gate: tuple[str, set[str], bool, asyncio.TimerHandle] | None = None
        #: False from a database failure until the next committed update (a transport answers a press
        #: before the core has decided only while the database works: otherwise the apology is the answer)
        self.storage_ok = True

    # ------------------------------------------------------------------------------------------
    # the core's thread

    async def call(self, fn: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        """``fn(*args)`` on the core's thread (one call at a time, in order; ``urgent`` calls, a
        person's update, before the deadlines' and the AI seats' work that waits)."""
        if self.settings.inline:
            return fn(*args)
        if self._executor is None:
            self._executor = _PriorityThread(f"{self.platform}-core")
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
            self._book_executor = _PriorityThread(f"{self.platform}-outbox")
        return await asyncio.wrap_future(self._book_executor.submit(functools.partial(fn, *args), urgent))

    def _urgent(self, chat: str) -> bool:
        return self._is_fresh(chat)

    async def kv_get(self, namespace: str, key: str) -> Any:
        """The transport's own small state (a sync token, a room map), stored with the rest."""
        return await self.book(self.store.kv_get, namespace, key)

    async def kv_set(self, namespace: str, key: str, value: Any) -> None:
        await self.book(self.store.kv_set, namespace, key, value)

    # ------------------------------------------------------------------------------------------
    # life cycle

    async def start(self) -> None:
        """Start the deliverer and the deadline loop; pending rows of an earlier run go out now."""
        self._running = True
        self._stopping = False
        template = getattr(self.transport, "link_template", None)
        if template and hasattr(self.core, "link_template"):
            self.core.link_template = template
        limiter: RateLimiter | None = getattr(self.transport, "limiter", None)
        if limiter is not None and not limiter.off and not self.settings.serial:
            limiter.shared = _StoreWindows(self)
        addressed_only = getattr(self.core, "addressed_only", None)
        if addressed_only is not None and getattr(self.transport, "group_text_visible", True) is False:
            addressed_only.add(self.platform)
        if self.settings.serial:
            await self.drain()
            return
        if self.settings.switch_interval and not self.settings.inline:
            sys.setswitchinterval(min(sys.getswitchinterval(), self.settings.switch_interval))
        warm = getattr(self.core, "warm", None)
        if warm is not None and not self.settings.inline:
            await self.call(warm)  # the first answers do not pay for catalogs and indexes
        if self.settings.freeze_gc and not self.settings.inline:
            gc.collect()
            gc.freeze()
        self._tasks = [
            asyncio.create_task(self._claim_loop(), name=f"{self.platform}-claims"),
            asyncio.create_task(self._deadline_loop(), name=f"{self.platform}-deadlines"),
            asyncio.create_task(self._renew_loop(), name=f"{self.platform}-renewals"),
        ]
        self.wake()

    async def stop(self) -> None:
        """Stop taking work, let what is being sent finish (bounded by ``drain_timeout``), release
        the claims. Rows not sent stay in the outbox for the next start or another worker."""
        if not self._running:
            return
        self._stopping = True
        self._open_gate()
        for poke in self._pokes.values():
            poke.set()  # lingering senders end now
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        senders = list(self._senders.values())
        if senders:
            _done, pending = await asyncio.wait(senders, timeout=self.settings.drain_timeout)
            for task in pending:
                task.cancel()
            for task in pending:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._running = False
        for executor in (self._executor, self._book_executor):
            if executor is not None:
                executor.shutdown(wait=True)
        self._executor = self._book_executor = None

    def wake(self) -> None:
        """Something may be pending: look for claimable chats and due deadlines now."""
        self._claim_wake.set()
        self._due_wake.set()

    async def idle(self, timeout: float = 10.0) -> bool:
        """Wait until no chat of this platform has a row that can be sent now (tests, benchmarks)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            now = time.monotonic()
            self._deferred = {c: t for c, t in self._deferred.items() if t > now - 1.0}
            busy = [c for c in self._senders if c not in self._lingering]
            if not busy and not self._claim_wake.is_set() and not self._deferred:
                chats, due = await self.call(self._pending_work)
                if not chats and not due and all(c in self._lingering for c in self._senders):
                    return True
                self.wake()
            await asyncio.sleep(0.02)
        return False

    def _pending_work(self) -> tuple[list[str], bool]:
        # a claim under a name no worker uses, released at once: only to see whether anything waits
        probe = f"{self.settings.worker}:probe"
        now = self.clock()
        chats = self.store.outbox_claim(self.platform, probe, now, 0.001, 1)
        for chat in chats:
            self.store.outbox_release(chat, probe)
        due = self.core.next_due()
        return list(chats), due is not None and due <= now

    # ------------------------------------------------------------------------------------------
    # inbound

    async def handle(
        self,
        msg: Any,
        take: Callable[[list[Any]], Any] | None = None,
        first: Callable[[list[Any]], Awaitable[None]] | None = None,
    ) -> list[Any]:
        """Let the core answer ``msg`` and deliver what it committed.

        A redelivered update (``msg.update_key`` seen before) returns [] and does nothing: the core
        records the update id first in the change's transaction and says so (``Answer.duplicate``).
        ``take`` may pick one of the answers that the transport shows by itself (a callback toast):
        that row is marked done without being sent. ``first`` (a callback query's answer) is started
        before the deliverer is woken, so that it is not queued behind the rows' bookkeeping; it is
        awaited before ``handle`` returns."""

        outs, taken, claimed = await self.call(self._handle_and_take, msg, take, urgent=True)
        for chat, asked in claimed:
            self._start_sender(chat, asked)
        self.storage_ok = getattr(outs, "committed", True) is not False
        if getattr(outs, "duplicate", False):
            self.stats.duplicates += 1
            log.info("duplicate update %s ignored", getattr(msg, "update_key", None))
            return []
        self.stats.updates += 1
        answering = None
        if first is not None:
            answering = asyncio.ensure_future(first(outs))
            await asyncio.sleep(0)  # its request is written before the deliverer's work starts
        if getattr(outs, "committed", True) is False:
            # (the answer the transport shows by itself, a toast, is not sent as a message too)
            await self._send_uncommitted([o for o in outs if o is not taken])
        elif self.settings.serial:
            await self.drain()
        else:
            self._wake_for(outs, gate=first is None)
            # the poked senders run now, before the transport goes on (a poll loop would write its
            # next getUpdates first): the first answer's request is written in this step
            await asyncio.sleep(0)
        if answering is not None:
            await answering
        return outs

    async def perform(self, fn: Callable[..., Any], *args: Any) -> list[Any]:
        """A core use case that is not a message (a chat moved, the bot removed from a group): run on
        the core's thread like :meth:`handle`, and deliver what it committed."""
        outs: list[Any] = await self.call(fn, *args, urgent=True)
        if self.settings.serial:
            await self.drain()
        else:
            self._wake_for(outs)
        return outs

    def _wake_for(self, outs: Sequence[Any], gate: bool = False) -> None:
        """New rows in these chats: poke their senders, or claim the chats nobody here sends; wake
        the deadline loop when the change stored a deadline due before the loop looks again.

        With ``gate`` (a person's update that no transport answered by itself): when the first
        answer's rows were read ahead for its idle sender, that sender alone starts now, and the
        update's other chats (the next player's prompt, ...) are woken once the first answer is
        sent, at the latest after ``GATE_FOR`` seconds. Their senders' reads on the delivery thread
        would otherwise hold the interpreter while the first answer's request is written (issue
        #12: a typed move's first answer waited 3-6 ms on the loopback for this)."""
        self._open_gate()
        due = getattr(outs, "due", 0.0)
        if due is not None and due < self._due_at:
            self._due_wake.set()
        claim = False
        limiter: RateLimiter | None = getattr(self.transport, "limiter", None)
        fresh_until = time.monotonic() + FRESH_FOR
        chats = [chat_of(o) for o in outs if getattr(o, "platform", self.platform) == self.platform]
        first = chats[0] if gate and chats and chats[0] in self._prefetched else None
        held: set[str] = set()
        for chat in dict.fromkeys(chats):
            self._fresh[chat] = fresh_until
            if limiter is not None and not limiter.off:
                limiter.mark_fresh(chat, FRESH_FOR)
                limiter.mark_fresh(":".join(chat.split(":")[:3]), FRESH_FOR)  # a forum topic's group
            if first is not None and chat != first:
                held.add(chat)
                continue
            claim = self._poke(chat) or claim
        if first is not None and held:
            timer = asyncio.get_running_loop().call_later(GATE_FOR, self._open_gate)
            self._gate = (first, held, claim or not outs, timer)
        elif claim or not outs:
            self._claim_wake.set()

    def _poke(self, chat: str) -> bool:
        """Wake this worker's sender of ``chat``; True when it has none (the chat must be claimed)."""
        poke = self._pokes.get(chat)
        if chat in self._senders and poke is not None:
            self._lingering.discard(chat)  # busy again from now on (idle() must see it)
            poke.set()
            return False
        return True

    def _open_gate(self, chat: str | None = None) -> None:
        """Wake the chats held back behind a first answer (of ``chat``, or whichever is held)."""
        gate = self._gate
        if gate is None or (chat is not None and chat != gate[0]):
            return
        self._gate = None
        _first, held, claim, timer = gate
        timer.cancel()
        for other in held:
            claim = self._poke(other) or claim
        if claim:
            self._claim_wake.set()

    async def _send_uncommitted(self, outs: Sequence[Any]) -> None:
        """The core's apology while the database is away is in no outbox: send it directly, once."""
        for i, out in enumerate(outs):
            try:
                await self._deliver(OutboxRow(0, chat_of(out), out), None, txn=f"direct-{id(outs)}-{i}")
            except Exception as exc:  # best effort: there is nothing to retry it from
                log.warning("could not send an answer made during a database outage: %s", exc)

    def _handle_and_take(
        self, msg: Any, take: Callable[[list[Any]], Any] | None
    ) -> tuple[list[Any], Any, list[tuple[str, float]]]:

        committing = getattr(self.store, "committing", None)
        ahead: list[str] = []
        if take is None and committing is not None and not self.settings.serial and self._running:
            # the first answer's rows are read inside the update's own transaction, right before
            # its commit: one transaction (on PostgreSQL a BEGIN and a COMMIT round trip) less
            # before the first answer goes out
            with committing(functools.partial(self._read_ahead_in_unit, ahead), self._ahead_wanted):
                outs: list[Any] = self.core.handle(msg)
        else:
            outs = self.core.handle(msg)
        chosen = None
        if take is not None and outs:
            chosen = take(outs)
            if chosen is not None and getattr(outs, "committed", True) is not False:
                self._consume(chosen)
        claimed: list[tuple[str, float]] = []
        if outs and getattr(outs, "committed", True) and not getattr(outs, "duplicate", False):
            claimed = self._claim_now(outs)
            if not ahead or ahead[0] != chat_of(outs[0]):
                self._read_ahead(outs[0], {chat for chat, _ in claimed})
        return outs, chosen, claimed

    def _ahead_wanted(self, outs: Sequence[Any]) -> tuple[str, int] | None:
        """The chat queue :meth:`_read_ahead_in_unit` will read for ``outs`` (and how many rows), so
        that the store may read it with the statement that queues them (PostgreSQL)."""
        out = outs[0]
        if getattr(out, "platform", self.platform) != self.platform:
            return None
        chat = chat_of(out)
        if self._reads.get(chat) is None or chat not in self._lingering:
            return None
        return chat, self.settings.batch

    def _read_ahead_in_unit(self, done: list[str], queued: list[Any]) -> Callable[[], None] | None:
        """The store's ``committing`` hook (see :meth:`_handle_and_take`): inside the transaction of
        an update that queued ``queued``, the first one's chat queue is read when this worker's
        sender of it waits idle; the rows count as read ahead once the commit has succeeded."""
        out = queued[0]
        if getattr(out, "platform", self.platform) != self.platform:
            return None
        chat = chat_of(out)
        reads = self._reads.get(chat)
        if reads is None or chat not in self._lingering:
            return None
        rows, refs = self._take_rows(chat)
        if not rows:
            return None

        def commit() -> None:
            self._prefetched[chat] = (reads, rows, refs)
            done.append(chat)

        return commit

    def _claim_now(self, outs: Sequence[Any]) -> list[tuple[str, float]]:
        """The update's chats that no sender of this worker holds, claimed now on the core's thread
        right after the commit (with the time asked): a new chat's first answer then needs no claim
        round, which after a restart searches a thousand chats' rows and waits its turn on the
        delivery's thread (issue #12)."""
        claim = getattr(self.store, "outbox_claim_chats", None)
        if claim is None or self.settings.serial or not self._running or self._stopping:
            return []
        mine = self.platform
        chats = [
            c
            for c in dict.fromkeys(chat_of(o) for o in outs if getattr(o, "platform", mine) == mine)
            if c not in self._senders
        ][: self.settings.max_chats]
        if not chats:
            return []
        asked = time.monotonic()
        try:
            got = claim(chats, self.settings.worker, self.clock(), self.settings.lease)
        except StorageUnavailable:
            return []  # the claim round tries again
        return [(chat, asked) for chat in got]

    def _start_sender(self, chat: str, asked: float) -> None:
        """This worker holds ``chat``'s claim since ``asked``: its sender runs (or is poked)."""
        self._held_until[chat] = asked + self._sure_for()
        self._lost.discard(chat)
        if chat in self._senders:
            self._dirty.add(chat)
            self._lingering.discard(chat)
            self._pokes[chat].set()
        else:
            self._pokes[chat] = asyncio.Event()
            self._reads.setdefault(chat, 0)
            self._senders[chat] = asyncio.create_task(self._sender(chat), name=f"send {chat}")

    def _read_ahead(self, out: Any, claimed: frozenset[str] | set[str] = frozenset()) -> None:
        """The first answer's chat, when this worker's sender of it waits idle (or was claimed just
        now): read its rows now, on the core's thread right after the commit, so that the sender
        starts sending at once instead of reading them through one more hop between threads (the
        first answer's time). The sender uses them only if it has not read by itself meanwhile."""
        if getattr(out, "platform", self.platform) != self.platform:
            return
        chat = chat_of(out)
        reads = 0 if chat in claimed else self._reads.get(chat)
        if reads is None or (chat not in claimed and chat not in self._lingering):
            return
        try:
            rows, refs = self._take_rows(chat)
        except StorageUnavailable:
            return
        if rows:
            self._prefetched[chat] = (reads, rows, refs)

    def _consume(self, out: Any) -> None:
        """Mark the newest pending row equal to ``out`` done (the transport showed it itself)."""
        try:
            rows = self.store.outbox_pending(chat_of(out), self.clock(), 100)
        except StorageUnavailable:
            return
        for row in reversed(rows):
            if row.out == out:
                self.store.outbox_done(row.id, None)
                self.stats.toasts += 1
                return

    # ------------------------------------------------------------------------------------------
    # deadlines

    async def run_due(self) -> list[Any]:
        """Perform what is due now (one ``core.run_due`` call) and deliver it."""
        outs: list[Any] = await self.call(self.core.run_due, self.settings.worker, self.settings.due_limit)
        if outs:
            self.stats.deadline_steps += 1
            if self.settings.serial:
                await self.drain()
            else:
                self.wake()
        return outs

    async def run_due_all(self, limit: int = 100_000) -> list[Any]:
        """Perform deadlines until nothing is due (AI seats move until a person must act)."""
        done: list[Any] = []
        for _ in range(limit):
            outs = await self.run_due()
            if not outs:
                break
            done.extend(outs)
        return done

    async def _deadline_loop(self) -> None:
        while not self._stopping:
            # cleared before looking: a deadline stored while this pass looks wakes the next one
            self._due_wake.clear()
            self._due_at = float("inf")
            try:
                outs = await self.run_due()
                if outs:
                    continue
                due = await self.call(self.core.next_due)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is away or a deadline failed: keep running
                self._storage_error("deadlines", exc)
                await asyncio.sleep(self.settings.storage_retry)
                continue
            wait = (
                self.settings.deadline_poll
                if due is None
                else min(self.settings.deadline_poll, max(0.0, due - self.clock()))
            )
            if wait <= 0:
                continue
            self._due_at = self.clock() + wait
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._due_wake.wait(), wait)

    def _storage_error(self, where: str, exc: BaseException) -> None:
        self.stats.storage_errors += 1
        self.storage_ok = False
        if isinstance(exc, StorageUnavailable):
            log.warning("%s: the database is unavailable (%s); trying again", where, exc)
        else:
            log.exception("%s failed; trying again", where, exc_info=exc)

    # ------------------------------------------------------------------------------------------
    # delivery: claims

    async def _claim_loop(self) -> None:
        while not self._stopping:
            self._claim_wake.clear()
            try:
                await self._claim_round()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._storage_error("claims", exc)
                await asyncio.sleep(self.settings.storage_retry)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._claim_wake.wait(), self.settings.poll_every)

    def _is_fresh(self, chat: str) -> bool:
        until = self._fresh.get(chat)
        if until is None:
            return False
        if until > time.monotonic():
            return True
        del self._fresh[chat]
        return False

    async def _claim_round(self) -> None:
        # a sender lingering on its emptied chat takes no room; a chat that answers a person just
        # now is claimed even when the room is full (the claim lists the freshest rows first)
        busy = sum(1 for c in self._senders if c not in self._lingering)
        wanted = sum(1 for c in list(self._fresh) if c not in self._senders and self._is_fresh(c))
        most = min(self.settings.max_chats, self.settings.backlog_chats)
        room = max(most - busy, min(wanted, self.settings.max_chats))
        if room <= 0:
            return
        asked = time.monotonic()
        chats = await self.book(
            self.store.outbox_claim,
            self.platform,
            self.settings.worker,
            self.clock(),
            self.settings.lease,
            room,
            urgent=wanted > 0,
        )
        for chat in chats:
            self._start_sender(chat, asked)

    async def _sender(self, chat: str) -> None:
        """Send one claimed chat queue in order until it is empty (or the lease is half used)."""
        claimed = time.monotonic()
        self._deferred.pop(chat, None)
        poke = self._pokes[chat]
        try:
            while not self._stopping and self._holds(chat):
                self._dirty.discard(chat)
                poke.clear()  # before reading: a poke while reading makes the wait below return

                ahead = self._prefetched.pop(chat, None)
                if ahead is not None and ahead[0] == self._reads.get(chat):
                    _, rows, refs = ahead
                else:
                    self._reads[chat] = self._reads.get(chat, 0) + 1
                    rows, refs = await self.book(self._take_rows, chat, urgent=self._urgent(chat))
                if not rows:
                    left = self.settings.lease / 2 - (time.monotonic() - claimed)
                    wait = min(self.settings.linger, left)
                    if wait <= 0 or self._stopping:
                        break
                    self._lingering.add(chat)
                    try:
                        # a poke is immediate; rows another worker committed are seen within 0.5 s
                        # (asyncio.timeout, not wait_for: no task of its own to wrap the wait, so a
                        # poke resumes this sender in the loop's next step)
                        async with asyncio.timeout(min(wait, 0.5)):
                            await poke.wait()
                    except TimeoutError:
                        if wait <= 0.5:
                            break
                    finally:
                        self._lingering.discard(chat)
                    continue
                if not await self._send_rows(chat, rows, refs):
                    break
                if time.monotonic() - claimed > self.settings.lease / 2:
                    self._dirty.add(chat)  # give other chats a turn; claim again later
                    break
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._storage_error(f"delivery to {chat}", exc)
            await asyncio.sleep(self.settings.storage_retry)
            self._dirty.add(chat)
        finally:
            self._open_gate(chat)
            lost = chat in self._lost
            limiter: RateLimiter | None = getattr(self.transport, "limiter", None)
            # release first, and only then stop being this chat's sender: a claim round meanwhile
            # finds the sender still here (and only pokes it). Were the sender gone first, the round
            # could claim the chat again for a new sender, whose claim this release would then
            # delete: another worker would claim the chat and both would send it at once.
            with contextlib.suppress(Exception):
                if limiter is not None:
                    # the chat's window, for whoever sends it next (not over the new holder's)
                    await limiter.release(chat, save=not lost)
                await self.book(self.store.outbox_release, chat, self.settings.worker)
            self._senders.pop(chat, None)
            self._pokes.pop(chat, None)
            self._held_until.pop(chat, None)
            self._lost.discard(chat)
            self._reads.pop(chat, None)
            self._prefetched.pop(chat, None)
            self._dirty.discard(chat)
            if not self._stopping:
                # this chat may have new rows, and other chats may have waited for a free claim
                self._claim_wake.set()

    def _refs(self, chat: str, keys: Sequence[str]) -> dict[str, str | None]:
        return {key: self.store.message_ref(chat, key) for key in keys}

    def _supersede(self, row_ids: Sequence[int]) -> None:
        # SqlRepository marks the older rows of a key superseded when the newest is done; a store
        # that can mark them at once is told now
        mark = getattr(self.store, "outbox_superseded", None)
        if mark is not None:
            mark(list(row_ids))

    def _coalesce(self, rows: Sequence[OutboxRow]) -> tuple[list[OutboxRow], list[int]]:
        """Of several rows with one key only the newest is sent (every table carries its news)."""
        if not self.settings.coalesce:
            return list(rows), []
        last: dict[str, int] = {}
        for row in rows:
            if row.out.key is not None:
                last[row.out.key] = row.id
        keep = [r for r in rows if r.out.key is None or last[r.out.key] == r.id]
        return keep, [r.id for r in rows if r.out.key is not None and last[r.out.key] != r.id]

    def _take_rows(self, chat: str) -> tuple[list[OutboxRow], dict[str, str | None]]:
        """The chat's rows to send now, coalesced, with the references of their keys: one call on
        the delivery's thread (each hop between the threads costs the first answer time)."""
        rows = self.store.outbox_pending(chat, self.clock(), self.settings.batch)
        if not rows:
            return [], {}
        queue, superseded = self._coalesce(rows)
        if superseded:
            self._supersede(superseded)
            self.stats.superseded += len(superseded)
        keys = sorted({r.out.key for r in queue if r.out.key is not None})
        return queue, (self._refs(chat, keys) if keys else {})

    async def _send_rows(self, chat: str, rows: Sequence[OutboxRow], refs: dict[str, str | None]) -> bool:
        """Deliver ``rows`` of one chat (coalesced; ``refs`` of their keys); False when the chat must
        stop (blocked, waiting, stopping)."""
        queue = list(rows)
        limiter: RateLimiter | None = getattr(self.transport, "limiter", None)
        while queue:
            if self._stopping:
                return False
            if not self._holds(chat):
                log.warning("%s: the claim ran out or was taken over; another worker sends it", chat)
                return False
            row = self._next(chat, queue, refs, limiter)
            queue.remove(row)
            key = row.out.key
            try:
                ref = await self._deliver(row, refs.get(key) if key else None)
            except Blocked:
                self.stats.blocked += 1
                if row.out.user_id is not None:
                    # the core holds this user's private rows and tells the group how to open the chat
                    await self.call(self.core.private_blocked, row.out.platform, row.out.user_id)
                    self.wake()
                else:
                    log.warning("the platform refuses chat %s; dropping a message", chat)
                    await self.book(self.store.outbox_done, row.id, None)
                return False
            except RetryLater as exc:
                self.stats.retry_later += 1
                wait = max(0.05, exc.seconds)
                await self.book(self._later, [row, *queue], self.clock() + wait)
                if wait > self.settings.lease / 3:
                    # too long to hold the claim: the rows wait in the outbox for a later claim
                    self._deferred[chat] = time.monotonic() + wait
                    return False
                log.info("%s: retrying after %.2f s", chat, wait)
                await asyncio.sleep(wait)
                queue.insert(0, row)
                continue
            except asyncio.CancelledError:
                raise
            except Exception:
                self.stats.failed += 1
                log.exception("delivery of outbox row %s to %s failed", row.id, chat)
                if row.attempts + 1 >= self.settings.max_attempts:
                    self.stats.given_up += 1
                    await self.book(self.store.outbox_done, row.id, None)
                    continue
                backoff = min(30.0, 0.5 * 2**row.attempts)
                await self.book(self._later, [row, *queue], self.clock() + backoff)
                self._deferred[chat] = time.monotonic() + backoff
                return False
            await self.book(self.store.outbox_done, row.id, ref, urgent=self._urgent(chat))
            self.stats.delivered += 1
            if key is not None:
                refs[key] = ref
        return True

    def _sure_for(self) -> float:
        """Seconds a claim surely holds after it was asked for or renewed: the lease less a margin
        for the clocks of the workers and for the time the answer took."""
        return self.settings.lease * 0.75

    def _holds(self, chat: str) -> bool:
        return chat not in self._lost and time.monotonic() < self._held_until.get(chat, float("inf"))

    async def _renew_loop(self) -> None:
        """The heartbeat of this worker's chat claims: while a chat is being sent (a long queue, a
        rate limit's wait) its claim is renewed, so it never runs out under a live sender and
        another worker never sends the same chat at the same time."""
        renew = getattr(self.store, "outbox_renew", None)
        if renew is None:
            return
        every = self.settings.lease / 4
        while not self._stopping:
            await asyncio.sleep(every)
            chats = list(self._senders)
            if not chats:
                continue
            asked = time.monotonic()
            try:
                held = set(
                    await self.book(renew, chats, self.settings.worker, self.clock(), self.settings.lease)
                )
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is away: the senders stop when their claims run out
                self._storage_error("claim renewal", exc)
                continue
            for chat in chats:
                if chat in held:
                    if chat in self._senders:
                        self._held_until[chat] = asked + self._sure_for()
                elif chat in self._senders:
                    self._lost.add(chat)
                    poke = self._pokes.get(chat)
                    if poke is not None:
                        poke.set()

    def _later(self, rows: Sequence[OutboxRow], not_before: float) -> None:
        for row in rows:
            self.store.outbox_later(row.id, not_before)

    def _next(
        self, chat: str, queue: list[OutboxRow], refs: dict[str, str | None], limiter: RateLimiter | None
    ) -> OutboxRow:
        """The next row to send: commit order, except that while the chat's budget is spent a new
        message (a person's answer) goes before an edit of an existing message."""
        first = queue[0]
        if limiter is None or limiter.off or first.out.key is None or refs.get(first.out.key) is None:
            return first
        if limiter.delay(chat, _is_group(chat)) <= 0:
            return first
        for row in queue:
            if row.out.key is None or refs.get(row.out.key) is None:
                return row
        return first

    async def _deliver(self, row: OutboxRow, ref: str | None, txn: str | None = None) -> str | None:
        limiter: RateLimiter | None = getattr(self.transport, "limiter", None)
        limited = limiter is not None and not getattr(self.transport, "limits_calls", False)
        if limiter is not None and limited:
            await limiter.acquire(row.chat, _is_group(row.chat))

        await self._slots.acquire(self._is_fresh(row.chat))
        try:
            self._in_flight += 1
            self.stats.max_in_flight_seen = max(self.stats.max_in_flight_seen, self._in_flight)
            try:
                txn = txn or f"ob{row.id}"
                if row.id > 0 and not self.settings.serial:
                    found, new_ref = await self._find_sent(row, ref, txn)
                    if found:
                        return new_ref

                result: str | None = await self.transport.deliver(row.out, ref, txn)
                return result
            finally:
                self._in_flight -= 1
                if limiter is not None and limited:
                    limiter.done(row.chat)
                self._open_gate(row.chat)  # sent or failed: the update's other chats go now
        finally:
            self._slots.release()

    async def _find_sent(self, row: OutboxRow, ref: str | None, txn: str) -> tuple[bool, str | None]:
        """Before a new message is sent: a row that an earlier attempt may have sent (its process
        died before the platform's answer was committed) is looked for on the platform first
        (``transport.find_sent``), and found is done without a second send. Otherwise the
        transport's note of where the message will land is stored (``transport.send_note``) before
        it is sent: the platform has no idempotency key, so this is how a send after a crash
        finds out whether the one before it arrived."""
        find = getattr(self.transport, "find_sent", None)
        if row.sending is not None and find is not None:
            found, new_ref = await find(row.out, ref, row.sending, txn)
            if found:
                self.stats.recovered += 1
                return True, new_ref
        note_of = getattr(self.transport, "send_note", None)
        mark = getattr(self.store, "outbox_sending", None)
        if note_of is not None and mark is not None:
            note = note_of(row.out, ref)
            if note is not None:
                await self.book(mark, row.id, note, urgent=self._urgent(row.chat))
        return False, None

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
                        new_ref = await self._deliver(row, ref)
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


class _PriorityThread:
    """One worker thread running submitted calls in order, urgent ones before the others."""

    def __init__(self, name: str) -> None:
        self._urgent: collections.deque[tuple[Callable[[], Any], Future[Any]]] = collections.deque()
        self._normal: collections.deque[tuple[Callable[[], Any], Future[Any]]] = collections.deque()
        self._ready = threading.Condition()
        self._closed = False
        # named as a one-thread ThreadPoolExecutor names its thread
        self._thread = threading.Thread(target=self._run, name=f"{name}_0", daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[[], T], urgent: bool = False) -> Future[T]:
        future: Future[T] = Future()
        with self._ready:
            if self._closed:
                raise RuntimeError("cannot schedule new work after shutdown")
            (self._urgent if urgent else self._normal).append((fn, future))
            self._ready.notify()
        return future

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._urgent and not self._normal and not self._closed:
                    self._ready.wait()
                if self._urgent:
                    fn, future = self._urgent.popleft()
                elif self._normal:
                    fn, future = self._normal.popleft()
                else:
                    return  # closed and nothing left
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn()
            except BaseException as exc:
                future.set_exception(exc)
            else:
                future.set_result(result)

    def shutdown(self, wait: bool = True) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify()
        if wait:
            self._thread.join()


class _StoreWindows:
    """The rate limiter's shared chat windows (:class:`~chatbot.runtime.limits.SharedWindows`) in the
    store's key/value table, one row per chat: the wall times of its recent calls."""

    NAMESPACE = "ratelimit"

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    async def load(self, chat_id: Any) -> list[list[float]]:
        value = await self.runtime.book(
            self.runtime.store.kv_get, self.NAMESPACE, str(chat_id), urgent=self._urgent(chat_id)
        )
        calls = []
        for item in value if isinstance(value, list) else []:
            if isinstance(item, list) and len(item) == 2:
                calls.append([float(item[0]), float(item[1])])
        return calls

    async def save(self, chat_id: Any, calls: list[list[float]]) -> None:
        await self.runtime.book(
            self.runtime.store.kv_set, self.NAMESPACE, str(chat_id), calls, urgent=self._urgent(chat_id)
        )

    def _urgent(self, chat_id: Any) -> bool:
        limiter: RateLimiter | None = getattr(self.runtime.transport, "limiter", None)
        return limiter is not None and limiter.is_fresh(chat_id)


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
