"""The core's records in SQL: users, rooms, matches with their seats and snapshots, the action log
(the :class:`~chatbot.core.ports.Repository` port, less results and key/value pairs, the outbox and
the deadlines). Inside a unit a match is read from the database once and then served (and kept
up to date by the unit's own writes) from the unit's cache.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import bindparam, update
from sqlalchemy import select as core_select
from sqlalchemy.engine import Connection
from sqlmodel import col, select

from chatbot.core.ports import (
    LOBBY,
    RUNNING,
    ActionRec,
    ChatQueue,
    MatchRec,
    RoomRec,
    SeatRec,
    UpdateSeen,
    UserRec,
)
from chatbot.storage.db import Db, Unit, new_id, now
from chatbot.storage.statements import DL, M
from chatbot.storage.tables import Match, Room, User

#: matches whose newest action keys are kept (``GameStore.action_keys``)
TAIL_MEMORY = 4096
#: matches read at a time by ``matches_without_deadlines``
RECOVER_CHUNK = 100


class GameStore:
    """Users, rooms, matches, actions, results and key/value pairs over one :class:`Db`."""

    def __init__(self, db: Db) -> None:
        self.db = db
        #: match id -> (version, floor, keys): the (ply, seat, notation) of every action after ply
        #: ``floor`` at that version, as committed (``action_keys`` without a query)
        self._tails: OrderedDict[int, tuple[int, int, tuple[tuple[int, int, str], ...]]] = OrderedDict()
        self._tails_lock = threading.Lock()
        self._urgent: Callable[[], int] | None = None

    def _cached(self, rec: MatchRec) -> MatchRec:
        unit = self.db.current()
        if unit is not None:
            unit.matches[rec.id] = rec
        return rec

    def _refresh(self, match_id: int, **changes: Any) -> None:
        """Keep the unit's copy of a match equal to what its own writes made of it."""
        unit = self.db.current()
        if unit is not None and "version" in changes:
            unit.bumped.add(match_id)
        if unit is not None and match_id in unit.matches:
            unit.matches[match_id] = replace(unit.matches[match_id], **changes)

    # --- users and rooms ------------------------------------------------------------------------
    def user(self, platform: str, ext_id: str, name: str) -> UserRec:
        with self.db.conn() as c:
            row = c.execute(self.db.sql.user_by_ext, {"p": platform, "e": ext_id}).first()
            if row is None:
                values = {"platform": platform, "ext_id": ext_id, "name": name, "created_at": now()}
                user_id = new_id(c.execute(self.db.sql.user_insert, values))
                return self._user_cached(
                    UserRec(id=user_id, platform=platform, ext_id=ext_id, name=name, lang=None)
                )
            rec = _user(row)
            if name and rec.name != name:
                c.execute(self.db.sql.user_rename, {"i": rec.id, "n": name})
                rec = replace(rec, name=name)
            return self._user_cached(rec)

    def context(
        self, platform: str, ext_id: str, name: str, chat: str | None
    ) -> tuple[UserRec, RoomRec | None]:
        """``user(platform, ext_id, name)`` and, for a group message, ``room(platform, chat)``, with
        the room's active match and its seats (with their users, as JSON) read into the unit
        (``active_match`` then needs no query), and whether the speaker's private chat holds rows
        back (``outbox_unhold`` then needs no statement when it holds none): one round trip for all
        of it (issue #12: a typed move's first answer on PostgreSQL). Someone or a room met the
        first time is created as usual."""
        unit = self.db.current()
        seen = unit.seen if unit is not None else None
        if unit is not None:
            unit.seen = None  # recorded by this statement
        private = str(ChatQueue.user(platform, ext_id))
        with self.db.conn() as c:
            params: dict[str, Any] = {"p": platform, "e": ext_id, "c": chat, "uq": private}
            if seen is not None:  # only set where ``context_seen`` exists (PostgreSQL)
                assert self.db.sql.context_seen is not None
                params.update({"sp": seen[0], "sk": seen[1], "sa": now()})
                row = c.execute(self.db.sql.context_seen, params).first()
                if row is None or not row.fresh:
                    raise UpdateSeen(f"update {seen[1]} of {seen[0]} was handled before")
            else:
                row = c.execute(self.db.sql.context, params).first()
            if unit is not None and row is not None and not row.held:
                unit.none_held.add(private)
            if row is None or row.u_id is None:
                user = self.user(platform, ext_id, name)
            else:
                user = UserRec(
                    id=row.u_id, platform=platform, ext_id=ext_id, name=row.u_name, lang=row.u_lang
                )
                if name and user.name != name:
                    c.execute(self.db.sql.user_rename, {"i": user.id, "n": name})
                    user = replace(user, name=name)
                self._user_cached(user)
            if chat is None:
                return user, None
            if row is None or row.r_id is None:
                return user, self.room(platform, chat)
            room = self._room_cached(RoomRec(id=row.r_id, platform=platform, ext_id=chat, lang=row.r_lang))
            if row.id is not None:
                unit = self.db.current()
                if unit is not None and row.id not in unit.matches:
                    self._match_recs([_ContextRow(row, room)])
            return user, room

    def _user_cached(self, rec: UserRec) -> UserRec:
        unit = self.db.current()
        if unit is not None:
            unit.users[rec.id] = rec
        return rec

    def find_user(self, platform: str, ext_id: str) -> UserRec | None:
        """The user, or None for someone the bot has never met (nothing is created)."""
        with self.db.conn() as c:
            row = c.execute(self.db.sql.user_by_ext, {"p": platform, "e": ext_id}).first()
            return self._user_cached(_user(row)) if row else None

    def user_by_id(self, user_id: int) -> UserRec:
        unit = self.db.current()
        if unit is not None and user_id in unit.users:
            return unit.users[user_id]
        with self.db.conn() as c:
            row = c.execute(self.db.sql.user_by_id, {"i": user_id}).first()
            assert row is not None
            return self._user_cached(_user(row))

    def set_user_lang(self, user_id: int, lang: str) -> None:
        with self.db.session() as s:
            s.exec(update(User).where(col(User.id) == user_id).values(lang=lang))
            self.db.done(s)
        unit = self.db.current()
        if unit is not None and user_id in unit.users:
            unit.users[user_id] = replace(unit.users[user_id], lang=lang)

    def room(self, platform: str, ext_id: str) -> RoomRec:
        with self.db.conn() as c:
            row = c.execute(self.db.sql.room_by_ext, {"p": platform, "e": ext_id}).first()
            if row is None:
                values = {"platform": platform, "ext_id": ext_id, "created_at": now()}
                room_id = new_id(c.execute(self.db.sql.room_insert, values))
                return self._room_cached(RoomRec(id=room_id, platform=platform, ext_id=ext_id, lang=None))
            return self._room_cached(_room(row))

    def _room_cached(self, rec: RoomRec) -> RoomRec:
        unit = self.db.current()
        if unit is not None:
            unit.rooms[rec.id] = rec
        return rec

    def room_by_id(self, room_id: int) -> RoomRec:
        unit = self.db.current()
        if unit is not None and room_id in unit.rooms:
            return unit.rooms[room_id]
        with self.db.conn() as c:
            row = c.execute(self.db.sql.room_by_id, {"i": room_id}).first()
            assert row is not None
            return self._room_cached(_room(row))

    def rooms_in(self, platform: str, chat: str) -> list[RoomRec]:
        """The rooms of one platform chat: the chat itself and each of its forum topics (``<chat>:<topic>``)."""
        with self.db.session() as s:
            rows = s.exec(
                select(Room).where(
                    Room.platform == platform,
                    (col(Room.ext_id) == chat) | col(Room.ext_id).startswith(f"{chat}:", autoescape=True),
                )
            ).all()
            return [self._room_cached(_room(r)) for r in rows]

    def _move_room(self, platform: str, old_ext: str, new_ext: str) -> RoomRec | None:
        """The room of chat ``old_ext`` is now chat ``new_ext``'s, with its matches (see
        ``SqlRepository.move_room``); None when there is no room at ``old_ext``."""
        with self.db.session() as s:
            old = s.exec(select(Room).where(Room.platform == platform, Room.ext_id == old_ext)).first()
            if old is None:
                return None
            new = s.exec(select(Room).where(Room.platform == platform, Room.ext_id == new_ext)).first()
            if new is None:
                old.ext_id = new_ext
                s.add(old)
                room = old
            else:  # somebody wrote in the new chat first: one room, with the old one's matches
                s.exec(update(Match).where(col(Match.room_id) == old.id).values(room_id=new.id))
                if new.lang is None:
                    new.lang = old.lang
                    s.add(new)
                s.flush()
                s.delete(old)
                room = new
            self.db.done(s)
            unit = self.db.current()
            if unit is not None:
                unit.rooms.pop(old.id or 0, None)
                for mid, rec in list(unit.matches.items()):
                    if rec.room_id == old.id:
                        unit.matches[mid] = replace(rec, room_id=room.id or rec.room_id)
            return self._room_cached(_room(room))

    def set_room_lang(self, room_id: int, lang: str) -> None:
        with self.db.session() as s:
            s.exec(update(Room).where(col(Room.id) == room_id).values(lang=lang))
            self.db.done(s)
        unit = self.db.current()
        if unit is not None and room_id in unit.rooms:
            unit.rooms[room_id] = replace(unit.rooms[room_id], lang=lang)

    # --- matches ----------------------------------------------------------------------------
    def _match_recs(self, rows: Sequence[Any]) -> list[MatchRec]:
        """Records of the given rows of ``sql.matches`` (their seats, with the seated users, read
        along as JSON); the rooms and users go to the unit's cache."""
        out = []
        for row in rows:
            seats = []
            for fields in _seats_json(row.seats_json):
                seat = _SeatRow(row.id, *fields)
                seats.append(SeatRec(seat=seat.seat, name=seat.name, user_id=seat.user_id, ai=seat.ai))
                if seat.user_id is not None:
                    self._user_cached(
                        UserRec(
                            id=seat.user_id,
                            platform=seat.user_platform,
                            ext_id=seat.user_ext_id,
                            name=seat.user_name,
                            lang=seat.user_lang,
                        )
                    )
            self._room_cached(
                RoomRec(
                    id=row.room_id, platform=row.room_platform, ext_id=row.room_ext_id, lang=row.room_lang
                )
            )
            rec = MatchRec(
                id=row.id,
                room_id=row.room_id,
                game=row.game,
                options=dict(row.options or {}),
                seed=row.seed,
                version=row.version,
                status=row.status,
                state=dict(row.state) if row.state is not None else None,
                host_user_id=row.host_user_id,
                seats=tuple(seats),
                meta=dict(row.meta or {}),
            )
            out.append(self._cached(rec))
        return out

    def _select_matches(self, stmt: Any, params: dict[str, Any] | None = None) -> list[MatchRec]:
        with self.db.conn() as c:
            return self._match_recs(c.execute(stmt, params or {}).all())

    def active_match(self, room_id: int) -> MatchRec | None:
        unit = self.db.current()
        if unit is not None:
            for rec in unit.matches.values():
                if rec.room_id == room_id and rec.status in {LOBBY, RUNNING}:
                    return rec
        recs = self._select_matches(self.db.sql.active_match, {"room": room_id})
        return recs[0] if recs else None

    def match(self, match_id: int) -> MatchRec | None:
        unit = self.db.current()
        if unit is not None and match_id in unit.matches:
            return unit.matches[match_id]
        recs = self._select_matches(self.db.sql.match_by_id, {"i": match_id})
        return recs[0] if recs else None

    def running_matches(self) -> list[MatchRec]:
        return self._select_matches(self.db.sql.matches.where(M.c.status == RUNNING).order_by(M.c.id))

    def running_versions(self) -> list[tuple[int, int]]:
        """(id, version) of every running match, without loading seats or snapshots."""
        with self.db.session() as s:
            rows = s.exec(select(Match.id, Match.version).where(Match.status == RUNNING)).all()
            return [(int(i), int(v)) for i, v in rows if i is not None]

    def matches_without_deadlines(self) -> Iterator[MatchRec]:
        """Running matches that have no deadline at all (made before deadlines were stored), in
        order of their ids, read :data:`RECOVER_CHUNK` at a time (a first start over 10,000 such
        matches holds one chunk, not all of them).

        After each match the caller is done with, :meth:`pause` lets a person's update that waits
        for the core's thread go first (the runtime's ``urgent`` work); when one did, the matches
        still to come are read again, so that a match it changed is given as it is now."""
        has = core_select(DL.c.match_id).where(DL.c.match_id == M.c.id)
        query = (
            self.db.sql.matches.where(M.c.status == RUNNING, ~has.exists(), M.c.id > bindparam("after"))
            .order_by(M.c.id)
            .limit(RECOVER_CHUNK)
        )
        after = 0
        while True:
            chunk = self._select_matches(query, {"after": after})
            for rec in chunk:
                yield rec
                after = rec.id
                if self.pause():
                    break  # read again from here
            else:
                if len(chunk) < RECOVER_CHUNK:
                    return

    def pause(self) -> int:
        """On the core's thread, between two pieces of a long piece of work (no unit open): run the
        urgent work waiting for the thread (see :meth:`yield_to`); how much ran."""
        urgent = self._urgent
        return urgent() if urgent is not None else 0

    def yield_to(self, urgent: Callable[[], int] | None) -> None:
        """Let :meth:`pause` run ``urgent()``, which returns how much work it ran."""
        self._urgent = urgent

    def matches_of_user(self, user_id: int) -> list[MatchRec]:
        unit = self.db.current()
        if unit is not None and user_id in unit.user_matches:
            recs = [unit.matches.get(i) for i in unit.user_matches[user_id]]
            if all(r is not None for r in recs):
                return [r for r in recs if r is not None and r.status in {LOBBY, RUNNING}]
        found = self._matches_of_user(user_id)
        if unit is not None:
            unit.user_matches[user_id] = [r.id for r in found]
        return found

    def changed_matches(self) -> frozenset[int]:
        """The matches whose version the open unit raised so far (none outside a unit)."""
        unit = self.db.current()
        return frozenset(unit.bumped) if unit is not None else frozenset()

    def _matches_of_user(self, user_id: int) -> list[MatchRec]:
        return self._select_matches(self.db.sql.matches_of_user, {"u": user_id})

    def create_match(
        self,
        room_id: int,
        game: str,
        options: dict[str, Any],
        seed: str,
        host_user_id: int | None,
        seats: tuple[SeatRec, ...],
    ) -> MatchRec:
        with self.db.conn() as c:
            at = now()
            values = {
                "room_id": room_id,
                "game": game,
                "options": dict(options),
                "seed": seed,
                "version": 0,
                "status": LOBBY,
                "host_user_id": host_user_id,
                "meta": {},
                "created_at": at,
                "updated_at": at,
            }
            match_id = new_id(c.execute(self.db.sql.match_insert, values))
            self._write_seats(c, match_id, seats, fresh=True)
            rec = MatchRec(
                id=match_id,
                room_id=room_id,
                game=game,
                options=dict(options),
                seed=seed,
                version=0,
                status=LOBBY,
                state=None,
                host_user_id=host_user_id,
                seats=tuple(seats),
                meta={},
            )
            return self._cached(rec)

    def _write_seats(
        self, c: Connection, match_id: int, seats: tuple[SeatRec, ...], fresh: bool = False
    ) -> None:
        unit = self.db.current()
        if unit is not None:
            unit.user_matches.clear()
        if not fresh:
            c.execute(self.db.sql.seats_delete, {"m": match_id})
        if seats:
            c.execute(
                self.db.sql.seats_insert,
                [
                    {"match_id": match_id, "seat": x.seat, "name": x.name, "user_id": x.user_id, "ai": x.ai}
                    for x in seats
                ],
            )

    def _bump(self, c: Connection, match_id: int, seen_version: int, **values: Any) -> bool:
        names = tuple(sorted(values))
        params = {"m": match_id, "seen": seen_version, "new": seen_version + 1, "now": now()}
        params.update({"v_" + n: values[n] for n in names})
        result = c.execute(self.db.sql.bump(names), params)
        return bool(result.rowcount == 1)

    def update_lobby(
        self,
        match_id: int,
        seen_version: int,
        seats: tuple[SeatRec, ...],
        status: str = LOBBY,
        options: dict[str, Any] | None = None,
    ) -> bool:
        with self.db.conn() as c:
            values: dict[str, Any] = {"status": status}
            if options is not None:
                values["options"] = dict(options)
            if not self._bump(c, match_id, seen_version, **values):
                return False  # nothing written
            self._write_seats(c, match_id, seats)
        self._refresh(match_id, version=seen_version + 1, seats=tuple(seats), **values)
        return True

    def start_match(
        self, match_id: int, seen_version: int, seats: tuple[SeatRec, ...], state: dict[str, Any], seed: str
    ) -> bool:
        with self.db.conn() as c:
            if not self._bump(c, match_id, seen_version, status=RUNNING, seed=seed):
                return False
            self._write_seats(c, match_id, seats)
            self._write_snapshot(c, match_id, seen_version + 1, state)
        self._refresh(
            match_id, version=seen_version + 1, status=RUNNING, seed=seed, seats=tuple(seats), state=state
        )
        unit = self.db.current()
        if unit is not None:  # a match starts with no action: its first one needs no read of the log
            self._keep_after_commit(unit, match_id, (seen_version + 1, 0, ()))
        return True

    def _write_snapshot(self, c: Connection, match_id: int, version: int, state: dict[str, Any]) -> None:
        c.execute(self.db.sql.snapshot_upsert, {"match_id": match_id, "version": version, "state": state})

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
    ) -> bool:
        """Action row, new snapshot and version bump in one transaction, or nothing at all."""
        with self.db.conn() as c:
            ply = int(state.get("ply", seen_version + 1))
            if seats is None:
                # the version bump, the action and the snapshot in one statement (one round trip
                # instead of three; the action and the snapshot only if the bump took)
                params = {
                    "m": match_id,
                    "seen": seen_version,
                    "new": seen_version + 1,
                    "now": now(),
                    "status": status,
                    "ply": ply,
                    "seat": seat,
                    "notation": notation,
                    "events": list(events),
                    "state": state,
                }
                if not self.db.compound.commit_action(c, params):
                    return False
                self._refresh(match_id, version=seen_version + 1, status=status, state=state)
                self._acted(match_id, seen_version + 1, (ply, seat, notation))
                return True
            if not self._bump(c, match_id, seen_version, status=status):
                return False
            action = {
                "match_id": match_id,
                "ply": ply,
                "seat": seat,
                "notation": notation,
                "events": list(events),
                "at": now(),
            }
            c.execute(self.db.sql.action_insert, action)
            self._write_snapshot(c, match_id, seen_version + 1, state)
            if seats is not None:
                self._write_seats(c, match_id, seats)
        changes: dict[str, Any] = {"version": seen_version + 1, "status": status, "state": state}
        if seats is not None:
            changes["seats"] = tuple(seats)
        self._refresh(match_id, **changes)
        self._acted(match_id, seen_version + 1, (ply, seat, notation))
        return True

    def _acted(self, match_id: int, version: int, key: tuple[int, int, str]) -> None:
        unit = self.db.current()
        if unit is not None:
            unit.acted[match_id] = (version, key)

    def actions(self, match_id: int, since_ply: int = 0) -> list[ActionRec]:
        with self.db.conn() as c:
            rows = c.execute(self.db.sql.actions_since, {"m": match_id, "since": since_ply})
            return [
                ActionRec(ply=r.ply, seat=r.seat, notation=r.notation, events=list(r.events)) for r in rows
            ]

    def action_keys(self, match_id: int, since_ply: int = 0) -> list[tuple[int, int, str]]:
        """(ply, seat, notation) of the actions after ``since_ply``: ``actions`` without the events.

        Inside a unit the answer is kept per version of the match (issue #12, fast path: a table
        is rendered after every action): after the unit's own action (version v+1, the match row
        locked by its bump) the keys are those kept for version v plus that action, with no query;
        a query there is exact for v+1 and is kept too. What a unit keeps is kept only once it has
        committed; a version this process did not make (another worker's) is read again."""
        unit = self.db.current()
        acted = None
        if unit is not None:
            acted = unit.acted.get(match_id)
            known = self._known_tail(unit, match_id, acted[0] if acted else None)
            if known is not None and known[0] == (acted[0] if acted else known[0]) and known[1] <= since_ply:
                return [k for k in known[2] if k[0] > since_ply]
            if acted is not None:
                version, key = acted
                if (
                    known is not None
                    and known[0] == version - 1
                    and known[1] <= since_ply
                    and key[0] > since_ply
                ):
                    keys = (*(k for k in known[2] if k[0] > since_ply), key)
                    self._keep_after_commit(unit, match_id, (version, since_ply, keys))
                    return list(keys)
        with self.db.conn() as c:
            rows = c.execute(self.db.sql.action_keys_since, {"m": match_id, "since": since_ply})
            found = [(int(r.ply), int(r.seat), str(r.notation)) for r in rows]
        if unit is not None and acted is not None:
            self._keep_after_commit(unit, match_id, (acted[0], since_ply, tuple(found)))
        return found

    def _known_tail(
        self, unit: Unit, match_id: int, acted_version: int | None
    ) -> tuple[int, int, tuple[tuple[int, int, str], ...]] | None:
        """The newest key tail of the match this unit may use: its own (made after its action), else
        the committed one when it is of the version the unit read (or acted upon)."""
        own = unit.tails.get(match_id)
        if own is not None:
            return own
        with self._tails_lock:
            kept = self._tails.get(match_id)
        if kept is None:
            return None
        if acted_version is None:
            rec = unit.matches.get(match_id)
            if rec is None or rec.version != kept[0]:
                return None
        return kept

    def _keep_after_commit(
        self, unit: Unit, match_id: int, tail: tuple[int, int, tuple[tuple[int, int, str], ...]]
    ) -> None:
        if not unit.tails:
            unit.after_commit.append(lambda: self._keep_tails(unit.tails))
        unit.tails[match_id] = tail

    def _keep_tails(self, tails: dict[int, tuple[int, int, tuple[tuple[int, int, str], ...]]]) -> None:
        with self._tails_lock:
            for match_id, tail in tails.items():
                self._tails[match_id] = tail
                self._tails.move_to_end(match_id)
            while len(self._tails) > TAIL_MEMORY:
                self._tails.popitem(last=False)

    def set_meta(self, match_id: int, key: str, value: Any) -> None:
        """One key of a match's meta. Inside a unit that has read the match the meta is known and
        the write waits for the unit's next statement (usually the outbox insert, which takes it
        along: issue #26, statements per update)."""
        unit = self.db.current()
        if unit is not None and match_id in unit.matches:
            meta = {**(unit.matches[match_id].meta or {}), key: value}
            unit.meta_writes[match_id] = meta
            self._refresh(match_id, meta=meta)
            return
        with self.db.conn() as c:
            old = c.execute(self.db.sql.meta_of, {"i": match_id}).scalar_one()
            meta = {**(old or {}), key: value}
            c.execute(self.db.sql.meta_set, {"i": match_id, "mv": meta})
        self._refresh(match_id, meta=meta)


