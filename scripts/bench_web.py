"""The web view's figures (issue #29) for a 6-player Afrikan Tähti game (one person, five AI players,
Retkikunnat): the state endpoint's time, the bytes sent per update, and the page's first render in
headless Chromium (Debian's, through Playwright).

    .venv/bin/python scripts/bench_web.py [--moves 60] [--loads 15] [--requests 60]

- state endpoint: a GET of ``api/state`` over HTTP on 127.0.0.1, the first one at each new version
  ("fresh": the snapshot is made anew) and repeated ones at the same version;
- bytes per update: the body of each fresh state, as JSON and as sent (gzip, which the page accepts);
- first render: from navigation start to the page's first drawn table (``window.firstRender``),
  each load in a new browser context (nothing cached: the map image is fetched every time).

Each line prints the median and the 99th percentile.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from chatbot.web.server import WebServer  # noqa: E402
from chatbot.web.settings import WebSettings  # noqa: E402
from scripts.benchlib import free_port, percentile  # noqa: E402
from tests.chatbot.table import Table  # noqa: E402


def line(name: str, values: list[float], unit: str, digits: int = 1) -> str:
    return (
        f"{name}: median {statistics.median(values):.{digits}f} {unit}, "
        f"p99 {percentile(values, 99):.{digits}f} {unit} (n={len(values)})"
    )


def get(url: str, gzip_ok: bool = False) -> tuple[float, bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzip_ok else {})
    started = time.perf_counter()
    with urllib.request.urlopen(request) as response:
        body = response.read()
    return (time.perf_counter() - started) * 1000, body


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--moves", type=int, default=60, help="moves of the person (each with the AI's after it)"
    )
    parser.add_argument("--loads", type=int, default=15, help="page loads in the browser")
    parser.add_argument("--requests", type=int, default=60, help="repeated requests at one version")
    args = parser.parse_args(argv)

    folder = tempfile.mkdtemp(prefix="bench-web-")
    table = Table(url=f"sqlite:///{folder}/bench.sqlite", seed="bench")
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    server = WebServer(table.core, WebSettings(base, port=port, secret=b"bench-secret-of-the-web-view"))
    table.core.web_links = server.links
    asyncio.run_coroutine_threadsafe(server.start("127.0.0.1", port), loop).result(10)
    try:
        table.say("alice", "uusi afrikan tähti")
        for _ in range(5):
            table.say("alice", "lisää botti")
        table.say("alice", "aloita")
        match = table.match()
        assert match is not None and match.status == "running" and len(match.seats) == 6
        link = [
            b.data
            for o in table.sent
            if o.user_id == "alice"
            for row in o.buttons
            for b in row
            if b.data.startswith(base)
        ][-1]
        state_url = link.replace(base + "?", base + "api/state?")
        rng = random.Random(1)
        fresh, raw, sent = [], [], []
        for _ in range(args.moves):
            current = table.match()
            if current is None or current.status != "running":
                break
            prompt = table.prompt_for("alice")
            moves = [
                b for row in (prompt.buttons if prompt else ()) for b in row if not b.data.startswith(base)
            ]
            if not moves:
                break
            table.press("alice", rng.choice(moves).data)
            ms, body = get(state_url, gzip_ok=True)
            fresh.append(ms)
            sent.append(len(body))
            raw.append(len(gzip.decompress(body)) if body[:2] == b"\x1f\x8b" else len(body))
        same = [get(state_url)[0] for _ in range(args.requests)]
        print(
            f"game: Afrikan Tähti, 6 players, {len(fresh)} updates measured (version {table.repo.match(match.id).version})"
        )
        print(line("state endpoint, fresh version", fresh, "ms"))
        print(line("state endpoint, same version", same, "ms"))
        print(line("bytes per update, JSON", [float(x) for x in raw], "B", 0))
        print(line("bytes per update, sent (gzip)", [float(x) for x in sent], "B", 0))
        renders, with_map = first_renders(link, args.loads)
        if renders:
            print(line("first render (navigation start -> table drawn)", renders, "ms"))
            print(line("first render with the map image loaded", with_map, "ms"))
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


def first_renders(link: str, loads: int) -> tuple[list[float], list[float]]:
    chromium = shutil.which("chromium")
    if chromium is None:
        print("first render: skipped, chromium is not installed")
        return [], []
    from playwright.sync_api import sync_playwright

    out, with_map = [], []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        try:
            for _ in range(loads):
                context = browser.new_context(viewport={"width": 390, "height": 844})
                page = context.new_page()
                page.goto(link)
                page.wait_for_function("window.firstRender !== undefined", timeout=20_000)
                # the map under the pieces is part of the first picture
                page.wait_for_function(
                    "Array.from(document.images).every((i) => i.complete) && "
                    "[...document.querySelectorAll('svg image')].length > 0",
                    timeout=20_000,
                )
                drawn = float(page.evaluate("window.firstRender"))
                image = page.evaluate(
                    "Math.max(0, ...performance.getEntriesByType('resource')"
                    ".filter((e) => e.name.includes('board.png')).map((e) => e.responseEnd))"
                )
                out.append(drawn)
                with_map.append(max(drawn, float(image)))
                context.close()
        finally:
            browser.close()
    return out, with_map


if __name__ == "__main__":
    raise SystemExit(main())
