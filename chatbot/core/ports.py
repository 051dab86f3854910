"""The core's ports: what it needs from storage and from each game's chat side.

Storage: the records the core reads and writes, and the :class:`Repository` it calls.
``chatbot.storage`` implements it with SQLModel; tests may use the same class on SQLite or
PostgreSQL. The core never imports the storage package or SQLAlchemy.

The runtime: the outbox rows, deadlines and the :class:`Transport` a platform implements. A game's
chat side has its own port, :class:`chatbot.core.gameui.GameUI`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol, overload, runtime_checkable

from chatbot.core.types import Inbound, Outbound

if TYPE_CHECKING:
    from chatbot.runtime.limits import RateLimiter

LOBBY, RUNNING, OVER, CANCELLED = "lobby", "running", "over", "cancelled"


@dataclass(frozen=True, slots=True)
class UserRec:
    id: int
    platform: str
    ext_id: str
    name: str
    lang: str | None


@dataclass(frozen=True, slots=True)
class RoomRec:
    id: int
    platform: str
    ext_id: str
    lang: str | None


@dataclass(frozen=True, slots=True)
class SeatRec:
    seat: int
    name: str
    user_id: int | None = None
    ai: str | None = None


@dataclass(frozen=True, slots=True)
class MatchRec:
    id: int
    room_id: int
    game: str
    options: dict[str, Any]
    seed: str
    version: int
    status: str
    state: dict[str, Any] | None
    host_user_id: int | None
    seats: tuple[SeatRec, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ActionRec:
    ply: int
    seat: int
    notation: str
    events: list[Any]


@dataclass(frozen=True, slots=True)
class FinishedRec:
    """A finished match for statistics and history (issue #16): its seats, when it ended (epoch
    seconds) and its stored result (None: not made yet, a match that ended before results were kept)."""

    id: int
    room_id: int
    game: str
    seats: tuple[SeatRec, ...]
    finished_at: float
    result: dict[str, Any] | None


class Repository(Protocol):
    def user(self, platform: str, ext_id: str, name: str) -> UserRec: ...
    def find_user(self, platform: str, ext_id: str) -> UserRec | None: ...
    def user_by_id(self, user_id: int) -> UserRec: ...
    def set_user_lang(self, user_id: int, lang: str) -> None: ...
    def room(self, platform: str, ext_id: str) -> RoomRec: ...
    def room_by_id(self, room_id: int) -> RoomRec: ...
    def set_room_lang(self, room_id: int, lang: str) -> None: ...
    def move_room(self, platform: str, old_ext: str, new_ext: str) -> RoomRec | None: ...
    def rooms_in(self, platform: str, chat: str) -> list[RoomRec]: ...

    def active_match(self, room_id: int) -> MatchRec | None: ...
    def match(self, match_id: int) -> MatchRec | None: ...
    def running_matches(self) -> list[MatchRec]: ...
    def running_versions(self) -> list[tuple[int, int]]: ...
    def matches_of_user(self, user_id: int) -> list[MatchRec]: ...
    def create_match(
        self,
        room_id: int,
        game: str,
        options: dict[str, Any],
        seed: str,
        host_user_id: int | None,
        seats: tuple[SeatRec, ...],
    ) -> MatchRec: ...
    def update_lobby(
        self,
        match_id: int,
        seen_version: int,
        seats: tuple[SeatRec, ...],
        status: str = LOBBY,
        options: dict[str, Any] | None = None,
    ) -> bool: ...
    def start_match(
        self, match_id: int, seen_version: int, seats: tuple[SeatRec, ...], state: dict[str, Any], seed: str
    ) -> bool: ...
    def commit_action(
        self,
        match_id: int,
        seen_version: int,
        seat: int,
        notation: str,
        events: list[Any],
        state: dict[str, Any],
        status: str,
        seats: tuple[SeatRec, ...] | None = None,
    ) -> bool: ...
    def actions(self, match_id: int, since_ply: int = 0) -> list[ActionRec]: ...
    def set_meta(self, match_id: int, key: str, value: Any) -> None: ...

    # statistics, history and replay (issue #16)
    def finished_matches(
        self, room_id: int | None = None, user_id: int | None = None, limit: int | None = None
    ) -> list[FinishedRec]: ...
    def set_result(self, match_id: int, finished_at: float, result: dict[str, Any]) -> None: ...

    def kv_get(self, namespace: str, key: str) -> Any: ...
    def kv_set(self, namespace: str, key: str, value: Any) -> None: ...
    #: every key of a namespace with its value (the members a room has seen, issue #27)
    def kv_items(self, namespace: str, limit: int = 1000) -> dict[str, Any]: ...

    # one update = one transaction (issue #12): inside ``unit`` every call above and below joins
    # the unit's transaction and a match is read once; the unit commits once at its end. With
    # ``update`` (platform, key) the inbound id is recorded first; the block gets False when it was
    # already recorded (a redelivery) and nothing it does is kept.
    def unit(self, update: tuple[str, str] | None = None) -> AbstractContextManager[bool]: ...
    def outbox_add(self, outs: Sequence[Outbound]) -> None: ...
    def outbox_hold(self, chat: ChatQueue) -> int: ...
    def outbox_unhold(self, chat: ChatQueue) -> int: ...
    def set_deadlines(self, match_id: int, deadlines: Sequence[Deadline]) -> None: ...
    #: the earliest due time of the deadlines stored so far in the open unit (None: none stored), so
    #: the runtime's deadline loop is woken only when a change made something due sooner
    def unit_earliest_due(self) -> float | None: ...
    #: the matches whose version the open unit raised (an action, new seats, a start): each gets
    #: live prompts before the unit commits
    def changed_matches(self) -> frozenset[int]: ...
    def drop_deadline(self, deadline: Deadline, worker: str | None = None) -> bool: ...
    def deadlines(self, match_id: int) -> list[Deadline]: ...
    def due_deadlines(self, now: float, worker: str, lease: float, limit: int) -> list[Deadline]: ...
    def release_deadlines(self, worker: str, now: float) -> int: ...
    def prune(self, done_before: float, seen_before: float) -> int: ...
    def next_due(self) -> float | None: ...
    #: running matches without any deadline (stored before deadlines were), read a bounded chunk at
    #: a time while the caller goes on (see the store's ``between_chunks``)
    def matches_without_deadlines(self) -> Iterable[MatchRec]: ...

    # read together (issue #12, fast path)
    def context(
        self, platform: str, ext_id: str, name: str, chat: str | None
    ) -> tuple[UserRec, RoomRec | None]:
        """``user(platform, ext_id, name)`` and, for a group message, ``room(platform, chat)`` with
        the room's active match, in one round trip."""
        ...

    def action_keys(self, match_id: int, since_ply: int = 0) -> list[tuple[int, int, str]]:
        """(ply, seat, notation) of the actions after ``since_ply``: ``actions`` without the events."""
        ...


