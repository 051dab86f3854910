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

from chatbot.core import i18n
from chatbot.core.decoded import Decoded
from chatbot.core.i18n import Translator
from chatbot.core.outbox import Outbox
from chatbot.core.play import Play
from chatbot.core.ports import (
    AI_TURN,
    IDLE_MOVE,
    REMIND,
    RUNNING,
    WINDOW,
    Deadline,
    GameUI,
    MatchRec,
    Repository,
    RoomRec,
    StorageUnavailable,
)
from chatbot.core.schedule import Schedule
from chatbot.core.types import Outbound
from chatbot.core.usecase import Conflict, CoreSettings
from engines.contract import Engine

log = logging.getLogger(__name__)

#: seconds until the runtime tries again while the database is unavailable
RETRY_WHEN_DOWN = 5.0
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
        quick = self.uis[match.game].deadline(engine.view(state, None))
        out: list[Outbound] = []
        current: MatchRec | None = match
        for seat in engine.to_act(state):
            if current is None or current.status != RUNNING or current.state is None:
                break
            rec = current.seats[seat]
            if rec.ai is None:
                continue
            state = self.decoded.state(current)
            if seat not in engine.to_act(state):
                continue
            legal = engine.legal_actions(state, seat)
            action = engine.ai_action(rec.ai, engine.view(state, seat), legal, engine.ai_rng(state, seat))
            out.extend(self.play.apply(current, seat, engine.notation(action), state))
            if not quick:
                break  # one move per deadline; every AI seat of a reaction window answers now
            current = self.repo.match(current.id)
        return out

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
                    tu.gettext("⏰ The others are waiting for your move, {name}.").format(name=rec.name),
                    user_id=user.ext_id,
                    lang=tu.lang,
                )
            )
        names = t.format_list([match.seats[s].name for s in seats])
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

        After a quick window the group hears only that time is up: naming who could have answered
        might tell what they hold."""
        out: list[Outbound] = []
        if quick:
            out.append(
                Outbound(
                    room.platform, t.gettext("⏰ The time to answer is up."), chat_id=room.ext_id, lang=t.lang
                )
            )
        current: MatchRec | None = match
        for seat in seats:
            if current is None or current.status != RUNNING or current.state is None:
                break
            engine = self.games[current.game]
            state = self.decoded.state(current)
            if seat not in engine.to_act(state) or current.seats[seat].user_id is None:
                continue
            legal = engine.legal_actions(state, seat)
            view = engine.view(state, seat)
            chosen = self.uis[current.game].idle_action(tuple(engine.notation(a) for a in legal), view)
            if chosen is None:
                chosen = engine.notation(
                    engine.ai_action(engine.default_ai, view, legal, engine.ai_rng(state, seat))
                )
            if not quick:
                out.append(
                    Outbound(
                        room.platform,
                        t.gettext("⏰ {name} did not answer in time, so I made the move for them.").format(
                            name=current.seats[seat].name
                        ),
                        chat_id=room.ext_id,
                        lang=t.lang,
                    )
                )
            out.extend(self.play.apply(current, seat, chosen, state))
            current = self.repo.match(current.id)
        return out

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
