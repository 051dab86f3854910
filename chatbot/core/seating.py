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

This module is a part of :class:`~chatbot.core.service.BotCore`.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from chatbot.core import i18n
from chatbot.core.i18n import Translator
from chatbot.core.ports import CANCELLED, LOBBY, OVER, MatchRec, RoomRec, SeatRec
from chatbot.core.types import TABLE, Button, Inbound, Outbound
from chatbot.core.usecase import Part, Speaker
from engines.contract import Engine

#: kv namespace: a room's latest finished match (for a typed "rematch"), by room id
NS_LAST_MATCH = "last-match"


class Seating(Part):
    """The fill question and the rematch of :class:`~chatbot.core.service.BotCore` (a part of it)."""

    # --- filling the table ---------------------------------------------------------------------

    def _usual_table(self, engine: Engine) -> int:
        return max(engine.min_players, engine.default_players)

    def _seats_to_deal(self, match: MatchRec, fill: bool | None) -> list[SeatRec] | None:
        """The seats the match starts with, or None when the fill question must be asked first."""
        engine = self.games[match.game]
        seats = list(match.seats)
        usual = min(self._usual_table(engine), engine.max_players)
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

    def _fill_question(self, match: MatchRec, room: RoomRec) -> list[Outbound]:
        """The lobby's message becomes the question (asked once: it stays until it is answered or the
        seats change)."""
        t = i18n.translator(room.lang or i18n.DEFAULT_LANGUAGE)
        engine = self.games[match.game]
        usual = self._usual_table(engine)
        seated = len(match.seats)
        text = "\n".join(
            [
                t.ngettext(
                    "🎲 {game}: {n} player is seated; the game is usually played by {usual}.",
                    "🎲 {game}: {n} players are seated; the game is usually played by {usual}.",
                    seated,
                ).format(game=self.uis[match.game].title(t), n=seated, usual=usual),
                t.ngettext(
                    "Shall I fill the empty seat with an AI player, or do we play as we are?",
                    "Shall I fill the {n} empty seats with AI players, or do we play as we are?",
                    usual - seated,
                ).format(n=usual - seated),
                t.gettext("Answer with the buttons, or write “fill” or “as we are”."),
            ]
        )
        v = match.version
        buttons = (
            (
                Button(t.gettext("🤖 Fill with AI"), f"{match.id}:{v}:@fill"),
                Button(t.gettext("Play as we are"), f"{match.id}:{v}:@as_is"),
            ),
        )
        return [
            Outbound(
                room.platform,
                text,
                chat_id=room.ext_id,
                buttons=buttons,
                key=f"table:{match.id}",
                lang=t.lang,
                role=TABLE,
                match_id=match.id,
                version=v,
            )
        ]

    # --- rematch -------------------------------------------------------------------------------

    def _rematch_button(self, match: MatchRec, t: Translator) -> tuple[tuple[Button, ...], ...]:
        return ((Button(t.gettext("🔁 Rematch"), f"{match.id}:{match.version}:@rematch"),),)

    @staticmethod
    def _stood_in(match: MatchRec) -> dict[int, int]:
        """Seat -> person, of the seats an AI played at the match's end for a person whose seat was
        given to an AI for now; not for one who left the game or was removed from it."""
        kicked = {int(u) for u in match.meta.get("kicked") or []}
        back = {int(k): int(v) for k, v in (match.meta.get("away") or {}).items()}
        return {
            seat: user
            for seat, user in back.items()
            if user not in kicked and seat < len(match.seats) and match.seats[seat].user_id is None
        }

    def _people_of(self, match: MatchRec) -> set[int]:
        """The people seated in the match, those an AI stood in for at its end included."""
        people = {s.user_id for s in match.seats if s.user_id is not None}
        return people | set(self._stood_in(match).values())

    def _rematch(
        self, msg: Inbound, sp: Speaker, t: Translator, old: MatchRec | None, pressed: int | None = None
    ) -> list[Outbound]:
        """A press of the final message's "Rematch" (``pressed`` is the button's version) or a typed
        "uusi peli samoilla pelaajilla": set up the same game, or say yes to the one set up."""
        stale = [self._reply(msg, t, t.gettext("That button is stale; use the latest message."))]
        if old is None or old.status != OVER:
            if pressed is not None:
                return stale
            return [self._reply(msg, t, t.gettext("There is no finished game here to play again."))]
        if pressed is not None and pressed != old.version:
            return stale
        if sp.user.id not in self._people_of(old):
            return [
                self._reply(
                    msg,
                    t,
                    t.gettext("Only the players of that game can start it again with the same players."),
                )
            ]
        room = self.repo.room_by_id(old.room_id)
        active = self.repo.active_match(room.id)
        if active is not None:
            if active.status == LOBBY and (active.meta.get("rematch") or {}).get("of") == old.id:
                if not any(s.user_id == sp.user.id for s in active.seats):
                    return self._join(msg, sp, t, active)  # left the rematch's lobby, and is back
                return self._rematch_yes(msg, sp, t, active, room)
            title = self.uis[active.game].title(t)
            return [
                self._reply(
                    msg,
                    t,
                    t.gettext("This table already has a game: {game}. End it first with “cancel”.").format(
                        game=title
                    ),
                )
            ]
        earlier = old.meta.get("rematched")
        if earlier is not None:
            made = self.repo.match(int(earlier))
            if made is not None and made.status != CANCELLED:
                return stale  # this match was played again already: its button has done its work
        return self._set_up_rematch(old, room, sp)

    def _set_up_rematch(self, old: MatchRec, room: RoomRec, sp: Speaker) -> list[Outbound]:
        back = self._stood_in(old)
        seats = tuple(replace(s, user_id=back[s.seat], ai=None) if s.seat in back else s for s in old.seats)
        seed = secrets.token_hex(8)
        created = self.repo.create_match(room.id, old.game, dict(old.options), seed, sp.user.id, seats)
        if old.meta.get("pace") is not None:
            self.repo.set_meta(created.id, "pace", old.meta["pace"])
        self.repo.set_meta(created.id, "rematch", {"of": old.id, "yes": [sp.user.id]})
        self.repo.set_meta(old.id, "rematched", created.id)
        lobby = self.repo.match(created.id)
        assert lobby is not None
        return self._rematch_start_or_wait(lobby, room)

    def _rematch_yes(
        self, msg: Inbound, sp: Speaker, t: Translator, lobby: MatchRec, room: RoomRec
    ) -> list[Outbound]:
        """A seated person says yes to the rematch lobby."""
        if sp.user.id in {int(u) for u in (lobby.meta.get("rematch") or {}).get("yes", [])}:
            return [self._reply(msg, t, t.gettext("You are in already; waiting for the others."))]
        return self._rematch_start_or_wait(self._said_yes(lobby, sp.user.id), room)

    def _said_yes(self, lobby: MatchRec, user_id: int) -> MatchRec:
        info = dict(lobby.meta.get("rematch") or {})
        yes = [int(u) for u in info.get("yes", [])]
        if user_id in yes:
            return lobby
        info["yes"] = [*yes, user_id]
        self.repo.set_meta(lobby.id, "rematch", info)
        updated = self.repo.match(lobby.id)
        assert updated is not None
        return updated

    def _rematch_waiting(self, match: MatchRec) -> list[SeatRec]:
        """The seats of people who have not said yes to the rematch yet ([] for other lobbies)."""
        info = match.meta.get("rematch")
        if not info or match.status != LOBBY:
            return []
        yes = {int(u) for u in info.get("yes", [])}
        return [s for s in match.seats if s.user_id is not None and s.user_id not in yes]

    def _rematch_start_or_wait(self, match: MatchRec, room: RoomRec) -> list[Outbound]:
        """Deal when every seated person said yes; else the lobby, which says who is awaited."""
        if self._rematch_waiting(match) or len(match.seats) < self.games[match.game].min_players:
            return self._lobby_messages(match, room)
        seats = self._seats_to_deal(match, fill=False)
        assert seats is not None
        return self._deal(match, room, seats)

    def _rematch_lines(self, match: MatchRec, t: Translator) -> tuple[list[str], list[Button]]:
        """The rematch lobby's own lines and button (nothing for an ordinary lobby)."""
        if not match.meta.get("rematch"):
            return [], []
        waiting = self._rematch_waiting(match)
        yes = {int(u) for u in (match.meta.get("rematch") or {}).get("yes", [])}
        ready = [s.name for s in match.seats if s.user_id is not None and s.user_id in yes]
        lines = [t.gettext("🔁 The same game again, with the same players.")]
        if ready:
            lines.append(t.gettext("In: {names}").format(names=t.format_list(ready)))
        if waiting:
            lines.append(
                t.gettext(
                    "Waiting for {names} to press “I'm in” (or write “join”); whoever will not play writes “leave”."
                ).format(names=t.format_list([s.name for s in waiting]))
            )
        button = [Button(t.gettext("I'm in"), f"{match.id}:{match.version}:@join")] if waiting else []
        return lines, button

    def _remember_finished(self, match: MatchRec) -> None:
        """The room's latest finished match, for a typed "rematch"."""
        self.repo.kv_set(NS_LAST_MATCH, str(match.room_id), match.id)

    def _last_finished(self, room: RoomRec) -> MatchRec | None:
        found: Any = self.repo.kv_get(NS_LAST_MATCH, str(room.id))
        return self.repo.match(int(found)) if found is not None else None