# ---------------------------------------------------------------------------------------------
# The runtime's port (issue #12): outbox, deadlines, inbound ids. Every change the core commits
# (an action, a lobby change, a plain answer) carries the outbound messages it caused, the match's
# next deadlines and the inbound update id, and stores them in ONE transaction with the change;
# the runtime delivers the outbox afterwards and fires deadlines when they are due.

#: the kinds of chat queue: a group chat, a user's private chat
GROUP: Final = "g"
USER: Final = "u"


@dataclass(frozen=True, slots=True, order=True)
class ChatQueue:
    """One delivery queue: a group chat (``kind`` :data:`GROUP`) or one user's private chat
    (:data:`USER`) on one platform. Messages of one queue are delivered in commit order, by one
    worker at a time. Stored as the text ``<platform>:<kind>:<id>`` (:meth:`__str__`, :meth:`parse`:
    only the storage reads and writes that form)."""

    platform: str
    kind: Literal["g", "u"]
    id: str

    @classmethod
    def of(cls, out: Outbound) -> ChatQueue:
        """The queue of an outbound message: its user's private chat, else its group."""
        if out.user_id is not None:
            return cls(out.platform, USER, out.user_id)
        return cls(out.platform, GROUP, str(out.chat_id))

    @classmethod
    def group(cls, platform: str, chat_id: str) -> ChatQueue:
        return cls(platform, GROUP, chat_id)

    @classmethod
    def user(cls, platform: str, user_id: str) -> ChatQueue:
        return cls(platform, USER, user_id)

    @property
    def is_group(self) -> bool:
        return self.kind == GROUP

    def whole_chat(self) -> ChatQueue:
        """The queue of the chat itself when this one is a Telegram forum topic (``<chat>:<topic>``)."""
        return replace(self, id=self.id.split(":", 1)[0])

    def __str__(self) -> str:
        return f"{self.platform}:{self.kind}:{self.id}"

    @classmethod
    def parse(cls, text: str) -> ChatQueue:
        """The queue :meth:`__str__` wrote."""
        platform, kind, chat = text.split(":", 2)
        if kind not in (GROUP, USER):
            raise ValueError(f"not a chat queue: {text!r}")
        return cls(platform, GROUP if kind == GROUP else USER, chat)


