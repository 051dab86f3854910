"""The text of a message: the buttons as a hint line with reaction keys, reply fallbacks and
mentions stripped, the size of a PNG.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Iterable
from typing import Any

from chatbot.core import i18n
from chatbot.core.types import Outbound
from chatbot.transports.matrix.base import KEYCAPS, MAX_OPTIONS


def choices(out: Outbound) -> list[tuple[str, str]]:
    """(label, data) of the message's buttons, one per label, in order: what the hint line lists
    and what the reaction keys press."""
    seen: dict[str, str] = {}
    for row in out.buttons:
        for button in row:
            if not is_link(button.data):
                seen.setdefault(button.label, button.data)
    return list(seen.items())


def is_link(data: str) -> bool:
    """A link button (the web view's): a line with its address, not an option to react to."""
    return data.startswith(("https://", "http://"))


def link_lines(out: Outbound) -> list[str]:
    """The message's link buttons as lines "label: address"."""
    return [f"{b.label}: {b.data}" for row in out.buttons for b in row if is_link(b.data)]


def options_line(out: Outbound, keys: tuple[str, ...] = KEYCAPS) -> str:
    """The buttons of a message as one line of text, in the message's language; the first ten are
    numbered with the reaction key that presses them."""
    labels = [label for label, _data in choices(out)]
    if not labels:
        return ""
    keyed = [f"{keys[i]} {label}" if i < len(keys) else label for i, label in enumerate(labels)]
    shown = " · ".join(keyed[:MAX_OPTIONS]) + (" · …" if len(labels) > MAX_OPTIONS else "")
    t = i18n.translator(out.lang)
    return t.gettext("Options: {options}").format(options=shown)


def message_text(out: Outbound, keys: tuple[str, ...] = KEYCAPS) -> str:
    line = options_line(out, keys)
    text = f"{out.text}\n\n{line}" if line else out.text
    links = link_lines(out)
    return "\n\n".join([text, "\n".join(links)]) if links else text


_FALLBACK = re.compile(r"^(?:>[^\n]*\n)+\n?", re.S)


def strip_reply_fallback(body: str) -> str:
    """Drop the quoted "> <@user> …" lines that older clients put in front of a reply."""
    return _FALLBACK.sub("", body, count=1) if body.startswith(">") else body


#: the sender in an older client's reply fallback: "> <@olli:example.org> what they wrote"
_QUOTED_SENDER = re.compile(r"^> <(@[^>\s]+:[^>\s]+)>")
#: a pill in a formatted body: <a href="https://matrix.to/#/@olli:example.org">Olli</a>
_PILL = re.compile(r'href=["\']https://matrix\.to/#/(@[^"\'?/]+:[^"\'?/]+)["\'?]')
#: a Matrix user id typed out in the text: "@olli:example.org" (a port may follow the server name)
_TYPED_ID = re.compile(r"(?<![\w@])@[a-z0-9._=\-/+]+:[a-z0-9.\-]+(?::\d+)?(?![\w:])", re.IGNORECASE)


def mentioned(content: dict[str, Any], text: str = "") -> list[str]:
    """The users a message mentions: its ``m.mentions`` (MSC3952, what current clients send), else the
    pills of its formatted body (older clients); and the user ids typed out in ``text`` (the body
    without the reply fallback), so "anna paikkani @olli:example.org" names Olli in any client."""
    found: list[str] = []
    mentions = content.get("m.mentions")
    if isinstance(mentions, dict) and isinstance(mentions.get("user_ids"), list):
        found = [u for u in mentions["user_ids"] if isinstance(u, str)]
    else:
        formatted = content.get("formatted_body")
        if isinstance(formatted, str):
            found = _PILL.findall(formatted)
    found.extend(m.rstrip(".") for m in _TYPED_ID.findall(text))
    return list(dict.fromkeys(found))


def quoted_sender(body: str) -> str | None:
    """The user an older client's reply fallback quotes ("> <@olli:example.org> …"), if any."""
    quoted = _QUOTED_SENDER.match(body)
    return quoted[1] if quoted else None


def strip_mention(text: str, names: Iterable[str]) -> str:
    """``"Pelibotti: nostan"`` → ``"nostan"`` for any of the bot's names (longest first)."""
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        pattern = rf"^\s*@?{re.escape(name.lstrip('@'))}(?::[\w.\-]+(?::\d+)?)?(?:\s*[:,]\s*|\s+|$)"
        match = re.match(pattern, text, re.IGNORECASE)
        if match:
            return text[match.end() :].strip()
    return text.strip()


def png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return None


def _sha(data: str | bytes) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()[:16]
