"""No hidden card ever reaches the group: every group message of 200 chat games is scanned.

Two checks per group message, made at the moment it is rendered:
1. no line that went to a player in private (drawn card, peek result, the initial look) appears;
2. every card it names (cards are bracketed in texts) is a card of a public event of the actions the
   message covers, or of the public table (discard top, revealed rows) — never a held, dealt or
   peeked card.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from chatbot.compose import new_core
from chatbot.core.i18n import translator
from chatbot.core.ports import RenderContext
from chatbot.core.service import RECENT_ACTIONS, BotCore
from chatbot.games.majavajengi import UI
from engines import GAMES
from engines.codec import decode
from engines.contract import Event
from tests.chatbot.table import Table

ENGINE = GAMES["majavajengi"]


class ScanningCore(BotCore):
    checked = 0

    def _render_match(self, match, room, events, privates=True, keyed=True):
        out = super()._render_match(match, room, events, privates, keyed)
        state = ENGINE.load(match.state)
        t = translator(room.lang or "fi")
        ctx = RenderContext(t, tuple(s.name for s in match.seats), None, match.options)
        allowed = Counter(UI.cards_in(UI.render_table(ENGINE.view(state, None), ctx)))
        ply = state.ply
        types = {**ENGINE.types, "Event": Event}
        public_events = [decode(e, types) for a in self.repo.actions(match.id, max(0, ply - RECENT_ACTIONS))
                         for e in a.events]
        public_events += list(events)
        for line in UI.render_events([e for e in public_events if e.public], ctx):
            allowed.update(UI.cards_in(line))
        private_lines = {line for o in out if o.private for line in o.text.splitlines() if line.startswith("▸")}
        for o in out:
            if o.private:
                continue
            named = Counter(UI.cards_in(o.text))
            assert not (named - allowed), (o.text, named - allowed)
            for line in o.text.splitlines():
                assert line not in private_lines, line
            ScanningCore.checked += 1
        return out


@pytest.mark.slow
def test_two_hundred_chat_games_leak_no_hidden_card():
    rng = random.Random(2026)
    for game in range(200):
        table = Table(seed=f"leak{game}")
        table.core = new_core(table.repo, cls=ScanningCore, seed=f"leak{game}")
        humans = ["matti", "liisa", "pekka"][: rng.randint(1, 3)]
        bots = rng.randint(0 if len(humans) > 1 else 1, 2)
        table.say(humans[0], "uusi majavajengi rounds=1")
        for u in humans[1:]:
            table.say(u, "liity")
        for _ in range(bots):
            table.say(humans[0], "lisää botti")
        table.say(humans[0], "aloita")
        table.play_randomly(rng)
    assert ScanningCore.checked > 200 * 10
