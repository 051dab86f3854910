"""Roles (issue #13): who may run a lobby, end a match, move a seat between a person and an AI.

* The player who set up the match and the seated players run the lobby: add and remove AI seats,
  change its options ("asetukset kierrokset=3"), start, cancel it (anyone in the room may join).
* A running match is ended by the player who set it up or by an administrator of the group.
* The group's administrators (the platform's :class:`~chatbot.core.ports.Members` port) may also do
  all of that, remove a player ("poista Pekka pelistä", "kick Pekka": an AI takes the seat and the
  player is told in private), give a seat to an AI ("anna Pekan paikka botille") or back to its
  player ("palauta Pekka peliin"), and end any match, an abandoned one too.
* A seated player may hand their seat to someone else in the room ("anna paikkani Liisalle"): the
  other takes it by writing "otan paikan" in the same room, which shows they are there. The seat is
  offered to one person (issue #27), never to a name: the one the text mentions, the author of the
  message it answers, or the one member of the room who has written here under that name; only that
  person takes it. When the text names nobody clearly, the answer says how to name them.

Everyone else gets a polite refusal that says who may.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from chatbot.core import i18n
from chatbot.core.commands import Command
from chatbot.core.gameui import GameUI
from chatbot.core.i18n import Translator
from chatbot.core.nlp import Lemmatizer, match_seat
from chatbot.core.people import Member, People, clean_name, genitive, new_seat_name, seat_names
from chatbot.core.ports import LOBBY, RUNNING, MatchRec, Repository, RoomRec, SeatRec
from chatbot.core.render import Renderer
from chatbot.core.seating import Seating
from chatbot.core.types import Inbound, Outbound
from chatbot.core.usecase import CoreSettings, Speaker, reply
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
        people: People,
        lemmatizer: Lemmatizer,
    ) -> None:
        self.repo = repo
        self.games = games
        self.uis = uis
        self.settings = settings
        self.clock = clock
        self.renderer = renderer
        self.seating = seating
        self.people = people
        self.lemmatizer = lemmatizer

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

    def may_end(self, msg: Inbound, match: MatchRec, room: RoomRec, user_id: int) -> bool:
        """Whether the person may end ``match``: its lobby, whoever runs it; a running game, the one
        who set it up; either, a group admin, or the last person playing it."""
        seated = any(s.user_id == user_id for s in match.seats)
        others = any(s.user_id is not None and s.user_id != user_id for s in match.seats)
        return (
            match.host_user_id == user_id
            or (match.status == LOBBY and self.runs_lobby(match, user_id))
            or (seated and not others)
            or (not msg.private and self.is_admin(msg, room))
        )

    def who_may_end(self, t: Translator, match: MatchRec, user_id: int) -> str:
        """Who may end the running ``match``, and what the person ``user_id`` can do instead (issue
        #27: a person without a seat was told to give their seat to an AI)."""
        host = self.repo.user_by_id(match.host_user_id) if match.host_user_id is not None else None
        if host is not None:
            text = t.gettext("Only {host}, who set up the game, or the group’s admins can end it.").format(
                host=clean_name(host.name)
            )
        else:
            text = t.gettext("Only the group’s admins can end it.")
        if any(s.user_id == user_id for s in match.seats):
            return text + " " + t.gettext("To give your own seat to an AI, write “leave”.")
        return text + " " + t.gettext("You can follow the game here and join the next one.")

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
        names = seat_names(match.seats)
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
            return [
                reply(msg, t, t.gettext("{name} is an AI player already.").format(name=clean_name(seat.name)))
            ]
        engine = self.games[match.game]
        person = self.repo.user_by_id(seat.user_id)
        tg = i18n.translator(room.lang or i18n.DEFAULT_LANGUAGE)
        tp = i18n.translator(self.people.lang(person, room))
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
            out = [
                Outbound(
                    room.platform,
                    self._to_ai_text(tg, sp.user.name, seat, kicked),
                    chat_id=room.ext_id,
                    lang=tg.lang,
                )
            ]
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

    def _to_ai_text(self, tg: Translator, admin: str, seat: SeatRec, kicked: bool) -> str:
        """The group's line when a person's seat goes to an AI: "Aino poisti Liisan pelistä; …" with
        the name inflected where its genitive is known, a template in the nominative otherwise."""
        name = clean_name(seat.name)
        gen = self.genitive(name)
        if kicked and gen is not None:
            # TRANSLATORS: {name_gen} is the name in the genitive ("Liisan")
            text = tg.gettext("{admin} removed {name} from the game; an AI player takes over the seat.")
        elif kicked:
            text = tg.gettext(
                "{name} is out: {admin} removed them from the game. An AI player takes over the seat."
            )
        elif gen is not None:
            # TRANSLATORS: {name_gen} is the name in the genitive ("Liisan")
            text = tg.gettext("{admin} gave {name}’s seat to an AI player for now.")
        else:
            text = tg.gettext("{name} takes a break: {admin} gave their seat to an AI player for now.")
        return text.format(admin=admin, name=name, name_gen=gen)

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
                    t.gettext("{name}: this seat has no player to give it back to.").format(
                        name=clean_name(seat.name)
                    ),
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
        text = tg.gettext("{name} is back in the game.").format(name=clean_name(seat.name))
        out = [Outbound(room.platform, text, chat_id=room.ext_id, lang=tg.lang)]
        out.extend(self.renderer.private_prompt(updated, room, seat.seat, (), force=True))
        return out

    def _hand_over(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, cmd: Command
    ) -> list[Outbound]:
        """ "anna paikkani Liisalle": the seat is offered to one person, named by a mention, a reply
        to their message, their platform id or the name of the one member of the room who has it."""
        assert sp.room is not None
        mine = [s for s in match.seats if s.user_id == sp.user.id]
        if not mine:
            return [reply(msg, t, t.gettext("You have no seat in this game to give away."))]
        found = self._receiver(msg, sp, cmd.raw_args)
        if isinstance(found, str):
            alone = not [m for m in self.people.members(sp.room) if m.ext_id != msg.user_id]
            return [reply(msg, t, self._how_to_name(t, "alone" if alone and found != "several" else found))]
        if found.ext_id == msg.user_id:
            return [reply(msg, t, t.gettext("You cannot give your seat to yourself."))]
        taker = self.repo.find_user(msg.platform, found.ext_id)
        if taker is not None and any(s.user_id == taker.id for s in match.seats):
            return [
                reply(msg, t, t.gettext("{name} is already playing in this game.").format(name=found.name))
            ]
        offer = {
            "seat": mine[0].seat,
            "from": sp.user.id,
            "to_user": found.ext_id,
            "to_name": found.name,
            "until": self.clock() + OFFER_TTL,
        }
        self.repo.set_meta(match.id, "offer", offer)
        text = t.gettext(
            "{name} offers their seat to {receiver}. {receiver}, write “take seat” here to take it."
        ).format(name=sp.user.name, receiver=found.name)
        return [reply(msg, t, text, private=False)]

    def _receiver(self, msg: Inbound, sp: Speaker, typed: str) -> Member | str:
        """Whom a hand-over names, or why it names nobody ("missing", "unknown", "several"): the
        mentioned user (a mention, a handle the bot has seen, a platform id typed out), else the one
        member of the room with the typed name (the replied-to one among several), else the author of
        the message it answers."""
        assert sp.room is not None
        members = {m.ext_id: m for m in self.people.members(sp.room)}
        ids = list(dict.fromkeys(msg.mentions))
        for handle in msg.handles:
            user = self.people.by_handle(msg.platform, handle)
            if user is not None and user not in ids:
                ids.append(user)
        if not ids:  # a platform id typed out: "@olli:matrix.org", a Telegram number
            ids = [w for w in dict.fromkeys(typed.split()) if w in members and _looks_like_id(w)]
        if len(ids) > 1:
            return "several"
        if ids:
            return members.get(ids[0]) or Member(ids[0], self._known_name(msg.platform, ids[0]))
        if typed:
            others = [m for m in members.values() if m.ext_id != msg.user_id]
            named = [others[i] for i in match_seat(typed, [m.name for m in others], loose=False)]
            if msg.reply_to_user is not None and any(m.ext_id == msg.reply_to_user for m in named):
                return members[msg.reply_to_user]
            if len(named) == 1:
                return named[0]
            if len(named) > 1:
                return "several"
            if msg.reply_to_user is None:
                return "unknown"  # "anna paikkani hänelle" as a reply falls through to the reply
        if msg.reply_to_user is not None:
            return members.get(msg.reply_to_user) or Member(
                msg.reply_to_user, self._known_name(msg.platform, msg.reply_to_user)
            )
        return "missing"

    def _known_name(self, platform: str, ext_id: str) -> str:
        user = self.repo.find_user(platform, ext_id)
        return user.name if user is not None else clean_name(ext_id)

    def _how_to_name(self, t: Translator, why: str) -> str:
        if why == "alone":  # the console table, or a group where nobody else has written yet
            return t.gettext(
                "Nobody else has written here yet, so there is nobody to give your seat to. Whoever "
                "wants it writes here first; then mention them (@name) or answer one of their messages "
                "with “give my seat”."
            )
        if why == "several":
            return t.gettext(
                "Several people here go by that name. Mention the one you mean (@name), or answer one of "
                "their messages with “give my seat”."
            )
        if why == "unknown":
            return t.gettext(
                "I have not seen anyone of that name write here. Mention the person (@name), or answer "
                "one of their messages with “give my seat”."
            )
        return t.gettext(
            "To whom do you give your seat? Mention them (“give my seat to @name”), or answer one of "
            "their messages with “give my seat”."
        )

    def _take_seat(self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec) -> list[Outbound]:
        assert sp.room is not None
        room = sp.room
        offer = match.meta.get("offer") or {}
        nothing = [reply(msg, t, t.gettext("Nobody is offering you a seat here just now."))]
        if not offer or float(offer.get("until", 0)) < self.clock() or offer.get("from") == sp.user.id:
            return nothing
        if not offer.get("to_user"):
            return nothing  # an offer made before seats were offered to people only
        if offer["to_user"] != msg.user_id:
            return [
                reply(
                    msg,
                    t,
                    t.gettext("That seat is offered to {name}; only they can take it.").format(
                        name=offer.get("to_name") or "?"
                    ),
                )
            ]
        if any(s.user_id == sp.user.id for s in match.seats):
            return [reply(msg, t, t.gettext("You are already playing in this game."))]
        index = int(offer.get("seat", -1))
        if not 0 <= index < len(match.seats) or match.seats[index].user_id != offer.get("from"):
            return nothing
        old = match.seats[index]
        name = new_seat_name((s.name for s in match.seats if s.seat != index), sp.user.name)
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
        old_name = clean_name(old.name)
        gen = self.genitive(old_name)
        if gen is not None:
            # TRANSLATORS: {old_gen} is the name in the genitive ("Sannan"), {old} as it is ("Sanna")
            text = tg.gettext("{new} took {old}’s seat.").format(new=name, old=old_name, old_gen=gen)
        else:
            text = tg.gettext("{new} took the seat {old} played.").format(new=name, old=old_name)
        out = [Outbound(room.platform, text, chat_id=room.ext_id, lang=tg.lang)]
        out.extend(self.renderer.private_prompt(updated, room, index, (), force=True))
        return out

    def genitive(self, name: str) -> str | None:
        """The Finnish genitive of a seat's name when the dictionary confirms it (else None)."""
        return genitive(name, self.lemmatizer.readings)


def _looks_like_id(word: str) -> bool:
    """Whether a typed word is a platform's user id rather than a name: a Matrix id ("@olli:matrix.org")
    or a number (Telegram)."""
    return word.isdigit() or (word.startswith("@") and ":" in word)
