"""The README's screenshot of the web view (issue #29): a 4-player Afrikan Tähti game with
Retkikunnat some moves in, as the first person sees it on a phone, taken by headless Chromium.

    .venv/bin/python scripts/web_screenshot.py [--out deploy/web-view.png] [--moves 14]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from chatbot.web.server import WebServer  # noqa: E402
from chatbot.web.settings import WebSettings  # noqa: E402
from scripts.benchlib import free_port  # noqa: E402
from tests.chatbot.table import Table  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(ROOT / "deploy" / "web-view.png"))
    parser.add_argument("--moves", type=int, default=14)
    parser.add_argument("--width", type=int, default=430)
    args = parser.parse_args(argv)
    folder = tempfile.mkdtemp(prefix="web-shot-")
    table = Table(url=f"sqlite:///{folder}/shot.sqlite", seed="shot")
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    server = WebServer(table.core, WebSettings(base, port=port, secret=b"screenshot-secret-of-the-view"))
    table.core.web_links = server.links
    asyncio.run_coroutine_threadsafe(server.start("127.0.0.1", port), loop).result(10)
    try:
        table.say("matti", "uusi afrikan tähti")
        for _ in range(3):
            table.say("matti", "lisää botti")
        table.say("matti", "aloita")
        rng = random.Random(4)
        for _ in range(args.moves):
            prompt = table.prompt_for("matti")
            moves = [
                b for row in (prompt.buttons if prompt else ()) for b in row if not b.data.startswith(base)
            ]
            if not moves or table.match() is None:
                break
            table.press("matti", rng.choice(moves).data)
        link = [
            b.data
            for o in table.sent
            if o.user_id == "matti"
            for row in o.buttons
            for b in row
            if b.data.startswith(base)
        ][-1]
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=shutil.which("chromium") or "/usr/bin/chromium", args=["--no-sandbox"]
            )
            page = browser.new_page(viewport={"width": args.width, "height": 900}, device_scale_factor=1.5)
            page.goto(link)
            page.wait_for_function("document.body.dataset.state === 'ready'")
            page.wait_for_function("Array.from(document.images).every((i) => i.complete)")
            page.wait_for_timeout(300)
            page.screenshot(path=args.out, full_page=True)
            browser.close()
        print(args.out)
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
