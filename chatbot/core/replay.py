"""Replays of finished matches (issue #16): "näytä peli 12" / "replay 12" steps through a finished
match from its action log, computed by the engine from ``(options, seed, actions)``: one message
edited in place, with the public table and what happened at each step. The match is over, so what
each seat saw in private is shown too; a running match is never replayed. The replay ends in the
stored final state, or says where and how the log and the stored state part.

A replay message is a session in the key/value store: ``replay`` ``<match>:<n>`` holds the chat it
was posted in and the step it shows. Its buttons carry ``<match>:<target step>:~<n>``, so a press
moves only that message, only in its own chat, and pressing an old button again does no harm; the
history's buttons carry ``<match>:0:~0`` (a new replay, where the history was shown). Typed step words
("seuraava", "edellinen", "alkuun", "loppuun") move the chat's latest replay, unless the speaker plays
a running game there (the same words are moves in several games).
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from chatbot.core import i18n
from chatbot.core.access import ButtonData
from chatbot.core.commands import Command
from chatbot.core.decoded import Finder
from chatbot.core.gameui import GameUI, RenderContext
from chatbot.core.i18n import Translator
from chatbot.core.people import seat_names
from chatbot.core.ports import LOBBY, OVER, RUNNING, MatchRec, Repository, chat_of
from chatbot.core.types import Button, Inbound, Outbound
from chatbot.core.usecase import CoreSettings, Speaker, not_here, reply
from chatbot.core.views import Views
from engines.contract import Engine, Event

log = logging.getLogger(__name__)

#: the notation of a replay button starts with this: "<match>:<step>:~<n>"
REPLAY_MARK = "~"
#: kv namespaces: a replay message's session, the count of replays of a match, a chat's latest replay
NS_REPLAY, NS_REPLAY_SEQ, NS_REPLAY_LAST = "replay", "replay-seq", "replay-last"
#: computed replays kept in memory (a replay is stepped through press by press)
REPLAY_MEMORY = 8
#: the longest text of a replay message (Telegram's limit is 4096 UTF-16 units; emoji take two)
REPLAY_TEXT_LIMIT = 3500
#: typed words that step the chat's latest replay ("seuraava", "next"…; see commands.py): where to
REPLAY_STEPS = {
    "replay_next": "next",
    "replay_previous": "previous",
    "replay_end": "end",
    "replay_start": "start",
}
_NUMBER = re.compile(r"#?(\d{1,9})\.?")


@dataclass(frozen=True, slots=True)
class Replay:
    """A finished match recomputed by its engine: ``steps[k]`` is the state after ``k`` actions
    and the events of the k-th action (the start events at 0). ``problem`` says where the log and
    the stored final state part: ``("illegal", ply)``, ``("differs", ply)`` or None."""

    steps: tuple[tuple[Any, tuple[Event, ...]], ...]
    problem: tuple[str, int] | None = None
    #: the seat and notation of the k-th action at ``moves[k - 1]``
    moves: tuple[tuple[int, str], ...] = ()

    @property
    def last(self) -> int:
        return len(self.steps) - 1


class Replays:
    """The replay use cases: a finished match opened, stepped by its buttons or by typed words."""

    def __init__(
        self,
        repo: Repository,
        games: dict[str, Engine],
        uis: dict[str, GameUI],
        finder: Finder,
        views: Views,
        settings: CoreSettings | None = None,
    ) -> None:
        self.settings = settings or CoreSettings()
        self.repo = repo
        self.games = games
        self.uis = uis
        self.finder = finder
        self.views = views
        #: computed replays by (match, version), the latest few
        self._replays: OrderedDict[tuple[int, int], Replay] = OrderedDict()
        self._replays_lock = threading.Lock()

    def forget(self) -> None:
        """Compute every replay again from the log (after the log was changed behind the core's back)."""
        with self._replays_lock:
            self._replays.clear()

    # --- replay --------------------------------------------------------------------------------
    def command(self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command) -> list[Outbound] | None:
        number = next((int(m[1]) for a in cmd.args if (m := _NUMBER.fullmatch(a))), None)
        if number is None:
            if cmd.args:
                return [
                    reply(
                        msg,
                        t,
                        t.gettext("Which game? Write its number, e.g. “replay 12”; “history” lists them."),
                    )
                ]
            current = self.finder.context_match(msg, sp)
            if current is not None and current.status in {LOBBY, RUNNING}:
                return self.views.status(msg, sp, t)  # "näytä peli" during a game: the table
            latest = (
                self.repo.finished_matches(room_id=sp.room.id, limit=1)
                if sp.room is not None
                else self.repo.finished_matches(user_id=sp.user.id, limit=1)
            )
            if not latest:
                text = (
                    t.gettext("No game has been played to the end in this group yet. Start one with “new”.")
                    if sp.room is not None
                    else t.gettext("You have not played a game to the end yet.")
                )
                return [reply(msg, t, text)]
            number = latest[0].id
        match = self.repo.match(number)
        if match is None or not self._visible(match, sp):
            return [
                reply(
                    msg,
                    t,
                    t.gettext("I found no game number {id} here. “history” lists the finished games.").format(
                        id=number
                    ),
                )
            ]
        if match.status in {LOBBY, RUNNING}:
            return [
                reply(
                    msg,
                    t,
                    t.gettext(
                        "Game {id} is still going on; its replay can be watched once it has ended."
                    ).format(id=match.id),
                )
            ]
        if match.status != OVER:
            return [
                reply(
                    msg,
                    t,
                    t.gettext("Game {id} was cancelled before its end, so it has no replay.").format(
                        id=match.id
                    ),
                )
            ]
        return [self._open_replay(msg, t, match)]

    def _visible(self, match: MatchRec, sp: Speaker) -> bool:
        """Whether the speaker may see this match here: in a group, the group's own matches (another
        group's match is not even said to exist); in private, a match they played in."""
        if match.game not in self.games:
            return False
        if sp.room is not None:
            return match.room_id == sp.room.id
        return any(s.user_id == sp.user.id for s in match.seats) or _left_owner(match, sp.user.id)

    def _open_replay(self, msg: Inbound, t: Translator, match: MatchRec) -> Outbound:
        """A new replay message of a finished match in the sender's chat, at its start."""
        probe = reply(msg, t, "")
        chat = chat_of(probe)
        n = int(self.repo.kv_get(NS_REPLAY_SEQ, str(match.id)) or 0) + 1
        self.repo.kv_set(NS_REPLAY_SEQ, str(match.id), n)
        session = {"chat": chat, "step": 0, "lang": t.lang}
        self.repo.kv_set(NS_REPLAY, f"{match.id}:{n}", session)
        self.repo.kv_set(NS_REPLAY_LAST, chat, f"{match.id}:{n}")
        return self._replay_message(probe, match, n, 0, t)

    def typed(self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command) -> list[Outbound] | None:
        """ "seuraava" / "next" and the like step the chat's latest replay, unless the speaker is in a
        game now (the same words are moves of several games) or the words say more."""
        if cmd.args:
            return None
        current = self.finder.context_match(msg, sp)
        if (
            current is not None
            and current.status == RUNNING
            and any(s.user_id == sp.user.id for s in current.seats)
        ):
            return None
        probe = reply(msg, t, "")
        chat = chat_of(probe)
        latest = self.repo.kv_get(NS_REPLAY_LAST, chat)
        if not isinstance(latest, str) or ":" not in latest:
            return None
        match_id, _, n = latest.partition(":")
        session = self.repo.kv_get(NS_REPLAY, latest)
        match = self.repo.match(int(match_id))
        if not isinstance(session, dict) or match is None or match.status != OVER:
            return None
        replay = self._replay_of(match)
        step = int(session.get("step", 0))
        target = {"next": step + 1, "previous": step - 1, "end": replay.last, "start": 0}[
            REPLAY_STEPS[cmd.name]
        ]
        return self._replay_goto(probe, match, int(n), target, session, t)

    def press(self, msg: Inbound, sp: Speaker, t: Translator, data: ButtonData) -> list[Outbound]:
        """A replay button: only that replay message moves, and only in the chat it was posted in."""
        n_text = data.notation[len(REPLAY_MARK) :]
        if not n_text.isascii() or not n_text.isdigit() or len(n_text) > 9:
            return not_here(msg, t)
        if int(n_text) == 0:  # a button of the history: a new replay of that match, here
            listed = self.repo.match(data.match_id)
            if listed is None or listed.status != OVER or not self._visible(listed, sp):
                return not_here(msg, t)
            return [self._open_replay(msg, t, listed)]
        key = f"{data.match_id}:{int(n_text)}"
        session = self.repo.kv_get(NS_REPLAY, key)
        probe = reply(msg, t, "", private=msg.private)
        if not isinstance(session, dict) or session.get("chat") != chat_of(probe):
            return not_here(msg, t)
        match = self.repo.match(data.match_id)
        if match is None or match.status != OVER or match.game not in self.games:
            return not_here(msg, t)
        lang = i18n.translator(str(session.get("lang") or t.lang))
        return self._replay_goto(probe, match, int(n_text), data.version, session, lang)

    def _replay_goto(
        self, probe: Outbound, match: MatchRec, n: int, target: int, session: dict[str, Any], t: Translator
    ) -> list[Outbound]:
        replay = self._replay_of(match)
        step = max(0, min(target, replay.last))
        if step != session.get("step"):
            self.repo.kv_set(NS_REPLAY, f"{match.id}:{n}", {**session, "step": step})
        self.repo.kv_set(NS_REPLAY_LAST, chat_of(probe), f"{match.id}:{n}")
        return [self._replay_message(probe, match, n, step, t)]

    def replay_of(self, match: MatchRec) -> Replay:
        """The finished match recomputed (the web view steps through the same replay)."""
        return self._replay_of(match)

    def _replay_of(self, match: MatchRec) -> Replay:
        """The match recomputed from its options, seed and action log (kept for the next steps)."""
        key = (match.id, match.version)
        with self._replays_lock:
            found = self._replays.get(key)
            if found is not None:
                self._replays.move_to_end(key)
                return found
        replay = self._compute_replay(match)
        with self._replays_lock:
            self._replays[key] = replay
            while len(self._replays) > REPLAY_MEMORY:
                self._replays.popitem(last=False)
        return replay

    def _compute_replay(self, match: MatchRec) -> Replay:
        engine = self.games[match.game]
        try:
            state = engine.new_game(len(match.seats), match.seed, engine.options_from_dict(match.options))
            steps: list[tuple[Any, tuple[Event, ...]]] = [(state, tuple(engine.start_events(state)))]
        except Exception:
            log.exception("match %s cannot be set up again", match.id)
            return Replay(steps=(), problem=("illegal", 0))
        moves: list[tuple[int, str]] = []
        for rec in self.repo.actions(match.id):
            try:
                state, events = engine.apply(state, rec.seat, engine.parse_notation(rec.notation))
            except Exception:  # an action the engine refuses now: the log and the rules part here
                log.warning(
                    "match %s: the logged action %s (%r) does not replay", match.id, rec.ply, rec.notation
                )
                return Replay(steps=tuple(steps), problem=("illegal", len(steps)), moves=tuple(moves))
            steps.append((state, tuple(events)))
            moves.append((rec.seat, rec.notation))
        stored = match.state
        if stored is not None and json.loads(json.dumps(engine.dump(state))) != stored:
            log.warning("match %s: the replay does not end in the stored state", match.id)
            return Replay(steps=tuple(steps), problem=("differs", len(steps) - 1), moves=tuple(moves))
        return Replay(steps=tuple(steps), moves=tuple(moves))

    def _replay_message(self, probe: Outbound, match: MatchRec, n: int, step: int, t: Translator) -> Outbound:
        engine, ui = self.games[match.game], self.uis[match.game]
        replay = self._replay_of(match)
        names = seat_names(match.seats)
        ctx = RenderContext(t, names, None, match.options)
        if not replay.steps:
            text = t.gettext("I cannot replay game {id}: its rules no longer set it up the same way.").format(
                id=match.id
            )
            return Outbound(
                probe.platform,
                text,
                chat_id=probe.chat_id,
                user_id=probe.user_id,
                key=f"replay:{match.id}:{n}",
                lang=t.lang,
            )
        state, events = replay.steps[step]
        where = (
            t.gettext("starting position")
            if step == 0
            else t.gettext("move {step} of {last}").format(
                step=t.format_number(step), last=t.format_number(replay.last)
            )
        )
        lines = [
            t.gettext("🎬 Replay of game {id}: {game} – {where}").format(
                id=match.id, game=ui.title(t), where=where
            )
        ]
        public = ui.render_events([e for e in events if e.public], ctx)
        if not public and 0 < step <= len(replay.moves):
            # a move no public line tells of (ending a turn): its button's label says what it was
            seat, notation = replay.moves[step - 1]
            before = engine.view(replay.steps[step - 1][0], seat)
            label = ui.action_label(notation, before, RenderContext(t, names, seat, match.options))
            public = [t.gettext("{name}: {action}").format(name=ctx.name(seat), action=label)]
        news = [f"▸ {x}" for x in public]
        # the match is over: what each seat saw in private may be shown now
        hidden = []
        for seat in range(len(names)):
            mine = [e for e in events if e.to is not None and seat in e.to]
            if mine:
                seat_ctx = RenderContext(t, names, seat, match.options)
                for x in ui.render_events(mine, seat_ctx):
                    hidden.append(t.gettext("🔒 {name}: {line}").format(name=names[seat], line=x))
        body = ui.render_table(engine.view(state, None), ctx)
        # one message that is edited, never split: what happened is cut before the table is
        room = REPLAY_TEXT_LIMIT - len(lines[0]) - len(body) - 200
        if len("\n".join(news + hidden)) > room:
            hidden = []
        if len("\n".join(news)) > room:  # the latest lines of what happened, after a "…"
            kept: list[str] = []
            for line in reversed(news):
                if len("\n".join([line, *kept])) > room - 4:
                    break
                kept.insert(0, line)
            news = ["▸ …", *kept]
        lines += [*news, *hidden, "", body]
        if replay.problem is not None:
            kind, ply = replay.problem
            if kind == "illegal":
                warning = t.gettext(
                    "⚠️ The stored log cannot be replayed past move {ply}: the rules refuse the next move."
                ).format(ply=t.format_number(ply - 1))
            else:
                warning = t.gettext(
                    "⚠️ The replay does not end in the stored final position: the log and the stored game differ."
                )
            lines += ["", warning]
        # the same four buttons at every step, so that they (and Matrix's numbered reactions) stay put
        data = f"{REPLAY_MARK}{n}"
        rows = (
            (
                Button(t.gettext("◀ Previous"), f"{match.id}:{max(0, step - 1)}:{data}"),
                Button(t.gettext("Next ▶"), f"{match.id}:{min(replay.last, step + 1)}:{data}"),
            ),
            (
                Button(t.gettext("⏮ From the start"), f"{match.id}:0:{data}"),
                Button(t.gettext("To the end ⏭"), f"{match.id}:{replay.last}:{data}"),
            ),
        )
        web = self.settings.web_row(
            probe.platform, match.id, probe.user_id, t.gettext("🌐 Watch in the browser")
        )
        return Outbound(
            probe.platform,
            "\n".join(lines),
            chat_id=probe.chat_id,
            user_id=probe.user_id,
            buttons=(*rows, tuple(web)) if web else rows,
            key=f"replay:{match.id}:{n}",
            lang=t.lang,
        )


def _left_owner(match: MatchRec, user_id: int) -> bool:
    """Whether this person played a seat of the match that an AI finished (they left or were away)."""
    owners = {**(match.meta.get("left") or {}), **(match.meta.get("away") or {})}
    return user_id in owners.values()
