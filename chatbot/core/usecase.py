"""What the core's use cases share: who is speaking, the lost race for a match, and :class:`Part`,
what every part of :class:`~chatbot.core.service.BotCore` may use of the whole."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from chatbot.core.i18n import Translator
from chatbot.core.ports import LOBBY, GameUI, MatchRec, Repository, RoomRec, SeatRec, UserRec
from chatbot.core.types import Button, Inbound, Outbound
from engines.contract import Engine


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


class Part:
    """The base of every part of :class:`~chatbot.core.service.BotCore` (``Timers``, ``PrivateChats``,
    ``Roles``, ``Groups``, ``Records``, ``Seating``, ``Talk``): the attributes that ``BotCore.__init__``
    sets and the parts share, and, once for the type checker, the methods of BotCore (or of another
    part) that a part calls. Each is defined in BotCore or a part, which come before this class in
    BotCore's method order; these stubs only raise. A part keeps its own attributes itself."""

    repo: Repository
    uis: dict[str, GameUI]
    games: dict[str, Engine]
    clock: Callable[[], float]

    # --- answers and messages ------------------------------------------------------------------
    def _commit(self, outs: list[Outbound]) -> list[Outbound]:
        raise NotImplementedError  # BotCore

    def _reply(
        self,
        msg: Inbound,
        t: Translator,
        text: str,
        buttons: Sequence[Sequence[Button]] = (),
        private: bool | None = None,
    ) -> Outbound:
        raise NotImplementedError  # BotCore

    def _help_text(self, msg: Inbound, sp: Speaker, t: Translator) -> str:
        raise NotImplementedError  # BotCore

    def _status(self, msg: Inbound, sp: Speaker, t: Translator) -> list[Outbound]:
        raise NotImplementedError  # BotCore

    def _hand(self, msg: Inbound, sp: Speaker, t: Translator) -> list[Outbound]:
        raise NotImplementedError  # BotCore

    def _hint(self, match: MatchRec, seat: int, t: Translator, private: bool) -> str:
        raise NotImplementedError  # BotCore

    def _zone(self, room_id: int) -> Any:
        raise NotImplementedError  # Timers: the room's time zone (its pace options), else Helsinki's

    # --- who and where -------------------------------------------------------------------------
    def _context_match(self, msg: Inbound, sp: Speaker) -> MatchRec | None:
        raise NotImplementedError  # BotCore

    def _seat_of(self, match: MatchRec | None, user: UserRec, prefer_acting: bool = False) -> int | None:
        raise NotImplementedError  # BotCore

    def _unique_name(self, match: MatchRec, name: str) -> str:
        raise NotImplementedError  # BotCore

    # --- the lobby -----------------------------------------------------------------------------
    def _lobby_messages(self, match: MatchRec, room: RoomRec) -> list[Outbound]:
        raise NotImplementedError  # BotCore

    def _change_lobby(self, match: MatchRec, seats: tuple[SeatRec, ...], status: str = LOBBY) -> None:
        raise NotImplementedError  # BotCore

    def _join(
        self, msg: Inbound, sp: Speaker, t: Translator, match: MatchRec, cmd_tokens: Sequence[str] = ()
    ) -> list[Outbound]:
        raise NotImplementedError  # BotCore

    def _deal(self, match: MatchRec, room: RoomRec, seats: Sequence[SeatRec]) -> list[Outbound]:
        raise NotImplementedError  # BotCore

    # --- play ----------------------------------------------------------------------------------
    def _apply(self, match: MatchRec, seat: int, notation: str, state: Any = None) -> list[Outbound]:
        raise NotImplementedError  # BotCore

    def _state(self, match: MatchRec) -> Any:
        raise NotImplementedError  # BotCore: the match's state decoded, once per version

    def _render_match(
        self,
        match: MatchRec,
        room: RoomRec,
        events: Sequence[Any],
        privates: bool = True,
        keyed: bool = True,
        state: Any = None,
        detail: bool = False,
    ) -> list[Outbound]:
        raise NotImplementedError  # BotCore

    def _private_prompt(
        self,
        match: MatchRec,
        room: RoomRec,
        seat: int,
        events: Sequence[Any],
        force: bool,
        state: Any = None,
    ) -> list[Outbound]:
        raise NotImplementedError  # BotCore
