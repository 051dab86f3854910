"""Delivery: the outbox's chat queues, claimed and sent in order (issue #12).

A chat queue with something to send is claimed (a lease in the database, renewed while it is being
sent), its rows are read a batch at a time, coalesced (of several rows of one key only the newest
goes) and handed to :meth:`Transport.deliver` one by one; a row is done only after the platform
accepted it. A sender that emptied its chat lingers a moment for the next answer before it lets
the claim go. Fresh answers (the chats of a person's update) go before any backlog: they are claimed
first, take free request slots first and use the whole bot-wide rate window.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from chatbot.core.ports import Blocked, Booking, ChatQueue, OutboxRow, RetryLater
from chatbot.core.types import Outbound
from chatbot.runtime.settings import FRESH_FOR, GATE_FOR

if TYPE_CHECKING:
    from chatbot.runtime.driver import Runtime

log = logging.getLogger("chatbot.runtime.driver")


@dataclass(slots=True)
class Batch:
    """A chat's rows read to be sent (coalesced), the references of their keys, and whether the
    read was full (more rows may wait behind them)."""

    rows: list[OutboxRow]
    refs: dict[str, str | None] = field(default_factory=dict)
    full: bool = False


#: (the sender's read count it was read at, the batch)
Ahead = tuple[int, Batch]


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


class Deliverer:
    """The claims, senders and bookkeeping of one runtime's platform (see the module docstring)."""

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        settings = rt.settings
        self.senders: dict[ChatQueue, asyncio.Task[None]] = {}
        self._dirty: set[ChatQueue] = set()
        #: per claimed chat: set when new rows may be there (a lingering sender wakes up)
        self._pokes: dict[ChatQueue, asyncio.Event] = {}
        self.lingering: set[ChatQueue] = set()
        #: per claimed chat: until when (monotonic) this worker surely still holds the claim; the
        #: heartbeat renews it while the chat is being sent, a sender stops when it runs out
        self._held_until: dict[ChatQueue, float] = {}
        #: claimed chats whose claim another worker has taken (the renewal did not find it ours)
        self._lost: set[ChatQueue] = set()
        #: per claimed chat: how often its sender has read its rows (a read ahead is valid only for
        #: the read count it was made at), and the rows read ahead on the core's thread
        self.reads: dict[ChatQueue, int] = {}
        self.prefetched: dict[ChatQueue, Ahead] = {}
        #: chats whose rows wait for a RetryLater time (monotonic), for idle()
        self.deferred: dict[ChatQueue, float] = {}
        self.claim_wake = asyncio.Event()
        self._slots = _Slots(settings.max_in_flight, max(1, settings.max_in_flight // 4))
        #: chats that answered a person just now, until when (monotonic): sent before the backlog
        self._fresh: dict[ChatQueue, float] = {}
        self._in_flight = 0
        #: while a person's first answer is on its way: its chat, and the wakes of the update's other
        #: chats held back until it was sent (see :meth:`wake_for`)
        self._gate: tuple[ChatQueue, set[ChatQueue], bool, asyncio.TimerHandle] | None = None
        #: per chat being sent: its bookkeeping not written yet (see :meth:`_flush`)
        self._bookings: dict[ChatQueue, Booking] = {}
        #: rows whose send note this process wrote with the read that found them
        self._noted: set[int] = set()
        #: the last claim round found as many chats as it had room for: there may be more (a
        #: backlog), and a sender that empties a chat of it lets the claim go at once
        self._more = False

    # ------------------------------------------------------------------------------------------
    # waking

    def wake_for(self, outs: Sequence[Outbound], gate: bool = False) -> None:
        """New rows in these chats: poke their senders, or claim the chats nobody here sends.

        With ``gate`` (a person's update that no transport answered by itself): when the first
        answer's rows were read ahead for its idle sender, that sender alone starts now, and the
        update's other chats (the next player's prompt, ...) are woken once the first answer is
        sent, at the latest after ``GATE_FOR`` seconds. Their senders' reads on the delivery thread
        would otherwise hold the interpreter while the first answer's request is written (issue
        #12: a typed move's first answer waited 3-6 ms on the loopback for this)."""
        self.open_gate()
        claim = False
        limiter = self.rt.transport.limiter
        fresh_until = time.monotonic() + FRESH_FOR
        chats = [ChatQueue.of(o) for o in outs if o.platform == self.rt.platform]
        first = chats[0] if gate and chats and chats[0] in self.prefetched else None
        held: set[ChatQueue] = set()
        for chat in dict.fromkeys(chats):
            self._fresh[chat] = fresh_until
            if limiter is not None and not limiter.off:
                limiter.mark_fresh(chat, FRESH_FOR)
                limiter.mark_fresh(chat.whole_chat(), FRESH_FOR)  # a forum topic's group
            if first is not None and chat != first:
                held.add(chat)
                continue
            claim = self._poke(chat) or claim
        if first is not None and held:
            timer = asyncio.get_running_loop().call_later(GATE_FOR, self.open_gate)
            self._gate = (first, held, claim or not outs, timer)
        elif claim or not outs:
            self.claim_wake.set()

    def _poke(self, chat: ChatQueue) -> bool:
        """Wake this worker's sender of ``chat``; True when it has none (the chat must be claimed)."""
        poke = self._pokes.get(chat)
        if chat in self.senders and poke is not None:
            self.lingering.discard(chat)  # busy again from now on (idle() must see it)
            poke.set()
            return False
        return True

    def open_gate(self, chat: ChatQueue | None = None) -> None:
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
            self.claim_wake.set()

    def stop(self) -> list[asyncio.Task[None]]:
        """Stop taking work: lingering senders end now; the senders still sending."""
        self.open_gate()
        for poke in self._pokes.values():
            poke.set()
        return list(self.senders.values())

    def busy(self) -> bool:
        """Whether something is being sent (or waits for a retry time) by this worker."""
        now = time.monotonic()
        self.deferred = {c: t for c, t in self.deferred.items() if t > now - 1.0}
        busy = [c for c in self.senders if c not in self.lingering]
        return bool(busy or self.claim_wake.is_set() or self.deferred)

    def all_lingering(self) -> bool:
        return all(c in self.lingering for c in self.senders)

    # ------------------------------------------------------------------------------------------
    # claims

    async def claim_loop(self) -> None:
        rt = self.rt
        while not rt.stopping:
            self.claim_wake.clear()
            try:
                await self._claim_round()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                rt.storage_error("claims", exc)
                await asyncio.sleep(rt.settings.storage_retry)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.claim_wake.wait(), rt.settings.poll_every)

    def is_fresh(self, chat: ChatQueue) -> bool:
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
        rt, settings = self.rt, self.rt.settings
        busy = sum(1 for c in self.senders if c not in self.lingering)
        wanted = sum(1 for c in list(self._fresh) if c not in self.senders and self.is_fresh(c))
        most = min(settings.max_chats, settings.backlog_chats)
        room = max(most - busy, min(wanted, settings.max_chats))
        if room <= 0:
            return
        asked = time.monotonic()
        chats = await rt.book(
            rt.store.outbox_claim,
            rt.platform,
            settings.worker,
            rt.clock(),
            settings.lease,
            room,
            # the chats sent here already are not claimed again, only poked when they have rows
            list(self.senders),
            urgent=wanted > 0,
        )
        self._more = sum(1 for chat in chats if chat not in self.senders) >= room
        for chat in chats:
            if chat in self.senders:
                # not claimed again (its claim is renewed by the heartbeat): its sender looks again
                self._dirty.add(chat)
                self._poke(chat)
            else:
                self.start_sender(chat, asked)

    def start_sender(self, chat: ChatQueue, asked: float) -> None:
        """This worker holds ``chat``'s claim since ``asked``: its sender runs (or is poked)."""
        self._held_until[chat] = asked + self._sure_for()
        self._lost.discard(chat)
        if chat in self.senders:
            self._dirty.add(chat)
            self.lingering.discard(chat)
            self._pokes[chat].set()
        else:
            self._pokes[chat] = asyncio.Event()
            self.reads.setdefault(chat, 0)
            self.senders[chat] = asyncio.create_task(self._sender(chat), name=f"send {chat}")

    def _sure_for(self) -> float:
        """Seconds a claim surely holds after it was asked for or renewed: the lease less a margin
        for the clocks of the workers and for the time the answer took."""
        return self.rt.settings.lease * 0.75

    def _holds(self, chat: ChatQueue) -> bool:
        return chat not in self._lost and time.monotonic() < self._held_until.get(chat, float("inf"))

    async def renew_loop(self) -> None:
        """The heartbeat of this worker's chat claims: while a chat is being sent (a long queue, a
        rate limit's wait) its claim is renewed, so it never runs out under a live sender and
        another worker never sends the same chat at the same time."""
        rt = self.rt
        every = rt.settings.lease / 4
        while not rt.stopping:
            await asyncio.sleep(every)
            chats = list(self.senders)
            if not chats:
                continue
            asked = time.monotonic()
            try:
                held = set(
                    await rt.book(
                        rt.store.outbox_renew, chats, rt.settings.worker, rt.clock(), rt.settings.lease
                    )
                )
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is away: the senders stop when their claims run out
                rt.storage_error("claim renewal", exc)
                continue
            for chat in chats:
                if chat in held:
                    if chat in self.senders:
                        self._held_until[chat] = asked + self._sure_for()
                elif chat in self.senders:
                    self._lost.add(chat)
                    poke = self._pokes.get(chat)
                    if poke is not None:
                        poke.set()

    # ------------------------------------------------------------------------------------------
    # one chat's sender

    async def _sender(self, chat: ChatQueue) -> None:
        """Send one claimed chat queue in order until it is empty (or the lease is half used).

        The bookkeeping of what was sent is written with the chat's next statement: the next read,
        or, when nothing is known to wait (no poke, the read was not full), on its own before the
        sender lingers; at the latest with the release of the claim."""
        rt, settings = self.rt, self.rt.settings
        claimed = time.monotonic()
        self.deferred.pop(chat, None)
        poke = self._pokes[chat]
        read = True
        try:
            while not rt.stopping and self._holds(chat):
                self._dirty.discard(chat)
                if read:
                    poke.clear()  # before reading: a poke while reading makes the wait below return
                    ahead = self.prefetched.pop(chat, None)
                    if ahead is not None and ahead[0] == self.reads.get(chat) and chat not in self._bookings:
                        batch = ahead[1]
                    else:
                        self.reads[chat] = self.reads.get(chat, 0) + 1
                        batch = await rt.book(self.take_rows, chat, True, urgent=self.is_fresh(chat))
                elif self._backlog(chat):
                    break  # the release writes what was sent
                else:
                    await self._flush(chat)  # the database says done before this sender lingers
                    batch = Batch([])
                if not batch.rows:
                    read = True
                    left = settings.lease / 2 - (time.monotonic() - claimed)
                    wait = min(settings.linger, left)
                    if wait <= 0 or rt.stopping or self._backlog(chat):
                        break
                    self.lingering.add(chat)
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
                        self.lingering.discard(chat)
                    continue
                if not await self._send_rows(chat, batch.rows, batch.refs):
                    break
                if time.monotonic() - claimed > settings.lease / 2:
                    self._dirty.add(chat)  # give other chats a turn; claim again later
                    break
                read = poke.is_set() or chat in self._dirty or batch.full
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            rt.storage_error(f"delivery to {chat}", exc)
            await asyncio.sleep(settings.storage_retry)
            self._dirty.add(chat)
        finally:
            self.open_gate(chat)
            lost = chat in self._lost
            limiter = rt.transport.limiter
            # release first, and only then stop being this chat's sender: a claim round meanwhile
            # finds the sender still here (and only pokes it). Were the sender gone first, the round
            # could claim the chat again for a new sender, whose claim this release would then
            # delete: another worker would claim the chat and both would send it at once.
            with contextlib.suppress(Exception):
                if limiter is not None:
                    # the chat's window, for whoever sends it next (not over the new holder's)
                    await limiter.release(chat, save=not lost)
                booking = self._bookings.pop(chat, None)
                await rt.book(rt.store.outbox_release, chat, settings.worker, booking)
            self._bookings.pop(chat, None)
            self.senders.pop(chat, None)
            self._pokes.pop(chat, None)
            self._held_until.pop(chat, None)
            self._lost.discard(chat)
            self.reads.pop(chat, None)
            self.prefetched.pop(chat, None)
            self._dirty.discard(chat)
            if not rt.stopping:
                # this chat may have new rows, and other chats may have waited for a free claim
                self.claim_wake.set()

    def _backlog(self, chat: ChatQueue) -> bool:
        """Whether ``chat``, emptied, lets its claim go at once rather than linger for the next
        answer: while a backlog waits for claims (the last claim round was full), a chat that answers
        nobody just now makes room for the next one (issue #26: lingering, a backlog of 2,000 rows
        drained at 8-15 rows a second of the 24 its rate window allows, a claim round every poll)."""
        return self._more and not self.is_fresh(chat)

    def _coalesce(self, rows: Sequence[OutboxRow]) -> tuple[list[OutboxRow], list[int]]:
        """Of several rows with one key only the newest is sent (every table carries its news)."""
        if not self.rt.settings.coalesce:
            return list(rows), []
        last: dict[str, int] = {}
        for row in rows:
            if row.out.key is not None:
                last[row.out.key] = row.id
        keep = [r for r in rows if r.out.key is None or last[r.out.key] == r.id]
        return keep, [r.id for r in rows if r.out.key is not None and last[r.out.key] != r.id]

    def take_rows(self, chat: ChatQueue, sender: bool = False) -> Batch:
        """The chat's rows to send now, coalesced, with the references of their keys: one call on
        the delivery's thread (each hop between the threads costs the first answer time). Read by
        the chat's ``sender`` itself, the chat's bookkeeping not written yet goes with the read, and
        so does the send note of the first row when it is a new message (nothing is sent in the
        chat between the read and that row, so the note is as exact as one written right before
        the send). Read ahead for it (its sender lingers, with nothing booked), neither."""
        rt = self.rt
        booking = self._bookings.pop(chat, None) if sender else None
        first: list[int] = []

        def note(rows: list[OutboxRow]) -> tuple[int, Any] | None:
            queue, _ = self._coalesce(rows)
            row = queue[0]
            if row.sending is not None or row.id in self._noted:
                return None  # an earlier attempt's note: looked for before it is sent again
            key = row.out.key
            made = rt.transport.send_note(row.out, rt.store.message_ref(chat, key) if key else None)
            if made is None:
                return None
            first.append(row.id)
            return row.id, made

        rows = rt.store.outbox_pending(
            chat, rt.clock(), rt.settings.batch, booking, note if sender and not rt.settings.serial else None
        )
        self._noted.update(first)
        if not rows:
            return Batch([])
        queue, superseded = self._coalesce(rows)
        if superseded:
            # the SQL store marks the older rows of a key superseded when the newest is done; a
            # store that can mark them at once is told now
            rt.store.outbox_superseded(superseded)
            rt.stats.superseded += len(superseded)
        keys = sorted({r.out.key for r in queue if r.out.key is not None})
        refs = {key: rt.store.message_ref(chat, key) for key in keys}
        return Batch(queue, refs, len(rows) >= rt.settings.batch)

    def _booking(self, chat: ChatQueue) -> Booking:
        booking = self._bookings.get(chat)
        if booking is None:
            booking = self._bookings[chat] = Booking()
        return booking

    def _done(self, row: OutboxRow, ref: str | None) -> None:
        """``row`` was delivered (or is given up): done with the chat's next bookkeeping."""
        self._booking(row.chat).done.append((row, ref))
        self._noted.discard(row.id)

    async def _flush(self, chat: ChatQueue) -> None:
        """Write the chat's bookkeeping now (one statement, one commit)."""
        booking = self._bookings.pop(chat, None)
        if booking:
            await self.rt.book(self.rt.store.outbox_book, booking, urgent=self.is_fresh(chat))

    def keep(self, chat: Hashable, namespace: str, key: str, value: Any) -> bool:
        """Write a key/value pair with ``chat``'s next bookkeeping, if this worker sends it now."""
        if not isinstance(chat, ChatQueue) or chat not in self.senders:
            return False
        self._booking(chat).kv[(namespace, key)] = value
        return True

    async def _send_rows(
        self, chat: ChatQueue, rows: Sequence[OutboxRow], refs: dict[str, str | None]
    ) -> bool:
        """Deliver ``rows`` of one chat (coalesced; ``refs`` of their keys); False when the chat must
        stop (blocked, waiting, stopping). What was sent is booked for the chat's next write,
        which is written before any wait (a rate limit's, a retry's) and before a new message whose
        note must be kept before it is sent."""
        rt, settings = self.rt, self.rt.settings
        queue = list(rows)
        limiter = rt.transport.limiter
        while queue:
            if rt.stopping:
                return False
            if not self._holds(chat):
                log.warning("%s: the claim ran out or was taken over; another worker sends it", chat)
                return False
            row = self._next(chat, queue, refs)
            queue.remove(row)
            key = row.out.key
            if limiter is not None and not limiter.off and limiter.delay(chat, chat.is_group) > 0:
                await self._flush(chat)  # what was sent is done before this sender waits
            try:
                ref = await self.deliver(row, refs.get(key) if key else None)
            except Blocked:
                rt.stats.blocked += 1
                if row.out.user_id is not None:
                    await self._flush(chat)
                    # the core holds this user's private rows and tells the group how to open the chat
                    await rt.call(rt.core.private_blocked, row.out.platform, row.out.user_id)
                    rt.wake()
                else:
                    log.warning("the platform refuses chat %s; dropping a message", chat)
                    self._done(row, None)
                    await self._flush(chat)
                return False
            except RetryLater as exc:
                rt.stats.retry_later += 1
                wait = max(0.05, exc.seconds)
                await self._flush(chat)
                await rt.book(self._later, [row, *queue], rt.clock() + wait)
                if wait > settings.lease / 3:
                    # too long to hold the claim: the rows wait in the outbox for a later claim
                    self.deferred[chat] = time.monotonic() + wait
                    return False
                log.info("%s: retrying after %.2f s", chat, wait)
                await asyncio.sleep(wait)
                queue.insert(0, row)
                continue
            except asyncio.CancelledError:
                raise
            except Exception:
                rt.stats.failed += 1
                log.exception("delivery of outbox row %s to %s failed", row.id, chat)
                if row.attempts + 1 >= settings.max_attempts:
                    rt.stats.given_up += 1
                    self._done(row, None)
                    continue
                backoff = min(30.0, 0.5 * 2**row.attempts)
                await self._flush(chat)
                await rt.book(self._later, [row, *queue], rt.clock() + backoff)
                self.deferred[chat] = time.monotonic() + backoff
                return False
            self._done(row, ref)
            rt.stats.delivered += 1
            if key is not None:
                refs[key] = ref
        return True

    def _later(self, rows: Sequence[OutboxRow], not_before: float) -> None:
        for row in rows:
            self.rt.store.outbox_later(row.id, not_before)

    def _next(self, chat: ChatQueue, queue: list[OutboxRow], refs: dict[str, str | None]) -> OutboxRow:
        """The next row to send: commit order, except that while the chat's budget is spent a new
        message (a person's answer) goes before an edit of an existing message."""
        first = queue[0]
        limiter = self.rt.transport.limiter
        if limiter is None or limiter.off or first.out.key is None or refs.get(first.out.key) is None:
            return first
        if limiter.delay(chat, chat.is_group) <= 0:
            return first
        for row in queue:
            if row.out.key is None or refs.get(row.out.key) is None:
                return row
        return first

    async def deliver(self, row: OutboxRow, ref: str | None, txn: str | None = None) -> str | None:
        """One row through the transport, within the rate limits and the request slots."""
        rt = self.rt
        transport = rt.transport
        limiter = transport.limiter if not transport.limits_calls else None
        if limiter is not None:
            await limiter.acquire(row.chat, row.chat.is_group)

        await self._slots.acquire(self.is_fresh(row.chat))
        try:
            self._in_flight += 1
            rt.stats.max_in_flight_seen = max(rt.stats.max_in_flight_seen, self._in_flight)
            try:
                txn = txn or f"ob{row.id}"
                if row.id > 0 and not rt.settings.serial:
                    found, new_ref = await self._find_sent(row, ref, txn)
                    if found:
                        return new_ref

                return await transport.deliver(row.out, ref, txn)
            finally:
                self._in_flight -= 1
                if limiter is not None:
                    limiter.done(row.chat)
                self.open_gate(row.chat)  # sent or failed: the update's other chats go now
        finally:
            self._slots.release()

    async def _find_sent(self, row: OutboxRow, ref: str | None, txn: str) -> tuple[bool, str | None]:
        """Before a new message is sent: a row that an earlier attempt may have sent (its process
        died before the platform's answer was committed) is looked for on the platform first
        (``transport.find_sent``), and found is done without a second send. Otherwise the
        transport's note of where the message will land is stored (``transport.send_note``) before
        it is sent: the platform has no idempotency key, so this is how a send after a crash
        finds out whether the one before it arrived."""
        rt = self.rt
        if row.sending is not None:
            found, new_ref = await rt.transport.find_sent(row.out, ref, row.sending, txn)
            if found:
                rt.stats.recovered += 1
                return True, new_ref
        if row.id in self._noted:
            return False, None  # its note was written with the read that found it
        note = rt.transport.send_note(row.out, ref)
        if note is not None:
            # kept before the send, with what the chat sent before it (one write)
            booking = self._bookings.pop(row.chat, None) or Booking()
            booking.sending = (row.id, note)
            await rt.book(rt.store.outbox_book, booking, urgent=self.is_fresh(row.chat))
        return False, None


class StoreWindows:
    """The rate limiter's shared chat windows (:class:`~chatbot.runtime.limits.SharedWindows`) in the
    store's key/value table, one row per chat: the wall times of its recent calls."""

    NAMESPACE = "ratelimit"

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    async def load(self, chat_id: Hashable) -> list[list[float]]:
        rt = self.runtime
        value = await rt.book(rt.store.kv_get, self.NAMESPACE, str(chat_id), urgent=self._urgent(chat_id))
        calls = []
        for item in value if isinstance(value, list) else []:
            if isinstance(item, list) and len(item) == 2:
                calls.append([float(item[0]), float(item[1])])
        return calls

    async def save(self, chat_id: Hashable, calls: list[list[float]], before_call: bool = False) -> None:
        """Written now before a call (a group's, at most its window's count a period: a worker
        killed right after the call leaves it counted for whoever sends the group next, also a
        process restarted under the same name that takes the claim over at once); otherwise (the
        window at the claim's release) kept with the chat's bookkeeping while this worker sends
        it. Kept with the bookkeeping before each call too, a killed worker's calls since its last
        write were lost, and its successor's group got 26 calls in a window of 20."""
        rt = self.runtime
        if not before_call and rt.outbox.keep(chat_id, self.NAMESPACE, str(chat_id), calls):
            return
        await rt.book(rt.store.kv_set, self.NAMESPACE, str(chat_id), calls, urgent=self._urgent(chat_id))

    def _urgent(self, chat_id: Hashable) -> bool:
        limiter = self.runtime.transport.limiter
        return limiter is not None and limiter.is_fresh(chat_id)
