"""The one way a use case's messages reach the outbox: with the live prompts the change left out
(:mod:`chatbot.core.live`), past the hidden-information guard and the checks a test may install, in
the open unit.

:class:`HiddenGuard` is the production side of the no-leak rule (DESIGN.md §8; issue #27): a group
message that names an identifier only some seat may know (``engine.hidden_tokens(state, None)`` of
the room's running match: a card instance in a hand, a face-down token) is never sent. It is logged
at WARNING and replaced by a short notice; the renderers should never make one, so this is a net,
not a filter the use cases may lean on.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from chatbot.core import i18n
from chatbot.core.live import LivePrompts
from chatbot.core.ports import RUNNING, MatchRec, Repository
from chatbot.core.types import Outbound
from engines.contract import Engine

log = logging.getLogger(__name__)

#: hidden identifiers kept per (match, version): a change's messages are checked against one state
GUARD_MEMORY = 256


class HiddenGuard:
    """Refuses group messages that name a hidden identifier of the room's running match."""

    def __init__(
        self, repo: Repository, games: Mapping[str, Engine], state_of: Callable[[MatchRec], Any]
    ) -> None:
        self.repo = repo
        self.games = games
        self.state_of = state_of
        self._known: OrderedDict[tuple[int, int], frozenset[str]] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, outs: Sequence[Outbound]) -> list[Outbound]:
        checked: list[Outbound] = []
        rooms: dict[tuple[str, str], MatchRec | None] = {}
        for out in outs:
            runs = () if out.private or out.chat_id is None else _runs(out)
            if not runs:  # private, or naming nothing shaped like an identifier: no match to look up
                checked.append(out)
                continue
            match = self._match_of(out, rooms)
            found = self._found(self._tokens(match), runs) if match is not None else None
            if found is None:
                checked.append(out)
                continue
            assert match is not None
            log.warning(
                "held back a group message of match %s that names the hidden %r: %r",
                match.id,
                found,
                out.text,
            )
            t = i18n.translator(out.lang)
            text = t.gettext(
                "I held back a message because it would have shown something hidden. Write “status” to "
                "see the table."
            )
            checked.append(replace(out, text=text, buttons=(), image=None))
        return checked

    def _match_of(self, out: Outbound, rooms: dict[tuple[str, str], MatchRec | None]) -> MatchRec | None:
        """The match a group message belongs to: its own, or the running match of its room."""
        if out.match_id is not None:
            match = self.repo.match(out.match_id)
        else:
            key = (out.platform, out.chat_id or "")
            if key not in rooms:
                room = next((r for r in self.repo.rooms_in(*key) if r.ext_id == key[1]), None)
                rooms[key] = self.repo.active_match(room.id) if room is not None else None
            match = rooms[key]
        if match is None or match.status != RUNNING or match.state is None or match.game not in self.games:
            return None
        return match

    def _tokens(self, match: MatchRec) -> frozenset[str]:
        key = (match.id, match.version)
        with self._lock:
            known = self._known.get(key)
            if known is not None:
                self._known.move_to_end(key)
                return known
        hidden = self.games[match.game].hidden_tokens(self.state_of(match), None)
        tokens = frozenset(t.strip('"') for t in hidden) - {""}
        with self._lock:
            self._known[key] = tokens
            while len(self._known) > GUARD_MEMORY:
                self._known.popitem(last=False)
        return tokens

    @staticmethod
    def _found(tokens: frozenset[str], runs: Sequence[str]) -> str | None:
        """The first hidden identifier that one of the message's ``runs`` (see :func:`_runs`) names
        as a whole ("N1.1" is not named by "N1.10"), each run looked up with its parts (one pass over
        the text, not one per card)."""
        for run in runs:
            parts = _SEPARATED.split(run)
            for i in range(0, len(parts), 2):
                for j in range(i + 3, len(parts) + 1, 2):
                    if "".join(parts[i:j]) in tokens:
                        return "".join(parts[i:j])
        return None


def _runs(out: Outbound) -> list[str]:
    """The runs of words joined by ".", "#" or ":" in a message's text and its buttons' data: where a
    hidden identifier could be ("B1.1", "cat.2", "ambush#1": every game's hidden ones are such runs).
    Most group texts have none, and then no match needs to be looked up (no statement in the unit)."""
    found: list[str] = []
    for text in (out.text, *(b.data for row in out.buttons for b in row)):
        for word in text.split():
            if "." in word or "#" in word or ":" in word:
                found.extend(_RUN.findall(word))
    return found


#: a run of words joined by the separators hidden identifiers use, and the split that keeps them
_RUN = re.compile(r"\w+(?:[.#:]\w+)+")
_SEPARATED = re.compile(r"([.#:])")


class Outbox:
    """Queues every use case's messages in the open unit's outbox."""

    def __init__(self, repo: Repository, live: LivePrompts, guard: HiddenGuard | None = None) -> None:
        self.repo = repo
        self.live = live
        self.guard = guard
        #: called inside the unit with every change's outbound messages before they are queued; one
        #: that raises rolls the change back (the tests' scan for hidden information is one)
        self.checks: list[Callable[[Sequence[Outbound]], None]] = []

    def commit(self, outs: list[Outbound]) -> list[Outbound]:
        """Queue ``outs`` with the live prompts they lack; returns what was queued."""
        outs = [*outs, *self.live.missing(outs)]
        outs += self.live.disarmed(outs)
        if self.guard is not None:
            outs = self.guard(outs)
        for check in self.checks:
            check(outs)
        self.repo.outbox_add(outs)
        return outs
