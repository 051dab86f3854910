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


@dataclass(frozen=True, slots=True)
class Inbound:
    """A user's message or button press.

    ``chat_id`` is the group/room for a group message; for a private message it is the user's
    private chat on that platform. ``lang_hint`` is the platform's idea of the user's language.
    ``update_key`` identifies the platform's update (Telegram update_id, Matrix event_id, a sequence
    number of the console or a script): an update seen before is not applied again.
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


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    data: str


@dataclass(frozen=True, slots=True)
class Outbound:
    """A message for one audience: a group chat (``chat_id``) or one user in private (``user_id``).

    ``key`` names a message that should be edited in place rather than sent again (the table of a
    match: ``table:<match id>``); transports that cannot edit simply send. ``reply_to`` is the inbound
    message this answers, where the platform threads replies.
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
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outbound:
        """The message :meth:`to_json` wrote; also reads rows stored before it: images in hex (the
        Matrix queue) and rows without ``reply_to`` (the Telegram queue)."""
        image: bytes | None = None
        if data.get("image"):
            text = str(data["image"])
            image = bytes.fromhex(text) if _HEX.fullmatch(text) else base64.b64decode(text)
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
        )
