"""The Telegram transport: python-telegram-bot v22 in front of :class:`~chatbot.core.service.BotCore`.

Updates become :class:`Inbound` messages; the core's answers (plus every AI move that follows)
go to :class:`~chatbot.transports.telegram.delivery.Delivery`. The core is synchronous and owns the
database, so every call into it (and every key-value read or write) runs on one worker thread, in
order; the event loop stays free for Telegram traffic.

UX choices:

* a button press is answered (answerCallbackQuery) as soon as the core has decided; when the
  core's whole answer is one short plain reply to the presser ("that button is stale", "it is not
  your turn"), it is shown as the callback's toast instead of a chat message, so wrong presses do
  not clutter the group;
* only the newest private prompt keeps its buttons, and a prompt loses them as soon as its match
  moves on (the player acted by text, in the group, or it is someone else's turn now);
* a player who never opened the bot gets one notice per match in the group, with a deep link
  ``https://t.me/<bot>?start=join-<match>``; their private messages wait in storage and arrive
  when they open the chat (through the link, /start, or any private message). Opening the link
  also seats them when the match is still in its lobby.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import re
import sys
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TypeVar
from urllib.parse import urlsplit

from telegram import (
    BotCommand,
    BotCommandScopeDefault,
    CallbackQuery,
    Update,
    User,
)
from telegram.constants import ChatType
from telegram.error import BadRequest, RetryAfter, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from chatbot.core import i18n
from chatbot.core.ports import LOBBY, RUNNING
from chatbot.core.types import Button, Inbound, Outbound
from chatbot.transports.telegram.delivery import Delivery, KvStore, retry_seconds
from chatbot.transports.telegram.limiter import Limits, RateLimiter

log = logging.getLogger(__name__)

PLATFORM = "telegram"
ALLOWED_UPDATES = ["message", "callback_query"]
NS_STATE = "telegram.state"
NS_NOTICE = "telegram.notice"
SEEN_KEEP = 1000
#: seconds between checks of the stored turn deadlines
TIMER_EVERY = 15.0
SEEN_PERSIST = 200
TOAST_LIMIT = 200
JOIN_PAYLOAD = re.compile(r"join-(\d+)")
TABLE_KEY = re.compile(r"table:(\d+)")

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Batch:
    """What the core said for one update (AI moves included) and the versions of the matches whose
    tables it shows (to remove outdated private buttons)."""

    outs: list[Outbound]
    versions: dict[int, int] = field(default_factory=dict)


#: (Finnish name, English name, English msgid of the description); names are ASCII (Telegram)
COMMANDS = (
    ("uusi", "new", "set up a new game"),
    ("liity", "join", "take a seat at the table"),
    ("aloita", "start", "start the game"),
    ("saannot", "rules", "explain the rules"),
    ("kieli", "lang", "choose the language"),
    ("tila", "status", "show the table"),
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


def display_name(user: User) -> str:
    return user.first_name or user.username or str(user.id)


def api_urls(api_url: str | None) -> tuple[str | None, str | None]:
    """``TELEGRAM_API_URL`` (a Bot API server root) → PTB's ``base_url`` and ``base_file_url``."""
    if not api_url:
        return None, None
    root = api_url.rstrip("/")
    root = root.removesuffix("/bot")
    return f"{root}/bot", f"{root}/file/bot"


