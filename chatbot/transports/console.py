"""The local console table: one person plays against AI players in a terminal.

Public table messages and private messages are shown apart. Type what you want to do in Finnish or
English, or the number of a button. AI players move with a short pause. Everything is stored, so
quitting and starting again continues the game.
"""

from __future__ import annotations

import getpass
import sys
import time
from typing import TextIO

from chatbot.core import i18n
from chatbot.core.service import BotCore
from chatbot.core.types import Button, Inbound, Outbound

PLATFORM = "console"
ROOM = "table"


class ConsoleTable:
    def __init__(self, core: BotCore, name: str | None = None, delay: float = 0.6,
                 out: TextIO = sys.stdout, lang: str | None = None) -> None:
        self.core = core
        self.user_id = "local"
        self.name = name or _default_name()
        self.delay = delay
        self.out = out
        self.lang = lang
        self.buttons: list[Button] = []

    def show(self, msg: Outbound) -> None:
        where = "🔒 " + i18n.translator(msg.lang).gettext("Private") if msg.private \
            else "🎲 " + i18n.translator(msg.lang).gettext("Table")
        bar = "─" * 8
        self.out.write(f"\n{bar} {where} {bar}\n{msg.text}\n")
        flat = [b for row in msg.buttons for b in row]
        if flat:
            self.buttons = flat
            self.out.write("  ".join(f"[{i}] {b.label}" for i, b in enumerate(flat, 1)) + "\n")
        self.out.flush()

    def send(self, text: str) -> None:
        text = text.strip()
        button = None
        if text.isdigit() and self.buttons and 1 <= int(text) <= len(self.buttons):
            button = self.buttons[int(text) - 1].data
        msg = Inbound(PLATFORM, self.user_id, self.name, ROOM, private=False,
                      text=None if button else text, button=button, lang_hint=self.lang)
        for out in self.core.handle(msg):
            self.show(out)
        self.run_ai()

    def run_ai(self) -> None:
        for match_id in self.core.ai_pending():
            while True:
                step = self.core.step_ai(match_id)
                if not step:
                    break
                time.sleep(self.delay)
                for out in step:
                    self.show(out)

    def loop(self, source: TextIO = sys.stdin) -> None:
        t = i18n.translator(self.lang or "fi")
        self.out.write(t.gettext(
            "Welcome to the game table! Write “new majavajengi” to set up a game, then “start”. "
            "“help” lists the commands, “quit” (or Ctrl-D) leaves; your game is saved.") + "\n")
        self.send("status")
        while True:
            self.out.write("> ")
            self.out.flush()
            line = source.readline()
            if not line or line.strip().casefold() in {"quit", "exit", "lopeta ohjelma", "q"}:
                break
            if line.strip():
                self.send(line)


def _default_name() -> str:
    try:
        name = getpass.getuser()
    except Exception:
        name = ""
    return (name if name and name != "root" else "Pelaaja").capitalize()
