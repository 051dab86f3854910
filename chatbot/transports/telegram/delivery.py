"""Outgoing Telegram traffic: one ordered queue per chat, edits in place, limits, retries.

Everything the core says goes through :class:`Delivery`:

* one worker per chat keeps that chat's messages in order; chats do not wait for each other;
* a keyed message (``table:7``) is edited in place; its platform id is stored in the key-value
  store (``telegram.msg``) so a restarted bot still edits it. An edit still waiting in the queue is
  replaced by a newer edit of the same key, so a busy group gets the latest table, not every step;
* a keyed group message that has scrolled far up (``bury_after`` newer messages) is sent anew and
  the old one deleted, so the live table stays in sight;
* an unchanged text or keyboard is not sent again, and 400 "message is not modified" counts as
  done; an edit that fails otherwise (message deleted, too old) is sent as a new message;
* 429 answers wait ``retry_after`` and try again; network errors are retried a few times;
* a private message to a user who never opened the bot (403) is held in ``telegram.pending`` and
  the transport is told (it posts a deep link in the group); :meth:`Delivery.flush` sends the held
  messages once the user opens the chat;
* only the newest private prompt keeps its buttons: the previous prompt's keyboard is removed, and
  so is a prompt whose match has moved on (button data ``match:version:…`` is older than the
  match's version), e.g. after the player acted by text.

Pictures: an Outbound with ``image`` goes by sendPhoto with the text as caption (a text longer
than a caption may be follows as a message of its own). A keyed picture is edited with
editMessageCaption when the picture is unchanged, with editMessageMedia when it changed; if that
fails it is sent anew and the old message deleted.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import re
import warnings
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    ReplyParameters,
)
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TelegramError

from chatbot.core.types import Button, Outbound
from chatbot.transports.telegram.limiter import RateLimiter

log = logging.getLogger(__name__)

NS_MSG = "telegram.msg"
NS_PENDING = "telegram.pending"
NS_PROMPT = "telegram.prompt"

#: the core's button data: "<match>:<version>:<notation>"
BUTTON_DATA = re.compile(r"(\d+):(\d+):")
TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
NETWORK_RETRIES = 3


def retry_seconds(exc: RetryAfter) -> float:
    """``retry_after`` in seconds without PTB's int/timedelta deprecation dance."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = exc.retry_after
    if isinstance(value, timedelta):
        return value.total_seconds()
    return float(value)


def is_not_modified(exc: BadRequest) -> bool:
    return "not modified" in str(exc).lower()


def markup_of(buttons: tuple[tuple[Button, ...], ...]) -> InlineKeyboardMarkup | None:
    rows = []
    for row in buttons:
        cells = []
        for b in row:
            if b.data.startswith("https://"):  # the transport's own link buttons (deep links)
                cells.append(InlineKeyboardButton(b.label, url=b.data))
                continue
            if len(b.data.encode()) > 64:  # Telegram's hard limit; the core promises to stay under it
                log.error("button data over 64 bytes dropped: %r", b.data)
                continue
            cells.append(InlineKeyboardButton(b.label, callback_data=b.data))
        if cells:
            rows.append(cells)
    return InlineKeyboardMarkup(rows) if rows else None


def buttons_json(buttons: tuple[tuple[Button, ...], ...]) -> list[list[list[str]]]:
    return [[[b.label, b.data] for b in row] for row in buttons]


def image_hash(image: bytes | None) -> str | None:
    return hashlib.sha1(image).hexdigest() if image else None


def split_text(text: str, limit: int = TEXT_LIMIT) -> list[str]:
    """Split at line breaks into chunks Telegram accepts."""
    if len(text) <= limit:
        return [text]
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks


class KvStore:
    """Write-through cache over ``core.repo.kv_get/kv_set``; the repository is touched only through
    ``run`` (the transport's core thread)."""

    _MISSING = object()

    def __init__(self, repo: Any, run: Callable[..., Awaitable[Any]]) -> None:
        self.repo = repo
        self.run = run
        self._cache: dict[tuple[str, str], Any] = {}

    async def get(self, namespace: str, key: str) -> Any:
        found = self._cache.get((namespace, key), self._MISSING)
        if found is self._MISSING:
            found = await self.run(self.repo.kv_get, namespace, key)
            self._cache[(namespace, key)] = found
        return found

    async def set(self, namespace: str, key: str, value: Any) -> None:
        self._cache[(namespace, key)] = value
        await self.run(self.repo.kv_set, namespace, key, value)


