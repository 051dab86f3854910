"""Issue #16 over the fake Bot API: a round's result is a message of its own that is still in the
group when the table message has been edited on (and coalesced) many times; the final message's
"Uusi peli samoilla pelaajilla" button, pressed by both players, starts the same game again."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import ANNA, BERTTA, GROUP, run
from tests.telegram.test_games import play_by_buttons

pytestmark = pytest.mark.telegram


@pytest.mark.slow  # a whole two-round match over the fake Bot API: about 15 s
def test_round_scores_stay_in_the_group_and_a_rematch_starts_by_buttons(tg):
    async def body():
        async with tg() as h:
            await h.say(ANNA, "/uusi majavajengi kierrokset=2")
            await h.say(BERTTA, "liity")
            await h.settle()
            mid = h.match_id()
            await h.say(ANNA, "aloita")
            await h.settle()
            await play_by_buttons(h, mid)
            await h.settle()
            shown = [m.shown for m in h.server.bot_messages(GROUP)]  # what the group has now
            table = h.table().shown
            for round_ in (1, 2):
                kept = [
                    text
                    for text in shown
                    if text.startswith(f"🦫 Kierroksen {round_} tulos:") and "Kortit" in text
                ]
                assert len(kept) == 1, (round_, shown[-4:])
            assert "Kierroksen 1 pisteet" not in table  # the table moved on past round 1
            final = next(m for m in reversed(h.server.bot_messages(GROUP)) if "🏆" in m.shown)
            assert "pistettä" in final.shown
            [data] = final.callback_data()
            first = h.core.repo.match(mid)
            await h.press(ANNA, GROUP, final, data)
            await h.settle()
            rematch = h.core.repo.match(mid + 1)
            assert rematch is not None and rematch.status == "lobby"
            await h.press(BERTTA, GROUP, final, data)
            await h.settle()
            rematch = h.core.repo.match(mid + 1)
            assert rematch.status == "running"
            assert [(s.name, s.user_id) for s in rematch.seats] == [(s.name, s.user_id) for s in first.seats]
            assert rematch.options == first.options

    run(body(), timeout=120)
