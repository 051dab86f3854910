"""Records agree on who won and who played which seat, whatever seat changes happened (issue #26):
a seat an AI finished for a removed person is the AI's win in the statistics, and the history names
it so ("Pekka (tekoäly)"), never the removed person as the winner."""

from __future__ import annotations

import random

from tests.chatbot.table import Table


def _kicked_seat_wins() -> tuple[Table, int]:
    """A one-round Majavajengi in which Pekka is removed early and his AI seat wins."""
    for n in range(40):
        table = Table(seed=f"kicked-wins:{n}")
        table.say("matti", "uusi majavajengi kierrokset=1")
        table.say("pekka", "liity")
        table.say("matti", "aloita")
        table.say("matti", "poista Pekka pelistä")
        match = table.match()
        seat = next(s.seat for s in match.seats if s.name == "Pekka")
        assert match.seats[seat].user_id is None
        table.play_randomly(random.Random(n))
        result = table.repo.finished_matches(room_id=match.room_id, limit=1)[0].result
        if result and result["winners"] == [seat]:
            return table, seat
    raise AssertionError("no seed in 40 gave the AI seat the win")


def test_history_and_stats_agree_when_a_removed_players_ai_seat_wins():
    table, _seat = _kicked_seat_wins()
    history = table.say("matti", "historia")[0].text
    assert "voittaja: Pekka (tekoäly)" in history, history
    stats = table.say("matti", "tilastot")[0].text
    # Pekka played no finished game of his own and won none; the AI seat has the win
    assert "Pekka" not in stats.replace("Pekka (tekoäly)", ""), stats
    lines = [line for line in stats.splitlines() if "Matti" in line]
    assert lines and "0 voittoa" in lines[0], stats
    assert "Tekoälypelaajat: 1 peli, 1 voitto" in stats, stats
