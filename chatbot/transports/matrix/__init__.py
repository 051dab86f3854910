"""The Matrix transport: a room is a table, a direct room per player holds that player's hand.

Everything the bot sends is an ``m.notice``. The table of a match (an :class:`Outbound` with a
``key``) is posted once and then edited in place with ``m.replace``; when the room has moved on by
more than ``repost_after`` messages the table is posted anew, so it stays in sight without flooding.
Answers are threaded to the command they answer (``m.in_reply_to``). Matrix has no buttons: their
labels become one hint line ("Vaihtoehdot: Nosta · Ota poistopakasta → 1"), and players type or
react with the number key of an option.

A seat's private panel is one message per turn, edited in place like the table (issue #28). Matrix
refuses the same reaction by one person on one event a second time, so after a reaction key has
pressed a button the bot takes the reaction back (redacts it) where the room lets it (the direct
rooms it opens: it is their creator). Where it may not (a group room where it is no moderator), the
message's next edit numbers its options with the next set of keys (1️⃣ …, then ① …, ❶ …), which
nobody has used on it yet; after the last set the message is posted anew.

Private messages go to a direct room that the bot creates (``is_direct``, invite, ``m.direct``
account data) or that the player opened by inviting the bot; the mapping lives in the core's
key/value store. Text written there reaches the core as a private :class:`Inbound`.

It runs on the :class:`~chatbot.runtime.Runtime`: an event becomes an :class:`Inbound` whose
``update_key`` is the event id (a redelivered event is applied once), and the runtime delivers the
core's outbox rows through :meth:`MatrixBot.deliver` with the row's transaction id, so a resend after
a crash or a ``429 M_LIMIT_EXCEEDED`` (``retry_after_ms`` -> ``RetryLater``) is deduplicated by the
homeserver. AI moves and timers are the runtime's deadlines. The sync token is stored with the
runtime's small key-value state, so restarts neither replay nor lose events; a gap in a room's
timeline is filled from ``/messages``.

Encrypted rooms work when ``matrix-nio[e2e]`` is installed: the bot trusts every device without
verification (a game bot holds no secrets worth a verification dance). Without it, or when a message
cannot be decrypted, the bot says in the room that it needs an unencrypted direct room.

The package: :mod:`~chatbot.transports.matrix.bot` (:class:`MatrixBot`: the transport the runtime
drives, its life cycle, and its parts built with what each needs, as the core's collaborators are):
:mod:`~chatbot.transports.matrix.client` (the session: login, the nio client, one sync),
:mod:`~chatbot.transports.matrix.sync` (the sync loop), :mod:`~chatbot.transports.matrix.events`
(room events), :mod:`~chatbot.transports.matrix.crypto`, :mod:`~chatbot.transports.matrix.delivery`
(sending), :mod:`~chatbot.transports.matrix.keys` (reaction keys),
:mod:`~chatbot.transports.matrix.direct` (direct rooms) and :mod:`~chatbot.transports.matrix.state`
(the small state several parts share); :mod:`~chatbot.transports.matrix.base` (constants, failures,
counters), :mod:`~chatbot.transports.matrix.text` (message text),
:mod:`~chatbot.transports.matrix.powers` (who administers a room) and
:mod:`~chatbot.transports.matrix.serve` (the entry point). This module re-exports their public names.
"""

from chatbot.transports.matrix.base import (
    BUTTON_MEMORY,
    EXPLAIN_EVERY,
    HANDLED_MEMORY,
    KEY_INDEX,
    KEYCAPS,
    KEYSETS,
    MAX_OPTIONS,
    MEGOLM,
    PLATFORM,
    SYNC_FILTER,
    UNDECRYPTED_WAIT,
    LoginFailed,
    Stats,
)
from chatbot.transports.matrix.bot import MatrixBot
from chatbot.transports.matrix.powers import ADMIN_LEVEL, MatrixMembers, RoomPowers
from chatbot.transports.matrix.serve import bot_from_env, main
from chatbot.transports.matrix.text import (
    choices,
    mentioned,
    message_text,
    options_line,
    png_size,
    strip_mention,
    strip_reply_fallback,
)

__all__ = [
    "ADMIN_LEVEL",
    "BUTTON_MEMORY",
    "EXPLAIN_EVERY",
    "HANDLED_MEMORY",
    "KEYCAPS",
    "KEYSETS",
    "KEY_INDEX",
    "MAX_OPTIONS",
    "MEGOLM",
    "PLATFORM",
    "SYNC_FILTER",
    "UNDECRYPTED_WAIT",
    "LoginFailed",
    "MatrixBot",
    "MatrixMembers",
    "RoomPowers",
    "Stats",
    "bot_from_env",
    "choices",
    "main",
    "mentioned",
    "message_text",
    "options_line",
    "png_size",
    "strip_mention",
    "strip_reply_fallback",
]
