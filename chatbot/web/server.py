"""The web view's HTTP side (aiohttp): the page, its state endpoint that follows the match by long
polling on the match's version, and the games' picture assets.

``GET <path>``                      the page (one HTML file: its script reads the link it was opened with)
``GET <path>api/state``             the match as the viewer may see it (:mod:`chatbot.web.snapshot`);
                                    ``t`` a signed link, ``m`` a match (with Telegram's ``initData`` in
                                    ``Authorization: tma <initData>``), ``after`` the version the page
                                    shows (the answer waits until the match moves on, at most
                                    :data:`POLL_WAIT` s, else 204), ``step`` a finished match's replay step
``GET <path>asset/<game>/<name>``   a file a game's picture refers to (the Afrikan Tähti map)
``POST <path>api/act``              a move's button pressed in the page (``{"data": …}``, the same
                                    credentials): the private chat's press, through the core

Who sees what: a signed link opens its match's public table and, when it names a user, that user's
seats; a valid ``initData`` opens its user's seats in the match asked for (or in the match of the
signed link it carries as ``start_param``). Anything forged, expired or foreign is answered 403 with
the same body, before anything about the match is read.

The store is synchronous: every read runs on the server's own small thread pool, never on the event
loop, and never on the core's thread. One task polls the running matches' versions (one cheap query)
while pages wait, so a move made by any worker of the same database shows within a poll interval.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from chatbot.core.i18n import normalise_language
from chatbot.core.ports import MatchRec
from chatbot.core.types import Inbound
from chatbot.web.auth import Forbidden, Grant, Signer, check_init_data, expiry
from chatbot.web.pictures import asset
from chatbot.web.settings import WebSettings
from chatbot.web.snapshot import snapshot

log = logging.getLogger(__name__)
T = TypeVar("T")

#: seconds a state request waits for the match to move on before it answers 204
POLL_WAIT = 25.0
#: seconds between two reads of the running matches' versions while pages wait
POLL_INTERVAL = 0.25
PAGE = Path(__file__).resolve().parent / "static" / "index.html"
FORBIDDEN_BODY = {"error": "forbidden"}
NS_WEB = "web"


def server_secret(repo: Any, configured: bytes | None) -> bytes:
    """``WEB_SECRET``, else the random secret kept in the database (made once, by the first worker)."""
    if configured:
        return configured
    kept = repo.kv_get(NS_WEB, "secret")
    if not isinstance(kept, str) or len(kept) < 32:
        repo.kv_set(NS_WEB, "secret", secrets.token_hex(32))
        kept = repo.kv_get(NS_WEB, "secret")
    return str(kept).encode()


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks at which match: their seats in it, their language and, when they hold seats, who
    they are (platform, user id, name) for a move pressed in the page."""

    match: int
    seats: tuple[int, ...]
    lang: str
    person: tuple[str, str, str] | None = None
    #: the match as read when the credentials were checked
    record: MatchRec | None = field(default=None, compare=False)


