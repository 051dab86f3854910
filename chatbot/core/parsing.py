"""Results of understanding a player's text, shared by the core and every game's parser.

A parser works with the engine's action objects, as python-chess's ``parse_san`` returns a ``Move``:
it gets the speaker's legal actions and returns the actions the player meant. Notation strings are
for the edges only (button data, the action log)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Parsed:
    """One or more actions (the engine's objects) to apply in order, e.g. ``(Discard(), Next())``.
    The first is what the player meant, legal now or not: the engine's ``check`` says why not."""

    actions: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Later:
    """A step after the first whose action depends on what the first ones bring (the die): written
    in the game's notation for the chat side ("toward congo", "head for Congo"), it is turned into a
    legal action when its time comes (:meth:`GameUI.resolve_step`); when none fits, the steps stop
    there and the player is asked as usual."""

    notation: str


@dataclass(frozen=True, slots=True)
class NotUnderstood:
    """Nothing in the text names an action of this game."""


@dataclass(frozen=True, slots=True)
class NotLegal:
    """The words name no action that could carry their meaning (a card the hand does not have, a
    number of steps no move takes, a hidden card typed in the group), so no engine check can judge
    them: the parser refuses them itself. ``code`` is a reason code of the game's texts."""

    code: str
    params: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class Ambiguous:
    """Several actions fit; ``candidates`` are the legal actions the player can choose between.

    ``missing`` names what the text did not say (e.g. ``"opponent_card"``), for the hint.
    """

    candidates: tuple[Any, ...]
    missing: str | None = None


ParseResult = Parsed | NotUnderstood | NotLegal | Ambiguous


@dataclass(frozen=True, slots=True)
class ParseContext(Generic[V]):
    """What a game's parser may use: the speaker's language and seat, the speaker's legal actions
    now (the engine's action objects), the speaker's view (or the public view for onlookers; typed
    by the game), the seat names, and whether the text came in private (a game may ask before a
    move that would reveal a hidden card, but only where asking is private). Every other fact
    comes from the view.

    A parser returns what the player meant; whether it is legal now, and why not, is the engine's
    ``check`` to say (the core asks it), so no parser re-derives a rule."""

    lang: str
    seat: int | None
    legal: tuple[Any, ...]
    view: V
    seat_names: tuple[str, ...]
    private: bool = False
