"""Messages a whole seeded chat game sends (issues #27 and #28): new private messages per person and
new group messages per round, with the edits in place beside them.

    PYTHONPATH=. .venv/bin/python scripts/pace_figures.py            # Majavajengi and Afrikan Tähti
    PYTHONPATH=. .venv/bin/python scripts/pace_figures.py --games 3  # three seeds per game

Three people play through :class:`tests.chatbot.table.Table` (the real core on SQLite), each pressing
what the game's default AI would choose for their seat. In a reaction window a person whose choice is
what the bot would do for them anyway (a pass) lets the window run out, as people in a chat do; the
clock is moved to the window's end. Afrikan Tähti is played with Retkikunnat, full game.

Counting: a message without a key is new; a keyed message is new the first time its key reaches its
chat and an edit afterwards, except that a group table with more than ``BURY_AFTER`` newer messages
below it is posted anew, as the Telegram transport does. Rounds are the game's own (Afrikan Tähti: every
seat's turn; Majavajengi: a hand, scored at its end); a turn cycle is one turn of every seat (turns
counted as changes of the seat on turn in the game's round).
"""

from __future__ import annotations

import argparse
import collections
import statistics
from dataclasses import dataclass
from typing import Any

from chatbot.compose import new_core
from chatbot.core.types import Outbound
from chatbot.games import UIS
from engines import GAMES
from tests.chatbot.table import Table

PEOPLE = ("anna", "bertta", "ceder")
#: what the Telegram transport does with a table that has scrolled up this far
BURY_AFTER = 12
GAMES_PLAYED = {
    "majavajengi": "uusi majavajengi",
    "afrikan_tahti": "uusi afrikan tähti retkikunnat=kyllä",
}


@dataclass
class Figures:
    game: str
    seed: str
    rounds: int
    turns: int
    group_new: int
    group_edits: int
    private_new: dict[str, int]
    private_edits: dict[str, int]
    kinds: collections.Counter[str]

    @property
    def group_per_round(self) -> float:
        return self.group_new / max(self.rounds, 1)

    @property
    def cycles(self) -> float:
        return self.turns / len(PEOPLE)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def count(sent: list[Outbound]) -> tuple[int, int, dict[str, int], dict[str, int], collections.Counter[str]]:
    """New and edited messages in the group and per person (see the module's docstring)."""
    seen: set[tuple[str, str]] = set()
    group_new = group_edits = 0
    new: dict[str, int] = collections.Counter()
    edits: dict[str, int] = collections.Counter()
    kinds: collections.Counter[str] = collections.Counter()
    below: dict[str, int] = {}  # table key -> group messages posted since it was
    for out in sent:
        chat = out.user_id or out.chat_id or ""
        key = (chat, out.key) if out.key is not None else None
        fresh = key is None or key not in seen
        if key is not None and not fresh and out.user_id is None and below.get(out.key or "", 0) > BURY_AFTER:
            fresh = True  # buried: posted anew
        if key is not None:
            seen.add(key)
        if out.user_id is None:
            if fresh:
                group_new += 1
                for k in below:
                    below[k] += 1
                kinds[_kind(out)] += 1
            else:
                group_edits += 1
            if out.key is not None and fresh:
                below[out.key] = 0
        elif fresh:
            new[out.user_id] += 1
        else:
            edits[out.user_id] += 1
    return group_new, group_edits, dict(new), dict(edits), kinds


def _kind(out: Outbound) -> str:
    if out.role:
        return out.role
    first = out.text.split("\n", 1)[0]
    return first[:32]


def play(game: str, seed: str, limit: int = 20_000) -> Figures:
    clock = Clock()
    table = Table(seed=seed)
    table.core = new_core(table.repo, seed=seed, clock=clock, remind_after=600, act_after=1800)
    table.say(PEOPLE[0], GAMES_PLAYED[game])
    for user in PEOPLE[1:]:
        table.say(user, "liity")
    table.say(PEOPLE[0], "aloita")
    if table.match() is not None and table.match().status == "lobby":
        table.say(PEOPLE[0], "pelataan näin")
    engine, ui = GAMES[game], UIS[game]
    turns, last_turn, rounds = 0, None, 0
    match_id = table.match().id
    for _ in range(limit):
        match = table.repo.match(match_id)
        if match is None or match.status != "running":
            break
        state = engine.load(match.state)
        public = engine.view(state, None)
        mark = _turn_mark(public, engine.to_act(state))
        if mark != last_turn:
            turns, last_turn = turns + 1, mark
        rounds = max(rounds, int(getattr(public, "round", 0) or 0))
        acting = [s for s in engine.to_act(state) if match.seats[s].user_id is not None]
        if not acting:
            clock.now += 1
            table.run_due()
            continue
        seat = acting[0]
        user = table.repo.user_by_id(match.seats[seat].user_id).ext_id
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        wanted = engine.notation(engine.ai_action(engine.default_ai, view, legal, engine.ai_rng(state, seat)))
        if ui.deadline(public) is not None:
            idle = ui.idle_action(tuple(engine.notation(a) for a in legal), view)
            if wanted in {idle, "pass"}:  # a pass: people let the window run out
                let_window_run_out(table, match_id, clock)
                continue
        clock.now += 5
        table.press(user, f"{match_id}:{match.version}:{wanted}")
    match = table.repo.match(match_id)
    assert match is not None and match.status != "running", f"{game} {seed} did not end"
    group_new, group_edits, new, edits, kinds = count(table.sent)
    return Figures(
        game,
        seed,
        rounds,
        turns,
        group_new,
        group_edits,
        new,
        edits,
        kinds,
    )


def let_window_run_out(table: Table, match_id: int, clock: Clock) -> None:
    """People let a reaction window run out: the clock goes to its end and what is due runs."""
    due = [d.due for d in table.repo.deadlines(match_id) if d.kind == "window"]
    clock.now = max(clock.now, min(due)) if due else clock.now + 60
    table.run_due()


def _turn_mark(public: Any, acting: tuple[int, ...]) -> Any:
    """The seat on turn (with the game's counters): a change is a new turn."""
    marks = tuple(getattr(public, name, None) for name in ("round", "deal", "rotation", "turn", "active"))
    return marks if any(m is not None for m in marks) else acting


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=1, help="seeded games per game")
    parser.add_argument("--kinds", action="store_true", help="the kinds of new group messages")
    args = parser.parse_args()
    for game in GAMES_PLAYED:
        results = [play(game, f"pace:{game}:{i}") for i in range(args.games)]
        for f in results:
            private = [f.private_new.get(p, 0) for p in PEOPLE]
            private_edits = [f.private_edits.get(p, 0) for p in PEOPLE]
            print(
                f"{f.game:14} {f.seed:22} rounds {f.rounds:3d} turns {f.turns:4d}  group: new {f.group_new:3d} "
                f"= {f.group_per_round:.2f}/round = {f.group_new / max(f.cycles, 1):.3f}/turn cycle, "
                f"edits {f.group_edits:4d}  private per person: new {statistics.mean(private):6.1f} "
                f"{private} = {statistics.mean(private) / max(f.cycles, 1):.2f}/own turn, "
                f"edits {statistics.mean(private_edits):6.1f}"
            )
            if args.kinds:
                for kind, n in f.kinds.most_common(8):
                    print(f"    {n:4d}  {kind}")


if __name__ == "__main__":
    main()
