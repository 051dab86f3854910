"""TEST DOUBLES of the runtime's port: an in-memory RuntimeStore, a tiny core that commits outbox
rows and deadlines, and a recording transport with scripted failures.

They exist so the runtime can be unit-tested against the seam (chatbot/core/ports.py) alone; the
end-to-end tests run the real core and SqlRepository."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chatbot.core.ports import (
    AI_TURN,
    Answer,
    Blocked,
    ChatQueue,
    Deadline,
    OutboxRow,
    RetryLater,
    RuntimeCore,
    RuntimeStore,
    StorageUnavailable,
    Transport,
)
from chatbot.core.types import Inbound, Outbound


@dataclass
class Row:
    id: int
    platform: str
    chat: str  # the stored form of its ChatQueue
    out: Outbound
    state: str = "pending"
    attempts: int = 0
    not_before: float = 0.0
    held: bool = False


class MemoryStore(RuntimeStore):
    """An in-memory RuntimeStore (plus kv) with the claim semantics of the real one."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.rows: list[Row] = []
        self.claims: dict[str, tuple[str, float]] = {}
        self.refs: dict[tuple[str, str], str] = {}
        self.seen: set[tuple[str, str]] = set()
        self.deadlines: dict[tuple[int, str], tuple[Deadline, str | None, float]] = {}
        self.kv: dict[tuple[str, str], Any] = {}
        self.down = False
        self.lock = threading.Lock()
        self.threads: set[str] = set()

    def _check(self) -> None:
        self.threads.add(threading.current_thread().name)
        if self.down:
            raise StorageUnavailable("the test database is down")

    # --- what the core commits ----------------------------------------------------------------
    def add(self, outs: list[Outbound]) -> None:
        with self.lock:
            for out in outs:
                self.rows.append(Row(len(self.rows) + 1, out.platform, str(ChatQueue.of(out)), out))

    # --- RuntimeStore --------------------------------------------------------------------------
    def seen_update(self, platform: str, key: str) -> bool:
        self._check()
        return (platform, key) in self.seen

    def _sendable(self, row: Row, now: float) -> bool:
        return row.state == "pending" and not row.held and row.not_before <= now

    def outbox_claim(
        self, platform: str, worker: str, now: float, lease: float, limit: int, sending=()
    ) -> list[ChatQueue]:
        self._check()
        mine = {str(chat) for chat in sending}
        with self.lock:
            newest: dict[str, int] = {}
            for row in self.rows:
                if row.platform == platform and self._sendable(row, now):
                    newest[row.chat] = row.id
            out, claimed = [], 0
            for chat in sorted(newest, key=lambda c: -newest[c]):
                owner = self.claims.get(chat)
                if owner is not None and owner[0] != worker and owner[1] >= now:
                    continue  # another worker sends it
                if chat in mine:  # this worker's already: listed, not claimed again
                    out.append(ChatQueue.parse(chat))
                    continue
                if claimed >= limit:
                    continue
                self.claims[chat] = (worker, now + lease)
                out.append(ChatQueue.parse(chat))
                claimed += 1
            return out

    def outbox_pending(self, chat, now: float, limit: int = 20, booking=None, note=None) -> list[OutboxRow]:
        if booking:
            self.outbox_book(booking)
        self._check()
        with self.lock:
            rows = [r for r in self.rows if r.chat == str(chat) and self._sendable(r, now)]
            out = [
                OutboxRow(r.id, ChatQueue.parse(r.chat), Outbound.from_json(r.out.to_json()), r.attempts)
                for r in rows[:limit]
            ]
        if note is not None and out:
            note(out)  # (no send notes kept here)
        return out

    def outbox_done(self, row_id: int, ref: str | None) -> None:
        self._check()
        with self.lock:
            row = self.rows[row_id - 1]
            row.state = "done"
            if row.out.key is not None and ref is not None:
                self.refs[(row.chat, row.out.key)] = ref

    def outbox_superseded(self, row_ids: list[int]) -> None:
        self._check()
        with self.lock:
            for row_id in row_ids:
                self.rows[row_id - 1].state = "superseded"

    def outbox_later(self, row_id: int, not_before: float) -> None:
        self._check()
        with self.lock:
            row = self.rows[row_id - 1]
            row.attempts += 1
            row.not_before = not_before

    def outbox_renew(self, chats, worker: str, now: float, lease: float) -> list[ChatQueue]:
        self._check()
        with self.lock:
            held = [c for c in chats if self.claims.get(str(c), ("", 0))[0] == worker]
            for chat in held:
                self.claims[str(chat)] = (worker, now + lease)
            return held

    def outbox_release(self, chat, worker: str, booking=None) -> None:
        if booking:
            self.outbox_book(booking)
        self._check()
        with self.lock:
            if self.claims.get(str(chat), ("", 0))[0] == worker:
                del self.claims[str(chat)]

    def message_ref(self, chat, key: str) -> str | None:
        self._check()
        return self.refs.get((str(chat), key))

    def due_deadlines(self, now: float, worker: str, lease: float, limit: int) -> list[Deadline]:
        self._check()
        with self.lock:
            found = []
            for k, (d, owner, until) in sorted(self.deadlines.items(), key=lambda kv: kv[1][0].due):
                if d.due <= now and (owner is None or until < now):
                    self.deadlines[k] = (d, worker, now + lease)
                    found.append(d)
                    if len(found) >= limit:
                        break
            return found

    def next_due(self) -> float | None:
        self._check()
        return min((d.due for d, _o, _u in self.deadlines.values()), default=None)

    def kv_get(self, namespace: str, key: str) -> Any:
        self._check()
        return self.kv.get((namespace, key))

    def kv_set(self, namespace: str, key: str, value: Any) -> None:
        self._check()
        self.kv[(namespace, key)] = value

    # --- for assertions ------------------------------------------------------------------------
    def states(self) -> list[str]:
        return [r.state for r in self.rows]


