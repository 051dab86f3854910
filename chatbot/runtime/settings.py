"""How one runtime process behaves (:class:`Settings`) and what it counts (:class:`Stats`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass


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
        return asdict(self)


#: seconds after a person's update during which its chat's rows count as fresh answers
FRESH_FOR = 10.0
#: longest wait of an update's other chats behind its first answer (see Deliverer.wake_for)
GATE_FOR = 0.25
