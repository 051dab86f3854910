"""What a running match waits for, as deadlines: an AI seat's move, a reminder and then the bot's
move for an idle person, or the end of a reaction window.

A use case that changes a running match calls :meth:`Schedule.plan` next to its commit, so the
match's deadlines are stored in the same transaction; the tables drawn afterwards only show them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chatbot.core import pace
from chatbot.core.decoded import Decoded
from chatbot.core.ports import AI_TURN, IDLE_MOVE, REMIND, WINDOW, Deadline, GameUI, MatchRec, Repository
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
        deadlines = self.deadlines(match, state, self.games[match.game].view(state, None))
        self.repo.set_deadlines(match.id, deadlines)
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
                # the match's pace (issue #16): live, daily or off, and the room's quiet hours
                chosen = pace.Pace.from_meta(match.meta.get("pace"))
                remind, act = pace.waits(chosen, self.settings.remind_after, self.settings.act_after)
                zone = room_zone(self.repo, match.room_id) if chosen.quiet else None
                for kind, wait in ((REMIND, remind), (IDLE_MOVE, act)):
                    if wait is not None:
                        due = now + wait
                        if zone is not None:
                            due = pace.out_of_quiet(due, chosen.quiet, zone)
                        out.append(Deadline(match.id, kind, due, match.version, humans))
        return out
