"""The script transport: JSON lines in, JSON lines out (golden transcripts, tests, tooling).

Input lines: ``{"user": "alice", "chat": "group" | "private", "text": "..."}`` or with
``"button": DATA`` instead of text; optional ``"name"`` (display name) and ``"lang"`` (the
platform's language hint). Output: one line per outbound message ``{"chat": "group" | "private",
"user": ..., "text": ..., "buttons": [[label, data], ...]}`` (plus ``"edit"`` when the message
replaces an earlier one with the same key). The same seed gives the same output.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from chatbot.core.service import BotCore
from chatbot.core.types import Inbound, Outbound

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


def run_lines(core: BotCore, lines: Iterable[str], ack: bool = False) -> Iterator[dict[str, Any]]:
    """Feed each JSON line to the core, then let AI seats move; yield the outbound messages.

    AI seats whose turn came before a restart move first. With ``ack`` a line ``{"ack": N}`` follows
    the answers to the N-th input line, so a driver knows when the bot is done with it.
    """
    for match_id in core.ai_pending():
        for out in core.run_ai(match_id):
            yield transcript_line(out)
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
        for out in core.handle(msg):
            yield transcript_line(out)
        for match_id in core.ai_pending():
            for out in core.run_ai(match_id):
                yield transcript_line(out)
        count += 1
        if ack:
            yield {"ack": count}


def run(core: BotCore, source: TextIO, sink: TextIO, ack: bool = False) -> None:
    for item in run_lines(core, iter(source.readline, ""), ack):
        sink.write(json.dumps(item, ensure_ascii=False) + "\n")
        sink.flush()
