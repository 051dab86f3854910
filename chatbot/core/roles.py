"""Roles (issue #13): who may run a lobby, end a match, move a seat between a person and an AI.

* The player who set up the match and the seated players run the lobby: add and remove AI seats,
  change its options ("asetukset kierrokset=3"), start, cancel it (anyone in the room may join).
* A running match is ended by the player who set it up or by an administrator of the group.
* The group's administrators (the platform's :class:`~chatbot.core.ports.Members` port) may also do
  all of that, remove a player ("poista Pekka pelistä", "kick Pekka": an AI takes the seat and the
  player is told in private), give a seat to an AI ("anna Pekan paikka botille") or back to its
  player ("palauta Pekka peliin"), and end any match, an abandoned one too.
* A seated player may hand their seat to someone else in the room ("anna paikkani Liisalle"): the
  other takes it by writing "otan paikan" in the same room, which shows they are there.

Everyone else gets a polite refusal that says who may.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from chatbot.core import i18n
from chatbot.core.commands import Command
from chatbot.core.i18n import Translator
from chatbot.core.nlp import match_seat
from chatbot.core.ports import LOBBY, RUNNING, GameUI, MatchRec, Repository, RoomRec, SeatRec
from chatbot.core.render import Renderer
from chatbot.core.seating import Seating
from chatbot.core.types import Inbound, Outbound
from chatbot.core.usecase import CoreSettings, Speaker, reply, unique_name
from engines.contract import Engine

log = logging.getLogger(__name__)

#: seconds an offered seat ("anna paikkani Liisalle") waits to be taken
OFFER_TTL = 900.0
SEAT_COMMANDS = frozenset({"kick", "to_ai", "restore", "hand_over", "take_seat"})


class Roles:
    """The role checks, and the seat use cases of the host, the admins and the seated players."""

    def __init__(
        self,
        repo: Repository,
        games: dict[str, Engine],
        uis: dict[str, GameUI],
        settings: CoreSettings,
        clock: Callable[[], float],
        renderer: Renderer,
        seating: Seating,
    ) -> None:
        self.repo = repo
        self.games = games
        self.uis = uis
        self.settings = settings
        self.clock = clock
        self.renderer = renderer
        self.seating = seating

    # ------------------------------------------------------------------------------------------
    # who is who

    def is_admin(self, msg: Inbound, room: RoomRec) -> bool:
        """Whether the sender administers ``room`` (asked of the platform only in the room itself)."""
        members = self.settings.members.get(room.platform)
        if members is None or msg.private or msg.platform != room.platform or msg.chat_id != room.ext_id:
            return False
        try:
            return bool(members.is_admin(room.ext_id, msg.user_id))
        except Exception as exc:  # the platform could not tell: treat as no admin, and say so in the log
            log.warning("admin lookup failed for %s in %s: %s", msg.user_id, room.ext_id, exc)
            return False

    @staticmethod
    def runs_lobby(match: MatchRec, user_id: int) -> bool:
        return match.host_user_id == user_id or any(s.user_id == user_id for s in match.seats)

    def who_may_lobby(self, t: Translator, what: str) -> str:
        texts = {
            "ai": t.gettext(
                "Only the player who set up the game, the seated players or the group’s admins can "
                "add or remove AI players."
            ),
            "start": t.gettext(
                "Only the player who set up the game, the seated players or the group’s admins can "
                "start it. Write “join” to take a seat first."
            ),
            "options": t.gettext(
                "Only the player who set up the game, the seated players or the group’s admins can "
                "change its options."
            ),
            "cancel": t.gettext(
                "Only the player who set up the game, the seated players or the group’s admins can cancel it."
            ),
        }
        return texts[what]

    def who_may_end(self, t: Translator) -> str:
        return t.gettext(
            "Only the player who set up the game or the group’s admins can end a running game. "
            "To give your own seat to an AI, write “leave”."
        )

    def _who_may_seats(self, t: Translator) -> str:
        return t.gettext(
            "Only the player who set up the game or the group’s admins can remove a player or move a "
            "seat between a player and an AI."
        )

    # ------------------------------------------------------------------------------------------
    # the seat commands

    def seat_command(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, cmd: Command
    ) -> list[Outbound]:
        assert sp.room is not None
        if cmd.name == "hand_over":
            return self._hand_over(msg, sp, t, match, cmd)
        if cmd.name == "take_seat":
            return self._take_seat(msg, sp, t, match)
        if match.host_user_id != sp.user.id and not self.is_admin(msg, sp.room):
            return [reply(msg, t, self._who_may_seats(t))]
        names = tuple(s.name for s in match.seats)
        found = match_seat(cmd.raw_args, names, loose=False) if cmd.raw_args else []
        if len(found) != 1:
            return [
                reply(
                    msg,
                    t,
                    t.gettext("Whom do you mean? The seats are: {names}.").format(names=t.format_list(names)),
                )
            ]
        seat = match.seats[found[0]]
        if cmd.name == "restore":
            return self._restore(msg, sp, t, match, seat)
        return self._seat_to_ai(msg, sp, t, match, seat, kicked=cmd.name == "kick")

    def _seat_to_ai(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, seat: SeatRec, kicked: bool
    ) -> list[Outbound]:
        assert sp.room is not None
        room = sp.room
        if seat.user_id is None:
            return [reply(msg, t, t.gettext("{name} is an AI player already.").format(name=seat.name))]
        engine = self.games[match.game]
        person = self.repo.user_by_id(seat.user_id)
        tg = i18n.translator(room.lang or i18n.DEFAULT_LANGUAGE)
        tp = i18n.translator(person.lang or room.lang or i18n.DEFAULT_LANGUAGE)
        title = self.uis[match.game].title(tp)
        if match.status == LOBBY:
            if kicked:
                remaining = [s for s in match.seats if s.seat != seat.seat]
                seats = tuple(replace(s, seat=i) for i, s in enumerate(remaining))
            else:
                seats = tuple(
                    replace(s, user_id=None, ai=engine.default_ai) if s.seat == seat.seat else s
                    for s in match.seats
                )
            self.seating.change(match, seats)
            updated = self.repo.match(match.id)
            assert updated is not None
            out = self.renderer.lobby(updated, room)
        else:
            away = dict(match.meta.get("away") or {})
            away[str(seat.seat)] = seat.user_id
            seats = tuple(
                replace(s, user_id=None, ai=engine.default_ai) if s.seat == seat.seat else s
                for s in match.seats
            )
            self.seating.change(match, seats, status=RUNNING)
            self.repo.set_meta(match.id, "away", away)
            if kicked:  # not taken along into a rematch (issue #16) unless given the seat back
                self.repo.set_meta(match.id, "kicked", [*(match.meta.get("kicked") or []), seat.user_id])
            text = tg.gettext("{admin} gave {name}’s seat to an AI player.").format(
                admin=sp.user.name, name=seat.name
            )
            out = [Outbound(room.platform, text, chat_id=room.ext_id, lang=tg.lang)]
        if kicked:
            dm = tp.gettext("{admin} removed you from the game {game}; an AI player took your seat.")
        else:
            dm = tp.gettext("{admin} gave your seat in {game} to an AI player for now.")
        out.append(
            Outbound(
                room.platform,
                dm.format(admin=sp.user.name, game=title),
                user_id=person.ext_id,
                lang=tp.lang,
            )
        )
        return out

    def _restore(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, seat: SeatRec
    ) -> list[Outbound]:
        assert sp.room is not None
        room = sp.room
        away = dict(match.meta.get("away") or {})
        owner = away.get(str(seat.seat))
        if seat.user_id is not None or owner is None or match.status != RUNNING:
            return [
                reply(
                    msg,
                    t,
                    t.gettext("{name}’s seat has no player to give it back to.").format(name=seat.name),
                )
            ]
        seats = tuple(
            replace(s, user_id=int(owner), ai=None) if s.seat == seat.seat else s for s in match.seats
        )
        self.seating.change(match, seats, status=RUNNING)
        del away[str(seat.seat)]
        self.repo.set_meta(match.id, "away", away)
        updated = self.repo.match(match.id)
        assert updated is not None
        tg = i18n.translator(room.lang or i18n.DEFAULT_LANGUAGE)
        text = tg.gettext("{name} is back in the game.").format(name=seat.name)
        out = [Outbound(room.platform, text, chat_id=room.ext_id, lang=tg.lang)]
        out.extend(self.renderer.private_prompt(updated, room, seat.seat, (), force=True))
        return out

    def _hand_over(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, cmd: Command
    ) -> list[Outbound]:
        assert sp.room is not None
        mine = [s for s in match.seats if s.user_id == sp.user.id]
        if not mine:
            return [reply(msg, t, t.gettext("You have no seat in this game to give away."))]
        offer = {
            "seat": mine[0].seat,
            "from": sp.user.id,
            "to": cmd.raw_args,
            "until": self.clock() + OFFER_TTL,
        }
        self.repo.set_meta(match.id, "offer", offer)
        if cmd.raw_args:
            text = t.gettext(
                "{name} wants to give their seat away. The one it is meant for can take it by writing "
                "“take seat” here."
            ).format(name=sp.user.name)
        else:
            text = t.gettext(
                "{name} wants to give their seat away. Whoever wants it can take it by writing “take seat” here."
            ).format(name=sp.user.name)
        return [reply(msg, t, text, private=False)]

    def _take_seat(self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec) -> list[Outbound]:
        assert sp.room is not None
        room = sp.room
        offer = match.meta.get("offer") or {}
        nothing = [reply(msg, t, t.gettext("Nobody is offering you a seat here just now."))]
        if not offer or float(offer.get("until", 0)) < self.clock() or offer.get("from") == sp.user.id:
            return nothing
        if offer.get("to") and match_seat(str(offer["to"]), [sp.user.name], loose=True) != [0]:
            return nothing
        if any(s.user_id == sp.user.id for s in match.seats):
            return [reply(msg, t, t.gettext("You are already playing in this game."))]
        index = int(offer.get("seat", -1))
        if not 0 <= index < len(match.seats) or match.seats[index].user_id != offer.get("from"):
            return nothing
        old = match.seats[index]
        name = unique_name(match, sp.user.name)
        seats = tuple(
            replace(s, user_id=sp.user.id, name=name) if s.seat == index else s for s in match.seats
        )
        self.seating.change(match, seats, status=match.status)
        self.repo.set_meta(match.id, "offer", {})
        updated = self.repo.match(match.id)
        assert updated is not None
        if updated.status == LOBBY:
            return self.renderer.lobby(updated, room)
        tg = i18n.translator(room.lang or i18n.DEFAULT_LANGUAGE)
        text = tg.gettext("{new} took {old}’s seat.").format(new=name, old=old.name)
        out = [Outbound(room.platform, text, chat_id=room.ext_id, lang=tg.lang)]
        out.extend(self.renderer.private_prompt(updated, room, index, (), force=True))
        return out
