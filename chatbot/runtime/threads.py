"""The runtime's worker threads: the core's thread and the delivery bookkeeping's thread."""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")


class PriorityThread:
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

    def run_urgent(self) -> int:
        """On this thread, inside a long call: run the urgent calls waiting now (a person's update
        while the deadlines of 10,000 matches are rebuilt); how many ran. Elsewhere: nothing."""
        if threading.current_thread() is not self._thread:
            return 0
        ran = 0
        while True:
            with self._ready:
                if not self._urgent:
                    return ran
                fn, future = self._urgent.popleft()
            self._call(fn, future)
            ran += 1

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
            self._call(fn, future)

    @staticmethod
    def _call(fn: Callable[[], Any], future: Future[Any]) -> None:
        if not future.set_running_or_notify_cancel():
            return
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
