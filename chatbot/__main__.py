"""``python -m chatbot [console|script|telegram|matrix|run]``.

``run`` (the README's main command) picks the real bot when credentials are configured
(``TELEGRAM_TOKEN``; ``MATRIX_HOMESERVER`` + ``MATRIX_USER`` + password or token) and the local
console table otherwise.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chatbot.core.service import BotCore


def _core(args: argparse.Namespace, default_db: str | None = None, chat: bool = False) -> BotCore:
    """The core; ``chat`` (a real chat platform) throttles flooding users (30 messages in 10 s;
    issue #13), which the console and scripted transcripts do not need."""
    from chatbot.compose import new_core
    from chatbot.core.access import Throttle
    from chatbot.storage import SqlRepository

    db = getattr(args, "db", None) or default_db
    repo = SqlRepository(db)
    throttle = _throttle(os.environ.get("CHATBOT_FLOOD_LIMIT", "30/10"), Throttle) if chat else None
    return new_core(repo, seed=getattr(args, "seed", None), throttle=throttle)


def _throttle(setting: str, make: Any) -> Any:
    """``CHATBOT_FLOOD_LIMIT``: "<messages>/<seconds>" per user (default 30/10), or "off" for a
    harness whose simulated people press faster than people can (load and crash tests)."""
    if setting.strip().casefold() in {"off", "0", "none"}:
        return None
    count, _, seconds = setting.partition("/")
    try:
        return make(limit=int(count), window=float(seconds or 10))
    except ValueError:
        raise SystemExit(f"CHATBOT_FLOOD_LIMIT must be like 30/10 or off, not {setting!r}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m chatbot")
    parser.add_argument("--log", default=os.environ.get("LOG_LEVEL", "WARNING"))
    sub = parser.add_subparsers(dest="command")
    con = sub.add_parser("console", help="play on the local console table")
    con.add_argument(
        "--db", default=None, help="SQLAlchemy URL or SQLite file (default data/pelipoyta.sqlite)"
    )
    con.add_argument("--seed", default=None)
    con.add_argument("--name", default=None)
    con.add_argument("--lang", default=None, choices=["fi", "en"])
    con.add_argument("--delay", type=float, default=0.6, help="seconds between AI moves")
    scr = sub.add_parser("script", help="JSON lines in, JSON lines out")
    scr.add_argument("file", help="input file, or - for standard input")
    scr.add_argument("--db", default=None, help="database (default: in memory)")
    scr.add_argument("--seed", default="0")
    scr.add_argument("--ack", action="store_true", help='print {"ack": N} after the answers to line N')
    tg = sub.add_parser("telegram", help="run the Telegram bot")
    tg.add_argument("--db", default=None)
    mx = sub.add_parser("matrix", help="run the Matrix bot")
    mx.add_argument("--db", default=None)
    sub.add_parser("run", help="the real bot when configured, else the console table")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=getattr(logging, str(args.log).upper(), logging.WARNING),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    command = args.command or "run"
    if command == "run":
        if os.environ.get("TELEGRAM_TOKEN"):
            command = "telegram"
        elif os.environ.get("MATRIX_HOMESERVER") and os.environ.get("MATRIX_USER"):
            command = "matrix"
        else:
            command = "console"
            args = parser.parse_args(["console"])
    if command == "console":
        from chatbot.transports.console import ConsoleTable

        ConsoleTable(_core(args), name=args.name, delay=args.delay, lang=args.lang).loop()
        return 0
    if command == "script":
        from chatbot.transports.script import run

        source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
        with source:
            run(_core(args, default_db="sqlite://"), source, sys.stdout, ack=args.ack)
        return 0
    if command == "telegram":
        from chatbot.transports.telegram import main as telegram_main

        return telegram_main(_core(args, chat=True))
    if command == "matrix":
        from chatbot.transports.matrix import main as matrix_main

        return matrix_main(_core(args, chat=True))
    parser.print_help()
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
