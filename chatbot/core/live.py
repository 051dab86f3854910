"""A live prompt for every seat, whatever changed.

A button acts only on the match version it was drawn at, so every change that raises a running
match's version (a move, a timer's move, a kick, a seat given to an AI or back, a hand-over, a leave, a
come-back, a start) leaves the old buttons stale. Use cases render what they changed; before the
unit commits, :meth:`LivePrompts.missing` adds what they left out: the match's table at its new
version (the group's buttons) and one prompt for each person whose seat may act now. A prompt
within the same turn carries the key of that turn's panel (:mod:`chatbot.core.turns`), so it edits
the panel in place and stays the one live prompt. One step after every change, so no new use case
can forget it.

A panel is edited in place, so only its own key may take its buttons away: a transport strips a
prompt that is never edited again (an older question, when a newer prompt or table of its match is
delivered), but a panel may have been edited with live buttons by another process meanwhile (each
private chat is sent by whichever process holds its claim; issue #28's three-worker run lost the
buttons of a live panel so). :meth:`LivePrompts.disarmed` keeps, in the match's meta, each seat's
panel that carries buttons, and when the match moves past it without a new prompt in that chat (the
bot stood in, a move that brought news, a seat given away, the end of the game), the unit edits
it without its buttons.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from chatbot.core.ports import RUNNING, MatchRec, Repository, RoomRec
from chatbot.core.types import PROMPT, TABLE, Outbound
from engines.contract import Engine

#: the match's meta key of its armed panels: seat -> {"k": key, "u": the user's platform id,
#: "p": platform, "i": the user's id, "v": the version its buttons act on}
ARMED = "armed"


class LivePrompts:
    """What a unit's messages lack so that every acting person has a prompt that works."""

    def __init__(
        self,
        repo: Repository,
        games: Mapping[str, Engine],
        state_of: Callable[[MatchRec], Any],
        table: Callable[[MatchRec, RoomRec, Any], list[Outbound]],
        prompt: Callable[[MatchRec, RoomRec, int, Any], list[Outbound]],
        ended: Callable[[MatchRec, RoomRec, int, Mapping[str, Any], Any], Outbound] | None = None,
    ) -> None:
        self.repo = repo
        self.games = games
        self.state_of = state_of
        self.table = table
        self.prompt = prompt
        #: a seat's armed panel (its record in ARMED) as it reads once the match moved past it
        self.ended = ended

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

    def disarmed(self, outs: Sequence[Outbound]) -> list[Outbound]:
        """The edits that take the buttons off panels the unit left behind (see the module
        docstring), and the armed panels of the unit's matches noted in their meta."""
        if self.ended is None:
            return []
        extra: list[Outbound] = []
        touched = {o.match_id for o in outs if o.role == PROMPT and o.user_id is not None}
        for match_id in sorted({*self.repo.changed_matches(), *(m for m in touched if m is not None)}):
            match = self.repo.match(match_id)
            if match is None or match.state is None:
                continue
            old = {str(k): v for k, v in (match.meta.get(ARMED) or {}).items() if isinstance(v, Mapping)}
            armed = dict(old)
            for o in outs:
                if o.match_id != match_id or o.role != PROMPT or o.user_id is None or o.seat is None:
                    continue
                seat = str(o.seat)
                had = armed.get(seat)
                acts = _acts(o, match)
                same_chat = had is not None and had.get("u") == o.user_id and had.get("p") == o.platform
                if same_chat and had is not None and (had.get("k") == o.key or acts):
                    # edited by its key, or a newer prompt with buttons in its chat: a transport
                    # strips the older one there, in that chat's order
                    del armed[seat]
                if acts and o.key is not None:
                    user = match.seats[o.seat].user_id if o.seat < len(match.seats) else None
                    armed[seat] = {"k": o.key, "u": o.user_id, "p": o.platform, "i": user, "v": o.version}
            room: RoomRec | None = None
            for seat, rec in list(armed.items()):
                if match.status == RUNNING and rec.get("v") == match.version:
                    continue
                room = room or self.repo.room_by_id(match.room_id)
                extra.append(self.ended(match, room, int(seat), rec, self.state_of(match)))
                del armed[seat]
            if armed != old:
                self.repo.set_meta(match_id, ARMED, armed)
        return extra


def _acts(out: Outbound, match: MatchRec) -> bool:
    """Whether ``out`` carries buttons that act on the match now."""
    head = f"{match.id}:{match.version}:"
    return out.version == match.version and any(b.data.startswith(head) for row in out.buttons for b in row)


def _has(outs: Sequence[Outbound], role: str, match: MatchRec, seat: int | None = None) -> bool:
    return any(
        o.role == role
        and o.match_id == match.id
        and o.version == match.version
        and (seat is None or o.seat == seat)
        for o in outs
    )
