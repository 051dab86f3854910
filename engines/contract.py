"""The engine contract shared by every game.

An engine is pure: no I/O, no text for humans, no global randomness. Every game module defines one
subclass of :class:`Engine` and registers an instance in :data:`engines.GAMES`.

The surface (DESIGN.md section 3):

- ``new_game(players, seed, options) -> state``
- ``to_act(state)`` the seats that may act now
- ``check(state, seat, action)`` raises :class:`IllegalAction` with a reason code; legality is written
  there once and both ``legal_actions`` and ``apply`` derive from it
- ``apply(state, seat, action) -> (state, events)``
- ``view(state, seat | None)``: the only way hidden information leaves the engine
- ``outcome(state)``: ``None`` while the game runs
- ``notation(action)`` / ``parse_notation(text)``: the compact language-neutral form of an action
- ``dump(state)`` / ``load(data)``: JSON-ready snapshot
- ``ai_action(name, view, legal, rng)``: AI players see only their seat's view

States, actions, views and events are frozen dataclasses with tuple fields. Every state carries
``seed`` (str) and ``ply`` (actions applied so far); randomness comes from :func:`rng_for`.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar, TypeVar

from engines.codec import EngineError, Notation, decode, encode
from engines.keyed import KEYED_SEED, keyed_below, keyed_random

Seat = int
T = TypeVar("T")


def maker(cls: type[T]) -> Callable[..., T]:
    """A constructor of the frozen, slotted dataclass ``cls`` that takes every field positionally: the
    same value as ``cls(...)`` at a tenth of the cost, for the values built on every action (states,
    views, events).

    The generated ``__init__`` of a frozen class sets each field through ``object.__setattr__``, about
    1,400 machine instructions a field. Here the fields are set on an instance of a plain twin class
    with the same slots (a plain slot store), which then becomes a ``cls`` by ``__class__``
    assignment (Python allows it between classes of the same layout). The value is a true ``cls``,
    as frozen as any. A subclass of slotted dataclasses (whose twin would inherit the frozen
    ``__setattr__``) has its fields set through the slots' own descriptors, about half the cost of its
    ``__init__``. A class the trick does not fit (a class in the chain without slots, ``__post_init__``,
    a default factory or an init-only field) gets ``cls`` itself back."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    names = tuple(f.name for f in fields)
    slots: list[str] = []
    for c in reversed(cls.__mro__[:-1]):
        if "__slots__" not in c.__dict__ or len(c.__bases__) != 1:
            return cls
        slots.extend(c.__dict__["__slots__"])
    if (
        tuple(slots) != names
        or hasattr(cls, "__post_init__")
        or not all(f.init and not f.kw_only and n.isidentifier() for f, n in zip(fields, names, strict=True))
    ):
        return cls
    namespace: dict[str, Any] = {"cls": cls, "new": object.__new__}
    if cls.__bases__ != (object,):
        for n in names:
            owner = next(c for c in cls.__mro__ if n in c.__dict__)
            namespace[f"set_{n}"] = owner.__dict__[n].__set__
        body = "".join(f"    set_{n}(o, {n})\n" for n in names)
        exec(f"def make({', '.join(names)}):\n    o = new(cls)\n{body}    return o\n", namespace)
        made_by_slots: Callable[..., T] = namespace["make"]
        return made_by_slots
    twin = _twin(cls, names)
    if twin is None:
        return cls
    body = "".join(f"    o.{n} = {n}\n" for n in names)
    namespace["twin"] = twin
    # twin() rather than object.__new__(twin): the same empty instance, without the checks of a call
    # to __new__ through its wrapper
    exec(
        f"def make({', '.join(names)}):\n    o = twin()\n{body}    o.__class__ = cls\n    return o\n",
        namespace,
    )
    made: Callable[..., T] = namespace["make"]
    _TWINS[made] = twin
    return made


#: the twin class of each constructor :func:`maker` built with one
_TWINS: dict[Callable[..., Any], type] = {}


def _twin(cls: type, names: tuple[str, ...]) -> type | None:
    """A plain class with the slots ``names`` whose instances may become a ``cls`` by ``__class__``
    assignment (:func:`maker`), or None if Python does not allow it for ``cls``."""
    twin = type(f"_{cls.__name__}Twin", (), {"__slots__": names})
    try:
        probe: Any = object.__new__(twin)
        probe.__class__ = cls
    except TypeError:
        return None
    return twin


