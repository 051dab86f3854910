"""The script transport: JSON lines in, JSON lines out (golden transcripts, tests, tooling).

Input lines: ``{"user": "alice", "chat": "group" | "private", "text": "..."}`` or with
``"button": DATA`` instead of text; optional ``"name"`` (display name), ``"lang"`` (the
platform's language hint), ``"id"`` (an update id: a line with an id seen before is not applied
again), ``"mentions"`` (the users the text mentions, e.g. ``["bob"]``), ``"reply_to"`` (the user
whose message it answers) and ``"handle"`` (the sender's own handle). Output: one line per outbound message ``{"chat": "group" | "private", "user": ..., "text":
..., "buttons": [[label, data], ...]}`` (plus ``"edit"`` when the message replaces an earlier one
with the same key). The same seed gives the same output.

It runs on the same :class:`~chatbot.runtime.Runtime` as every transport, serially: after each
line the outbox is delivered in commit order and the deadlines that are due (AI turns) are run.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from chatbot.core.ports import Transport
from chatbot.core.types import Inbound, Outbound
from chatbot.runtime import Runtime, Settings

PLATFORM = "script"
GROUP = "group"


def to_inbound(line: dict[str, Any]) -> Inbound:
    user = str(line["user"])
    private = line.get("chat", "group") == "private"
    return Inbound(
        platform=PLATFORM,
        user_id=user,
        user_name=str(line.get("name") or user.capitalize()),
        chat_id=user if private else str(line.get("group", GROUP)),
        private=private,
        text=line.get("text"),
        button=line.get("button"),
        lang_hint=line.get("lang"),
        update_key=str(line["id"]) if line.get("id") is not None else None,
        mentions=tuple(str(u) for u in line.get("mentions") or ()),
        reply_to_user=str(line["reply_to"]) if line.get("reply_to") is not None else None,
        user_handle=str(line["handle"]) if line.get("handle") else None,
    )


def transcript_line(out: Outbound) -> dict[str, Any]:
    """What a golden transcript shows of a message: a reviewable view, not a codec (that is
    :meth:`Outbound.to_json`); the image is noted, not kept."""
    data: dict[str, Any] = {
        "chat": "private" if out.private else "group",
        "user": out.user_id,
        "text": out.text,
        "buttons": [[b.label, b.data] for row in out.buttons for b in row],
    }
    if out.key:
        data["edit"] = out.key
    if out.image:
        # the bytes depend on the Pillow version; golden files note only that one was sent
        data["image"] = True
    return data


class ScriptTransport(Transport):
    """Delivery is a transcript line; the reference of a keyed message is its outbox row."""

    platform = PLATFORM

    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []

    async def deliver(self, out: Outbound, ref: str | None, txn: str) -> str | None:
        self.lines.append(transcript_line(out))
        return ref or txn

    def take(self) -> list[dict[str, Any]]:
        lines, self.lines = self.lines, []
        return lines


def serial_runtime(core: Any, transport: Any) -> Runtime:
    """The runtime of a local, single-threaded transport: the core inline, delivery in commit order."""
    return Runtime(core, transport, settings=Settings(inline=True, serial=True, coalesce=False, due_limit=1))


def run_lines(core: Any, lines: Iterable[str], ack: bool = False) -> Iterator[dict[str, Any]]:
    """Feed each JSON line to the core through the runtime; yield the delivered messages.

    AI seats whose turn came before a restart move first (their deadlines are due). With ``ack`` a
    line ``{"ack": N}`` follows the answers to the N-th input line, so a driver knows when the bot
    is done with it.
    """
    transport = ScriptTransport()
    runtime = serial_runtime(core, transport)
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(runtime.start())
        loop.run_until_complete(runtime.run_due_all())
        yield from transport.take()
        count = 0
        for raw in lines:
            raw = raw.strip()
            if not raw or raw.startswith("#"):
                continue
            try:
                msg = to_inbound(json.loads(raw))
            except (ValueError, KeyError) as exc:
                yield {"chat": "error", "user": None, "text": f"bad input line: {exc}", "buttons": []}
                continue
            loop.run_until_complete(runtime.handle(msg))
            yield from transport.take()
            loop.run_until_complete(runtime.run_due_all())
            yield from transport.take()
            count += 1
            if ack:
                yield {"ack": count}
    finally:
        loop.run_until_complete(runtime.stop())
        loop.close()


def run(core: Any, source: TextIO, sink: TextIO, ack: bool = False) -> None:
    for item in run_lines(core, iter(source.readline, ""), ack):
        sink.write(json.dumps(item, ensure_ascii=False) + "\n")
        sink.flush()
