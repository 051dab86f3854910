"""The notation of every Afrikan Tähti action (one codec from the actions' NOTATION templates).

``afrikan_tahti_notation_cases.json`` holds what the hand-written parser that the codec replaced read
each of those texts as (the canonical notation, or null for a refusal): the codec must read them the
same. Before that parser was deleted, the codec was compared with it over every legal action of AI
playouts and variants of their texts (the same texts written, the same readings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.model import Options
from engines.codec import BadNotation
from engines.playout import play_ai_game

CASES = json.loads((Path(__file__).parent / "afrikan_tahti_notation_cases.json").read_text())


def read(text: str) -> str | None:
    try:
        return ENGINE.notation(ENGINE.parse_notation(text))
    except BadNotation:
        return None


def seen_actions() -> set[object]:
    seen: set[object] = set()

    def collect(state: object, seat: int, action: object, events: object) -> None:
        if ENGINE.outcome(state) is None:
            for s in ENGINE.to_act(state):
                seen.update(ENGINE.legal_actions(state, s))

    for seed, options, ais in (
        ("n1", Options(expansion=False), ("smart", "random", "smart")),
        ("n2", Options(), ("smart", "random") * 2),
        ("n3", Options(quick_game=True), ("random",) * 3),
        ("n4", Options(), ("smart",) * 5),
    ):
        play_ai_game(ENGINE, ais, seed, options, on_step=collect)
    return seen


@pytest.fixture(scope="module")
def actions() -> set[object]:
    return seen_actions()


def test_the_codec_reads_what_the_old_parser_read() -> None:
    assert len(CASES) > 400
    for text, expected in CASES.items():
        assert read(text) == expected, text


def test_every_action_of_ai_playouts_reads_back(actions: set[object]) -> None:
    assert len(actions) > 500
    for a in actions:
        text = ENGINE.notation(a)
        assert len(text.encode()) <= 45 or text.startswith("offer"), text
        for same in (text, text.upper(), "  " + text.replace(" ", "   ") + " "):
            assert ENGINE.parse_notation(same) == a, same
        with pytest.raises(BadNotation):
            ENGINE.parse_notation(text + " x")
