"""What one process remembers of what it decoded (match states with what follows from them, the public
events of logged actions), and finding a speaker's match and seat from it.

Both memories are safe to share between workers' processes because they are keyed by what never
changes: a state by (match, version) and compared with the stored snapshot, the events of an action
by (match, ply, seat, notation) of the append-only log.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from chatbot.core.ports import LOBBY, RUNNING, MatchRec, Repository, UserRec
from chatbot.core.turn import Facts, Turn
from chatbot.core.types import Inbound
from chatbot.core.usecase import Speaker
from engines.codec import decode
from engines.contract import Engine, Event

#: the actions whose public events a table shows above it (at most)
RECENT_ACTIONS = 6
#: decoded public events of recent actions kept (a few per running match suffice)
EVENT_MEMORY = 20_000
#: decoded match states kept, by (match, version) (the matches played just now)
STATE_MEMORY = 256


class Decoded:
    """Decoded match states and public events, kept per process (shared by the core's collaborators)."""

    def __init__(self, repo: Repository, games: dict[str, Engine]) -> None:
        self.repo = repo
        self.games = games
        #: decoded public events of recent actions, by (match, ply, seat, notation)
        self._public_events: OrderedDict[tuple[int, int, int, str], list[Event]] = OrderedDict()
        self._events_lock = threading.Lock()
        #: decoded states by (match, version): the snapshot as stored, the engine's state from it and
        #: the state's facts (who acts, views, legal actions: see :mod:`chatbot.core.turn`)
        self._states: OrderedDict[tuple[int, int], tuple[Any, Any, Facts]] = OrderedDict()
        self._states_lock = threading.Lock()
        #: decoded states by (match, ply): the earlier states the table's picture shows
        self._plies: OrderedDict[tuple[int, int], Any] = OrderedDict()

    def state(self, match: MatchRec) -> Any:
        """``match.state`` decoded by its engine, once per (match, version): the snapshot is compared
        with the one kept (far cheaper than decoding it), so a state never comes from a snapshot
        that was not this one (a rolled back change, another worker's)."""
        assert match.state is not None
        key = (match.id, match.version)
        with self._states_lock:
            kept = self._states.get(key)
        if kept is not None and kept[0] == match.state:
            return kept[1]
        state = self.games[match.game].load(match.state)
        self.keep_state(key, match.state, state)
        return state

    def keep_state(self, key: tuple[int, int], snapshot: Any, state: Any) -> None:
        with self._states_lock:
            self._states[key] = (snapshot, state, Facts())
            self._states.move_to_end(key)
            while len(self._states) > STATE_MEMORY:
                self._states.popitem(last=False)
        self._keep_ply(key[0], state)

    def _keep_ply(self, match_id: int, state: Any) -> None:
        ply = getattr(state, "ply", None)
        if not isinstance(ply, int):
            return
        with self._states_lock:
            self._plies[(match_id, ply)] = state
            self._plies.move_to_end((match_id, ply))
            while len(self._plies) > STATE_MEMORY:
                self._plies.popitem(last=False)

    def state_at(self, match: MatchRec, ply: int) -> Any | None:
        """The match's state after its first ``ply`` actions (an earlier state the table's picture
        shows): kept when this process made or read it, else replayed from the action log, which
        is append-only, so a state of (match, ply) never changes. None when the log does not reach
        it or no longer replays."""
        with self._states_lock:
            kept = self._plies.get((match.id, ply))
        if kept is not None:
            return kept
        engine = self.games[match.game]
        try:
            state = engine.new_game(len(match.seats), match.seed, engine.options_from_dict(match.options))
            for rec in self.repo.actions(match.id):
                if getattr(state, "ply", None) == ply:
                    break
                state, _events = engine.apply(state, rec.seat, engine.parse_notation(rec.notation))
        except Exception:  # a log the rules no longer replay: the picture shows the state as it is
            return None
        if getattr(state, "ply", None) != ply:
            return None
        self._keep_ply(match.id, state)
        return state

    def turn(self, match: MatchRec, seat: int | None = None, state: Any = None) -> Turn:
        """The match's state (``state`` when the caller has it decoded) for ``seat``: a turn whose
        facts are the ones kept with that state, so that what the engine derives from one state is
        worked out once whoever asks (the parser, the table's buttons, each private prompt)."""
        if state is None:
            state = self.state(match)
        with self._states_lock:
            kept = self._states.get((match.id, match.version))
        facts = kept[2] if kept is not None and kept[1] is state else Facts()
        return Turn(self.games[match.game], state, seat, facts)

    def keep_events(self, key: tuple[int, int, int, str], events: Sequence[Any]) -> None:
        """The public events of the action just committed, as the next tables read them from the
        log (the key is the log's: the events of a seat's move at a ply follow from the committed
        state before it)."""
        with self._events_lock:
            self._public_events[key] = [e for e in events if isinstance(e, Event) and e.public]
            while len(self._public_events) > EVENT_MEMORY:
                self._public_events.popitem(last=False)

    def recent_public_events(self, match: MatchRec) -> list[list[Event]]:
        """The public events of the match's last :data:`RECENT_ACTIONS` actions, one list per action."""
        return [events for _ply, events in self.recent_public_steps(match)]

    def recent_public_steps(self, match: MatchRec) -> list[tuple[int, list[Event]]]:
        """:meth:`recent_public_events` with the ply each action made (who played a seat then)."""
        assert match.state is not None
        ply = int(match.state.get("ply", 0))
        return self.public_steps_since(match, max(0, ply - RECENT_ACTIONS))

    def public_events_since(self, match: MatchRec, since: int) -> list[list[Event]]:
        """The public events of the match's actions from ply ``since`` on, one list per action."""
        return [events for _ply, events in self.public_steps_since(match, since)]

    def public_steps_since(self, match: MatchRec, since: int) -> list[tuple[int, list[Event]]]:
        """:meth:`public_events_since` with the ply each action made."""
        engine = self.games[match.game]
        types = {**engine.types, "Event": Event}
        keys_of = getattr(self.repo, "action_keys", None)
        if keys_of is not None:
            # which actions only, when all their events are decoded already: the events, stored as
            # JSON, need not be read and parsed again on every table (issue #12, fast path)
            keys = [(match.id, p, s, n) for p, s, n in keys_of(match.id, since)]
            with self._events_lock:
                known = [self._public_events.get(key) for key in keys]
            if all(events is not None for events in known):
                return [
                    (key[1], list(events))
                    for key, events in zip(keys, known, strict=True)
                    if events is not None
                ]
        out = []
        for rec in self.repo.actions(match.id, since_ply=since):
            # the action log is append-only and an action follows from the state before it, so the
            # public events of (match, ply, seat, notation) never change: decoded once per process
            key = (match.id, rec.ply, rec.seat, rec.notation)
            with self._events_lock:
                public = self._public_events.get(key)
            if public is None:
                events = [decode(e, types) for e in rec.events]
                public = [e for e in events if isinstance(e, Event) and e.public]
                with self._events_lock:
                    self._public_events[key] = public
                    while len(self._public_events) > EVENT_MEMORY:
                        self._public_events.popitem(last=False)
            out.append((rec.ply, list(public)))
        return out


class Finder:
    """The match a message is about and the speaker's seat in it."""

    def __init__(self, repo: Repository, games: dict[str, Engine], decoded: Decoded) -> None:
        self.repo = repo
        self.games = games
        self.decoded = decoded

    def context_match(self, msg: Inbound, sp: Speaker) -> MatchRec | None:
        """The room's active match, or in private the user's (see :meth:`private_match`)."""
        if sp.room is not None:
            return self.repo.active_match(sp.room.id)
        return self.private_match(sp.user)

    def private_match(self, user: UserRec) -> MatchRec | None:
        """The user's match for a private message: the one where they must act, else the latest."""
        matches = [m for m in self.repo.matches_of_user(user.id) if m.status in {RUNNING, LOBBY}]
        for m in matches:
            if m.status == RUNNING and m.state is not None:
                engine = self.games[m.game]
                state = self.decoded.state(m)
                if any(m.seats[s].user_id == user.id for s in engine.to_act(state)):
                    return m
        return matches[-1] if matches else None

    def seat_of(self, match: MatchRec | None, user: UserRec, prefer_acting: bool = False) -> int | None:
        """The user's seat in the match (one of them that is to act, when ``prefer_acting``)."""
        if match is None:
            return None
        mine = [s.seat for s in match.seats if s.user_id == user.id]
        if not mine:
            return None
        if prefer_acting and match.state is not None and match.status == RUNNING:
            engine = self.games[match.game]
            acting = engine.to_act(self.decoded.state(match))
            for s in mine:
                if s in acting:
                    return s
        return mine[0]
