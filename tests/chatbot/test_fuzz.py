"""Issue #13's fuzz in the suite: a short hypothesis round per game (``tests/chatbot/fuzz.py``; the
figures of a longer round come from ``python -m tests.chatbot.fuzz``)."""

from __future__ import annotations

import pytest

from tests.chatbot.fuzz import GAME_IDS, Stats, fuzz


@pytest.mark.parametrize("game", GAME_IDS)
def test_adversarial_inputs_in_two_chats_raise_nothing_and_change_only_their_own_match(game):
    stats = Stats()
    fuzz(game, examples=3, steps=10, stats=stats, strict=True, max_moves=15)
    assert stats.inputs >= 25 and stats.by_kind["button"] and stats.by_kind["text"]
    assert stats.problems == []
    assert (stats.exceptions, stats.wrong_language, stats.cross_chat, stats.leaks) == (0, 0, 0, 0)
