"""The rules' entry points: setup, to_act, check, candidates, perform, view, outcome, hidden tokens,
each dispatching on ``Options.expansion`` to the base game (:mod:`.base.rules`, :mod:`.base.setup`)
or to Retkikunnat (:mod:`.retkikunnat.rules`, :mod:`.retkikunnat.setup`)."""

from __future__ import annotations

from typing import Any

from engines.afrikan_tahti.base import rules as base
from engines.afrikan_tahti.base import setup as base_setup
from engines.afrikan_tahti.base.rules import outcome
from engines.afrikan_tahti.model import OVER, Action, Options, Presets, State, View
from engines.afrikan_tahti.retkikunnat import rules as retkikunnat
from engines.afrikan_tahti.retkikunnat import setup as retkikunnat_setup
from engines.contract import Event, IllegalAction, Seat


def setup(players: int, seed: str, options: Options, presets: Presets) -> tuple[State, tuple[Event, ...]]:
    if options.expansion:
        return retkikunnat_setup.setup(players, seed, options, presets)
    return base_setup.setup(players, seed, options, presets)


def start_events(state: State) -> tuple[Event, ...]:
    if state.options.expansion:
        return retkikunnat_setup.start_events(state)
    return base_setup.start_events(state)


def to_act(state: State) -> tuple[int, ...]:
    if state.options.expansion:
        return retkikunnat.to_act(state)
    return () if state.phase == OVER else (state.turn,)  # base.to_act, written out (every action)


def check(state: State, seat: Seat, action: Any) -> None:
    if state.options.expansion:
        retkikunnat.check(state, seat, action)
    else:
        base.check(state, seat, action)


def legal_actions(state: State, seat: Seat) -> tuple[Any, ...]:
    if state.options.expansion:
        out = []
        for action in retkikunnat.candidates(state, seat):
            try:
                retkikunnat.check(state, seat, action)
            except IllegalAction:
                continue
            out.append(action)
        return tuple(out)
    return base.legal_actions(state, seat)


def candidates(state: State, seat: Seat) -> tuple[Any, ...]:
    return retkikunnat.candidates(state, seat) if state.options.expansion else base.candidates(state, seat)


def perform(state: State, seat: Seat, action: Action | Any) -> tuple[State, tuple[Event, ...]]:
    if state.options.expansion:
        return retkikunnat.perform(state, seat, action)
    return base.perform(state, seat, action)


def apply(state: State, seat: Seat, action: Any) -> tuple[State, tuple[Event, ...]]:
    """Check, then perform (``Engine.apply``)."""
    if state.options.expansion:
        retkikunnat.check(state, seat, action)
        return retkikunnat.perform(state, seat, action)
    return base.apply(state, seat, action)


def view(state: State, seat: Seat | None) -> View:
    return retkikunnat.view(state, seat) if state.options.expansion else base.view(state, seat)


def hidden_tokens(state: State, seat: Seat | None) -> frozenset[str]:
    if state.options.expansion:
        return retkikunnat.hidden_tokens(state, seat)
    return base.hidden_tokens(state, seat)


__all__ = [
    "apply",
    "candidates",
    "check",
    "hidden_tokens",
    "legal_actions",
    "outcome",
    "perform",
    "setup",
    "start_events",
    "to_act",
    "view",
]
