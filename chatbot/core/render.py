"""The messages that show a match: the group's table (with its news, buttons and final standings), a
seat's private prompt, the lobby, and the hint of what a seat may do now.

Rendering decides nothing and stores nothing: the use case that changed the match has stored its
deadlines already and hands them in (the table says when the next reminder is). Hidden information
reaches only private messages: group texts are rendered from ``view(state, None)`` and public
events; private texts from ``view(state, seat)`` and that seat's events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from chatbot.core import i18n, pace, pictures, turns
from chatbot.core.decoded import Decoded
from chatbot.core.gameui import GameUI, RenderContext
from chatbot.core.i18n import Translator
from chatbot.core.people import People, clean_name, seat_names
from chatbot.core.ports import LOBBY, REMIND, Deadline, MatchRec, Repository, RoomRec, SeatRec
from chatbot.core.schedule import room_zone
from chatbot.core.turn import Turn
from chatbot.core.types import PROMPT, TABLE, Button, Outbound
from chatbot.core.usecase import CoreSettings, rows
from engines.contract import Engine, Event

#: match meta key: the seats' changes of hands while the match runs, each ``{"ply": …, "seat": …,
#: "name": …, "ai": …}`` with what the table showed for the seat before the change at that ply
SEAT_LOG = "seat_log"


def stood_in_now(match: MatchRec) -> set[int]:
    """The seats of people that an AI plays for now (they left, or their seat was given to an AI)."""
    held = {int(k) for k in (match.meta.get("left") or {})} | {int(k) for k in (match.meta.get("away") or {})}
    return {s.seat for s in match.seats if s.user_id is None and s.seat in held}


def rematch_waiting(match: MatchRec) -> list[SeatRec]:
    """The seats of people who have not said yes to the rematch yet ([] for other lobbies)."""
    info = match.meta.get("rematch")
    if not info or match.status != LOBBY:
        return []
    yes = {int(u) for u in info.get("yes", [])}
    return [s for s in match.seats if s.user_id is not None and s.user_id not in yes]


def ai_level(kind: str, t: Translator) -> str:
    """The level word of an AI seat's policy for the lobby, "Botti 1 🤖 (vahva)" (issue #18)."""
    if kind in ("easy", "helppo"):
        return t.pgettext("AI level", "easy")
    if kind in ("strong", "vahva"):
        return t.pgettext("AI level", "strong")
    if kind == "random":
        return t.pgettext("AI level", "random")
    return t.pgettext("AI level", "normal")  # smart, sensible, normal: the default level