class TelegramTransport:
    """One bot: the PTB :class:`Application` (``.application``), the core, and the delivery queues.

    Tests drive it in-process with :meth:`start` and :meth:`stop`; :func:`main` runs it with PTB's
    ``run_polling`` / ``run_webhook``.
    """

    def __init__(
        self,
        core: Any,
        token: str,
        *,
        base_url: str | None = None,
        limits: Limits | None = None,
        bury_after: int = 12,
        drain_timeout: float = 10.0,
    ) -> None:
        self.core = core
        self.username: str | None = None
        self.drain_timeout = drain_timeout
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="telegram-core")
        self.store = KvStore(core.repo, self.run_core)
        self.delivery = Delivery(
            self.store, RateLimiter(limits), bury_after=bury_after, on_forbidden=self._on_forbidden
        )
        self._seen: OrderedDict[int, None] = OrderedDict()
        self.stats = {"updates": 0, "duplicates": 0}
        api, files = api_urls(base_url)
        builder = (
            ApplicationBuilder()
            .token(token)
            .post_init(self._post_init)
            .post_stop(self._post_stop)
            .post_shutdown(self._post_shutdown)
        )
        if api and files:
            builder = builder.base_url(api).base_file_url(files)
        self.application: Application = builder.build()
        self.application.bot_data["transport"] = self
        app = self.application
        app.add_handler(TypeHandler(Update, self._dedupe), group=-1)
        app.add_handler(CallbackQueryHandler(self._on_button))
        app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & filters.TEXT, self._on_text))
        app.add_error_handler(self._on_error)

    # ------------------------------------------------------------------------------------------
    # lifecycle

    async def start(self, *, poll_timeout: float = 10.0) -> None:
        """Start in-process long polling (what ``run_polling`` does, minus the signal handling)."""
        app = self.application
        await app.initialize()
        await self._post_init(app)
        assert app.updater is not None
        await app.updater.start_polling(
            poll_interval=0, timeout=timedelta(seconds=poll_timeout), allowed_updates=ALLOWED_UPDATES
        )
        await app.start()

    async def stop(self) -> None:
        """Stop polling, let queued messages go out (bounded), and release everything."""
        app = self.application
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
        await self._post_stop(app)
        await app.shutdown()
        await self._post_shutdown(app)

    async def idle(self, timeout: float = 10.0) -> bool:
        """Wait until nothing waits to be sent (tests and the benchmark)."""
        return await self.delivery.join(timeout)

    async def _post_init(self, app: Application) -> None:
        self.delivery.bot = app.bot
        self.username = app.bot.username
        seen = await self.run_core(self.core.repo.kv_get, NS_STATE, "updates") or []
        for update_id in seen:
            self._seen[int(update_id)] = None
        await self._set_commands(app)
        # after a restart: bring every running table up to date and let waiting AI seats move
        self.dispatch(await self.run_core(self._restart_batch))
        self._timer_task = asyncio.create_task(self._timer_loop(), name="telegram-timers")

    async def _timer_loop(self) -> None:
        """Turn reminders and moves for idle seats; the deadlines live in the database."""
        while True:
            await asyncio.sleep(TIMER_EVERY)
            try:
                self.dispatch(await self.run_core(self._tick_batch))
            except Exception:  # a failing tick must not stop the timers
                log.exception("timer tick failed")

    def _tick_batch(self) -> Batch:
        return self._with_versions([*self.core.tick(), *self._run_ai()])

    async def _post_stop(self, app: Application) -> None:
        task = getattr(self, "_timer_task", None)
        if task is not None:
            task.cancel()
        if not await self.delivery.join(self.drain_timeout):
            log.warning("stopping with %d undelivered jobs", self.delivery.pending_jobs())
        await self.delivery.close()

    async def _post_shutdown(self, app: Application) -> None:
        self._executor.shutdown(wait=True)

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

    # ------------------------------------------------------------------------------------------
    # the core thread

    async def run_core(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the core's thread (calls run one at a time, in order)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args))

    def _run_ai(self) -> list[Outbound]:
        out: list[Outbound] = []
        for _ in range(10):  # a finished AI run may leave another match waiting; bounded anyway
            pending = self.core.ai_pending()
            if not pending:
                break
            for match_id in pending:
                try:
                    out.extend(self.core.run_ai(match_id))
                except Exception:
                    log.exception("AI move failed in match %s", match_id)
        return out

    def _batch(self, inbounds: Sequence[Inbound], seen: list[int] | None) -> Batch:
        out: list[Outbound] = []
        for inbound in inbounds:
            out.extend(self.core.handle(inbound))
        out.extend(self._run_ai())
        if seen is not None:  # after the core has committed: a redelivered update is skipped
            self.core.repo.kv_set(NS_STATE, "updates", seen)
        return self._with_versions(out)

    def _with_versions(self, outs: list[Outbound]) -> Batch:
        """The batch and the current version of each match whose table it shows."""
        versions: dict[int, int] = {}
        for out in outs:
            found = TABLE_KEY.fullmatch(out.key or "")
            if found and int(found[1]) not in versions:
                match = self.core.repo.match(int(found[1]))
                if match is not None:
                    versions[match.id] = match.version
        return Batch(outs, versions)

    def _restart_batch(self) -> Batch:
        return self._with_versions([*self.core.table_messages(), *self._run_ai()])

    # ------------------------------------------------------------------------------------------
    # updates

    async def _dedupe(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Apply an update once: Telegram may send one again after a crash or a webhook retry."""
        if update.update_id in self._seen:
            self.stats["duplicates"] += 1
            log.info("duplicate update %s ignored", update.update_id)
            raise ApplicationHandlerStop
        self._seen[update.update_id] = None
        while len(self._seen) > SEEN_KEEP:
            self._seen.popitem(last=False)
        self.stats["updates"] += 1

    def _seen_snapshot(self) -> list[int]:
        return list(self._seen)[-SEEN_PERSIST:]

    async def _on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A text message in a group or in private: to the core, with Telegram's language hint."""
        msg = update.message
        if msg is None or msg.text is None or msg.from_user is None or msg.from_user.is_bot:
            return
        user = msg.from_user
        chat = msg.chat
        self.delivery.seen(chat.id, msg.message_id)
        private = chat.type == ChatType.PRIVATE
        text = self.clean_text(msg.text)
        if text is None:
            return
        if private:
            payload = start_payload(text)
            if payload is not None:
                await self._open_private(user, payload, update.update_id)
                return
            await self._opened(user.id)
        inbound = Inbound(
            PLATFORM,
            str(user.id),
            display_name(user),
            str(chat.id),
            private,
            text=text,
            lang_hint=user.language_code,
            message_id=str(msg.message_id),
        )
        batch = await self.run_core(self._batch, [inbound], self._seen_snapshot())
        self.dispatch(batch, origin_chat=chat.id, origin_message=msg.message_id)

    async def _on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button press: ask the core, answer the query at once, then deliver."""
        query = update.callback_query
        assert query is not None
        message = query.message
        if message is None or query.data is None:
            await self._answer(query, None)
            return
        user = query.from_user
        chat = message.chat
        private = chat.type == ChatType.PRIVATE
        if private:
            await self._opened(user.id)
        inbound = Inbound(
            PLATFORM,
            str(user.id),
            display_name(user),
            str(chat.id),
            private,
            button=query.data,
            lang_hint=user.language_code,
        )
        batch = await self.run_core(self._batch, [inbound], self._seen_snapshot())
        toast = None
        if len(batch.outs) == 1 and self._is_short_reply(batch.outs[0], user.id, chat.id):
            toast = batch.outs.pop().text
        await self._answer(query, toast)
        self.dispatch(batch, origin_chat=chat.id)

    @staticmethod
    def _is_short_reply(out: Outbound, user_id: int, chat_id: int) -> bool:
        return (
            out.key is None
            and not out.buttons
            and out.image is None
            and len(out.text) <= TOAST_LIMIT
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

    def clean_text(self, text: str) -> str | None:
        """``/cmd@thisbot args`` → ``/cmd args``; None for a command addressed to another bot."""
        text = text.strip()
        if not text.startswith("/"):
            return text
        parts = text.split(maxsplit=1)
        command, at, target = parts[0].partition("@")
        if at and self.username and target.casefold() != self.username.casefold():
            return None
        return command + (" " + parts[1] if len(parts) > 1 else "")

    # ------------------------------------------------------------------------------------------
    # private chats: opening the bot, deep links, held messages

    async def _opened(self, user_id: int) -> None:
        """The user has a private chat with the bot: send what was held for them."""
        if await self.store.get(NS_NOTICE, str(user_id)):
            await self.store.set(NS_NOTICE, str(user_id), [])
        await self.delivery.flush(user_id)

    async def _open_private(self, user: User, payload: str, update_id: int) -> None:
        """``/start [payload]`` in private: deliver held messages; ``join-<match>`` also seats the user."""
        await self.store.set(NS_NOTICE, str(user.id), [])
        flushed = await self.delivery.flush(user.id)
        batch = await self.run_core(
            self._start_batch,
            user.id,
            display_name(user),
            user.language_code,
            payload,
            flushed > 0,
            self._seen_snapshot(),
        )
        self.dispatch(batch, origin_chat=user.id)

    def _start_batch(
        self, user_id: int, name: str, lang: str | None, payload: str, flushed: bool, seen: list[int]
    ) -> Batch:
        repo = self.core.repo
        found = JOIN_PAYLOAD.fullmatch(payload)
        match = repo.match(int(found[1])) if found else None
        if match is None or match.status not in {LOBBY, RUNNING}:
            if flushed:
                return self._batch([], seen)
            return self._batch(
                [Inbound(PLATFORM, str(user_id), name, str(user_id), True, text="/help", lang_hint=lang)],
                seen,
            )
        room = repo.room_by_id(match.room_id)
        urec = repo.user(PLATFORM, str(user_id), name)
        out: list[Outbound] = []
        if not any(s.user_id == urec.id for s in match.seats):
            out.extend(
                self.core.handle(
                    Inbound(PLATFORM, str(user_id), name, room.ext_id, False, text="/join", lang_hint=lang)
                )
            )
            match = repo.match(match.id)
            urec = repo.user(PLATFORM, str(user_id), name)
        if match is not None and any(s.user_id == urec.id for s in match.seats) and not flushed:
            t = i18n.translator(urec.lang or i18n.normalise_language(lang) or room.lang)
            title = self.core.uis[match.game].title(t)
            out.append(
                Outbound(
                    PLATFORM,
                    t.gettext("You have a seat in {game}. I will send your cards and buttons here.").format(
                        game=title
                    ),
                    user_id=str(user_id),
                    lang=t.lang,
                )
            )
        return self._with_versions([*out, *self._batch([], seen).outs])

    async def _on_forbidden(self, user_id: int, held: Outbound) -> None:
        """A private message bounced (403): tell the group once per match how to open the chat."""
        try:
            match_id, outs = await self.run_core(self._notice, user_id)
        except Exception:
            log.exception("could not prepare the private-chat notice for %s", user_id)
            return
        if match_id is None:
            return
        told = list(await self.store.get(NS_NOTICE, str(user_id)) or [])
        if match_id in told:
            return
        await self.store.set(NS_NOTICE, str(user_id), [*told, match_id])
        self.dispatch(outs)

    def _notice(self, user_id: int) -> tuple[int | None, list[Outbound]]:
        repo = self.core.repo
        urec = repo.find_user(PLATFORM, str(user_id))
        if urec is None:
            return None, []
        matches = [m for m in repo.matches_of_user(urec.id) if m.status in {LOBBY, RUNNING}]
        if not matches:
            return None, []
        match = matches[-1]
        room = repo.room_by_id(match.room_id)
        t = i18n.translator(room.lang or i18n.DEFAULT_LANGUAGE)
        link = self.deep_link(match.id)
        text = t.gettext(
            "{name}, I cannot send you your cards yet. Open a private chat with me and press Start: {link}"
        ).format(name=urec.name, link=link)
        button = Button(t.gettext("Open private chat"), link)
        return match.id, [Outbound(PLATFORM, text, chat_id=room.ext_id, buttons=((button,),), lang=t.lang)]

    def deep_link(self, match_id: int) -> str:
        return f"https://t.me/{self.username}?start=join-{match_id}"

    # ------------------------------------------------------------------------------------------
    # outbound

    def dispatch(
        self,
        outs: Batch | Sequence[Outbound],
        origin_chat: int | None = None,
        origin_message: int | None = None,
    ) -> None:
        """Queue the core's messages: groups by ``chat_id``, private chats by ``user_id``."""
        batch = outs if isinstance(outs, Batch) else Batch(list(outs))
        prompted = {o.user_id for o in batch.outs if o.user_id is not None and o.buttons}
        for chat_id, message_id in self.delivery.outdated_prompts(batch.versions):
            if str(chat_id) not in prompted:  # a new prompt strips the old one itself
                self.delivery.submit_strip(chat_id, message_id)
        for out in coalesce(batch.outs):
            if out.platform != PLATFORM:
                continue
            target = out.user_id if out.user_id is not None else out.chat_id
            if target is None:
                continue
            chat_id = int(target)
            reply = (
                origin_message
                if (out.reply_to is not None and out.key is None and chat_id == origin_chat and chat_id < 0)
                else None
            )
            self.delivery.submit(chat_id, out, reply)


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


def main(core: Any) -> int:
    """Run the bot until interrupted: long polling, or a webhook when ``TELEGRAM_WEBHOOK_URL`` is set."""
    token = os.environ.get("TELEGRAM_TOKEN")
    if not token:
        print("TELEGRAM_TOKEN is not set", file=sys.stderr)
        return 2
    transport = build_transport(core, token, os.environ.get("TELEGRAM_API_URL") or None)
    app = transport.application
    webhook = os.environ.get("TELEGRAM_WEBHOOK_URL")
    try:
        if webhook:
            app.run_webhook(
                listen=os.environ.get("TELEGRAM_WEBHOOK_LISTEN", "127.0.0.1"),
                port=int(os.environ.get("TELEGRAM_WEBHOOK_PORT", "8443")),
                url_path=urlsplit(webhook).path.lstrip("/"),
                webhook_url=webhook,
                secret_token=os.environ.get("TELEGRAM_WEBHOOK_SECRET") or None,
                allowed_updates=ALLOWED_UPDATES,
            )
        else:
            app.run_polling(allowed_updates=ALLOWED_UPDATES, poll_interval=0.0, timeout=30)
    except RuntimeError as exc:  # e.g. webhooks without the tornado extra
        print(f"telegram: {exc}", file=sys.stderr)
        return 1
    return 0
