"""Play: a typed move or a pressed button, read by the game's parser, checked by the engine and
applied; the refusal says why not and what is possible instead.

:meth:`Play.apply` is the one place a move is committed: the action and the new snapshot in one
transaction, the result of a match that ended, the match's next deadlines, then its messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from chatbot.core import i18n
from chatbot.core.certainty import Certainty, labelled, relabelled
from chatbot.core.decoded import Decoded, Finder
from chatbot.core.gameui import GameUI, RenderContext
from chatbot.core.i18n import LANGUAGES, Translator, translator
from chatbot.core.parsing import Ambiguous, Later, NotLegal, NotUnderstood, ParseContext, Parsed, ParseResult
from chatbot.core.people import seat_names
from chatbot.core.ports import OVER, RUNNING, THEN, MatchRec, Repository, RoomRec
from chatbot.core.questions import META_REFUSAL
from chatbot.core.records import Records
from chatbot.core.render import Renderer
from chatbot.core.schedule import Schedule
from chatbot.core.seating import Seating
from chatbot.core.turn import Turn
from chatbot.core.types import Button, Inbound, Outbound
from chatbot.core.usecase import Conflict, Speaker, not_here, reply, stale
from engines.codec import BadNotation, encode
from engines.contract import Engine, Event, IllegalAction

#: at most this many single actions taken in a row for people (a guard: each one is a commit)
AUTOMATIC_STEPS = 20


class Play:
    """The use cases of a running match's moves."""

    def __init__(
        self,
        repo: Repository,
        games: dict[str, Engine],
        uis: dict[str, GameUI],
        decoded: Decoded,
        finder: Finder,
        renderer: Renderer,
        schedule: Schedule,
        records: Records,
        seating: Seating,
        certainty: Certainty,
    ) -> None:
        self.repo = repo
        self.games = games
        self.uis = uis
        self.decoded = decoded
        self.finder = finder
        self.renderer = renderer
        self.schedule = schedule
        self.records = records
        self.seating = seating
        #: whether text not addressed to the bot is a move (issue #27)
        self.certainty = certainty

    # --- typed text ----------------------------------------------------------------------------
    def reads(self, msg: Inbound, sp: Speaker, t: Translator, text: str) -> bool:
        """Whether the running game of the speaker's seat reads ``text`` as a move of its own."""
        match = self.finder.context_match(msg, sp)
        if match is None or match.status != RUNNING or match.state is None:
            return False
        seat = self.finder.seat_of(match, sp.user, prefer_acting=True)
        if seat is None:
            return False
        turn = self.decoded.turn(match, seat)
        result = self.uis[match.game].parse(text, _parse_context(msg, t, match, turn))
        return not isinstance(result, NotUnderstood)

    def text(self, msg: Inbound, sp: Speaker, t: Translator, text: str) -> list[Outbound]:
        """A text that is no meta command, read as a move of the speaker's match."""
        match = self.finder.context_match(msg, sp)
        if match is None or match.status != RUNNING or match.state is None:
            if msg.private:
                return [
                    reply(
                        msg,
                        t,
                        t.gettext(
                            "I did not understand. Write “help” for the commands, or ask about the rules."
                        ),
                    )
                ]
            return []  # ordinary chat in a group without a game
        seat = self.finder.seat_of(match, sp.user, prefer_acting=True)
        ui = self.uis[match.game]
        # the one turn context of this update: the parser, the check, the apply and the answer read it
        turn = self.decoded.turn(match, seat)
        ctx = _parse_context(msg, t, match, turn)
        result = ui.parse(text, ctx)
        addressed = msg.private or msg.addressed
        first = result.actions[0] if isinstance(result, Parsed) and result.actions and turn.to_act else None
        legal = first is not None and first in turn.legal
        if legal and not self._certain(text, match, turn, ctx, result):
            # a legal move read from words that say more than the move (a question, a hedge, words
            # outside the game, a button's label with other numbers): said to the friends it is
            # their talk; said to the bot it is asked back, with the move's button (issue #27)
            return [self._question(msg, t, match, turn, (first,))] if addressed else []
        if not (addressed or legal):
            return []  # friends talking in the group: only a move of the player to act is the bot's
        if seat is None:
            if isinstance(result, NotUnderstood):
                return []
            return [reply(msg, t, t.gettext("You are not playing in this game."))]
        match result:
            case Parsed(actions=actions) if actions:
                return self.apply_many(match, turn, actions, msg, t)
            case NotLegal(code=code, params=params):
                return self._refusal(msg, t, match, turn, code, dict(params))
            case Ambiguous(candidates=candidates):
                return [self._question(msg, t, match, turn, candidates[:8])]
        names = seat_names(match.seats)
        if not turn.to_act:
            if msg.private:
                who = t.format_list([names[s] for s in turn.acting])
                return [reply(msg, t, t.gettext("It is {name}’s turn now.").format(name=who))]
            return []
        private_info = not turn.group_safe(ui)
        return [
            reply(
                msg,
                t,
                t.gettext("I did not understand that.")
                + " "
                + self.renderer.hint(match, seat, t, private=msg.private or private_info, turn=turn),
                private=True if private_info else None,
            )
        ]

    def _certain(
        self, text: str, match: MatchRec, turn: Turn, ctx: ParseContext[Any], result: ParseResult
    ) -> bool:
        """Whether the text is the move itself, to apply at once (:mod:`chatbot.core.certainty`):
        one legal move of the seat to act, every word of it the game's (or the move's button label
        as it is), asking nothing, no button's label copied with other numbers. Otherwise addressed
        text is asked back and the group's talk is left alone."""
        if not (turn.to_act and isinstance(result, Parsed) and result.actions):
            return False
        first = result.actions[0]
        if first not in turn.legal:
            return False
        labels = self._labels(match, turn, first)
        if any(relabelled(text, label) for label in labels):
            return False
        if any(labelled(text, label) for label in labels):
            return True  # a button's label typed or copied: the game's own words
        return self.certainty.move(text, self.uis[match.game], ctx.lang, ctx.seat_names)

    def _labels(self, match: MatchRec, turn: Turn, action: Any) -> list[str]:
        """The labels of ``action``'s button in each language."""
        if turn.seat is None:
            return []
        ui, names = self.uis[match.game], tuple(s.name for s in match.seats)
        notation = turn.notation(action)
        return [
            ui.action_label(
                notation, turn.view, RenderContext(translator(lang), names, turn.seat, match.options)
            )
            for lang in LANGUAGES
        ]

    def _question(
        self, msg: Inbound, t: Translator, match: MatchRec, turn: Turn, candidates: Sequence[Any]
    ) -> Outbound:
        """Which of the ``candidates`` (legal actions) the player means, with a button for each; in
        private when listing them would tell the group something hidden."""
        ui = self.uis[match.game]
        names = seat_names(match.seats)
        view = turn.view
        rctx = RenderContext(t, names, turn.seat, match.options)
        notations = [turn.notation(c) for c in candidates]
        labels = [ui.action_label(n, view, rctx) for n in notations]
        buttons = [
            [Button(label, f"{match.id}:{match.version}:{n}")]
            for label, n in zip(labels, notations, strict=True)
        ]
        question = t.gettext("Which one do you mean: {options}?").format(options=t.format_choices(labels))
        phrases = [ui.action_phrase(n, view, rctx) for n in notations]
        if all(phrases) and len(set(phrases)) == len(phrases):
            # "Haluatko pitää korttisi vai pyytää vaihtoa?" (issue #15): words, not button labels;
            # one choice is a yes-or-no ("Haluatko yrittää kääntää merkin nopalla?")
            said = [p for p in phrases if p]
            options = (
                said[0]
                if len(said) == 1
                else t.gettext("{first} or {last}").format(first=", ".join(said[:-1]), last=said[-1])
            )
            question = t.gettext("Do you want to {options}?").format(options=options)
        private_info = not turn.group_safe(ui)
        asked = reply(msg, t, question, buttons, private=True if private_info else None)
        # its buttons act on the match as a prompt's do
        return replace(asked, match_id=match.id, version=match.version)

    # --- a pressed move ------------------------------------------------------------------------
    def press(
        self,
        msg: Inbound,
        sp: Speaker,
        t: Translator,
        match: MatchRec,
        room: RoomRec,
        version: int,
        notation: str,
    ) -> list[Outbound]:
        """A move's button, pressed in ``room`` (the match's room) or in a private chat: it acts only
        where it was offered, by a seat of the presser that is to act, at the match's version."""
        in_room = not msg.private and msg.chat_id == room.ext_id
        mine = [s.seat for s in match.seats if s.user_id == sp.user.id]
        if msg.private:
            if not mine:
                return not_here(msg, t)  # someone else's prompt (or a forged one): nothing about it is told
        elif not in_room:
            return not_here(msg, t)
        if match.status != RUNNING or match.state is None or version != match.version:
            return stale(msg, t)
        turn = self.decoded.turn(match)
        acting = [s for s in turn.acting if s in mine]
        if not mine:
            return [reply(msg, t, t.gettext("You are not playing in this game."), private=msg.private)]
        if not acting:
            return [reply(msg, t, t.gettext("It is not your turn."), private=msg.private)]
        turn = turn.at(acting[0])
        first, *then = notation.split(THEN)
        if not msg.private:
            # the group's table shows only the moves that reveal nothing: other data is forged
            if not self._on_table(match, turn, notation):
                return not_here(msg, t)
            action = turn.legal_action(first)
        else:
            # a button of several steps acts only as the seat's own prompt offers it
            if then and not self._offered(match, turn, notation, turn.notations, turn.view):
                return not_here(msg, t)
            try:
                action = turn.engine.parse_notation(first)
            except BadNotation:
                return self._refusal(msg, t, match, turn, "bad_action", {})
        return self.apply_many(match, turn, [action, *(Later(step) for step in then)], msg, t)

    def _on_table(self, match: MatchRec, turn: Turn, notation: str) -> bool:
        """Whether the group's table offers ``notation`` to the turn's seat: a legal move the group
        may see, or a button of its steps that the table shows."""
        offered = turn.group_notations(self.uis[match.game])
        if THEN not in notation:
            return notation in offered
        return self._offered(match, turn, notation, offered, turn.public_view)

    def _offered(self, match: MatchRec, turn: Turn, notation: str, legal: Sequence[str], view: Any) -> bool:
        """Whether the buttons drawn for ``legal`` from ``view`` include ``notation`` (a button of
        several steps, whose first one is among ``legal``)."""
        if notation.split(THEN)[0] not in legal:
            return False
        ui = self.uis[match.game]
        ctx = RenderContext(
            i18n.translator("en"), tuple(s.name for s in match.seats), turn.seat, match.options
        )
        return any(n == notation for row in ui.button_rows(legal, view, ctx) for _label, n in row)

    # --- refusals ------------------------------------------------------------------------------
    def _refusal(
        self,
        msg: Inbound,
        t: Translator,
        match: MatchRec,
        turn: Turn,
        code: str,
        params: dict[str, Any],
    ) -> list[Outbound]:
        """Why a move is refused and what is possible instead; in private when the answer would tell
        the group something hidden. A move refused because it is someone else's turn (by the engine
        or by the game's parser) gets the core's own short line naming whose turn it is."""
        assert turn.seat is not None
        names = seat_names(match.seats)
        if code == "not_your_turn" or (not turn.to_act and code in {"wrong_phase", "unknown_action"}):
            who = t.format_list([names[s] for s in turn.acting])
            return [
                reply(msg, t, t.gettext("It is not your turn; now it is {name}’s turn.").format(name=who))
            ]
        ui = self.uis[match.game]
        self._remember_refusal(match, turn.seat, code, params)
        reason = ui.reason_text(code, params, RenderContext(t, names, turn.seat, match.options))
        private_info = not turn.group_safe(ui)
        hint = self.renderer.hint(match, turn.seat, t, private=msg.private or private_info, turn=turn)
        return [reply(msg, t, reason + "\n" + hint, private=True if private_info else None)]

    def _remember_refusal(self, match: MatchRec, seat: int, code: str, params: dict[str, Any]) -> None:
        """The seat's last refusal, for a later "miksi?" (:mod:`chatbot.core.questions`)."""
        refusals = dict(match.meta.get(META_REFUSAL) or {})
        refusals[str(seat)] = {"code": code, "params": {k: v for k, v in params.items() if _plain(v)}}
        self.repo.set_meta(match.id, META_REFUSAL, refusals)

    # --- applying ------------------------------------------------------------------------------
    def apply_many(
        self, match: MatchRec, turn: Turn, actions: Sequence[Any], msg: Inbound, t: Translator
    ) -> list[Outbound]:
        """Apply ``actions`` (the engine's objects, or :class:`Later` steps that the game turns into
        one when their time comes) in order for the turn's seat. The engine checks each as it
        applies it: the first one refused is answered with the engine's reason; a later step ("…and
        knock") that is not possible after the first is dropped, and so are the steps after it."""
        if match.meta.get("paused"):
            text = t.gettext(
                "The game is paused because I am not in its group any more. It goes on when someone adds "
                "me back."
            )
            return [reply(msg, t, text)]
        assert turn.seat is not None
        done: list[tuple[Sequence[Event], str | None]] = []
        current, state = match, turn.state
        steps = list(actions)
        while steps and len(done) < AUTOMATIC_STEPS:
            action = steps.pop(0)
            if isinstance(action, Later):
                resolved = self._resolve(current, turn.seat, state, action.notation)
                if resolved is None:
                    if done:
                        break
                    return self._refusal(msg, t, current, turn, "bad_action", {})
                action, *more = resolved
                steps[:0] = [Later(step) for step in more]
            try:
                current, state, events = self._commit(current, turn.seat, action, state)
            except IllegalAction as exc:
                if done:
                    break
                return self._refusal(msg, t, current, turn, exc.code, exc.params)
            done.append((events, None))
            if current.status != RUNNING:
                break
        return self._finish(current, state, done, turn.seat)

    def apply(
        self,
        match: MatchRec,
        seat: int,
        action: Any,
        state: Any = None,
        note: str | None = None,
        render: bool = True,
    ) -> list[Outbound]:
        """Apply ``action`` (the engine's object), store it and the snapshot in one transaction with
        the match's next deadlines, and render (unless ``render`` is off: AI seats playing a match
        out). The engine checks the action as it applies it: a refused one raises
        :class:`IllegalAction` before anything is stored. ``state`` saves a reload; ``note`` is a
        line of news for the table besides the action's events."""
        updated, new_state, events = self._commit(match, seat, action, state)
        return self._finish(updated, new_state, [(events, note)], seat, render)

    def _finish(
        self,
        match: MatchRec,
        state: Any,
        done: list[tuple[Sequence[Event], str | None]],
        actor: int,
        render: bool = True,
    ) -> list[Outbound]:
        """After the actions ``done`` (each one's events and line of news): the single actions that
        are no decision, the match's next deadlines, and its messages, drawn once.

        A person whose only legal action is no decision (:meth:`GameUI.automatic`: the roll that
        must come, the one way a move can end) does not press for it: it is taken here, in the same
        transaction, and the table says so (issue #28)."""
        while render and match.status == RUNNING and len(done) < AUTOMATIC_STEPS:
            forced = self._forced(match, state)
            if forced is None:
                break
            seat, action, line = forced
            match, state, events = self._commit(match, seat, action, state)
            done.append((events, line))
        if match.status == OVER:
            self.seating.remember_finished(match)
        deadlines = self.schedule.plan(match, state)
        if not render:
            return []
        room = self.repo.room_by_id(match.room_id)
        (events, note), *chain = done
        return self.renderer.render_match(
            match, room, events=events, state=state, deadlines=deadlines, actor=actor, note=note, chain=chain
        )

    def _resolve(self, match: MatchRec, seat: int, state: Any, step: str) -> tuple[Any, ...] | None:
        """The action a later step stands for now (see :class:`Later`) and the notations of the
        steps the game puts after it; None when no action fits."""
        now = self.decoded.turn(match, seat, state)
        if seat not in now.acting:
            return None
        notation = self.uis[match.game].resolve_step(step, now.view, now.notations)
        if notation is None:
            return None
        first, *more = notation.split(THEN)
        try:
            return (now.engine.parse_notation(first), *more)
        except BadNotation:
            return None

    def _commit(self, match: MatchRec, seat: int, action: Any, state: Any) -> tuple[MatchRec, Any, Any]:
        """Apply and store one action: the match as stored then, the new state and its events."""
        engine = self.games[match.game]
        if state is None:
            assert match.state is not None
            state = self.decoded.state(match)
        new_state, events = engine.apply(state, seat, action)
        notation = engine.notation(action)  # the action log's edge
        status = OVER if engine.outcome(new_state) is not None else RUNNING
        snapshot = engine.dump(new_state)
        if not self.repo.commit_action(
            match.id,
            match.version,
            seat,
            notation,
            [encode(e) for e in events],
            snapshot,
            status,
        ):
            raise Conflict()
        self.decoded.keep_events(
            (match.id, int(snapshot.get("ply", match.version + 1)), seat, notation), events
        )
        if status == OVER:
            self.records.store_result(match, new_state)
        updated = self.repo.match(match.id)
        assert updated is not None
        # the next update reads this snapshot back: decoded already (kept only if it is the same)
        self.decoded.keep_state((updated.id, updated.version), snapshot, new_state)
        return updated, new_state, events

    def _forced(self, match: MatchRec, state: Any) -> tuple[int, Any, str] | None:
        """The one seat to act, a person's, and its only legal action when the game says it is no
        decision, with the table's line that says it was taken; None otherwise. A reaction window
        is never answered so (its time is the choice), nor an action the group may not see."""
        ui = self.uis[match.game]
        turn = self.decoded.turn(match, None, state)
        if len(turn.acting) != 1:
            return None
        seat = turn.acting[0]
        if match.seats[seat].user_id is None or ui.deadline(turn.public_view) is not None:
            return None  # AI seats move by their own deadline
        legal = turn.legal_of(seat)
        if len(legal) != 1:
            return None
        notation = turn.notations_of(seat)[0]
        if notation not in turn.group_notations(ui, seat) or not ui.automatic(notation, turn.public_view):
            return None
        room = self.repo.room_by_id(match.room_id)
        t = i18n.translator(room.lang or "fi")
        ctx = RenderContext(t, tuple(s.name for s in match.seats), None, match.options)
        line = t.gettext("⏩ {name}: {action} (the only choice, so I did it at once)").format(
            name=match.seats[seat].name, action=ui.action_label(notation, turn.public_view, ctx)
        )
        return seat, legal[0], line


def _parse_context(msg: Inbound, t: Translator, match: MatchRec, turn: Turn) -> ParseContext[Any]:
    """What the game's parser reads: the speaker's legal actions and view from the turn; games may
    ask before a move that would reveal a hidden card, but only where asking is private."""
    return ParseContext(
        lang=t.lang,
        seat=turn.seat,
        legal=turn.legal,
        view=turn.view,
        seat_names=seat_names(match.seats),
        private=msg.private,
    )


def _plain(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None
