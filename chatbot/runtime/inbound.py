"""Inbound: a person's update through the core, and the way to its first answer (issue #12).

``core.handle`` runs on the core's thread and commits the change with its outbox rows. Right after
it, still on that thread, the update's chats are claimed (a new chat's first answer needs no claim
round) and the first answer's rows are read for its sender (inside the update's own transaction
when the store can: no transaction of their own); the senders are then poked on the event loop.
Every step of this "fast first answer" is a shortcut of what the claim round and the senders would
do anyway a moment later.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from chatbot.core.ports import Answer, ChatQueue, OutboxRow, StorageUnavailable
from chatbot.core.types import Inbound, Outbound

if TYPE_CHECKING:
    from chatbot.runtime.driver import Runtime

log = logging.getLogger("chatbot.runtime.driver")

#: a transport's pick of the answer it shows by itself (a callback's toast)
Take = Callable[[list[Outbound]], Outbound | None]


class Updates:
    """:meth:`Runtime.handle` and :meth:`Runtime.perform` (see the module docstring)."""

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    async def handle(
        self,
        msg: Inbound,
        take: Take | None = None,
        first: Callable[[list[Outbound]], Awaitable[None]] | None = None,
    ) -> Answer:
        rt = self.rt
        outs, taken, claimed = await rt.call(self._handle_and_take, msg, take, urgent=True)
        for chat, asked in claimed:
            rt.outbox.start_sender(chat, asked)
        rt.storage_ok = outs.committed
        if outs.duplicate:
            rt.stats.duplicates += 1
            log.info("duplicate update %s ignored", msg.update_key)
            return Answer(duplicate=True, due=None)
        rt.stats.updates += 1
        answering = None
        if first is not None:
            answering = asyncio.ensure_future(first(list(outs)))
            await asyncio.sleep(0)  # its request is written before the deliverer's work starts
        if not outs.committed:
            # (the answer the transport shows by itself, a toast, is not sent as a message too)
            await self._send_uncommitted([o for o in outs if o is not taken])
        elif rt.settings.serial:
            await rt.drain()
        else:
            self.wake_for(outs, gate=first is None)
            # the poked senders run now, before the transport goes on (a poll loop would write its
            # next getUpdates first): the first answer's request is written in this step
            await asyncio.sleep(0)
        if answering is not None:
            await answering
        return outs

    async def perform(self, fn: Callable[..., Answer], *args: object) -> Answer:
        rt = self.rt
        outs: Answer = await rt.call(fn, *args, urgent=True)
        if rt.settings.serial:
            await rt.drain()
        else:
            self.wake_for(outs)
        return outs

    def wake_for(self, outs: Answer, gate: bool = False) -> None:
        """New rows in these chats (see :meth:`Deliverer.wake_for`); the deadline loop is woken when
        the change stored a deadline due before the loop looks again."""
        self.rt.deadlines.wake_if_sooner(outs.due)
        self.rt.outbox.wake_for(outs, gate)

    async def _send_uncommitted(self, outs: Sequence[Outbound]) -> None:
        """The core's apology while the database is away is in no outbox: send it directly, once."""
        for i, out in enumerate(outs):
            try:
                row = OutboxRow(0, ChatQueue.of(out), out)
                await self.rt.outbox.deliver(row, None, txn=f"direct-{id(outs)}-{i}")
            except Exception as exc:  # best effort: there is nothing to retry it from
                log.warning("could not send an answer made during a database outage: %s", exc)

    # ------------------------------------------------------------------------------------------
    # on the core's thread

    def _handle_and_take(
        self, msg: Inbound, take: Take | None
    ) -> tuple[Answer, Outbound | None, list[tuple[ChatQueue, float]]]:
        rt = self.rt
        ahead: list[ChatQueue] = []
        if take is None and not rt.settings.serial and rt.running:
            # the first answer's rows are read inside the update's own transaction, right before
            # its commit: one transaction (on PostgreSQL a BEGIN and a COMMIT round trip) less
            # before the first answer goes out
            with rt.store.committing(functools.partial(self._read_ahead_in_unit, ahead), self._ahead_wanted):
                outs = rt.core.handle(msg)
        else:
            outs = rt.core.handle(msg)
        chosen = None
        if take is not None and outs:
            chosen = take(list(outs))
            if chosen is not None and outs.committed:
                self._consume(chosen)
        claimed: list[tuple[ChatQueue, float]] = []
        if outs and outs.committed and not outs.duplicate:
            claimed = self._claim_now(outs)
            if not ahead or ahead[0] != ChatQueue.of(outs[0]):
                self._read_ahead(outs[0], {chat for chat, _ in claimed})
        return outs, chosen, claimed

    def _idle_reads(self, out: Outbound) -> tuple[ChatQueue, int] | None:
        """``out``'s chat and its sender's read count, when this worker's sender of it waits idle."""
        if out.platform != self.rt.platform:
            return None
        chat = ChatQueue.of(out)
        reads = self.rt.outbox.reads.get(chat)
        if reads is None or chat not in self.rt.outbox.lingering:
            return None
        return chat, reads

    def _ahead_wanted(self, outs: Sequence[Outbound]) -> tuple[ChatQueue, int] | None:
        """The chat queue :meth:`_read_ahead_in_unit` will read for ``outs`` (and how many rows), so
        that the store may read it with the statement that queues them (PostgreSQL)."""
        idle = self._idle_reads(outs[0])
        return (idle[0], self.rt.settings.batch) if idle is not None else None

    def _read_ahead_in_unit(self, done: list[ChatQueue], queued: list[Outbound]) -> Callable[[], None] | None:
        """The store's ``committing`` hook (see :meth:`_handle_and_take`): inside the transaction of
        an update that queued ``queued``, the first one's chat queue is read when this worker's
        sender of it waits idle; the rows count as read ahead once the commit has succeeded."""
        idle = self._idle_reads(queued[0])
        if idle is None:
            return None
        chat, reads = idle
        batch = self.rt.outbox.take_rows(chat)
        if not batch.rows:
            return None

        def commit() -> None:
            self.rt.outbox.prefetched[chat] = (reads, batch)
            done.append(chat)

        return commit

    def _claim_now(self, outs: Answer) -> list[tuple[ChatQueue, float]]:
        """The update's chats that no sender of this worker holds, claimed now on the core's thread
        right after the commit (with the time asked): a new chat's first answer then needs no claim
        round, which after a restart searches a thousand chats' rows and waits its turn on the
        delivery's thread (issue #12)."""
        rt = self.rt
        if rt.settings.serial or not rt.running or rt.stopping:
            return []
        senders = rt.outbox.senders
        chats = [
            c
            for c in dict.fromkeys(ChatQueue.of(o) for o in outs if o.platform == rt.platform)
            if c not in senders
        ][: rt.settings.max_chats]
        if not chats:
            return []
        asked = time.monotonic()
        try:
            got = rt.store.outbox_claim_chats(chats, rt.settings.worker, rt.clock(), rt.settings.lease)
        except StorageUnavailable:
            return []  # the claim round tries again
        return [(chat, asked) for chat in got]

    def _read_ahead(self, out: Outbound, claimed: set[ChatQueue]) -> None:
        """The first answer's chat, when this worker's sender of it waits idle (or was claimed just
        now): read its rows now, on the core's thread right after the commit, so that the sender
        starts sending at once instead of reading them through one more hop between threads (the
        first answer's time). The sender uses them only if it has not read by itself meanwhile."""
        if out.platform != self.rt.platform:
            return
        chat = ChatQueue.of(out)
        reads: int | None
        if chat in claimed:
            reads = 0
        else:
            idle = self._idle_reads(out)
            reads = idle[1] if idle is not None else None
        if reads is None:
            return
        try:
            batch = self.rt.outbox.take_rows(chat)
        except StorageUnavailable:
            return
        if batch.rows:
            self.rt.outbox.prefetched[chat] = (reads, batch)

    def _consume(self, out: Outbound) -> None:
        """Mark the newest pending row equal to ``out`` done (the transport showed it itself)."""
        rt = self.rt
        try:
            rows = rt.store.outbox_pending(ChatQueue.of(out), rt.clock(), 100)
        except StorageUnavailable:
            return
        for row in reversed(rows):
            if row.out == out:
                rt.store.outbox_done(row.id, None)
                rt.stats.toasts += 1
                return
