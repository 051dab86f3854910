"""The working copy every engine's transitions mutate: thaw a frozen state, change it, freeze it.

States are frozen dataclasses with tuple fields, which keeps them hashable, shareable and safe to
hand to views and AIs. A transition (or an AI's rollout) is easier to write over lists, so
``Work(state)`` copies every field of the state, turning tuples (at any depth, but not inside other
dataclasses) into lists, and ``freeze()`` builds the state again from the same fields. A game
subclasses :class:`Work` only to declare its fields' mutable types for the type checker and to add
small helpers; the rules themselves stay plain functions ``def draw(w: MyWork, seat) -> None``.

``emit`` collects the transition's events and ``rng`` gives numbered generators, so several random
steps within one ply draw from different streams and replay stays exact.
"""

from __future__ import annotations

import dataclasses
from random import Random
from typing import Any, Generic, TypeVar

from engines.contract import Event, Seat, ev, rng_for

S = TypeVar("S")

_OWN = frozenset({"events", "quiet", "_state_type", "_n_rng", "_field_names"})


def thaw(value: Any) -> Any:
    """Tuples become lists, recursively; dataclasses, sets and scalars are kept as they are."""
    if type(value) is tuple:
        return [thaw(v) for v in value]
    return value


def freeze(value: Any) -> Any:
    """Inverse of :func:`thaw`."""
    if type(value) is list:
        return tuple(freeze(v) for v in value)
    return value


class Work(Generic[S]):
    """A mutable copy of a state of type ``S`` for the length of one transition.

    With ``quiet`` set (AI rollouts), :meth:`emit` records nothing.
    """

    events: list[Event]
    quiet: bool

    def __init__(self, state: S, *, quiet: bool = False) -> None:
        names = tuple(f.name for f in dataclasses.fields(state))  # type: ignore[arg-type]
        clash = _OWN.intersection(names)
        if clash:
            raise TypeError(f"state fields {sorted(clash)} clash with the working copy's own")
        self._state_type = type(state)
        self._field_names = names
        for name in names:
            setattr(self, name, thaw(getattr(state, name)))
        self.events = []
        self.quiet = quiet
        self._n_rng = 0

    def freeze(self, **changes: Any) -> S:
        """The frozen state with every field as it is now (``changes`` override single fields)."""
        values = {name: freeze(getattr(self, name)) for name in self._field_names}
        values.update(changes)
        return self._state_type(**values)

    def emit(self, code: str, audience: Seat | tuple[Seat, ...] | None = None, **params: Any) -> None:
        """Record an event for ``audience`` (one seat, several, or ``None`` for everyone)."""
        if not self.quiet:
            self.events.append(ev(code, audience, **params))

    def rng(self, purpose: str) -> Random:
        """A generator for the next random step of this ply; each call gets its own stream."""
        self._n_rng += 1
        state_seed: str = getattr(self, "seed")  # noqa: B009  # every state carries seed and ply
        ply: int = getattr(self, "ply")  # noqa: B009
        return rng_for(state_seed, ply, f"{purpose}{self._n_rng}")
