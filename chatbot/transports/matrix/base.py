"""Constants, failures, counters and the base of :class:`MatrixBot`'s parts."""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from nio import AsyncClient, ErrorResponse, MegolmEvent, RoomMessageText

from chatbot.core.types import Outbound
from chatbot.runtime import Runtime

if TYPE_CHECKING:
    from chatbot.core.service import BotCore
    from chatbot.transports.matrix.powers import MatrixMembers


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
#: reaction keys for the first buttons of a message: a player's reaction presses that button
#: the room encryption algorithm of encrypted rooms the bot creates
MEGOLM = "m.megolm.v1.aes-sha2"
#: reaction keys
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

T = TypeVar("T")


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


class MatrixBase:
    """What every part of :class:`~chatbot.transports.matrix.bot.MatrixBot` shares: the attributes
    that ``MatrixBot.__init__`` sets, the transport's own small state through the runtime, and,
    once for the type checker, the methods that one part calls in another. Each of those is defined
    in a part, which comes before this class in MatrixBot's method order; these stubs only raise."""

    core: BotCore
    homeserver: str
    user: str
    password: str | None
    access_token: str | None
    encryption: bool
    store_path: Path | None
    encrypt_dms: bool
    device_name: str
    display_name: str | None
    ai_delay: float
    repost_after: int | None
    sync_timeout_ms: int
    drain_timeout: float
    namespace: str
    stats: Stats
    client: AsyncClient | None
    user_id: str
    _token: str | None
    _counters: dict[str, int]
    _handled: deque[str]
    _handled_set: set[str]
    _dms: dict[str, str]
    _reply_rooms: OrderedDict[str, str]
    _senders: OrderedDict[str, str]
    _buttons: OrderedDict[str, list[str]]
    _used: OrderedDict[str, list[str]]
    _no_redact: dict[str, float]
    _undecrypted: list[tuple[float, str, MegolmEvent]]
    _explained: dict[str, float]
    _tasks: list[asyncio.Task[Any]]
    _sending: set[asyncio.Task[None]]
    _dm_lock: asyncio.Lock
    _busy: asyncio.Lock
    _stopping: bool
    failed: BaseException | None
    done: asyncio.Event
    platform: str
    runtime: Runtime
    members: MatrixMembers
    _dm_retried: set[str]
    _new_encrypted_dms: set[str]

    @property
    def _olm(self) -> Any:
        return self.client.olm if self.client is not None else None

    # ------------------------------------------------------------------------------------------
    # the transport's own small state (session, sync token, direct rooms), through the runtime

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.runtime.call(fn, *args)

    async def _kv_get(self, key: str) -> Any:
        return await self.runtime.kv_get(self.namespace, key)

    async def _kv_set(self, key: str, value: Any) -> None:
        await self.runtime.kv_set(self.namespace, key, value)

    def _remember_handled(self, event_id: str) -> None:
        if len(self._handled) == self._handled.maxlen:
            self._handled_set.discard(self._handled[0])
        self._handled.append(event_id)
        self._handled_set.add(event_id)

    # --- the parts' methods that other parts call (stubs for the type checker) ------------------
    async def _on_invite(self, room_id: str, invite_state: list[Any]) -> None:
        raise NotImplementedError  # Events

    async def _on_room_event(self, room_id: str, event: Any, skip_messages: bool) -> None:
        raise NotImplementedError  # Events

    async def _on_text(self, room_id: str, event: RoomMessageText) -> None:
        raise NotImplementedError  # Events

    async def _remember_buttons(
        self,
        room_id: str,
        event_id: str,
        out: Outbound,
        txn: str,
        had: int,
        keyset: tuple[str, ...] = KEYCAPS,
    ) -> int:
        raise NotImplementedError  # Events

    def _display_name(self, room_id: str, user_id: str) -> str:
        raise NotImplementedError  # Events

    def _dm_member(self, room_id: str) -> str | None:
        raise NotImplementedError  # Events

    async def _crypto_housekeeping(self) -> None:
        raise NotImplementedError  # Crypto

    async def _on_undecryptable(self, room_id: str, event: MegolmEvent) -> None:
        raise NotImplementedError  # Crypto

    async def _retry_undecrypted(self) -> None:
        raise NotImplementedError  # Crypto

    def send(self, outs: Iterable[Outbound]) -> None:
        raise NotImplementedError  # Delivery

    async def _room_send(
        self, room_id: str, content: dict[str, Any], txn: str, event_type: str = "m.room.message"
    ) -> str:
        raise NotImplementedError  # Delivery

    def _can_send_dm(self, room_id: str, user_id: str) -> bool:
        raise NotImplementedError  # Direct

    async def _dm_room(self, user_id: str, lang: str = "fi") -> str:
        raise NotImplementedError  # Direct

    async def _set_dm(self, user_id: str, room_id: str) -> None:
        raise NotImplementedError  # Direct

    async def _forget_dm(self, user_id: str) -> None:
        raise NotImplementedError  # Direct

    async def _forget_dm_room(self, room_id: str) -> None:
        raise NotImplementedError  # Direct
