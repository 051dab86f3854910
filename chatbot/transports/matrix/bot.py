"""The bot on one Matrix account: construction, life cycle and the old queue; the rest is in its
parts (client, events, crypto, delivery, direct).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections import OrderedDict, deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nio import AsyncClient, MegolmEvent
from nio.crypto import ENCRYPTION_ENABLED

from chatbot.core.ports import Transport
from chatbot.core.types import Outbound
from chatbot.runtime import Runtime, Settings
from chatbot.transports.matrix.base import HANDLED_MEMORY, PLATFORM, MatrixBase, Stats
from chatbot.transports.matrix.client import Client
from chatbot.transports.matrix.crypto import Crypto
from chatbot.transports.matrix.delivery import Delivery
from chatbot.transports.matrix.direct import Direct
from chatbot.transports.matrix.events import Events
from chatbot.transports.matrix.powers import MatrixMembers

if TYPE_CHECKING:
    from chatbot.core.service import BotCore

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


class MatrixBot(Client, Events, Crypto, Delivery, Direct, MatrixBase, Transport):
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
        self._senders: OrderedDict[str, str] = OrderedDict()  # event id of a message -> its sender
        #: event id of a message with buttons -> their data in the order of its reaction keys
        self._buttons: OrderedDict[str, list[str]] = OrderedDict()
        #: messages on which someone's reaction keys stay (the bot could not redact them), with
        #: those keys: the message's next edit numbers its options with a set nobody used on it
        self._used: OrderedDict[str, list[str]] = OrderedDict()
        #: rooms where a redaction was refused, until when they are not tried again
        self._no_redact: dict[str, float] = {}
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
        used = await self._kv_get("used")
        self._used = OrderedDict(
            (str(e), [str(k) for k in keys]) for e, keys in (used.items() if isinstance(used, dict) else ())
        )
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

    async def _adopt_old_queue(self) -> None:
        """Messages a bot before the runtime had queued in its own store go to the outbox once."""
        old = await self._kv_get("outbox")
        if old:
            outs = [
                Outbound.from_json(item["out"]) for item in old if isinstance(item, dict) and "out" in item
            ]
            await self._db(self.core.repo.outbox_add, outs)
            await self._kv_set("outbox", [])
