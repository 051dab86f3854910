"""Sliding-window rate limits for outgoing Telegram calls: queue, never drop.

Telegram allows about 30 messages a second overall and 20 messages a minute in one group (edits
count too); a bot that goes over gets 429 answers and, when it keeps on, longer bans. Waiting here
first keeps the 429s rare; :mod:`delivery` still retries the ones that come.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """``(count, seconds)`` windows; ``None`` switches a limit off."""

    overall: tuple[int, float] | None = (30, 1.0)
    per_group: tuple[int, float] | None = (20, 60.0)
    per_private: tuple[int, float] | None = None


class RateLimiter:
    """Waits until a call fits every window that applies, then records it."""

    def __init__(self, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or Limits()
        self._clock = clock
        self._overall: deque[float] = deque()
        self._chats: dict[int, deque[float]] = {}

    @staticmethod
    def _wait(log: deque[float], window: tuple[int, float] | None, now: float) -> float:
        if window is None:
            return 0.0
        count, period = window
        while log and log[0] <= now - period:
            log.popleft()
        if len(log) < count:
            return 0.0
        return log[0] + period - now

    async def acquire(self, chat_id: int, group: bool) -> float:
        """Wait for a slot for one call to ``chat_id``; returns the seconds waited."""
        waited = 0.0
        chat_window = self.limits.per_group if group else self.limits.per_private
        while True:
            now = self._clock()
            chat_log = self._chats.setdefault(chat_id, deque())
            wait = max(
                self._wait(self._overall, self.limits.overall, now), self._wait(chat_log, chat_window, now)
            )
            if wait <= 0:
                self._overall.append(now)
                if chat_window is not None:
                    chat_log.append(now)
                return waited
            waited += wait
            await asyncio.sleep(wait)
