"""Coloretto Amazonas golden games: typed as text from start to end, with final scores and no hand
in the group. ``test_golden.py`` compares the transcripts line by line;
``python -m tests.golden.make_coloretto`` makes new games from scratch.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chatbot.compose import new_core
from chatbot.storage import SqlRepository
from chatbot.transports.script import run_lines

HERE = Path(__file__).resolve().parent
CASES = ("coloretto_2p_fi", "coloretto_4p_en")


def replay(name: str) -> tuple[list[dict], list[dict]]:
    raw = (HERE / f"{name}.in.jsonl").read_text(encoding="utf-8").splitlines()
    inputs = [json.loads(line) for line in raw if line.strip()]
    core = new_core(SqlRepository("sqlite://"), seed=inputs[0]["seed"])
    return inputs, list(run_lines(core, raw))


@pytest.mark.parametrize("name", CASES)
def test_whole_game_by_text_reaches_final_scores(name):
    inputs, got = replay(name)
    assert all("text" in line for line in inputs), "every move is typed, none pressed"
    group = [o["text"] for o in got if o["chat"] == "group"]
    assert any("🏆" in text for text in group)
    final = next(text for text in reversed(group) if "🏁" in text)
    assert "= " in final  # the score breakdown of every seat
    # nothing the players saw in private about their hands reaches the group
    private_lines = {
        line
        for o in got
        if o["chat"] == "private"
        for line in o["text"].splitlines()
        if line.startswith(("▸", "1.", "2.", "3."))
    }
    for text in group:
        assert not private_lines & set(text.splitlines())
