"""Sliding-window rate limits for outgoing platform calls: queue, never drop.

Telegram allows about 30 messages a second per bot and 20 messages a minute in one group (edits
count too); a bot that goes over gets 429 answers and, when it keeps on, longer bans. Waiting here
first keeps the 429s rare; the runtime still retries the ones that come (``RetryLater``).

A call counts from the moment it is let through until its answer came back (:meth:`RateLimiter.done`
moves its time to then), so a slow request cannot make the platform see more calls in a window than
the limiter let through.

Several workers: the bot-wide limit is split (``TELEGRAM_WORKERS``); a chat's window is shared
through the database (:class:`SharedWindows`, set by the runtime). A chat is sent by one worker at a
time (the chat claim), and that worker writes the chat's window to the database before every call
and when it lets the claim go; the next worker to claim the chat (after a hand-over, a restart, a
kill -9) reads it first. So the group limit holds across all workers, at the cost of one small write
per group call.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Limits:
    """``(count, seconds)`` windows; ``None`` switches a limit off."""

    overall: tuple[int, float] | None = (30, 1.0)
    per_group: tuple[int, float] | None = (20, 60.0)
    per_private: tuple[int, float] | None = None


#: no limit at all (a local Bot API server, tests)
OFF = Limits(overall=None, per_group=None, per_private=None)


def _window(text: str) -> tuple[int, float] | None:
    if text in _OFF_WORDS:
        return None
    count, slash, seconds = text.partition("/")
    if not slash:
        raise ValueError(f"a rate limit is count/seconds, not {text!r}")
    window = (int(count), float(seconds))
    if window[0] < 1 or window[1] <= 0:
        raise ValueError(f"a rate limit is count/seconds, not {text!r}")
    return window


#: seconds between looks while a full window waits for a call's answer
OPEN_POLL = 0.01
#: seconds after which a call never reported answered counts as answered (longer than any request)
OPEN_FOR = 60.0
_OFF_WORDS = {"off", "0", "no", "false", "none"}
_NAMES = {"overall": "overall", "bot": "overall", "group": "per_group", "private": "per_private"}


def telegram_limits(setting: str | None = None, workers: int | None = None) -> Limits:
    """``TELEGRAM_RATE_LIMITS``: ``off`` for a test or local Bot API server, ``default`` (or unset)
    for Telegram's own limits, or windows of your own, e.g. ``overall=30/1,group=20/6`` (count/seconds;
    a test that cannot wait minutes scales the group window down). With ``TELEGRAM_WORKERS=N``
    processes sharing one bot, each takes 1/N of the bot-wide window; a chat's window is shared
    through the database (see the module docstring)."""
    value = (
        (setting if setting is not None else os.environ.get("TELEGRAM_RATE_LIMITS", "default"))
        .strip()
        .lower()
    )
    if value in _OFF_WORDS:
        return OFF
    if "=" in value:
        windows: dict[str, tuple[int, float] | None] = {}
        try:
            for part in value.split(","):
                name, _, window = part.partition("=")
                windows[_NAMES[name.strip()]] = _window(window.strip())
        except (KeyError, ValueError):
            raise ValueError(
                f"TELEGRAM_RATE_LIMITS must be off, default or e.g. overall=30/1,group=20/60, not {value!r}"
            ) from None
        limits = Limits(**windows)
    elif value in {"", "default", "on", "1", "yes", "true"}:
        limits = Limits()
    else:
        raise ValueError(f"TELEGRAM_RATE_LIMITS must be off or default, not {value!r}")
    n = workers if workers is not None else int(os.environ.get("TELEGRAM_WORKERS") or 1)
    if n > 1 and limits.overall is not None:
        count, period = limits.overall
        limits = Limits(
            overall=(max(1, count // n), period), per_group=limits.per_group, per_private=limits.per_private
        )
    return limits


class SharedWindows(Protocol):
    """Where the workers keep each chat's recent call times (the runtime's store)."""

    async def load(self, chat_id: Hashable) -> list[list[float]]:
        """The chat's recent calls as saved: ``[time, open]`` pairs (open: not answered when saved)."""
        ...

    async def save(self, chat_id: Hashable, calls: list[list[float]], before_call: bool = False) -> None:
        """Keep the chat's calls; ``before_call``: a call is about to be made, and a successor of a
        worker killed right after it must count it (written now, not later)."""
        ...


