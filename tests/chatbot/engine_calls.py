"""Count the engine calls of one typed move and one button press in each game on the test table
(reviews/core.md §1.1, Appendix A): ``python -m tests.chatbot.engine_calls [--cold]`` (``--cold``: as
a worker that decoded nothing of the match before the update, e.g. another process than the one that
drew the prompt).

The core builds one turn context per update (``chatbot/core/turn.py``): a seat's legal actions are
worked out at most once per state, the engine's ``check`` runs once per applied action (inside
``apply``; the checks ``legal_actions`` makes of its candidates are counted apart), and a press reads
its notation at most once. ``tests/chatbot/test_turn_calls.py`` holds the core to it.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engines import GAMES
from tests.chatbot.table import Table

#: the engine methods counted
COUNTED = ("legal_actions", "check", "apply", "parse_notation", "notation", "view", "to_act", "outcome")

#: a move said in words in the private chat by the seat to act at the start of each game
TYPED = {
    "majavajengi": "nostan",
    "gnav": "pidän",
    "coloretto_amazonas": "pelaan ensimmäisen kortin",
    "afrikan_tahti": "aloitan Kairosta",  # a weak command ("start"): the game reads it first
}
#: options of the game's "new" command (the base game of Afrikan Tähti: its first turn is the start)
OPTIONS = {"afrikan_tahti": "peruspeli"}


@dataclass
class Calls:
    """What one update asked the engine."""

    counts: collections.Counter[str] = field(default_factory=collections.Counter)
    #: legal_actions per (ply, seat): one state's legal actions asked once per seat
    legal_per_state: collections.Counter[tuple[int, int]] = field(default_factory=collections.Counter)
    #: checks made by legal_actions of its candidates (not counted in ``counts["check"]``)
    candidate_checks: int = 0

    @property
    def most_legal_per_state(self) -> int:
        return max(self.legal_per_state.values(), default=0)

    def clear(self) -> None:
        self.counts.clear()
        self.legal_per_state.clear()
        self.candidate_checks = 0

    def summary(self) -> str:
        shown = ", ".join(f"{k} {self.counts[k]}" for k in COUNTED if self.counts[k])
        return (
            f"{shown}; legal_actions per state and seat at most {self.most_legal_per_state}, "
            f"checks of candidates inside legal_actions {self.candidate_checks}"
        )


@contextlib.contextmanager
def counting(game: str) -> Iterator[Calls]:
    """Count the calls to the engine of ``game`` while the block runs (the registry's engine is
    wrapped and restored after)."""
    engine = GAMES[game]
    calls = Calls()
    inside_legal = [0]
    saved = {name: engine.__dict__.get(name) for name in COUNTED}

    def wrap(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def counted(*args: Any, **kwargs: Any) -> Any:
            if name == "check" and inside_legal[0]:
                calls.candidate_checks += 1
                return method(*args, **kwargs)
            calls.counts[name] += 1
            if name != "legal_actions":
                return method(*args, **kwargs)
            state, seat = args[0], args[1]
            calls.legal_per_state[(int(state.ply), seat)] += 1
            inside_legal[0] += 1
            try:
                return method(*args, **kwargs)
            finally:
                inside_legal[0] -= 1

        return counted

    for name in COUNTED:
        setattr(engine, name, wrap(name, getattr(engine, name)))
    try:
        yield calls
    finally:
        for name, method in saved.items():
            if method is None:
                delattr(engine, name)
            else:
                setattr(engine, name, method)


def started(game: str) -> Table:
    """A match of ``game`` with three people (no AI seat moves while counting)."""
    table = Table(seed="calls")
    table.say("matti", f"uusi {game.replace('_', ' ')} {OPTIONS.get(game, '')}".strip())
    table.say("liisa", "liity")
    table.say("pekka", "liity")
    table.say("matti", "aloita")
    if table.match().status == "lobby":
        table.say("matti", "pelataan näin")
    assert table.match().status == "running"
    return table


@dataclass
class Measured:
    game: str
    typed: Calls
    typed_versions: tuple[int, int]
    pressed: Calls
    press_data: str
    pressed_versions: tuple[int, int]


def measure(game: str, cold: bool = False) -> Measured:
    """One typed move, then one press of the first button of the next acting person's prompt
    (``cold``: each with nothing decoded before it)."""
    table = started(game)
    forget: Callable[[], None] = table.core.decoded._states.clear if cold else lambda: None
    with counting(game) as calls:
        who = table.acting_users()[0]
        before = table.match().version
        forget()
        calls.clear()
        table.say(who, TYPED[game], private=True)
        typed = Calls(collections.Counter(calls.counts), collections.Counter(calls.legal_per_state))
        typed.candidate_checks = calls.candidate_checks
        typed_versions = (before, table.match().version)
        who = table.acting_users()[0]
        prompt = table.prompt_for(who)
        assert prompt is not None, f"no prompt for {who}"
        data = prompt.buttons[0][0].data
        before = table.match().version
        forget()
        calls.clear()
        table.press(who, data)
        pressed = Calls(collections.Counter(calls.counts), collections.Counter(calls.legal_per_state))
        pressed.candidate_checks = calls.candidate_checks
    return Measured(game, typed, typed_versions, pressed, data, (before, table.match().version))


def main() -> None:
    cold = "--cold" in sys.argv[1:]
    for game in sorted(TYPED):
        m = measure(game, cold)
        print(f"{game}: typed {TYPED[game]!r} (version {m.typed_versions[0]} -> {m.typed_versions[1]}):")
        print(f"    {m.typed.summary()}")
        print(f"  press {m.press_data!r} (version {m.pressed_versions[0]} -> {m.pressed_versions[1]}):")
        print(f"    {m.pressed.summary()}")


if __name__ == "__main__":
    main()
