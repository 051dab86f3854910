"""The local console table: one person plays against AI players in a terminal.

Public table messages and private messages are shown apart. Type what you want to do in Finnish or
English, or the number of a button. AI players move with a short pause. Everything is stored, so
quitting and starting again continues the game.
"""

from __future__ import annotations

import asyncio
import getpass
import sys
import time
from typing import Any, TextIO

from chatbot.core import i18n
from chatbot.core.ports import Transport
from chatbot.core.types import PROMPT, TABLE, Button, Inbound, Outbound
from chatbot.transports.script import serial_runtime

PLATFORM = "console"
ROOM = "table"


class ConsoleTransport(Transport):
    """Delivery collects the messages of one step; the table prints them together."""

    platform = PLATFORM

    def __init__(self) -> None:
        self.batch: list[Outbound] = []

    async def deliver(self, out: Outbound, ref: str | None, txn: str) -> str | None:
        self.batch.append(out)
        return ref or txn

    def take(self) -> list[Outbound]:
        batch, self.batch = self.batch, []
        return batch


class ConsoleTable:
    def __init__(
        self,
        core: Any,
        name: str | None = None,
        delay: float = 0.6,
        out: TextIO = sys.stdout,
        lang: str | None = None,
    ) -> None:
        self.core = core
        self.user_id = "local"
        self.name = name or _default_name()
        self.delay = delay
        self.out = out
        self.lang = lang
        self.buttons: list[Button] = []
        self.buttons_private = False
        self.transport = ConsoleTransport()
        self.runtime = serial_runtime(core, self.transport)
        self._loop = asyncio.new_event_loop()
        self._loop.run_until_complete(self.runtime.start())

    def show(self, batch: list[Outbound]) -> None:
        """Print one step's messages. The console already showed earlier steps as they happened,
        so the table is printed in full only when it is the person's turn (or on request); other
        steps print just their news (an event and the lines that continue it: the cards revealed).
        A message of its own that repeats the table's news (a round's result, kept in the chat
        apart from the edited table) is printed once, in its place among the table's news."""
        prompt = any(o.private and o.buttons for o in batch)
        news = {line for o in batch if _is_table(o) for line in _news(o.text, fresh_only=False)}
        # a result message's heading ("🐦 Jaon 2 tulos:") goes before its first line on the table
        headings: dict[str, str] = {}
        told: set[int] = set()
        for i, msg in enumerate(batch):
            lines = msg.text.splitlines()
            if msg.private or msg.key or not lines:
                continue
            if set(lines) <= news:
                told.add(i)
            elif len(lines) > 1 and set(lines[1:]) <= news:
                told.add(i)
                headings[lines[1]] = lines[0]
        for i, msg in enumerate(batch):
            if i in told or _disarmed_panel(msg):
                continue  # told among the table's news lines of this step, or nothing new
            lines = msg.text.splitlines()
            if _is_table(msg) and not prompt and any(line.startswith("▸") for line in lines):
                lines = _news(msg.text, fresh_only=True, marked=True)
            elif not msg.private:
                lines = _without_recent(lines)
            if _is_table(msg) and headings:
                lines = _with_headings(lines, headings)
            t = i18n.translator(msg.lang)
            where = "🔒 " + t.gettext("Private") if msg.private else "🎲 " + t.gettext("Table")
            self.out.write(f"\n{'─' * 8} {where} {'─' * 8}\n" + "\n".join(lines).strip() + "\n")
            flat = [b for row in msg.buttons for b in row]
            if flat and (msg.private or not prompt):
                self.buttons = flat
                self.buttons_private = msg.private
                self.out.write("  ".join(f"[{i}] {b.label}" for i, b in enumerate(flat, 1)) + "\n")
        self.out.flush()

    def send(self, text: str) -> None:
        text = text.strip()
        button = None
        if text.isdigit() and self.buttons and 1 <= int(text) <= len(self.buttons):
            button = self.buttons[int(text) - 1].data
        # a private prompt's button acts only in the private chat it was shown in (issue #13)
        private = button is not None and self.buttons_private
        msg = Inbound(
            PLATFORM,
            self.user_id,
            self.name,
            self.user_id if private else ROOM,
            private=private,
            text=None if button else text,
            button=button,
            lang_hint=self.lang,
            addressed=True,  # every line of the console is meant for the bot
        )
        self._loop.run_until_complete(self.runtime.handle(msg))
        self.show(self.transport.take())
        self.run_ai()

    def run_ai(self) -> None:
        """Perform what is due (AI moves), one step at a time with a pause, showing each step."""
        while True:
            if not self._loop.run_until_complete(self.runtime.run_due()):
                break
            step = self.transport.take()
            if step:
                time.sleep(self.delay)
                self.show(step)

    def close(self) -> None:
        self._loop.run_until_complete(self.runtime.stop())
        self._loop.close()

    def loop(self, source: TextIO = sys.stdin) -> None:
        t = i18n.translator(self.lang or "fi")
        self.out.write(
            t.gettext(
                "Welcome to the game table! Write “new majavajengi” to set up a game, then “start”. "
                "“help” lists the commands, “quit” (or Ctrl-D) leaves; your game is saved."
            )
            + "\n"
        )
        self.run_ai()  # AI seats whose turn came before the last exit move first
        self.send("status")
        try:
            while True:
                self.out.write("> ")
                self.out.flush()
                line = source.readline()
                if not line or line.strip().casefold() in {"quit", "exit", "lopeta ohjelma", "q"}:
                    break
                if line.strip():
                    self.send(line)
        finally:
            self.close()


def _is_table(msg: Outbound) -> bool:
    return not msg.private and msg.role == TABLE


def _disarmed_panel(msg: Outbound) -> bool:
    """A private panel edited at the end of its turn only to lose its buttons (a chat edits it in
    place; printed again it would repeat the hand shown a moment ago)."""
    return (
        msg.private
        and msg.role == PROMPT
        and msg.key is not None
        and not msg.buttons
        and not any(line.startswith("▸") for line in msg.text.splitlines())
    )


def _news(text: str, fresh_only: bool, marked: bool = False) -> list[str]:
    """The event lines above a table (before its first blank line), each with the lines that
    continue it; only the fresh ones ("▸") with ``fresh_only``; without their marks unless ``marked``."""
    out: list[str] = []
    keep = False
    for line in text.split("\n\n", 1)[0].splitlines():
        if line.startswith(("▸", "·")):
            keep = line.startswith("▸") or not fresh_only
            line = line if marked else line[1:].strip()
        if keep:
            out.append(line)
    return out


def _with_headings(lines: list[str], headings: dict[str, str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        heading = headings.get(line[1:].strip() if line.startswith("▸") else line)
        if heading is not None and line.startswith("▸"):
            out.append(f"▸ {heading}")
        out.append(line)
    return out


def _without_recent(lines: list[str]) -> list[str]:
    """A table without the lines of earlier steps ("·" and the lines that continue them)."""
    out: list[str] = []
    recent = False
    for line in lines:
        if line.startswith("·"):
            recent = True
            continue
        if line.startswith("▸") or not line.strip():
            recent = False
        if not recent:
            out.append(line)
    return out


def _default_name() -> str:
    try:
        name = getpass.getuser()
    except Exception:
        name = ""
    return (name if name and name != "root" else "Pelaaja").capitalize()
