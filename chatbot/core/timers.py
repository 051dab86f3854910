"""Timers: AI turns, reminders, the bot's move for an idle person and the end of a reaction window,
all stored as deadlines (one row per match and kind, under an index on the due time).

Every change of a running match stores its next deadlines in the same transaction
(:meth:`~chatbot.core.schedule.Schedule.plan`); the runtime's deadline loop sleeps until :meth:`Timers.next_due` and
lets :meth:`Timers.run_due` claim and perform what is due, each in one transaction with its outbox
rows and the next deadlines. A move that lost the race for its match is dropped silently: whoever
won set the next deadlines. No process keeps anything another worker would need.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from chatbot.core import i18n, turns
from chatbot.core.decoded import Decoded
from chatbot.core.gameui import GameUI, RenderContext
from chatbot.core.i18n import Translator
from chatbot.core.outbox import Outbox
from chatbot.core.people import seat_names
from chatbot.core.play import Play
from chatbot.core.ports import (
    AI_TURN,
    IDLE_MOVE,
    REMIND,
    RUNNING,
    WINDOW,
    Deadline,
    MatchRec,
    Repository,
    RoomRec,
    StorageUnavailable,
)
from chatbot.core.render import Renderer
from chatbot.core.schedule import Schedule
from chatbot.core.turn import Turn
from chatbot.core.types import Outbound
from chatbot.core.usecase import Conflict, CoreSettings
from engines.contract import Engine

log = logging.getLogger(__name__)

#: seconds until the runtime tries again while the database is unavailable
RETRY_WHEN_DOWN = 5.0
#: at most this many moves AI seats play in one go when no person is left in a match
PLAY_OUT_MOVES = 5000
#: at most this many steps of one turn the bot plays for an idle person (a turn ends long before)
STANDIN_STEPS = 50
#: delivered outbox rows are kept a day, inbound update ids a week (Telegram redelivers within 24 h);
#: the core forgets older ones every ``PRUNE_EVERY`` seconds of its deadline loop
KEEP_DONE, KEEP_SEEN, PRUNE_EVERY = 86_400.0, 7 * 86_400.0, 3_600.0


class Timers:
    """The deadline use cases: what is due is claimed and performed, one transaction each."""

    def __init__(
        self,
        repo: Repository,
        games: dict[str, Engine],
        uis: dict[str, GameUI],
        decoded: Decoded,
        schedule: Schedule,
        play: Play,
        renderer: Renderer,
        outbox: Outbox,
        settings: CoreSettings,
        clock: Callable[[], float],
        worker: str,
    ) -> None:
        self.repo = repo
        self.games = games
        self.uis = uis
        self.decoded = decoded
        self.schedule = schedule
        self.play = play
        self.renderer = renderer
        self.outbox = outbox
        self.settings = settings
        self.clock = clock
        #: the worker name claims are made under when the runtime names none
        self.worker = worker
        self._recovered = False
        self._started_workers: set[str] = set()
        self._pruned_at = 0.0

    def run_due(self, worker: str | None = None, limit: int = 20) -> list[Outbound]:
        """Claim the deadlines that are due and perform them, each in one transaction with its
        outbox rows and the match's next deadlines. A move that lost the race for its match is
        dropped silently (whoever won set the next deadlines). Never raises."""
        worker = worker or self.worker
        out: list[Outbound] = []
        try:
            self.recover()
            if worker not in self._started_workers:
                # a worker name reused after a crash: its old claims are due again now, not at lease end
                self.repo.release_deadlines(worker, self.clock())
                self._started_workers.add(worker)
            now = self.clock()
            if now - self._pruned_at >= PRUNE_EVERY:
                self._pruned_at = now
                self.repo.prune(now - KEEP_DONE, now - KEEP_SEEN)
            claimed = self.repo.due_deadlines(now, worker, self.settings.lease, limit)
        except StorageUnavailable as exc:
            log.warning("storage unavailable for the deadlines: %s", exc)
            return out
        for deadline in claimed:
            try:
                out.extend(self._perform(deadline, worker))
            except StorageUnavailable as exc:  # the claim runs out and someone does it later
                log.warning("storage unavailable for %r: %s", deadline, exc)
                break
            except Exception:
                log.exception("deadline %r failed; dropped", deadline)
                try:
                    self.repo.drop_deadline(deadline, worker)
                except Exception:
                    log.exception("could not drop %r", deadline)
        return out

    def next_due(self) -> float | None:
        """When the next deadline is due (epoch seconds), None when there is none; while the
        database is unavailable, a time soon to try again."""
        try:
            self.recover()
            return self.repo.next_due()
        except StorageUnavailable:
            return self.clock() + RETRY_WHEN_DOWN

    def recover(self) -> None:
        """Once per core: running matches without any deadline (stored before deadlines were) get
        theirs, keeping the due times of an old ``meta["timer"]``."""
        if self._recovered:
            return
        for match in self.repo.matches_without_deadlines():
            if match.state is None:
                continue
            with self.repo.unit():
                engine = self.games[match.game]
                state = self.decoded.state(match)
                deadlines = self.schedule.deadlines(match, state, engine.view(state, None))
                timer = match.meta.get("timer") or {}
                if timer.get("version") == match.version:
                    kept = []
                    for d in deadlines:
                        if d.kind == REMIND and timer.get("reminded"):
                            continue
                        if d.kind == REMIND and timer.get("remind_at") is not None:
                            d = replace(d, due=float(timer["remind_at"]))
                        elif d.kind in {IDLE_MOVE, WINDOW} and timer.get("act_at") is not None:
                            d = replace(d, due=float(timer["act_at"]))
                        kept.append(d)
                    deadlines = kept
                self.repo.set_deadlines(match.id, deadlines)
        self._recovered = True

    def _perform(self, deadline: Deadline, worker: str) -> list[Outbound]:
        """One claimed deadline, in one transaction; [] when the match moved on meanwhile."""
        try:
            with self.repo.unit():
                match = self.repo.match(deadline.match_id)
                if (
                    match is None
                    or match.status != RUNNING
                    or match.state is None
                    or match.version != deadline.version
                ):
                    self.repo.drop_deadline(deadline, worker)  # normally the change replaced it already
                    return []
                room = self.repo.room_by_id(match.room_id)
                t = i18n.translator(room.lang or "fi")
                if deadline.kind == AI_TURN:
                    outs = self._ai_move(match)
                elif deadline.kind == REMIND:
                    outs = self._remind(match, room, t, deadline.seats)
                else:
                    outs = self._act_for_idle(match, room, t, deadline.seats, quick=deadline.kind == WINDOW)
                after = self.repo.match(match.id)
                # done without a change of the match (its other deadlines stay): just this one goes,
                # and only if it is still ours (else another worker did it: say nothing)
                if (
                    after is not None
                    and after.version == match.version
                    and not self.repo.drop_deadline(deadline, worker)
                ):
                    raise Conflict()
                outs = self.outbox.commit(outs)
            return outs
        except Conflict:
            return []  # an AI or timer move that lost the race: the winner set the next deadlines

    def _ai_move(self, match: MatchRec) -> list[Outbound]:
        assert match.state is not None
        engine = self.games[match.game]
        state = self.decoded.state(match)
        public = engine.view(state, None)
        if not turns.people_in_play(match.seats, public):
            return self._play_out(match)
        quick = self.uis[match.game].deadline(public)
        out: list[Outbound] = []
        current: MatchRec | None = match
        for seat in engine.to_act(state):
            if current is None or current.status != RUNNING or current.state is None:
                break
            rec = current.seats[seat]
            if rec.ai is None:
                continue
            turn = self.decoded.turn(current, seat)
            if not turn.to_act:
                continue
            action = engine.ai_action(rec.ai, turn.view, turn.legal, engine.ai_rng(turn.state, seat))
            out.extend(self.play.apply(current, seat, action, turn.state))
            if not quick:
                break  # one move per deadline; every AI seat of a reaction window answers now
            current = self.repo.match(current.id)
        return out

    def _play_out(self, match: MatchRec) -> list[Outbound]:
        """Nobody but AI seats is left in the match (the last person out of the game, or every seat
        given to an AI): they play it to its end at once, and the group gets one summary, the final
        table and standings, instead of a message for every deal and round (issue #27)."""
        engine = self.games[match.game]
        room = self.repo.room_by_id(match.room_id)
        current = match
        moves = 0
        while moves < PLAY_OUT_MOVES and current.status == RUNNING and current.state is not None:
            state = self.decoded.state(current)
            seat = next((s for s in engine.to_act(state) if current.seats[s].user_id is None), None)
            if seat is None:
                break  # a person after all: the ordinary deadlines take over
            ai = current.seats[seat].ai or engine.default_ai
            turn = self.decoded.turn(current, seat, state)
            action = engine.ai_action(ai, turn.view, turn.legal, engine.ai_rng(state, seat))
            self.play.apply(current, seat, action, state, render=False)
            moves += 1
            after = self.repo.match(current.id)
            if after is None:
                return []
            current = after
        if moves == 0:
            return []
        t = i18n.translator(room.lang or "fi")
        summary = (
            t.ngettext(
                "🤖 Only AI players were left in the game, so they played the last move at once.",
                "🤖 Only AI players were left in the game, so they played the last {n} moves at once.",
                moves,
            ).format(n=moves)
            if current.status != RUNNING
            else None
        )
        return self.renderer.render_match(current, room, events=(), privates=False, summary=summary)

    def _remind(self, match: MatchRec, room: RoomRec, t: Translator, seats: Sequence[int]) -> list[Outbound]:
        """People who keep the table waiting are reminded once (the bot moves for them later)."""
        out: list[Outbound] = []
        for seat in seats:
            rec = match.seats[seat]
            if rec.user_id is None:
                continue
            user = self.repo.user_by_id(rec.user_id)
            tu = i18n.translator(self.play.renderer.people.lang(user, room))
            out.append(
                Outbound(
                    room.platform,
                    tu.gettext("⏰ The others are waiting for your move, {name}.").format(
                        name=seat_names(match.seats)[rec.seat]
                    ),
                    user_id=user.ext_id,
                    lang=tu.lang,
                )
            )
        self.schedule.reminded(match, seats)  # once per turn: a step does not bring another one
        shown = seat_names(match.seats)
        names = t.format_list([shown[s] for s in seats])
        out.append(
            Outbound(
                room.platform,
                t.gettext("⏰ Waiting for {name}.").format(name=names),
                chat_id=room.ext_id,
                lang=t.lang,
            )
        )
        return out

    def _act_for_idle(
        self, match: MatchRec, room: RoomRec, t: Translator, seats: Sequence[int], quick: bool
    ) -> list[Outbound]:
        """The deadline passed: each waited-for seat makes the game's idle move (or its AI's move).

        The bot stands in for a whole turn (issue #27): every step of it until the turn passes, and
        the group hears what it did, from the public events of those steps. After a quick window
        only the table changes: it says that the time to answer is up (issue #28), and naming who
        could have answered might tell what they hold."""
        out: list[Outbound] = []
        note = t.gettext("⏰ The time to answer is up.") if quick else None
        current: MatchRec | None = match
        for seat in seats:
            if current is None or current.status != RUNNING or current.state is None:
                break
            if not self.decoded.turn(current, seat).to_act or current.seats[seat].user_id is None:
                continue
            began = turns.record(current.meta.get(turns.META), seat)
            ply = int(current.state.get("ply", 0))
            steps: list[Outbound] = []
            playing: MatchRec = current
            for _ in range(STANDIN_STEPS):
                turn = self.decoded.turn(playing, seat)
                steps.extend(
                    self.play.apply(playing, seat, self._idle_choice(playing, turn), turn.state, note)
                )
                current = self.repo.match(playing.id)
                if quick or current is None or not self._turn_goes_on(current, seat, began):
                    break
                playing = current
            if not quick and current is not None and not (began is not None and began.get("s")):
                out.append(self._stood_in(current, t, seat, ply))
                if began is not None:
                    # a reaction window of others may interrupt the turn: the bot finishes it when
                    # the window has passed, and the group has heard already that it stands in
                    self._note_stood_in(current, seat, began)
            out.extend(steps)
        return out

    def _note_stood_in(self, match: MatchRec, seat: int, began: Any) -> None:
        records = {k: dict(v) for k, v in (match.meta.get(turns.META) or {}).items()}
        rec = records.get(str(seat))
        if rec is not None and rec.get("open") and rec.get("v") == began.get("v"):
            rec["s"] = True
            self.repo.set_meta(match.id, turns.META, records)

    def _idle_choice(self, match: MatchRec, turn: Turn) -> Any:
        """The game's move for an idle seat (the engine's action), else its default AI's from the
        seat's own view."""
        engine = self.games[match.game]
        assert turn.seat is not None
        chosen = self.uis[match.game].idle_action(turn.notations, turn.view)
        if chosen is None:
            return engine.ai_action(
                engine.default_ai, turn.view, turn.legal, engine.ai_rng(turn.state, turn.seat)
            )
        action = turn.legal_action(chosen)
        return action if action is not None else engine.parse_notation(chosen)  # the engine refuses it

    def _turn_goes_on(self, match: MatchRec, seat: int, began: Any) -> bool:
        """Whether the seat still acts in the turn the bot stood in for."""
        if match.status != RUNNING or match.state is None or began is None:
            return False
        if seat not in self.games[match.game].to_act(self.decoded.state(match)):
            return False
        now = turns.record(match.meta.get(turns.META), seat)
        return now is not None and bool(now.get("open")) and now.get("v") == began.get("v")

    def _stood_in(self, match: MatchRec, t: Translator, seat: int, ply: int) -> Outbound:
        """The group's notice of a turn the bot played for an idle person: what it did, in the public
        events' own words ("Matti nosti kortin.")."""
        room = self.repo.room_by_id(match.room_id)
        ui = self.uis[match.game]
        names = seat_names(match.seats)
        ctx = RenderContext(t, names, None, match.options)
        lines = [
            line
            for step in self.decoded.public_events_since(match, ply)
            for line in ui.render_events(step, ctx)
        ]
        name = names[seat]
        if lines:
            text = "\n".join(
                [
                    t.gettext("⏰ {name} did not make it in time, so I played the turn for them:").format(
                        name=name
                    )
                ]
                + [f"· {line}" for line in lines]
            )
        else:
            text = t.gettext("⏰ {name} did not answer in time, so I made the move for them.").format(
                name=name
            )
        return Outbound(room.platform, text, chat_id=room.ext_id, lang=t.lang)

    # --- stepping AI seats and ticking without the runtime (benchmarks and older tests) -------------

    def step_ai(self, match_id: int) -> list[Outbound]:
        """Make one AI move in the match if an AI seat is to act; ``[]`` otherwise (the runtime
        performs AI_TURN deadlines through ``run_due``)."""
        try:
            with self.repo.unit():
                match = self.repo.match(match_id)
                if match is None or match.status != RUNNING or match.state is None:
                    return []
                outs = self._ai_move(match)
                outs = self.outbox.commit(outs)
            return outs
        except Conflict:
            return []

    def run_ai(self, match_id: int, limit: int = 100_000) -> list[Outbound]:
        """Let AI seats move until a person must act or the game ends."""
        out: list[Outbound] = []
        for _ in range(limit):
            step = self.step_ai(match_id)
            if not step:
                break
            out.extend(step)
        return out

    def ai_pending(self) -> list[int]:
        """Matches with an AI move due (the runtime sleeps until ``next_due`` instead)."""
        self.recover()
        now = self.clock()
        due = self.repo.next_due()
        if due is None or due > now:
            return []
        return [
            mid
            for mid, _ in self.repo.running_versions()
            if any(d.kind == AI_TURN and d.due <= now for d in self.repo.deadlines(mid))
        ]

    def tick(self) -> list[Outbound]:
        """Reminders and moves for idle seats that are due."""
        return self.run_due()
