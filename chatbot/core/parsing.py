"""Results of understanding a player's text, shared by the core and every game's parser."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Parsed:
    """One or more actions (notations) to apply in order, e.g. ``("discard", "next")``."""

    actions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NotUnderstood:
    """Nothing in the text names an action of this game."""


@dataclass(frozen=True, slots=True)
class NotLegal:
    """The text names an action that the rules forbid now; ``code`` is the engine's reason code."""

    code: str
    params: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class Ambiguous:
    """Several actions fit; ``candidates`` are notations the player can choose between.

    ``missing`` names what the text did not say (e.g. ``"opponent_card"``), for the hint.
    """

    candidates: tuple[str, ...]
    missing: str | None = None


ParseResult = Parsed | NotUnderstood | NotLegal | Ambiguous


@dataclass(frozen=True, slots=True)
class ParseContext(Generic[V]):
    """What a game's parser may use: the speaker's language and seat, the legal actions now (as
    notations), the speaker's view (or the public view for onlookers; typed by the game), and the
    seat names, and whether the text came in private (a game may ask before a move that would
    reveal a hidden card, but only where asking is private). Every other fact comes from the view.

    A parser returns what the player meant; whether it is legal now, and why not, is the engine's
    ``check`` to say (the core asks it), so no parser re-derives a rule."""

    lang: str
    seat: int | None
    legal: tuple[str, ...]
    view: V
    seat_names: tuple[str, ...]
    private: bool = False
