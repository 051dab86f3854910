"""Majavajengi's notation now comes from the actions' NOTATION templates (engines.codec.Notation).

Stored action logs and button data keep their strings, so the codec must write exactly what the
hand-written notation wrote and read exactly what it read. The old functions are kept here verbatim
(as reference, over plain tuples) and compared with the codec over every legal action of AI playouts
and over variants of each string that the old reader accepted or refused.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from engines.codec import BadNotation
from engines.majavajengi import ENGINE
from engines.majavajengi.model import MajavajengiOptions
from engines.playout import play_ai_game

# --- the notation as it was written by hand (engines/majavajengi.py before the codec) ------------

_SIMPLE = {
    "draw": ("Draw",),
    "discard": ("Discard",),
    "draw2": ("Draw2",),
    "next": ("Next",),
    "stop": ("Stop",),
    "knock": ("Knock",),
    "end": ("End",),
}
_NOTATION_RE = re.compile(
    r"(?:(take|replace|peek) ([0-9]{1,2})|swap ([0-9]{1,2}) seat([0-9]{1,2}) ([0-9]{1,2}))", re.ASCII
)


def old_notation(action: tuple) -> str:
    match action:
        case ("Take", pos):
            return f"take {pos}"
        case ("Replace", pos):
            return f"replace {pos}"
        case ("Peek", pos):
            return f"peek {pos}"
        case ("Swap", own, k, m):
            return f"swap {own} seat{k} {m}"
        case ("Draw",):
            return "draw"
        case ("Discard",):
            return "discard"
        case ("Draw2",):
            return "draw2"
        case ("Next",):
            return "next"
        case ("Stop",):
            return "stop"
        case ("Knock",):
            return "knock"
        case ("End",):
            return "end"
    raise ValueError(f"not a Majavajengi action: {action!r}")


def old_parse(text: str) -> tuple:
    text = " ".join(text.strip().lower().split())
    if text in _SIMPLE:
        return _SIMPLE[text]
    m = _NOTATION_RE.fullmatch(text)
    if m is None:
        raise BadNotation(text)
    verb, pos, own, seat, other = m.groups()
    if verb == "take":
        return ("Take", int(pos))
    if verb == "replace":
        return ("Replace", int(pos))
    if verb == "peek":
        return ("Peek", int(pos))
    return ("Swap", int(own), int(seat), int(other))


# --------------------------------------------------------------------------------------------------


def as_tuple(action: object) -> tuple:
    return (type(action).__name__, *dataclasses.astuple(action))  # type: ignore[call-overload]


def read(parse, text: str) -> object:
    try:
        return parse(text)
    except BadNotation:
        return BadNotation


def seen_actions() -> set:
    actions = set()

    def on_step(state, seat, action, events):
        for s in ENGINE.to_act(state):
            actions.update(ENGINE.legal_actions(state, s))

    options = MajavajengiOptions(rounds=3)
    for g, players in enumerate((2, 3, 4, 6)):
        play_ai_game(ENGINE, ("smart",) * players, f"notation:{g}", options, on_step)
    return actions


ACTIONS = seen_actions()


def variants(text: str) -> list[str]:
    out = [
        text,
        text.upper(),
        text.title(),
        f"  {text}  ",
        text.replace(" ", "   "),
        text.replace(" ", "\t"),
        text.replace(" ", "\u00a0"),
        text + " x",
        "x " + text,
        text + "1",
        text.replace("seat", "seat "),
        text.replace("seat", "ſeat"),
        text.replace("k", "\u212a"),
        text.replace("i", "ı"),
        text.replace("s", "ſ"),
        text.replace("1", "01"),
        text.replace("2", "002"),
        text.replace("3", "+3"),
        text.replace("4", "-4"),
        text.replace("1", "١"),
        text.replace("2", "²"),
        text.replace(" ", ""),
        text[:-1],
        text + "\n",
    ]
    return list(dict.fromkeys(out))


def test_every_seen_action_is_written_as_before():
    assert {type(a) for a in ACTIONS} == set(ENGINE.notation_codec.classes)
    assert {a.other_seat for a in ACTIONS if hasattr(a, "other_seat")} == set(range(6))
    for action in ACTIONS:
        assert ENGINE.notation(action) == old_notation(as_tuple(action)), action


@pytest.mark.parametrize("text", sorted(old_notation(as_tuple(a)) for a in ACTIONS))
def test_reading_accepts_and_refuses_what_it_did(text):
    for variant in variants(text):
        new = read(ENGINE.parse_notation, variant)
        assert (new if new is BadNotation else as_tuple(new)) == read(old_parse, variant), repr(variant)


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "take",
        "swap 1 2 3",
        "swap 1 seat2",
        "fly",
        "take x",
        "draw 2",
        "take -1",
        "take 123",
        "swap 1 seat123 1",
        "seat1",
        "take 1 2",
        "Draw",
        "KNOCK",
        "knock knock",
        "draw2 ",
        "swap 99 seat99 99",
        "replace 00",
        "peek 1.0",
    ],
)
def test_odd_strings_read_as_before(text):
    new = read(ENGINE.parse_notation, text)
    assert (new if new is BadNotation else as_tuple(new)) == read(old_parse, text)
