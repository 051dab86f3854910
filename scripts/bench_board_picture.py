"""Benchmark: how long the Afrikan Tähti board picture takes to draw (run by hand, prints figures).

    .venv/bin/python scripts/bench_board_picture.py [--games 3]

Plays AI games and draws the public board after every action, in a fresh process so the first
picture includes loading fonts and the base map. Prints the first picture's time, the median, p99
and maximum over the positions whose picture differs from every earlier one (each of them drawn
from scratch: the cache of finished pictures would answer a repeated one), the time for a repeated
position (cache) and the PNG size. In chat the table sends one new picture a round at most
(issue #28, chatbot/core/pictures.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.games.afrikan_tahti.picture import board_png
from engines import GAMES
from engines.playout import play_ai_game


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    engine = GAMES["afrikan_tahti"]
    ctx = RenderContext(translator("fi"), ("Matti", "Liisa", "Pekka"))
    times: list[float] = []
    sizes: list[int] = []
    views = []

    def on_step(state, seat, action, events):
        views.append(engine.view(state, None))

    for g in range(args.games):
        play_ai_game(engine, ("smart", "smart", "smart"), f"bench:{g}", None, on_step)
    from chatbot.games.afrikan_tahti.picture import scene_of

    first = None
    seen = set()
    for view in views:
        scene = scene_of(view, ctx)
        if scene in seen:
            continue  # the same picture as an earlier position: the cache answers it
        seen.add(scene)
        start = time.perf_counter()
        png = board_png(view, ctx)
        took = time.perf_counter() - start
        if first is None:
            first = took
        else:
            times.append(took)
        sizes.append(len(png))
    start = time.perf_counter()
    board_png(views[-1], ctx)
    cached = time.perf_counter() - start
    times.sort()
    p99 = times[int(len(times) * 0.99) - 1] if times else 0.0
    print(f"pictures: {len(views)} positions from {args.games} games, {len(seen)} different pictures")
    print(f"first picture: {first * 1000:.1f} ms (fonts and base map included)")
    print(
        f"new positions: median {statistics.median(times) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"max {max(times) * 1000:.1f} ms"
    )
    print(
        f"repeated position: {cached * 1000:.3f} ms; PNG size median {statistics.median(sizes) / 1024:.0f} KiB"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
