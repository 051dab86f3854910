"""The Matrix transport: a room is a table, a direct room per player holds that player's hand.

Everything the bot sends is an ``m.notice``. The table of a match (an :class:`Outbound` with a
``key``) is posted once and then edited in place with ``m.replace``; when the room has moved on by
more than ``repost_after`` messages the table is posted anew, so it stays in sight without flooding.
Answers are threaded to the command they answer (``m.in_reply_to``). Matrix has no buttons: their
labels become one hint line ("Vaihtoehdot: Nosta · Ota poistopakasta → 1"), and players type.

Private messages go to a direct room that the bot creates (``is_direct``, invite, ``m.direct``
account data) or that the player opened by inviting the bot; the mapping lives in the core's
key/value store. Text written there reaches the core as a private :class:`Inbound`.

It runs on the :class:`~chatbot.runtime.Runtime`: an event becomes an :class:`Inbound` whose
``update_key`` is the event id (a redelivered event is applied once), and the runtime delivers the
core's outbox rows through :meth:`MatrixBot.deliver` with the row's transaction id, so a resend after
a crash or a ``429 M_LIMIT_EXCEEDED`` (``retry_after_ms`` -> ``RetryLater``) is deduplicated by the
homeserver. AI moves and timers are the runtime's deadlines. The sync token is stored with the
runtime's small key-value state, so restarts neither replay nor lose events; a gap in a room's
timeline is filled from ``/messages``.

Encrypted rooms work when ``matrix-nio[e2e]`` is installed: the bot trusts every device without
verification (a game bot holds no secrets worth a verification dance). Without it, or when a message
cannot be decrypted, the bot says in the room that it needs an unencrypted direct room.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import logging
import os
import re
import signal
import struct
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote

from nio import (
    AsyncClient,
    AsyncClientConfig,
    ErrorResponse,
    InviteMemberEvent,
    JoinError,
    LoginResponse,
    MatrixRoom,
    MegolmEvent,
    MessageDirection,
    ReactionEvent,
    RoomCreateError,
    RoomMemberEvent,
    RoomMessagesError,
    RoomMessageText,
    RoomPreset,
    SyncError,
    UploadError,
    WhoamiError,
)
from nio.crypto import ENCRYPTION_ENABLED
from nio.exceptions import EncryptionError, LocalProtocolError

from chatbot.core import i18n
from chatbot.core.ports import RetryLater, Transport
from chatbot.core.types import Inbound, Outbound
from chatbot.runtime import Runtime, Settings

if TYPE_CHECKING:
    from chatbot.core.service import BotCore

log = logging.getLogger(__name__)

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
#: how many messages' buttons are kept for reactions (the newest; older prompts are stale anyway)
BUTTON_MEMORY = 2000
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
        if status is not None and 400 <= status < 500:
            raise _Permanent(f"{what}: {resp}")
        raise _Temporary(f"{what}: {resp}")
    return resp


def choices(out: Outbound) -> list[tuple[str, str]]:
    """(label, data) of the message's buttons, one per label, in order: what the hint line lists
    and what the reaction keys press."""
    seen: dict[str, str] = {}
    for row in out.buttons:
        for button in row:
            seen.setdefault(button.label, button.data)
    return list(seen.items())


def options_line(out: Outbound) -> str:
    """The buttons of a message as one line of text, in the message's language; the first ten are
    numbered with the reaction key that presses them."""
    labels = [label for label, _data in choices(out)]
    if not labels:
        return ""
    keyed = [f"{KEYCAPS[i]} {label}" if i < len(KEYCAPS) else label for i, label in enumerate(labels)]
    shown = " · ".join(keyed[:MAX_OPTIONS]) + (" · …" if len(labels) > MAX_OPTIONS else "")
    t = i18n.translator(out.lang)
    return t.gettext("Options: {options}").format(options=shown)


def message_text(out: Outbound) -> str:
    line = options_line(out)
    return f"{out.text}\n\n{line}" if line else out.text


_FALLBACK = re.compile(r"^(?:>[^\n]*\n)+\n?", re.S)


def strip_reply_fallback(body: str) -> str:
    """Drop the quoted "> <@user> …" lines that older clients put in front of a reply."""
    return _FALLBACK.sub("", body, count=1) if body.startswith(">") else body


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


#: the power level from which a room member administers the room's games (Matrix "moderator")
ADMIN_LEVEL = 50


def _level(content: dict[str, Any], user_id: str) -> int:
    """A user's power level from the content of ``m.room.power_levels``."""
    users = content.get("users") or {}
    try:
        return int(users.get(user_id, content.get("users_default", 0)))
    except (TypeError, ValueError):
        return 0


def _creators_rule(room_version: str) -> bool:
    """Whether the room's creators have unlimited power (room version 12 and its previews)."""
    if room_version.startswith("org.matrix.hydra"):
        return True
    return room_version.isdigit() and int(room_version) >= 12


