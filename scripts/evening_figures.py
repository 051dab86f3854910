"""An evening of Afrikan Tähti with Retkikunnat in chat (issue #28): what whole seeded chat games cost
the people at the table.

    PYTHONPATH=. .venv/bin/python scripts/evening_figures.py                  # 2, 3 and 6 seats, full and quick
    PYTHONPATH=. .venv/bin/python scripts/evening_figures.py --seats 3 --games 3 --modes quick
    PYTHONPATH=. .venv/bin/python scripts/evening_figures.py --seats 3 --breakdown  # where inputs go

Every seat is a person at a :class:`tests.chatbot.table.Table` (the real core on SQLite) who chooses
what the game's default AI would choose for the seat, pressing the buttons the private panel offers:
a button of two steps when it carries the AI's choice and the AI's next choice of the same turn ("End
the turn" or "Flip the token" in Phase 2; "Roll and head for Congo" before the roll, when the move it
makes after the roll is the one the AI then makes; an extra-step card's walk toward a place alike); a
single answer the core takes by itself costs nothing. A person who would sail presses the roll and
then the leg, as the AI decides, not the "Sail to" button before the roll (that one would change the
game's course: the engine's random draws follow the number of actions). The games follow the same course as with one press per action (the same
seeds give the same rounds), so the figures of an older checkout compare one to one.
In a reaction window a person whose choice is a pass lets the window run out (no input), as people
do (see scripts/pace_figures.py, whose counting of new group messages this script shares).

Per game: rounds (the game's own), seat turns (a turn begins with the engine's ``turn`` event; a
lost turn is no turn of the person's), inputs (presses after the characters and start places are
chosen: in one's own turns and the answers out of turn), inputs per person per turn, the seat's own
turns that took at most two inputs, the plain turns (pressed for: the declaration, the move, the flip
or the end, and nothing else: no card used, sold or played, no peek, danger, event question, discard
or duel) and how many of them took at most two inputs, new group messages per round, and new board pictures per round (a picture is new
when its bytes differ from the last one the group got: the transports upload only those). The last
lines are the means over the games of each table. ``--breakdown`` prints, per table, the inputs by
kind (whose turn, the prompt or phase, the verbs of the button) and the commonest own turns of three
inputs or more.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chatbot.compose import new_core
from chatbot.core.ports import THEN
from chatbot.games import UIS
from engines import GAMES
from scripts.pace_figures import Clock, count, let_window_run_out
from tests.chatbot.table import Table

GAME = "afrikan_tahti"
PEOPLE = ("anna", "bertta", "ceder", "daniel", "eemeli", "fanni")
MODES = {"full": "uusi afrikan tähti", "quick": "uusi afrikan tähti pikapeli"}


@dataclass
class Game:
    seats: int
    mode: str
    seed: str
    rounds: int
    turns: int
    inputs: int
    short_turns: int  # turns that took at most two inputs
    plain_turns: int  # turns of nothing but the declaration, the move and the flip or the end
    plain_short: int  # ... that took at most two inputs
    group_new: int
    pictures: int
    kinds: collections.Counter[str] = field(default_factory=collections.Counter)  # inputs by kind
    shapes: collections.Counter[str] = field(default_factory=collections.Counter)  # own turns by steps

    @property
    def per_turn(self) -> float:
        return self.inputs / max(self.turns, 1)

    @property
    def short_share(self) -> float:
        return self.short_turns / max(self.turns, 1)

    @property
    def plain_share(self) -> float:
        return self.plain_turns / max(self.turns, 1)

    @property
    def plain_short_share(self) -> float:
        return self.plain_short / max(self.plain_turns, 1)

    @property
    def group_per_round(self) -> float:
        return self.group_new / max(self.rounds, 1)

    @property
    def pictures_per_round(self) -> float:
        return self.pictures / max(self.rounds, 1)


def _ai(engine: Any, state: Any, seat: int) -> Any:
    view = engine.view(state, seat)
    legal = engine.legal_actions(state, seat)
    return engine.ai_action(engine.default_ai, view, legal, engine.ai_rng(state, seat))


def choose(engine: Any, state: Any, seat: int, offered: list[str]) -> str:
    """The button a person presses for the AI's choice (and the AI's next one, on a button of two:
    its later step as the game resolves it after the first, e.g. "toward congo" after the roll)."""
    first = _ai(engine, state, seat)
    wanted = engine.notation(first)
    two = [n for n in offered if n.startswith(wanted + THEN)]
    if two:
        after, _events = engine.apply(state, seat, first)
        if engine.outcome(after) is None and seat in engine.to_act(after):
            following = engine.notation(_ai(engine, after, seat))
            view = engine.view(after, seat)
            legal = [engine.notation(a) for a in engine.legal_actions(after, seat)]
            for both in two:
                resolved = UIS[GAME].resolve_step(both.split(THEN, 1)[1], view, legal)
                if resolved is not None and resolved.split(THEN)[0] == following:
                    return both
        elif wanted not in offered:
            return two[-1]  # the turn ends with the step: "End the turn"
    return wanted


def play(seats: int, mode: str, seed: str, limit: int = 40_000) -> Game:
    clock = Clock()
    table = Table(seed=seed)
    table.core = new_core(table.repo, seed=seed, clock=clock, remind_after=600, act_after=1800)
    people = PEOPLE[:seats]
    table.say(people[0], MODES[mode])
    for user in people[1:]:
        table.say(user, "liity")
    table.say(people[0], "aloita")
    engine, ui = GAMES[GAME], UIS[GAME]
    match_id = table.match().id
    inputs = setup = 0
    turn_inputs: list[int] = []
    kinds: collections.Counter[str] = collections.Counter()
    shapes: list[list[str]] = []  # the kinds of each own turn's inputs
    seen_ply = 0
    for _ in range(limit):
        match = table.repo.match(match_id)
        if match is None or match.status != "running":
            break
        state = engine.load(match.state)
        # the turns begun since the last look (the engine's "turn" events in the action log)
        for rec in table.repo.actions(match_id, since_ply=seen_ply):
            for e in rec.events:
                if e.get("code") == "turn":
                    turn_inputs.append(0)
                    shapes.append([])
        seen_ply = state.ply
        public = engine.view(state, None)
        acting = [s for s in engine.to_act(state) if match.seats[s].user_id is not None]
        if not acting:
            clock.now += 1
            table.run_due()
            continue
        seat = acting[0]
        user = table.repo.user_by_id(match.seats[seat].user_id).ext_id
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        if ui.deadline(public) is not None:
            wanted = engine.notation(_ai(engine, state, seat))
            idle = ui.idle_action(tuple(engine.notation(a) for a in legal), view)
            if wanted in {idle, "pass"}:  # a pass: people let the window run out
                let_window_run_out(table, match_id, clock)
                continue
        prompt = table.prompt_for(user)
        offered = [b.data.split(":", 2)[2] for row in (prompt.buttons if prompt else ()) for b in row]
        clock.now += 5
        pressed = choose(engine, state, seat, offered)
        table.press(user, f"{match_id}:{match.version}:{pressed}")
        if state.phase in ("character", "setup"):
            setup += 1  # the characters and start places: once a game, not a turn's
            continue
        inputs += 1
        what = kind(public, seat, pressed)
        kinds[what] += 1
        if turn_inputs and public.turn == seat:
            turn_inputs[-1] += 1
            shapes[-1].append(what.split(" ", 1)[1])
    match = table.repo.match(match_id)
    assert match is not None and match.status != "running", f"{seats} {mode} {seed} did not end"
    final = engine.view(engine.load(match.state), None)
    group_new, _edits, _new, _private_edits, _kinds = count(table.sent)
    return Game(
        seats=seats,
        mode=mode,
        seed=seed,
        rounds=final.round,
        turns=len(turn_inputs),
        inputs=inputs,
        short_turns=sum(1 for n in turn_inputs if n <= 2),
        plain_turns=sum(1 for s in shapes if s and all(plain(k) for k in s)),
        plain_short=sum(1 for s in shapes if s and all(plain(k) for k in s) and len(s) <= 2),
        group_new=group_new,
        pictures=pictures(table, match_id),
        kinds=kinds,
        shapes=collections.Counter(" | ".join(s) for s in shapes if len(s) > 2),
    )


#: the phases and verbs of a plain turn: the declaration, the move, the flip or the end
PLAIN_PHASES = frozenset({"declare", "declare@sea", "move", "move@sea", "phase2", "phase3", "after_move"})
PLAIN_VERBS = frozenset(
    {"roll", "toward", "stay", "fly", "free_sail", "board", "move", "end_phase", "flip", "flip_roll"}
)


def plain(what: str) -> bool:
    """Whether an own turn's input (its kind without the "own") belongs to a plain turn: no card
    used, sold or played, no peek, no danger, no question of an event card, no discard or duel."""
    where, verbs = what.split(" ", 1)
    return where in PLAIN_PHASES and set(verbs.split(THEN)) <= PLAIN_VERBS


def kind(public: Any, seat: int, pressed: str) -> str:
    """What an input was: whose turn ("own" or "other"), the pending question (a prompt's kind) or
    the turn's phase ("@sea" on a voyage), and the verbs of the button's steps ("phase2
    end_phase;flip")."""
    x = public.x
    where = x.prompt.kind if x is not None and x.prompt is not None else public.phase
    if where in ("declare", "move") and public.pawns[seat].voyage is not None:
        where += "@sea"
    verbs = THEN.join(step.split()[0] for step in pressed.split(THEN))
    return f"{'own' if public.turn == seat else 'other'} {where} {verbs}"


def pictures(table: Table, match_id: int) -> int:
    """New board pictures the group got: a table whose picture's bytes differ from the last one."""
    last, new = None, 0
    for out in table.sent:
        if out.user_id is None and out.key == f"table:{match_id}" and out.image:
            digest = hashlib.sha1(out.image).hexdigest()
            if digest != last:
                new, last = new + 1, digest
    return new


def breakdown(games: list[Game]) -> None:
    """The inputs of the games by kind (per own turn, and their share), and the commonest own turns
    that took three inputs or more."""
    kinds: collections.Counter[str] = sum((g.kinds for g in games), collections.Counter())
    shapes: collections.Counter[str] = sum((g.shapes for g in games), collections.Counter())
    turns = sum(g.turns for g in games)
    total = sum(kinds.values())
    print(f"  inputs by kind ({total} in {turns} turns):")
    for what, n in kinds.most_common():
        print(f"    {n:5d} {n / max(turns, 1):5.2f}/turn {n / max(total, 1):4.0%}  {what}")
    print(f"  own turns of 3+ inputs ({sum(shapes.values())}), commonest:")
    for shape, n in shapes.most_common(12):
        print(f"    {n:4d}  {shape}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seats", default="2,3,6")
    parser.add_argument("--modes", default="full,quick")
    parser.add_argument("--games", type=int, default=2, help="seeded games per table")
    parser.add_argument(
        "--breakdown", action="store_true", help="where the inputs go: per kind, and own turns of 3+"
    )
    args = parser.parse_args()
    summary = []
    for seats in (int(s) for s in args.seats.split(",")):
        for mode in args.modes.split(","):
            games = [play(seats, mode, f"evening:{seats}:{mode}:{i}") for i in range(args.games)]
            for g in games:
                print(
                    f"{g.seats} seats {g.mode:5} {g.seed:22} rounds {g.rounds:3d}  turns {g.turns:4d}  "
                    f"inputs {g.inputs:4d} = {g.per_turn:.2f}/person/turn ({g.short_share:.0%} of turns "
                    f"1-2; plain turns {g.plain_share:.0%}, {g.plain_short_share:.0%} of them 1-2)  "
                    f"group msgs {g.group_per_round:.2f}/round  pictures {g.pictures} = "
                    f"{g.pictures_per_round:.2f}/round",
                    flush=True,
                )
            summary.append((seats, mode, games))
            if args.breakdown:
                breakdown(games)
    print()
    for seats, mode, games in summary:
        print(
            f"mean {seats} seats {mode:5}: rounds {statistics.mean(g.rounds for g in games):5.1f}  "
            f"inputs/person/turn {statistics.mean(g.per_turn for g in games):.2f}  turns of 1-2 inputs "
            f"{statistics.mean(g.short_share for g in games):.0%}  plain turns "
            f"{statistics.mean(g.plain_share for g in games):.0%} ("
            f"{sum(g.plain_short for g in games) / max(sum(g.plain_turns for g in games), 1):.0%} of them 1-2)"
            f"  group msgs/round "
            f"{statistics.mean(g.group_per_round for g in games):.2f}  pictures/round "
            f"{statistics.mean(g.pictures_per_round for g in games):.2f} "
            f"(max {max(g.pictures_per_round for g in games):.2f})"
        )


if __name__ == "__main__":
    main()
