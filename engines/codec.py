"""Codecs shared by every engine: the JSON snapshot of states, and the notation of actions.

Snapshots: :func:`encode` / :func:`decode` turn frozen dataclasses with tuple fields (and enums,
frozensets, mappings) into JSON-ready values and back; ``Engine.dump`` / ``Engine.load`` use them.

Notation: every action class declares its compact, language-neutral form once, as a template in a
``NOTATION`` class attribute, and :class:`Notation` derives both directions from it::

    @dataclass(frozen=True, slots=True)
    class Swap:
        NOTATION: ClassVar[str] = "swap {own} seat{seat} {other}"
        own: int
        seat: int
        other: int

``{name}`` is a field, written with ``format`` (a format spec such as ``{d:+d}`` is allowed) and read
back by the field's reader: ``int`` fields accept digits with an optional sign, other fields a
whole word unless the engine gives a reader for that field name (which also validates: a card id
that the game does not know raises :class:`BadNotation`). One trailing part in square brackets
is optional and left out when its fields are ``None``: ``"use {card}[ {arg}]"``. Input is read with
whitespace collapsed and the template's own words matched case-insensitively.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any


class EngineError(Exception):
    """Base class of the errors an engine raises on bad input."""


class BadNotation(EngineError):
    """A notation string that names no action of the game."""


# ---------------------------------------------------------------------------------------------
# JSON snapshots of frozen dataclasses


def encode(obj: Any) -> Any:
    """Turn a tree of dataclasses, enums, tuples, frozensets and dicts into JSON-ready values."""
    if obj is None or isinstance(obj, bool | int | float | str):
        return obj
    if isinstance(obj, enum.Enum):
        return {"$e": type(obj).__name__, "v": encode(obj.value)}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out: dict[str, Any] = {"$": type(obj).__name__}
        for f in dataclasses.fields(obj):
            out[f.name] = encode(getattr(obj, f.name))
        return out
    if isinstance(obj, tuple | list):
        return [encode(x) for x in obj]
    if isinstance(obj, frozenset | set):
        return {"$set": sorted((encode(x) for x in obj), key=repr)}
    if isinstance(obj, Mapping):
        if all(isinstance(k, str) and not k.startswith("$") for k in obj):
            return {k: encode(v) for k, v in obj.items()}
        return {"$map": [[encode(k), encode(v)] for k, v in obj.items()]}
    raise TypeError(f"cannot encode {type(obj).__name__}")


def decode(data: Any, types: Mapping[str, type]) -> Any:
    """Inverse of :func:`encode`; lists become tuples, ``types`` maps class names to classes."""
    if data is None or isinstance(data, bool | int | float | str):
        return data
    if isinstance(data, list):
        return tuple(decode(x, types) for x in data)
    if isinstance(data, dict):
        if "$" in data:
            cls = types[data["$"]]
            kwargs = {k: decode(v, types) for k, v in data.items() if k != "$"}
            return cls(**kwargs)
        if "$e" in data:
            return types[data["$e"]](decode(data["v"], types))
        if "$set" in data:
            return frozenset(decode(x, types) for x in data["$set"])
        if "$map" in data:
            return {decode(k, types): decode(v, types) for k, v in data["$map"]}
        return {k: decode(v, types) for k, v in data.items()}
    raise TypeError(f"cannot decode {type(data).__name__}")


def types_of(namespace: Mapping[str, Any]) -> dict[str, type]:
    """Every dataclass and enum class defined in a module namespace, for :func:`decode`."""
    return {
        name: obj
        for name, obj in namespace.items()
        if isinstance(obj, type) and (dataclasses.is_dataclass(obj) or issubclass(obj, enum.Enum))
    }


# ---------------------------------------------------------------------------------------------
# Notation of actions

#: reads one word of a notation into a field value; raises ValueError, KeyError or BadNotation
Reader = Callable[[str], Any]
#: writes a field value as one word; the default is ``format(value, spec)``
Writer = Callable[[Any], str]


def read_int(word: str) -> int:
    if not re.fullmatch(r"[+-]?[0-9]{1,9}", word):
        raise ValueError(word)
    return int(word)


def one_of(words: Iterable[str], *, fold: Callable[[str], str] = str.lower) -> Reader:
    """A reader that accepts only ``words`` (compared after ``fold``) and returns the word as listed."""
    table = {fold(w): w for w in words}

    def read(word: str) -> str:
        return table[fold(word)]

    return read


def word_list(item: Reader, *, empty: str = "-", sep: str = ",") -> tuple[Reader, Writer]:
    """Reader and writer of a tuple field written as ``a,b,c`` (``empty`` for no items)."""

    def read(word: str) -> tuple[Any, ...]:
        return () if word == empty else tuple(item(w) for w in word.split(sep))

    def write(values: Any) -> str:
        return sep.join(str(v) for v in values) or empty

    return read, write


@dataclass(frozen=True, slots=True)
class _Form:
    cls: type
    pattern: re.Pattern[str]
    fields: tuple[tuple[str, str], ...]  # (field name, format spec) in template order
    required: str  # the template with the optional part removed
    optional: str  # the optional part ("" if none)
    optional_fields: tuple[str, ...]
    first_word: str | None  # the template's leading literal word, for dispatch
    # for writing: (literal, field name or None, writer or None, format spec) of each piece
    write_required: tuple[tuple[str, str | None, Writer | None, str], ...]
    write_optional: tuple[tuple[str, str | None, Writer | None, str], ...]
    frozen: bool  # a frozen dataclass: its text never changes, so it may be kept


#: how many written actions a codec keeps (emptied when full)
_WRITTEN_MAX = 4096


def _fill(pieces: tuple[tuple[str, str | None, Writer | None, str], ...], action: Any) -> str:
    out = []
    for literal, name, writer, spec in pieces:
        out.append(literal)
        if name is not None:
            value = getattr(action, name)
            out.append(writer(value) if writer else format(value, spec))
    return "".join(out)


def _pieces(template: str) -> list[tuple[str, str | None, str]]:
    return [(lit, name, spec or "") for lit, name, spec, _ in string.Formatter().parse(template)]


class Notation:
    """Action ↔ notation for a set of action classes, each with a ``NOTATION`` template.

    ``readers`` / ``writers`` map field names to how a word is read and written (field names mean
    the same in every action of a game: ``card``, ``place``, ``seat``…). Writing and reading are
    exact inverses for every action the engine can produce; the contract test checks it.
    """

    def __init__(
        self,
        actions: Iterable[type],
        *,
        readers: Mapping[str, Reader] | None = None,
        writers: Mapping[str, Writer] | None = None,
        normalise: Callable[[str], str] = lambda text: " ".join(text.split()),
    ) -> None:
        self._readers = dict(readers or {})
        self._writers = dict(writers or {})
        self._normalise = normalise
        self._by_class: dict[type, _Form] = {}
        self._by_word: dict[str, list[_Form]] = {}
        self._loose: list[_Form] = []
        # the text of an action written lately, by the action's identity (the entry holds the action,
        # so its id stays its own): engines offer the same action values turn after turn
        self._written: dict[int, tuple[Any, str]] = {}
        #: the same texts by the action's value (an equal action made anew: an AI's ``Flip()``)
        self._by_value: dict[Any, str] = {}
        for cls in actions:
            form = self._compile(cls)
            self._by_class[cls] = form
            if form.first_word is None:
                self._loose.append(form)
            else:
                self._by_word.setdefault(form.first_word, []).append(form)

    @property
    def classes(self) -> tuple[type, ...]:
        return tuple(self._by_class)

    def _compile(self, cls: type) -> _Form:
        template: str = getattr(cls, "NOTATION", None) or ""
        if not template:
            raise TypeError(f"{cls.__name__} has no NOTATION template")
        required, optional = template, ""
        if template.endswith("]") and "[" in template:
            cut = template.index("[")
            required, optional = template[:cut], template[cut + 1 : -1]
        names = {f.name: f for f in dataclasses.fields(cls)}
        types = {name: str(f.type) for name, f in names.items()}
        parts: list[str] = []
        fields: list[tuple[str, str]] = []
        optional_fields: list[str] = []
        for piece, is_optional in ((required, False), (optional, True)):
            regex = ""
            for literal, name, spec in _pieces(piece):
                regex += re.escape(literal).replace(r"\ ", " ")
                if name is None:
                    continue
                if name not in names:
                    raise TypeError(f"{cls.__name__}.NOTATION names no field {name!r}")
                word = r"[+-]?\d+" if types[name] == "int" and name not in self._readers else r"[^\s]+?"
                regex += f"(?P<{name}>{word})"
                fields.append((name, spec))
                if is_optional:
                    optional_fields.append(name)
            parts.append(f"(?:{regex})?" if is_optional else regex)
        # ASCII: "ſeat" is not "seat" and "²" is not a digit, whatever Unicode case folding says
        pattern = re.compile("".join(parts), re.IGNORECASE | re.ASCII)
        head = required.split(" ", 1)[0]
        first_word = head.lower() if head and "{" not in head else None
        return _Form(
            cls,
            pattern,
            tuple(fields),
            required,
            optional,
            tuple(optional_fields),
            first_word,
            self._write_pieces(required),
            self._write_pieces(optional),
            bool(getattr(getattr(cls, "__dataclass_params__", None), "frozen", False)),
        )

    def _write_pieces(self, piece: str) -> tuple[tuple[str, str | None, Writer | None, str], ...]:
        return tuple(
            (literal, name, self._writers.get(name) if name is not None else None, spec)
            for literal, name, spec in _pieces(piece)
        )

    # --- writing -------------------------------------------------------------------------------
    def write(self, action: Any) -> str:
        known = self._written.get(id(action))
        if known is not None and known[0] is action:
            return known[1]
        form = self._by_class.get(type(action))
        if form is None:
            raise TypeError(f"not an action of this game: {action!r}")
        by_value = form.frozen
        text = None
        if by_value:
            try:
                text = self._by_value.get(action)
            except TypeError:  # a field holds an unhashable value (a list): known by identity only
                by_value = False
        if text is None:
            text = _fill(form.write_required, action)
            if form.optional and all(getattr(action, f) is not None for f in form.optional_fields):
                text += _fill(form.write_optional, action)
        if form.frozen:
            if len(self._written) >= _WRITTEN_MAX:
                self._written.clear()
                self._by_value.clear()
            self._written[id(action)] = (action, text)
            if by_value:
                self._by_value[action] = text
        return text

    # --- reading -------------------------------------------------------------------------------
    def read(self, text: str) -> Any:
        if not isinstance(text, str):
            raise BadNotation(repr(text))
        norm = self._normalise(text)
        head = norm.split(" ", 1)[0].lower()
        for form in (*self._by_word.get(head, ()), *self._loose):
            m = form.pattern.fullmatch(norm)
            if m is None:
                continue
            try:
                values = {name: self._value(form, name, m.group(name)) for name, _ in form.fields}
                return form.cls(**values)
            except (ValueError, KeyError, TypeError, BadNotation):
                continue
        raise BadNotation(text)

    def _value(self, form: _Form, name: str, word: str | None) -> Any:
        if word is None:
            return None
        reader = self._readers.get(name)
        if reader is not None:
            return reader(word)
        field_type = next(str(f.type) for f in dataclasses.fields(form.cls) if f.name == name)
        if field_type == "int":
            return read_int(word)
        return word
