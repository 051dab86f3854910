"""The deadline loop: sleeps until ``core.next_due()`` (or a wake) and lets ``core.run_due`` perform
what is due (AI turns, reminders, idle moves, reaction windows), then wakes the deliverer."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from chatbot.core.types import Outbound

if TYPE_CHECKING:
    from chatbot.runtime.driver import Runtime


class DeadlineLoop:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self.wake = asyncio.Event()
        #: when the loop looks next (clock seconds); inf while it is looking
        self._due_at = float("inf")

    def wake_if_sooner(self, due: float | None) -> None:
        """A change stored a deadline due at ``due`` (None: none): wake the loop if it would look
        only later."""
        if due is not None and due < self._due_at:
            self.wake.set()

    async def run_due(self) -> Sequence[Outbound]:
        """Perform what is due now (one ``core.run_due`` call) and deliver it."""
        rt = self.rt
        outs = await rt.call(rt.core.run_due, rt.settings.worker, rt.settings.due_limit)
        if outs:
            rt.stats.deadline_steps += 1
            if rt.settings.serial:
                await rt.drain()
            else:
                rt.wake()
        return outs

    async def run_due_all(self, limit: int = 100_000) -> list[Outbound]:
        """Perform deadlines until nothing is due (AI seats move until a person must act)."""
        done: list[Outbound] = []
        for _ in range(limit):
            outs = await self.run_due()
            if not outs:
                break
            done.extend(outs)
        return done

    async def loop(self) -> None:
        rt = self.rt
        while not rt.stopping:
            # cleared before looking: a deadline stored while this pass looks wakes the next one
            self.wake.clear()
            self._due_at = float("inf")
            try:
                outs = await self.run_due()
                if outs:
                    continue
                due = await rt.call(rt.core.next_due)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is away or a deadline failed: keep running
                rt.storage_error("deadlines", exc)
                await asyncio.sleep(rt.settings.storage_retry)
                continue
            poll = rt.settings.deadline_poll
            wait = poll if due is None else min(poll, max(0.0, due - rt.clock()))
            if wait <= 0:
                continue
            self._due_at = rt.clock() + wait
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), wait)
