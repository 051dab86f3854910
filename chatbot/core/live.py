"""A live prompt for every seat, whatever changed.

A button acts only on the match version it was drawn at, so every change that raises a running
match's version (a move, a timer's move, a kick, a seat given to an AI or back, a hand-over, a leave, a
come-back, a start) leaves the old buttons stale. Use cases render what they changed; before the
unit commits, :meth:`LivePrompts.missing` adds what they left out: the match's table at its new
version (the group's buttons) and one prompt for each person whose seat may act now. A prompt
within the same turn carries the key of that turn's panel (:mod:`chatbot.core.turns`), so it edits
the panel in place and stays the one live prompt; transports disarm older prompts of the match when
a newer table or prompt is delivered. One step after every change, so no new use case can forget it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from chatbot.core.ports import RUNNING, MatchRec, Repository, RoomRec
from chatbot.core.types import PROMPT, TABLE, Outbound
from engines.contract import Engine


class LivePrompts:
    """What a unit's messages lack so that every acting person has a prompt that works."""

    def __init__(
        self,
        repo: Repository,
        games: Mapping[str, Engine],
        state_of: Callable[[MatchRec], Any],
        table: Callable[[MatchRec, RoomRec, Any], list[Outbound]],
        prompt: Callable[[MatchRec, RoomRec, int, Any], list[Outbound]],
    ) -> None:
        self.repo = repo
        self.games = games
        self.state_of = state_of
        self.table = table
        self.prompt = prompt

    def missing(self, outs: Sequence[Outbound]) -> list[Outbound]:
        """The tables and prompts to send besides ``outs`` for the matches the open unit changed."""
        extra: list[Outbound] = []
        for match_id in sorted(self.repo.changed_matches()):
            match = self.repo.match(match_id)
            if match is None or match.status != RUNNING or match.state is None:
                continue
            shown = [*outs, *extra]
            room = self.repo.room_by_id(match.room_id)
            state = self.state_of(match)
            if not _has(shown, TABLE, match):
                extra.extend(self.table(match, room, state))
            for seat in self.games[match.game].to_act(state):
                if match.seats[seat].user_id is None or _has(shown, PROMPT, match, seat):
                    continue
                extra.extend(self.prompt(match, room, seat, state))
        return extra


def _has(outs: Sequence[Outbound], role: str, match: MatchRec, seat: int | None = None) -> bool:
    return any(
        o.role == role
        and o.match_id == match.id
        and o.version == match.version
        and (seat is None or o.seat == seat)
        for o in outs
    )
