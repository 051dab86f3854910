"""One outbox row -> Bot API calls: the Telegram side of :meth:`Transport.deliver`.

The runtime hands each row over in per-chat order, with the reference of the message sent before
under the same key; this module only translates:

* a keyed message (``table:7``) is edited in place. Its reference (what the runtime stores for the
  key) is a small JSON record: the message id, a digest of the text, the keyboard, whether it is a
  picture and the picture's digest, so an unchanged message is not sent again and a picture is
  edited by editMessageCaption or editMessageMedia as needed;
* a keyed group message that has scrolled far up (``bury_after`` newer messages) is sent anew and
  the old one deleted, so the live table stays in sight; an edit that fails (message deleted, too
  old) is sent as a new message;
* 400 "message is not modified" counts as done; 429 raises :class:`RetryLater` with
  ``retry_after``; network errors are retried a few times, then :class:`RetryLater`; a private
  chat the user never opened (403) raises :class:`Blocked`;
* only the newest private prompt keeps its buttons: the previous prompt's keyboard is removed, and
  so is a prompt whose match has moved on (a newer table of its match was delivered), e.g. after
  the player acted by text. A prompt that is older than its match's newest delivered table goes
  out without buttons. A seat's panel is one message per turn (a keyed prompt, issue #28): each
  step edits it, and it is the chat's live prompt again with the buttons of the step; a removal of
  its keyboard and its edit in place never cross (one lock per private chat).

Pictures: an Outbound with ``image`` goes by sendPhoto with the text as caption (a text longer
than a caption may be follows as a message of its own).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import hashlib
import json
import logging
import warnings
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    ReplyParameters,
    WebAppInfo,
)
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TelegramError

from chatbot.core.access import parse_button
from chatbot.core.ports import GROUP, USER, Blocked, ChatQueue, RetryLater
from chatbot.core.types import TABLE, Button, Outbound
from chatbot.runtime.limits import RateLimiter

log = logging.getLogger(__name__)

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
NETWORK_RETRIES = 3
#: message ids after a send's note that are looked at for the message after a crash, when nothing
#: newer is known (a private chat's or basic group's ids come from the bot's one sequence, so a few
#: other chats' messages may fall between the note and the message)
PROBE_WINDOW = 8
#: at most this many ids are looked at for one message
MAX_PROBES = 24
#: Bot API ids of supergroups and channels are -100 followed by the channel's id
SUPERGROUP_BELOW = -1_000_000_000_000


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


def markup_of(
    buttons: tuple[tuple[Button, ...], ...], web_app: str | None = None
) -> InlineKeyboardMarkup | None:
    """The inline keyboard; a link into the web view (it starts with ``web_app``, given for a private
    chat only) opens as a Mini App, which hands the page the user's signed ``initData``."""
    rows = []
    for row in buttons:
        cells = []
        for b in row:
            if web_app and b.data.startswith(web_app):
                cells.append(InlineKeyboardButton(b.label, web_app=WebAppInfo(b.data)))
                continue
            if b.data.startswith(("https://", "http://")):  # link buttons (deep links, the web view)
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


def digest(data: str | bytes | None) -> str | None:
    if not data:
        return None
    return hashlib.sha1(data.encode() if isinstance(data, str) else data).hexdigest()


def utf16_len(text: str) -> int:
    """A length as Telegram counts it (texts, captions, pop-ups): in UTF-16 code units, so an emoji
    outside the BMP (🃏, 🦫) counts two."""
    return len(text.encode("utf-16-le")) // 2


def _cut(line: str, limit: int) -> tuple[str, str]:
    """The longest head of ``line`` within ``limit`` UTF-16 units (never half a character), and the rest."""
    units = 0
    for i, ch in enumerate(line):
        units += 2 if ord(ch) > 0xFFFF else 1
        if units > limit:
            return line[:i], line[i:]
    return line, ""


def split_text(text: str, limit: int = TEXT_LIMIT) -> list[str]:
    """Split at line breaks into chunks Telegram accepts (``limit`` in UTF-16 units)."""
    if utf16_len(text) <= limit:
        return [text]
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while utf16_len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            head, line = _cut(line, limit)
            chunks.append(head)
        candidate = f"{current}\n{line}" if current else line
        if utf16_len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks


