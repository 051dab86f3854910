"""A small fake Telegram Bot API server (aiohttp, 127.0.0.1) for python-telegram-bot v22.

The real ``Application`` talks to it through ``base_url``. It long-polls ``getUpdates`` with
``offset`` and ``timeout``, accepts empty bodies, keeps string parameters raw and JSON-decodes the
rest, models private chats (chat id = user id) apart from groups, numbers messages as Telegram does
(one sequence of the bot's account for private chats and basic groups, one per supergroup: see
:meth:`FakeTelegram._new_message_id`), answers 403 to users who never opened the bot, 400 "message is not modified" and "message to edit not found", and 429 with
``retry_after`` on demand (:meth:`FakeTelegram.fail`). ``getChatMember`` answers from per-group
statuses (:meth:`FakeTelegram.set_status`; a user not listed is a member).

Tests play the users: :meth:`FakeTelegram.send` (a text message), :meth:`FakeTelegram.press` (a
button, i.e. a callback query) and :meth:`FakeTelegram.redeliver` (the same update once more), then
read what the bot sent per chat (:meth:`FakeTelegram.bot_messages`, :meth:`FakeTelegram.texts`)
and wait with a deadline (:meth:`FakeTelegram.wait_for`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

BOT_ID = 7000001
#: parameters Telegram takes as plain strings (everything else arrives JSON-encoded)
STRING_PARAMS = {
    "text",
    "caption",
    "callback_query_id",
    "url",
    "parse_mode",
    "description",
    "short_description",
    "language_code",
    "secret_token",
    "data",
    "title",
    "emoji",
    "inline_message_id",
    "business_connection_id",
    "message_effect_id",
    "action",
    "name",
}


def utf16_len(text: str) -> int:
    """A length as Telegram counts it: in UTF-16 code units (an emoji outside the BMP is two)."""
    return len(text.encode("utf-16-le")) // 2


class ApiError(Exception):
    def __init__(
        self, code: int, description: str, retry_after: int | None = None, migrate_to: int | None = None
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to = migrate_to


NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)


@dataclass
class Msg:
    chat_id: int
    message_id: int
    from_bot: bool
    user_id: int | None
    text: str | None = None
    caption: str | None = None
    photo: bytes | None = None
    reply_markup: dict[str, Any] | None = None
    reply_to: int | None = None
    deleted: bool = False
    #: every text or caption the message ever showed, oldest first
    history: list[str] = field(default_factory=list)
    created: float = field(default_factory=time.monotonic)
    edits: int = 0
    #: the forum topic the message is in (None: the General topic, or a group without topics)
    thread: int | None = None

    @property
    def shown(self) -> str:
        return self.text if self.text is not None else (self.caption or "")

    def buttons(self) -> list[list[tuple[str, str]]]:
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [[(b["text"], b.get("callback_data") or b.get("url") or "") for b in row] for row in rows]

    def callback_data(self) -> list[str]:
        return [data for row in self.buttons() for _label, data in row if not data.startswith("https://")]


@dataclass
class Failure:
    methods: set[str] | None
    remaining: int
    code: int
    description: str
    retry_after: int | None


class FakeTelegram:
    """The fake Bot API. Start with ``await start()``; ``api_url`` is the root for the transport."""

    def __init__(
        self, token: str = "123456:TEST-token", username: str = "pelipoyta_test_bot", privacy: bool = False
    ) -> None:
        self.token = token
        self.username = username
        #: Telegram's privacy mode (on by default there; off here unless asked): the bot gets only the
        #: group messages that are commands, replies to its own messages or mentions of it
        self.privacy = privacy
        #: group messages the bot never got because of privacy mode
        self.withheld: list[Msg] = []
        self.users: dict[int, dict[str, Any]] = {}
        self.opened: set[int] = set()
        self.groups: dict[int, dict[str, Any]] = {}
        #: per group: user id -> "creator" | "administrator" | "member" | "left" | "kicked"
        #: (a user not listed is a member, as in a small group where everyone is)
        self.statuses: dict[int, dict[int, str]] = {}
        #: forum groups' topic ids (messages without a topic are in General)
        self.topics: dict[int, set[int]] = {}
        #: groups the bot was removed from (:meth:`remove_bot`): calls there are refused with 403
        self.removed: set[int] = set()
        #: old group id -> the supergroup it was upgraded to (:meth:`migrate`)
        self.migrated: dict[int, int] = {}
        self.messages: dict[int, dict[int, Msg]] = {}
        self._next_message_id: dict[int, itertools.count[int]] = {}
        self._update_ids = itertools.count(1)
        self._query_ids = itertools.count(1)
        self.updates: list[dict[str, Any]] = []
        self._forced: list[dict[str, Any]] = []
        self._poll_generation = 0
        self.sent_updates: dict[int, dict[str, Any]] = {}
        self.calls: list[tuple[float, str, dict[str, Any]]] = []
        self.answers: dict[str, list[dict[str, Any]]] = {}
        self.queries: dict[str, dict[str, Any]] = {}
        self.commands: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.failures: list[Failure] = []
        self.failed: list[tuple[str, int]] = []
        self._changed = asyncio.Condition()
        self._updates_cond = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        #: monotonic time of each update's injection, for latency figures
        self.injected_at: dict[int, float] = {}
        #: set by setWebhook: updates are then POSTed to the bot; the HTTP status of each delivery
        self.webhook: dict[str, Any] = {}
        self.webhook_statuses: list[int] = []
        #: when set, every update is handed to it instead (a test spreads updates over N workers)
        self.router: Callable[[dict[str, Any]], Any] | None = None

    # ------------------------------------------------------------------------------------------
    # server

    async def start(self) -> str:
        app = web.Application(client_max_size=20 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/file/bot{token}/{path:.*}", self._file)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        self.port = server.sockets[0].getsockname()[1]
        return self.api_url

    async def stop(self) -> None:
        # end every long poll at once: aiohttp's cleanup waits for running handlers
        self._poll_generation += 1
        async with self._updates_cond:
            self._updates_cond.notify_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def _file(self, request: web.Request) -> web.Response:
        return web.Response(status=404)

    async def _params(self, request: web.Request) -> dict[str, Any]:
        raw: dict[str, Any] = dict(request.query)
        if request.body_exists and request.content_length != 0:
            ctype = request.content_type
            if ctype == "multipart/form-data":
                reader = await request.multipart()
                while True:
                    part = await reader.next()
                    if part is None:
                        break
                    name = part.name or ""
                    if part.filename is not None:  # type: ignore[union-attr]
                        raw[name] = ("file", await part.read())  # type: ignore[union-attr]
                    else:
                        raw[name] = await part.text()  # type: ignore[union-attr]
            elif ctype == "application/json":
                body = await request.read()
                if body.strip():
                    return {k: v for k, v in json.loads(body).items()}
            else:
                form = await request.post()
                for k, v in form.items():
                    raw[k] = v if isinstance(v, str) else ("file", v.file.read())
        params: dict[str, Any] = {}
        for key, value in raw.items():
            if isinstance(value, str) and key not in STRING_PARAMS:
                try:
                    params[key] = json.loads(value)
                except ValueError:
                    params[key] = value
            else:
                params[key] = value
        return params

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        method = request.match_info["method"]
        params = await self._params(request)
        name = method.lower()
        try:
            self._maybe_fail(name)
            handler = getattr(self, "m_" + name, None)
            if handler is None:
                raise ApiError(404, "Not Found: method not found")
            result = handler(params)
            if asyncio.iscoroutine(result):
                result = await result
        except ApiError as exc:
            if name != "getupdates":
                self._record(name, params, error=exc.code)
            body: dict[str, Any] = {"ok": False, "error_code": exc.code, "description": exc.description}
            if exc.retry_after is not None:
                body["parameters"] = {"retry_after": exc.retry_after}
            if exc.migrate_to is not None:
                body["parameters"] = {"migrate_to_chat_id": exc.migrate_to}
            return web.json_response(body, status=exc.code)
        if name != "getupdates":
            self._record(name, params)
        return web.json_response({"ok": True, "result": result})

    def _record(self, name: str, params: dict[str, Any], error: int | None = None) -> None:
        clean = {k: ("<file>" if isinstance(v, tuple) else v) for k, v in params.items()}
        if error is not None:
            clean["_error"] = error
        self.calls.append((time.monotonic(), name, clean))
        self._notify()

    def _notify(self) -> None:
        async def bump() -> None:
            async with self._changed:
                self._changed.notify_all()

        asyncio.get_running_loop().create_task(bump())

    def _maybe_fail(self, name: str) -> None:
        for failure in self.failures:
            if failure.remaining <= 0:
                continue
            if failure.methods is None and name == "getupdates":
                continue
            if failure.methods is not None and name not in failure.methods:
                continue
            failure.remaining -= 1
            self.failed.append((name, failure.code))
            raise ApiError(failure.code, failure.description, failure.retry_after)

    def fail(
        self,
        methods: str | set[str] | None,
        times: int,
        code: int = 429,
        retry_after: int | None = 1,
        description: str | None = None,
    ) -> Failure:
        """Answer the next ``times`` calls of ``methods`` (None: every method but getUpdates) with an
        error, by default 429 with ``retry_after``."""
        names = (
            None
            if methods is None
            else {m.lower() for m in ([methods] if isinstance(methods, str) else methods)}
        )
        if description is None:
            description = f"Too Many Requests: retry after {retry_after}" if code == 429 else "Bad Request"
        failure = Failure(names, times, code, description, retry_after if code == 429 else None)
        self.failures.append(failure)
        return failure

    # ------------------------------------------------------------------------------------------
    # the world: users, groups, messages

    def add_user(
        self,
        user_id: int,
        first_name: str,
        lang: str | None = "fi",
        opened: bool = True,
        username: str | None = None,
    ) -> dict:
        user = {"id": user_id, "is_bot": False, "first_name": first_name}
        if lang:
            user["language_code"] = lang
        if username:
            user["username"] = username
        self.users[user_id] = user
        if opened:
            self.opened.add(user_id)
        return user

    def add_group(self, chat_id: int, title: str = "Pelipöytä", topics: Sequence[int] = ()) -> dict:
        """A group; with ``topics`` a forum supergroup with those topic ids (besides General)."""
        assert chat_id < 0, "group ids are negative"
        self.groups[chat_id] = {"id": chat_id, "type": "group", "title": title}
        if topics:
            self.groups[chat_id].update(type="supergroup", is_forum=True)
            self.topics[chat_id] = set(topics)
        return self.groups[chat_id]

    def set_status(self, chat_id: int, user_id: int, status: str) -> None:
        """Make ``user_id`` the group's ``creator``, an ``administrator``, a ``member``, or one who
        ``left`` or was ``kicked`` (getChatMember answers it)."""
        assert status in {"creator", "administrator", "member", "left", "kicked", "restricted"}
        self.statuses.setdefault(chat_id, {})[user_id] = status

    def _thread(self, chat_id: int, params: dict[str, Any]) -> int | None:
        thread = params.get("message_thread_id")
        if thread is None:
            return None
        if int(thread) not in self.topics.get(chat_id, set()):
            raise ApiError(400, "Bad Request: message thread not found")
        return int(thread)

    def chat(self, chat_id: int) -> dict[str, Any]:
        if chat_id in self.groups:
            return self.groups[chat_id]
        user = self.users.get(chat_id)
        if user is None:
            raise ApiError(400, "Bad Request: chat not found")
        return {"id": chat_id, "type": "private", "first_name": user["first_name"]}

    def bot_user(self) -> dict[str, Any]:
        return {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "Pelipöytä",
            "username": self.username,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy,
            "supports_inline_queries": False,
        }

    def _new_message_id(self, chat_id: int) -> int:
        """The id of a new message in ``chat_id`` as the Bot API numbers them for this bot: a
        supergroup (or channel) numbers its own messages 1, 2, 3, …; private chats and basic groups
        take their ids from one sequence of the bot's own account (its "message box"), so a message
        in one private chat and the next one in another chat or a basic group have consecutive ids,
        and every message in a basic group takes one, even one privacy mode keeps from the bot."""
        space = chat_id if self.groups.get(chat_id, {}).get("type") == "supergroup" else 0
        return next(self._next_message_id.setdefault(space, itertools.count(1)))

    def _store(self, msg: Msg) -> Msg:
        self.messages.setdefault(msg.chat_id, {})[msg.message_id] = msg
        return msg

    def _message_json(self, msg: Msg) -> dict[str, Any]:
        data: dict[str, Any] = {
            "message_id": msg.message_id,
            "date": int(time.time()),
            "chat": self.chat(msg.chat_id),
        }
        data["from"] = self.bot_user() if msg.from_bot else self.users[msg.user_id or 0]
        if msg.text is not None:
            data["text"] = msg.text
        if msg.photo is not None:
            data["photo"] = [
                {
                    "file_id": f"photo-{msg.chat_id}-{msg.message_id}",
                    "file_unique_id": f"u{msg.message_id}",
                    "width": 320,
                    "height": 200,
                    "file_size": len(msg.photo),
                }
            ]
            if msg.caption is not None:
                data["caption"] = msg.caption
        if msg.reply_markup and msg.reply_markup.get("inline_keyboard"):
            data["reply_markup"] = msg.reply_markup
        if msg.thread is not None:
            data["message_thread_id"] = msg.thread
            data["is_topic_message"] = True
        return data

    def _target(self, params: dict[str, Any]) -> int:
        chat_id = params.get("chat_id")
        if chat_id is None:
            raise ApiError(400, "Bad Request: chat_id is empty")
        chat_id = int(chat_id)
        if chat_id > 0:
            if chat_id not in self.users:
                raise ApiError(400, "Bad Request: chat not found")
            if chat_id not in self.opened:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        elif chat_id in self.removed:
            raise ApiError(403, "Forbidden: bot was kicked from the group chat")
        elif chat_id in self.migrated:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                migrate_to=self.migrated[chat_id],
            )
        elif chat_id not in self.groups:
            raise ApiError(400, "Bad Request: chat not found")
        return chat_id

    def _existing(self, params: dict[str, Any], verb: str = "edit") -> Msg:
        chat_id = self._target(params)
        message_id = params.get("message_id")
        msg = self.messages.get(chat_id, {}).get(int(message_id or 0))
        if msg is None or msg.deleted:
            raise ApiError(400, f"Bad Request: message to {verb} not found")
        if verb == "edit" and not msg.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        return msg

    @staticmethod
    def _markup(params: dict[str, Any]) -> dict[str, Any] | None:
        markup = params.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        if markup and not markup.get("inline_keyboard"):
            return None
        for row in (markup or {}).get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if data is not None and len(data.encode()) > 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
        return markup or None

    # ------------------------------------------------------------------------------------------
    # Bot API methods

    def m_getme(self, params: dict[str, Any]) -> dict[str, Any]:
        return self.bot_user()

    def m_deletewebhook(self, params: dict[str, Any]) -> bool:
        if params.get("drop_pending_updates"):
            self.updates.clear()
        return True

    def m_getwebhookinfo(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "url": self.webhook.get("url", ""),
            "has_custom_certificate": False,
            "pending_update_count": len(self.updates),
        }

    def m_setwebhook(self, params: dict[str, Any]) -> bool:
        """Webhook mode: from now on updates are POSTed to the bot instead of waiting for getUpdates."""
        self.webhook = {"url": str(params["url"]), "secret": params.get("secret_token")}
        if params.get("drop_pending_updates"):
            self.updates.clear()
        return True

    def m_setmycommands(self, params: dict[str, Any]) -> bool:
        scope = (params.get("scope") or {"type": "default"}).get("type", "default")
        commands = params.get("commands") or []
        for c in commands:
            if not c["command"].isascii() or not c["command"].islower():
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
        self.commands[(scope, params.get("language_code") or "")] = commands
        return True

    def m_getmycommands(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        scope = (params.get("scope") or {"type": "default"}).get("type", "default")
        return self.commands.get((scope, params.get("language_code") or ""), [])

    async def m_getupdates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        timeout = float(params.get("timeout") or 0)
        limit = int(params.get("limit") or 100)
        deadline = time.monotonic() + timeout
        # a newer getUpdates ends an older one (as Telegram does), so an abandoned long poll of a
        # stopped bot never swallows updates meant for its successor
        self._poll_generation += 1
        generation = self._poll_generation
        async with self._updates_cond:
            while True:
                if generation != self._poll_generation:
                    return []
                if offset:
                    self.updates = [u for u in self.updates if u["update_id"] >= offset]
                if self._forced or self.updates:
                    forced, self._forced = self._forced, []
                    return [*forced, *self.updates[:limit]]
                left = deadline - time.monotonic()
                if left <= 0:
                    return []
                try:
                    await asyncio.wait_for(self._updates_cond.wait(), left)
                except TimeoutError:
                    return []

    def m_sendmessage(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = self._target(params)
        text = params.get("text")
        if not text or not str(text).strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if utf16_len(str(text)) > 4096:
            raise ApiError(400, "Bad Request: message is too long")
        reply = (params.get("reply_parameters") or {}).get("message_id")
        msg = self._store(
            Msg(
                chat_id,
                self._new_message_id(chat_id),
                True,
                None,
                text=str(text),
                reply_markup=self._markup(params),
                reply_to=reply,
                history=[str(text)],
                thread=self._thread(chat_id, params),
            )
        )
        return self._message_json(msg)

    def m_sendphoto(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = self._target(params)
        photo = params.get("photo")
        if not (isinstance(photo, tuple) and photo[0] == "file"):
            raise ApiError(400, "Bad Request: there is no photo in the request")
        caption = params.get("caption")
        if caption is not None and utf16_len(caption) > 1024:
            raise ApiError(400, "Bad Request: message caption is too long")
        msg = self._store(
            Msg(
                chat_id,
                self._new_message_id(chat_id),
                True,
                None,
                caption=caption,
                photo=photo[1],
                reply_markup=self._markup(params),
                history=[caption or ""],
                thread=self._thread(chat_id, params),
            )
        )
        return self._message_json(msg)

    def _apply_edit(
        self,
        msg: Msg,
        *,
        text: str | None = None,
        caption: str | None = None,
        photo: bytes | None = None,
        markup: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        same_text = (text is None or text == msg.text) and (caption is None or caption == msg.caption)
        same_photo = photo is None or photo == msg.photo
        if same_text and same_photo and (markup or None) == (msg.reply_markup or None):
            raise ApiError(400, NOT_MODIFIED)
        if text is not None:
            msg.text = text
        if caption is not None:
            msg.caption = caption
        if photo is not None:
            msg.photo = photo
        msg.reply_markup = markup
        msg.edits += 1
        msg.history.append(msg.shown)
        return self._message_json(msg)

    def m_editmessagetext(self, params: dict[str, Any]) -> dict[str, Any]:
        msg = self._existing(params)
        if msg.text is None:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        text = params.get("text")
        if not text:
            raise ApiError(400, "Bad Request: message text is empty")
        if utf16_len(str(text)) > 4096:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        return self._apply_edit(msg, text=str(text), markup=self._markup(params))

    def m_editmessagereplymarkup(self, params: dict[str, Any]) -> dict[str, Any]:
        msg = self._existing(params)
        return self._apply_edit(msg, markup=self._markup(params))

    def m_editmessagecaption(self, params: dict[str, Any]) -> dict[str, Any]:
        msg = self._existing(params)
        if msg.photo is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        caption = str(params.get("caption") or "")
        if utf16_len(caption) > 1024:
            raise ApiError(400, "Bad Request: message caption is too long")
        return self._apply_edit(msg, caption=caption, markup=self._markup(params))

    def m_editmessagemedia(self, params: dict[str, Any]) -> dict[str, Any]:
        msg = self._existing(params)
        media = params.get("media") or {}
        ref = str(media.get("media", ""))
        photo = params.get(ref.removeprefix("attach://")) if ref.startswith("attach://") else None
        if not (isinstance(photo, tuple) and photo[0] == "file"):
            raise ApiError(400, "Bad Request: there is no media in the request")
        if msg.photo is None:
            raise ApiError(400, "Bad Request: there is no media in the message to edit")
        caption = str(media.get("caption") or "")
        if utf16_len(caption) > 1024:
            raise ApiError(400, "Bad Request: message caption is too long")
        return self._apply_edit(msg, caption=caption, photo=photo[1], markup=self._markup(params))

    def m_deletemessage(self, params: dict[str, Any]) -> bool:
        msg = self._existing(params, verb="delete")
        msg.deleted = True
        return True

    def m_answercallbackquery(self, params: dict[str, Any]) -> bool:
        qid = str(params.get("callback_query_id") or "")
        if qid not in self.queries:
            raise ApiError(
                400, "Bad Request: query is too old and response timeout expired or query ID is invalid"
            )
        if utf16_len(str(params.get("text") or "")) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        self.answers.setdefault(qid, []).append(params)
        return True

    def m_getchatmember(self, params: dict[str, Any]) -> dict[str, Any]:
        """A ChatMember of the Bot API: its ``status`` and ``user``, with the fields PTB requires."""
        chat_id, user_id = int(params["chat_id"]), int(params["user_id"])
        if chat_id not in self.groups:
            self.chat(chat_id)  # 400 chat not found for an unknown chat
            if chat_id != user_id:
                raise ApiError(400, "Bad Request: user not found")
        user = self.users.get(user_id)
        if user is None:
            raise ApiError(400, "Bad Request: user not found")
        status = self.statuses.get(chat_id, {}).get(user_id, "member")
        member: dict[str, Any] = {"status": status, "user": user}
        if status == "creator":
            member["is_anonymous"] = False
        elif status == "administrator":
            member.update(
                can_be_edited=False,
                is_anonymous=False,
                can_manage_chat=True,
                can_delete_messages=True,
                can_manage_video_chats=False,
                can_restrict_members=True,
                can_promote_members=False,
                can_change_info=False,
                can_invite_users=True,
                can_post_stories=False,
                can_edit_stories=False,
                can_delete_stories=False,
            )
        elif status == "kicked":
            member["until_date"] = 0
        elif status == "restricted":
            member.update(
                is_member=True,
                can_send_messages=True,
                can_send_audios=True,
                can_send_documents=True,
                can_send_photos=True,
                can_send_videos=True,
                can_send_video_notes=True,
                can_send_voice_notes=True,
                can_send_polls=True,
                can_send_other_messages=True,
                can_add_web_page_previews=True,
                can_change_info=False,
                can_invite_users=False,
                can_pin_messages=False,
                can_manage_topics=False,
                until_date=0,
            )
        return member

    def m_sendchataction(self, params: dict[str, Any]) -> bool:
        self._target(params)
        return True

    # ------------------------------------------------------------------------------------------
    # the test side: users act

    async def _push(self, update: dict[str, Any]) -> int:
        self.sent_updates[update["update_id"]] = update
        self.injected_at[update["update_id"]] = time.monotonic()
        if self.router is not None:
            await self.router(update)
            return update["update_id"]
        if self.webhook.get("url"):
            import aiohttp

            headers = (
                {"X-Telegram-Bot-Api-Secret-Token": self.webhook["secret"]}
                if self.webhook.get("secret")
                else {}
            )
            async with (
                aiohttp.ClientSession() as session,
                session.post(self.webhook["url"], json=update, headers=headers) as response,
            ):
                self.webhook_statuses.append(response.status)
            return update["update_id"]
        async with self._updates_cond:
            self.updates.append(update)
            self._updates_cond.notify_all()
        return update["update_id"]

    async def send(
        self,
        user_id: int,
        chat_id: int,
        text: str,
        reply_to: int | None = None,
        thread: int | None = None,
        text_mentions: dict[str, int] | None = None,
    ) -> Msg:
        """User ``user_id`` writes ``text`` in ``chat_id`` (a group, or their private chat = user id),
        optionally as a reply to message ``reply_to`` of that chat. In privacy mode a group message
        that is no command, no reply to the bot and no mention of it never reaches the bot.

        Every "@word" of the text is a ``mention`` entity, as Telegram marks them; ``text_mentions``
        maps words of the text to the users they mention without a username (a ``text_mention``
        entity carrying the user, as a client makes when one picks a person who has none)."""
        if chat_id > 0:
            assert chat_id == user_id, "a private chat's id is the user's id"
            self.opened.add(user_id)  # writing to the bot opens the chat
        msg = self._store(
            Msg(
                chat_id,
                self._new_message_id(chat_id),
                False,
                user_id,
                text=text,
                history=[text],
                reply_to=reply_to,
                thread=thread,
            )
        )
        data = self._message_json(msg)
        entities = []
        if text.startswith("/"):
            entities.append({"type": "bot_command", "offset": 0, "length": len(text.split()[0])})
        mention = f"@{self.username}".casefold()
        at = text.casefold().find(mention)
        for found in re.finditer(r"@\w+", text):  # offsets and lengths in UTF-16 code units
            entities.append(
                {"type": "mention", "offset": _u16(text[: found.start()]), "length": _u16(found[0])}
            )
        for word, mentioned in (text_mentions or {}).items():
            start = text.index(word)
            entities.append(
                {
                    "type": "text_mention",
                    "offset": _u16(text[:start]),
                    "length": _u16(word),
                    "user": self.users[mentioned],
                }
            )
        if entities:
            data["entities"] = entities
        replied = self.messages.get(chat_id, {}).get(reply_to or 0)
        if replied is not None:
            data["reply_to_message"] = self._message_json(replied)
        if chat_id in self.removed:
            return msg  # the bot is not in the group: it sees nothing
        if chat_id < 0 and self.privacy:
            to_bot = text.startswith("/") or at >= 0 or (replied is not None and replied.from_bot)
            if not to_bot:
                self.withheld.append(msg)
                return msg
        await self._push({"update_id": next(self._update_ids), "message": data})
        return msg

    async def _membership(self, chat_id: int, by: int, old: str, new: str) -> None:
        member = {"user": self.bot_user()}
        await self._push(
            {
                "update_id": next(self._update_ids),
                "my_chat_member": {
                    "chat": self.groups[chat_id],
                    "from": self.users[by],
                    "date": int(time.time()),
                    "old_chat_member": {**member, "status": old},
                    "new_chat_member": {**member, "status": new},
                },
            }
        )

    async def remove_bot(self, chat_id: int, by: int) -> None:
        """User ``by`` removes the bot from a group: a ``my_chat_member`` update, then every call to
        that chat is refused (403) and nothing written there reaches the bot."""
        self.removed.add(chat_id)
        await self._membership(chat_id, by, "member", "left")

    async def add_bot(self, chat_id: int, by: int) -> None:
        """User ``by`` adds the bot to the group again."""
        self.removed.discard(chat_id)
        await self._membership(chat_id, by, "left", "member")

    async def migrate(self, old_chat: int, new_chat: int, by: int, notify: bool = True) -> None:
        """An admin (``by``) upgrades group ``old_chat`` to the supergroup ``new_chat``, as Telegram does
        when some settings change: the old chat refuses every call from now on (400 with
        ``migrate_to_chat_id``), its messages stay behind, and two service messages arrive, one in
        each chat (``notify=False``: the bot learns of it only from a refused call)."""
        self.groups[new_chat] = {**self.groups[old_chat], "id": new_chat, "type": "supergroup"}
        self.migrated[old_chat] = new_chat
        if not notify:
            return
        base = {"date": int(time.time()), "from": self.users[by]}
        old_msg = {
            **base,
            "message_id": self._new_message_id(old_chat),
            "chat": self.groups[old_chat],
            "migrate_to_chat_id": new_chat,
        }
        new_msg = {
            **base,
            "message_id": self._new_message_id(new_chat),
            "chat": self.groups[new_chat],
            "migrate_from_chat_id": old_chat,
        }
        await self._push({"update_id": next(self._update_ids), "message": old_msg})
        await self._push({"update_id": next(self._update_ids), "message": new_msg})

    async def press(self, user_id: int, chat_id: int, message_id: int, data: str) -> str:
        """User ``user_id`` presses a button with ``data`` on message ``message_id`` of ``chat_id``;
        returns the callback query id. ``data`` need not be on the message (forged presses)."""
        msg = self.messages.get(chat_id, {}).get(message_id)
        qid = f"q{next(self._query_ids)}"
        query: dict[str, Any] = {
            "id": qid,
            "from": self.users[user_id],
            "chat_instance": f"ci{chat_id}",
            "data": data,
        }
        if msg is not None:
            query["message"] = self._message_json(msg)
        else:
            query["message"] = {
                "message_id": message_id,
                "date": int(time.time()),
                "chat": self.chat(chat_id),
                "from": self.bot_user(),
                "text": "?",
            }
        self.queries[qid] = query
        await self._push({"update_id": next(self._update_ids), "callback_query": query})
        return qid

    async def redeliver(self, update_id: int) -> None:
        """Deliver an already delivered update again (as Telegram does after a crash)."""
        self.injected_at[update_id] = time.monotonic()
        async with self._updates_cond:
            self._forced.append(self.sent_updates[update_id])
            self._updates_cond.notify_all()

    # ------------------------------------------------------------------------------------------
    # the test side: reading

    def bot_messages(
        self, chat_id: int, include_deleted: bool = False, thread: int | bool | None = False
    ) -> list[Msg]:
        """The bot's messages in a chat (``thread``: only those of that forum topic, None = General)."""
        return [
            m
            for m in self.messages.get(chat_id, {}).values()
            if m.from_bot and (include_deleted or not m.deleted) and (thread is False or m.thread == thread)
        ]

    def texts(self, chat_id: int) -> list[str]:
        """Every text the bot ever showed in the chat, edits included (oldest first)."""
        return [h for m in self.bot_messages(chat_id, include_deleted=True) for h in m.history]

    def last_bot_message(self, chat_id: int) -> Msg | None:
        found = self.bot_messages(chat_id)
        return found[-1] if found else None

    def calls_to(
        self, chat_id: int, methods: set[str] | None = None
    ) -> list[tuple[float, str, dict[str, Any]]]:
        return [
            c
            for c in self.calls
            if str(c[2].get("chat_id")) == str(chat_id)
            and (methods is None or c[1] in methods)
            and "_error" not in c[2]
        ]

    def answer_of(self, qid: str) -> dict[str, Any] | None:
        found = self.answers.get(qid)
        return found[0] if found else None

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "condition"
    ) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked after every API call); fail at the deadline."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {what}")
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), min(left, 0.2))

    async def quiet(self, seconds: float = 0.3, timeout: float = 10.0) -> None:
        """Wait until the bot has made no API call for ``seconds`` (bounded by ``timeout``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            last = self.calls[-1][0] if self.calls else 0.0
            if time.monotonic() - last >= seconds:
                return
            await asyncio.sleep(seconds / 3)
        raise AssertionError("the bot did not go quiet")


def _u16(text: str) -> int:
    """The length of ``text`` in UTF-16 code units, as the Bot API counts entity offsets."""
    return len(text.encode("utf-16-le")) // 2
