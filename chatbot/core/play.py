"""Play: a typed move or a pressed button, read by the game's parser, checked by the engine and
applied; the refusal says why not and what is possible instead.

:meth:`Play.apply` is the one place a move is committed: the action and the new snapshot in one
transaction, the result of a match that ended, the match's next deadlines, then its messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from chatbot.core.decoded import Decoded, Finder
from chatbot.core.i18n import Translator
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed
from chatbot.core.people import seat_names
from chatbot.core.ports import OVER, RUNNING, GameUI, MatchRec, RenderContext, Repository, RoomRec
from chatbot.core.questions import META_REFUSAL
from chatbot.core.records import Records
from chatbot.core.render import Renderer, group_safe
from chatbot.core.schedule import Schedule
from chatbot.core.seating import Seating
from chatbot.core.types import Button, Inbound, Outbound
from chatbot.core.usecase import Conflict, Speaker, not_here, reply, stale
from engines.codec import BadNotation, encode
from engines.contract import Engine, IllegalAction


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

    # --- typed text ----------------------------------------------------------------------------
    def reads(self, msg: Inbound, sp: Speaker, t: Translator, text: str) -> bool:
        """Whether the running game of the speaker's seat reads ``text`` as a move of its own."""
        match = self.finder.context_match(msg, sp)
        if match is None or match.status != RUNNING or match.state is None:
            return False
        seat = self.finder.seat_of(match, sp.user, prefer_acting=True)
        if seat is None:
            return False
        engine, ui = self.games[match.game], self.uis[match.game]
        state = self.decoded.state(match)
        legal = tuple(engine.notation(a) for a in engine.legal_actions(state, seat))
        ctx = ParseContext(
            lang=t.lang,
            seat=seat,
            legal=legal,
            view=engine.view(state, seat),
            seat_names=seat_names(match.seats),
            private=msg.private,
        )
        return not isinstance(ui.parse(text, ctx), NotUnderstood)

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
        engine = self.games[match.game]
        ui = self.uis[match.game]
        state = self.decoded.state(match)
        acting = engine.to_act(state)
        view = engine.view(state, seat)
        legal = (
            tuple(engine.notation(a) for a in engine.legal_actions(state, seat)) if seat is not None else ()
        )
        names = seat_names(match.seats)
        # games may ask before a move that would reveal a hidden card, but only where asking is private
        ctx = ParseContext(
            lang=t.lang, seat=seat, legal=legal, view=view, seat_names=names, private=msg.private
        )
        result = ui.parse(text, ctx)
        if seat is None:
            if isinstance(result, NotUnderstood):
                return []
            return [reply(msg, t, t.gettext("You are not playing in this game."))]
        private_info = not group_safe(ui, engine, state, seat)
        match result:
            case Parsed(actions=actions) if actions:
                return self.apply_many(match, seat, actions, msg, t, state)
            case NotLegal(code=code, params=params):
                if code == "not_your_turn" or (
                    seat not in acting and code in {"wrong_phase", "unknown_action"}
                ):
                    who = t.format_list([names[s] for s in acting])
                    return [
                        reply(
                            msg,
                            t,
                            t.gettext("It is not your turn; now it is {name}’s turn.").format(name=who),
                        )
                    ]
                return self._refusal(msg, t, match, state, seat, code, dict(params))
            case Ambiguous(candidates=candidates):
                rctx = RenderContext(t, names, seat, match.options)
                buttons = [
                    [Button(ui.action_label(c, view, rctx), f"{match.id}:{match.version}:{c}")]
                    for c in candidates[:8]
                ]
                labels = t.format_choices([ui.action_label(c, view, rctx) for c in candidates[:8]])
                question = t.gettext("Which one do you mean: {options}?").format(options=labels)
                phrases = [ui.action_phrase(c, view, rctx) for c in candidates[:8]]
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
                asked = reply(msg, t, question, buttons, private=True if private_info else None)
                # its buttons act on the match as a prompt's do
                return [replace(asked, match_id=match.id, version=match.version)]
        if seat not in acting:
            if msg.private:
                who = t.format_list([names[s] for s in acting])
                return [reply(msg, t, t.gettext("It is {name}’s turn now.").format(name=who))]
            return []
        return [
            reply(
                msg,
                t,
                t.gettext("I did not understand that.")
                + " "
                + self.renderer.hint(match, seat, t, private=msg.private or private_info),
                private=True if private_info else None,
            )
        ]

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
        engine = self.games[match.game]
        state = self.decoded.state(match)
        acting = [s for s in engine.to_act(state) if s in mine]
        if not mine:
            return [reply(msg, t, t.gettext("You are not playing in this game."), private=msg.private)]
        if not acting:
            return [reply(msg, t, t.gettext("It is not your turn."), private=msg.private)]
        if not msg.private:
            # the group's table shows only the moves that reveal nothing: other data is forged
            ui = self.uis[match.game]
            legal = tuple(engine.notation(a) for a in engine.legal_actions(state, acting[0]))
            if notation not in ui.group_actions(legal, engine.view(state, None)):
                return not_here(msg, t)
        return self.apply_many(match, acting[0], (notation,), msg, t, state)

    # --- refusals ------------------------------------------------------------------------------
    def _refusal(
        self,
        msg: Inbound,
        t: Translator,
        match: MatchRec,
        state: Any,
        seat: int,
        code: str,
        params: dict[str, Any],
    ) -> list[Outbound]:
        """Why a move is refused and what is possible instead; in private when the answer would tell
        the group something hidden."""
        engine = self.games[match.game]
        ui = self.uis[match.game]
        names = seat_names(match.seats)
        self._remember_refusal(match, seat, code, params)
        reason = ui.reason_text(code, params, RenderContext(t, names, seat, match.options))
        private_info = not group_safe(ui, engine, state, seat)
        hint = self.renderer.hint(match, seat, t, private=msg.private or private_info)
        return [reply(msg, t, reason + "\n" + hint, private=True if private_info else None)]

    def _remember_refusal(self, match: MatchRec, seat: int, code: str, params: dict[str, Any]) -> None:
        """The seat's last refusal, for a later "miksi?" (:mod:`chatbot.core.questions`)."""
        refusals = dict(match.meta.get(META_REFUSAL) or {})
        refusals[str(seat)] = {"code": code, "params": {k: v for k, v in params.items() if _plain(v)}}
        self.repo.set_meta(match.id, META_REFUSAL, refusals)

    # --- applying ------------------------------------------------------------------------------
    def apply_many(
        self,
        match: MatchRec,
        seat: int,
        notations: Sequence[str],
        msg: Inbound,
        t: Translator,
        loaded: Any = None,
    ) -> list[Outbound]:
        """``loaded`` is ``match.state`` already loaded by the caller (states are immutable: a
        match is loaded once per update, not once per step)."""
        if match.meta.get("paused"):
            text = t.gettext(
                "The game is paused because I am not in its group any more. It goes on when someone adds "
                "me back."
            )
            return [reply(msg, t, text)]
        out: list[Outbound] = []
        current = match
        for i, notation in enumerate(notations):
            engine = self.games[current.game]
            assert current.state is not None
            state = loaded if i == 0 and loaded is not None else self.decoded.state(current)
            try:
                action = engine.parse_notation(notation)
                engine.check(state, seat, action)
            except (IllegalAction, BadNotation) as exc:
                if i > 0:
                    break  # a follow-up step ("…and knock") that is not possible now is dropped
                if isinstance(exc, IllegalAction):
                    return self._refusal(msg, t, current, state, seat, exc.code, exc.params)
                return self._refusal(msg, t, current, state, seat, "bad_action", {})
            out.extend(self.apply(current, seat, notation, state))
            refreshed = self.repo.match(current.id)
            if refreshed is None or refreshed.status != RUNNING:
                break
            current = refreshed
        return out

    def apply(self, match: MatchRec, seat: int, notation: str, state: Any = None) -> list[Outbound]:
        """Apply, store the action and the snapshot in one transaction with the match's next
        deadlines, and render. ``state`` saves a reload."""
        engine = self.games[match.game]
        if state is None:
            assert match.state is not None
            state = self.decoded.state(match)
        action = engine.parse_notation(notation)
        new_state, events = engine.apply(state, seat, action)
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
        room = self.repo.room_by_id(match.room_id)
        updated = self.repo.match(match.id)
        assert updated is not None
        # the next update reads this snapshot back: decoded already (kept only if it is the same)
        self.decoded.keep_state((updated.id, updated.version), snapshot, new_state)
        if status == OVER:
            self.seating.remember_finished(updated)
        deadlines = self.schedule.plan(updated, new_state)
        return self.renderer.render_match(updated, room, events=events, state=new_state, deadlines=deadlines)


def _plain(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None
