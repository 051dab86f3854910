"""Figures: how long statistics, history and a replay take (issue #16), on a real database.

    .venv/bin/python scripts/bench_records.py                     # SQLite file in a temp dir
    .venv/bin/python scripts/bench_records.py --db postgres       # a throwaway PostgreSQL cluster
    .venv/bin/python scripts/bench_records.py --matches 5000 --db postgresql+psycopg2://…

One group gets ``--matches`` finished matches of every game (two to four seats: six people and AI
players, each match with its stored result), stored through the repository as the core stores them.
Then the whole update (``BotCore.handle``, one transaction with its outbox row) is timed for
"tilastot" in the group, "omat tilastot" in private and "historia", ``--repeat`` times each (median
and p99). A real Afrikan Tähti match played to the end by AI players (its every action in the log) is
then replayed: the first "näytä peli N" computes the replay from the log, each "Seuraava" press after
it shows one step of the replay kept in memory; both are printed, with the number of actions.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchlib import percentile, reset_postgres, throwaway_postgres

from chatbot.compose import new_core
from chatbot.core.ports import OVER, SeatRec
from chatbot.core.types import Inbound
from chatbot.storage import SqlRepository
from engines import GAMES
from engines.codec import encode
from engines.contract import rng_for

PLATFORM = "bench"
GROUP = "g1"
PEOPLE = ["anna", "bertta", "ceder", "david", "eero", "fanni"]


def figures(game: str, scores: list[int], winner: int, rng: random.Random) -> list[dict]:
    if game == "majavajengi":
        return [{"total": s} for s in scores]
    if game == "gnav":
        return [{"lives": s} for s in scores]
    if game == "coloretto_amazonas":
        return [{"score": s} for s in scores]
    rounds = rng.randint(10, 40)
    how = rng.choice(["star", "horseshoe", "limit"])
    return [{"rounds": rounds, **({"how": how} if s == winner else {})} for s in range(len(scores))]


def fill(repo: SqlRepository, matches: int, rng: random.Random) -> None:
    room = repo.room(PLATFORM, GROUP)
    users = [repo.user(PLATFORM, p, p.capitalize()) for p in PEOPLE]
    games = sorted(GAMES)
    for i in range(matches):
        game = games[i % len(games)]
        people = rng.sample(users, rng.randint(1, 3))
        seats = [SeatRec(seat=s, name=u.name, user_id=u.id) for s, u in enumerate(people)]
        seats += [SeatRec(seat=len(seats), name="Botti 1", ai="normal")]
        with repo.unit():
            match = repo.create_match(room.id, game, {}, f"s{i}", people[0].id, tuple(seats))
            repo.update_lobby(match.id, match.version, tuple(seats), status=OVER)
            scores = [rng.randint(0, 30) for _ in seats]
            winner = rng.randrange(len(seats))
            result = {
                "v": 1,
                "winners": [winner],
                "ranks": [1 if s == winner else 2 for s in range(len(seats))],
                "scores": scores,
                "low_wins": game == "majavajengi",
                "figures": figures(game, scores, winner, rng),
            }
            repo.set_result(match.id, time.time() - (matches - i) * 3600, result)


def long_match(repo: SqlRepository, players: int) -> tuple[int, int]:
    """An Afrikan Tähti match played to the end by AI players and stored action by action."""
    engine = GAMES["afrikan_tahti"]
    room = repo.room(PLATFORM, GROUP)
    users = [repo.user(PLATFORM, p, p.capitalize()) for p in PEOPLE[:players]]
    seats = tuple(SeatRec(seat=s, name=u.name, user_id=u.id) for s, u in enumerate(users))
    match = repo.create_match(room.id, "afrikan_tahti", {}, "long", users[0].id, seats)
    state = engine.new_game(players, "long", engine.options_from_dict({}))
    assert repo.start_match(match.id, match.version, seats, engine.dump(state), "long")
    version = match.version + 1
    actions = 0
    with repo.unit():
        while engine.outcome(state) is None:
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            action = engine.ai_action(
                engine.default_ai, engine.view(state, seat), legal, rng_for("b", actions, "x")
            )
            state, events = engine.apply(state, seat, action)
            status = OVER if engine.outcome(state) is not None else "running"
            assert repo.commit_action(
                match.id,
                version,
                seat,
                engine.notation(action),
                [encode(e) for e in events],
                engine.dump(state),
                status,
            )
            version += 1
            actions += 1
    return match.id, actions


def timed(core, msg: Inbound, repeat: int) -> tuple[list[float], object]:
    times, answer = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = core.handle(msg)
        times.append((time.perf_counter() - start) * 1000)
    return times, answer


def line(label: str, times: list[float]) -> str:
    return f"{label}: median {statistics.median(times):.1f} ms, p99 {percentile(times, 99):.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--players", type=int, default=4, help="seats of the replayed Afrikan Tähti match")
    parser.add_argument("--db", default="sqlite", help="sqlite, postgres (a throwaway cluster) or a URL")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        if args.db == "sqlite":
            url = f"sqlite:///{Path(tmp) / 'bench.sqlite'}"
        elif args.db == "postgres":
            url, _pid = stack.enter_context(throwaway_postgres())
        else:
            url = args.db
            if url.startswith("postgres"):
                reset_postgres(url)
        repo = SqlRepository(url)
        core = new_core(repo, seed="bench")
        fill(repo, args.matches, random.Random(16))
        kind = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
        print(f"{args.matches} finished matches in one group ({kind}):")

        def msg(text: str, private: bool = False) -> Inbound:
            return Inbound(PLATFORM, "anna", "Anna", "anna" if private else GROUP, private, text=text)

        stats, answer = timed(core, msg("tilastot"), args.repeat)
        print("  " + line("tilastot (group)", stats) + f", {len(answer[0].text.splitlines())} lines")
        print("  " + line("omat tilastot (private)", timed(core, msg("omat tilastot", True), args.repeat)[0]))
        print("  " + line("historia", timed(core, msg("historia"), args.repeat)[0]))

        match_id, actions = long_match(repo, args.players)
        core.replays.forget()
        start = time.perf_counter()
        opened = core.handle(msg(f"näytä peli {match_id}"))
        cold = (time.perf_counter() - start) * 1000
        print(f"replay of an Afrikan Tähti match of {actions} actions ({args.players} seats):")
        print(f"  opening (the replay computed from the log): {cold:.1f} ms")
        steps = []
        shown = opened[0]
        for _ in range(min(args.repeat, actions)):
            data = next(b.data for row in shown.buttons for b in row if b.label == "Seuraava ▶")
            press = Inbound(PLATFORM, "anna", "Anna", GROUP, False, button=data)
            start = time.perf_counter()
            shown = core.handle(press)[0]
            steps.append((time.perf_counter() - start) * 1000)
        print("  " + line("one step (Seuraava, the replay kept in memory)", steps))


if __name__ == "__main__":
    main()
