"""Statistics, history and replay of finished matches (issue #16). A part of
:class:`~chatbot.core.service.BotCore`, as timers, roles and groups are.

* A match's result (places, scores, winners and each game's own measure per seat, through
  :meth:`GameUI.result_figures`) is stored with its last action. A match that finished before
  results were stored gets its result from its final state the first time it is needed.
* "tilastot" / "stats" in a group: per game, the matches played and won by each person of the group,
  the game's own measure, and a leaderboard; AI seats apart. "omat tilastot" / "my stats": one
  person's figures over every group and game, in private.
* "historia" / "history": the room's latest finished matches with their ids and dates (the day in
  the room's time zone), each with a button that replays it (in private: the asker's own matches).
* "näytä peli 12" / "replay 12": a finished match stepped through from its action log, computed by
  the engine from ``(options, seed, actions)``: one message edited in place, with the public table
  and what happened at each step. The match is over, so what each seat saw in private is shown too;
  a running match is never replayed. The replay ends in the stored final state, or says where and
  how the log and the stored state part.

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
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from babel.dates import format_date

from chatbot.core import i18n
from chatbot.core.access import ButtonData
from chatbot.core.commands import Command
from chatbot.core.i18n import Translator
from chatbot.core.ports import (
    LOBBY,
    OVER,
    RUNNING,
    FinishedRec,
    MatchRec,
    RenderContext,
    UserRec,
    chat_of,
)
from chatbot.core.types import Button, Inbound, Outbound
from chatbot.core.usecase import Part, Speaker
from engines.codec import decode, encode
from engines.contract import Engine, Event

log = logging.getLogger(__name__)

#: the notation of a replay button starts with this: "<match>:<step>:~<n>"
REPLAY_MARK = "~"
#: kv namespaces: a replay message's session, the count of replays of a match, a chat's latest replay
NS_REPLAY, NS_REPLAY_SEQ, NS_REPLAY_LAST = "replay", "replay-seq", "replay-last"
#: finished matches listed by "historia"
HISTORY_SIZE = 10
#: people on the leaderboard of "tilastot"
LEADERBOARD_SIZE = 10
#: computed replays kept in memory (a replay is stepped through press by press)
REPLAY_MEMORY = 8
#: the longest text of a replay message (Telegram's limit is 4096 UTF-16 units; emoji take two)
REPLAY_TEXT_LIMIT = 3500
#: version of the stored result's layout
RESULT_VERSION = 1

#: typed words that step the chat's latest replay ("seuraava", "next"…; see commands.py): where to
REPLAY_STEPS = {
    "replay_next": "next",
    "replay_previous": "previous",
    "replay_end": "end",
    "replay_start": "start",
}
#: the commands of this part
RECORD_COMMANDS = frozenset({"stats", "my_stats", "history", "replay", *REPLAY_STEPS})
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


@dataclass
class _Tally:
    """One player's (or the AI seats') matches of one game."""

    name: str
    played: int = 0
    won: int = 0
    figures: list[dict[str, Any]] = field(default_factory=list)
    wins: list[dict[str, Any]] = field(default_factory=list)


class Records(Part):
    """The statistics, history and replay use cases of :class:`~chatbot.core.service.BotCore`."""

    _replays: OrderedDict[tuple[int, int], Replay]
    _replays_lock: threading.Lock

    # ------------------------------------------------------------------------------------------
    # results

    def _store_result(self, match: MatchRec, state: Any) -> None:
        """The result of a match that has just ended, in the transaction of its last action."""
        result = self._result_from(match, state)
        if result is not None:
            self.repo.set_result(match.id, self.clock(), result)

    def _result_from(self, match: MatchRec, state: Any) -> dict[str, Any] | None:
        engine, ui = self.games.get(match.game), self.uis.get(match.game)
        if engine is None or ui is None:
            return None
        outcome = engine.outcome(state)
        if outcome is None:
            return None
        try:
            figures = ui.result_figures(engine.view(state, None), outcome, self._public_log(match, engine))
        except Exception:  # a game's measure must not stop a match from ending
            log.exception("no figures for match %s", match.id)
            figures = []
        return {
            "v": RESULT_VERSION,
            "winners": list(outcome.winners),
            # a person's seat that an AI finished (they left, or were removed or away): the AI's
            "stood_in": sorted(_stood_in(match)),
            "ranks": list(outcome.ranks),
            "scores": list(outcome.scores),
            "low_wins": bool(outcome.low_wins),
            "figures": json.loads(json.dumps(encode(list(figures)))),
        }

    def _public_log(self, match: MatchRec, engine: Engine) -> list[Event]:
        """The public events of every stored action of the match, in order."""
        types = {**engine.types, "Event": Event}
        out: list[Event] = []
        for rec in self.repo.actions(match.id):
            for raw in rec.events:
                event = decode(raw, types)
                if isinstance(event, Event) and event.public:
                    out.append(event)
        return out

    def _result_of(self, fin: FinishedRec) -> dict[str, Any] | None:
        """The stored result, or (a match that ended before results were stored) the one made now
        from its final state, and stored."""
        if fin.result is not None:
            return fin.result
        full = self.repo.match(fin.id)
        engine = self.games.get(fin.game)
        if full is None or full.state is None or engine is None:
            return None
        try:
            result = self._result_from(full, engine.load(full.state))
        except Exception:  # an old snapshot the engine cannot read any more
            log.exception("cannot read the final state of match %s", fin.id)
            return None
        if result is not None:
            self.repo.set_result(fin.id, fin.finished_at, result)
        return result

    def _finished(
        self, room_id: int | None = None, user_id: int | None = None
    ) -> list[tuple[FinishedRec, dict]]:
        out = []
        for fin in self.repo.finished_matches(room_id=room_id, user_id=user_id):
            if fin.game not in self.uis:
                continue
            result = self._result_of(fin)
            if result is not None:
                out.append((fin, result))
        return out

    # ------------------------------------------------------------------------------------------
    # commands

    def _records_command(
        self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command
    ) -> list[Outbound] | None:
        """None: not meant for this part after all (a step word while a game of the speaker runs)."""
        if cmd.name == "stats":
            if sp.room is None:
                return [self._reply(msg, t, self._my_stats_text(sp.user, t))]
            return [self._reply(msg, t, self._group_stats_text(sp.room.id, t))]
        if cmd.name == "my_stats":
            text = self._my_stats_text(sp.user, t)
            if msg.private:
                return [self._reply(msg, t, text)]
            note = t.gettext("I sent your statistics to you in private.")
            return [self._reply(msg, t, text, private=True), self._reply(msg, t, note)]
        if cmd.name == "history":
            text, listed = self._history_text(msg, sp, t)
            buttons = [Button(f"🎬 {i}", f"{i}:0:{REPLAY_MARK}0") for i in listed]
            return [self._reply(msg, t, text, [buttons[:5], buttons[5:]])]
        if cmd.name == "replay":
            return self._replay_command(msg, sp, t, cmd)
        if cmd.name in REPLAY_STEPS:
            return self._replay_typed(msg, sp, t, cmd)
        return None

    # --- statistics ----------------------------------------------------------------------------
    def _tallies(
        self, finished: Sequence[tuple[FinishedRec, dict]], only_user: int | None = None
    ) -> tuple[dict[str, dict[int, _Tally]], dict[str, _Tally]]:
        """Per game: each person's tally (by user id) and the AI seats' tally."""
        people: dict[str, dict[int, _Tally]] = {}
        ais: dict[str, _Tally] = {}
        names: dict[int, str] = {}
        for fin, result in finished:
            game = fin.game
            winners = set(result.get("winners") or ())
            figures = list(result.get("figures") or ())
            seats_of: dict[int | None, list[int]] = {}
            for seat in fin.seats:
                seats_of.setdefault(seat.user_id, []).append(seat.seat)
            for user_id, seats in seats_of.items():
                if user_id is None:
                    tally = ais.setdefault(game, _Tally(""))
                else:
                    if only_user is not None and user_id != only_user:
                        continue
                    if user_id not in names:
                        names[user_id] = self.repo.user_by_id(user_id).name
                    tally = people.setdefault(game, {}).setdefault(user_id, _Tally(names[user_id]))
                tally.played += 1
                tally.won += 1 if winners & set(seats) else 0
                for s in seats:
                    if s < len(figures) and isinstance(figures[s], dict):
                        tally.figures.append(figures[s])
                        if s in winners:
                            tally.wins.append(figures[s])
        return people, ais

    def _figures_line(self, tally: _Tally, game: str, t: Translator) -> str:
        parts = [
            t.ngettext("{n} game", "{n} games", tally.played).format(n=t.format_number(tally.played)),
            t.ngettext("{n} win", "{n} wins", tally.won).format(n=t.format_number(tally.won)),
        ]
        try:
            measure = self.uis[game].figures_text(tally.figures, tally.wins, t)
        except Exception:  # figures of an older layout: the counts still stand
            log.exception("cannot describe the figures of %s", game)
            measure = None
        if measure:
            parts.append(measure)
        return ", ".join(parts)

    def _group_stats_text(self, room_id: int, t: Translator) -> str:
        finished = self._finished(room_id=room_id)
        if not finished:
            return t.gettext("No game has been played to the end in this group yet. Start one with “new”.")
        people, ais = self._tallies(finished)
        lines = [
            t.ngettext(
                "📊 Statistics of this group: {n} finished game",
                "📊 Statistics of this group: {n} finished games",
                len(finished),
            ).format(n=t.format_number(len(finished)))
        ]
        total: dict[int, _Tally] = {}
        for tallies in people.values():
            for user_id, tally in tallies.items():
                sum_ = total.setdefault(user_id, _Tally(tally.name))
                sum_.played += tally.played
                sum_.won += tally.won
        if total:
            lines += ["", t.gettext("🏅 Most wins")]
            for rank, tally in _ranked(list(total.values()))[:LEADERBOARD_SIZE]:
                lines.append(
                    t.gettext("{rank}. {name} – {wins} ({games})").format(
                        rank=rank,
                        name=tally.name,
                        wins=t.ngettext("{n} win", "{n} wins", tally.won).format(
                            n=t.format_number(tally.won)
                        ),
                        games=t.ngettext("{n} game", "{n} games", tally.played).format(
                            n=t.format_number(tally.played)
                        ),
                    )
                )
        for game in self._game_order(people, ais):
            ui = self.uis[game]
            count = sum(1 for fin, _r in finished if fin.game == game)
            lines += [
                "",
                t.ngettext("{game} – {n} game", "{game} – {n} games", count).format(
                    game=ui.title(t), n=t.format_number(count)
                ),
            ]
            ranked = _ranked(list(people.get(game, {}).values()))
            for rank, tally in ranked[:LEADERBOARD_SIZE]:
                lines.append(
                    t.gettext("{rank}. {name}: {figures}").format(
                        rank=rank, name=tally.name, figures=self._figures_line(tally, game, t)
                    )
                )
            if len(ranked) > LEADERBOARD_SIZE:
                more = len(ranked) - LEADERBOARD_SIZE
                lines.append(
                    t.ngettext("… and {n} more player", "… and {n} more players", more).format(
                        n=t.format_number(more)
                    )
                )
            if game in ais:
                lines.append(
                    t.gettext("🤖 AI players: {figures}").format(
                        figures=self._figures_line(ais[game], game, t)
                    )
                )
        lines += ["", t.gettext("Your own figures from every group: “my stats”.")]
        return "\n".join(lines)

    def _game_order(self, people: dict[str, Any], ais: dict[str, Any]) -> list[str]:
        """The games in the registry's order (the same order as the list of games)."""
        return [g for g in self.uis if g in people or g in ais]

    def _my_stats_text(self, user: UserRec, t: Translator) -> str:
        finished = self._finished(user_id=user.id)
        if not finished:
            return t.gettext("You have not played a game to the end yet.")
        people, _ais = self._tallies(finished, only_user=user.id)
        played = sum(tallies[user.id].played for tallies in people.values() if user.id in tallies)
        won = sum(tallies[user.id].won for tallies in people.values() if user.id in tallies)
        groups = len({fin.room_id for fin, _r in finished})
        lines = [
            t.gettext("📊 Your statistics, {name}: {games}, {wins} ({groups})").format(
                name=user.name,
                games=t.ngettext("{n} game", "{n} games", played).format(n=t.format_number(played)),
                wins=t.ngettext("{n} win", "{n} wins", won).format(n=t.format_number(won)),
                groups=t.ngettext("in {n} group", "in {n} groups", groups).format(n=t.format_number(groups)),
            )
        ]
        for game in self._game_order(people, {}):
            tally = people[game].get(user.id)
            if tally is not None:
                lines.append(
                    t.gettext("{game}: {figures}").format(
                        game=self.uis[game].title(t), figures=self._figures_line(tally, game, t)
                    )
                )
        return "\n".join(lines)

    # --- history -------------------------------------------------------------------------------
    def _history_text(self, msg: Inbound, sp: Speaker, t: Translator) -> tuple[str, list[int]]:
        """The text, and the ids of the matches it lists (each gets a button that replays it)."""
        if sp.room is not None:
            found = self.repo.finished_matches(room_id=sp.room.id, limit=HISTORY_SIZE)
            empty = t.gettext("No game has been played to the end in this group yet. Start one with “new”.")
            title = t.gettext("📜 The latest games of this group")
        else:
            found = self.repo.finished_matches(user_id=sp.user.id, limit=HISTORY_SIZE)
            empty = t.gettext("You have not played a game to the end yet.")
            title = t.gettext("📜 Your latest games")
        found = [f for f in found if f.game in self.uis]
        if not found:
            return empty, []
        lines = [title]
        for fin in found:
            result = self._result_of(fin) or {}
            names = [s.name for s in fin.seats]
            if "stood_in" in result:
                stood_in = set(result["stood_in"])
            else:  # a result stored before it said so
                full = self.repo.match(fin.id)
                stood_in = _stood_in(full) if full is not None else set()
            # as the statistics count it: a seat an AI finished is the AI's, win or lose
            names = [
                t.gettext("{name} (AI)").format(name=s.name)
                if s.user_id is None and s.seat in stood_in
                else s.name
                for s in fin.seats
            ]
            winners = [names[s] for s in result.get("winners") or () if 0 <= s < len(names)]
            when = format_date(
                datetime.fromtimestamp(fin.finished_at, self._zone(fin.room_id)),
                format="medium",
                locale=t.locale,
            )
            line = t.gettext("#{id} {game} · {date} · {players}").format(
                id=fin.id,
                game=self.uis[fin.game].title(t),
                date=when,
                players=t.format_list(names),
            )
            if winners:
                line += " · " + t.ngettext("winner: {names}", "winners: {names}", len(winners)).format(
                    names=t.format_list(winners)
                )
            lines.append(line)
        lines.append(
            t.gettext("Watch a game again with its button, or write “replay {id}”.").format(id=found[0].id)
        )
        return "\n".join(lines), [f.id for f in found]

    # --- replay --------------------------------------------------------------------------------
    def _replay_command(
        self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command
    ) -> list[Outbound] | None:
        number = next((int(m[1]) for a in cmd.args if (m := _NUMBER.fullmatch(a))), None)
        if number is None:
            if cmd.args:
                return [
                    self._reply(
                        msg,
                        t,
                        t.gettext("Which game? Write its number, e.g. “replay 12”; “history” lists them."),
                    )
                ]
            current = self._context_match(msg, sp)
            if current is not None and current.status in {LOBBY, RUNNING}:
                return self._status(msg, sp, t)  # "näytä peli" during a game: the table
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
                return [self._reply(msg, t, text)]
            number = latest[0].id
        match = self.repo.match(number)
        if match is None or not self._visible(match, sp):
            return [
                self._reply(
                    msg,
                    t,
                    t.gettext("I found no game number {id} here. “history” lists the finished games.").format(
                        id=number
                    ),
                )
            ]
        if match.status in {LOBBY, RUNNING}:
            return [
                self._reply(
                    msg,
                    t,
                    t.gettext(
                        "Game {id} is still going on; its replay can be watched once it has ended."
                    ).format(id=match.id),
                )
            ]
        if match.status != OVER:
            return [
                self._reply(
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
        probe = self._reply(msg, t, "")
        chat = chat_of(probe)
        n = int(self.repo.kv_get(NS_REPLAY_SEQ, str(match.id)) or 0) + 1
        self.repo.kv_set(NS_REPLAY_SEQ, str(match.id), n)
        session = {"chat": chat, "step": 0, "lang": t.lang}
        self.repo.kv_set(NS_REPLAY, f"{match.id}:{n}", session)
        self.repo.kv_set(NS_REPLAY_LAST, chat, f"{match.id}:{n}")
        return self._replay_message(probe, match, n, 0, t)

    def _replay_typed(self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command) -> list[Outbound] | None:
        """ "seuraava" / "next" and the like step the chat's latest replay, unless the speaker is in a
        game now (the same words are moves of several games) or the words say more."""
        if cmd.args:
            return None
        current = self._context_match(msg, sp)
        if (
            current is not None
            and current.status == RUNNING
            and any(s.user_id == sp.user.id for s in current.seats)
        ):
            return None
        probe = self._reply(msg, t, "")
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

    def _replay_press(self, msg: Inbound, sp: Speaker, t: Translator, data: ButtonData) -> list[Outbound]:
        """A replay button: only that replay message moves, and only in the chat it was posted in."""
        not_here = [
            self._reply(
                msg,
                t,
                t.gettext(
                    "That button does not work here. Use the buttons of the latest message in this chat."
                ),
                private=msg.private,
            )
        ]
        n_text = data.notation[len(REPLAY_MARK) :]
        if not n_text.isascii() or not n_text.isdigit() or len(n_text) > 9:
            return not_here
        if int(n_text) == 0:  # a button of the history: a new replay of that match, here
            listed = self.repo.match(data.match_id)
            if listed is None or listed.status != OVER or not self._visible(listed, sp):
                return not_here
            return [self._open_replay(msg, t, listed)]
        key = f"{data.match_id}:{int(n_text)}"
        session = self.repo.kv_get(NS_REPLAY, key)
        probe = self._reply(msg, t, "", private=msg.private)
        if not isinstance(session, dict) or session.get("chat") != chat_of(probe):
            return not_here
        match = self.repo.match(data.match_id)
        if match is None or match.status != OVER or match.game not in self.games:
            return not_here
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
        names = tuple(s.name for s in match.seats)
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
        return Outbound(
            probe.platform,
            "\n".join(lines),
            chat_id=probe.chat_id,
            user_id=probe.user_id,
            buttons=rows,
            key=f"replay:{match.id}:{n}",
            lang=t.lang,
        )


def _ranked(tallies: list[_Tally]) -> list[tuple[int, _Tally]]:
    """Most wins first, then the better share of wins, then the name; ties share a place."""

    def key(x: _Tally) -> tuple[int, float]:
        return (-x.won, -(x.won / x.played if x.played else 0.0))

    ordered = sorted(tallies, key=lambda x: (*key(x), x.name.casefold()))
    out: list[tuple[int, _Tally]] = []
    for i, tally in enumerate(ordered):
        rank = out[-1][0] if out and key(out[-1][1]) == key(tally) else i + 1
        out.append((rank, tally))
    return out


def _stood_in(match: MatchRec) -> set[int]:
    """The seats of people that an AI plays now (they left, or were removed or away)."""
    owners = {**(match.meta.get("left") or {}), **(match.meta.get("away") or {})}
    return {int(seat) for seat in owners if match.seats[int(seat)].user_id is None}


def _left_owner(match: MatchRec, user_id: int) -> bool:
    """Whether this person played a seat of the match that an AI finished (they left or were away)."""
    owners = {**(match.meta.get("left") or {}), **(match.meta.get("away") or {})}
    return user_id in owners.values()
