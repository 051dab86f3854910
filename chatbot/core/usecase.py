"""What the core's use cases share: who is speaking, the lost race for a match, the core's settings
and the answer to the sender (:func:`reply`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from chatbot.core.i18n import Translator
from chatbot.core.ports import Members, RoomRec, UserRec, WebLinks
from chatbot.core.types import Button, Inbound, Outbound


@dataclass(frozen=True, slots=True)
class Speaker:
    """The sender of an inbound message, resolved against storage."""

    user: UserRec
    lang: str
    room: RoomRec | None


class Conflict(Exception):
    """Another change of the match committed first (its version moved on). The unit is rolled back;
    a person's command is then read again against the new state, an AI or timer move is dropped."""

    def __init__(self, lobby: bool = False) -> None:
        super().__init__("lobby" if lobby else "match")
        self.lobby = lobby


@dataclass
class CoreSettings:
    """The core's settings, one object shared by the collaborators that read them. A transport sets
    some at its start (the deep link, who administers a chat, which platforms address the bot only),
    so they are read when used, never copied."""

    #: seconds until a person who must act is reminded, and until the bot moves for them
    remind_after: float = 600.0
    act_after: float = 1800.0
    #: seconds before an AI seat moves (0: at once; a transport may slow the bots down)
    ai_delay: float = 0.0
    #: seconds a claimed deadline stays with the worker that claimed it
    lease: float = 30.0
    #: the deep link into a private chat, e.g. "https://t.me/<bot>?start={payload}" (set by the
    #: transport at start; the core fills in the payload "join-<match id>")
    link_template: str | None = None
    #: per platform, who administers a chat (set by each transport; issue #13)
    members: dict[str, Members] = field(default_factory=dict)
    #: platforms on which the bot sees in groups only what is addressed to it: commands, replies
    #: to its messages, mentions (Telegram's privacy mode; set by the transport at start)
    addressed_only: set[str] = field(default_factory=set)
    #: the seed matches are dealt from (``<base>:<match id>``), None for a random one per match
    base_seed: str | None = None
    #: links into the web view of a match (issue #29), None when it is off; tables, private prompts,
    #: replays and the history then carry a link button
    web: WebLinks | None = None

    def web_row(self, platform: str, match_id: int, user: str | None, label: str) -> list[Button]:
        """The link button into the web view of a match, as a row ([] when the view is off)."""
        url = self.web.link(platform, match_id, user) if self.web is not None else None
        return [Button(label, url)] if url else []


def reply(
    msg: Inbound,
    t: Translator,
    text: str,
    buttons: Sequence[Sequence[Button]] = (),
    private: bool | None = None,
) -> Outbound:
    """An answer to the sender where they wrote (or in private when ``private``)."""
    alone = private or (private is None and msg.private)
    return Outbound(
        msg.platform,
        text,
        chat_id=None if alone else msg.chat_id,
        user_id=msg.user_id if alone else None,
        buttons=rows(buttons),
        reply_to=msg.message_id,
        lang=t.lang,
    )


def not_here(msg: Inbound, t: Translator) -> list[Outbound]:
    """The one answer to a button pressed where it was not offered, or with data not well formed: it
    tells nothing about any match."""
    text = t.gettext("That button does not work here. Use the buttons of the latest message in this chat.")
    return [reply(msg, t, text, private=msg.private)]


def stale(msg: Inbound, t: Translator) -> list[Outbound]:
    """The answer to a button of an older message, pressed where it was offered."""
    return [reply(msg, t, t.gettext("That button is stale; use the latest message."), private=msg.private)]


def rows(buttons: Sequence[Sequence[Button]]) -> tuple[tuple[Button, ...], ...]:
    """Button rows as an :class:`Outbound` holds them, empty rows left out."""
    return tuple(tuple(row) for row in buttons if row)
