"""Statistics and history of finished matches (issue #16).

* A match's result (places, scores, winners and each game's own measure per seat, through
  :meth:`GameUI.result_figures`) is stored with its last action. A match that finished before
  results were stored gets its result from its final state the first time it is needed.
* "tilastot" / "stats" in a group: per game, the matches played and won by each person of the group,
  the game's own measure, and a leaderboard; AI seats apart. "omat tilastot" / "my stats": one
  person's figures over every group and game, in private.
* "historia" / "history": the room's latest finished matches with their ids and dates (the day in
  the room's time zone), each with a button that replays it (in private: the asker's own matches);
  replays are :mod:`chatbot.core.replay`'s.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from babel.dates import format_date

from chatbot.core.commands import Command
from chatbot.core.gameui import GameUI
from chatbot.core.i18n import Translator
from chatbot.core.people import seat_names
from chatbot.core.ports import FinishedRec, MatchRec, Repository, UserRec
from chatbot.core.replay import REPLAY_MARK, REPLAY_STEPS, Replays
from chatbot.core.schedule import room_zone
from chatbot.core.types import Button, Inbound, Outbound
from chatbot.core.usecase import Speaker, reply
from engines.codec import decode, encode
from engines.contract import Engine, Event

log = logging.getLogger(__name__)

#: finished matches listed by "historia"
HISTORY_SIZE = 10
#: people on the leaderboard of "tilastot"
LEADERBOARD_SIZE = 10
#: version of the stored result's layout
RESULT_VERSION = 1
#: the commands of this part
RECORD_COMMANDS = frozenset({"stats", "my_stats", "history", "replay", *REPLAY_STEPS})


@dataclass
class _Tally:
    """One player's (or the AI seats') matches of one game."""

    name: str
    played: int = 0
    won: int = 0
    figures: list[dict[str, Any]] = field(default_factory=list)
    wins: list[dict[str, Any]] = field(default_factory=list)


class Records:
    """The results of finished matches, and the statistics and history made from them."""

    def __init__(
        self,
        repo: Repository,
        games: dict[str, Engine],
        uis: dict[str, GameUI],
        clock: Callable[[], float],
        replays: Replays,
    ) -> None:
        self.repo = repo
        self.games = games
        self.uis = uis
        self.clock = clock
        self.replays = replays

    # ------------------------------------------------------------------------------------------
    # results

    def store_result(self, match: MatchRec, state: Any) -> None:
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

    def command(self, msg: Inbound, sp: Speaker, t: Translator, cmd: Command) -> list[Outbound] | None:
        """None: not meant for this part after all (a step word while a game of the speaker runs)."""
        if cmd.name == "stats":
            if sp.room is None:
                return [reply(msg, t, self._my_stats_text(sp.user, t))]
            return [reply(msg, t, self._group_stats_text(sp.room.id, t))]
        if cmd.name == "my_stats":
            text = self._my_stats_text(sp.user, t)
            if msg.private:
                return [reply(msg, t, text)]
            note = t.gettext("I sent your statistics to you in private.")
            return [reply(msg, t, text, private=True), reply(msg, t, note)]
        if cmd.name == "history":
            text, listed = self._history_text(msg, sp, t)
            buttons = [Button(f"🎬 {i}", f"{i}:0:{REPLAY_MARK}0") for i in listed]
            # each game's replay in the web view too (issue #29), where the view is on
            user = msg.user_id if msg.private else None
            settings = self.replays.settings
            links = [b for i in listed for b in settings.web_row(msg.platform, i, user, f"🌐 {i}")]
            return [reply(msg, t, text, [buttons[:5], buttons[5:], links[:5], links[5:]])]
        if cmd.name == "replay":
            return self.replays.command(msg, sp, t, cmd)
        if cmd.name in REPLAY_STEPS:
            return self.replays.typed(msg, sp, t, cmd)
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
            if "stood_in" in result:
                stood_in = set(result["stood_in"])
            else:  # a result stored before it said so
                full = self.repo.match(fin.id)
                stood_in = _stood_in(full) if full is not None else set()
            # as the statistics count it: a seat an AI finished is the AI's, win or lose
            names = [
                t.gettext("{name} (AI)").format(name=name)
                if s.user_id is None and s.seat in stood_in
                else name
                for s, name in zip(fin.seats, seat_names(fin.seats), strict=True)
            ]
            winners = [names[s] for s in result.get("winners") or () if 0 <= s < len(names)]
            when = format_date(
                datetime.fromtimestamp(fin.finished_at, room_zone(self.repo, fin.room_id)),
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
