"""The one way a use case's messages reach the outbox: with the live prompts the change left out
(:mod:`chatbot.core.live`), past the checks a test may install, in the open unit."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chatbot.core.live import LivePrompts
from chatbot.core.ports import Repository
from chatbot.core.types import Outbound


class Outbox:
    """Queues every use case's messages in the open unit's outbox."""

    def __init__(self, repo: Repository, live: LivePrompts) -> None:
        self.repo = repo
        self.live = live
        #: called inside the unit with every change's outbound messages before they are queued; one
        #: that raises rolls the change back (the tests' scan for hidden information is one)
        self.checks: list[Callable[[Sequence[Outbound]], None]] = []

    def commit(self, outs: list[Outbound]) -> list[Outbound]:
        """Queue ``outs`` with the live prompts they lack; returns what was queued."""
        outs = [*outs, *self.live.missing(outs)]
        for check in self.checks:
            check(outs)
        self.repo.outbox_add(outs)
        return outs
