"""The Telegram transport: python-telegram-bot v22 on the :class:`~chatbot.runtime.Runtime`.

It only translates: an update becomes an :class:`Inbound` (``update_key`` = the update id, so a
redelivered update is applied once) for :meth:`Runtime.handle`; an outbox row becomes Bot API calls
in :mod:`.delivery` (the runtime's ``Transport.deliver``). Everything after the core (the outbox,
the deadlines, retries, rate limits, a restart) is the runtime's; the use cases are the core's:
the deep-link join is the core's ``/start join-<match>`` and a private chat that refuses the bot
(403) is the core's ``private_blocked``, which holds that user's private messages and posts one
notice with the deep link ``https://t.me/<bot>?start=join-<match>`` in the group.

UX choices:

* the first press of a player's live private prompt (the newest one, of a match that has not
  moved on since) is answered (answerCallbackQuery) at once, while the core decides: it is almost
  surely applied. Any other press is answered as soon as the core has committed (AI moves and
  delivery come after); when the core's whole answer is one short plain reply to the presser
  ("that button is stale", "it is not your turn"), it is shown as the callback's toast instead of a
  chat message, so wrong presses do not clutter the group. While the database is away every press
  waits for the core, so its apology is the toast;
* only the newest private prompt keeps its buttons, and a prompt loses them as soon as its match
  moves on (the player acted by text, in the group, or it is someone else's turn now).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
import time
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from telegram import (
    BotCommand,
    BotCommandScopeDefault,
    CallbackQuery,
    MessageEntity,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import BadRequest, RetryAfter, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from chatbot.core import i18n
from chatbot.core.access import AdminCache
from chatbot.core.ports import Transport
from chatbot.core.types import Inbound, Outbound
from chatbot.runtime import Runtime, Settings
from chatbot.runtime.limits import Limits, RateLimiter, telegram_limits
from chatbot.transports.telegram.delivery import Sender, chat_key, retry_seconds, split_chat, utf16_len
from chatbot.transports.telegram.request import bot_request

log = logging.getLogger(__name__)

PLATFORM = "telegram"
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
NS_PROMPT = "telegram.prompt"
TOAST_LIMIT = 200
#: HTTP connections for Bot API calls; the runtime keeps fewer requests than this in flight
POOL_SIZE = 32
#: seconds between two AI moves in a chat (``TELEGRAM_AI_DELAY``), so that people can follow the
#: table; the transport made in tests and benchmarks moves them at once unless told
AI_DELAY = 1.5

#: (Finnish name, English name, English msgid of the description); names are ASCII (Telegram)
COMMANDS = (
    ("uusi", "new", "set up a new game"),
    ("liity", "join", "take a seat at the table"),
    ("aloita", "start", "start the game"),
    ("saannot", "rules", "explain the rules"),
    ("kieli", "lang", "choose the language"),
    ("tila", "status", "show the table"),
    ("tilastot", "stats", "who has won, game by game"),
    ("historia", "history", "the games played here, to watch again"),
    ("uusinta", "rematch", "the finished game again with the same players"),
    ("apua", "help", "help and commands"),
)


def _describe(t: i18n.Translator, msgid: str) -> str:
    # literal msgids for the catalog tool; the table above names the same texts
    texts = {
        "set up a new game": t.gettext("set up a new game"),
        "take a seat at the table": t.gettext("take a seat at the table"),
        "start the game": t.gettext("start the game"),
        "explain the rules": t.gettext("explain the rules"),
        "choose the language": t.gettext("choose the language"),
        "show the table": t.gettext("show the table"),
        "who has won, game by game": t.gettext("who has won, game by game"),
        "the games played here, to watch again": t.gettext("the games played here, to watch again"),
        "the finished game again with the same players": t.gettext(
            "the finished game again with the same players"
        ),
        "help and commands": t.gettext("help and commands"),
    }
    return texts[msgid]


def bot_commands(lang: str) -> list[BotCommand]:
    t = i18n.translator(lang)
    return [BotCommand(fi if lang == "fi" else en, _describe(t, msgid)) for fi, en, msgid in COMMANDS]


def coalesce(outs: Sequence[Outbound]) -> list[Outbound]:
    """Keep only the last of several messages with the same key for the same chat: every table
    text already carries the recent event lines."""
    last: dict[tuple[str | None, str | None, str], int] = {}
    for i, out in enumerate(outs):
        if out.key is not None:
            last[(out.chat_id, out.user_id, out.key)] = i
    return [
        out for i, out in enumerate(outs) if out.key is None or last[(out.chat_id, out.user_id, out.key)] == i
    ]


class TelegramMembers:
    """The core's :class:`~chatbot.core.ports.Members` port on Telegram: ``getChatMember`` says
    whether a user is an administrator or the creator of a group, remembered for ``ttl`` seconds.

    The core asks on its own thread; the question goes to the event loop's Bot API client and the
    core waits for the answer (at most ``timeout`` seconds). On the loop's own thread (an inline
    core) nothing can be waited for: an uncached answer is then "unknown"."""

    def __init__(self, ttl: float = 60.0, timeout: float = 5.0) -> None:
        self.cache = AdminCache(ttl)
        self.timeout = timeout
        self.bot: Any = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.asked = 0

    def is_admin(self, chat_id: str, user_id: str) -> bool | None:
        chat_id = str(split_chat(chat_id)[0])  # a forum topic's admins are the group's
        cached = self.cache.get(chat_id, user_id)
        if cached is not None:
            return cached
        loop, bot = self.loop, self.bot
        if loop is None or bot is None or loop.is_closed():
            return None
        try:
            on_loop = asyncio.get_running_loop() is loop
        except RuntimeError:
            on_loop = False
        if on_loop:
            log.warning("getChatMember cannot be awaited on the event loop's own thread")
            return None
        future = asyncio.run_coroutine_threadsafe(self._ask(bot, chat_id, user_id), loop)
        try:
            admin = future.result(timeout=self.timeout)
        except Exception as exc:  # the platform could not tell: not an admin for now, asked again later
            future.cancel()
            log.warning("getChatMember(%s, %s) failed: %s", chat_id, user_id, exc)
            return None
        self.cache.put(chat_id, user_id, admin)
        return admin

    async def _ask(self, bot: Any, chat_id: str, user_id: str) -> bool:
        self.asked += 1
        member = await bot.get_chat_member(int(chat_id), int(user_id))
        return member.status in {ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER}


def display_name(user: User) -> str:
    return user.first_name or user.username or str(user.id)


def api_urls(api_url: str | None) -> tuple[str | None, str | None]:
    """``TELEGRAM_API_URL`` (a Bot API server root) → PTB's ``base_url`` and ``base_file_url``."""
    if not api_url:
        return None, None
    root = api_url.rstrip("/")
    root = root.removesuffix("/bot")
    return f"{root}/bot", f"{root}/file/bot"


