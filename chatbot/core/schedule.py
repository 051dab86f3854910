"""What a running match waits for, as deadlines: an AI seat's move, a reminder and then the bot's
move for an idle person, or the end of a reaction window.

A use case that changes a running match calls :meth:`Schedule.plan` next to its commit, so the
match's deadlines are stored in the same transaction; the tables drawn afterwards only show them.

A person's time runs per turn, not per step (issue #27): the reminder and the stand-in are due from
the beginning of the turn (:mod:`chatbot.core.turns`), a step within it does not push them on, and a
person reminded once is not reminded again in the same turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from chatbot.core import pace, pictures, turns
from chatbot.core.decoded import Decoded
from chatbot.core.gameui import GameUI
from chatbot.core.ports import AI_TURN, IDLE_MOVE, REMIND, WINDOW, Deadline, MatchRec, Repository
from chatbot.core.usecase import CoreSettings
from engines.contract import Engine


def room_zone(repo: Repository, room_id: int) -> Any:
    """The room's time zone (``vyöhyke=…`` once given), else Helsinki's."""
    return pace.zone_of(repo.kv_get(pace.NS_ROOM_ZONE, str(room_id)))


class Schedule:
    """Decides and stores a match's deadlines."""

    def __init__(
        self,
        repo: Repository,
        games: dict[str, Engine],
        uis: dict[str, GameUI],
        decoded: Decoded,
        settings: CoreSettings,
        clock: Callable[[], float],
    ) -> None:
        self.repo = repo
        self.games = games
        self.uis = uis
        self.decoded = decoded
        self.settings = settings
        self.clock = clock

    def plan(self, match: MatchRec, state: Any = None) -> list[Deadline]:
        """Decide the deadlines of ``match`` (``state`` is its state loaded, when the caller has it)
        and store them with the unit; returns them (a table shows when the next reminder is)."""
        assert match.state is not None
        if state is None:
            state = self.decoded.state(match)
        public_view = self.games[match.game].view(state, None)
        deadlines = self.deadlines(match, state, public_view)
        self.repo.set_deadlines(match.id, deadlines)
        # the table's picture for this moment of the game (one new picture a round, issue #28)
        moment = self.uis[match.game].picture_moment(public_view)
        marked = pictures.mark(match.meta, moment, getattr(state, "ply", None))
        if marked is not None:
            self.repo.set_meta(match.id, pictures.META, marked)
        return deadlines

    def clear(self, match_id: int) -> None:
        """The match waits for nothing (it ended, or it is paused)."""
        self.repo.set_deadlines(match_id, [])

    def deadlines(self, match: MatchRec, state: Any, public_view: Any) -> list[Deadline]:
        """What the match waits for now: an AI seat's move, or a person (a reminder, then the bot's
        move for them), or the end of a quick window that every seat gets alike. A window opened
        now is noted in the match's meta (its time runs from its opening)."""
        engine = self.games[match.game]
        if engine.outcome(state) is not None or match.meta.get("paused"):
            return []  # over, or paused while the bot is out of the group
        acting = engine.to_act(state)
        now = self.clock()
        out = []
        quick = self.uis[match.game].deadline(public_view)
        records = self.turn_records(match, state, public_view)
        if records != match.meta.get(turns.META):
            self.repo.set_meta(match.id, turns.META, records)
        ai = tuple(s for s in acting if match.seats[s].ai is not None and match.seats[s].user_id is None)
        if ai:
            # an AI seat answers a reaction window at once: the table waits for people only
            delay = 0.0 if quick else self.settings.ai_delay
            out.append(Deadline(match.id, AI_TURN, now + delay, match.version, ai))
        humans = tuple(s for s in acting if match.seats[s].user_id is not None)
        if humans:
            ui = self.uis[match.game]
            if quick:  # a reaction window gets its own short deadline and no reminder
                due = now + quick
                key = ui.window_key(public_view)
                opened = match.meta.get("window") or {}
                if key is not None and opened.get("key") == key:
                    due = float(opened["due"])  # the same window: its time runs from its opening
                elif key is not None:
                    self.repo.set_meta(match.id, "window", {"key": key, "due": due})
                out.append(Deadline(match.id, WINDOW, due, match.version, humans))
            else:
                # the match's pace (issue #16): live, daily or off, and the room's quiet hours; the
                # times run from the beginning of each person's turn
                chosen = pace.Pace.from_meta(match.meta.get("pace"))
                remind, act = pace.waits(chosen, self.settings.remind_after, self.settings.act_after)
                zone = room_zone(self.repo, match.room_id) if chosen.quiet else None
                began = {s: float(records[str(s)].get("t", now)) for s in humans}
                unreminded = tuple(s for s in humans if not records[str(s)].get("r"))
                for kind, wait, seats in ((REMIND, remind, unreminded), (IDLE_MOVE, act, humans)):
                    if wait is not None and seats:
                        due = min(began[s] for s in seats) + wait
                        if zone is not None:
                            due = pace.out_of_quiet(due, chosen.quiet, zone)
                        out.append(Deadline(match.id, kind, due, match.version, seats))
        return out

    def turn_records(self, match: MatchRec, state: Any, public_view: Any) -> dict[str, dict[str, Any]]:
        """Each seat's latest turn after the match's latest change (see :mod:`chatbot.core.turns`)."""
        engine = self.games[match.game]
        ui = self.uis[match.game]
        acting = engine.to_act(state)
        people = {s: user for s in acting if (user := match.seats[s].user_id) is not None}
        window = turns.window_of(ui.deadline(public_view), ui.window_key(public_view), match.version)
        return turns.advance(
            match.meta.get(turns.META),
            turns.marks(public_view, acting),
            window,
            people,
            match.version,
            self.clock(),
        )

    def panels_anew(self, match: MatchRec, seats: Sequence[int] | None = None) -> MatchRec:
        """The panels of ``seats`` (default: every seat a person may act for now) come as new
        messages, which the next steps of their turns edit: the person asked to see theirs again,
        or must hear that the game goes on. Returns the match as stored then."""
        assert match.state is not None
        state = self.decoded.state(match)
        engine = self.games[match.game]
        records: dict[str, Any] | None = self.turn_records(match, state, engine.view(state, None))
        acting = engine.to_act(state)
        changed = False
        for seat in acting if seats is None else seats:
            again = turns.shown_again(records, seat) if seat in acting else None
            if again is not None:
                records, changed = again, True
        if not changed:
            return match
        self.repo.set_meta(match.id, turns.META, records)
        return self.repo.match(match.id) or match

    def reminded(self, match: MatchRec, seats: Sequence[int]) -> None:
        """The seats were reminded in their turn: not again until their next turn."""
        records = {k: dict(v) for k, v in (match.meta.get(turns.META) or {}).items()}
        for seat in seats:
            if str(seat) in records:
                records[str(seat)]["r"] = True
        self.repo.set_meta(match.id, turns.META, records)