class _SeatRow:
    """A seat read along with ``sql.context`` as a row of ``sql.seats_of``."""

    __slots__ = (
        "ai",
        "match_id",
        "name",
        "seat",
        "user_ext_id",
        "user_id",
        "user_lang",
        "user_name",
        "user_platform",
    )

    def __init__(self, match_id: int, *fields: Any) -> None:
        self.match_id = match_id
        (
            self.seat,
            self.name,
            self.user_id,
            self.ai,
            self.user_platform,
            self.user_ext_id,
            self.user_name,
            self.user_lang,
        ) = fields


def _seats_json(value: Any) -> list[Any]:
    """The seats of ``sql.context`` (JSON; SQLite gives it as text), in seat order."""
    if value is None:
        return []
    if isinstance(value, str):
        value = json.loads(value)
    return sorted(value, key=lambda fields: int(fields[0]))


class _ContextRow:
    """A row of ``sql.context`` read as a row of ``sql.matches`` (for ``_match_recs``)."""

    def __init__(self, row: Any, room: RoomRec) -> None:
        self._row = row
        self.room_platform, self.room_ext_id, self.room_lang = room.platform, room.ext_id, room.lang

    def __getattr__(self, name: str) -> Any:
        return getattr(self._row, name)


def _user(row: Any) -> UserRec:
    assert row.id is not None
    return UserRec(id=row.id, platform=row.platform, ext_id=row.ext_id, name=row.name, lang=row.lang)


def _room(row: Any) -> RoomRec:
    assert row.id is not None
    return RoomRec(id=row.id, platform=row.platform, ext_id=row.ext_id, lang=row.lang)