def chat_of(out: Outbound) -> str:
    """The stored name of ``out``'s delivery queue (``str(ChatQueue.of(out))``), for a key/value key."""
    return str(ChatQueue.of(out))


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """A committed outbound message waiting for delivery."""

    id: int
    chat: ChatQueue
    out: Outbound
    attempts: int = 0
    #: the transport's note written just before it sent this row as a new message (None: never
    #: tried, or an edit): the message may be on the platform already though the row is not done
    sending: Any = None


@dataclass(slots=True)
class Booking:
    """A chat queue's delivery bookkeeping not written yet, written in ONE transaction with the
    store's next call for that chat (:meth:`RuntimeStore.outbox_book`, or the ``booking`` of
    ``outbox_pending``/``outbox_release``): the rows the platform accepted (each with its message's
    reference; done, and for a keyed row the reference kept and older rows of the key superseded),
    the note of the row about to be sent as a new message (written before it is sent, see
    :attr:`OutboxRow.sending`), and key/value writes (the chat's rate-limit window)."""

    done: list[tuple[OutboxRow, str | None]] = field(default_factory=list)
    sending: tuple[int, Any] | None = None
    kv: dict[tuple[str, str], Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.done or self.sending is not None or self.kv)


#: joins the steps of one button ("end_phase;flip": end the phase, then flip), see GameUI.button_rows
THEN = ";"

#: deadline kinds: an AI seat's move, a reminder, the bot's move for an idle person, a reaction window
AI_TURN, REMIND, IDLE_MOVE, WINDOW = "ai", "remind", "idle", "window"


@dataclass(frozen=True, slots=True)
class Deadline:
    """Something to do in a match at ``due`` (epoch seconds), valid only while the match is still at
    ``version``; ``seats`` are the seats it concerns. A match has at most one deadline of a kind."""

    match_id: int
    kind: str
    due: float
    version: int
    seats: tuple[int, ...] = ()


class StorageUnavailable(Exception):
    """The database cannot be reached or is locked; raised by the repository so the core can apologise
    without knowing the driver's exceptions."""


class UpdateSeen(Exception):
    """Raised inside a unit opened with an inbound update id that had been recorded before (a
    redelivery), when the repository finds so only at the unit's first statement (PostgreSQL reads
    the update id along with the speaker's context): the unit is rolled back, nothing was done."""


@dataclass(frozen=True, slots=True, eq=False)
class Answer(Sequence[Outbound]):
    """What the core's use cases return to the runtime: the outbound ``messages`` (a sequence of
    them), normally exactly what was committed to the outbox (the runtime only wakes the deliverer).

    ``committed`` is False for the apology made while the database was unavailable, which is in no
    outbox: the runtime sends those messages itself. ``duplicate`` is True when the update had been
    handled before (a redelivery: nothing was done). ``due`` is the earliest due time of the
    deadlines the change stored, None when it stored none (the runtime's deadline loop need not
    look); a core that does not know leaves it at 0.0 (look). Equal to a list of the same messages."""

    messages: Sequence[Outbound] = ()
    committed: bool = True
    duplicate: bool = False
    due: float | None = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "messages", tuple(self.messages))

    @classmethod
    def seen(cls) -> Answer:
        return cls(duplicate=True, due=None)

    @classmethod
    def made(cls, outs: Sequence[Outbound], due: float | None) -> Answer:
        return cls(outs, due=due)

    @classmethod
    def direct(cls, outs: Sequence[Outbound]) -> Answer:
        return cls(outs, committed=False)

    def __len__(self) -> int:
        return len(self.messages)

    @overload
    def __getitem__(self, index: int) -> Outbound: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Outbound]: ...
    def __getitem__(self, index: int | slice) -> Outbound | Sequence[Outbound]:
        return self.messages[index]

    def __iter__(self) -> Iterator[Outbound]:
        return iter(self.messages)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Answer):
            mine = (self.messages, self.committed, self.duplicate, self.due)
            return mine == (other.messages, other.committed, other.duplicate, other.due)
        if isinstance(other, list | tuple):
            return list(self.messages) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        flags = "" if self.committed else ", committed=False"
        flags += ", duplicate=True" if self.duplicate else ""
        return f"Answer({list(self.messages)!r}{flags}, due={self.due!r})"


