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
import types
import typing
from collections.abc import Callable
from random import Random
from typing import Any, ClassVar, Generic, TypeVar

from engines.contract import Event, Seat, ev, maker, randint_for, rng_for

make_event = maker(Event)

S = TypeVar("S")

_OWN = frozenset({"events", "quiet", "_state_type", "_n_rng", "_store", "_origin", "_by_state"})

#: field names by state type, checked once against the working copy's own names
_FIELDS: dict[type, tuple[str, ...]] = {}
#: the compiled copy-in and copy-out of each (working copy class, state class)
_COPIERS: dict[tuple[type, type], tuple[Callable[[Any, Any], None], Callable[[Any], Any]]] = {}


def thaw(value: Any) -> Any:
    """Tuples become lists, recursively; dataclasses, sets and scalars are kept as they are."""
    if type(value) is tuple:
        return [thaw(v) if type(v) is tuple else v for v in value]
    return value


def freeze(value: Any) -> Any:
    """Inverse of :func:`thaw`."""
    if type(value) is list:
        return tuple([freeze(v) if type(v) is list else v for v in value])
    return value


def _may_hold_tuple(hint: Any) -> bool:
    """Whether a field of this type may hold a tuple (or, when frozen again, a list): anything but a
    plain class that is not a tuple's base, None, or a union of those."""
    if hint is None or hint is type(None):
        return False
    if isinstance(hint, type) and not typing.get_args(hint):
        return issubclass(tuple, hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return any(_may_hold_tuple(a) for a in typing.get_args(hint))
    return True  # a generic (tuple[...], list[...]), Any, a type variable, Literal...


def _list_depth(hint: Any) -> int | None:
    """How deep a working copy's field of this type nests lists of values that hold no tuple
    (``list[list[str | None]]``: 2), or None when it is anything else: such a field is copied by
    comprehensions written out for its depth instead of the recursive :func:`thaw` and :func:`freeze`,
    and frozen back to the state's own value when it is equal (so that a view may memoise what it
    derives from it by identity)."""
    depth = 0
    while typing.get_origin(hint) is list:
        (hint,) = typing.get_args(hint)
        depth += 1
    return depth if 0 < depth <= 3 and not _may_hold_tuple(hint) else None


def _nested(depth: int, value: str, make: str) -> str:
    """The expression that copies ``value`` of nested sequences ``depth`` deep with ``make`` ("list"
    or "tuple") at every level."""
    expr = f"{make}(r{depth - 1})"
    for level in range(depth - 1, 0, -1):
        inner = "[" + expr + f" for r{level} in r{level - 1}]"
        expr = inner if make == "list" else f"tuple({inner})"
    return expr.replace("r0", value) if depth > 1 else f"{make}({value})"


def _tuple_fields(state_type: type, names: tuple[str, ...]) -> frozenset[str]:
    """The fields whose values may be tuples, by their type hints (all of them when the hints cannot
    be read): the others are copied without a look at their type."""
    try:
        hints = typing.get_type_hints(state_type)
    except Exception:
        return frozenset(names)
    return frozenset(n for n in names if n not in hints or _may_hold_tuple(hints[n]))


def field_names(state_type: type) -> tuple[str, ...]:
    """The fields of a state class, in order (cached; a clash with the working copy's own names
    raises ``TypeError``)."""
    names = _FIELDS.get(state_type)
    if names is None:
        fields = dataclasses.fields(state_type)
        if not all(f.init and not f.kw_only and f.name.isidentifier() for f in fields):
            raise TypeError(f"{state_type.__name__}: a state's fields are all positional init fields")
        names = tuple(f.name for f in fields)
        clash = _OWN.intersection(names)
        if clash:
            raise TypeError(f"state fields {sorted(clash)} clash with the working copy's own")
        _FIELDS[state_type] = names
    return names


def _copiers(
    work_type: type[Work[Any]], state_type: type
) -> tuple[Callable[[Any, Any], None], Callable[[Any], Any]]:
    """``load(work, state)`` and ``store(work) -> state`` for one pair of classes, written out field by
    field (as ``dataclasses`` writes ``__init__``): a copy is taken for every transition and every
    check of some games, and the loop over the field names with getattr/setattr was most of its cost."""
    key = (work_type, state_type)
    found = _COPIERS.get(key)
    if found is not None:
        return found
    names = field_names(state_type)
    tuples = _tuple_fields(state_type, names)
    try:
        work_hints = typing.get_type_hints(work_type)
    except Exception:
        work_hints = {}
    load = ["def load(self, state):", "    self._origin = state"]
    store = ["def store(self):", "    origin = self._origin", "    return make("]
    for n in names:
        if n in work_type.KEEP or n not in tuples:
            load.append(f"    self.{n} = state.{n}")
            store.append(f"        self.{n},")
        elif n in work_type.SHALLOW:
            load.append(f"    self.{n} = list(v) if type(v := state.{n}) is tuple else v")
            store.append(
                f"        (o if (t := tuple(v)) == (o := origin.{n}) else t) if type(v := self.{n}) is list else v,"
            )
        elif (depth := _list_depth(work_hints.get(n))) is not None:
            load.append(
                f"    self.{n} = {_nested(depth, 'v', 'list')} if type(v := state.{n}) is tuple else v"
            )
            store.append(
                f"        (o if (t := {_nested(depth, 'v', 'tuple')}) == (o := origin.{n}) else t)"
                f" if type(v := self.{n}) is list else v,"
            )
        else:
            load.append(f"    self.{n} = thaw(v) if type(v := state.{n}) is tuple else v")
            store.append(f"        freeze(v) if type(v := self.{n}) is list else v,")
    store.append("    )")
    namespace: dict[str, Any] = {"thaw": thaw, "freeze": freeze, "make": maker(state_type)}
    exec("\n".join(load) + "\n\n" + "\n".join(store), namespace)  # field names only
    found = (namespace["load"], namespace["store"])
    _COPIERS[key] = found
    return found


class Work(Generic[S]):
    """A mutable copy of a state of type ``S`` for the length of one transition.

    With ``quiet`` set (AI rollouts), :meth:`emit` records nothing. A game may name fields in
    ``KEEP`` (never changed by its rules, or only ever replaced whole: kept as they are) and in
    ``SHALLOW`` (a tuple whose entries are immutable: one list, not thawed further, and the state's
    own tuple again in the frozen state when no entry changed, so that a view may memoise what it
    derives from the field by identity); both save most of the cost of a copy. Fields whose type
    hints admit no tuple are copied as they are.
    """

    KEEP: ClassVar[frozenset[str]] = frozenset()
    SHALLOW: ClassVar[frozenset[str]] = frozenset()

    events: list[Event]
    quiet: bool
    #: the copiers of this working copy class by state class (a copy of ``_COPIERS`` per subclass,
    #: looked up by the state's class alone)
    _by_state: ClassVar[dict[type, tuple[Callable[[Any, Any], None], Callable[[Any], Any]]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._by_state = {}

    def __init__(self, state: S, *, quiet: bool = False) -> None:
        state_type = type(state)
        copiers = self._by_state.get(state_type)
        if copiers is None:
            copiers = self._by_state[state_type] = _copiers(type(self), state_type)
        self._state_type = state_type
        self._store = copiers[1]
        copiers[0](self, state)
        self.events = []
        self.quiet = quiet
        self._n_rng = 0

    def freeze(self, **changes: Any) -> S:
        """The frozen state with every field as it is now (``changes`` override single fields)."""
        store = self._store
        if not changes:
            return store(self)  # type: ignore[no-any-return]
        unknown = changes.keys() - set(_FIELDS[self._state_type])
        if unknown:
            raise TypeError(f"no such state fields: {sorted(unknown)}")
        saved = {name: getattr(self, name) for name in changes}
        try:
            for name, value in changes.items():
                setattr(self, name, value)
            return store(self)  # type: ignore[no-any-return]
        finally:
            for name, value in saved.items():
                setattr(self, name, value)

    def emit(self, code: str, audience: Seat | tuple[Seat, ...] | None = None, **params: Any) -> None:
        """Record an event for ``audience`` (one seat, several, or ``None`` for everyone)."""
        if not self.quiet:
            if audience is None:
                self.events.append(make_event(code, None, tuple(params.items())))
            elif type(audience) is int:
                self.events.append(make_event(code, (audience,), tuple(params.items())))
            else:
                self.events.append(ev(code, audience, **params))

    def emit_pairs(self, code: str, audience: Seat | None, params: tuple[tuple[str, Any], ...]) -> None:
        """:meth:`emit` with the parameters given as the event keeps them, ``(name, value)`` pairs in
        order: for the events of nearly every action (a keyword call and its conversion cost more
        than the event itself)."""
        if not self.quiet:
            self.events.append(make_event(code, None if audience is None else (audience,), params))

    def randint(self, purpose: str, a: int, b: int) -> int:
        """``rng(purpose).randint(a, b)``: the same number and the same next random step, without
        the generator where a keyed seed's digest decides it (:func:`engines.contract.randint_for`)."""
        self._n_rng += 1
        state_seed: str = getattr(self, "seed")  # noqa: B009  # every state carries seed and ply
        ply: int = getattr(self, "ply")  # noqa: B009
        return randint_for(state_seed, ply, f"{purpose}{self._n_rng}", a, b)

    def rng(self, purpose: str) -> Random:
        """A generator for the next random step of this ply; each call gets its own stream."""
        self._n_rng += 1
        state_seed: str = getattr(self, "seed")  # noqa: B009  # every state carries seed and ply
        ply: int = getattr(self, "ply")  # noqa: B009
        return rng_for(state_seed, ply, f"{purpose}{self._n_rng}")


def first_purpose(purpose: str) -> str:
    """What :meth:`Work.rng` and :meth:`Work.randint` key the first random step of a ply for
    ``purpose`` by: ``rng_for(seed, ply, first_purpose(purpose))`` and ``randint_for(seed, ply,
    first_purpose(purpose), a, b)`` draw what the working copy draws first (for a transition built
    without one)."""
    return f"{purpose}1"