def replacer(cls: type[T], names: tuple[str, ...]) -> Callable[..., T]:
    """``replace(old, *values)``: a copy of the frozen dataclass value ``old`` with the fields
    ``names`` set to ``values`` (in the order of ``names``) and every other field as it is, the same
    value as ``dataclasses.replace(old, **dict(zip(names, values)))``, built by position as
    :func:`maker` builds it (for a transition that changes a few fields of a large state). Where
    maker's twin fits, the fields are stored by the same function (the state's fields are not
    passed on to a second call)."""
    fields = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    unknown = set(names) - set(fields)
    if unknown or len(set(names)) != len(names):
        raise TypeError(f"{cls.__name__}: not its fields, or named twice: {sorted(unknown) or names}")
    make = maker(cls)
    twin = _TWINS.get(make)
    namespace: dict[str, Any] = {"make": make, "twin": twin, "cls": cls}
    if twin is not None:
        body = "".join(f"    o.{n} = {n if n in names else 'old.' + n}\n" for n in fields)
        source = f"def replace(old, {', '.join(names)}):\n    o = twin()\n{body}    o.__class__ = cls\n    return o\n"
    else:
        args = ", ".join(n if n in names else f"old.{n}" for n in fields)
        source = f"def replace(old, {', '.join(names)}):\n    return make({args})\n"
    exec(source, namespace)  # field names only
    made: Callable[..., T] = namespace["replace"]
    return made


class IllegalAction(EngineError):
    """An action that is well formed but not allowed now. ``code`` is a stable reason code."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.params!r})"


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for ``to`` (``None`` = everyone, else these seats only).

    ``params`` is a tuple of (name, value) pairs of numbers, codes and card ids; never sentences.
    """

    code: str
    to: tuple[Seat, ...] | None = None
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def public(self) -> bool:
        return self.to is None

    @property
    def p(self) -> dict[str, Any]:
        return dict(self.params)

    def __getitem__(self, key: str) -> Any:
        for name, value in self.params:
            if name == key:
                return value
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        for name, value in self.params:
            if name == key:
                return value
        return default

    def visible_to(self, seat: Seat | None) -> bool:
        """Whether a recipient (a seat, or ``None`` for the public table) may see this event."""
        if self.to is None:
            return True
        return seat is not None and seat in self.to


def ev(code: str, audience: Iterable[Seat] | Seat | None = None, **params: Any) -> Event:
    """Build an event for ``audience``: one seat, several seats or ``None`` (public).

    The keyword is ``audience`` rather than ``to`` so that an event parameter naming a seat
    ("gave to", "paid to") can never be taken for its audience by mistake."""
    if audience is None:
        return _event(code, None, tuple(params.items()))
    if isinstance(audience, int):
        return _event(code, (audience,), tuple(params.items()))
    return _event(code, tuple(audience), tuple(params.items()))


