"""The shared engine pieces: the notation codec and the working copy."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

import pytest

from engines import codec as codec_module
from engines.codec import BadNotation, Notation, one_of, word_list
from engines.work import Work


@dataclass(frozen=True, slots=True)
class Swap:
    NOTATION: ClassVar[str] = "swap {own} seat{seat} {other}"
    own: int
    seat: int
    other: int


@dataclass(frozen=True, slots=True)
class Draw:
    NOTATION: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Use:
    NOTATION: ClassVar[str] = "use {card}[ {place}]"
    card: str
    place: str | None = None


@dataclass(frozen=True, slots=True)
class Adjust:
    NOTATION: ClassVar[str] = "adjust {d:+d}"
    d: int


@dataclass(frozen=True, slots=True)
class Reroll:
    NOTATION: ClassVar[str] = "reroll {card} {dice}"
    card: str
    dice: tuple[int, ...]


dice_read, dice_write = word_list(int)
CODEC = Notation(
    [Swap, Draw, Use, Adjust, Reroll],
    readers={"card": one_of(["rifle", "horse"]), "place": str.lower, "dice": dice_read},
    writers={"dice": dice_write},
)


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Swap(1, 2, 3), "swap 1 seat2 3"),
        (Draw(), "draw"),
        (Use("rifle"), "use rifle"),
        (Use("horse", "cairo"), "use horse cairo"),
        (Adjust(1), "adjust +1"),
        (Adjust(-1), "adjust -1"),
        (Reroll("rifle", (1, 3)), "reroll rifle 1,3"),
    ],
)
def test_notation_round_trips(action, text):
    assert CODEC.write(action) == text
    assert CODEC.read(text) == action
    assert (
        CODEC.read("  " + text.upper().replace(" ", "   ") + " ") == action
    )  # spacing and case do not matter


def test_an_action_is_written_by_its_value_whichever_object_it_is():
    # issue #28: the codec keeps the texts it wrote by the action object and by its value (an equal
    # action made anew gets the same text without the template being filled again); actions of two
    # classes with equal fields, and equal fields in another order, are different actions
    codec = Notation([Swap, Use, Adjust], readers={"card": one_of(["rifle", "horse"])})
    pairs = [
        (Swap(1, 2, 3), "swap 1 seat2 3"),
        (Swap(3, 2, 1), "swap 3 seat2 1"),
        (Use("rifle"), "use rifle"),
    ]
    pairs += [(Use("horse", "cairo"), "use horse cairo"), (Adjust(1), "adjust +1")]
    for action, text in pairs:
        assert codec.write(action) == text
    for action, text in pairs:
        again = dataclasses.replace(action)  # equal, not the same object
        assert again is not action and codec.write(again) == text
    filled = []
    real_fill = codec_module._fill

    def counted(pieces, action):
        filled.append(action)
        return real_fill(pieces, action)

    # a field holding a list (an action made by hand) cannot be known by value: it is written anyway
    assert CODEC.write(Reroll("rifle", [1, 3])) == "reroll rifle 1,3"  # type: ignore[arg-type]
    codec_module._fill = counted
    try:
        assert codec.write(Swap(1, 2, 3)) == "swap 1 seat2 3" and codec.write(Use("horse", "cairo"))
        assert filled == []  # known by value
        assert codec.write(Swap(2, 2, 3)) == "swap 2 seat2 3" and filled == [Swap(2, 2, 3)]
    finally:
        codec_module._fill = real_fill


@pytest.mark.parametrize(
    "text", ["", "swap", "swap 1 seat 2 3", "swap a seatb c", "use sword", "draw now", "reroll rifle x", 7]
)
def test_bad_notation_is_refused(text):
    with pytest.raises(BadNotation):
        CODEC.read(text)


def test_a_class_without_template_is_a_programming_error():
    @dataclass(frozen=True)
    class Nameless:
        x: int

    with pytest.raises(TypeError):
        Notation([Nameless])


@dataclass(frozen=True, slots=True)
class Tiny:
    seed: str
    ply: int
    pile: tuple[str, ...]
    rows: tuple[tuple[int, ...], ...]
    held: str | None


def test_work_thaws_and_freezes_every_field():
    state = Tiny("s", 3, ("a", "b"), ((1, 2), (3,)), None)
    w = Work(state)
    w.pile.append("c")  # type: ignore[attr-defined]
    w.rows[1].append(4)  # type: ignore[attr-defined]
    w.emit("drew", 1, card="c")
    assert state.pile == ("a", "b")  # the original is untouched
    frozen = w.freeze(ply=4)
    assert frozen == Tiny("s", 4, ("a", "b", "c"), ((1, 2), (3, 4)), None)
    assert [e.code for e in w.events] == ["drew"] and w.events[0].to == (1,)


def test_work_random_steps_differ_within_a_ply_and_repeat_across_runs():
    state = Tiny("s", 3, (), (), None)
    a, b = Work(state), Work(state)
    first = [a.rng("deal").random(), a.rng("deal").random()]
    assert first[0] != first[1]
    assert first == [b.rng("deal").random(), b.rng("deal").random()]


def test_quiet_work_records_no_events():
    w = Work(Tiny("s", 0, (), (), None), quiet=True)
    w.emit("x")
    assert w.events == []


@pytest.mark.parametrize("text", ["ſwap 1 seat2 3", "swap 1 ſeat2 3", "swap ² seat2 3", "swap ٣ seat2 3"])
def test_only_ascii_letters_fold_and_only_ascii_digits_count(text):
    with pytest.raises(BadNotation):
        CODEC.read(text)
