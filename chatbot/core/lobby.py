"""The lobby and the seats of a match: a new game with its options and pace, joining, AI seats,
starting (after the fill question), leaving, cancelling, coming back, and the rematch.

Who may do what is :class:`~chatbot.core.roles.Roles`'; the seats' changes and the deal are
:class:`~chatbot.core.seating.Seating`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from chatbot.core import i18n, pace
from chatbot.core.asked import answer_button
from chatbot.core.commands import Command
from chatbot.core.decoded import Finder
from chatbot.core.gameui import GameUI
from chatbot.core.groups import Groups
from chatbot.core.i18n import Translator
from chatbot.core.nlp import fold
from chatbot.core.people import clean_name, new_seat_name, seat_names
from chatbot.core.ports import CANCELLED, LOBBY, OVER, RUNNING, MatchRec, Repository, SeatRec
from chatbot.core.questions import games_text
from chatbot.core.render import Renderer, rematch_waiting
from chatbot.core.roles import Roles
from chatbot.core.seating import Seating, new_seed, people_of, usual_table
from chatbot.core.types import TABLE, Inbound, Outbound
from chatbot.core.usecase import Conflict, CoreSettings, Speaker, reply, stale
from engines.contract import Engine

#: lobbies one person may keep waiting for players at once, over every group (issue #27)
MAX_OPEN_LOBBIES = 3


class Lobby:
    """The use cases before, around and after a match's play."""

    def __init__(
        self,
        repo: Repository,
        games: dict[str, Engine],
        uis: dict[str, GameUI],
        settings: CoreSettings,
        finder: Finder,
        renderer: Renderer,
        seating: Seating,
        roles: Roles,
        groups: Groups,
    ) -> None:
        self.repo = repo
        self.games = games
        self.uis = uis
        self.settings = settings
        self.finder = finder
        self.renderer = renderer
        self.seating = seating
        self.roles = roles
        self.groups = groups

    # --- a new game ----------------------------------------------------------------------------
    def new(
        self,
        msg: Inbound,
        sp: Speaker,
        t: Translator,
        match: MatchRec | None,
        ui: GameUI | None,
        cmd: Command,
    ) -> list[Outbound]:
        if match is not None:
            return [self._already(msg, sp, t, match)]
        if ui is None:  # a button for each game sets it up (for the one who asked)
            choices = [
                [answer_button(u.title(t), sp.user.id, "new", gid)] for gid, u in sorted(self.uis.items())
            ]
            text = t.gettext("Which game shall we play?") + "\n" + games_text(self.uis, self.games, t)
            return [reply(msg, t, text, choices if not msg.private else ())]
        assert sp.room is not None
        refused = self._lobbies_open(msg, sp, t)
        if refused is not None:
            return [refused]
        engine = self.games[ui.game_id]
        try:
            typed_pace, game_tokens = pace.split_options(cmd.tokens)
            chosen, zone = pace.apply_options(pace.Pace(), typed_pace)
            options = _parse_options(ui, engine, game_tokens)
        except (ValueError, TypeError, ArithmeticError):
            typed = t.format_list([x for x in cmd.tokens if "=" in x])
            return [
                reply(
                    msg,
                    t,
                    t.gettext(
                        "I did not understand the option {option}. The game was not set up; try again without it "
                        "or with another value."
                    ).format(option=typed),
                )
            ]
        assert sp.room is not None
        room = sp.room
        if room.lang is None:
            # a group without a chosen language takes the language of whoever sets up its first game
            self.repo.set_room_lang(room.id, sp.lang)
            room = self.repo.room_by_id(room.id)
        seed = new_seed()  # replaced by a reproducible one at the start when a base seed is set
        seats = [SeatRec(seat=0, name=sp.user.name, user_id=sp.user.id)]
        # "uus gnav 5 bottia": the AI players asked for, as many as the table holds
        wanted = cmd.count or 0
        kind = ai_kind(_level_words(cmd), engine)
        for number in range(1, min(wanted, engine.max_players - 1) + 1):
            seats.append(SeatRec(seat=len(seats), name=f"Botti {number}", ai=kind))
        created = self.repo.create_match(room.id, ui.game_id, options, seed, sp.user.id, tuple(seats))
        created = self._set_pace(created, chosen, zone)
        out = [*self.renderer.lobby(created, room), *self.groups.privacy_notice(room)]
        if wanted > engine.max_players - 1:
            out.append(
                reply(
                    msg,
                    t,
                    t.gettext("{game} takes at most {high} players, so I added {bots} AI players.").format(
                        game=ui.title(t), high=engine.max_players, bots=engine.max_players - 1
                    ),
                )
            )
        return out

    def _lobbies_open(self, msg: Inbound, sp: Speaker, t: Translator) -> Outbound | None:
        """One lobby waiting for players per person per group (its forum topics included), and at
        most :data:`MAX_OPEN_LOBBIES` overall (issue #27: one user opened a hundred): the refusal, or
        None when the speaker may open one."""
        assert sp.room is not None
        mine = [
            m
            for m in self.repo.matches_of_user(sp.user.id)
            if m.status == LOBBY and m.host_user_id == sp.user.id
        ]
        here = sp.room
        for m in mine:
            room = self.repo.room_by_id(m.room_id)
            if room.platform == here.platform and same_chat(room.ext_id, here.ext_id):
                # (a room holds one game at a time: this room's own is answered before we get here)
                text = t.gettext(
                    "Your game {game} is still waiting for players in another topic of this group. Start "
                    "it there, or cancel it there with “cancel” before you set up another."
                )
                return reply(msg, t, text.format(game=self.uis[m.game].title(t)))
        if len(mine) >= MAX_OPEN_LOBBIES:
            games = t.format_list([self.uis[m.game].title(t) for m in mine])
            text = t.ngettext(
                "You have {n} game waiting for players already ({games}). Start it or cancel it with "
                "“cancel” where you set it up before you set up another.",
                "You have {n} games waiting for players already ({games}). Start one or cancel one with "
                "“cancel” where you set it up before you set up another.",
                len(mine),
            )
            return reply(msg, t, text.format(n=len(mine), games=games))
        return None

    def _set_pace(self, match: MatchRec, chosen: pace.Pace, zone: str | None) -> MatchRec:
        """The match's pace (its meta; the engine never sees it), and the room's time zone."""
        if zone is not None:
            self.repo.kv_set(pace.NS_ROOM_ZONE, str(match.room_id), zone)
        if chosen == pace.Pace.from_meta(match.meta.get("pace")):
            return match
        self.repo.set_meta(match.id, "pace", chosen.to_meta())
        updated = self.repo.match(match.id)
        assert updated is not None
        return updated

    def options(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, cmd: Command
    ) -> list[Outbound]:
        """``asetukset kierrokset=3``: the lobby's options, changed by whoever runs the lobby."""
        assert sp.room is not None
        ui, engine = self.uis[match.game], self.games[match.game]
        if match.status != LOBBY:
            return [reply(msg, t, t.gettext("Options can be changed only before the game starts."))]
        changes = [x for x in cmd.tokens if "=" in x]
        if not changes:
            shown = ui.options_text(match.options, t) or (
                ", ".join(f"{k}={v}" for k, v in sorted(match.options.items())) or "–"
            )
            chosen = pace.Pace.from_meta(match.meta.get("pace"))
            if chosen.chosen:
                described = pace.describe(chosen, t, self.settings.remind_after, self.settings.act_after)
                shown += " · " + (described or "")
            return [
                reply(
                    msg,
                    t,
                    t.gettext(
                        "Options of this game: {options}. Change them with e.g. “options {example}”."
                    ).format(options=shown, example=ui.option_example(t)),
                )
            ]
        if not self.roles.runs_lobby(match, sp.user.id) and not self.roles.is_admin(msg, sp.room):
            return [reply(msg, t, self.roles.who_may_lobby(t, "options"))]
        try:
            typed_pace, changes_of_game = pace.split_options(changes)
            chosen, zone = pace.apply_options(pace.Pace.from_meta(match.meta.get("pace")), typed_pace)
            options = {**match.options, **_parse_options(ui, engine, changes_of_game)}
            engine.new_game(engine.max_players, "check", engine.options_from_dict(options))
        except (ValueError, TypeError, ArithmeticError):
            return [
                reply(
                    msg,
                    t,
                    t.gettext("I did not understand the option {option}. Nothing was changed.").format(
                        option=t.format_list(changes)
                    ),
                )
            ]
        if not self.repo.update_lobby(match.id, match.version, match.seats, options=options):
            raise Conflict(lobby=True)
        updated = self.repo.match(match.id)
        assert updated is not None
        return self.renderer.lobby(self._set_pace(updated, chosen, zone), sp.room)

    def suggested(self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec) -> list[Outbound]:
        """The lobby's offer taken with its button (the quick game of a first game, issue #28)."""
        assert sp.room is not None
        offer = self.renderer.suggestion(match, t)
        if offer is None:
            return stale(msg, t)
        if not self.roles.runs_lobby(match, sp.user.id) and not self.roles.is_admin(msg, sp.room):
            return [reply(msg, t, self.roles.who_may_lobby(t, "options"))]
        options = {**match.options, **offer[2]}
        if not self.repo.update_lobby(match.id, match.version, match.seats, options=options):
            raise Conflict(lobby=True)
        updated = self.repo.match(match.id)
        assert updated is not None
        return self.renderer.lobby(updated, sp.room)

    # --- seats ---------------------------------------------------------------------------------
    def join(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, cmd_tokens: Sequence[str] = ()
    ) -> list[Outbound]:
        assert sp.room is not None
        if match.status != LOBBY:
            if self.finder.seat_of(match, sp.user) is not None:
                return [reply(msg, t, t.gettext("You are already playing in this game."))]
            if left_seat(match, sp.user.id) is not None:
                return self.back(msg, sp, t, match)  # rejoining the room and "liity": the seat back
            return [reply(msg, t, t.gettext("The game has already started; join the next one."))]
        # "liity Liisa" takes one more seat under another name: one person may play several seats
        # (hot seat, e.g. on the console table); their private messages say which seat they are for
        extra_name = " ".join(x for x in cmd_tokens if x.casefold() not in {"as", "nimellä", "nimella"})
        if not extra_name and match.meta.get("rematch") and any(s.user_id == sp.user.id for s in match.seats):
            # "Olen mukana" in a rematch lobby, the first time or again (issue #27: a second press
            # once told how to take a second seat)
            return self.seating.rematch_yes(msg, sp, t, match, sp.room)
        if any(s.user_id == sp.user.id for s in match.seats) and not extra_name:
            return [
                reply(
                    msg,
                    t,
                    t.gettext("You already have a seat. To play one more seat yourself, write “join NAME”."),
                )
            ]
        engine = self.games[match.game]
        if len(match.seats) >= engine.max_players:
            return [reply(msg, t, t.gettext("The table is full."))]
        name = new_seat_name((s.name for s in match.seats), extra_name or sp.user.name)
        seats = (*match.seats, SeatRec(seat=len(match.seats), name=name, user_id=sp.user.id))
        if not self.repo.update_lobby(match.id, match.version, seats):
            raise Conflict(lobby=True)
        updated = self.repo.match(match.id)
        assert updated is not None
        if updated.meta.get("rematch"):  # joining a rematch's lobby is a yes to it
            return self.seating.start_or_wait(self.seating.said_yes(updated, sp.user.id), sp.room)
        return self.renderer.lobby(updated, sp.room)

    def ai_seat(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, cmd: Command
    ) -> list[Outbound]:
        assert sp.room is not None
        if match.status != LOBBY:
            return [reply(msg, t, t.gettext("Seats can be changed only before the game starts."))]
        if not self.roles.runs_lobby(match, sp.user.id) and not self.roles.is_admin(msg, sp.room):
            return [reply(msg, t, self.roles.who_may_lobby(t, "ai"))]
        engine = self.games[match.game]
        count = max(1, cmd.count or 1)
        if cmd.name == "add_ai":
            if len(match.seats) >= engine.max_players:
                return [reply(msg, t, t.gettext("The table is full."))]
            kind = ai_kind(_level_words(cmd), engine)
            added = list(match.seats)
            for _ in range(min(count, engine.max_players - len(match.seats))):
                number = 1 + sum(1 for s in added if s.ai)
                added.append(SeatRec(seat=len(added), name=f"Botti {number}", ai=kind))
            seats = tuple(added)
        else:
            bots = [s for s in match.seats if s.ai]
            if not bots:
                return [reply(msg, t, t.gettext("There is no AI player to remove."))]
            gone = {id(s) for s in bots[-count:]}
            remaining = [s for s in match.seats if id(s) not in gone]
            seats = tuple(replace(s, seat=i) for i, s in enumerate(remaining))
        if not self.repo.update_lobby(match.id, match.version, seats):
            raise Conflict(lobby=True)
        updated = self.repo.match(match.id)
        assert updated is not None
        return self.renderer.lobby(updated, sp.room)

    def start(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, fill: bool | None = None
    ) -> list[Outbound]:
        """ "aloita": deal, after asking once whether to fill the empty seats of a table smaller than
        the game's usual one (``fill`` is the answer: "täytä" / "pelataan näin")."""
        assert sp.room is not None
        if match.status != LOBBY:
            return [reply(msg, t, t.gettext("The game is already running."))]
        if not self.roles.runs_lobby(match, sp.user.id) and not self.roles.is_admin(msg, sp.room):
            return [reply(msg, t, self.roles.who_may_lobby(t, "start"))]
        waiting = rematch_waiting(match)
        if waiting:
            shown = seat_names(match.seats)
            return [
                reply(
                    msg,
                    t,
                    t.gettext(
                        "Waiting for {names} to say yes to the new game (“join”); whoever will not play writes "
                        "“leave”."
                    ).format(names=t.format_list([shown[s.seat] for s in waiting])),
                )
            ]
        seats = self.seating.seats_to_deal(match, fill)
        if seats is None:
            return self.renderer.fill_question(match, sp.room, usual_table(self.games[match.game]))
        return self.seating.deal(match, sp.room, seats)

    def leave_or_cancel(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, name: str
    ) -> list[Outbound]:
        room = self.repo.room_by_id(match.room_id)
        tg = i18n.translator(room.lang or "fi")
        seated = [s for s in match.seats if s.user_id == sp.user.id]
        humans_left = [s for s in match.seats if s.user_id is not None and s.user_id != sp.user.id]
        title = self.uis[match.game].title(tg)
        if name == "cancel":
            # the lobby: whoever runs it or an admin; a running game: its host or an admin (or the
            # last person playing it); a private "cancel" is only ever the sender's own game
            if not self.roles.may_end(msg, match, room, sp.user.id):
                if match.status == LOBBY:
                    return [reply(msg, t, self.roles.who_may_lobby(t, "cancel"))]
                return [reply(msg, t, self.roles.who_may_end(t, match, sp.user.id))]
        elif not seated:
            return [reply(msg, t, t.gettext("You have no seat in this game."))]
        if name == "cancel" or (match.status == LOBBY and not humans_left):
            self.seating.change(match, match.seats, status=CANCELLED)
            return [
                Outbound(
                    room.platform,
                    tg.gettext("The game {game} was cancelled by {name}.").format(
                        game=title, name=sp.user.name
                    ),
                    chat_id=room.ext_id,
                    key=f"table:{match.id}",
                    lang=tg.lang,
                    role=TABLE,
                    match_id=match.id,
                )
            ]
        if match.status == LOBBY:
            remaining = [s for s in match.seats if s.user_id != sp.user.id]
            seats = tuple(replace(s, seat=i) for i, s in enumerate(remaining))
            self.seating.change(match, seats)
            updated = self.repo.match(match.id)
            assert updated is not None
            if updated.meta.get("rematch"):  # the others said yes already: they play without them
                return self.seating.start_or_wait(updated, room)
            return self.renderer.lobby(updated, room)
        if not humans_left:
            self.seating.change(match, match.seats, status=CANCELLED)
            return [
                Outbound(
                    room.platform,
                    tg.gettext("{name} left and nobody else is playing, so the game {game} ended.").format(
                        name=sp.user.name, game=title
                    ),
                    chat_id=room.ext_id,
                    key=f"table:{match.id}",
                    lang=tg.lang,
                    role=TABLE,
                    match_id=match.id,
                )
            ]
        engine = self.games[match.game]
        seats = tuple(
            replace(s, user_id=None, ai=engine.default_ai) if s.user_id == sp.user.id else s
            for s in match.seats
        )
        self.seating.change(match, seats, status=RUNNING)
        # whoever left may come back to the seat while the match runs ("palaan", or "liity" again)
        left = dict(match.meta.get("left") or {})
        left.update({str(s.seat): sp.user.id for s in seated})
        self.repo.set_meta(match.id, "left", left)
        text = tg.gettext(
            "{name} left the game; an AI player takes over the seat. Write “back” to take it again."
        ).format(name=sp.user.name)
        updated = self.repo.match(match.id)
        assert updated is not None
        # the table shows at once that the seat is played by an AI now
        table = self.renderer.render_match(updated, room, events=(), privates=False)
        return [Outbound(room.platform, text, chat_id=room.ext_id, lang=tg.lang), *table]

    def back(self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec) -> list[Outbound]:
        """A person who left takes their seat back from the AI that played it meanwhile."""
        if self.finder.seat_of(match, sp.user) is not None:
            return [reply(msg, t, t.gettext("You are already playing in this game."))]
        seat = left_seat(match, sp.user.id)
        if seat is None:
            away = [int(k) for k, v in (match.meta.get("away") or {}).items() if v == sp.user.id]
            if away and match.status == RUNNING and match.seats[away[0]].user_id is None:
                # removed, or the seat given to an AI: only the host or an admin gives it back
                name = clean_name(match.seats[away[0]].name)
                return [
                    reply(
                        msg,
                        t,
                        t.gettext(
                            "Your seat was given to an AI player, so you cannot take it back yourself. The "
                            "player who set up the game or a group admin can bring you back: “restore {name}”."
                        ).format(name=name),
                    )
                ]
            return [reply(msg, t, t.gettext("You have no seat to come back to in this game."))]
        room = self.repo.room_by_id(match.room_id)
        seats = tuple(replace(s, user_id=sp.user.id, ai=None) if s.seat == seat else s for s in match.seats)
        self.seating.change(match, seats, status=RUNNING)
        left = {k: v for k, v in (match.meta.get("left") or {}).items() if int(k) != seat}
        self.repo.set_meta(match.id, "left", left)
        updated = self.repo.match(match.id)
        assert updated is not None
        tg = i18n.translator(room.lang or "fi")
        text = tg.gettext("{name} is back and plays their own seat again.").format(
            name=seat_names(match.seats)[seat]
        )
        out = [Outbound(room.platform, text, chat_id=room.ext_id, lang=tg.lang)]
        out.extend(self.renderer.render_match(updated, room, events=(), privates=False))
        out.extend(self.renderer.private_prompt(updated, room, seat, (), force=True))
        return out

    def _already(self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec) -> Outbound:
        """ "uusi" where a game is set up already: how to end it for whoever may, else who may and
        what the person can do now (join the lobby, leave their seat, or follow the game)."""
        assert sp.room is not None
        title = self.uis[match.game].title(t)
        if self.roles.may_end(msg, match, sp.room, sp.user.id):
            text = t.gettext("This table already has a game: {game}. End it first with “cancel”.")
            return reply(msg, t, text.format(game=title))
        text = t.gettext("This table already has a game: {game}.").format(game=title)
        if match.status == LOBBY:  # (whoever has a seat in a lobby may cancel it)
            way = t.gettext("It is waiting for players: write “join” to take a seat.")
        else:
            way = self.roles.who_may_end(t, match, sp.user.id)
        return reply(msg, t, text + " " + way)

    # --- rematch -------------------------------------------------------------------------------
    def rematch(
        self, msg: Inbound, sp: Speaker, t: Translator, old: MatchRec | None, pressed: int | None = None
    ) -> list[Outbound]:
        """A press of the final message's "Rematch" (``pressed`` is the button's version) or a typed
        "uusi peli samoilla pelaajilla": set up the same game, or say yes to the one set up."""
        if old is None or old.status != OVER:
            if pressed is not None:
                return stale(msg, t)
            return [reply(msg, t, t.gettext("There is no finished game here to play again."))]
        if pressed is not None and pressed != old.version:
            return stale(msg, t)
        if sp.user.id not in people_of(old):
            return [
                reply(
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
                    return self.join(msg, sp, t, active)  # left the rematch's lobby, and is back
                return self.seating.rematch_yes(msg, sp, t, active, room)
            return [self._already(msg, Speaker(sp.user, sp.lang, room), t, active)]
        earlier = old.meta.get("rematched")
        if earlier is not None:
            made = self.repo.match(int(earlier))
            if made is not None and made.status != CANCELLED:
                return stale(msg, t)  # this match was played again already: its button has done its work
        return self.seating.set_up_rematch(old, room, sp)


def same_chat(a: str, b: str) -> bool:
    """Whether two rooms are one group chat: the same room, or the chat and a forum topic of it, or
    two topics of one chat (a topic is a room ``<chat>:<topic>`` of its own)."""
    if a == b or a.startswith(b + ":") or b.startswith(a + ":"):
        return True
    chat_a, _, topic_a = a.rpartition(":")
    chat_b, _, topic_b = b.rpartition(":")
    return bool(chat_a) and chat_a == chat_b and topic_a.isdigit() and topic_b.isdigit()


def left_seat(match: MatchRec, user_id: int) -> int | None:
    """The seat this person left (to an AI) in the running match and may take back."""
    if match.status != RUNNING:
        return None
    for seat, owner in (match.meta.get("left") or {}).items():
        if owner == user_id and match.seats[int(seat)].user_id is None:
            return int(seat)
    return None


def _parse_options(ui: GameUI, engine: Engine, args: Sequence[str]) -> dict[str, Any]:
    words = ui.option_words()
    flags = {fold(k.casefold()): v for k, v in ui.option_flags().items()}
    options: dict[str, Any] = {}
    for arg in args:
        if "=" not in arg:
            flag = flags.get(fold(arg.casefold().strip(".,!")))
            if flag is not None:  # "uusi afrikan tähti pikapeli"
                options[flag[0]] = flag[1]
            continue
        key, _, value = arg.partition("=")
        key = words.get(key.casefold(), key.casefold())
        options[key] = _option_value(value)
    # unknown keys and bad values raise ValueError now, not when the cards are dealt
    engine.new_game(engine.max_players, "check", engine.options_from_dict(options))
    return options


def _option_value(text: str) -> Any:
    """``3`` -> 3, ``on``/``kyllä`` -> True, ``off``/``ei`` -> False, anything else stays text."""
    low = text.casefold()
    if low.lstrip("-").isdigit():
        return int(low)
    if low in {"on", "true", "yes", "kyllä", "kylla", "päällä", "paalla"}:
        return True
    if low in {"off", "false", "no", "ei", "pois"}:
        return False
    return text


#: words for AI levels -> the AI names to try, in order (every game has easy / normal / strong; the
#: older names some games also have are tried after them)
_AI_WORDS: dict[str, tuple[str, ...]] = {
    "satunnainen": ("random",),
    "random": ("random",),
    "helppo": ("easy", "random"),
    "easy": ("easy", "random"),
    "fiksu": ("smart", "normal", "sensible"),
    "smart": ("smart", "normal", "sensible"),
    "normaali": ("normal", "sensible", "smart"),
    "normal": ("normal", "sensible", "smart"),
    "järkevä": ("normal", "sensible", "smart"),
    "jarkeva": ("normal", "sensible", "smart"),
    "sensible": ("sensible", "normal", "smart"),
    "vahva": ("strong", "smart"),
    "strong": ("strong", "smart"),
    "vaikea": ("strong", "smart"),
    "hard": ("strong", "smart"),
}


def _level_words(cmd: Command) -> Sequence[str]:
    """The words that say an AI level: the level read in any form ("kaks helppoa bottia": easy),
    else the command's words as typed."""
    return (cmd.level,) if cmd.level else cmd.args


def ai_kind(args: Sequence[str], engine: Engine) -> str:
    """The AI policy that words such as "vahva" / "easy" ask for, else the game's default."""
    for word in args:
        for kind in _AI_WORDS.get(word.casefold(), (word.casefold(),)):
            if kind in engine.ais:
                return kind
    return engine.default_ai
