"""The outbox in SQL: queued messages per chat queue, chat claims, message references, inbound update
ids and the delivery's bookkeeping (the :class:`~chatbot.core.ports.RuntimeStore` port, with the
outbox writes of the core's :class:`~chatbot.core.ports.Repository`).

Chat queues are :class:`~chatbot.core.ports.ChatQueue` values; the tables keep them as text
(``str``/``ChatQueue.parse``, here only).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import delete, update
from sqlalchemy import select as core_select
from sqlalchemy.engine import Connection
from sqlmodel import col, select

from chatbot.core.ports import Booking, ChatQueue, OutboxRow
from chatbot.core.types import Outbound
from chatbot.storage.db import Db, now
from chatbot.storage.statements import OUT, PENDING, SUPERSEDED
from chatbot.storage.tables import ChatClaim, MessageRef, Outbox


class OutboxStore:
    """The outbox, the claims, the references and the update ids over one :class:`Db`."""

    def __init__(self, db: Db) -> None:
        self.db = db
        #: what ``outbox_pending`` read along (the chat and key of each row, the refs of the keys), so
        #: that delivering a row needs no read; only the chat's one sender uses them
        self._row_keys: dict[int, tuple[str, str | None]] = {}
        self._refs: dict[str, dict[str, str | None]] = {}

    def committing(
        self,
        hook: Callable[[list[Outbound]], Callable[[], None] | None],
        wants: Callable[[Sequence[Outbound]], tuple[ChatQueue, int] | None] | None = None,
    ) -> AbstractContextManager[None]:
        """See :meth:`Db.committing`."""
        return self.db.committing(hook, wants)

    def seen_update(self, platform: str, key: str) -> bool:
        with self.db.conn() as c:
            return c.execute(self.db.sql.seen_select, {"p": platform, "k": key}).first() is not None

    # --- what the core queues --------------------------------------------------------------------
    def outbox_add(self, outs: Sequence[Outbound]) -> None:
        """Queue messages for delivery, in this order (one statement however many)."""
        if not outs:
            return
        at = now()
        rows = [
            {"platform": o.platform, "chat": str(ChatQueue.of(o)), "key": o.key, "payload": o.to_json()}
            for o in outs
        ]
        db = self.db
        unit = db.current()
        if unit is not None:
            unit.queued.extend(outs)
            unit.ahead = None
            # the match's deadlines, set while its messages were made, go in the same statement, and
            # on PostgreSQL so does the read of the chat queue the runtime reads ahead
            wants = db.wants if db.dialect == "postgresql" else None
            wanted = wants(outs) if wants is not None else None
            deadlines = meta = None
            if len(unit.deadline_writes) == 1:
                ((match_id, deadline_rows),) = unit.deadline_writes.items()
                unit.deadline_writes.clear()
                deadlines = (match_id, deadline_rows)
            if len(unit.meta_writes) == 1:
                ((match_id, match_meta),) = unit.meta_writes.items()
                unit.meta_writes.clear()
                meta = (match_id, match_meta)
            if deadlines is not None or wanted is not None or meta is not None:
                chat = (str(wanted[0]), wanted[1]) if wanted is not None else None
                with db.conn() as c:
                    ahead = db.compound.queue(c, rows, at, deadlines, chat, meta)
                    if chat is not None and ahead is not None:
                        unit.ahead = (chat[0], chat[1], ahead)
                return
        fresh = {"created_at": at, "state": PENDING, "attempts": 0, "not_before": 0.0, "held": False}
        with db.conn() as c:
            c.execute(db.sql.outbox_insert, [{**row, **fresh} for row in rows])

    def outbox_hold(self, chat: ChatQueue) -> int:
        """Keep a chat's pending rows back (a private chat the user has not opened yet)."""
        self._forget_ahead()
        unit = self.db.current()
        if unit is not None:
            unit.none_held.discard(str(chat))
        with self.db.conn() as c:
            return int(c.execute(self.db.sql.outbox_hold, {"c": str(chat)}).rowcount)

    def outbox_unhold(self, chat: ChatQueue) -> int:
        """Release a chat's held rows (the user opened it); how many there were."""
        unit = self.db.current()
        if unit is not None and str(chat) in unit.none_held:
            return 0  # the speaker's context read says there are none
        self._forget_ahead()
        with self.db.conn() as c:
            return int(c.execute(self.db.sql.outbox_unhold, {"c": str(chat)}).rowcount)

    def _move_queue(self, platform: str, old_ext: str, new_ext: str) -> None:
        """A group's pending rows go to the chat it became; its message references are forgotten."""
        old_chat, new_chat = str(ChatQueue.group(platform, old_ext)), str(ChatQueue.group(platform, new_ext))
        self._refs.pop(old_chat, None)
        self._refs.pop(new_chat, None)
        for row_id, (chat, key) in list(self._row_keys.items()):  # rows this process is sending now
            if chat == old_chat:
                self._row_keys[row_id] = (new_chat, key)
        with self.db.session() as s:
            for row in s.exec(
                select(Outbox).where(col(Outbox.chat) == old_chat, col(Outbox.state) == PENDING)
            ).all():
                row.chat = new_chat
                row.payload = {**row.payload, "chat_id": new_ext}
                s.add(row)
            s.exec(delete(MessageRef).where(col(MessageRef.chat) == old_chat))
            self.db.done(s)

    # --- claims ----------------------------------------------------------------------------------
    def outbox_claim(
        self,
        platform: str,
        worker: str,
        now: float,
        lease: float,
        limit: int,
        sending: Sequence[ChatQueue] = (),
    ) -> list[ChatQueue]:
        """Chats with something to send now that no other worker is sending, freshest first: up to
        ``limit`` claimed (a lease until ``now + lease``), and, besides, those of ``sending`` (the
        chats this worker sends already: not claimed again) that have rows. The claim is an upsert
        guarded by the lease's end, atomic on both databases (PostgreSQL waits on a row another
        claim holds and then re-checks)."""
        mine = {str(chat) for chat in sending}
        with self.db.conn() as c:
            params = {"platform": platform, "now": now, "me": worker, "limit": limit + len(mine)}
            found = list(c.execute(self.db.sql.claimable, params).scalars())
            out = [ChatQueue.parse(chat) for chat in found if chat in mine]
            return out + self._claim(
                c, [chat for chat in found if chat not in mine][:limit], worker, now, lease
            )

    def outbox_claim_chats(
        self, chats: Sequence[ChatQueue], worker: str, now: float, lease: float
    ) -> list[ChatQueue]:
        """Claim these chats (those no other worker is sending), whatever they hold: the chats of
        an update just committed, claimed at once instead of by the next claim round's search
        over every chat's pending rows (after a restart with a backlog, that search and its wait
        were most of a new command's time to its answer)."""
        with self.db.conn() as c:
            return self._claim(c, [str(chat) for chat in chats], worker, now, lease)

    def _claim(
        self, c: Connection, chats: list[str], worker: str, now: float, lease: float
    ) -> list[ChatQueue]:
        claimed = []
        for chat in chats:
            params = {"chat": chat, "worker": worker, "until": now + lease, "w_now": now, "w_me": worker}
            if c.execute(self.db.sql.claim_upsert, params).rowcount == 1:
                claimed.append(ChatQueue.parse(chat))
        return claimed

    def outbox_renew(
        self, chats: Sequence[ChatQueue], worker: str, now: float, lease: float
    ) -> list[ChatQueue]:
        """Extend this worker's claims of ``chats`` to ``now + lease``; the chats still claimed by it
        (a claim that ran out and was taken by another worker is not renewed, and is not listed)."""
        if not chats:
            return []
        with self.db.session() as s:
            mine = (col(ChatClaim.chat).in_([str(chat) for chat in chats]), col(ChatClaim.worker) == worker)
            s.exec(update(ChatClaim).where(*mine).values(until=now + lease))
            held = [ChatQueue.parse(chat) for chat in s.exec(select(ChatClaim.chat).where(*mine)).all()]
            self.db.done(s)
            return held

    def outbox_release(self, chat: ChatQueue, worker: str, booking: Booking | None = None) -> None:
        """This worker lets ``chat``'s claim go, after writing ``booking`` (in the same transaction)."""
        key = str(chat)
        self._refs.pop(key, None)  # another worker may send this chat next: read its refs afresh
        with self.db.conn() as c:
            if booking:
                self._book(c, booking)
            c.execute(self.db.sql.claim_release, {"c": key, "me": worker})

    # --- the chat's sender -----------------------------------------------------------------------
    def outbox_pending(
        self,
        chat: ChatQueue,
        now: float,
        limit: int = 20,
        booking: Booking | None = None,
        note: Callable[[list[OutboxRow]], tuple[int, Any] | None] | None = None,
    ) -> list[OutboxRow]:
        """The chat's rows to send now, in commit order, after writing ``booking`` (in the same
        transaction); a row waiting for a retry stops the list there, so nothing overtakes it. The
        references of their keys are read along. ``note(rows)`` may name one of the rows and its
        send note: written in the same transaction (the rows are returned as read)."""
        db = self.db
        unit = db.current()
        key = str(chat)
        ahead = unit.ahead if unit is not None else None
        with db.conn() as c:
            if booking:
                self._book(c, booking)
                ahead = None
            rows: Sequence[Any]
            if ahead is not None and ahead[0] == key and ahead[1] == limit:
                rows = ahead[2]  # read along by the unit's outbox insert, nothing written since
            else:
                rows = c.execute(db.sql.pending, {"c": key, "limit": limit}).all()
            out = []
            refs: dict[str, str | None] = {}
            read: list[int] = []
            for row in rows:
                if row.not_before > now:
                    break
                assert row.id is not None
                self._row_keys[row.id] = (row.chat, row.key)
                read.append(row.id)
                if row.key is not None:
                    refs[row.key] = row.ref
                payload = json.loads(row.payload) if isinstance(row.payload, str) else row.payload
                sending = json.loads(row.sending) if isinstance(row.sending, str) else row.sending
                out.append(OutboxRow(row.id, chat, Outbound.from_json(payload), row.attempts, sending))
            if unit is not None and read:
                # forgotten again when the unit rolls back (SQLite reuses the ids)
                unit.after_rollback.append(lambda: self._forget_rows(read))
            self._refs[key] = refs
            noted = note(out) if note is not None and out else None
            if noted is not None:
                c.execute(db.sql.outbox_sending, {"i": noted[0], "s": noted[1]})
            return out

    def _forget_rows(self, row_ids: list[int]) -> None:
        for row_id in row_ids:
            self._row_keys.pop(row_id, None)

    def message_ref(self, chat: ChatQueue, key: str) -> str | None:
        known = self._refs.get(str(chat))
        if known is not None and key in known:  # read along with the chat's pending rows
            return known[key]
        with self.db.conn() as c:
            ref: str | None = c.execute(self.db.sql.ref_of, {"c": str(chat), "k": key}).scalar()
            return ref

    def outbox_book(self, booking: Booking) -> None:
        """Write ``booking`` (done rows, a send note, key/value pairs) in one transaction."""
        if not booking:
            return
        with self.db.conn() as c:
            self._book(c, booking)

    def _book(self, c: Connection, booking: Booking) -> None:
        """``booking`` in one statement (see :meth:`Compound.book`)."""
        self._forget_ahead()
        done = []
        for row, ref in booking.done:
            chat, key = str(row.chat), row.out.key
            self._row_keys.pop(row.id, None)
            sent = _sent_note(ref) if key is None else None
            done.append(
                {
                    "id": row.id,
                    "chat": chat,
                    "key": key,
                    "ref": ref,
                    "sent": json.dumps(sent) if sent else None,
                }
            )
            if key is not None and ref is not None:
                self._refs.setdefault(chat, {})[key] = ref
        notes = [booking.sending] if booking.sending is not None else []
        kv = [(namespace, key, value) for (namespace, key), value in booking.kv.items()]
        self.db.compound.book(c, done, notes, kv)

    def outbox_done(self, row_id: int, ref: str | None) -> None:
        """Delivered (the platform accepted it): remember the message's reference under its key, and
        mark older pending rows with the same key superseded (this newer one already replaced them)."""
        self._forget_ahead()
        with self.db.conn() as c:
            known = self._row_keys.get(row_id)
            if known is None:
                row = c.execute(self.db.sql.outbox_key_of, {"i": row_id}).first()
                if row is None:
                    return
                known = (row.chat, row.key)
            self._done(c, row_id, *known, ref)

    def _done(self, c: Connection, row_id: int, chat: str, key: str | None, ref: str | None) -> None:
        sql = self.db.sql
        self._row_keys.pop(row_id, None)
        sent = _sent_note(ref) if key is None else None
        if sent is not None:  # where the message landed, in place of the send's note
            c.execute(sql.outbox_done_sent, {"i": row_id, "s": sent})
        elif key is None:
            c.execute(sql.outbox_done, {"i": row_id})
        else:  # this row done and older pending ones of the same key superseded: one statement
            c.execute(sql.outbox_done_keyed, {"c": chat, "k": key, "i": row_id})
            if ref is not None:
                c.execute(sql.ref_upsert, {"chat": chat, "key": key, "ref": ref})
                self._refs.setdefault(chat, {})[key] = ref

    def outbox_sending(self, row_id: int, note: Any) -> None:
        """The row is about to be sent as a new message; ``note`` (JSON) is the transport's, for
        finding the message after a crash (see :attr:`OutboxRow.sending`)."""
        self.outbox_book(Booking(sending=(row_id, note)))

    def outbox_notes(self, platform: str, limit: int = 200) -> list[tuple[ChatQueue, Any]]:
        """The newest rows' send notes of ``platform`` (chat, note), newest first: what a transport
        knew of the platform's message ids when it last sent (kept on done rows too)."""
        o = OUT
        stmt = (
            core_select(o.c.chat, o.c.sending)
            .where(o.c.platform == platform, o.c.sending.is_not(None))
            .order_by(o.c.id.desc())
            .limit(limit)
        )
        with self.db.conn() as c:
            return [
                (ChatQueue.parse(row.chat), row.sending)
                for row in c.execute(stmt).all()
                if row.sending is not None
            ]

    def outbox_superseded(self, row_ids: Sequence[int]) -> None:
        """Rows that will never be sent (a newer row with the same key replaces them)."""
        self._forget_ahead()
        if not row_ids:
            return
        with self.db.session() as s:
            s.exec(
                update(Outbox)
                .where(col(Outbox.id).in_(list(row_ids)), col(Outbox.state) == PENDING)
                .values(state=SUPERSEDED)
            )
            for row_id in row_ids:
                self._row_keys.pop(row_id, None)
            self.db.done(s)

    def outbox_later(self, row_id: int, not_before: float) -> None:
        self._forget_ahead()
        with self.db.conn() as c:
            c.execute(self.db.sql.outbox_later, {"i": row_id, "nb": not_before})

    def _forget_ahead(self) -> None:
        unit = self.db.current()
        if unit is not None:
            unit.ahead = None


def _sent_note(ref: str | None) -> dict[str, Any] | None:
    """A delivered message's reference as a transport writes it, when it is a JSON object with an
    ``id``: kept as the row's note (see :meth:`OutboxStore.outbox_notes`)."""
    if not ref or not ref.startswith("{"):
        return None
    try:
        value = json.loads(ref)
    except ValueError:
        return None
    return value if isinstance(value, dict) and "id" in value else None
