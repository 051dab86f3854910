"""Round results are messages of their own that stay (issue #16): Majavajengi's revealed cards and
round scores, Gnav's settlements, Coloretto's final scoring. The chat is rebuilt from what the script
transport delivered (a keyed message is edited in place), so a result that lived only inside the
table message would be gone after the next move. The console shows each result once, in order, the
last round's too; the final message says only what is still true."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from chatbot.compose import new_core
from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.games.gnav import UI as GNAV
from chatbot.storage import SqlRepository
from chatbot.transports.console import ConsoleTable
from chatbot.transports.script import run_lines
from engines.contract import ev

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def chat_after(name: str, seed: str) -> tuple[list[str], list[dict]]:
    """The group chat as its members see it at the end (edits applied), and everything delivered."""
    lines = (GOLDEN / f"{name}.in.jsonl").read_text(encoding="utf-8").splitlines()
    core = new_core(SqlRepository("sqlite://"), seed=seed)
    delivered = list(run_lines(core, lines))
    chat: list[str] = []
    where: dict[str, int] = {}
    for item in delivered:
        if item.get("chat") != "group":
            continue
        key = item.get("edit")
        if key in where:
            chat[where[key]] = item["text"]  # edited in place
        else:
            if key:
                where[key] = len(chat)
            chat.append(item["text"])
    return chat, delivered


def test_majavajengi_round_scores_stay_after_the_next_moves():
    chat, delivered = chat_after("majavajengi_2p_fi", "golden-fi")
    table_now = next(text for text in chat if "🦫 Majavajengi – kierros" in text)
    for round_ in (1, 2):
        kept = [text for text in chat if text.startswith(f"🦫 Kierroksen {round_} tulos:")]
        assert len(kept) == 1, round_  # one message of its own, with the revealed cards and scores
        assert "Kortit käännetään näkyviin:" in kept[0] and f"Kierroksen {round_} pisteet" in kept[0]
    # the table message itself moved on: round 1 is no longer in it
    assert "Kierroksen 1 pisteet" not in table_now
    # and the result message came before the table that first told it was edited away
    first = next(i for i, x in enumerate(delivered) if "Kierroksen 1 pisteet" in x.get("text", ""))
    assert "edit" not in delivered[first]


def test_gnav_settlements_stay_and_the_last_one_rests_nobody():
    chat, _ = chat_after("gnav_fi", "golden-gnav-fi-13")
    settlements = [text for text in chat if text.startswith("🐦 Jaon ")]
    assert len(settlements) >= 3 and all("💔" in text or "Kukaan" in text for text in settlements)
    final = chat[-1]
    assert "elämä jäljellä" in final and "elämät lopussa" in final  # the numbers say they are lives


def test_the_last_settlement_says_nothing_of_a_next_deal():
    ctx = RenderContext(translator("fi"), ("Matti", "Liisa", "Pekka"))
    events = [
        ev("cards_revealed", None, cards=((0, "fool"), (1, "n3"), (2, "n9")), departed=()),
        ev("deal_settled", None, losers=(1,), lives=(1, 0, 2), eliminated=(1,), rests=(0,)),
    ]
    going_on = GNAV.headlines(events, ctx)
    assert "lepää seuraavan jaon" in going_on[0] or "seuraava" in going_on[0]
    over = GNAV.headlines([*events, ev("match_ended", None, winners=(2,), draw=False, ranks=(2, 3, 1))], ctx)
    assert "seuraava" not in over[0] and "💀 Liisa" in over[0]


def test_coloretto_final_scoring_is_in_the_final_message():
    chat, _ = chat_after("coloretto_2p_fi", "golden-fi-2")
    final = chat[-1]
    assert final.startswith("🏆")
    assert re.search(r"1\. Liisa: 65 pistettä \(rivit 7 \+ pinot 52 \+ bonukset 6\)", final)


def test_the_console_shows_each_round_result_once_and_in_order():
    out = io.StringIO()
    console = ConsoleTable(
        new_core(SqlRepository("sqlite://"), seed="console"), name="Matti", delay=0, out=out
    )
    console.send("uusi majavajengi kierrokset=2")
    console.send("aloita")
    for _ in range(400):
        if "🏆" in out.getvalue():
            break
        console.send("1")  # the first button of the latest prompt
    console.close()
    text = out.getvalue()
    assert "🏆" in text
    for round_ in (1, 2):
        assert text.count(f"Kierroksen {round_} pisteet") == 1, round_
    assert text.index("Kierroksen 1 pisteet") < text.index("Kierros 2/2 alkaa")
    assert text.index("Kierroksen 2 pisteet") < text.index("🏆")
    # the revealed cards come with the result, once each round
    assert text.count("Kortit käännetään näkyviin:") == 2
    assert text.count("🦫 Kierroksen 1 tulos:") == text.count("🦫 Kierroksen 2 tulos:") == 1
    json.dumps(text)  # printable


def test_the_console_heads_each_gnav_settlement_once():
    out = io.StringIO()
    console = ConsoleTable(
        new_core(SqlRepository("sqlite://"), seed="console"), name="Matti", delay=0, out=out
    )
    console.send("uusi gnav elämät=1")
    console.send("aloita")
    for _ in range(200):
        if "🏆" in out.getvalue():
            break
        console.send("1")
    console.close()
    text = out.getvalue()
    deals = re.findall(r"🐦 Jaon (\d+) tulos:", text)
    assert deals and len(deals) == len(set(deals)) == text.count("Kortit käännetään:")
    assert deals == sorted(deals, key=int)
    assert text.rindex("Kortit käännetään:") < text.index("🏆")