@dataclass(slots=True)
class Job:
    chat_id: int
    out: Outbound | None = None
    reply_to: int | None = None
    #: remove the inline keyboard of this message instead of sending
    strip: int | None = None


class _ChatQueue:
    __slots__ = ("jobs", "task")

    def __init__(self) -> None:
        self.jobs: deque[Job] = deque()
        self.task: asyncio.Task[None] | None = None


class Delivery:
    """Queues, limits and sends the core's :class:`Outbound` messages."""

    def __init__(
        self,
        store: KvStore,
        limiter: RateLimiter,
        *,
        bury_after: int = 12,
        on_forbidden: Callable[[int, Outbound], Awaitable[None]] | None = None,
    ) -> None:
        self.bot: Bot | None = None
        self.store = store
        self.limiter = limiter
        self.bury_after = bury_after
        self.on_forbidden = on_forbidden
        self._queues: dict[int, _ChatQueue] = {}
        self._idle = asyncio.Event()
        self._idle.set()
        #: the newest private prompt per user chat: {"id", "match", "version"}
        self.prompts: dict[int, dict[str, Any]] = {}
        #: the newest message id seen per chat (incoming or sent), to tell when a table is buried
        self.latest: dict[int, int] = {}
        self.stats = {"sent": 0, "edited": 0, "skipped": 0, "retry_after": 0, "held": 0, "coalesced": 0}

    # ------------------------------------------------------------------------------------------
    # queueing

    def submit(self, chat_id: int, out: Outbound, reply_to: int | None = None) -> None:
        q = self._queues.setdefault(chat_id, _ChatQueue())
        if out.key is not None:
            for job in q.jobs:
                if job.out is not None and job.out.key == out.key:
                    job.out = out  # a newer table replaces a waiting one in place
                    self.stats["coalesced"] += 1
                    self._wake(chat_id, q)
                    return
        q.jobs.append(Job(chat_id, out, reply_to))
        self._wake(chat_id, q)

    def submit_strip(self, chat_id: int, message_id: int) -> None:
        q = self._queues.setdefault(chat_id, _ChatQueue())
        q.jobs.append(Job(chat_id, strip=message_id))
        self._wake(chat_id, q)

    def _wake(self, chat_id: int, q: _ChatQueue) -> None:
        self._idle.clear()
        if q.task is None or q.task.done():
            q.task = asyncio.create_task(self._worker(chat_id, q), name=f"telegram-chat-{chat_id}")

    async def _worker(self, chat_id: int, q: _ChatQueue) -> None:
        try:
            while q.jobs:
                job = q.jobs.popleft()
                try:
                    await self._run(job)
                except asyncio.CancelledError:
                    raise
                except Exception:  # one bad message must not stop the chat's queue
                    log.exception("delivery to chat %s failed", chat_id)
        finally:
            q.task = None
            if all(not x.jobs and x.task is None for x in self._queues.values()):
                self._idle.set()

    async def join(self, timeout: float | None = None) -> bool:
        """Wait until every queue is empty; False on timeout."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def pending_jobs(self) -> int:
        return sum(len(q.jobs) + (q.task is not None) for q in self._queues.values())

    async def close(self) -> None:
        for q in self._queues.values():
            if q.task is not None:
                q.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await q.task
        self._queues.clear()
        self._idle.set()

    def seen(self, chat_id: int, message_id: int) -> None:
        if message_id > self.latest.get(chat_id, 0):
            self.latest[chat_id] = message_id

    # ------------------------------------------------------------------------------------------
    # sending

    async def _call(self, chat_id: int, fn: Callable[[], Awaitable[Any]]) -> Any:
        """Call the Bot API within the limits; wait out 429s, retry network errors a few times."""
        group = chat_id < 0
        attempt = 0
        while True:
            await self.limiter.acquire(chat_id, group)
            try:
                return await fn()
            except RetryAfter as exc:
                self.stats["retry_after"] += 1
                wait = retry_seconds(exc)
                log.warning("429 for chat %s: retrying after %.1f s", chat_id, wait)
                await asyncio.sleep(wait)
            except (BadRequest, Forbidden, ChatMigrated):
                raise
            except NetworkError:
                attempt += 1
                if attempt > NETWORK_RETRIES:
                    raise
                await asyncio.sleep(0.3 * 2**attempt)

    async def _run(self, job: Job) -> None:
        assert self.bot is not None
        if job.strip is not None:
            await self._strip(job.chat_id, job.strip)
            return
        out = job.out
        assert out is not None
        private = out.user_id is not None
        if private:
            held = await self.store.get(NS_PENDING, str(job.chat_id))
            if held:  # still waiting for the user to open the bot: keep the order
                await self._hold(job.chat_id, out, notify=False)
                return
        try:
            if out.key is not None:
                await self._keyed(job)
            else:
                await self._send_new(job)
        except Forbidden:
            if private:
                await self._hold(job.chat_id, out, notify=True)
            else:
                log.warning("the bot cannot write to chat %s (removed from the group?)", job.chat_id)
        except ChatMigrated as exc:
            log.warning("chat %s migrated to %s; the room must be moved", job.chat_id, exc.new_chat_id)

    async def _send_new(self, job: Job) -> Message:
        """Send ``job.out`` as new message(s); returns the last one (the one with the buttons)."""
        assert self.bot is not None and job.out is not None
        bot = self.bot
        out = job.out
        chat_id = job.chat_id
        markup = markup_of(out.buttons)
        reply = ReplyParameters(job.reply_to, allow_sending_without_reply=True) if job.reply_to else None
        message: Message
        image = out.image
        if image:
            caption = out.text if len(out.text) <= CAPTION_LIMIT else None
            message = await self._call(
                chat_id,
                lambda: bot.send_photo(
                    chat_id,
                    image,
                    caption=caption,
                    reply_markup=markup if caption is not None else None,
                    reply_parameters=reply,
                ),
            )
            self._sent(chat_id, message)
            if caption is None:
                message = await self._send_text(chat_id, out.text, markup, None)
        else:
            message = await self._send_text(chat_id, out.text, markup, reply)
        if out.user_id is not None and markup is not None:
            await self._new_prompt(chat_id, message.message_id, out.buttons)
        return message

    async def _send_text(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None, reply: ReplyParameters | None
    ) -> Message:
        assert self.bot is not None
        bot = self.bot
        chunks = split_text(text or "…")
        message: Message | None = None
        for i, chunk in enumerate(chunks):
            last = i == len(chunks) - 1
            keyboard = markup if last else None
            replying = reply if i == 0 else None
            message = await self._call(
                chat_id,
                functools.partial(
                    bot.send_message, chat_id, chunk, reply_markup=keyboard, reply_parameters=replying
                ),
            )
            self._sent(chat_id, message)
        assert message is not None
        return message

    def _sent(self, chat_id: int, message: Message) -> None:
        self.stats["sent"] += 1
        self.seen(chat_id, message.message_id)

    async def _new_prompt(
        self, chat_id: int, message_id: int, buttons: tuple[tuple[Button, ...], ...]
    ) -> None:
        """Only the newest private prompt keeps its buttons: strip the one before."""
        previous = await self.store.get(NS_PROMPT, str(chat_id))
        record: dict[str, Any] = {"id": message_id}
        for row in buttons:
            for b in row:
                found = BUTTON_DATA.match(b.data)
                if found:
                    record.update(match=int(found[1]), version=int(found[2]))
                    break
            if "match" in record:
                break
        await self.store.set(NS_PROMPT, str(chat_id), record)
        self.prompts[chat_id] = record
        previous_id = previous.get("id") if isinstance(previous, dict) else previous
        if previous_id and previous_id != message_id:
            await self._strip(chat_id, int(previous_id))

    def outdated_prompts(self, versions: dict[int, int]) -> list[tuple[int, int]]:
        """(chat, message) of remembered prompts whose buttons are older than the match's version:
        the player acted by text or in the group, or the game went on without them."""
        found = []
        for chat_id, record in list(self.prompts.items()):
            match = record.get("match")
            if match in versions and record.get("version", 0) < versions[match]:
                found.append((chat_id, int(record["id"])))
                del self.prompts[chat_id]
        return found

    async def _strip(self, chat_id: int, message_id: int) -> None:
        assert self.bot is not None
        bot = self.bot
        try:
            await self._call(
                chat_id, lambda: bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
            )
            self.stats["edited"] += 1
        except (BadRequest, Forbidden) as exc:  # already without buttons, deleted, or too old
            log.debug("keyboard of %s/%s not removed: %s", chat_id, message_id, exc)

    async def _keyed(self, job: Job) -> None:
        assert self.bot is not None and job.out is not None
        bot = self.bot
        out = job.out
        chat_id = job.chat_id
        if out.image and len(out.text) > CAPTION_LIMIT:
            out = replace(out, image=None)  # one message per key: the text is the fallback
            job = replace(job, out=out)
        store_key = f"{chat_id}:{out.key}"
        record = await self.store.get(NS_MSG, store_key)
        markup = markup_of(out.buttons)
        wanted = {
            "text": out.text,
            "markup": buttons_json(out.buttons),
            "photo": bool(out.image),
            "image": image_hash(out.image),
        }
        if record:
            message_id = int(record["id"])
            buried = chat_id < 0 and self.latest.get(chat_id, 0) - message_id > self.bury_after
            same_kind = bool(record.get("photo")) == bool(out.image)
            if not buried and same_kind:
                if (
                    record.get("text") == out.text
                    and record.get("markup") == wanted["markup"]
                    and record.get("image") == wanted["image"]
                ):
                    self.stats["skipped"] += 1
                    return
                try:
                    await self._edit(chat_id, message_id, out, record, markup)
                    self.stats["edited"] += 1
                    await self.store.set(NS_MSG, store_key, {"id": message_id, **wanted})
                    return
                except BadRequest as exc:
                    if is_not_modified(exc):
                        await self.store.set(NS_MSG, store_key, {"id": message_id, **wanted})
                        return
                    log.info("edit of %s/%s failed (%s); sending anew", chat_id, message_id, exc)
            message = await self._send_new(replace(job, reply_to=None))
            await self.store.set(NS_MSG, store_key, {"id": message.message_id, **wanted})
            with contextlib.suppress(TelegramError):
                await self._call(chat_id, lambda: bot.delete_message(chat_id, message_id))
            return
        message = await self._send_new(job)
        await self.store.set(NS_MSG, store_key, {"id": message.message_id, **wanted})

    async def _edit(
        self,
        chat_id: int,
        message_id: int,
        out: Outbound,
        record: dict[str, Any],
        markup: InlineKeyboardMarkup | None,
    ) -> None:
        assert self.bot is not None
        bot = self.bot
        image = out.image
        if image:
            if record.get("image") == image_hash(image):
                await self._call(
                    chat_id,
                    lambda: bot.edit_message_caption(
                        chat_id, message_id, caption=out.text, reply_markup=markup
                    ),
                )
            else:
                await self._call(
                    chat_id,
                    lambda: bot.edit_message_media(
                        InputMediaPhoto(image, caption=out.text), chat_id, message_id, reply_markup=markup
                    ),
                )
        elif record.get("text") == out.text:
            await self._call(
                chat_id, lambda: bot.edit_message_reply_markup(chat_id, message_id, reply_markup=markup)
            )
        else:
            await self._call(
                chat_id,
                lambda: bot.edit_message_text(
                    out.text[:TEXT_LIMIT], chat_id, message_id, reply_markup=markup
                ),
            )

    # ------------------------------------------------------------------------------------------
    # private messages held for users who have not opened the bot

    async def _hold(self, user_id: int, out: Outbound, notify: bool) -> None:
        held = list(await self.store.get(NS_PENDING, str(user_id)) or [])
        held.append(out.to_json())
        await self.store.set(NS_PENDING, str(user_id), held)
        self.stats["held"] += 1
        if notify and self.on_forbidden is not None:
            await self.on_forbidden(user_id, out)

    async def held(self, user_id: int) -> list[Outbound]:
        return [Outbound.from_json(x) for x in await self.store.get(NS_PENDING, str(user_id)) or []]

    async def flush(self, user_id: int) -> int:
        """Queue the messages held for ``user_id``; only the newest keeps its buttons (older ones
        would be stale)."""
        held = await self.held(user_id)
        if not held:
            return 0
        await self.store.set(NS_PENDING, str(user_id), [])
        last_with_buttons = max((i for i, o in enumerate(held) if o.buttons), default=-1)
        for i, out in enumerate(held):
            self.submit(user_id, out if i == last_with_buttons else replace(out, buttons=()))
        return len(held)