_event = maker(Event)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game.

    ``ranks[s]`` is seat s's place (1 = best; tied seats share a place, the next place skips).
    ``scores[s]`` is the game's own score measure for seat s (lower or higher is better per game).
    """

    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    low_wins: bool = False


def rank_by(scores: tuple[int, ...], low_wins: bool, tiebreak: tuple[int, ...] | None = None) -> Outcome:
    """Standard competition ranking (1, 1, 3) of seats by score, optionally with a tiebreak key."""
    sign = 1 if low_wins else -1
    keys = [(sign * s, (tiebreak[i] if tiebreak else 0)) for i, s in enumerate(scores)]
    ranks = tuple(1 + sum(1 for other in keys if other < mine) for mine in keys)
    winners = tuple(i for i, r in enumerate(ranks) if r == 1)
    return Outcome(ranks=ranks, scores=tuple(scores), winners=winners, low_wins=low_wins)


def rng_for(seed: str, ply: int, purpose: str) -> Random:
    """The one source of randomness: a generator seeded from the game seed, the ply and a purpose.

    A seed of the keyed form (:data:`engines.keyed.KEYED_SEED`, the chat's seeds since issue #28)
    gets the cheap :class:`~engines.keyed.KeyedRandom`; any other seed ``Random(str)``, as every
    match stored before was played (its replay depends on it)."""
    if seed.startswith(KEYED_SEED):
        return keyed_random(f"{seed}:{ply}:{purpose}")
    return Random(f"{seed}:{ply}:{purpose}")


def randint_for(seed: str, ply: int, purpose: str, a: int, b: int) -> int:
    """``rng_for(seed, ply, purpose).randint(a, b)``: the same number, without making the generator
    where the digest of a keyed seed decides it (:func:`engines.keyed.keyed_below`; a die)."""
    if seed.startswith(KEYED_SEED) and type(a) is int and type(b) is int and a <= b:
        return a + keyed_below(f"{seed}:{ply}:{purpose}", b - a + 1)
    return rng_for(seed, ply, purpose).randint(a, b)


# ---------------------------------------------------------------------------------------------
# The engine base class

AIPolicy = Callable[[Any, tuple[Any, ...], Random], Any]
#: an AI as a player of one game (:meth:`Engine.ai_player`): (state, seat, view, legal) -> its move
AIPlayer = Callable[[Any, Seat, Any, tuple[Any, ...]], Any]


class Engine(ABC):
    """Base class of every game engine. Subclasses are stateless; all state lives in the state value."""

    id: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int] = 2
    Options: ClassVar[type]
    #: AI policies by name; each gets the seat's view, its legal actions and a seeded generator.
    ais: ClassVar[dict[str, AIPolicy]] = {}
    #: the AI used for seats that the chat fills with a bot, and the one `simulate` pits against random
    default_ai: ClassVar[str] = "random"
    #: class name -> class, for load(); set by subclasses with ``types_of(globals())``
    types: ClassVar[dict[str, type]] = {}
    #: the action classes' notation, from their ``NOTATION`` templates (:class:`engines.codec.Notation`)
    notation_codec: ClassVar[Notation]
    #: engines whose games may legitimately be long set a higher limit for playouts
    max_plies: ClassVar[int] = 20_000

    # --- creation ------------------------------------------------------------------------
    @abstractmethod
    def new_game(self, players: int, seed: str, options: Any = None) -> Any:
        """A fresh game for ``players`` seats; ``options=None`` means the spec's defaults."""

    def start_events(self, state: Any) -> tuple[Event, ...]:
        """The events of the setup ``new_game`` performed (the first deal, the initial look), so
        that the chat can show each seat what it saw. Engines with hidden setup override this."""
        return ()

    def options_from_dict(self, data: Mapping[str, Any] | None) -> Any:
        """Options from a plain mapping (unknown keys raise ``ValueError``)."""
        data = dict(data or {})
        names = {f.name for f in dataclasses.fields(self.Options)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown options: {sorted(unknown)}")
        return self.Options(**data)

    def options_to_dict(self, options: Any) -> dict[str, Any]:
        return {f.name: encode(getattr(options, f.name)) for f in dataclasses.fields(options)}

    # --- turn order and legality -----------------------------------------------------------
    @abstractmethod
    def to_act(self, state: Any) -> tuple[Seat, ...]:
        """Seats that may act now: empty exactly when the game is over (when :meth:`outcome` is not
        None; a whole game's loop asks only this while the game runs)."""

    @abstractmethod
    def candidate_actions(self, state: Any, seat: Seat) -> Iterable[Any]:
        """A superset of the legal actions; :meth:`legal_actions` filters it through :meth:`check`."""

    @abstractmethod
    def check(self, state: Any, seat: Seat, action: Any) -> None:
        """Raise :class:`IllegalAction` with a reason code if ``seat`` may not take ``action`` now."""

    def legal_actions(self, state: Any, seat: Seat) -> tuple[Any, ...]:
        out = []
        for action in self.candidate_actions(state, seat):
            try:
                self.check(state, seat, action)
            except IllegalAction:
                continue
            out.append(action)
        return tuple(out)

    def is_legal(self, state: Any, seat: Seat, action: Any) -> bool:
        try:
            self.check(state, seat, action)
        except IllegalAction:
            return False
        return True

    def for_game(self, state: Any) -> Engine:
        """The engine to ask about the game of ``state`` from now on (its turns, legal actions and
        transitions, the same answers as this one's): this engine, unless the game's options select
        rules with entry points of their own, which then answer without a dispatch on the options in
        every call. A whole game's loop asks once (:func:`engines.playout.play_ai_game`)."""
        return self

    # --- transitions -------------------------------------------------------------------------
    def apply(self, state: Any, seat: Seat, action: Any) -> tuple[Any, tuple[Event, ...]]:
        """Check, then perform. The returned state has ``ply`` one higher."""
        self.check(state, seat, action)
        return self.perform(state, seat, action)

    @abstractmethod
    def perform(self, state: Any, seat: Seat, action: Any) -> tuple[Any, tuple[Event, ...]]:
        """Carry out an action already known to be legal."""

    # --- information ---------------------------------------------------------------------------
    @abstractmethod
    def view(self, state: Any, seat: Seat | None) -> Any:
        """What ``seat`` may know (``None``: the public table)."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """The result, or ``None`` while the game runs."""

    @abstractmethod
    def hidden_tokens(self, state: Any, seat: Seat | None) -> frozenset[str]:
        """Identifiers (card instance ids and the like) that ``seat`` must not find in its view.

        The contract test encodes ``view(state, seat)`` to JSON and checks that none of these
        strings occurs in it.
        """

    def seat_count(self, state: Any) -> int:
        return int(state.players)

    # --- notation --------------------------------------------------------------------------------
    def notation(self, action: Any) -> str:
        """The compact language-neutral form, e.g. ``replace 2`` or ``swap 1 seat2 3``."""
        return self.notation_codec.write(action)

    def parse_notation(self, text: str) -> Any:
        """Inverse of :meth:`notation`; raises :class:`BadNotation`."""
        return self.notation_codec.read(text)

    # --- persistence ----------------------------------------------------------------------------
    def dump(self, state: Any) -> dict[str, Any]:
        data = encode(state)
        assert isinstance(data, dict)
        return data

    def load(self, data: Mapping[str, Any]) -> Any:
        return decode(dict(data), self.types)

    # --- AI -----------------------------------------------------------------------------------
    def ai_action(self, name: str, view: Any, legal: tuple[Any, ...], rng: Random) -> Any:
        """The move of AI ``name`` given only its seat's view and its legal actions."""
        policy = self.ais.get(name)
        if policy is None or policy is random_policy:  # random_policy's answer, without its call
            return rng.choice(legal)
        return policy(view, legal, rng)

    def ai_move(self, name: str, state: Any, seat: Seat, view: Any, legal: tuple[Any, ...]) -> Any:
        """``ai_action(name, view, legal, ai_rng(state, seat))``: the move of AI ``name`` for ``seat``
        in ``state`` (:meth:`ai_player`'s)."""
        return self.ai_player(name, state.seed)(state, seat, view, legal)

    def ai_player(self, name: str, seed: str) -> AIPlayer:
        """AI ``name`` as a player of the game seeded ``seed``: ``move(state, seat, view, legal)`` is
        ``ai_action(name, view, legal, ai_rng(state, seat))``, with what stays the same for the whole
        game (the policy, the form of the seed) worked out once (:func:`engines.playout.play_ai_game`
        asks once per seat and game). The random AI's move in a game of a keyed seed is the first draw
        of the seat's generator, taken from its digest without making the generator
        (:func:`engines.keyed.keyed_below`)."""
        policy = self.ais.get(name)
        if policy is not None and policy is not random_policy:
            ai_rng = self.ai_rng

            def policy_move(state: Any, seat: Seat, view: Any, legal: tuple[Any, ...]) -> Any:
                return policy(view, legal, ai_rng(state, seat))

            return policy_move
        if seed.startswith(KEYED_SEED):

            def keyed_move(state: Any, seat: Seat, view: Any, legal: tuple[Any, ...]) -> Any:
                if legal:  # keyed_random(key).choice(legal), from the digest
                    return legal[keyed_below(f"{seed}:{state.ply}:ai{seat}", len(legal))]
                raise IndexError("Cannot choose from an empty sequence")

            return keyed_move

        def seeded_move(state: Any, seat: Seat, view: Any, legal: tuple[Any, ...]) -> Any:
            return Random(f"{seed}:{state.ply}:ai{seat}").choice(legal)

        return seeded_move

    def ai_reads_view(self, name: str) -> bool:
        """Whether AI ``name`` reads the view it is given: the random one (also the fallback of an
        unknown name) chooses among the legal actions alone, so a caller may pass it ``None``."""
        return self.ais.get(name, random_policy) is not random_policy

    def ai_rng(self, state: Any, seat: Seat) -> Random:
        """``rng_for(state.seed, state.ply, f"ai{seat}")`` (written out: one for every AI action)."""
        seed: str = state.seed
        key = f"{seed}:{state.ply}:ai{seat}"
        return keyed_random(key) if seed.startswith(KEYED_SEED) else Random(key)


def random_policy(view: Any, legal: tuple[Any, ...], rng: Random) -> Any:
    """Uniformly random among the legal actions."""
    return rng.choice(legal)