@dataclass(frozen=True, slots=True)
class RoomPowers:
    """What decides who administers a room: its power levels and, from room version 12 on, its
    creators (the ``m.room.create`` sender and ``additional_creators``), who are not listed there."""

    levels: dict[str, Any]
    creators: frozenset[str] = frozenset()

    @classmethod
    def from_state(cls, events: Iterable[dict[str, Any]]) -> RoomPowers:
        levels: dict[str, Any] = {}
        creators: set[str] = set()
        for event in events:
            kind, content = event.get("type"), event.get("content") or {}
            if kind == "m.room.power_levels" and event.get("state_key", "") == "":
                levels = dict(content)
            elif kind == "m.room.create" and _creators_rule(str(content.get("room_version", "1"))):
                creators = {str(event.get("sender", ""))} | {
                    str(u) for u in content.get("additional_creators") or ()
                }
        return cls(levels, frozenset(creators - {""}))

    def admin(self, user_id: str) -> bool:
        return user_id in self.creators or _level(self.levels, user_id) >= ADMIN_LEVEL


class MatrixMembers:
    """The core's :class:`~chatbot.core.ports.Members` port on Matrix: a room member with power level
    50 or more (or, from room version 12 on, a creator of the room) administers the room's games.
    The room's state is asked of the homeserver (the core waits on its own thread, at most
    ``timeout`` seconds) and remembered for ``ttl`` seconds per room."""

    def __init__(self, bot: MatrixBot, ttl: float = 30.0, timeout: float = 5.0) -> None:
        self.bot = bot
        self.ttl = ttl
        self.timeout = timeout
        self.loop: asyncio.AbstractEventLoop | None = None
        self._rooms: OrderedDict[str, tuple[float, RoomPowers]] = OrderedDict()
        self.asked = 0

    def forget(self, room_id: str) -> None:
        self._rooms.pop(room_id, None)

    def is_admin(self, chat_id: str, user_id: str) -> bool | None:
        cached = self._rooms.get(chat_id)
        if cached is not None and cached[0] > time.monotonic():
            return cached[1].admin(user_id)
        powers = self._ask(chat_id)
        if powers is None:
            return None
        self._rooms[chat_id] = (time.monotonic() + self.ttl, powers)
        while len(self._rooms) > 1000:
            self._rooms.popitem(last=False)
        return powers.admin(user_id)

    def _ask(self, room_id: str) -> RoomPowers | None:
        loop, client = self.loop, self.bot.client
        if loop is None or client is None or loop.is_closed():
            return None
        try:
            if asyncio.get_running_loop() is loop:
                return None  # an inline core cannot wait for its own loop
        except RuntimeError:
            pass
        self.asked += 1
        future = asyncio.run_coroutine_threadsafe(client.room_get_state(room_id), loop)
        try:
            resp = future.result(timeout=self.timeout)
        except Exception as exc:
            future.cancel()
            log.warning("the state of %s is unavailable: %s", room_id, exc)
            return None
        events = getattr(resp, "events", None)
        if not isinstance(events, list):
            log.warning("the state of %s is unavailable: %s", room_id, resp)
            return None
        return RoomPowers.from_state(events)


