"""Showing a match where it is asked for: the table ("tila"), the board as a picture ("kartta") and
one's own hand ("käsi"). These change nothing in the match (a panel asked for comes anew)."""

from __future__ import annotations

from dataclasses import replace

from chatbot.core import turns
from chatbot.core.decoded import Decoded, Finder
from chatbot.core.gameui import GameUI, RenderContext
from chatbot.core.i18n import Translator
from chatbot.core.people import seat_names
from chatbot.core.ports import LOBBY, RUNNING, MatchRec, Repository
from chatbot.core.render import Renderer
from chatbot.core.types import Inbound, Outbound
from chatbot.core.usecase import Speaker, reply
from engines.contract import Engine


class Views:
    """The read-only use cases that show a match."""

    def __init__(
        self,
        repo: Repository,
        games: dict[str, Engine],
        uis: dict[str, GameUI],
        decoded: Decoded,
        finder: Finder,
        renderer: Renderer,
    ) -> None:
        self.repo = repo
        self.games = games
        self.uis = uis
        self.decoded = decoded
        self.finder = finder
        self.renderer = renderer

    def status(self, msg: Inbound, sp: Speaker, t: Translator) -> list[Outbound]:
        match = self.finder.context_match(msg, sp)
        if match is None:
            return [reply(msg, t, t.gettext("No game is running here. Start one with “new”."))]
        room = self.repo.room_by_id(match.room_id)
        # asked in private, the copy is in the asker's language (the group's table in the group's)
        shown = replace(room, lang=t.lang) if msg.private else room
        if match.status == LOBBY:
            table = self.renderer.lobby(match, shown)
        else:
            table = self.renderer.render_match(
                match, shown, events=(), privates=False, keyed=False, detail=True
            )
        if msg.private:
            # asked in private: a copy of the public table here, not a new one in the group (its
            # buttons belong to the group's table)
            table = [
                replace(o, chat_id=None, user_id=msg.user_id, key=None, buttons=(), reply_to=msg.message_id)
                for o in table
            ]
        if match.status == LOBBY:
            return table
        seat = self.finder.seat_of(match, sp.user, prefer_acting=True)
        if seat is not None:
            match = self._panel_anew(match, seat)
            table.extend(self.renderer.private_prompt(match, room, seat, events=(), force=True))
        return table

    def _panel_anew(self, match: MatchRec, seat: int) -> MatchRec:
        """Asked for: the seat's panel of this turn comes as a new message (the next steps edit it),
        not as an edit of one far up the chat."""
        if match.status != RUNNING or match.state is None:
            return match
        records = self.renderer.turn_records(match, self.decoded.state(match))
        again = turns.shown_again(records, seat)
        if again is None or seat not in self.games[match.game].to_act(self.decoded.state(match)):
            return match
        self.repo.set_meta(match.id, turns.META, again)
        return self.repo.match(match.id) or match

    def map(self, msg: Inbound, sp: Speaker, t: Translator) -> list[Outbound]:
        """The public table as a picture where the game draws one (text otherwise), where asked."""
        match = self.finder.context_match(msg, sp)
        if match is None or match.status != RUNNING or match.state is None:
            return [reply(msg, t, t.gettext("No game is running here. Start one with “new”."))]
        engine = self.games[match.game]
        ui = self.uis[match.game]
        state = self.decoded.state(match)
        ctx = RenderContext(t, seat_names(match.seats), None, match.options)
        view = engine.view(state, None)
        answer = reply(msg, t, ui.render_detail(view, ctx) or ui.render_table(view, ctx))
        return [replace(answer, image=ui.render_image(view, ctx))]

    def hand(self, msg: Inbound, sp: Speaker, t: Translator) -> list[Outbound]:
        match = self.finder.context_match(msg, sp)
        seat = self.finder.seat_of(match, sp.user, prefer_acting=True) if match else None
        if match is None or seat is None or match.status != RUNNING:
            return [reply(msg, t, t.gettext("You are not playing in a running game."))]
        room = self.repo.room_by_id(match.room_id)
        match = self._panel_anew(match, seat)
        out = self.renderer.private_prompt(match, room, seat, events=(), force=True)
        if not msg.private and any(o.private for o in out):
            # asked in the group: the hand went to the private chat; the group hears only that
            out = [*out, reply(msg, t, t.gettext("I answered you in our private chat."))]
        return out
