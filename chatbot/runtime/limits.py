"""Sliding-window rate limits for outgoing platform calls: queue, never drop.

Telegram allows about 30 messages a second per bot and 20 messages a minute in one group (edits
count too); a bot that goes over gets 429 answers and, when it keeps on, longer bans. Waiting here
first keeps the 429s rare; the runtime still retries the ones that come (``RetryLater``).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """``(count, seconds)`` windows; ``None`` switches a limit off."""

    overall: tuple[int, float] | None = (30, 1.0)
    per_group: tuple[int, float] | None = (20, 60.0)
    per_private: tuple[int, float] | None = None


#: no limit at all (a local Bot API server, tests)
OFF = Limits(overall=None, per_group=None, per_private=None)


def telegram_limits(setting: str | None = None, workers: int | None = None) -> Limits:
    """``TELEGRAM_RATE_LIMITS``: ``off`` for a test or local Bot API server, ``default`` (or unset)
    for Telegram's own limits. With ``TELEGRAM_WORKERS=N`` processes sharing one bot, each takes 1/N
    of the bot-wide 30 messages a second (a group's queue is sent by one worker at a time, so the
    group limit stays per process)."""
    value = (
        (setting if setting is not None else os.environ.get("TELEGRAM_RATE_LIMITS", "default"))
        .strip()
        .lower()
    )
    if value in {"off", "0", "no", "false", "none"}:
        return OFF
    if value not in {"", "default", "on", "1", "yes", "true"}:
        raise ValueError(f"TELEGRAM_RATE_LIMITS must be off or default, not {value!r}")
    n = workers if workers is not None else int(os.environ.get("TELEGRAM_WORKERS") or 1)
    if n <= 1:
        return Limits()
    return Limits(overall=(max(1, 30 // n), 1.0))


class RateLimiter:
    """Waits until a call fits every window that applies, then records it."""

    def __init__(self, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or Limits()
        self._clock = clock
        self._overall: deque[float] = deque()
        self._chats: dict[Hashable, deque[float]] = {}

    @property
    def off(self) -> bool:
        return self.limits == OFF

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

    def delay(self, chat_id: Hashable, group: bool) -> float:
        """Seconds until a call to ``chat_id`` would fit (0 when it fits now); records nothing."""
        now = self._clock()
        chat_window = self.limits.per_group if group else self.limits.per_private
        chat_log = self._chats.get(chat_id)
        return max(
            self._wait(self._overall, self.limits.overall, now),
            self._wait(chat_log, chat_window, now) if chat_log is not None else 0.0,
        )

    async def acquire(self, chat_id: Hashable, group: bool) -> float:
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
                if self.limits.overall is not None:
                    self._overall.append(now)
                if chat_window is not None:
                    chat_log.append(now)
                elif not chat_log:
                    del self._chats[chat_id]  # nothing to remember for an unlimited chat
                return waited
            waited += wait
            await asyncio.sleep(wait)