class MatrixBot(Transport):
    """The bot on one Matrix account. ``await start()``, then ``await stop()`` (or ``run()``)."""

    def __init__(
        self,
        core: BotCore,
        homeserver: str,
        user: str,
        *,
        password: str | None = None,
        access_token: str | None = None,
        store_path: str | os.PathLike[str] | None = None,
        encryption: bool | None = None,
        encrypt_dms: bool | None = None,
        device_name: str = "Pelibotti",
        display_name: str | None = None,
        ai_delay: float = 1.0,
        repost_after: int | None = 12,
        sync_timeout_ms: int = 30_000,
        drain_timeout: float = 15.0,
    ) -> None:
        if not password and not access_token:
            raise ValueError("a password or an access token is needed")
        self.core = core
        self.homeserver = homeserver.rstrip("/")
        self.user = user
        self.password = password
        self.access_token = access_token
        self.encryption = ENCRYPTION_ENABLED if encryption is None else (encryption and ENCRYPTION_ENABLED)
        self.store_path = Path(store_path) if store_path else None
        #: direct rooms the bot opens are encrypted when it runs with E2EE (the default)
        self.encrypt_dms = self.encryption if encrypt_dms is None else (encrypt_dms and self.encryption)
        if self.encryption and self.store_path is None:
            self.store_path = Path("data") / "matrix-store"
        self.device_name = device_name
        self.display_name = display_name or getattr(core, "bot_name", None)
        self.ai_delay = ai_delay
        if hasattr(core, "ai_delay"):
            core.ai_delay = ai_delay  # AI turns are deadlines: due this long after the move before
        self.repost_after = repost_after
        self.sync_timeout_ms = sync_timeout_ms
        self.drain_timeout = drain_timeout
        self.namespace = f"matrix:{user}"
        self.stats = Stats()
        self.client: AsyncClient | None = None
        self.user_id = user
        self._token: str | None = None
        self._counters: dict[str, int] = {}
        self._handled: deque[str] = deque(maxlen=HANDLED_MEMORY)
        self._handled_set: set[str] = set()
        self._dms: dict[str, str] = {}  # user id -> direct room id
        self._reply_rooms: OrderedDict[str, str] = OrderedDict()  # event id -> room id
        #: event id of a message with buttons -> their data in the order of its reaction keys
        self._buttons: OrderedDict[str, list[str]] = OrderedDict()
        self._undecrypted: list[tuple[float, str, MegolmEvent]] = []
        self._explained: dict[str, float] = {}
        self._tasks: list[asyncio.Task[Any]] = []
        self._sending: set[asyncio.Task[None]] = set()
        self._dm_lock = asyncio.Lock()
        self._busy = asyncio.Lock()
        self._stopping = False
        self.failed: BaseException | None = None
        self.done = asyncio.Event()
        self.platform = PLATFORM
        self.runtime = Runtime(core, self, settings=Settings(max_in_flight=4))
        #: who administers a room (issue #13), for the core's roles
        self.members = MatrixMembers(self)
        if isinstance(getattr(core, "members", None), dict):
            core.members[PLATFORM] = self.members
        #: transaction ids whose direct room was replaced once already (the player left it)
        self._dm_retried: set[str] = set()
        #: encrypted direct rooms the bot created that no sync has shown yet
        self._new_encrypted_dms: set[str] = set()

    # ------------------------------------------------------------------------------------------
    # life cycle

    async def start(self) -> None:
        """Log in, catch up with what happened while the bot was away, then run in the background."""
        self._stopping = False
        self.failed = None
        self.done = asyncio.Event()
        self._busy = asyncio.Lock()
        self._dm_lock = asyncio.Lock()
        self.members.loop = asyncio.get_running_loop()
        await self._login()
        saved = await self._kv_get("sync") or {}
        self._token = saved.get("next_batch")
        self._counters = dict(saved.get("counters") or {})
        for event_id in await self._kv_get("handled") or []:
            self._remember_handled(event_id)
        await self._adopt_old_queue()
        self._dms = dict(await self._kv_get("dms") or {})
        await self._set_display_name()
        first = self._token is None
        resp = await self._sync(timeout=0, full_state=True)
        await self._process_sync(resp, skip_messages=first)
        await self.runtime.start()
        self._tasks = [asyncio.create_task(self._guard(self._sync_loop()), name="matrix-sync")]
        log.info(
            "Matrix bot %s (device %s) running; end-to-end encryption %s",
            self.user_id,
            self.client.device_id if self.client else None,
            "on" if self._olm else "off",
        )

    async def stop(self, drain: bool = True) -> None:
        """Stop syncing, send what is queued (up to ``drain_timeout``), save the state, log off.

        With ``drain=False`` queued messages stay in storage and go out after the next start."""
        if self.client is None:
            return
        self._stopping = True
        async with self._busy:  # let a message in progress be committed
            for task in self._tasks:
                task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        if drain:
            await self.runtime.idle(self.drain_timeout)
        await self.runtime.stop()  # what is not sent stays in the outbox for the next start
        await self.client.close()
        self.client = None
        self.done.set()

    async def run(self) -> None:
        """Start and run until ``stop()`` is called or a background task fails."""
        await self.start()
        await self.done.wait()
        if self.failed is not None:
            raise self.failed

    async def wait_idle(self, timeout: float = 60.0) -> None:
        """Until every committed message has been sent."""
        if self._sending:
            await asyncio.wait(set(self._sending), timeout=timeout)
        await self.runtime.idle(timeout)

    async def _guard(self, coro: Any) -> None:
        try:
            await coro
        except asyncio.CancelledError:
            raise
        except BaseException as exc:
            log.exception("Matrix bot task failed")
            self.failed = exc
            self.done.set()

    # ------------------------------------------------------------------------------------------
    # the transport's own small state (session, sync token, direct rooms), through the runtime

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.runtime.call(fn, *args)

    async def _kv_get(self, key: str) -> Any:
        return await self.runtime.kv_get(self.namespace, key)

    async def _kv_set(self, key: str, value: Any) -> None:
        await self.runtime.kv_set(self.namespace, key, value)

    async def _adopt_old_queue(self) -> None:
        """Messages a bot before the runtime had queued in its own store go to the outbox once."""
        old = await self._kv_get("outbox")
        if old:
            outs = [
                Outbound.from_json(item["out"]) for item in old if isinstance(item, dict) and "out" in item
            ]
            await self._db(self.core.repo.outbox_add, outs)
            await self._kv_set("outbox", [])

    def _remember_handled(self, event_id: str) -> None:
        if len(self._handled) == self._handled.maxlen:
            self._handled_set.discard(self._handled[0])
        self._handled.append(event_id)
        self._handled_set.add(event_id)

    # ------------------------------------------------------------------------------------------
    # login

    @property
    def _olm(self) -> Any:
        return self.client.olm if self.client is not None else None

    async def _login(self) -> None:
        session = await self._kv_get("session") or {}
        config = AsyncClientConfig(
            max_limit_exceeded=0, encryption_enabled=self.encryption, store_sync_tokens=False
        )
        if self.store_path is not None:
            self.store_path.mkdir(parents=True, exist_ok=True)
        client = AsyncClient(
            self.homeserver,
            self.user,
            device_id=session.get("device_id"),
            store_path=str(self.store_path) if self.store_path else "",
            config=config,
        )
        self.client = client
        token = self.access_token or session.get("access_token")
        if token:
            client.access_token = token
            who = await client.whoami()
            if not isinstance(who, WhoamiError):
                device = who.device_id or session.get("device_id") or "UNKNOWN"
                client.restore_login(who.user_id, device, token)
                await self._save_session(who.user_id, device, token)
                self.user_id = who.user_id
                return
            if self.access_token or not self.password:
                await client.close()
                raise LoginFailed(f"the access token was refused: {who}")
            client.access_token = ""
        assert self.password
        resp = await client.login(self.password, device_name=self.device_name)
        if not isinstance(resp, LoginResponse):
            await client.close()
            raise LoginFailed(f"login failed: {resp}")
        self.user_id = resp.user_id
        await self._save_session(resp.user_id, resp.device_id, resp.access_token)

    async def _save_session(self, user_id: str, device_id: str, token: str) -> None:
        await self._kv_set("session", {"user_id": user_id, "device_id": device_id, "access_token": token})

    async def _set_display_name(self) -> None:
        assert self.client is not None
        if not self.display_name:
            return
        with contextlib.suppress(Exception):
            current = await self.client.get_displayname(self.user_id)
            if getattr(current, "displayname", None) != self.display_name:
                await self.client.set_displayname(self.display_name)

    # ------------------------------------------------------------------------------------------
    # receiving

    async def _sync(self, timeout: int, full_state: bool = False) -> Any:
        assert self.client is not None
        backoff = 0.5
        while True:
            resp = await self.client.sync(
                timeout=timeout,
                sync_filter=SYNC_FILTER,
                since=self._token,
                full_state=full_state or None,
                set_presence="offline",
            )
            if not isinstance(resp, SyncError):
                return resp
            if resp.status_code == "M_UNKNOWN_TOKEN" and self.password and not self.access_token:
                log.warning("access token expired; logging in again")
                old = self.client
                # the same device again, so that its encryption keys stay valid
                await self._kv_set("session", {"device_id": old.device_id if old else None})
                await self._login()
                if old is not None and old is not self.client:
                    await old.close()
                continue
            delay = (resp.retry_after_ms or 0) / 1000 or backoff
            log.warning("sync failed (%s); again in %.1f s", resp, delay)
            await asyncio.sleep(delay)
            backoff = min(backoff * 2, 30.0)

    async def _sync_loop(self) -> None:
        while not self._stopping:
            resp = await self._sync(timeout=self.sync_timeout_ms)
            await self._process_sync(resp)

    async def _process_sync(self, resp: Any, skip_messages: bool = False) -> None:
        """Handle one sync response, then remember its token (and only then)."""
        await self._crypto_housekeeping()
        for room_id, info in resp.rooms.invite.items():
            await self._on_invite(room_id, info.invite_state)
        for room_id, info in resp.rooms.join.items():
            events = list(info.timeline.events)
            if info.timeline.limited and not skip_messages and self._token and info.timeline.prev_batch:
                events = await self._backfill(room_id, info.timeline.prev_batch, self._token) + events
            for event in events:
                try:
                    await self._on_room_event(room_id, event, skip_messages)
                except Exception:  # one bad event must not stop the bot, nor come back after a restart
                    log.exception("could not handle event %s in %s", getattr(event, "event_id", "?"), room_id)
                    if getattr(event, "event_id", None):
                        self._remember_handled(event.event_id)
        for room_id in resp.rooms.leave:
            if room_id in self._dms.values():
                await self._forget_dm_room(room_id)
            else:  # kicked or banned from a table room: its match waits until the bot is back
                await self.runtime.perform(self.core.bot_presence, PLATFORM, room_id, False)
        await self._retry_undecrypted()
        self._token = resp.next_batch
        await self._kv_set("sync", {"next_batch": self._token, "counters": self._counters})

    async def _backfill(self, room_id: str, prev_batch: str, since: str) -> list[Any]:
        """The events of a timeline gap (between our last token and ``prev_batch``), oldest first."""
        assert self.client is not None
        found: list[Any] = []
        start: str | None = prev_batch
        for _ in range(20):  # at most 2,000 events
            resp = await self.client.room_messages(
                room_id, start=start, end=since, direction=MessageDirection.back, limit=100
            )
            if isinstance(resp, RoomMessagesError) or not resp.chunk:
                break
            found.extend(resp.chunk)
            if not resp.end or resp.end == start:
                break
            start = resp.end
        found.reverse()
        out = []
        for event in found:
            if isinstance(event, MegolmEvent) and self._olm:
                event.room_id = room_id
                with contextlib.suppress(EncryptionError, LocalProtocolError):
                    event = self.client.decrypt_event(event)
            out.append(event)
        log.info("filled a gap of %d events in %s", len(out), room_id)
        return out

    async def _on_invite(self, room_id: str, invite_state: list[Any]) -> None:
        assert self.client is not None
        inviter = None
        direct = False
        for event in invite_state:
            if (
                isinstance(event, InviteMemberEvent)
                and event.state_key == self.user_id
                and event.membership == "invite"
            ):
                inviter = event.sender
                direct = bool(event.content.get("is_direct"))
        resp = await self.client.join(room_id)
        if isinstance(resp, JoinError):
            log.warning("could not join %s: %s", room_id, resp)
            return
        if direct and inviter:
            await self._set_dm(inviter, room_id)
        else:  # invited back to a table room: a match paused there goes on
            await self.runtime.perform(self.core.bot_presence, PLATFORM, room_id, True)

    async def _on_room_event(self, room_id: str, event: Any, skip_messages: bool) -> None:
        source = getattr(event, "source", None) or {}
        if (
            source.get("type") in {"m.room.message", "m.room.encrypted"}
            and ((source.get("content") or {}).get("m.relates_to") or {}).get("rel_type") != "m.replace"
        ):
            # how far the room has moved on: edits do not push a message out of sight
            self._counters[room_id] = self._counters.get(room_id, 0) + 1
        sender = getattr(event, "sender", None)
        event_id = getattr(event, "event_id", None)
        if skip_messages or sender == self.user_id or not event_id or event_id in self._handled_set:
            return
        if isinstance(event, RoomMemberEvent):
            await self._on_member(room_id, event)
        elif isinstance(event, MegolmEvent):
            await self._on_undecryptable(room_id, event)
        elif isinstance(event, RoomMessageText):
            await self._on_text(room_id, event)
        elif isinstance(event, ReactionEvent):
            await self._on_reaction(room_id, event)

    async def _on_member(self, room_id: str, event: RoomMemberEvent) -> None:
        """A player who leaves a table room leaves the game (an AI takes the seat)."""
        if (
            event.state_key == self.user_id
            or event.membership not in {"leave", "ban"}
            or event.prev_membership not in {"join", "invite"}
        ):
            return
        user = event.state_key
        if self._dms.get(user) == room_id:
            await self._forget_dm(user)
            assert self.client is not None
            with contextlib.suppress(Exception):
                await self.client.room_leave(room_id)
            return
        if room_id in self._dms.values():
            return
        if not await self._db(self._seated, room_id, user):
            self._remember_handled(event.event_id)
            return
        name = (event.prev_content or {}).get("displayname") or _localpart(user)
        msg = Inbound(
            PLATFORM,
            user_id=user,
            user_name=name,
            chat_id=room_id,
            private=False,
            text="/leave",
            message_id=None,
        )
        await self._dispatch(msg, event.event_id)

    async def _on_text(self, room_id: str, event: RoomMessageText) -> None:
        content = event.source.get("content") or {}
        relation = content.get("m.relates_to") or {}
        if relation.get("rel_type") == "m.replace":
            return  # an edit of an earlier message: the original was already answered
        text = event.body or ""
        # addressed to the bot (issue #15): a reply to its message, a mention (a pill, or its name
        # in front of the text)
        addressed = (
            "m.in_reply_to" in relation and text.startswith(f"> <{self.user_id}>")
        ) or self.user_id in ((content.get("m.mentions") or {}).get("user_ids") or ())
        if "m.in_reply_to" in relation:
            text = strip_reply_fallback(text)
        stripped = strip_mention(text, self._own_names(room_id))
        addressed = addressed or stripped != text.strip()
        text = stripped
        sender = event.sender
        private = self._dms.get(sender) == room_id
        name = self._display_name(room_id, sender)
        msg = Inbound(
            PLATFORM,
            user_id=sender,
            user_name=name,
            chat_id=room_id,
            private=private,
            text=text,
            message_id=event.event_id,
            addressed=addressed,
        )
        self._reply_rooms[event.event_id] = room_id
        while len(self._reply_rooms) > 2000:
            self._reply_rooms.popitem(last=False)
        await self._dispatch(msg, event.event_id)

    async def _on_reaction(self, room_id: str, event: ReactionEvent) -> None:
        """A reaction key (1️⃣ …) on one of the bot's messages presses that message's button: the
        same press as a Telegram button, checked by the core against the match's version."""
        if event.key not in KEYCAPS:
            return
        datas = self._buttons.get(event.reacts_to)
        if datas is None:
            stored = await self._kv_get(f"buttons:{event.reacts_to}")
            datas = stored if isinstance(stored, list) else None
        index = KEYCAPS.index(event.key)
        if datas is None or index >= len(datas):
            self._remember_handled(event.event_id)
            return
        sender = event.sender
        msg = Inbound(
            PLATFORM,
            user_id=sender,
            user_name=self._display_name(room_id, sender),
            chat_id=room_id,
            private=self._dms.get(sender) == room_id,
            button=str(datas[index]),
            message_id=None,
        )
        await self._dispatch(msg, event.event_id)

    async def _remember_buttons(self, room_id: str, event_id: str, out: Outbound, txn: str, had: int) -> int:
        """Keep the message's buttons for reactions and put the reaction keys on it (those it has
        not got yet: an edit may bring more buttons); returns how many keys the message has now."""
        datas = [data for _label, data in choices(out)][: len(KEYCAPS)]
        if not datas and event_id not in self._buttons:
            return had
        changed = self._buttons.get(event_id) != datas
        self._buttons[event_id] = datas
        self._buttons.move_to_end(event_id)
        while len(self._buttons) > BUTTON_MEMORY:
            self._buttons.popitem(last=False)
        if changed:  # an edit with the same buttons (most table edits) writes nothing
            await self._kv_set(f"buttons:{event_id}", datas)
        for i in range(had, len(datas)):
            content = {"m.relates_to": {"rel_type": "m.annotation", "event_id": event_id, "key": KEYCAPS[i]}}
            try:
                await self._room_send(room_id, content, f"{txn}-key{i}", event_type="m.reaction")
            except (_Permanent, _Temporary, _RateLimited) as exc:  # cosmetic: typing still works
                log.info("could not put reaction key %s on %s: %s", KEYCAPS[i], event_id, exc)
                return i
        return max(had, len(datas))

    async def _dispatch(self, msg: Inbound, event_id: str) -> None:
        async with self._busy:  # stop() cancels only between two messages, never inside one
            if self._stopping:
                return
            await self.runtime.handle(replace(msg, update_key=event_id))
            self._remember_handled(event_id)
            self.stats.handled += 1

    def _seated(self, room_id: str, user_id: str) -> bool:
        """Whether the user has a seat in the room's open match (only then does leaving mean "poistu")."""
        repo = self.core.repo
        match = repo.active_match(repo.room(PLATFORM, room_id).id)
        if match is None:
            return False
        user = repo.find_user(PLATFORM, user_id)
        return user is not None and any(seat.user_id == user.id for seat in match.seats)

    def _own_names(self, room_id: str) -> list[str]:
        names = [self.user_id, _localpart(self.user_id), self.display_name or ""]
        if self.client is not None and room_id in self.client.rooms:
            names.append(self.client.rooms[room_id].user_name(self.user_id) or "")
        return names

    def _display_name(self, room_id: str, user_id: str) -> str:
        room = self.client.rooms.get(room_id) if self.client is not None else None
        member = room.users.get(user_id) if room is not None else None
        name = getattr(member, "display_name", None) if member is not None else None
        return name or _localpart(user_id)

    def _dm_member(self, room_id: str) -> str | None:
        for user, room in self._dms.items():
            if room == room_id:
                return user
        return None

    # --- encryption ----------------------------------------------------------------------------
    async def _crypto_housekeeping(self) -> None:
        """What nio's sync_forever does between syncs: keys up, keys queried and claimed, to-device."""
        client = self.client
        if client is None or client.olm is None:
            return
        try:
            if client.should_upload_keys:
                await client.keys_upload()
            if client.should_query_keys:
                await client.keys_query()
            if client.should_claim_keys:
                await client.keys_claim(client.get_users_for_key_claiming())
            await client.send_to_device_messages()
        except (LocalProtocolError, EncryptionError) as exc:
            log.warning("key maintenance failed: %s", exc)

    async def _on_undecryptable(self, room_id: str, event: MegolmEvent) -> None:
        if self._olm is None:
            await self._explain_encryption(room_id, event, self._need_plain_text)
            return
        assert self.client is not None
        with contextlib.suppress(Exception):  # the sender's devices may share the key on request
            await self.client.request_room_key(event)
        self._undecrypted.append((time.monotonic(), room_id, event))

    async def _retry_undecrypted(self) -> None:
        if not self._undecrypted or self.client is None:
            return
        waiting, self._undecrypted = self._undecrypted, []
        for since, room_id, event in waiting:
            try:
                decrypted = self.client.decrypt_event(event)
            except (EncryptionError, LocalProtocolError, AssertionError):
                if time.monotonic() - since > UNDECRYPTED_WAIT:
                    await self._explain_encryption(room_id, event, self._could_not_decrypt)
                else:
                    self._undecrypted.append((since, room_id, event))
                continue
            if isinstance(decrypted, RoomMessageText):
                await self._on_text(room_id, decrypted)

    @staticmethod
    def _need_plain_text(t: i18n.Translator) -> str:
        return t.gettext(
            "I cannot read encrypted messages. Please talk to me in a room without "
            "encryption: start a direct chat with me and turn encryption off."
        )

    @staticmethod
    def _could_not_decrypt(t: i18n.Translator) -> str:
        return t.gettext(
            "I could not decrypt your message. Please write it again; if this keeps "
            "happening, talk to me in a room without encryption."
        )

    async def _explain_encryption(
        self, room_id: str, event: MegolmEvent, text: Callable[[i18n.Translator], str]
    ) -> None:
        self._remember_handled(event.event_id)
        now = time.monotonic()
        if now - self._explained.get(room_id, -EXPLAIN_EVERY) < EXPLAIN_EVERY:
            return
        self._explained[room_id] = now
        name = self._display_name(room_id, event.sender)
        user = await self._db(self.core.repo.user, PLATFORM, event.sender, name)
        t = i18n.translator(user.lang or "fi")
        self.send([Outbound(PLATFORM, text(t), chat_id=room_id, reply_to=event.event_id, lang=t.lang)])

    # ------------------------------------------------------------------------------------------
    # sending: the runtime's Transport.deliver

    def send(self, outs: Iterable[Outbound]) -> None:
        """Messages no use case made (notices of the transport, tests): into the outbox, delivered."""
        batch = list(outs)

        async def add() -> None:
            await self._db(self.core.repo.outbox_add, batch)
            self.runtime.wake()

        task = asyncio.get_running_loop().create_task(add())
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def deliver(self, out: Outbound, ref: str | None, txn: str) -> str | None:
        """Send one outbox row; ``txn`` (the same on every retry) makes a resend a no-op."""
        refs: dict[str, Any] = json.loads(ref) if ref else {}
        try:
            room_id = out.chat_id or await self._dm_room(out.user_id or "", out.lang)
            if out.user_id and not out.chat_id and not self._can_send_dm(room_id, out.user_id):
                # an encrypted direct room: the room key can go only to a member who has joined
                raise RetryLater(2.0)
            if out.image:
                refs["img"] = await self._send_image(room_id, out, f"{txn}-img", refs.get("img"))
            refs["txt"] = await self._send_text(room_id, out, f"{txn}-txt", refs.get("txt"))
        except _RateLimited as exc:
            self.stats.rate_limited += 1
            raise RetryLater(exc.seconds) from exc
        except _Permanent as exc:
            if out.user_id and not out.chat_id and txn not in self._dm_retried:
                # the direct room is gone (the player left it): open a new one and try again
                self._dm_retried.add(txn)
                await self._forget_dm(out.user_id)
                raise RetryLater(0.1) from exc
            log.error("could not send a message: %s", exc)
            self.stats.dropped += 1
            return ref
        except (TimeoutError, _Temporary, OSError) as exc:
            self.stats.retries += 1
            log.warning("sending failed (%s); trying again", exc)
            raise RetryLater(1.0) from exc
        return json.dumps(refs)

    def _near(self, room_id: str, ref: dict[str, Any]) -> bool:
        """Whether an earlier message is still near enough the end of the room to be edited."""
        if self.repost_after is None:
            return True
        distance = self._counters.get(room_id, 0) - int(ref.get("pos", 0))
        return distance <= self.repost_after

    async def _send_text(
        self, room_id: str, out: Outbound, txn: str, ref: dict[str, Any] | None
    ) -> dict[str, Any] | None:
        """Post ``out`` (or edit the message of its key); returns what to remember of it."""
        text = message_text(out)
        content: dict[str, Any] = {"msgtype": "m.notice", "body": text}
        kv_key = out.key
        if ref and self._near(room_id, ref):
            if ref.get("sha") == _sha(text):
                return ref  # "message is not modified"
            edit = {
                "msgtype": "m.notice",
                "body": f"* {text}",
                "m.new_content": content,
                "m.relates_to": {"rel_type": "m.replace", "event_id": ref["event_id"]},
            }
            await self._room_send(room_id, edit, txn)
            self.stats.edits += 1
            keys = await self._remember_buttons(room_id, ref["event_id"], out, txn, int(ref.get("keys", 0)))
            return {**ref, "sha": _sha(text), "keys": keys}
        reply_room = self._reply_rooms.get(out.reply_to or "")
        if out.reply_to and (reply_room == room_id or (reply_room is None and not out.user_id)):
            content["m.relates_to"] = {"m.in_reply_to": {"event_id": out.reply_to}}
        event_id = await self._room_send(room_id, content, txn)
        self.stats.sent += 1
        keys = await self._remember_buttons(room_id, event_id, out, txn, 0)
        if kv_key:
            return {
                "event_id": event_id,
                "pos": self._counters.get(room_id, 0),
                "sha": _sha(text),
                "keys": keys,
            }
        return None

    async def _send_image(
        self, room_id: str, out: Outbound, txn: str, ref: dict[str, Any] | None
    ) -> dict[str, Any] | None:
        assert self.client is not None and out.image is not None
        png = out.image
        kv_key = out.key
        if ref and ref.get("sha") == _sha(png) and self._near(room_id, ref):
            return ref
        encrypted = self._room_encrypted(room_id)
        resp, keys = await self.client.upload(
            lambda *_: io.BytesIO(png),
            content_type="image/png",
            filename="table.png",
            filesize=len(png),
            encrypt=encrypted,
        )
        if isinstance(resp, UploadError):
            _check(resp, "upload")
        info: dict[str, Any] = {"mimetype": "image/png", "size": len(png)}
        size = png_size(png)
        if size:
            info["w"], info["h"] = size
        content: dict[str, Any] = {"msgtype": "m.image", "body": "table.png", "info": info}
        if encrypted and keys:
            content["file"] = {**keys, "url": resp.content_uri}
        else:
            content["url"] = resp.content_uri
        if ref and self._near(room_id, ref):
            edit = {
                **content,
                "body": "* table.png",
                "m.new_content": content,
                "m.relates_to": {"rel_type": "m.replace", "event_id": ref["event_id"]},
            }
            await self._room_send(room_id, edit, txn)
            self.stats.edits += 1
            return {**ref, "sha": _sha(png)}
        event_id = await self._room_send(room_id, content, txn)
        self.stats.images += 1
        if kv_key:
            return {"event_id": event_id, "pos": self._counters.get(room_id, 0), "sha": _sha(png)}
        return None

    def _room_encrypted(self, room_id: str) -> bool:
        room = self.client.rooms.get(room_id) if self.client is not None else None
        return bool(room is not None and room.encrypted and self._olm is not None)

    async def _room_send(
        self, room_id: str, content: dict[str, Any], txn: str, event_type: str = "m.room.message"
    ) -> str:
        assert self.client is not None
        if self._olm is not None and room_id not in self.client.rooms:
            # a room the bot created a moment ago (unencrypted) that no sync has shown yet
            self.client.rooms[room_id] = MatrixRoom(room_id, self.user_id, False)
        try:
            resp = await self.client.room_send(
                room_id, event_type, content, tx_id=txn, ignore_unverified_devices=True
            )
        except (LocalProtocolError, EncryptionError) as exc:
            raise _Temporary(f"send to {room_id}: {exc}") from exc
        resp = _check(resp, f"send to {room_id}")
        return str(resp.event_id)

    # --- direct rooms --------------------------------------------------------------------------
    def _can_send_dm(self, room_id: str, user_id: str) -> bool:
        """Whether a message to the direct room can be read when sent: always in a plain room; in an
        encrypted one once the player has joined (the room's key is shared with joined members)."""
        if not self.encrypt_dms or self.client is None:
            return True
        room = self.client.rooms.get(room_id)
        if room is None:
            return room_id not in self._new_encrypted_dms
        if not room.encrypted:
            return True
        return user_id in room.users and user_id not in room.invited_users

    async def _dm_room(self, user_id: str, lang: str = "fi") -> str:
        room_id = self._dms.get(user_id)
        if room_id:
            return room_id
        async with self._dm_lock:  # chats are delivered in parallel; m.direct is read-modify-write
            room_id = self._dms.get(user_id)
            if room_id:
                return room_id
            assert self.client is not None
            if not user_id.startswith("@"):
                raise _Permanent(f"not a Matrix user id: {user_id!r}")
            extra: dict[str, Any] = {}
            if self.encrypt_dms:
                # encrypted from the first event; the topic is state, readable by every client, so a
                # player whose app cannot decrypt learns why the hand does not show
                t = i18n.translator(lang)
                extra["initial_state"] = [
                    {"type": "m.room.encryption", "state_key": "", "content": {"algorithm": MEGOLM}}
                ]
                extra["topic"] = t.gettext(
                    "Your cards come here encrypted. If you see only messages that cannot be decrypted, "
                    "use an app with encryption (for example Element) or verify this session."
                )
            resp = await self.client.room_create(
                is_direct=True, invite=[user_id], preset=RoomPreset.private_chat, **extra
            )
            if isinstance(resp, RoomCreateError):
                _check(resp, f"direct room for {user_id}")
            room_id = resp.room_id
            if self.encrypt_dms:
                self._new_encrypted_dms.add(room_id)
            self.stats.dms_created += 1
            await self._set_dm(user_id, room_id)
            await self._mark_direct(user_id, room_id)
            return room_id

    async def _set_dm(self, user_id: str, room_id: str) -> None:
        self._dms[user_id] = room_id
        await self._kv_set("dms", dict(self._dms))

    async def _forget_dm(self, user_id: str) -> None:
        if self._dms.pop(user_id, None) is not None:
            await self._kv_set("dms", dict(self._dms))

    async def _forget_dm_room(self, room_id: str) -> None:
        user = self._dm_member(room_id)
        if user is not None:
            await self._forget_dm(user)

    async def _mark_direct(self, user_id: str, room_id: str) -> None:
        """Add the room to the bot's ``m.direct`` account data (clients show it as a direct chat)."""
        assert self.client is not None
        path = f"/_matrix/client/v3/user/{quote(self.user_id)}/account_data/m.direct"
        headers = {"Authorization": f"Bearer {self.client.access_token}", "Content-Type": "application/json"}
        try:
            resp = await self.client.send("GET", path, headers=headers)
            data = await resp.json() if resp.status == 200 else {}
            rooms = [r for r in data.get(user_id, []) if r != room_id] + [room_id]
            data[user_id] = rooms
            resp = await self.client.send("PUT", path, json.dumps(data), headers=headers)
            if resp.status != 200:
                log.warning("could not update m.direct: HTTP %s", resp.status)
        except Exception as exc:  # cosmetic for clients; the kv store is what the bot relies on
            log.warning("could not update m.direct: %s", exc)