@runtime_checkable
class RuntimeStore(Protocol):
    """What the runtime needs of storage besides :class:`Repository` (implemented by the same class).

    Claims are leases: a worker that dies loses its claim when ``lease`` seconds have passed, and
    another takes over. On PostgreSQL claims use ``FOR UPDATE SKIP LOCKED``; on SQLite a guarded
    ``UPDATE … WHERE claimed_until < now``. A store that subclasses this class gets the defaults of
    the optional members (a store without them works, only slower)."""

    #: the database's URL ("" for a store in memory of the process)
    url: str = ""

    def seen_update(self, platform: str, key: str) -> bool: ...
    def outbox_claim(
        self,
        platform: str,
        worker: str,
        now: float,
        lease: float,
        limit: int,
        sending: Sequence[ChatQueue] = (),
    ) -> list[ChatQueue]:
        """Claim up to ``limit`` chats with rows to send now; those of ``sending`` (this worker's
        already) that have rows are listed too, not claimed again."""
        ...

    def outbox_pending(
        self,
        chat: ChatQueue,
        now: float,
        limit: int = 20,
        booking: Booking | None = None,
        note: Callable[[list[OutboxRow]], tuple[int, Any] | None] | None = None,
    ) -> list[OutboxRow]:
        """The chat's rows to send now, in commit order (a row waiting for a retry stops the list),
        after writing ``booking``; ``note(rows)`` may name a row of them and its send note, written
        in the same transaction as the read (the rows are returned as read, before it)."""
        ...

    def outbox_done(self, row_id: int, ref: str | None) -> None: ...
    def outbox_later(self, row_id: int, not_before: float) -> None: ...
    def outbox_release(self, chat: ChatQueue, worker: str, booking: Booking | None = None) -> None: ...
    def outbox_renew(
        self, chats: Sequence[ChatQueue], worker: str, now: float, lease: float
    ) -> list[ChatQueue]: ...
    def message_ref(self, chat: ChatQueue, key: str) -> str | None: ...
    def kv_get(self, namespace: str, key: str) -> Any: ...
    def kv_set(self, namespace: str, key: str, value: Any) -> None: ...
    def due_deadlines(self, now: float, worker: str, lease: float, limit: int) -> list[Deadline]: ...
    def next_due(self) -> float | None: ...

    # --- optional: defaults that do without ------------------------------------------------------
    def outbox_book(self, booking: Booking) -> None:
        """Write ``booking`` now, in one transaction."""
        for row, ref in booking.done:
            self.outbox_done(row.id, ref)
        if booking.sending is not None:
            self.outbox_sending(*booking.sending)
        for (namespace, key), value in booking.kv.items():
            self.kv_set(namespace, key, value)

    def outbox_sending(self, row_id: int, note: Any) -> None:
        """Keep the transport's note of a row about to be sent as a new message (default: nowhere,
        so a row sent just before a crash may be sent again)."""
        return None

    def outbox_claim_chats(
        self, chats: Sequence[ChatQueue], worker: str, now: float, lease: float
    ) -> list[ChatQueue]:
        """Claim these chats (an update's, just committed) at once; the default claims none (the
        claim round finds them)."""
        return []

    def outbox_notes(self, platform: str, limit: int = 200) -> list[tuple[ChatQueue, Any]]:
        """The newest rows' send notes of ``platform``, newest first (default: none kept)."""
        return []

    def outbox_superseded(self, row_ids: Sequence[int]) -> None:
        """Rows a newer row of the same key replaces, never to be sent (default: ``outbox_done``
        of the newest marks them)."""
        return None

    def yield_to(self, urgent: Callable[[], int] | None) -> None:
        """Call ``urgent()`` (it returns how much work it ran) between the pieces of a long piece of
        work on the core's thread (a first start's rebuild of missing deadlines), so that waiting
        updates go first; default: never."""
        return None

    def committing(
        self,
        hook: Callable[[list[Outbound]], Callable[[], None] | None],
        wants: Callable[[Sequence[Outbound]], tuple[ChatQueue, int] | None] | None = None,
    ) -> AbstractContextManager[None]:
        """While the block runs, a unit of this thread that queued outbox rows calls ``hook(rows)``
        inside its transaction right before the commit, and what the hook returned once the commit
        has succeeded; ``wants(rows)`` may name the chat queue the hook will read, so the store can
        read it along (default: no hook is called)."""
        return nullcontext()


