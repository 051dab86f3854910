"""Before and after a match (issue #16): filling the table, and a new game with the same players.

* Filling the table: "aloita" with fewer seats than the game's usual table (Gnav: you and three AI
  players) but at least its minimum asks once, in the lobby's message: fill the empty seats with AI
  players ("täytä" / "fill") or play as we are ("pelataan näin" / "as we are"), with buttons. Below
  the minimum there is nothing to ask (the game cannot be played as it is): the seats are filled up
  to the usual table at once. A game whose usual table is its minimum never asks.
* Rematch: the final message offers "Uusi peli samoilla pelaajilla" / "Rematch". A press by a person
  who was seated at the end sets up the same game with the same options, pace and seats (people and
  AI; a seat an AI played for now goes back to its person, one whose person left or was removed
  stays an AI) as a lobby of its own, and counts as that person's yes; the other seated people confirm with the
  lobby's "Olen mukana" / "I'm in" (or "liity", or the final message's button again). The game
  starts when every seated person has said yes, at once when the presser is the only person. A
  person who does not want to play leaves the lobby ("poistu"); the rest then start without them.
  A press from anyone who was not seated, or anywhere but the match's room, changes nothing; an old
  final message's button works once (until its rematch is cancelled).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from chatbot.core.decoded import Decoded
from chatbot.core.i18n import Translator
from chatbot.core.people import seat_names
from chatbot.core.ports import LOBBY, RUNNING, MatchRec, Repository, RoomRec, SeatRec
from chatbot.core.render import SEAT_LOG, Renderer, rematch_waiting, stood_in_now
from chatbot.core.schedule import Schedule
from chatbot.core.types import Inbound, Outbound
from chatbot.core.usecase import Conflict, CoreSettings, Speaker, reply
from engines.contract import Engine
from engines.keyed import KEYED_SEED

#: kv namespace: a room's latest finished match (for a typed "rematch"), by room id
NS_LAST_MATCH = "last-match"


def new_seed() -> str:
    """A new match's seed, of the keyed form (issue #28): its generators are the cheap
    :class:`engines.keyed.KeyedRandom`. A match stored with a seed of the old form keeps its
    ``Random(str)`` generators (:func:`engines.contract.rng_for`), so it still replays from its log."""
    return KEYED_SEED + secrets.token_hex(8)


def usual_table(engine: Engine) -> int:
    """The number of seats the game is usually played with."""
    return max(engine.min_players, engine.default_players)


def stood_in(match: MatchRec) -> dict[int, int]:
    """Seat -> person, of the seats an AI played at the match's end for a person whose seat was
    given to an AI for now; not for one who left the game or was removed from it."""
    kicked = {int(u) for u in match.meta.get("kicked") or []}
    back = {int(k): int(v) for k, v in (match.meta.get("away") or {}).items()}
    return {
        seat: user
        for seat, user in back.items()
        if user not in kicked and seat < len(match.seats) and match.seats[seat].user_id is None
    }


def people_of(match: MatchRec) -> set[int]:
    """The people seated in the match, those an AI stood in for at its end included."""
    people = {s.user_id for s in match.seats if s.user_id is not None}
    return people | set(stood_in(match).values())


class Seating:
    """A match's seats change, the lobby becomes a running match, and a finished one is set up again."""

    def __init__(
        self,
        repo: Repository,
        games: dict[str, Engine],
        decoded: Decoded,
        schedule: Schedule,
        renderer: Renderer,
        settings: CoreSettings,
    ) -> None:
        self.repo = repo
        self.games = games
        self.decoded = decoded
        self.schedule = schedule
        self.renderer = renderer
        self.settings = settings

    # --- seats and dealing ---------------------------------------------------------------------
    def change(self, match: MatchRec, seats: tuple[SeatRec, ...], status: str = LOBBY) -> None:
        """New seats (and status) of a match; a running match gets its deadlines again (an AI seat
        that took over may be to act), an ended one none."""
        if not self.repo.update_lobby(match.id, match.version, seats, status=status):
            raise Conflict(lobby=True)
        self._log_hands(match, seats)
        updated = self.repo.match(match.id)
        if status == RUNNING and updated is not None and updated.state is not None:
            self.schedule.plan(updated)
        elif status != LOBBY:
            self.schedule.clear(match.id)

    def _log_hands(self, match: MatchRec, seats: Sequence[SeatRec]) -> None:
        """Keep what the table showed for each seat that changed hands in a running match (its name,
        and whether an AI stood in), with the ply of the change: earlier lines keep their names."""
        if match.status != RUNNING or match.state is None:
            return
        ply = int(match.state.get("ply", 0))
        marked = stood_in_now(match)
        changed = [
            {"ply": ply, "seat": old.seat, "name": old.name, "ai": old.seat in marked}
            for old, new in zip(match.seats, seats, strict=False)
            if (old.name, old.user_id) != (new.name, new.user_id)
        ]
        if changed:
            self.repo.set_meta(match.id, SEAT_LOG, [*(match.meta.get(SEAT_LOG) or [])[-50:], *changed])

    def seats_to_deal(self, match: MatchRec, fill: bool | None) -> list[SeatRec] | None:
        """The seats the match starts with, or None when the fill question must be asked first."""
        engine = self.games[match.game]
        seats = list(match.seats)
        usual = min(usual_table(engine), engine.max_players)
        if len(seats) < engine.min_players:
            fill = True  # cannot be played as it is: filled up to the usual table without asking
        elif len(seats) >= usual:
            fill = False
        elif fill is None:
            return None
        if fill:
            while len(seats) < usual:
                number = 1 + sum(1 for s in seats if s.ai)
                seats.append(SeatRec(seat=len(seats), name=f"Botti {number}", ai=engine.default_ai))
        return seats

    def deal(self, match: MatchRec, room: RoomRec, seats: Sequence[SeatRec]) -> list[Outbound]:
        """The lobby becomes a running match with these seats."""
        engine = self.games[match.game]
        options = engine.options_from_dict(match.options)
        seed = self._match_seed(match)
        state = engine.new_game(len(seats), seed, options)
        if not self.repo.start_match(match.id, match.version, tuple(seats), engine.dump(state), seed):
            raise Conflict(lobby=True)
        started = self.repo.match(match.id)
        assert started is not None
        events = engine.start_events(engine.load(started.state or {}))
        state = self.decoded.state(started)
        deadlines = self.schedule.plan(started, state)
        return self.renderer.render_match(started, room, events=events, state=state, deadlines=deadlines)

    def _match_seed(self, match: MatchRec) -> str:
        base = self.settings.base_seed
        return f"{base}:{match.id}" if base is not None else match.seed

    # --- rematch -------------------------------------------------------------------------------
    def set_up_rematch(self, old: MatchRec, room: RoomRec, sp: Speaker) -> list[Outbound]:
        """The finished match's game, options, pace and seats as a new lobby, with the presser's yes."""
        back = stood_in(old)
        seats = tuple(replace(s, user_id=back[s.seat], ai=None) if s.seat in back else s for s in old.seats)
        seed = new_seed()
        created = self.repo.create_match(room.id, old.game, dict(old.options), seed, sp.user.id, seats)
        if old.meta.get("pace") is not None:
            self.repo.set_meta(created.id, "pace", old.meta["pace"])
        self.repo.set_meta(created.id, "rematch", {"of": old.id, "yes": [sp.user.id]})
        self.repo.set_meta(old.id, "rematched", created.id)
        lobby = self.repo.match(created.id)
        assert lobby is not None
        return self.start_or_wait(lobby, room)

    def rematch_yes(
        self, msg: Inbound, sp: Speaker, t: Translator, lobby: MatchRec, room: RoomRec
    ) -> list[Outbound]:
        """A seated person says yes to the rematch lobby."""
        if sp.user.id in {int(u) for u in (lobby.meta.get("rematch") or {}).get("yes", [])}:
            shown = seat_names(lobby.seats)
            names = [shown[s.seat] for s in rematch_waiting(lobby)]
            if not names:
                return [reply(msg, t, t.gettext("You are in already; waiting for the others."))]
            text = t.gettext("You are in already; waiting for {names}.").format(names=t.format_list(names))
            return [reply(msg, t, text)]
        return self.start_or_wait(self.said_yes(lobby, sp.user.id), room)

    def said_yes(self, lobby: MatchRec, user_id: int) -> MatchRec:
        info = dict(lobby.meta.get("rematch") or {})
        yes = [int(u) for u in info.get("yes", [])]
        if user_id in yes:
            return lobby
        info["yes"] = [*yes, user_id]
        self.repo.set_meta(lobby.id, "rematch", info)
        updated = self.repo.match(lobby.id)
        assert updated is not None
        return updated

    def start_or_wait(self, match: MatchRec, room: RoomRec) -> list[Outbound]:
        """Deal when every seated person said yes; else the lobby, which says who is awaited."""
        if rematch_waiting(match) or len(match.seats) < self.games[match.game].min_players:
            return self.renderer.lobby(match, room)
        seats = self.seats_to_deal(match, fill=False)
        assert seats is not None
        return self.deal(match, room, seats)

    def remember_finished(self, match: MatchRec) -> None:
        """The room's latest finished match, for a typed "rematch"."""
        self.repo.kv_set(NS_LAST_MATCH, str(match.room_id), match.id)

    def last_finished(self, room: RoomRec) -> MatchRec | None:
        found: Any = self.repo.kv_get(NS_LAST_MATCH, str(room.id))
        return self.repo.match(int(found)) if found is not None else None
