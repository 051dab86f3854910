"""Who may do what, and input the core refuses before it does any work (issue #13).

* :func:`parse_button` reads button data strictly (ASCII digits of bounded length, a notation of
  bounded length, a known lobby verb) before anything touches the database, so ``²:0:x``, a
  5,000-digit id or ``10**30`` is a refusal, not a traceback.
* :class:`Throttle` keeps one flooding user from keeping the bot busy: past ``limit`` inbound
  messages in ``window`` seconds their messages are dropped, with one short notice per burst.
* :class:`AdminCache` is the short-lived memory the transports keep of the answers of their
  :class:`~chatbot.core.ports.Members` port (Telegram ``getChatMember``, Matrix power levels). The
  core asks only when an action needs an administrator.
* :func:`clean_inbound` bounds and cleans what a platform hands in (control characters, NUL, which
  PostgreSQL cannot store, absurd lengths, names that would break a line), so every text goes
  through the pipeline.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, replace

from chatbot.core.people import clean_name
from chatbot.core.types import Inbound

#: button data: "<match>:<version>:<notation>" (Telegram allows 64 bytes)
_BUTTON = re.compile(r"([0-9]{1,12}):([0-9]{1,12}):([\x21-\x7e][\x20-\x7e]{0,63})")
#: the lobby verbs a button may carry after "@"
BUTTON_VERBS = frozenset({"join", "add_ai", "remove_ai", "start", "fill", "as_is", "rematch", "suggested"})
#: the longest text the language pipeline reads; longer ones are answered (in private) or ignored
MAX_TEXT = 2000
MAX_NAME = 64
MAX_ID = 255
#: the most mentions (and handles) of one message the core looks at
MAX_MENTIONS = 10
#: control characters, NUL, direction overrides and invisible marks (not the joiners of emoji)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\ufeff]")


@dataclass(frozen=True, slots=True)
class ButtonData:
    match_id: int
    version: int
    notation: str

    @property
    def verb(self) -> str | None:
        """The lobby verb of an ``@`` button (``join``, ``start``…), None for a game move."""
        return self.notation[1:] if self.notation.startswith("@") else None


def parse_button(data: str | None) -> ButtonData | None:
    """The parts of well-formed button data, or None: ASCII digits only, ids below 10**12, a printable
    ASCII notation of at most 64 characters, and only known lobby verbs."""
    if not data or len(data) > 100:
        return None
    found = _BUTTON.fullmatch(data)
    if found is None:
        return None
    parsed = ButtonData(int(found[1]), int(found[2]), found[3])
    if parsed.verb is not None and parsed.verb not in BUTTON_VERBS:
        return None
    return parsed


def clean_inbound(msg: Inbound) -> Inbound:
    """``msg`` with bounded, printable fields: control characters and NUL removed from the text, the
    name as shown (:func:`~chatbot.core.people.clean_name`: one line, no invisible or direction
    characters, at most 32 characters), ids, mentions and handles cut to a sane length and number
    (the text itself is cut later, after its length has been seen)."""
    name = clean_name(msg.user_name or "", "")
    if not name:
        name = clean_name((msg.user_id or "?")[:MAX_NAME])
    text = msg.text
    if text is not None and _CONTROL.search(text):
        text = _CONTROL.sub("", text)
    long_ids = max(len(msg.user_id or ""), len(msg.chat_id or ""), len(msg.update_key or "")) > MAX_ID
    named = (*msg.mentions, *msg.handles, msg.reply_to_user or "", msg.user_handle or "")
    if (
        name == msg.user_name
        and text is msg.text
        and not long_ids
        and (msg.lang_hint is None or len(msg.lang_hint) <= 35)
        and len(msg.mentions) + len(msg.handles) <= MAX_MENTIONS
        and all(len(x) <= MAX_ID for x in named)
    ):
        return msg  # the usual case: nothing to clean
    return replace(
        msg,
        user_name=name,
        user_id=(msg.user_id or "")[:MAX_ID],
        chat_id=(msg.chat_id or "")[:MAX_ID],
        text=text,
        lang_hint=(msg.lang_hint or "")[:35] or None,
        update_key=msg.update_key[:MAX_ID] if msg.update_key is not None else None,
        mentions=tuple(x[:MAX_ID] for x in msg.mentions[:MAX_MENTIONS]),
        handles=tuple(x[:MAX_NAME] for x in msg.handles[:MAX_MENTIONS]),
        reply_to_user=msg.reply_to_user[:MAX_ID] if msg.reply_to_user else None,
        user_handle=msg.user_handle[:MAX_NAME] if msg.user_handle else None,
    )


class Throttle:
    """At most ``limit`` inbound messages per user in ``window`` seconds (a sliding window); the
    rest are dropped. :meth:`check` says ``"ok"``, ``"notice"`` (the first drop of a burst: tell the
    user once) or ``"drop"``. Per process and in memory: a flood is a burst, not state to keep."""

    def __init__(
        self, limit: int = 30, window: float = 10.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._seen: OrderedDict[tuple[str, str], deque[float]] = OrderedDict()
        self._told: set[tuple[str, str]] = set()
        self._lock = threading.Lock()

    def check(self, platform: str, user_id: str) -> str:
        key = (platform, user_id)
        now = self.clock()
        with self._lock:
            times = self._seen.get(key)
            if times is None:
                times = self._seen[key] = deque()
            self._seen.move_to_end(key)
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) < self.limit:
                times.append(now)
                self._told.discard(key)
                self._forget_old()
                return "ok"
            if key in self._told:
                return "drop"
            self._told.add(key)
            return "notice"

    def _forget_old(self) -> None:
        while len(self._seen) > 50_000:
            old, _times = self._seen.popitem(last=False)
            self._told.discard(old)


class AdminCache:
    """The transports' short-lived memory of who administers a chat: ``get`` gives the cached answer
    or None, ``put`` remembers one for ``ttl`` seconds."""

    def __init__(self, ttl: float = 60.0, clock: Callable[[], float] = time.monotonic, size: int = 10_000):
        self.ttl = ttl
        self.clock = clock
        self.size = size
        self._items: OrderedDict[tuple[str, str], tuple[float, bool]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, chat_id: str, user_id: str) -> bool | None:
        with self._lock:
            item = self._items.get((chat_id, user_id))
            if item is None or item[0] < self.clock():
                return None
            return item[1]

    def put(self, chat_id: str, user_id: str, admin: bool) -> None:
        with self._lock:
            self._items[(chat_id, user_id)] = (self.clock() + self.ttl, admin)
            self._items.move_to_end((chat_id, user_id))
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def forget(self, chat_id: str, user_id: str | None = None) -> None:
        with self._lock:
            for key in [k for k in self._items if k[0] == chat_id and (user_id is None or k[1] == user_id)]:
                del self._items[key]
