"""Benchmark: how long understanding one message takes, per game, and how long the strong Gnav AI
thinks (run by hand; prints figures).

    .venv/bin/python scripts/bench_parsers.py

For every game, AI playouts give real positions; at each sampled position a set of typical Finnish
and English messages is parsed with the speaker's own view and legal actions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chatbot.core import nlp
from chatbot.core.parsing import ParseContext
from chatbot.games import UIS
from engines import GAMES
from engines.contract import rng_for
from engines.playout import play_ai_game

SAMPLES = {
    "majavajengi": [
        "nostan",
        "otan poistopakasta ja laitan sen toiseen",
        "vaihdan kakkoseni Liisan neloseen",
        "kurkistan neljänteen korttiin",
        "heitä pois ja lopeta",
        "koputan",
        "swap my 2nd with Liisa's 4th",
        "keep it, third",
        "hylkaa",
    ],
    "coloretto_amazonas": [
        "pelaan papukaijan",
        "laita tukaani riviin",
        "anna kilpikonna Matille",
        "hyväksyn",
        "kieltäydyn ja poistan piraijan",
        "give the turtle to Liisa",
        "play my first card",
    ],
    "gnav": ["pidän", "vaihdan", "pyydän vaihtoa", "keep", "ask for an exchange", "en vaihda"],
    "afrikan_tahti": [
        "heitä noppaa",
        "mene Kongoon",
        "lennä Kairoon",
        "purjehdi Kapkaupunkiin",
        "käännä merkki",
        "myyn kiväärin",
        "stay",
        "go to Cape Town",
    ],
}
NAMES = ("Matti", "Liisa", "Pekka", "Anna")


def parse_times(game: str) -> list[float]:
    engine, ui = GAMES[game], UIS[game]
    states = []
    play_ai_game(
        engine, (engine.default_ai,) * 3, "bench", None, lambda st, seat, action, events: states.append(st)
    )
    times = []
    for state in states[:: max(1, len(states) // 40)]:
        acting = engine.to_act(state)
        if not acting:
            continue
        seat = acting[0]
        legal = engine.legal_actions(state, seat)
        ctx = ParseContext("fi", seat, legal, engine.view(state, seat), NAMES[:3], private=True)
        for text in SAMPLES[game]:
            start = time.perf_counter()
            ui.parse(text, ctx)
            times.append(time.perf_counter() - start)
    return times


#: group texts of every kind for the command reading each inbound text goes through first
COMMAND_TEXTS = [
    "pidän",
    "vaihdan Liisan kanssa",
    "laitan piraijan omaan riviin",
    "heitän noppaa",
    "kiva peli",
    "uusi gnav kolmella elämällä",
    "lol",
    "mitä mulla on kädessä",
    "annan sammakon Liisalle",
    "kävelen Kairoon",
    "let's play coloretto with 2 bots",
    "I'll keep it",
]


def command_times(rounds: int = 20) -> list[float]:
    """Seconds per inbound text for the core's command reading (options in words, the game named,
    the meta command), as BotCore._handle runs it before any game parser."""
    from chatbot.compose import new_core
    from chatbot.core.commands import parse_command
    from chatbot.storage import SqlRepository

    core = new_core(SqlRepository("sqlite://"), seed="bench")
    games, known = core.reader.game_names, core.reader.option_words
    times = []
    for k in range(rounds + 1):
        for text in COMMAND_TEXTS:
            start = time.perf_counter()
            rewritten, found = core.reader.options_in_words(text)
            parse_command(rewritten, games, "fi", lemmatizer=core.lemmatizer, known=known, found=found)
            if k:  # the first round fills the caches
                times.append(time.perf_counter() - start)
    return times


def main() -> int:
    argparse.ArgumentParser(description=__doc__).parse_args()
    print(f"lemmatizer: {nlp.default_lemmatizer().backend}")
    times = sorted(command_times())
    print(
        f"command reading: {len(times)} texts, median {statistics.median(times) * 1000:.2f} ms, "
        f"p99 {times[max(0, int(len(times) * 0.99) - 1)] * 1000:.2f} ms"
    )
    for game in sorted(UIS):
        times = sorted(parse_times(game))
        p99 = times[max(0, int(len(times) * 0.99) - 1)]
        print(
            f"{game}: {len(times)} messages, median {statistics.median(times) * 1000:.2f} ms, "
            f"p99 {p99 * 1000:.2f} ms, max {times[-1] * 1000:.2f} ms"
        )
    engine = GAMES["gnav"]
    from engines.gnav import ai

    decisions = []
    for players in (4, 8):
        state = engine.new_game(players, f"strong{players}")
        for k in range(20):
            if engine.outcome(state) is not None:
                break
            seat = engine.to_act(state)[0]
            view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
            start = time.perf_counter()
            action = ai.strong_policy(view, legal, rng_for("bench", k, "strong"))
            decisions.append(time.perf_counter() - start)
            state, _ = engine.apply(state, seat, action)
    print(
        f"gnav strong AI: {len(decisions)} decisions, median {statistics.median(decisions) * 1000:.1f} ms, "
        f"max {max(decisions) * 1000:.1f} ms (the first includes filling its win-chance table)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
