"""What the core's use cases share: who is speaking, and the lost race for a match."""

from __future__ import annotations

from dataclasses import dataclass

from chatbot.core.ports import RoomRec, UserRec


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