def _localpart(user_id: str) -> str:
    return user_id.lstrip("@").split(":", 1)[0]


# ----------------------------------------------------------------------------------------------
# the command line entry point


def _env_flag(name: str) -> bool | None:
    value = os.environ.get(name)
    if value is None or value == "":
        return None
    return value.strip().lower() in {"1", "true", "yes", "on"}


def bot_from_env(core: BotCore) -> MatrixBot:
    """A :class:`MatrixBot` configured by ``MATRIX_*`` environment variables (see deploy/matrix.md)."""
    homeserver = os.environ.get("MATRIX_HOMESERVER", "")
    user = os.environ.get("MATRIX_USER", "")
    if not homeserver or not user:
        raise ValueError("MATRIX_HOMESERVER and MATRIX_USER must be set")
    repost = os.environ.get("MATRIX_REPOST_AFTER")
    return MatrixBot(
        core,
        homeserver,
        user,
        password=os.environ.get("MATRIX_PASSWORD") or None,
        access_token=os.environ.get("MATRIX_ACCESS_TOKEN") or None,
        store_path=os.environ.get("MATRIX_STORE") or None,
        encryption=_env_flag("MATRIX_E2E"),
        encrypt_dms=_env_flag("MATRIX_ENCRYPT_DMS"),
        device_name=os.environ.get("MATRIX_DEVICE_NAME") or "Pelibotti",
        display_name=os.environ.get("MATRIX_DISPLAY_NAME") or None,
        ai_delay=float(os.environ.get("MATRIX_AI_DELAY") or 1.0),
        repost_after=None if repost in {"0", "never"} else int(repost or 12),
    )


async def _serve(bot: MatrixBot) -> int:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await bot.start()
    except LoginFailed as exc:
        log.error("%s", exc)
        return 1
    waiter = asyncio.create_task(stop.wait())
    finished = asyncio.create_task(bot.done.wait())
    await asyncio.wait({waiter, finished}, return_when=asyncio.FIRST_COMPLETED)
    waiter.cancel()
    finished.cancel()
    failed = bot.failed
    await bot.stop()
    return 1 if failed is not None else 0


def main(core: BotCore) -> int:
    """Run the Matrix bot until SIGINT/SIGTERM; the exit code for ``python -m chatbot matrix``."""
    try:
        bot = bot_from_env(core)
    except ValueError as exc:
        print(f"matrix: {exc} (see deploy/matrix.md)", flush=True)
        return 2
    return asyncio.run(_serve(bot))
