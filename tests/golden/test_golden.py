"""Golden transcripts: whole games through the script transport, compared line by line.

Regenerate after an intended change with ``UPDATE_GOLDEN=1`` and review the diff like code.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from chatbot.compose import new_core
from chatbot.storage import SqlRepository
from chatbot.transports.script import run_lines

HERE = Path(__file__).resolve().parent
CASES = sorted(p.name.removesuffix(".in.jsonl") for p in HERE.glob("*.in.jsonl"))
SEEDS = {"majavajengi_2p_fi": "golden-fi", "majavajengi_4p_en": "golden-en"}


def first_line(name: str) -> dict:
    return json.loads((HERE / f"{name}.in.jsonl").read_text(encoding="utf-8").splitlines()[0])


def seed_of(name: str) -> str:
    return first_line(name).get("seed") or SEEDS.get(name, "golden")


def clock_of(name: str) -> dict:
    """A fixed clock where the first line gives one (transcripts that show dates)."""
    at = first_line(name).get("clock")
    return {"clock": lambda: float(at)} if at is not None else {}


@pytest.mark.parametrize("name", CASES)
def test_golden_transcript(name):
    lines = (HERE / f"{name}.in.jsonl").read_text(encoding="utf-8").splitlines()
    core = new_core(SqlRepository("sqlite://"), seed=seed_of(name), **clock_of(name))
    got = [json.dumps(x, ensure_ascii=False) for x in run_lines(core, lines)]
    expected_path = HERE / f"{name}.out.jsonl"
    if os.environ.get("UPDATE_GOLDEN") or not expected_path.exists():
        expected_path.write_text("\n".join(got) + "\n", encoding="utf-8")
    expected = expected_path.read_text(encoding="utf-8").splitlines()
    assert got == expected
    assert any("🏆" in json.loads(x)["text"] for x in got if "text" in json.loads(x)), "game did not end"