class Links:
    """The core's :class:`~chatbot.core.ports.WebLinks`: the addresses its messages carry.

    A private message's link on Telegram is the page with the match (a Mini App button: Telegram
    hands the page the reader's signed ``initData``); on other platforms it is a link signed for
    the reader. A group's link is signed for the match alone (the public table); on Telegram it
    opens the Mini App when its direct link is configured."""

    def __init__(self, settings: WebSettings, signer: Signer, clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self.signer = signer
        self.clock = clock

    def link(self, platform: str, match_id: int, user: str | None) -> str | None:
        base = self.settings.public_url
        if user is not None and platform == "telegram":
            return f"{base}?m={match_id}"
        expires = expiry(self.clock(), self.settings.link_ttl)
        grant = Grant(match_id, expires, user, platform if user is not None else None)
        token = self.signer.token(grant)
        if user is None and platform == "telegram" and self.settings.telegram_app:
            return f"{self.settings.telegram_app}?startapp={token}"
        return f"{base}?t={token}"


class WebServer:
    """The web view of ``core``'s matches. ``bot_token`` (Telegram's) checks Mini App ``initData``;
    without it only signed links open anything."""

    def __init__(
        self,
        core: Any,
        settings: WebSettings,
        bot_token: str | None = None,
        *,
        clock: Callable[[], float] = time.time,
        poll_interval: float = POLL_INTERVAL,
        poll_wait: float = POLL_WAIT,
        act: Callable[[Inbound], Awaitable[Any]] | None = None,
    ) -> None:
        self.core = core
        #: how a move pressed in the page reaches the core (the transport's runtime), None: the
        #: page shows no move buttons
        self.act = act
        self.settings = settings
        self.bot_token = bot_token
        self.clock = clock
        self.poll_interval = poll_interval
        self.poll_wait = poll_wait
        self.signer = Signer(server_secret(core.repo, settings.secret))
        self.links = Links(settings, self.signer, clock)
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="web")
        self._versions: dict[int, int] = {}
        self._waiting = 0
        self._closing = False
        self._changed: asyncio.Condition | None = None
        self._poller: asyncio.Task[None] | None = None
        self._runner: web.AppRunner | None = None
        self._page = PAGE.read_bytes()
        self.app = web.Application()
        self.mount(self.app)

    def mount(self, app: web.Application) -> None:
        """Add the view's routes to ``app`` (its own, or the Telegram webhook's server)."""
        path = self.settings.path
        app.router.add_get(path, self._index)
        app.router.add_get(path + "api/state", self._state)
        app.router.add_get(path + "asset/{game}/{name}", self._asset)
        app.router.add_post(path + "api/act", self._act)
        app.on_cleanup.append(self._cleanup)

    # --- lifecycle ----------------------------------------------------------------------------
    async def start(self, listen: str | None = None, port: int | None = None) -> int:
        """Serve on ``listen``:``port`` (the settings' by default; port 0: any free one); the port."""
        # a page that went away stops its long poll at once (aiohttp lets handlers run on by default)
        self._runner = web.AppRunner(self.app, access_log=None, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(
            self._runner, listen or self.settings.listen, self.settings.port if port is None else port
        )
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        return int(sockets[0].getsockname()[1]) if sockets else int(port or self.settings.port)

    async def stop(self) -> None:
        await self._release()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _release(self) -> None:
        """Answer every waiting page now (the server stops)."""
        self._closing = True
        if self._changed is not None:
            async with self._changed:
                self._changed.notify_all()

    async def _cleanup(self, _app: web.Application) -> None:
        await self._release()
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
            self._poller = None
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    # --- handlers -----------------------------------------------------------------------------
    async def _index(self, request: web.Request) -> web.Response:
        return web.Response(
            body=self._page,
            content_type="text/html",
            charset="utf-8",
            headers={
                "Cache-Control": "no-cache",
                "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer",
            },
        )

    async def _asset(self, request: web.Request) -> web.Response:
        lang = normalise_language(request.query.get("lang")) or "fi"
        data = await self._call(asset, request.match_info["game"], request.match_info["name"], lang)
        if data is None:
            raise web.HTTPNotFound()
        return web.Response(
            body=data, content_type="image/png", headers={"Cache-Control": "public, max-age=86400"}
        )

    async def _viewer(self, request: web.Request) -> Viewer:
        """Who is looking (Forbidden: nobody this server lets see anything)."""
        auth = request.headers.get("Authorization", "")
        init_data = auth[4:].strip() if auth.startswith("tma ") else ""
        query = request.query
        return await self._call(self._resolve, query.get("t", ""), query.get("m", ""), init_data)

    async def _act(self, request: web.Request) -> web.Response:
        """A move's button pressed in the page: the same press as in the private chat (the core
        checks the seat, the turn and the version), by the person the credentials name."""
        try:
            viewer = await self._viewer(request)
            payload = await request.json()
            data = str(payload.get("data", ""))[:100]
        except (Forbidden, ValueError, AttributeError):
            return web.json_response(FORBIDDEN_BODY, status=403, headers={"Cache-Control": "no-store"})
        if self.act is None or viewer.person is None or not data.startswith(f"{viewer.match}:"):
            return web.json_response(FORBIDDEN_BODY, status=403, headers={"Cache-Control": "no-store"})
        platform, ext, name = viewer.person
        press = Inbound(platform, ext, name, ext, True, button=data, update_key=f"web-{secrets.token_hex(8)}")
        await self.act(press)
        return web.json_response({"ok": True}, headers={"Cache-Control": "no-store"})

    async def _state(self, request: web.Request) -> web.Response:
        query = request.query
        try:
            after = int(query["after"]) if query.get("after") else None
            step = int(query["step"]) if query.get("step") else None
            viewer = await self._viewer(request)
        except (Forbidden, ValueError):
            return web.json_response(FORBIDDEN_BODY, status=403, headers={"Cache-Control": "no-store"})
        match_id, seats = viewer.match, viewer.seats
        lang = normalise_language(query.get("lang")) or viewer.lang
        known = viewer.record  # the match as read for the credentials: still current unless waited for
        if after is not None and step is None and known is not None and known.version == after:
            moved = await self._wait(match_id, after)
            if not moved:
                return web.Response(status=204, headers={"Cache-Control": "no-store"})
            known = None
        data = await self._call(self._snapshot, match_id, seats, lang, step, known)
        if data is None:
            return web.json_response(FORBIDDEN_BODY, status=403, headers={"Cache-Control": "no-store"})
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        response = web.Response(
            body=body, content_type="application/json", headers={"Cache-Control": "no-store"}
        )
        response.enable_compression()
        return response

    # --- who is looking -----------------------------------------------------------------------
    def _resolve(self, token: str, m: str, init_data: str) -> Viewer:
        """The match, the viewer's seats in it and their language; Forbidden for anything that does
        not check out (on the pool's thread: it reads the store)."""
        now = self.clock()
        grant = self.signer.read(token, now) if token else None
        user = (
            check_init_data(init_data, self.bot_token, self.settings.init_max_age, now) if init_data else None
        )
        if grant is None and user is not None and user.start_param:
            grant = self.signer.read(user.start_param, now)
        if grant is not None:
            match_id = grant.match
            if m and m != str(match_id):
                raise Forbidden()
        elif user is not None and m.isdigit() and len(m) < 12:
            match_id = int(m)
        else:
            raise Forbidden()
        repo = self.core.repo
        match = repo.match(match_id)
        if match is None or match.game not in self.core.games:
            raise Forbidden()
        people: list[tuple[str, str]] = []
        if grant is not None and grant.user is not None and grant.platform is not None:
            people.append((grant.platform, grant.user))
        if user is not None:
            people.append(("telegram", user.id))
        seats: list[int] = []
        lang: str | None = None
        person: tuple[str, str, str] | None = None
        for platform, ext in people:
            rec = repo.find_user(platform, ext)
            if rec is None:
                continue
            held = [s.seat for s in match.seats if s.user_id == rec.id and s.seat not in seats]
            if held and person is None:
                person = (platform, ext, rec.name)
            seats += held
            lang = lang or rec.lang
        if grant is None and not seats:
            raise Forbidden()  # a Mini App user asking for a match they play no part in
        if lang is None and user is not None:
            lang = normalise_language(user.lang)
        if lang is None:
            lang = repo.room_by_id(match.room_id).lang or "fi"
        return Viewer(match_id, tuple(sorted(seats)), lang, person, match)

    def _snapshot(
        self,
        match_id: int,
        seats: tuple[int, ...],
        lang: str,
        step: int | None,
        known: MatchRec | None = None,
    ) -> dict[str, Any] | None:
        match = known if known is not None else self.core.repo.match(match_id)
        if match is None:
            return None
        return snapshot(self.core, match, seats, lang, step, moves=self.act is not None)

    # --- following a match --------------------------------------------------------------------
    async def _wait(self, match_id: int, version: int) -> bool:
        """Whether the match moved on from ``version`` (or stopped running) within the wait."""
        if self._changed is None:
            self._changed = asyncio.Condition()
        if self._poller is None or self._poller.done():
            self._poller = asyncio.create_task(self._poll(), name="web-versions")
        self._waiting += 1
        try:
            await self._refresh()
            async with self._changed:
                return await asyncio.wait_for(
                    self._changed.wait_for(lambda: self._closing or self._versions.get(match_id) != version),
                    self.poll_wait,
                )
        except TimeoutError:
            return False
        finally:
            self._waiting -= 1

    async def _refresh(self) -> None:
        try:
            rows = await self._call(self.core.repo.running_versions)
        except Exception as exc:  # the database is away: the pages wait and ask again
            log.warning("web view: could not read the match versions: %s", exc)
            return
        self._versions = dict(rows)
        assert self._changed is not None
        async with self._changed:
            self._changed.notify_all()

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.poll_interval)
            if self._waiting:
                await self._refresh()
