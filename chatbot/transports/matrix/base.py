"""Constants, failures and counters that the parts of :class:`~chatbot.transports.matrix.bot.MatrixBot`
share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nio import ErrorResponse

PLATFORM = "matrix"
#: the sync filter: no presence, typing or receipts; enough timeline that gaps stay rare
SYNC_FILTER: dict[str, Any] = {
    "presence": {"not_types": ["*"]},
    "account_data": {"not_types": ["*"]},
    "room": {
        "timeline": {"limit": 50},
        "ephemeral": {"not_types": ["*"]},
        "account_data": {"not_types": ["*"]},
    },
}
HANDLED_MEMORY = 500  # event ids remembered against replays after a crash
MAX_OPTIONS = 12  # button labels shown in the hint line
#: the room encryption algorithm of encrypted rooms the bot creates
MEGOLM = "m.megolm.v1.aes-sha2"
#: reaction keys for the first buttons of a message: a player's reaction presses that button
KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟")
#: the sets of reaction keys a message's options are numbered with, in turn: the next set once someone's
#: key of the set in use stays on the message (the bot could not take it back)
KEYSETS = (
    KEYCAPS,
    tuple(chr(0x2460 + i) for i in range(10)),  # ① … ⑩
    tuple(chr(0x2776 + i) for i in range(10)),  # ❶ … ❿
    tuple(chr(0x2780 + i) for i in range(10)),  # ➀ … ➉
    tuple(chr(0x278A + i) for i in range(10)),  # ➊ … ➓
    tuple(chr(0x2474 + i) for i in range(10)),  # ⑴ … ⑽
)
#: every reaction key -> the option it presses (the same number in every set)
KEY_INDEX = {key: i for keys in KEYSETS for i, key in enumerate(keys)}
#: senders of recent messages remembered, for the author of a reply's target (issue #27)
SENDER_MEMORY = 5000
#: how many messages' buttons are kept for reactions (the newest; older prompts are stale anyway)
BUTTON_MEMORY = 2000
#: how many messages are remembered whose reaction keys someone used and the bot could not take back
USED_MEMORY = 500
#: seconds a room where the bot may not redact reactions is not asked again
NO_REDACT_FOR = 600.0
UNDECRYPTED_WAIT = 20.0  # seconds to wait for a missing room key before explaining
EXPLAIN_EVERY = 600.0  # seconds between two "I need an unencrypted room" notices in one room


class LoginFailed(RuntimeError):
    """The homeserver refused the credentials."""


class _RateLimited(Exception):
    def __init__(self, seconds: float) -> None:
        super().__init__(f"rate limited for {seconds:.2f} s")
        self.seconds = seconds


class _Temporary(Exception):
    """A failure worth retrying (server error, network)."""


class _Permanent(Exception):
    """A failure that retrying will not fix (forbidden, unknown room)."""


@dataclass
class Stats:
    """Counters for logs and tests."""

    handled: int = 0
    sent: int = 0
    edits: int = 0
    images: int = 0
    rate_limited: int = 0
    retries: int = 0
    dropped: int = 0
    dms_created: int = 0


def _check(resp: Any, what: str) -> Any:
    """Raise the matching failure for an error response; return the response otherwise."""
    if isinstance(resp, ErrorResponse):
        status = getattr(getattr(resp, "transport_response", None), "status", None)
        if resp.status_code == "M_LIMIT_EXCEEDED" or status == 429:
            raise _RateLimited(max(0.05, (resp.retry_after_ms or 1000) / 1000))
        if resp.status_code == "M_UNKNOWN_TOKEN":
            # the session expired: the sync loop logs in again, and the message goes then (it was
            # dropped when a send happened to meet the dead token, e.g. the greeting of a new room)
            raise _Temporary(f"{what}: {resp}")
        if status is not None and 400 <= status < 500:
            raise _Permanent(f"{what}: {resp}")
        raise _Temporary(f"{what}: {resp}")
    return resp


def _localpart(user_id: str) -> str:
    return user_id.lstrip("@").split(":", 1)[0]
