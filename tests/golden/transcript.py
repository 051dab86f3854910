"""What the makers of the golden transcripts (``make_*.py``) share: a core on an empty in-memory
database fed one input line at a time, the lines kept for the ``*.in.jsonl`` and the answers for a
maker that reads them, the running match before each move, and the writing of the files.

``test_golden.py`` replays each ``*.in.jsonl`` through the script transport (the first line carries
the seed) and compares the output with ``*.out.jsonl``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from chatbot.compose import new_core
from chatbot.core.ports import MatchRec
from chatbot.storage import SqlRepository
from chatbot.transports.script import run_lines

HERE = Path(__file__).resolve().parent


class Transcript:
    """A core and the input lines sent to it. ``first`` is added to the first line (the seed, a
    clock: what a replay reads from it); ``core`` are more arguments of ``new_core``."""

    def __init__(self, seed: str, first: dict[str, Any] | None = None, **core: Any) -> None:
        self.core = new_core(SqlRepository("sqlite://"), seed=seed, **core)
        self.first = first or {}
        self.lines: list[dict[str, Any]] = []
        self.out: list[dict[str, Any]] = []

    def send(self, line: dict[str, Any]) -> list[dict[str, Any]]:
        """Feed one input line; returns the bot's answers to it."""
        if not self.lines:
            line = {**line, **self.first}
        self.lines.append(line)
        got = list(run_lines(self.core, [json.dumps(line)]))
        self.out.extend(got)
        return got

    def take_back(self) -> None:
        """Leave the last line out of the transcript (its words were not taken as the move meant, so
        its button is pressed instead; the core's answer to it changed nothing)."""
        self.lines.pop()

    def turns(self, limit: int) -> Iterator[tuple[MatchRec, Any]]:
        """The running match and its state before each move, until no match runs; raises when the
        game has not ended after ``limit`` moves."""
        for _ in range(limit):
            running = self.core.repo.running_matches()
            if not running:
                return
            match = running[0]
            yield match, self.core.games[match.game].load(match.state)
        raise RuntimeError(f"the game did not end in {limit} moves")

    def user(self, match: MatchRec, seat: int) -> str:
        """The user id (as the script transport names users) of the person in ``seat``."""
        user_id = match.seats[seat].user_id
        assert user_id is not None, f"seat {seat} is an AI's"
        return self.core.repo.user_by_id(user_id).ext_id

    def write(self, name: str, answers: bool = False) -> None:
        """``name.in.jsonl`` (and with ``answers`` ``name.out.jsonl``) next to the makers."""
        _write_jsonl(HERE / f"{name}.in.jsonl", self.lines)
        if answers:
            _write_jsonl(HERE / f"{name}.out.jsonl", self.out)


def _write_jsonl(path: Path, items: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
