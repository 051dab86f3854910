"""The bot on one Matrix account: its parts built with what each needs, the life cycle, and the
runtime's :class:`Transport` surface.

=============  ====================================================================================
``session``    the nio client: login (password or access token, kept across restarts), one sync
``sync``       the sync loop: each answer to the parts below, the sync token saved after it
``events``     invites, members leaving, text and reaction keys, made the core's inbound messages
``crypto``     key maintenance, messages the bot cannot decrypt and the notices about them
``delivery``   the outbox's rows sent, edited in place, their buttons numbered with reaction keys
``keys``       which button each reaction key of a message presses; keys that stay on a message
``direct``     each player's direct room
``inbox``      events handed to the runtime one at a time, each once
``rooms``      what the bot has seen of its rooms (how far each moved on, recent senders)
``members``    who administers a room (the core's roles)
=============  ====================================================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nio import AsyncClient
from nio.crypto import ENCRYPTION_ENABLED

from chatbot.core.ports import Transport
from chatbot.core.types import Outbound
from chatbot.runtime import Runtime, Settings
from chatbot.transports.matrix.base import PLATFORM, Stats
from chatbot.transports.matrix.client import Session
from chatbot.transports.matrix.crypto import Crypto
from chatbot.transports.matrix.delivery import Delivery
from chatbot.transports.matrix.direct import DirectRooms
from chatbot.transports.matrix.events import Events
from chatbot.transports.matrix.keys import ReactionKeys
from chatbot.transports.matrix.powers import MatrixMembers
from chatbot.transports.matrix.state import Inbox, RoomLog, State
from chatbot.transports.matrix.sync import Sync

if TYPE_CHECKING:
    from chatbot.core.service import BotCore

log = logging.getLogger(__package__)  # chatbot.transports.matrix, as before the split


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
        encryption = ENCRYPTION_ENABLED if encryption is None else (encryption and ENCRYPTION_ENABLED)
        path = Path(store_path) if store_path else None
        if encryption and path is None:
            path = Path("data") / "matrix-store"
        self.ai_delay = ai_delay
        if hasattr(core, "ai_delay"):
            core.ai_delay = ai_delay  # AI turns are deadlines: due this long after the move before
        self.drain_timeout = drain_timeout
        self.platform = PLATFORM
        self.stats = Stats()
        self.failed: BaseException | None = None
        self.done = asyncio.Event()
        self._tasks: list[asyncio.Task[Any]] = []
        self.runtime = Runtime(core, self, settings=Settings(max_in_flight=4))

        state = State(self.runtime, f"matrix:{user}")
        self.session = Session(
            state,
            homeserver.rstrip("/"),
            user,
            password=password,
            access_token=access_token,
            encryption=encryption,
            store_path=path,
            device_name=device_name,
            display_name=display_name or getattr(core, "bot_name", None),
        )
        self.rooms = RoomLog()
        self.inbox = Inbox(self.runtime, self.stats)
        self.keys = ReactionKeys(state, self.session)
        #: direct rooms the bot opens are encrypted when it runs with E2EE (the default)
        encrypt_dms = encryption if encrypt_dms is None else (encrypt_dms and encryption)
        self.direct = DirectRooms(state, self.session, self.stats, encrypt=encrypt_dms)
        self.delivery = Delivery(
            self.session,
            self.runtime,
            core.repo,
            self.direct,
            self.keys,
            self.rooms,
            self.stats,
            repost_after=repost_after,
        )
        self.crypto = Crypto(self.session, state, core.repo, self.inbox, self.delivery)
        self.events = Events(
            core, self.runtime, self.session, self.inbox, self.rooms, self.direct, self.keys, self.crypto
        )
        self.sync = Sync(
            self.session, state, self.rooms, self.inbox, self.events, self.crypto, timeout_ms=sync_timeout_ms
        )
        self._state = state
        #: who administers a room (issue #13), for the core's roles
        self.members = MatrixMembers(self.session)
        if isinstance(getattr(core, "members", None), dict):
            core.members[PLATFORM] = self.members

    # ------------------------------------------------------------------------------------------
    # what the runtime, the entry point and the tests read

    @property
    def client(self) -> AsyncClient | None:
        """The nio client of the session (None before the start and after the stop)."""
        return self.session.client

    @property
    def user_id(self) -> str:
        return self.session.user_id

    async def deliver(self, out: Outbound, ref: str | None, txn: str) -> str | None:
        """The runtime's delivery of one outbox row (see :class:`Delivery`)."""
        return await self.delivery.deliver(out, ref, txn)

    def send(self, outs: Iterable[Outbound]) -> None:
        """Messages no use case made (notices of the transport, tests): into the outbox, delivered."""
        self.delivery.send(outs)

    # the parts' memories that tests look into
    @property
    def _dms(self) -> dict[str, str]:
        return self.direct.rooms

    @property
    def _buttons(self) -> OrderedDict[str, list[str]]:
        return self.keys.buttons

    @property
    def _senders(self) -> OrderedDict[str, str]:
        return self.rooms.senders

    # ------------------------------------------------------------------------------------------
    # life cycle

    async def start(self) -> None:
        """Log in, catch up with what happened while the bot was away, then run in the background."""
        self.failed = None
        self.done = asyncio.Event()
        self.inbox.open()
        self.members.loop = asyncio.get_running_loop()
        await self.session.login()
        await self.sync.load()
        await self._adopt_old_queue()
        await self.direct.load()
        await self.keys.load()
        await self.session.set_display_name()
        await self.sync.catch_up()
        await self.runtime.start()
        self._tasks = [asyncio.create_task(self._guard(self.sync.loop()), name="matrix-sync")]
        client = self.session.client
        log.info(
            "Matrix bot %s (device %s) running; end-to-end encryption %s",
            self.user_id,
            client.device_id if client else None,
            "on" if self.session.olm else "off",
        )

    async def stop(self, drain: bool = True) -> None:
        """Stop syncing, send what is queued (up to ``drain_timeout``), save the state, log off.

        With ``drain=False`` queued messages stay in storage and go out after the next start."""
        if self.session.client is None:
            return

        def cancel() -> None:
            for task in self._tasks:
                task.cancel()

        await self.inbox.close(cancel)  # a message in progress is committed first
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        if drain:
            await self.runtime.idle(self.drain_timeout)
        await self.runtime.stop()  # what is not sent stays in the outbox for the next start
        await self.session.close()
        self.done.set()

    async def run(self) -> None:
        """Start and run until ``stop()`` is called or a background task fails."""
        await self.start()
        await self.done.wait()
        if self.failed is not None:
            raise self.failed

    async def wait_idle(self, timeout: float = 60.0) -> None:
        """Until every committed message has been sent."""
        await self.delivery.settle(timeout)
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
        old = await self._state.get("outbox")
        if old:
            outs = [
                Outbound.from_json(item["out"]) for item in old if isinstance(item, dict) and "out" in item
            ]
            await self._state.call(self.core.repo.outbox_add, outs)
            await self._state.set("outbox", [])
