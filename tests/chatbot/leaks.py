"""The hidden-information scan, on the core's outbound path (``BotCore.outbound_checks``).

It sees every message a change is about to queue, whatever use case made it (a move, a timer, a seat
change, an answer to a question), and checks it against the match it belongs to (its ``match_id``, or
for a group message without one, the room's running match):

- no message prints an identifier its reader may not know (``engine.hidden_tokens``), in its text or
  its buttons' data;
- a group message names only cards that are on the public table or in a public event of the recent
  actions, repeats no private event line, shows no private heading and offers no private move.

A failure raises inside the unit (the change is rolled back and logged, which fails the test through
the fixture in tests/conftest.py) and is kept in ``failures`` as well.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from chatbot.core.gameui import GameUI, RenderContext
from chatbot.core.i18n import translator
from chatbot.core.ports import RUNNING, MatchRec
from chatbot.core.types import Outbound
from engines.codec import decode
from engines.contract import Engine, Event

#: how many recent actions' public events may name a card (as many as a table shows)
RECENT = 6


class Leak(AssertionError):
    pass


class LeakScan:
    def __init__(
        self,
        core: Any,
        private_only: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
        private_verbs: Mapping[str, set[str]] | None = None,
    ) -> None:
        self.core = core
        self.private_only = private_only or {}
        self.private_verbs = private_verbs or {}
        #: group messages checked, and what was found
        self.checked = 0
        self.failures: list[str] = []

    def install(self) -> LeakScan:
        self.core.outbound_checks.append(self)
        return self

    def __call__(self, outs: Sequence[Outbound]) -> None:
        by_match: dict[int, tuple[MatchRec, list[Outbound]]] = {}
        for out in outs:
            match = self._match_of(out)
            if match is None or match.state is None or match.game not in self.core.games:
                continue
            by_match.setdefault(match.id, (match, []))[1].append(out)
        for match, mine in by_match.values():
            self._scan(match, mine)

    def _match_of(self, out: Outbound) -> MatchRec | None:
        repo = self.core.repo
        if out.match_id is not None:
            return repo.match(out.match_id)
        if out.chat_id is None:
            return None
        for room in repo.rooms_in(out.platform, out.chat_id.split(":")[0]):
            if room.ext_id == out.chat_id:
                match = repo.active_match(room.id)
                return match if match is not None and match.status == RUNNING else None
        return None

    def _then(
        self, match: MatchRec, o: Outbound, engine: Engine, ui: GameUI, ctx: RenderContext
    ) -> Counter[str]:
        """The cards the public table named at the earlier version of this change that ``o`` was
        drawn at (the AI seats of a window answer one after another in one change)."""
        if o.version is None or o.version >= match.version:
            return Counter()
        then = self.core.decoded.state_at(match, int(match.state.get("ply", 0)) - (match.version - o.version))
        if then is None:
            return Counter()
        return Counter(ui.cards_in(ui.render_table(engine.view(then, None), ctx)))

    def _fail(self, what: str) -> None:
        self.failures.append(what)
        raise Leak(what)

    def _scan(self, match: MatchRec, outs: list[Outbound]) -> None:
        repo = self.core.repo
        engine: Engine = self.core.games[match.game]
        ui: GameUI = self.core.uis[match.game]
        state = engine.load(match.state)
        room = repo.room_by_id(match.room_id)
        lang = room.lang or "fi"
        public_view = engine.view(state, None)
        types = {**engine.types, "Event": Event}
        # a message drawn at an earlier version of this change (one change may apply several actions:
        # the AI seats of a window, a single answer taken at once) shows the actions before that one
        earliest = min((o.version for o in outs if o.version is not None), default=match.version)
        since = max(0, int(match.state.get("ply", 0)) - RECENT - max(0, match.version - earliest))
        recent = repo.actions(match.id, since)
        public = [e for a in recent for e in (decode(x, types) for x in a.events) if e.public]
        if since == 0 and match.seed is not None:  # the deal's own events: no action row holds them
            first = engine.new_game(len(match.seats), match.seed, engine.options_from_dict(match.options))
            public += [e for e in engine.start_events(first) if e.public]
        allowed_in: dict[str, Counter[str]] = {}

        def allowed_for(out_lang: str | None) -> Counter[str]:
            """The cards the group may be told of, as the table tells them in ``out_lang`` (an answer
            to a person goes in their language, which may not be the room's)."""
            key = out_lang or lang
            if key not in allowed_in:
                ctx = RenderContext(translator(key), tuple(s.name for s in match.seats), None, match.options)
                allowed = Counter(ui.cards_in(ui.render_table(public_view, ctx)))
                detail = ui.render_detail(public_view, ctx)
                if detail:
                    allowed |= Counter(ui.cards_in(detail))
                # the moves the group's table offers as buttons are public too ("🎭 Arkeologi" while
                # the characters are chosen in the group), and an answer in the group may name them
                for seat in engine.to_act(state):
                    legal = tuple(engine.notation(a) for a in engine.legal_actions(state, seat))
                    for row in ui.button_rows(ui.group_actions(legal, public_view), public_view, ctx):
                        for label, _n in row:
                            allowed |= Counter(ui.cards_in(label))
                for line in ui.render_events(public, ctx):
                    allowed.update(ui.cards_in(line))
                allowed_in[key] = allowed
            return allowed_in[key]

        # a private event line ("▸ You drew [7]") that names a card is never repeated in the group,
        # even when the card itself is public (the 7 on the discard pile): the line tells who holds it
        private_lines = {
            line
            for o in outs
            if o.private
            for line in o.text.splitlines()
            if line.startswith("▸") and ui.cards_in(line)
        }
        seat_of_user = {
            repo.user_by_id(rec.user_id).ext_id: rec.seat for rec in match.seats if rec.user_id is not None
        }
        for o in outs:
            # a private reader knows their own seat's secrets; anyone else only the public table
            reader = seat_of_user.get(o.user_id) if o.private else None
            hidden = {token.strip('"') for token in engine.hidden_tokens(state, reader)}
            shown = [o.text, *(b.data for row in o.buttons for b in row)]
            found = [token for token in hidden if any(token in x for x in shown)]
            if found:
                self._fail(f"{match.game}: hidden {found} in {o.text!r}")
            if o.private:
                continue
            words = self.private_only.get(match.game, {}).get(lang, ())
            if [w for w in words if w in o.text]:
                self._fail(f"{match.game}: a private heading in the group: {o.text!r}")
            verbs = {
                b.data.split(":", 2)[2].split(" ")[0]
                for row in o.buttons
                for b in row
                if b.data.count(":") >= 2
            }
            if verbs & self.private_verbs.get(match.game, set()):
                self._fail(f"{match.game}: a private move offered in the group: {verbs}")
            out_ctx = RenderContext(
                translator(o.lang or lang), tuple(s.name for s in match.seats), None, match.options
            )
            named = (
                Counter(ui.cards_in(o.text)) - allowed_for(o.lang) - self._then(match, o, engine, ui, out_ctx)
            )
            if named:
                self._fail(f"{match.game}: the group is shown {dict(named)} in {o.text!r}")
            if private_lines.intersection(o.text.splitlines()):
                self._fail(f"{match.game}: a private line in the group: {o.text!r}")
            self.checked += 1