class RuntimeCore(Protocol):
    """The core as the runtime drives it (:class:`~chatbot.core.service.BotCore`)."""

    #: the deep link the core puts in its "open the private chat" notice (set by the runtime from
    #: the transport's :attr:`Transport.link_template`)
    link_template: str | None

    @property
    def repo(self) -> object:
        """The core's repository: the runtime's store too, unless the runtime is given one."""
        ...

    @property
    def addressed_only(self) -> set[str]:
        """Platforms on which the bot sees only group text addressed to it (the runtime adds its
        transport's when the platform says so)."""
        ...

    def handle(self, msg: Inbound) -> Answer: ...
    def run_due(self, worker: str | None = None, limit: int = 20) -> Sequence[Outbound]: ...
    def next_due(self) -> float | None: ...
    def private_blocked(self, platform: str, user_ext_id: str) -> Answer: ...

    def warm(self) -> None:
        """Build now what the first answers after a start would otherwise build (default: nothing)."""
        return None


class WebLinks(Protocol):
    """Links into the web view of a match (issue #29; ``chatbot.web`` implements it): ``user`` is the
    platform user id of a private message's reader (a link that opens their seats too), None for a
    group's message (the public table only). None when there is no link to give."""

    def link(self, platform: str, match_id: int, user: str | None) -> str | None: ...


class Members(Protocol):
    """A platform's view of a chat's members, for the roles of issue #13.

    ``is_admin`` answers whether ``user_id`` administers ``chat_id`` (a Telegram group's
    administrator or creator, a Matrix room's member with power level 50 or more); None when the
    platform cannot tell now. Called on the core's thread; implementations cache briefly."""

    def is_admin(self, chat_id: str, user_id: str) -> bool | None: ...


class Blocked(Exception):
    """The platform refuses to deliver to this private chat (a Telegram user who never opened the bot)."""


class RetryLater(Exception):
    """The platform asks to wait (rate limit, 5xx, network): try the same message again after ``seconds``."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class Transport(Protocol):
    """A platform, as the runtime sees it: translation only, no use case. A transport subclasses
    this class and gets the defaults of the optional members.

    ``deliver`` sends ``out`` as a new message, or, when ``ref`` names the platform message sent
    before under the same ``out.key``, edits it in place; it returns the platform's reference of the
    message (to edit it later), raises :class:`Blocked` or :class:`RetryLater`, and treats "not
    modified" as done. ``txn`` is unique per outbox row and the same on every retry, for platforms
    that deduplicate sends by it (Matrix transaction ids)."""

    platform: str
    #: the limits the runtime paces this platform's calls by (None: none)
    limiter: RateLimiter | None = None
    #: True when the transport acquires :attr:`limiter` itself, per platform call (a row may take
    #: several); else the runtime acquires it once per row
    limits_calls: bool = False
    #: False when the bot sees only group text addressed to it (Telegram's privacy mode)
    group_text_visible: bool = True

    async def deliver(self, out: Outbound, ref: str | None, txn: str) -> str | None: ...

    @property
    def link_template(self) -> str | None:
        """The deep link into the bot's private chat, ``{payload}`` to be filled in (None: none)."""
        return None

    def send_note(self, out: Outbound, ref: str | None) -> Any:
        """What to store before ``out`` is sent as a new message, for :meth:`find_sent` after a
        crash (JSON; None: nothing, the platform deduplicates by ``txn`` or cannot be asked)."""
        return None

    async def find_sent(self, out: Outbound, ref: str | None, note: Any, txn: str) -> tuple[bool, str | None]:
        """Whether the message of a row noted with ``note`` reached the platform before a crash (and
        its reference); default: never found, it is sent."""
        return False, None