class EchoCore(RuntimeCore):
    """A core double: "say X" answers X in the chat; "table N" commits a keyed table edit; "ai N"
    sets an AI deadline that, when run, posts N AI moves one after another; a private answer to a
    user goes to their private chat."""

    repo: Any = None  # (the protocol's read-only properties, set here)
    addressed_only: Any = None

    def __init__(self, store: MemoryStore, clock: Callable[[], float]) -> None:
        self.repo = store
        self.clock = clock
        self.link_template = ""
        self.addressed_only: set[str] = set()
        self.handled: list[Inbound] = []
        self.blocked: list[tuple[str, str]] = []
        self.fail_next = False

    def handle(self, msg: Inbound) -> Answer:
        store = self.repo
        if store.down:
            return Answer.direct([Outbound(msg.platform, "sorry", chat_id=msg.chat_id)])
        if msg.update_key is not None:
            if (msg.platform, msg.update_key) in store.seen:
                return Answer.seen()
            store.seen.add((msg.platform, msg.update_key))
        self.handled.append(msg)
        text = msg.text or ""
        word, _, arg = text.partition(" ")
        outs: list[Outbound] = []
        if word == "say":
            outs = [Outbound(msg.platform, arg, chat_id=msg.chat_id, reply_to=msg.message_id)]
        elif word == "table":
            outs = [Outbound(msg.platform, f"table {arg}", chat_id=msg.chat_id, key="table:1")]
        elif word == "dm":
            outs = [Outbound(msg.platform, arg, user_id=msg.user_id)]
        elif word == "many":
            outs = [Outbound(msg.platform, f"m{i}", chat_id=msg.chat_id) for i in range(int(arg))]
        elif word == "ai":
            store.deadlines[(1, AI_TURN)] = (Deadline(1, AI_TURN, self.clock(), int(arg), ()), None, 0.0)
        store.add(outs)
        return Answer(outs)

    def run_due(self, worker: str, limit: int = 20) -> list[Outbound]:
        store = self.repo
        out: list[Outbound] = []
        for d in store.due_deadlines(self.clock(), worker, 30.0, limit):
            del store.deadlines[(d.match_id, d.kind)]
            moves = d.version
            out.append(Outbound("test", f"ai move {moves}", chat_id="g", key="table:1"))
            out.append(Outbound("test", f"ai said {moves}", chat_id="g"))
            if moves > 1:
                store.deadlines[(1, AI_TURN)] = (Deadline(1, AI_TURN, self.clock(), moves - 1, ()), None, 0.0)
        store.add(out)
        return out

    def next_due(self) -> float | None:
        return self.repo.next_due()

    def private_blocked(self, platform: str, user_ext_id: str) -> Answer:
        store = self.repo
        self.blocked.append((platform, user_ext_id))
        chat = str(ChatQueue.user(platform, user_ext_id))
        for row in store.rows:
            if row.chat == chat and row.state == "pending":
                row.held = True
        notice = [Outbound(platform, f"{user_ext_id}: open the bot {self.link_template}", chat_id="g")]
        store.add(notice)
        return Answer(notice)


@dataclass
class Sent:
    out: Outbound
    ref: str | None
    txn: str
    at: float


@dataclass
class RecordingTransport(Transport):
    """Records deliveries; ``script`` maps a text to a list of exceptions raised on its attempts."""

    platform: str = "test"
    delay: float = 0.0
    sent: list[Sent] = field(default_factory=list)
    script: dict[str, list[BaseException]] = field(default_factory=dict)
    blocked_users: set[str] = field(default_factory=set)
    limiter: Any = None
    in_flight: int = 0
    max_in_flight: int = 0
    link_template: str = "https://t.me/testbot?start={payload}"

    async def deliver(self, out: Outbound, ref: str | None, txn: str) -> str | None:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            failures = self.script.get(out.text)
            if failures:
                raise failures.pop(0)
            if out.user_id is not None and out.user_id in self.blocked_users:
                raise Blocked(out.user_id)
            self.sent.append(Sent(out, ref, txn, asyncio.get_running_loop().time()))
            return ref or f"msg{len(self.sent)}"
        finally:
            self.in_flight -= 1

    def texts(self, chat: str | None = None) -> list[str]:
        return [s.out.text for s in self.sent if chat is None or str(ChatQueue.of(s.out)) == str(chat)]


__all__ = ["Blocked", "EchoCore", "MemoryStore", "RecordingTransport", "RetryLater"]
