"""Playing games through the contract: replay from an action log, and whole AI games."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engines.contract import Engine, Event, Seat


def replay(engine: Engine, players: int, seed: str, options: Any, log: Iterable[tuple[Seat, str]]) -> Any:
    """Rebuild a state from ``(options, seed, action log)``: the log is (seat, notation) pairs."""
    state = engine.new_game(players, seed, options)
    for seat, text in log:
        state, _ = engine.apply(state, seat, engine.parse_notation(text))
    return state


def play_ai_game(
    engine: Engine,
    seats_ai: tuple[str, ...],
    seed: str,
    options: Any = None,
    on_step: Callable[[Any, Seat, Any, tuple[Event, ...]], None] | None = None,
) -> tuple[Any, list[tuple[Seat, str]]]:
    """Play a whole game with AI ``seats_ai[s]`` in each seat; returns the final state and the log."""
    state = engine.new_game(len(seats_ai), seed, options)
    engine = engine.for_game(state)
    log: list[tuple[Seat, str]] = []
    # the random AI reads no view: none is built for its seats
    reads = tuple(engine.ai_reads_view(name) for name in seats_ai)
    # the engine's calls of every action, looked up once, and each seat's AI as a player of this game
    to_act, legal_actions, apply = engine.to_act, engine.legal_actions, engine.apply
    notation, append = engine.notation, log.append
    players = tuple(engine.ai_player(name, seed) for name in seats_ai)
    max_plies = engine.max_plies
    while True:
        seats = to_act(state)
        if not seats:  # the game is over exactly when no seat may act (Engine.to_act)
            if engine.outcome(state) is None:
                raise RuntimeError("no seat may act but the game is not over")
            return state, log
        if state.ply > max_plies:
            raise RuntimeError(f"game did not end within {max_plies} actions")
        seat = seats[0]
        legal = legal_actions(state, seat)
        if not legal:
            raise RuntimeError(f"seat {seat} must act but has no legal action")
        if len(legal) == 1:  # every AI answers with a legal action: there is nothing to decide
            action = legal[0]
        else:
            view = engine.view(state, seat) if reads[seat] else None
            action = players[seat](state, seat, view, legal)
        new_state, events = apply(state, seat, action)
        append((seat, notation(action)))
        if on_step is not None:
            on_step(new_state, seat, action, events)
        state = new_state