class Renderer:
    """Draws a match's messages from its views; reads storage (names, languages, the log), never
    writes it."""

    def __init__(
        self,
        repo: Repository,
        games: dict[str, Engine],
        uis: dict[str, GameUI],
        decoded: Decoded,
        settings: CoreSettings,
        clock: Callable[[], float],
        people: People | None = None,
    ) -> None:
        self.repo = repo
        self.games = games
        self.uis = uis
        self.decoded = decoded
        self.settings = settings
        self.clock = clock
        #: who is who: the language of each person's private texts (issue #27)
        self.people = people or People(repo)

    # --- the table -----------------------------------------------------------------------------
    def table_names(self, match: MatchRec, t: Translator) -> tuple[str, ...]:
        """The seats' names on the table: cleaned and told apart, and a person's seat that an AI plays
        for now marked so ("Carol (tekoäly)"), so the group sees who is really playing."""
        marked = stood_in_now(match)
        return tuple(
            t.gettext("{name} (AI)").format(name=name) if seat in marked else name
            for seat, name in enumerate(seat_names(match.seats))
        )

    def _names_at(self, match: MatchRec, t: Translator, ply: int, now: tuple[str, ...]) -> tuple[str, ...]:
        """The names the table showed when the action that made ``ply`` was taken: a seat that
        changed hands after it (a leave, a hand-over, a seat given to an AI) is told under the name it
        had then, so nobody's own earlier lines are relabelled "(tekoäly)" or given to another."""
        names = list(now)
        for change in reversed(match.meta.get(SEAT_LOG) or []):
            seat = int(change.get("seat", -1))
            if ply <= int(change.get("ply", -1)) and 0 <= seat < len(names):
                name = clean_name(str(change.get("name") or names[seat]))
                names[seat] = t.gettext("{name} (AI)").format(name=name) if change.get("ai") else name
        return tuple(names) if names != list(now) else now

    def render_match(
        self,
        match: MatchRec,
        room: RoomRec,
        events: Sequence[Event],
        privates: bool = True,
        keyed: bool = True,
        state: Any = None,
        detail: bool = False,
        deadlines: Sequence[Deadline] | None = None,
        actor: int | None = None,
        note: str | None = None,
        summary: str | None = None,
        chain: Sequence[tuple[Sequence[Event], str | None]] = (),
    ) -> list[Outbound]:
        """The table (with the headlines before it and the final standings after it) and, when
        ``privates``, each seated person's private prompt. ``state`` is ``match.state`` loaded, when
        the caller has it (the state just made); ``deadlines`` are the ones just planned (else the
        stored ones are read for the table's reminder line). ``actor`` is the seat whose move this
        is (its panel shows how its turn went); ``note`` a line of news besides the events, and
        ``summary`` a line above the final standings. ``chain``: the actions taken in the same
        change after this one (each one's events and its line of news, which comes first)."""
        engine = self.games[match.game]
        ui = self.uis[match.game]
        assert match.state is not None
        # the state's facts (views, legal actions) are kept with it: the table's buttons and each
        # seat's private prompt below read the legal actions worked out once per seat
        turn = self.decoded.turn(match, None, state)
        state = turn.state
        t = i18n.translator(room.lang or "fi")
        names = self.table_names(match, t)
        ctx = RenderContext(t, names, None, match.options)
        public_view = turn.public_view
        lines: list[str] = []
        steps = self.decoded.recent_public_steps(match)
        if events or chain:
            steps = steps[: max(0, len(steps) - 1 - len(chain))]  # the fresh ones are below
        for ply, step in steps:
            then = self._names_at(match, t, ply, names)
            lines.extend(ui.render_events(step, ctx if then is names else replace(ctx, names=then)))
        fresh = ui.render_events([e for e in events if e.public], ctx)
        if note:
            fresh.append(note)
        for later, line in chain:
            fresh.extend([line] if line else [])
            fresh.extend(ui.render_events([e for e in later if e.public], ctx))
        events = [*events, *(e for later, _line in chain for e in later)]
        keep = ui.recent_lines
        if ui.recent_shrinks:  # many fresh lines leave room for fewer old ones
            keep = max(0, keep - len(fresh))
        recent = lines[-keep:] if keep > 0 else []
        body = (ui.render_detail(public_view, ctx) if detail else None) or ui.render_table(public_view, ctx)
        text = "\n".join([*(f"· {x}" for x in recent), *(f"▸ {x}" for x in fresh), "", body]).strip()
        outcome = engine.outcome(state)
        due = self._due_line(match, deadlines, t) if outcome is None else None
        if due:
            text += "\n" + due
        if room.platform in self.settings.addressed_only and outcome is None:
            text += "\n\n" + t.gettext("↩️ Reply to this message to type your move.")
        buttons: list[list[Button]] = []
        acting = turn.acting
        for seat in acting:
            rec = match.seats[seat]
            if rec.user_id is None:
                continue
            for row in ui.button_rows(turn.group_notations(ui, seat), public_view, ctx):
                buttons.append([Button(label, f"{match.id}:{match.version}:{n}") for label, n in row])
        # the table one tap away (issue #29): the group's link opens the public table only
        buttons.append(
            self.settings.web_row(room.platform, match.id, None, t.gettext("🌐 Table in the browser"))
        )
        image = self._picture(match, ui, state, public_view, ctx)
        # the news of this action (a duel's result, a winner) as messages of their own that stay
        out = [
            Outbound(room.platform, line, chat_id=room.ext_id, lang=t.lang)
            for line in ui.headlines([e for e in events if e.public], ctx)
        ]
        out += [
            Outbound(
                room.platform,
                text,
                chat_id=room.ext_id,
                buttons=rows(buttons),
                image=image,
                key=f"table:{match.id}" if keyed else None,
                lang=t.lang,
                role=TABLE if keyed else "",
                match_id=match.id,
                version=match.version,
            )
        ]
        if outcome is not None:
            out.append(
                Outbound(
                    room.platform,
                    "\n".join(
                        [*([summary] if summary else []), self.final_text(ctx, outcome, ui, public_view)]
                    ),
                    chat_id=room.ext_id,
                    buttons=self._rematch_button(match, t),
                    lang=t.lang,
                )
            )
        if privates:
            records = self.turn_records(match, state, public_view)
            for rec in match.seats:
                if rec.user_id is None:
                    continue
                mine = [e for e in events if e.to is not None and rec.seat in e.to]
                out.extend(
                    self.private_prompt(
                        match,
                        room,
                        rec.seat,
                        mine,
                        force=rec.seat in acting or rec.seat == actor,
                        state=state,
                        actor=actor,
                        records=records,
                    )
                )
        return out

    def _picture(
        self, match: MatchRec, ui: GameUI, state: Any, public_view: Any, ctx: RenderContext
    ) -> bytes | None:
        """The table's picture: of the state the mark of this moment of the game names (the same
        bytes all the moment long), else of the state as it is (:mod:`chatbot.core.pictures`)."""
        shown = pictures.ply_shown(match.meta, ui.picture_moment(public_view), getattr(state, "ply", None))
        then = self.decoded.state_at(match, shown) if shown is not None else None
        if then is not None:
            public_view = self.games[match.game].view(then, None)
        return ui.render_image(public_view, ctx)

    def turn_records(self, match: MatchRec, state: Any, public_view: Any = None) -> dict[str, Any]:
        """Each seat's latest turn, as the schedule stores it with this version's deadlines (the
        same whether ``match`` was read before or after they were stored)."""
        engine = self.games[match.game]
        ui = self.uis[match.game]
        if public_view is None:
            public_view = engine.view(state, None)
        acting = engine.to_act(state)
        people = {s: user for s in acting if (user := match.seats[s].user_id) is not None}
        window = turns.window_of(ui.deadline(public_view), ui.window_key(public_view), match.version)
        return turns.advance(
            match.meta.get(turns.META), turns.marks(public_view, acting), window, people, match.version, 0.0
        )

    def _due_line(self, match: MatchRec, deadlines: Sequence[Deadline] | None, t: Translator) -> str | None:
        """When the waited-for person is reminded, on the table of a match whose group chose its
        pace (the default live table moves on within minutes, and says nothing)."""
        chosen = pace.Pace.from_meta(match.meta.get("pace"))
        if not chosen.chosen:
            return None
        if deadlines is None:
            deadlines = self.repo.deadlines(match.id)
        remind = [d for d in deadlines if d.kind == REMIND]
        if not remind:
            return None
        when = pace.when_text(remind[0].due, self.clock(), room_zone(self.repo, match.room_id), t)
        return t.gettext("⏰ Next reminder {when}.").format(when=when)

    def final_text(self, ctx: RenderContext, outcome: Any, ui: GameUI, public_view: Any) -> str:
        """The winners and the standings, each number saying what it is (points, lives, money)."""
        t = ctx.t
        winners = t.format_list([ctx.name(s) for s in outcome.winners])
        lines = [
            t.ngettext(
                "🏆 The winner is {names}!", "🏆 The winners are {names}!", len(outcome.winners)
            ).format(names=winners)
        ]
        order = sorted(range(len(outcome.ranks)), key=lambda s: outcome.ranks[s])
        for s in order:
            lines.append(
                t.gettext("{rank}. {name}: {score}").format(
                    rank=outcome.ranks[s],
                    name=ctx.name(s),
                    score=ui.score_text(s, outcome.scores[s], public_view, ctx),
                )
            )
        lines.append(
            t.gettext(
                "Thanks for playing! “Rematch” plays the same game again with the same players; “new” starts another."
            )
        )
        return "\n".join(lines)

    def _rematch_button(self, match: MatchRec, t: Translator) -> tuple[tuple[Button, ...], ...]:
        return ((Button(t.gettext("🔁 Rematch"), f"{match.id}:{match.version}:@rematch"),),)

    def private_prompt(
        self,
        match: MatchRec,
        room: RoomRec,
        seat: int,
        events: Sequence[Event],
        force: bool,
        state: Any = None,
        actor: int | None = None,
        records: dict[str, Any] | None = None,
        ended: bool = False,
    ) -> list[Outbound]:
        """The seat's private message: its events, its panel and, when it is to act, its buttons
        (nothing when no person plays the seat, or nothing happened to it and ``force`` is off;
        ``ended``: the panel alone, as a turn that is over shows it).

        One panel per turn (issue #28): while the seat acts, and for the move that ended its turn
        (``actor``), the message has the key of the seat's turn, so each step edits the turn's one
        message; a new message only when a turn begins or something happened to a seat out of its
        turn."""
        rec = match.seats[seat]
        if rec.user_id is None or (not events and not force):
            return []
        ui = self.uis[match.game]
        turn = self.decoded.turn(match, seat, state)  # the facts the table read, when it is the same state
        if records is None:
            records = self.turn_records(match, turn.state)
        mine = turns.record(records, seat)
        # the turn's one panel while the seat acts; once its own move ended the turn, the panel
        # loses its buttons, unless that move brought the seat news (a new round's cards): a message
        keyed = mine is not None and (turn.to_act or (seat == actor and not events))
        user = self.repo.user_by_id(rec.user_id)
        t = i18n.translator(self.people.lang(user, room))
        names = seat_names(match.seats)
        ctx = RenderContext(t, names, seat, match.options)
        view = turn.view
        parts = [
            ui.title(t)
            + (f" – {names[seat]}" if sum(1 for s in match.seats if s.user_id == rec.user_id) > 1 else "")
        ]
        parts.extend(f"▸ {x}" for x in ui.render_events(events, ctx))
        panel = ui.render_private(view, ctx)
        if panel:
            parts.append(panel)
        buttons: list[list[Button]] = []
        if turn.to_act and not ended:
            parts.append(
                ui.prompt_line(view, ctx)
                or t.gettext("Your turn, {name}! What will you do?").format(name=names[seat])
            )
            for row in ui.button_rows(turn.notations, view, ctx):
                buttons.append([Button(label, f"{match.id}:{match.version}:{n}") for label, n in row])
        # the player's own link into the web view: the table with their hand beside it
        buttons.append(
            self.settings.web_row(
                room.platform, match.id, user.ext_id, t.gettext("🌐 Your view in the browser")
            )
        )
        return [
            Outbound(
                room.platform,
                "\n".join(parts),
                user_id=user.ext_id,
                buttons=rows(buttons),
                key=turns.panel_key(match.id, seat, mine) if keyed and mine is not None else None,
                lang=t.lang,
                role=PROMPT,
                match_id=match.id,
                version=match.version,
                seat=seat,
            )
        ]

    def ended_panel(
        self, match: MatchRec, room: RoomRec, seat: int, armed: Mapping[str, Any], state: Any
    ) -> Outbound:
        """A person's panel ``armed`` (its key, its person) once the match has moved past its
        buttons: the seat's panel as it is now, without the buttons of the match; a person who no
        longer plays the seat is told so (and sees nothing of the seat's hand now)."""
        rec = match.seats[seat] if 0 <= seat < len(match.seats) else None
        key, user_ext = str(armed.get("k")), str(armed.get("u"))
        platform = str(armed.get("p") or room.platform)
        if rec is not None and rec.user_id is not None and rec.user_id == armed.get("i"):
            for out in self.private_prompt(match, room, seat, (), force=True, state=state, ended=True):
                return replace(out, key=key)
        user_id = armed.get("i")
        user = self.repo.user_by_id(int(user_id)) if isinstance(user_id, int) else None
        t = i18n.translator(self.people.lang(user, room) if user is not None else "fi")
        title = self.uis[match.game].title(t)
        return Outbound(
            platform,
            t.gettext("{game}: you no longer play in this seat.").format(game=title),
            user_id=user_ext,
            key=key,
            lang=t.lang,
            role=PROMPT,
            match_id=match.id,
            version=match.version,
            seat=seat,
        )

    # --- what a seat may do --------------------------------------------------------------------
    def hint(self, match: MatchRec, seat: int, t: Translator, private: bool, turn: Turn | None = None) -> str:
        """Whose turn it is, or what the seat may do now (in words where the game has them); in a
        group, only when listing the moves reveals nothing. ``turn`` is the update's turn context,
        when the caller has one."""
        ui = self.uis[match.game]
        assert match.state is not None
        turn = turn.at(seat) if turn is not None else self.decoded.turn(match, seat)
        names = seat_names(match.seats)
        if not turn.to_act:
            who = t.format_list([names[s] for s in turn.acting])
            return t.gettext("Now it is {name}’s turn.").format(name=who)
        if not private and not turn.group_safe(ui):
            return t.gettext("Your options are in our private chat.")
        # in the group, the moves in the words of the group's table (a seat's own labels may tell
        # its hand: Gnav's "Vaihdan (matadori lähtee)")
        rctx = RenderContext(t, names, seat if private else None, match.options)
        view = turn.view if private else turn.public_view
        legal = turn.notations
        phrases = [ui.action_phrase(n, view, rctx) for n in legal]
        if phrases and all(phrases):
            # "Voit koputtaa tai lopettaa vuorosi." (issue #15): words in a sentence, not button labels
            options = t.format_list(_dedupe([p for p in phrases if p])[:8], style="or")
            return t.gettext("You can {options}.").format(options=options)
        labels = _dedupe([ui.action_label(n, view, rctx) for n in legal])
        return t.gettext("You can: {options}.").format(options=t.format_list(labels[:12]))

    # --- the lobby -----------------------------------------------------------------------------
    def lobby(self, match: MatchRec, room: RoomRec) -> list[Outbound]:
        """The lobby's message: who is seated, the options and pace, and how to join and start."""
        t = i18n.translator(room.lang or "fi")
        ui = self.uis[match.game]
        engine = self.games[match.game]
        seated = seat_names(match.seats)
        names = t.format_list(
            [seated[s.seat] + (f" 🤖 ({ai_level(s.ai, t)})" if s.ai else "") for s in match.seats]
        )
        rematch, rematch_button = self._rematch_lines(match, t)
        paced = pace.describe(
            pace.Pace.from_meta(match.meta.get("pace")),
            t,
            self.settings.remind_after,
            self.settings.act_after,
        )
        text = "\n".join(
            [
                t.gettext("🎲 {game}: waiting for players ({low}–{high}).").format(
                    game=ui.title(t), low=engine.min_players, high=engine.max_players
                ),
                t.gettext("Seated: {names}").format(names=names),
                *([f"⚙️ {shown}"] if (shown := ui.options_text(match.options, t)) else []),
                *([paced] if paced else []),
                *rematch,
                *([offer[0]] if (offer := self.suggestion(match, t)) else []),
            ]
            + (
                []
                if rematch_button
                else [
                    t.gettext(
                        "Press “Join” to take a seat, “Add bot” for an AI player, and “Start” to begin "
                        "(or write /join, /start). Type your moves as replies to my messages."
                    )
                    if room.platform in self.settings.addressed_only
                    else t.gettext(
                        "Write “join” to take a seat, “add bot” for an AI player, and “start” to begin."
                    )
                ]
            )
        )
        v = match.version
        buttons = [
            [
                Button(t.gettext("Join"), f"{match.id}:{v}:@join"),
                Button(t.gettext("Add bot"), f"{match.id}:{v}:@add_ai"),
                Button(t.gettext("Start"), f"{match.id}:{v}:@start"),
            ]
        ]
        if offer is not None and not rematch_button:
            buttons.append([Button(offer[1], f"{match.id}:{v}:@suggested")])
        if rematch_button:
            buttons = [rematch_button]
        return [
            Outbound(
                room.platform,
                text,
                chat_id=room.ext_id,
                buttons=rows(buttons),
                key=f"table:{match.id}",
                lang=t.lang,
                role=TABLE,
                match_id=match.id,
                version=match.version,
            )
        ]

    def suggestion(self, match: MatchRec, t: Translator) -> tuple[str, str, dict[str, Any]] | None:
        """The game's offer to a table that has not finished it before, as the records tell (the
        quick game of a first Afrikan Tähti, issue #28); None for a table that has, or a rematch."""
        offer = self.uis[match.game].suggestion(match.options, t)
        if offer is None or match.meta.get("rematch"):
            return None
        finished = self.repo.finished_matches(room_id=match.room_id)
        return None if any(f.game == match.game for f in finished) else offer

    def _rematch_lines(self, match: MatchRec, t: Translator) -> tuple[list[str], list[Button]]:
        """The rematch lobby's own lines and button (nothing for an ordinary lobby)."""
        if not match.meta.get("rematch"):
            return [], []
        waiting = rematch_waiting(match)
        yes = {int(u) for u in (match.meta.get("rematch") or {}).get("yes", [])}
        shown = seat_names(match.seats)
        ready = [shown[s.seat] for s in match.seats if s.user_id is not None and s.user_id in yes]
        lines = [t.gettext("🔁 The same game again, with the same players.")]
        if ready:
            lines.append(t.gettext("In: {names}").format(names=t.format_list(ready)))
        if waiting:
            lines.append(
                t.gettext(
                    "Waiting for {names} to press “I'm in” (or write “join”); whoever will not play writes “leave”."
                ).format(names=t.format_list([shown[s.seat] for s in waiting]))
            )
        button = [Button(t.gettext("I'm in"), f"{match.id}:{match.version}:@join")] if waiting else []
        return lines, button

    def fill_question(self, match: MatchRec, room: RoomRec, usual: int) -> list[Outbound]:
        """The lobby's message becomes the question whether to fill the empty seats up to the
        ``usual`` table (asked once: it stays until it is answered or the seats change)."""
        t = i18n.translator(room.lang or i18n.DEFAULT_LANGUAGE)
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


def _dedupe(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))