class TelegramTransport(Transport):
    """One bot: the PTB :class:`Application` (``.application``), the Bot API side of delivery
    (``.sender``) and the runtime that drives the core (``.runtime``).

    Tests drive it in-process with :meth:`start` and :meth:`stop`; :func:`main` runs it with PTB's
    ``run_polling`` / ``run_webhook``.
    """

    platform = PLATFORM
    #: the sender acquires the rate limiter per Bot API call (a row may take several)
    limits_calls = True

    def __init__(
        self,
        core: Any,
        token: str,
        *,
        base_url: str | None = None,
        limits: Limits | None = None,
        bury_after: int = 12,
        drain_timeout: float = 10.0,
        settings: Settings | None = None,
        ai_delay: float | None = None,
    ) -> None:
        self.username: str | None = None
        if ai_delay is not None and hasattr(core, "ai_delay"):
            # AI turns are deadlines due this long after the change before: people can follow them
            core.ai_delay = ai_delay
        #: a mention of this bot in a text ("@bot liity"), known once getMe has answered
        self._mention: re.Pattern[str] | None = None
        #: who administers a group (issue #13), for the core's roles
        self.members = TelegramMembers()
        if isinstance(getattr(core, "members", None), dict):
            core.members[PLATFORM] = self.members
        #: whether the bot sees plain group messages (getMe's can_read_all_group_messages)
        self.group_text_visible = True
        # wall time: a chat's window is shared with the other workers through the database
        self.limiter = RateLimiter(limits if limits is not None else telegram_limits(), clock=time.time)
        self.sender = Sender(self.limiter, bury_after=bury_after)
        self.sender.save_prompt = self._save_prompt
        self.sender.load_prompt = self._load_prompt
        self.sender.on_migrated = self._migrated
        base = settings or Settings()
        self.runtime = Runtime(
            core,
            self,
            settings=dataclasses.replace(
                base, drain_timeout=drain_timeout, max_in_flight=min(base.max_in_flight, POOL_SIZE - 4)
            ),
        )
        self._dispatching: set[asyncio.Task[None]] = set()
        self._poller: asyncio.Task[None] | None = None
        api, files = api_urls(base_url)
        builder = (
            ApplicationBuilder()
            .token(token)
            .request(bot_request(POOL_SIZE))
            .get_updates_request(bot_request(1))
            .post_init(self._post_init)
            .post_stop(self._post_stop)
        )
        if api and files:
            builder = builder.base_url(api).base_file_url(files)
        self.application: Application = builder.build()
        self.application.bot_data["transport"] = self
        app = self.application
        app.add_handler(CallbackQueryHandler(self._on_button))
        app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & filters.TEXT, self._on_text))
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self._on_migrate))
        app.add_handler(ChatMemberHandler(self._on_my_membership, ChatMemberHandler.MY_CHAT_MEMBER))
        app.add_error_handler(self._on_error)

    @property
    def core(self) -> Any:
        return self.runtime.core

    @property
    def stats(self) -> dict[str, int]:
        return {"updates": self.runtime.stats.updates, "duplicates": self.runtime.stats.duplicates}

    @property
    def link_template(self) -> str | None:
        """The deep link the core puts in its "open the private chat" notice."""
        return f"https://t.me/{self.username}?start={{payload}}" if self.username else None

    # ------------------------------------------------------------------------------------------
    # lifecycle

    async def start(self, *, poll_timeout: float = 10.0) -> None:
        """Start long polling in-process (tests; :func:`main` adds the signal handling)."""
        app = self.application
        await app.initialize()
        await self._post_init(app)
        await app.start()
        await app.bot.delete_webhook(drop_pending_updates=False)
        self._poller = asyncio.create_task(self._poll(poll_timeout), name="telegram-poll")

    async def _poll(self, timeout: float) -> None:
        """getUpdates, handle every update (the core commits it with its id), only then confirm it
        (the next call's ``offset``): an update fetched by a process that dies is fetched again by
        the next one and, if it had been committed, deduplicated by its id."""
        bot = self.application.bot
        offset: int | None = None
        backoff = 0.5
        while True:
            try:
                updates = await bot.get_updates(
                    offset=offset,
                    timeout=timedelta(seconds=timeout),
                    allowed_updates=ALLOWED_UPDATES,
                    read_timeout=timeout + 10,
                )
            except asyncio.CancelledError:
                raise
            except RetryAfter as exc:
                await asyncio.sleep(retry_seconds(exc))
                continue
            except TelegramError as exc:
                log.warning("getUpdates failed (%s); again in %.1f s", exc, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 30.0)
                continue
            backoff = 0.5
            if not updates:
                continue
            await asyncio.gather(*(self.application.process_update(u) for u in updates))
            newest = max(u.update_id for u in updates) + 1
            offset = newest if offset is None else max(offset, newest)

    async def stop(self) -> None:
        """Stop polling, let the rows being sent finish (bounded), and release everything."""
        app = self.application
        poller = self._poller
        if poller is not None:
            poller.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await poller
            self._poller = None
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
        await self._post_stop(app)
        await app.shutdown()

    async def idle(self, timeout: float = 10.0) -> bool:
        """Wait until nothing waits to be sent (tests and the benchmark)."""
        if self._dispatching:
            await asyncio.wait(set(self._dispatching), timeout=timeout)
        done = await self.runtime.idle(timeout)
        await self.sender.settle(timeout)
        return done

    async def _post_init(self, app: Application) -> None:
        if self.sender.bot is not None:
            return  # run_polling calls post_init after start() did
        self.sender.bot = app.bot
        self.members.bot = app.bot
        self.members.loop = asyncio.get_running_loop()
        self.username = app.bot.username
        if self.username:
            self._mention = re.compile(rf"(?<![\w/])@{re.escape(self.username)}\b[,:]?", re.IGNORECASE)
        # privacy mode (Telegram's default): in groups the bot gets only commands, replies to its
        # own messages and mentions; the core then says so in the lobby and on the table
        self.group_text_visible = bool(app.bot.can_read_all_group_messages)
        try:  # where the process before sent last: the message ids to look after on a restart
            self.sender.learn(await self.runtime.book(self.runtime.store.outbox_notes, PLATFORM))
        except Exception as exc:  # the database is away: learnt from the next messages instead
            log.warning("could not read the outbox's send notes: %s", exc)
        await self._set_commands(app)
        await self.runtime.start()  # pending rows of an earlier run go out now, fresh ones first

    async def _post_stop(self, app: Application) -> None:
        await self.runtime.stop()
        await self.sender.settle(5.0)

    async def _set_commands(self, app: Application) -> None:
        try:
            await app.bot.set_my_commands(bot_commands("fi"), scope=BotCommandScopeDefault())
            await app.bot.set_my_commands(
                bot_commands("fi"), scope=BotCommandScopeDefault(), language_code="fi"
            )
            await app.bot.set_my_commands(
                bot_commands("en"), scope=BotCommandScopeDefault(), language_code="en"
            )
        except TelegramError as exc:  # cosmetic: the bot works without the command menu
            log.warning("setMyCommands failed: %s", exc)

    async def _save_prompt(self, chat_id: int, record: dict[str, Any]) -> None:
        await self.runtime.kv_set(NS_PROMPT, str(chat_id), record)

    async def _load_prompt(self, chat_id: int) -> dict[str, Any] | None:
        record = await self.runtime.kv_get(NS_PROMPT, str(chat_id))
        return record if isinstance(record, dict) else None

    # ------------------------------------------------------------------------------------------
    # Transport.deliver

    async def deliver(self, out: Outbound, ref: str | None, txn: str) -> str | None:
        return await self.sender.deliver(out, ref, txn)

    def send_note(self, out: Outbound, ref: str | None) -> dict[str, Any] | None:
        return self.sender.send_note(out, ref)

    async def find_sent(self, out: Outbound, ref: str | None, note: Any, txn: str) -> tuple[bool, str | None]:
        return await self.sender.find_sent(out, ref, note, txn)

    # ------------------------------------------------------------------------------------------
    # updates

    async def _on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A text message in a group or in private: to the core, with Telegram's language hint."""
        msg = update.message
        if msg is None or msg.text is None or msg.from_user is None or msg.from_user.is_bot:
            return
        user = msg.from_user
        chat = msg.chat
        self.sender.seen(chat.id, msg.message_id, chat.type == ChatType.SUPERGROUP)
        text = self.clean_text(msg.text)
        if text is None:
            return
        mentions, handles = self.mentions(msg)
        inbound = Inbound(
            PLATFORM,
            str(user.id),
            display_name(user),
            chat_of_message(msg),
            chat.type == ChatType.PRIVATE,
            text=text,
            lang_hint=user.language_code,
            message_id=str(msg.message_id),
            update_key=str(update.update_id),
            addressed=self.addressed(msg.text, msg.reply_to_message),
            mentions=mentions,
            handles=handles,
            reply_to_user=self.replied_to(msg),
            user_handle=user.username,
        )
        await self.runtime.handle(inbound)

    async def _on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group upgraded to a supergroup: Telegram says so in both chats (``migrate_to_chat_id`` in
        the old one, ``migrate_from_chat_id`` in the new one); the first notice moves the room."""
        msg = update.effective_message
        if msg is None:
            return
        if msg.migrate_to_chat_id:
            await self._migrated(msg.chat.id, msg.migrate_to_chat_id)
        elif msg.migrate_from_chat_id:
            await self._migrated(msg.migrate_from_chat_id, msg.chat.id)

    async def _on_my_membership(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot was added to, removed from or banned in a group: its match there pauses while the
        bot is out and resumes when it is back; added to a group without a game, it greets it in
        the language of whoever added it (private chats: a user blocking the bot is handled when a
        send is refused)."""
        change = update.my_chat_member
        if change is None or change.chat.type == ChatType.PRIVATE:
            return
        present = change.new_chat_member.status in {"member", "administrator", "creator"} or (
            change.new_chat_member.status == "restricted"
            and bool(getattr(change.new_chat_member, "is_member", False))
        )
        was = change.old_chat_member.status in {"member", "administrator", "creator", "restricted"}
        if present == was:
            return  # a promotion or a change of rights: still in the group
        adder = getattr(change.from_user, "language_code", None) if present else None
        await self.runtime.perform(self.core.bot_presence, PLATFORM, str(change.chat.id), present, adder)

    async def _migrated(self, old_chat: int, new_chat: int) -> None:
        self.sender.latest.pop(old_chat, None)
        await self.runtime.perform(self.core.move_chat, PLATFORM, str(old_chat), str(new_chat))

    async def _on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button press: the core decides, the query is answered at once, delivery follows."""
        query = update.callback_query
        assert query is not None
        message = query.message
        if message is None or query.data is None:
            await self._answer(query, None)
            return
        user = query.from_user
        chat = message.chat
        self.sender.seen(chat.id, message.message_id, chat.type == ChatType.SUPERGROUP)
        inbound = Inbound(
            PLATFORM,
            str(user.id),
            display_name(user),
            chat_of_message(message),
            chat.type == ChatType.PRIVATE,
            button=query.data,
            lang_hint=user.language_code,
            update_key=str(update.update_id),
            user_handle=user.username,
        )
        if self.runtime.storage_ok and self.sender.take_live_press(chat.id, message.message_id, query.data):
            # the live prompt's first press: answered at once, before the core decides (the rare
            # press the core refuses after all, a race with a timer, is then answered as a message).
            # Answered first, then handed to the core: the core's thread would hold the interpreter
            # while the answer's request is being written (bench_echo, SQLite: 9.4 ms -> 3.2 ms median)
            await self._answer(query, None)
            await self.runtime.handle(inbound)
            return
        toast: list[str] = []

        def take(outs: list[Outbound]) -> Outbound | None:
            if len(outs) == 1 and self._is_short_reply(outs[0], user.id, inbound.chat_id):
                toast.append(outs[0].text)
                return outs[0]
            return None

        answered: list[bool] = []

        async def answer(_outs: list[Outbound]) -> None:
            answered.append(True)
            await self._answer(query, toast[0] if toast else None)

        # the press is answered before the deliverer is woken (the query's answer does not wait
        # behind the rows' bookkeeping); a duplicate update (no ``first``) is answered all the same
        await self.runtime.handle(inbound, take=take, first=answer)
        if not answered:
            await self._answer(query, None)

    @staticmethod
    def _is_short_reply(out: Outbound, user_id: int, chat_id: int | str) -> bool:
        """Whether ``out`` is a short plain answer to the presser (``chat_id`` is the core's chat
        key: a forum topic's own)."""
        return (
            out.key is None
            and not out.buttons
            and out.image is None
            and utf16_len(out.text) <= TOAST_LIMIT
            and (out.user_id == str(user_id) or out.chat_id == str(chat_id))
        )

    async def _answer(self, query: CallbackQuery, text: str | None) -> None:
        for _ in range(3):
            try:
                await query.answer(text=text)
                return
            except RetryAfter as exc:
                await asyncio.sleep(retry_seconds(exc))
            except BadRequest as exc:  # too old, or already answered
                log.info("callback query not answered: %s", exc)
                return
            except TelegramError as exc:
                log.warning("answerCallbackQuery failed: %s", exc)
                return

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("error while handling an update", exc_info=context.error)

    def addressed(self, text: str, reply_to: Any = None) -> bool:
        """Whether a group text is meant for the bot (issue #15): a command, a mention of it, or a
        reply to one of its messages; such a text always gets an answer."""
        if text.strip().startswith("/") or (self._mention is not None and self._mention.search(text)):
            return True
        replied = getattr(reply_to, "from_user", None)
        bot_id = getattr(self.sender.bot, "id", None)
        return replied is not None and bot_id is not None and getattr(replied, "id", None) == bot_id

    def mentions(self, msg: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Whom a message names (issue #27: a seat goes to a person, not a name): the users of its
        text mentions (a person picked from the list, who has no username), and its "@username"
        mentions as handles, which the core knows from the people it has seen; the bot left out."""
        ids: list[str] = []
        handles: list[str] = []
        found = msg.parse_entities([MessageEntity.MENTION, MessageEntity.TEXT_MENTION])
        for entity, text in found.items():
            if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
                if not entity.user.is_bot:
                    ids.append(str(entity.user.id))
            elif entity.type == MessageEntity.MENTION:
                handle = text.lstrip("@")
                if handle and (self.username is None or handle.casefold() != self.username.casefold()):
                    handles.append(handle)
        return tuple(dict.fromkeys(ids)), tuple(dict.fromkeys(handles))

    @staticmethod
    def replied_to(msg: Any) -> str | None:
        """The author of the message this one answers; None for no reply, a reply to a bot, and the
        implicit reply every message of a forum topic carries to the topic's first message."""
        replied = msg.reply_to_message
        author = getattr(replied, "from_user", None)
        if replied is None or author is None or author.is_bot:
            return None
        if getattr(msg, "is_topic_message", False) and replied.message_id == msg.message_thread_id:
            return None
        return str(author.id)

    def clean_text(self, text: str) -> str | None:
        """``/cmd@thisbot args`` → ``/cmd args``; None for a command addressed to another bot; a
        mention of this bot anywhere is taken out ("@bot liity" → "liity", as privacy mode delivers it)."""
        text = text.strip()
        if self._mention is not None and not text.startswith("/") and self._mention.search(text):
            # only the mention goes (and the spaces it leaves): the rest of the text, its line breaks
            # included, is as written
            text = re.sub(r"[ \t]{2,}", " ", self._mention.sub(" ", text)).strip()
        if not text.startswith("/"):
            return text
        parts = text.split(maxsplit=1)
        command, at, target = parts[0].partition("@")
        if at and self.username and target.casefold() != self.username.casefold():
            return None
        return command + (" " + parts[1] if len(parts) > 1 else "")

    # ------------------------------------------------------------------------------------------
    # for tests: messages that no use case made

    def dispatch(self, outs: Sequence[Outbound]) -> None:
        """Queue ``outs`` in the outbox as if the core had committed them, and deliver them."""

        async def add() -> None:
            await self.runtime.call(self.core.repo.outbox_add, list(outs))
            self.runtime.wake()

        task = asyncio.get_running_loop().create_task(add())
        self._dispatching.add(task)
        task.add_done_callback(self._dispatching.discard)


def chat_of_message(message: Any) -> str:
    """Where a message was written, as the core knows chats: a forum topic is a chat of its own
    (``<chat>:<topic>``), so two topics of one group can host two games; the General topic and
    groups without topics are the chat itself."""
    thread = message.message_thread_id if getattr(message, "is_topic_message", False) else None
    return chat_key(message.chat.id, thread)


def start_payload(text: str) -> str | None:
    """The payload of a private ``/start`` (``""`` when bare), or None for other texts."""
    parts = text.split(maxsplit=1)
    if not parts or parts[0].casefold() != "/start":
        return None
    return parts[1].strip() if len(parts) > 1 else ""


def build_transport(core: Any, token: str, base_url: str | None = None, **kwargs: Any) -> TelegramTransport:
    """A transport over ``core``; ``base_url`` is a Bot API server root (``TELEGRAM_API_URL``)."""
    return TelegramTransport(core, token, base_url=base_url, **kwargs)


def build_application(core: Any, token: str, base_url: str | None = None, **kwargs: Any) -> Application:
    """The PTB Application; its transport is ``application.bot_data["transport"]``."""
    return build_transport(core, token, base_url, **kwargs).application
