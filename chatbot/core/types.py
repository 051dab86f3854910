"""The core's own small message types. Transports translate platform updates into :class:`Inbound`
and :class:`Outbound` into platform calls; nothing here knows Telegram, Matrix or the database."""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: the Matrix send queue once stored images as lowercase hex; base64 of a PNG or JPEG never is
_HEX = re.compile(r"(?:[0-9a-f]{2})+")
#: the key of a table in outbox rows stored before messages said what they are
_OLD_TABLE_KEY = re.compile(r"table:(\d+)")


@dataclass(frozen=True, slots=True)
class Inbound:
    """A user's message or button press.

    ``chat_id`` is the group/room for a group message; for a private message it is the user's
    private chat on that platform. ``lang_hint`` is the platform's idea of the user's language.
    ``update_key`` identifies the platform's update (Telegram update_id, Matrix event_id, a sequence
    number of the console or a script): an update seen before is not applied again. ``user_name``
    is the platform's display name as given; the core shows it cleaned
    (:func:`chatbot.core.people.clean_name`).
    """

    platform: str
    user_id: str
    user_name: str
    chat_id: str
    private: bool
    text: str | None = None
    button: str | None = None
    lang_hint: str | None = None
    message_id: str | None = None
    update_key: str | None = None
    #: in a group: the message mentions the bot, answers one of its messages or names it; such a
    #: text always gets an answer (a hint when it is not understood), other group chat may not
    addressed: bool = False
    #: the platform user ids of the people the message mentions (a Telegram text mention, Matrix
    #: ``m.mentions``), the bot left out: "anna paikkani @Liisa" names whom the seat is for
    mentions: tuple[str, ...] = ()
    #: handles the message mentions without the platform saying whose they are (a Telegram
    #: "@username"): the core knows them from the people it has seen (:attr:`user_handle`)
    handles: tuple[str, ...] = ()
    #: the author of the message this one answers (None: no reply, or a reply to the bot itself)
    reply_to_user: str | None = None
    #: the sender's own handle on the platform (a Telegram username), without "@"
    user_handle: str | None = None


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    data: str


#: :attr:`Outbound.role` of a match's public table (the lobby's included), edited in place
TABLE = "table"
#: :attr:`Outbound.role` of a seat's private panel; its buttons act on :attr:`Outbound.version`
PROMPT = "prompt"


@dataclass(frozen=True, slots=True)
class Outbound:
    """A message for one audience: a group chat (``chat_id``) or one user in private (``user_id``).

    ``key`` names a message that should be edited in place rather than sent again (the table of a
    match); transports that cannot edit simply send. ``reply_to`` is the inbound message this
    answers, where the platform threads replies. ``role`` says what the message is (:data:`TABLE`,
    :data:`PROMPT` or "" for any other), with the match, its version the message was drawn at (what
    its buttons act on) and, for a prompt, whose seat it is: a transport reads these, never the key
    or the button data.
    """

    platform: str
    text: str
    chat_id: str | None = None
    user_id: str | None = None
    buttons: tuple[tuple[Button, ...], ...] = ()
    image: bytes | None = None
    key: str | None = None
    reply_to: str | None = None
    #: the language the text was rendered in (for tests and logs)
    lang: str = "fi"
    role: str = ""
    match_id: int | None = None
    version: int | None = None
    seat: int | None = None

    @property
    def private(self) -> bool:
        return self.user_id is not None

    def to_json(self) -> dict[str, Any]:
        """Everything in the message as JSON, for a stored send queue; the image as base64."""
        return {
            "platform": self.platform,
            "text": self.text,
            "chat_id": self.chat_id,
            "user_id": self.user_id,
            "buttons": [[[b.label, b.data] for b in row] for row in self.buttons],
            "image": base64.b64encode(self.image).decode("ascii") if self.image else None,
            "key": self.key,
            "reply_to": self.reply_to,
            "lang": self.lang,
            "role": self.role,
            "match_id": self.match_id,
            "version": self.version,
            "seat": self.seat,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outbound:
        """The message :meth:`to_json` wrote; also reads rows stored before it: images in hex (the
        Matrix queue), rows without ``reply_to`` (the Telegram queue) and rows without ``role``, whose
        table was known by its key alone."""
        image: bytes | None = None
        if data.get("image"):
            text = str(data["image"])
            image = bytes.fromhex(text) if _HEX.fullmatch(text) else base64.b64decode(text)
        role, match_id = data.get("role") or "", data.get("match_id")
        old_table = _OLD_TABLE_KEY.fullmatch(str(data.get("key") or ""))
        if "role" not in data and old_table is not None:
            role, match_id = TABLE, int(old_table[1])
        return cls(
            platform=data["platform"],
            text=data["text"],
            chat_id=data.get("chat_id"),
            user_id=data.get("user_id"),
            buttons=tuple(tuple(Button(label, bd) for label, bd in row) for row in data.get("buttons") or ()),
            image=image,
            key=data.get("key"),
            reply_to=data.get("reply_to"),
            lang=data.get("lang") or "fi",
            role=role,
            match_id=match_id,
            version=data.get("version"),
            seat=data.get("seat"),
        )
