"""What the Afrikan Tähti engine tests (base game and Retkikunnat) share: playing notation texts,
the legal notations, events by code, refusals, and the idle default of a seat."""

from __future__ import annotations

from typing import Any

import pytest

from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.ai import idle_action
from engines.afrikan_tahti.model import State
from engines.contract import Event, IllegalAction


def play(state: State, seat: int, *moves: str) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for text in moves:
        state, evs = ENGINE.apply(state, seat, ENGINE.parse_notation(text))
        events.extend(evs)
    return state, events


def legal(state: State, seat: int = 0) -> set[str]:
    return {ENGINE.notation(a) for a in ENGINE.legal_actions(state, seat)}


def codes(events: list[Event]) -> list[str]:
    return [e.code for e in events]


def first(events: list[Event], code: str) -> Event:
    return next(e for e in events if e.code == code)


def refused(state: State, seat: int, text: str) -> str:
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, seat, ENGINE.parse_notation(text))
    return info.value.code


def idle(state: State, seat: int) -> Any:
    """What the bot plays for ``seat`` when its time runs out (spec §7), from its view."""
    return idle_action(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat))