def chat_key(chat_id: int, thread: int | None) -> str:
    """The core's id of a chat: the chat, or ``<chat>:<topic>`` for a topic of a forum group (every
    topic is a table of its own)."""
    return f"{chat_id}:{thread}" if thread else str(chat_id)


def split_chat(key: str) -> tuple[int, int | None]:
    """The chat id and forum topic of a :func:`chat_key`."""
    chat, _, thread = key.partition(":")
    return int(chat), int(thread) if thread else None


def parse_ref(ref: str | None) -> dict[str, Any] | None:
    """The stored record of a keyed message (``{"id": …}``), or None."""
    if not ref:
        return None
    try:
        record = json.loads(ref)
    except ValueError:
        return {"id": int(ref)} if ref.isdigit() else None
    return record if isinstance(record, dict) and "id" in record else None


def row_of(txn: str) -> int:
    """The outbox row id in the runtime's transaction id (``ob<id>``); 0 for anything else."""
    return int(txn[2:]) if txn.startswith("ob") and txn[2:].isdigit() else 0


class Sender:
    """Sends rows for one bot; ``bot`` is set once the Application is initialised."""

    def __init__(self, limiter: RateLimiter, *, bury_after: int = 12) -> None:
        self.bot: Bot | None = None
        #: the web view's address (issue #29): its links in private chats open as a Mini App
        self.web_app: str | None = None
        self.limiter = limiter
        self.bury_after = bury_after
        #: the newest message id seen per chat (incoming or sent), to tell when a table is buried
        self.latest: dict[int, int] = {}
        #: the newest message ids seen per chat, for a basic group's burial and for probes
        self.recent: dict[int, collections.deque[int]] = {}
        #: the newest id known in the bot's own sequence (private chats and basic groups)
        self.box_top = 0
        #: the newest ids of messages this process sent, per chat (a probe after a restart skips them)
        self.sent_here: dict[int, collections.deque[int]] = {}
        #: chats known to be supergroups (their messages have ids of their own)
        self.supergroups: set[int] = set()
        #: the newest private prompt per user chat: {"id", "match", "row"}
        self.prompts: dict[int, dict[str, Any]] = {}
        #: private prompts already pressed once since they were sent or edited with new buttons (chat ->
        #: (message id, row)): a second press of the same prompt is a double tap, answered only after
        #: the core has decided
        self.pressed: dict[int, tuple[int, int]] = {}
        #: per private chat: a prompt's edit in place and the removal of its keyboard, one at a time
        self._prompt_locks: dict[int, asyncio.Lock] = {}
        #: the newest delivered table row per match, so an older prompt loses its buttons
        self.tables: dict[int, tuple[int, int | None]] = {}
        #: remember/recall prompt records across restarts (set by the transport)
        self.save_prompt: Callable[[int, dict[str, Any]], Awaitable[None]] | None = None
        self.load_prompt: Callable[[int], Awaitable[dict[str, Any] | None]] | None = None
        #: move a group's room to the supergroup it became (set by the transport)
        self.on_migrated: Callable[[int, int], Awaitable[None]] | None = None
        self.stats = {"sent": 0, "edited": 0, "skipped": 0, "retry_after": 0, "stripped": 0, "found": 0}
        #: keyboards being removed in the background (cosmetic; not worth delaying a row's "done")
        self.background: set[asyncio.Task[None]] = set()

    def seen(self, chat_id: int, message_id: int, supergroup: bool | None = None) -> None:
        """A message of ``chat_id`` (incoming or sent); ``supergroup`` when the update said the type."""
        if supergroup:
            self.supergroups.add(chat_id)
        if message_id > self.latest.get(chat_id, 0):
            self.latest[chat_id] = message_id
            recent = self.recent.get(chat_id)
            if recent is None:
                recent = self.recent[chat_id] = collections.deque(maxlen=max(self.bury_after + 1, 32))
            recent.append(message_id)
        if self._space(chat_id) == 0 and message_id > self.box_top:
            self.box_top = message_id

    # ------------------------------------------------------------------------------------------
    # message ids: where a new message lands

    def _space(self, chat_id: int) -> int:
        """Whose sequence numbers ``chat_id``'s messages: a supergroup's own (its id), or the bot's
        one sequence of private chats and basic groups (0)."""
        return chat_id if chat_id in self.supergroups or chat_id <= SUPERGROUP_BELOW else 0

    def top(self, chat_id: int) -> int:
        """The newest message id known in ``chat_id``'s sequence (0: none known)."""
        return self.box_top if self._space(chat_id) == 0 else self.latest.get(chat_id, 0)

    def _buried(self, chat_id: int, message_id: int) -> bool:
        """Whether more than ``bury_after`` newer messages are in the group below ``message_id``. A
        supergroup's ids count its messages; a basic group's ids are the bot's sequence over all its
        chats, so there the newer messages seen in that group are counted."""
        if chat_id >= 0:
            return False
        if self._space(chat_id) != 0:
            return self.latest.get(chat_id, 0) - message_id > self.bury_after
        recent = self.recent.get(chat_id)
        return recent is not None and sum(1 for m in recent if m > message_id) > self.bury_after

    def learn(self, notes: list[tuple[ChatQueue, Any]]) -> None:
        """Where the sends of an earlier process landed or were to land (the notes of the outbox's
        newest rows): each sequence's newest id until this process sees newer messages, so that a
        send right after a restart notes an id close to where it lands."""
        for chat, note in notes:
            # a pending row's note says after which id it was to land; a done row's, where it did
            newest = note.get("id", note.get("after")) if isinstance(note, dict) else None
            if not isinstance(newest, int):
                continue
            try:
                chat_id = split_chat(chat.id)[0]
            except (IndexError, ValueError):
                continue
            if note.get("box", True):
                self.box_top = max(self.box_top, newest)
            else:
                self.supergroups.add(chat_id)
                self.latest[chat_id] = max(self.latest.get(chat_id, 0), newest)

    def _as_sent(self, out: Outbound, row: int) -> tuple[Outbound, int | None]:
        """``out`` as it goes out (a prompt whose match moved on loses its buttons; a keyed picture
        whose text is too long for a caption goes as text) and the match of a prompt's buttons."""
        prompt_match = self._prompt_match(out)
        if prompt_match is not None and self._moved_on(prompt_match, row, out.version):
            out = replace(out, buttons=())
            prompt_match = None
        if out.key is not None and out.image and utf16_len(out.text) > CAPTION_LIMIT:
            out = replace(out, image=None)
        return out, prompt_match

    @staticmethod
    def _one_message(out: Outbound) -> bool:
        if out.image:
            return utf16_len(out.text) <= CAPTION_LIMIT
        return utf16_len(out.text or "…") <= TEXT_LIMIT

    def send_note(self, out: Outbound, ref: str | None) -> dict[str, Any] | None:
        """What to store before ``out`` is sent as one new message: the newest message id known in
        its chat's sequence, after which it will land. None for an edit (idempotent as it is) and
        for a row of several messages (a long text), which is not looked for."""
        target = out.user_id if out.user_id is not None else out.chat_id
        if target is None or (out.key is not None and parse_ref(ref) is not None):
            return None
        sent, _ = self._as_sent(out, 0)
        if not self._one_message(sent):
            return None
        chat_id = split_chat(target)[0]
        return {"after": self.top(chat_id), "box": self._space(chat_id) == 0}

    async def find_sent(self, out: Outbound, ref: str | None, note: Any, txn: str) -> tuple[bool, str | None]:
        """Whether an earlier attempt's message for this row is in the chat, and its reference.

        The Bot API has no idempotency key, but editing a message to exactly what it shows answers
        "message is not modified", and only the bot's own messages can be edited: so the ids after the
        note's are edited to the row's own content, one by one, up to the newest id known since (at
        least ``PROBE_WINDOW``, at most ``MAX_PROBES``). A message of someone else answers "can't be
        edited", an id of another chat or not used yet "not found". No other message of the bot can be
        there: a chat's rows are sent one at a time, so the row's message is the bot's only one in its
        chat after the note."""
        target = out.user_id if out.user_id is not None else out.chat_id
        if target is None or not isinstance(note, dict) or not isinstance(note.get("after"), int):
            return False, None
        assert self.bot is not None
        bot = self.bot
        chat_id, _thread = split_chat(target)
        row = row_of(txn)
        sent, prompt_match = self._as_sent(out, row)
        if not self._one_message(sent):
            return False, None
        after = int(note["after"])
        newest = self.top(chat_id)
        last = min(max(newest, after + PROBE_WINDOW), after + MAX_PROBES)
        mine = set(self.sent_here.get(chat_id, ()))  # sent by this process: not the one sought
        key, group = self._on(chat_id)
        markup = self.markup(sent)
        for message_id in range(after + 1, last + 1):
            if message_id in mine:
                continue
            try:
                if sent.image:
                    await self._call(
                        key,
                        group,
                        functools.partial(
                            bot.edit_message_caption,
                            chat_id,
                            message_id,
                            caption=sent.text,
                            reply_markup=markup,
                        ),
                    )
                else:
                    await self._call(
                        key,
                        group,
                        functools.partial(
                            bot.edit_message_text, sent.text or "…", chat_id, message_id, reply_markup=markup
                        ),
                    )
                log.warning(
                    "a probe edit of %s/%s went through; taking it as the row's message", chat_id, message_id
                )
            except BadRequest as exc:
                if not is_not_modified(exc):
                    continue
            except ChatMigrated:
                return False, None
            except Forbidden as exc:
                raise Blocked(str(exc)) from exc
            self.stats["found"] += 1
            log.info("row %s was sent before the restart: message %s/%s", row, chat_id, message_id)
            self.seen(chat_id, message_id)
            if prompt_match is not None:
                self._new_prompt(chat_id, message_id, prompt_match, row, out.version)
            if out.role == TABLE and out.match_id is not None and out.chat_id is not None:
                self._later(self._table_delivered(out.match_id, row, out.version))
            if out.key is None:
                return True, json.dumps({"id": message_id, "box": self._space(chat_id) == 0})
            return True, json.dumps({"id": message_id, **self._wanted(sent)})
        return False, None

    # ------------------------------------------------------------------------------------------
    # the Transport.deliver of Telegram

    def markup(self, out: Outbound) -> InlineKeyboardMarkup | None:
        """The keyboard of ``out`` (a private message's links into the web view open as a Mini App)."""
        return markup_of(out.buttons, self.web_app if out.private else None)

    async def deliver(self, out: Outbound, ref: str | None, txn: str) -> str | None:
        try:
            return await self._deliver(out, ref, txn)
        except ChatMigrated as exc:
            # the group became a supergroup: move the room (its queue and matches) and send there
            new_chat = int(exc.new_chat_id)
            log.info("chat %s migrated to %s; moving its room", out.chat_id, new_chat)
            if self.on_migrated is not None and out.chat_id is not None:
                await self.on_migrated(split_chat(out.chat_id)[0], new_chat)
            return await self._deliver(replace(out, chat_id=str(new_chat)), None, txn)

    async def _deliver(self, out: Outbound, ref: str | None, txn: str) -> str | None:
        target = out.user_id if out.user_id is not None else out.chat_id
        if target is None:
            return None
        chat_id, thread = split_chat(target)
        row = row_of(txn)
        # a prompt whose match moved on while it waited goes without its stale buttons
        out, prompt_match = self._as_sent(out, row)
        try:
            if out.key is not None and out.user_id is not None:
                # a seat's panel, edited in place at each step of its turn
                async with self._prompt_lock(chat_id):
                    new_ref = await self._keyed(chat_id, out, parse_ref(ref), thread)
                    panel = parse_ref(new_ref)
                    if panel is not None and prompt_match is not None:
                        self._new_prompt(
                            chat_id, int(panel["id"]), prompt_match, row, out.version, keyed=True
                        )
                    elif panel is not None and self.prompts.get(chat_id, {}).get("id") == panel["id"]:
                        # the panel of a turn that ended, without buttons now: nothing to remove later
                        self.prompts[chat_id] = {**self.prompts[chat_id], "id": None}
            elif out.key is not None:
                new_ref = await self._keyed(chat_id, out, parse_ref(ref), thread)
            else:
                message = await self._send_new(chat_id, out, self._reply_to(chat_id, out), thread)
                new_ref = json.dumps({"id": message.message_id, "box": self._space(chat_id) == 0})
                if prompt_match is not None:
                    self._new_prompt(chat_id, message.message_id, prompt_match, row, out.version)
        except Forbidden as exc:
            raise Blocked(str(exc)) from exc
        except BadRequest as exc:  # the message itself is refused: retrying will not help
            log.error("Telegram refused a message to %s: %s", chat_id, exc)
            return None
        if out.role == TABLE and out.match_id is not None and out.chat_id is not None:
            self._later(self._table_delivered(out.match_id, row, out.version))
        return new_ref

    def _later(self, work: Awaitable[None]) -> None:
        """Run prompt bookkeeping after the row is reported sent: the sooner the runtime marks it done,
        the smaller the window in which a crash would send it twice."""

        async def guarded() -> None:
            try:
                await work
            except Exception:
                log.exception("prompt bookkeeping failed")

        task = asyncio.get_running_loop().create_task(guarded())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def settle(self, timeout: float = 10.0) -> None:
        """Until the background keyboard removals are done (tests, stop)."""
        if self.background:
            await asyncio.wait(set(self.background), timeout=timeout)

    @staticmethod
    def _reply_to(chat_id: int, out: Outbound) -> int | None:
        # threads only in groups, where the answer goes to the chat of the command it answers
        if out.reply_to is None or out.key is not None or chat_id >= 0 or not out.reply_to.isdigit():
            return None
        return int(out.reply_to)

    @staticmethod
    def _prompt_match(out: Outbound) -> int | None:
        """The match of a private message whose buttons act on a match (a seat's prompt, or a
        question that offers moves): the chat's newest such message is its live prompt."""
        if out.user_id is None or not out.buttons:
            return None
        return out.match_id

    # ------------------------------------------------------------------------------------------
    # calls

    async def _call(self, chat_key: ChatQueue, group: bool, fn: Callable[[], Awaitable[Any]]) -> Any:
        """Call the Bot API within the limits; retry network errors a few times."""
        attempt = 0
        while True:
            await self.limiter.acquire(chat_key, group)
            try:
                return await fn()
            except RetryAfter as exc:
                self.stats["retry_after"] += 1
                raise RetryLater(retry_seconds(exc)) from exc
            except (BadRequest, Forbidden, ChatMigrated):
                raise
            except NetworkError as exc:
                attempt += 1
                if attempt > NETWORK_RETRIES:
                    raise RetryLater(2.0) from exc
                await asyncio.sleep(0.3 * 2**attempt)
            finally:
                self.limiter.done(chat_key)  # the call counts from its answer on

    @staticmethod
    def _on(chat_id: int) -> tuple[ChatQueue, bool]:
        """The runtime's queue of a Telegram chat (the limiter's key) and whether it is a group."""
        group = chat_id < 0
        return ChatQueue("telegram", GROUP if group else USER, str(chat_id)), group

    async def _send_new(
        self, chat_id: int, out: Outbound, reply_to: int | None, thread: int | None = None
    ) -> Message:
        """Send ``out`` as new message(s), in forum topic ``thread`` if given; returns the last one
        (the one with the buttons)."""
        assert self.bot is not None
        bot = self.bot
        key, group = self._on(chat_id)
        markup = self.markup(out)
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
        message: Message
        image = out.image
        if image:
            caption = out.text if utf16_len(out.text) <= CAPTION_LIMIT else None
            message = await self._call(
                key,
                group,
                lambda: bot.send_photo(
                    chat_id,
                    image,
                    caption=caption,
                    reply_markup=markup if caption is not None else None,
                    reply_parameters=reply,
                    message_thread_id=thread,
                ),
            )
            self._sent(chat_id, message)
            if caption is None:
                message = await self._send_text(chat_id, out.text, markup, None, thread)
        else:
            message = await self._send_text(chat_id, out.text, markup, reply, thread)
        return message

    async def _send_text(
        self,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        reply: ReplyParameters | None,
        thread: int | None = None,
    ) -> Message:
        assert self.bot is not None
        bot = self.bot
        key, group = self._on(chat_id)
        chunks = split_text(text or "…")
        message: Message | None = None
        for i, chunk in enumerate(chunks):
            keyboard = markup if i == len(chunks) - 1 else None
            replying = reply if i == 0 else None
            message = await self._call(
                key,
                group,
                functools.partial(
                    bot.send_message,
                    chat_id,
                    chunk,
                    reply_markup=keyboard,
                    reply_parameters=replying,
                    message_thread_id=thread,
                ),
            )
            self._sent(chat_id, message)
        assert message is not None
        return message

    def _sent(self, chat_id: int, message: Message) -> None:
        self.stats["sent"] += 1
        self.seen(chat_id, message.message_id)
        here = self.sent_here.get(chat_id)
        if here is None:
            here = self.sent_here[chat_id] = collections.deque(maxlen=64)
        here.append(message.message_id)

    def _prompt_lock(self, chat_id: int) -> asyncio.Lock:
        lock = self._prompt_locks.get(chat_id)
        if lock is None:
            lock = self._prompt_locks[chat_id] = asyncio.Lock()
        return lock

    async def _strip(self, chat_id: int, message_id: int) -> None:
        """Remove the keyboard of a prompt that is not the chat's live prompt (any more): a panel
        edited in place since with the buttons of its next step keeps them."""
        assert self.bot is not None
        bot = self.bot
        key, group = self._on(chat_id)
        try:
            async with self._prompt_lock(chat_id):
                if (self.prompts.get(chat_id) or {}).get("id") == message_id:
                    return
                await self._call(
                    key, group, lambda: bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
                )
            self.stats["stripped"] += 1
        except (BadRequest, Forbidden) as exc:  # already without buttons, deleted, or too old
            log.debug("keyboard of %s/%s not removed: %s", chat_id, message_id, exc)
        except RetryLater as exc:  # cosmetic: not worth holding the queue for
            log.info("keyboard of %s/%s not removed: rate limited (%s s)", chat_id, message_id, exc.seconds)

    # ------------------------------------------------------------------------------------------
    # prompts

    def take_live_press(self, chat_id: int, message_id: int, data: str) -> bool:
        """Whether a press of ``data`` on ``message_id`` in a private chat is a first press of the
        chat's live prompt (the newest prompt, of a match that has not moved on since it was
        delivered): the core will almost surely apply it, so it can be answered before the core has
        decided. Counts as that prompt's one press."""
        record = self.prompts.get(chat_id)
        if chat_id <= 0 or record is None or record.get("id") != message_id:
            return False
        pressed = (message_id, int(record.get("row", 0)))
        if self.pressed.get(chat_id) == pressed:
            return False
        found = parse_button(data)
        if found is None or found.match_id != record.get("match"):
            return False
        if record.get("version") is not None and found.version != record["version"]:
            return False  # a key of the panel before its latest edit (pressed as it changed)
        self.pressed[chat_id] = pressed
        return True

    def _new_prompt(
        self,
        chat_id: int,
        message_id: int,
        match_id: int,
        row: int,
        version: int | None = None,
        keyed: bool = False,
    ) -> None:
        """The chat's live prompt is this message now (a new one, or a panel edited with the buttons of
        its next step, ``keyed``), before any await: the next prompt's bookkeeping and a table
        delivered meanwhile see it. Only the newest private prompt keeps its buttons: the one before
        loses them, in the background."""
        record = {"id": message_id, "match": match_id, "row": row, "version": version, "keyed": keyed}
        previous = self.prompts.get(chat_id)
        self.prompts[chat_id] = record
        self._later(self._after_new_prompt(chat_id, record, previous))

    async def _after_new_prompt(
        self, chat_id: int, record: dict[str, Any], previous: dict[str, Any] | None
    ) -> None:
        message_id = record["id"]
        if previous is None and self.load_prompt is not None:
            previous = await self.load_prompt(chat_id)  # the newest prompt of the process before
        if self.save_prompt is not None:
            await self.save_prompt(chat_id, record)
        if previous and previous.get("id") and previous["id"] != message_id:
            await self._strip(chat_id, int(previous["id"]))

    async def _table_delivered(self, match_id: int, row: int, version: int | None) -> None:
        """A newer table of the match is out: prompts of that match drawn at an older version are
        stale, and lose their buttons. Not a seat's panel (a keyed prompt): the panel is edited in
        place at each step, possibly by another process since this one last sent it (each private
        chat is sent by whichever process holds its claim), so this process's memory of it may be
        old; the core disarms a panel through its own key, in its chat's order (the edit of a turn
        that ended has no buttons)."""
        if row <= self.tables.get(match_id, (0, None))[0]:
            return
        self.tables[match_id] = (row, version)
        for chat_id in list(self.prompts):
            record = self.prompts[chat_id]  # now: a panel may have been edited meanwhile
            if (
                record.get("match") == match_id
                and record.get("id")
                and not record.get("keyed")
                and self._moved_on(match_id, int(record.get("row", 0)), record.get("version"))
            ):
                stale = int(record["id"])
                self.prompts[chat_id] = {**record, "id": None}
                if self.save_prompt is not None:
                    await self.save_prompt(chat_id, self.prompts[chat_id])
                await self._strip(chat_id, stale)

    def _moved_on(self, match_id: int, row: int, version: int | None) -> bool:
        """Whether a prompt of ``match_id`` drawn at ``version`` (its outbox row ``row``) is older
        than the newest table of its match delivered here: by the versions when both are known (a
        table drawn again at the same version, later, leaves the prompt live), else by the rows."""
        table_row, table_version = self.tables.get(match_id, (0, None))
        if table_version is not None and version is not None:
            return table_version > version
        return table_row > row

    # ------------------------------------------------------------------------------------------
    # keyed messages

    async def _keyed(
        self, chat_id: int, out: Outbound, record: dict[str, Any] | None, thread: int | None = None
    ) -> str | None:
        assert self.bot is not None
        bot = self.bot
        key, group = self._on(chat_id)
        if out.image and utf16_len(out.text) > CAPTION_LIMIT:
            out = replace(out, image=None)  # one message per key: the text is the fallback
        wanted = self._wanted(out)
        if record:
            message_id = int(record["id"])
            buried = self._buried(chat_id, message_id)
            same_kind = bool(record.get("photo")) == bool(out.image)
            # a text over one message cannot be edited into place: it goes out anew, split
            fits = bool(out.image) or utf16_len(out.text) <= TEXT_LIMIT
            # a panel whose keyboard was removed meanwhile gets its buttons back even if unchanged
            disarmed = (
                bool(out.buttons)
                and out.user_id is not None
                and ((self.prompts.get(chat_id) or {}).get("id") != message_id)
            )
            if not buried and same_kind and fits:
                if all(record.get(k) == v for k, v in wanted.items()) and not disarmed:
                    self.stats["skipped"] += 1
                    return json.dumps({"id": message_id, **wanted})
                try:
                    await self._edit(chat_id, message_id, out, record)
                    self.stats["edited"] += 1
                    return json.dumps({"id": message_id, **wanted})
                except BadRequest as exc:
                    if is_not_modified(exc):
                        return json.dumps({"id": message_id, **wanted})
                    log.info("edit of %s/%s failed (%s); sending anew", chat_id, message_id, exc)
            message = await self._send_new(chat_id, out, None, thread)
            with contextlib.suppress(TelegramError, RetryLater):
                await self._call(key, group, lambda: bot.delete_message(chat_id, message_id))
            return json.dumps({"id": message.message_id, **wanted})
        message = await self._send_new(chat_id, out, None, thread)
        return json.dumps({"id": message.message_id, **wanted})

    @staticmethod
    def _wanted(out: Outbound) -> dict[str, Any]:
        """What a keyed message's reference records of its content."""
        return {
            "text": digest(out.text),
            "markup": buttons_json(out.buttons),
            "photo": bool(out.image),
            "image": digest(out.image),
        }

    async def _edit(self, chat_id: int, message_id: int, out: Outbound, record: dict[str, Any]) -> None:
        assert self.bot is not None
        bot = self.bot
        key, group = self._on(chat_id)
        markup = self.markup(out)
        image = out.image
        if image:
            if record.get("image") == digest(image):
                await self._call(
                    key,
                    group,
                    lambda: bot.edit_message_caption(
                        chat_id, message_id, caption=out.text, reply_markup=markup
                    ),
                )
            else:
                await self._call(
                    key,
                    group,
                    lambda: bot.edit_message_media(
                        InputMediaPhoto(image, caption=out.text), chat_id, message_id, reply_markup=markup
                    ),
                )
        elif record.get("text") == digest(out.text):
            await self._call(
                key, group, lambda: bot.edit_message_reply_markup(chat_id, message_id, reply_markup=markup)
            )
        else:
            await self._call(
                key,
                group,
                lambda: bot.edit_message_text(out.text, chat_id, message_id, reply_markup=markup),
            )
