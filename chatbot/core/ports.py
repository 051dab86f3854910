"""The storage port: the records the core reads and writes, and the repository it calls.

``chatbot.storage`` implements :class:`Repository` with SQLModel; tests may use the same class on
SQLite or PostgreSQL. The core never imports the storage package or SQLAlchemy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

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


class Repository(Protocol):
    def user(self, platform: str, ext_id: str, name: str) -> UserRec: ...
    def find_user(self, platform: str, ext_id: str) -> UserRec | None: ...
    def user_by_id(self, user_id: int) -> UserRec: ...
    def set_user_lang(self, user_id: int, lang: str) -> None: ...
    def room(self, platform: str, ext_id: str) -> RoomRec: ...
    def room_by_id(self, room_id: int) -> RoomRec: ...
    def set_room_lang(self, room_id: int, lang: str) -> None: ...

    def active_match(self, room_id: int) -> MatchRec | None: ...
    def match(self, match_id: int) -> MatchRec | None: ...
    def running_matches(self) -> list[MatchRec]: ...
    def running_versions(self) -> list[tuple[int, int]]: ...
    def matches_of_user(self, user_id: int) -> list[MatchRec]: ...
    def create_match(self, room_id: int, game: str, options: dict[str, Any], seed: str,
                     host_user_id: int | None, seats: tuple[SeatRec, ...]) -> MatchRec: ...
    def update_lobby(self, match_id: int, seen_version: int, seats: tuple[SeatRec, ...],
                     status: str = LOBBY, options: dict[str, Any] | None = None) -> bool: ...
    def start_match(self, match_id: int, seen_version: int, seats: tuple[SeatRec, ...],
                    state: dict[str, Any], seed: str) -> bool: ...
    def commit_action(self, match_id: int, seen_version: int, seat: int, notation: str,
                      events: list[Any], state: dict[str, Any], status: str,
                      seats: tuple[SeatRec, ...] | None = None) -> bool: ...
    def actions(self, match_id: int, since_ply: int = 0) -> list[ActionRec]: ...
    def set_meta(self, match_id: int, key: str, value: Any) -> None: ...

    def kv_get(self, namespace: str, key: str) -> Any: ...
    def kv_set(self, namespace: str, key: str, value: Any) -> None: ...
