"""A table that fits a phone (issue 17, part 4): a six-player group table of about 20 lines at
most, the detail on demand ("näytä tilanne"), and the events that matter as messages of their own
that stay."""

from __future__ import annotations

import statistics

import pytest

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.games.afrikan_tahti import UI
from engines.contract import ev
from tests.chatbot.table import GROUP, Table
from tests.chatbot.test_afrikan_tahti_expansion_chat import press_smart

SIX = ("anna", "bertta", "ceder", "daavid", "eemeli", "fanni")


def six_player_table(presses: int) -> Table:
    table = Table(seed="kuusi")
    table.say("anna", "uusi afrikan tähti pikapeli")
    for u in SIX[1:]:
        table.say(u, "liity")
    table.say("anna", "aloita")
    for _ in range(presses):
        if not table.acting_users():
            break
        press_smart(table, table.acting_users()[0])
    return table


@pytest.mark.slow
def test_a_six_player_table_stays_about_twenty_lines_and_the_detail_is_asked_for():
    table = six_player_table(100)
    tables = [o.text for o in table.sent if o.chat_id == GROUP and o.key]
    sizes = [len(text.splitlines()) for text in tables]
    assert len(sizes) > 50
    assert max(sizes) <= 21, max(sizes)  # the quick game's deal at the start is the longest
    assert statistics.median(sizes) <= 17
    # every player on one line with the expedition's symbols and the hand count
    last = tables[-1]
    assert sum("🃏" in line and "🎒" in line for line in last.splitlines()) == 6
    # the Star found and the expeditions completed are messages of their own, not only table lines
    unkeyed = [o.text for o in table.sent if o.chat_id == GROUP and not o.key]
    assert any("löysi Afrikan tähden" in text for text in unkeyed)
    assert any("Retkikunta koossa" in text for text in unkeyed)
    # the detail: characters and expedition cards
    out = table.say("anna", "tilanne")
    detail = "\n".join(o.text for o in out if o.chat_id == GROUP)
    assert detail.count("🎭") == 6 and "🂠" in detail
    assert len(detail.splitlines()) > len(last.splitlines()) - 4


def test_events_that_matter_are_messages_of_their_own():
    ctx = RenderContext(translator("fi"), ("Anna", "Bertta"), None)
    news = UI.headlines(
        [
            ev("rolled", None, seat=0, die=4, purpose="move"),
            ev("star_found", None, seat=0, place="sahara"),
            ev("expedition_complete", None, seat=1),
            ev("duel_rescued", None, seat=1, attacker=0, defender=1),
        ],
        ctx,
    )
    assert len(news) == 3
    assert "Afrikan tähden" in news[0] and "Bertta" in news[1] and "pelastaa" in news[2]
    assert not UI.headlines([ev("expedition_complete", 1, seat=1)], ctx)  # private: no headline
