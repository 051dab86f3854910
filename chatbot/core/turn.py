"""One turn context per update (DESIGN.md §5a): a match's state and what follows from it for the
seats, each worked out once.

A use case builds one :class:`Turn` for the speaker (or presser, or the seat an AI moves for) and
hands it to parsing, the group-safety check, the check, the apply and the hint or refusal text.
What the engine derives from a state (who is to act, a seat's view, the public view, a seat's legal
actions and their notations) is computed lazily, at most once per state and seat: the facts are
shared by every :class:`Turn` of the same state (:meth:`Turn.at`), and :class:`~chatbot.core.decoded.
Decoded` keeps them with the decoded state, so the table after a move, its buttons and each seat's
private prompt read the same list.

Legal actions are the engine's action objects; their notations are made here once per seat, for the
two edges that need strings: button data and a game's button labels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chatbot.core.gameui import GameUI
from engines.contract import Engine


class Facts:
    """What one state tells, filled in lazily (per seat where it depends on the seat). A state is
    immutable, so the facts never change; two threads that fill the same one compute the same."""

    __slots__ = ("acting", "legal", "notations", "views")

    def __init__(self) -> None:
        self.acting: tuple[int, ...] | None = None
        #: seat (None: the public table) -> view
        self.views: dict[int | None, Any] = {}
        self.legal: dict[int, tuple[Any, ...]] = {}
        self.notations: dict[int, tuple[str, ...]] = {}


@dataclass(frozen=True, slots=True)
class Turn:
    """A match's state for ``seat`` (``None``: an onlooker, or the table itself)."""

    engine: Engine
    state: Any
    seat: int | None
    facts: Facts = field(default_factory=Facts, repr=False, compare=False)

    def at(self, seat: int | None) -> Turn:
        """The same state for another seat (the facts are shared)."""
        return Turn(self.engine, self.state, seat, self.facts)

    # --- the state's facts ---------------------------------------------------------------------
    @property
    def acting(self) -> tuple[int, ...]:
        """The seats that may act now."""
        if self.facts.acting is None:
            self.facts.acting = tuple(self.engine.to_act(self.state))
        return self.facts.acting

    def view_of(self, seat: int | None) -> Any:
        """What ``seat`` may know (``None``: the public table)."""
        views = self.facts.views
        if seat not in views:
            views[seat] = self.engine.view(self.state, seat)
        return views[seat]

    def legal_of(self, seat: int) -> tuple[Any, ...]:
        """The seat's legal actions (the engine's objects), computed once per state and seat."""
        legal = self.facts.legal
        if seat not in legal:
            legal[seat] = tuple(self.engine.legal_actions(self.state, seat))
        return legal[seat]

    def notations_of(self, seat: int) -> tuple[str, ...]:
        """The notations of :meth:`legal_of`, in the same order (for button data and labels)."""
        notations = self.facts.notations
        if seat not in notations:
            notations[seat] = tuple(self.engine.notation(a) for a in self.legal_of(seat))
        return notations[seat]

    # --- for this turn's seat ------------------------------------------------------------------
    @property
    def view(self) -> Any:
        """The seat's view (the public one for an onlooker)."""
        return self.view_of(self.seat)

    @property
    def public_view(self) -> Any:
        return self.view_of(None)

    @property
    def legal(self) -> tuple[Any, ...]:
        """The seat's legal actions; none for an onlooker."""
        return self.legal_of(self.seat) if self.seat is not None else ()

    @property
    def notations(self) -> tuple[str, ...]:
        return self.notations_of(self.seat) if self.seat is not None else ()

    @property
    def to_act(self) -> bool:
        return self.seat is not None and self.seat in self.acting

    def notation(self, action: Any) -> str:
        """The notation of ``action`` (a legal one's is the one written already)."""
        for written, legal in zip(self.notations, self.legal, strict=True):
            if legal == action:
                return written
        return self.engine.notation(action)

    def legal_action(self, notation: str) -> Any | None:
        """The seat's legal action written ``notation`` (a button's data), or None when none is."""
        for written, action in zip(self.notations, self.legal, strict=True):
            if written == notation:
                return action
        return None

    def group_notations(self, ui: GameUI, seat: int | None = None) -> tuple[str, ...]:
        """The notations of the legal actions of ``seat`` (default: this turn's) whose buttons the
        group may see (see :meth:`GameUI.group_actions`)."""
        seat = self.seat if seat is None else seat
        if seat is None:
            return ()
        return tuple(ui.group_actions(self.notations_of(seat), self.public_view))

    def group_safe(self, ui: GameUI) -> bool:
        """Whether the seat's legal actions may be listed in the group without revealing anything."""
        return set(self.group_notations(ui)) == set(self.notations)