class RateLimiter:
    """Waits until a call fits every window that applies, then records it.

    ``clock`` must be wall time (``time.time``) when the windows are shared between processes."""

    def __init__(self, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or Limits()
        self._clock = clock
        # each call is one cell [time, open], in the bot-wide log and in its chat's log alike; an open
        # call (not answered yet) counts as made now: it reaches the platform at some unknown time
        self._overall: deque[list[float]] = deque()
        self._chats: dict[Hashable, deque[list[float]]] = {}
        #: the cells of each chat's calls not yet answered, oldest first, until :meth:`done`
        self._open: dict[Hashable, deque[list[float]]] = {}
        #: set by the runtime: chat windows shared with the other workers
        self.shared: SharedWindows | None = None
        self._loaded: set[Hashable] = set()
        #: chats that answer a person just now, until when (clock): their calls may use the whole
        #: bot-wide window; any other call (a backlog after a restart, timers, AI seats) leaves
        #: ``reserve`` of it free, so a fresh answer never queues behind a backlog
        self._fresh: dict[Hashable, float] = {}
        #: when the fresh answers' calls of the bot-wide window were made (a backlog yields to them)
        self._fresh_calls: deque[float] = deque()
        #: when the last call that was no fresh answer was let through
        self._other_at = float("-inf")
        overall = self.limits.overall
        self.reserve = max(1, overall[0] // 5) if overall is not None and overall[0] >= 5 else 0

    @property
    def off(self) -> bool:
        return self.limits == OFF

    @staticmethod
    def _wait(log: deque[list[float]] | None, window: tuple[int, float] | None, now: float) -> float:
        if window is None or not log:
            return 0.0
        count, period = window
        for cell in log:
            if cell[1] and cell[0] < now - OPEN_FOR:  # never answered (done() not called): it is over
                cell[0] += OPEN_FOR
                cell[1] = 0.0
        if any(cell[0] <= now - period and not cell[1] for cell in log):
            kept = [cell for cell in log if cell[0] > now - period or cell[1]]
            log.clear()
            log.extend(kept)
        if len(log) < count:
            return 0.0
        times = sorted(now if cell[1] else cell[0] for cell in log)
        # an open call blocks until it is answered, and a window longer: look again soon
        return max(times[len(times) - count] + period - now, OPEN_POLL)

    def mark_fresh(self, chat_id: Hashable, seconds: float) -> None:
        """Calls to ``chat_id`` in the next ``seconds`` answer a person (see ``reserve``)."""
        self._fresh[chat_id] = self._clock() + seconds
        if len(self._fresh) > 4096:
            now = self._clock()
            self._fresh = {c: t for c, t in self._fresh.items() if t > now}

    def is_fresh(self, chat_id: Hashable) -> bool:
        until = self._fresh.get(chat_id)
        return until is not None and until > self._clock()

    def _overall_window(self, chat_id: Hashable) -> tuple[int, float] | None:
        """The bot-wide window for a call to ``chat_id``: a fresh answer may fill all of it; any
        other call leaves ``reserve`` free and, besides, as many as the fresh answers made in the
        last window: while people are answered, they keep their pace and the backlog takes the
        rest (issue #12: after a restart with a thousand tables to send, new commands at 14 a second
        waited up to half a second for a slot that the backlog had filled again)."""
        window = self.limits.overall
        if window is None or not self.reserve or self.is_fresh(chat_id):
            return window
        count, period = window
        fresh = self._fresh_calls
        while fresh and fresh[0] <= self._clock() - period:
            fresh.popleft()
        return (max(1, count - self.reserve - len(fresh)), period)

    def _spacing(self, window: tuple[int, float], now: float) -> float:
        """Calls that answer nobody just now (a backlog, timers, AI seats) go evenly spread over
        the window, not in a burst: a burst fills the window for a whole period, and the fresh
        answers that come meanwhile have only the reserve (see :meth:`_overall_window`)."""
        count, period = window
        return self._other_at + period / count - now

    def delay(self, chat_id: Hashable, group: bool) -> float:
        """Seconds until a call to ``chat_id`` would fit (0 when it fits now); records nothing."""
        now = self._clock()
        chat_window = self.limits.per_group if group else self.limits.per_private
        return max(
            self._wait(self._overall, self._overall_window(chat_id), now),
            self._wait(self._chats.get(chat_id), chat_window, now),
        )

    async def acquire(self, chat_id: Hashable, group: bool) -> float:
        """Wait for a slot for one call to ``chat_id``; returns the seconds waited. Call
        :meth:`done` when the call has been answered."""
        waited = 0.0
        chat_window = self.limits.per_group if group else self.limits.per_private
        shared = self.shared if chat_window is not None else None
        if shared is not None and chat_id not in self._loaded:
            await self._load(shared, chat_id)
        while True:
            now = self._clock()
            chat_log = self._chats.setdefault(chat_id, deque())
            overall = self._overall_window(chat_id)
            fresh = self.is_fresh(chat_id)
            wait = max(
                self._wait(self._overall, overall, now),
                self._wait(chat_log, chat_window, now),
                0.0 if fresh or overall is None or not self.reserve else self._spacing(overall, now),
            )
            if wait <= 0:
                cell = [now, 1.0]
                if self.limits.overall is not None:
                    self._overall.append(cell)
                    if self.reserve:
                        if fresh:
                            self._fresh_calls.append(now)
                        else:
                            self._other_at = now
                if chat_window is not None:
                    chat_log.append(cell)
                    if shared is not None:  # written before the call: a successor counts it
                        await shared.save(chat_id, [list(c) for c in chat_log], before_call=True)
                elif not chat_log:
                    del self._chats[chat_id]  # nothing to remember for an unlimited chat
                self._open.setdefault(chat_id, deque()).append(cell)
                return waited
            waited += wait
            await asyncio.sleep(wait)

    def done(self, chat_id: Hashable) -> None:
        """The oldest unanswered call to ``chat_id`` was answered: it counts from now on."""
        cells = self._open.get(chat_id)
        if not cells:
            return
        cell = cells.popleft()
        if not cells:
            del self._open[chat_id]
        cell[0] = max(cell[0], self._clock())
        cell[1] = 0.0

    async def _load(self, shared: SharedWindows, chat_id: Hashable) -> None:
        """The chat's window as the worker before left it. A call it left open (it died waiting for
        the answer) reached the platform before now, if at all: it counts as made now."""
        now = self._clock()
        loaded = [[now, 0.0] if cell[1] else [cell[0], 0.0] for cell in await shared.load(chat_id)]
        log = self._chats.setdefault(chat_id, deque())
        known = {cell[0] for cell in log}
        merged = [*log, *(cell for cell in loaded if cell[0] not in known)]
        merged.sort(key=lambda cell: cell[0])
        log.clear()
        log.extend(merged)
        self._loaded.add(chat_id)

    async def release(self, chat_id: Hashable, save: bool = True) -> None:
        """This worker stops sending ``chat_id`` (its claim ends): the chat's window, with the answer
        times of its calls, goes to the database for whoever sends it next (``save`` False: another
        worker has the chat already and keeps its window itself)."""
        if chat_id not in self._loaded:
            return
        self._loaded.discard(chat_id)
        log = self._chats.get(chat_id)
        if save and self.shared is not None and log:
            await self.shared.save(chat_id, [list(c) for c in log])
