"""The core's own small message types. Transports translate platform updates into :class:`Inbound`
and :class:`Outbound` into platform calls; nothing here knows Telegram, Matrix or the database."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Inbound:
    """A user's message or button press.

    ``chat_id`` is the group/room for a group message; for a private message it is the user's
    private chat on that platform. ``lang_hint`` is the platform's idea of the user's language.
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
