"""Afrikan Tähti (Kari Mannerla 1951, Peliko) on the real board: game id ``afrikan_tahti``.

Spec: ``shared/rules/afrikan_tahti/spec.md``; this package implements the base game (§3.1-3.2, §4, §6
base options) and is shaped so that Retkikunnat (§5) adds to it: see :mod:`.rules` for the turn, the
hidden information and the extension points, :mod:`.board` for the map data and node codes,
:mod:`.cards` for decks, :mod:`.ai` for the AI players.

Hidden from everyone: the contents of face-down tokens (``hidden_tokens`` lists their content ids
``tok:t<i>:<kind>``), the dice to come. Everything else is public, so ``view(state, seat)`` is the
public table with ``seat`` set.

Tests fix the setup with ``new_game(players, seed, options, layout={place: kind}, first_seat=s,
dice=(...))``; such a state replays through ``new_game`` with the same keywords.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engines.afrikan_tahti import ai, board, cards, model, rules
from engines.afrikan_tahti.model import (
    AFTER_MOVE,
    DECLARE,
    MOVE,
    OVER,
    PHASE_ACTIONS,
    RELEASE,
    SETUP,
    Action,
    Board,
    EndPhase,
    Flip,
    FlipRoll,
    Fly,
    FreeSail,
    Move,
    Movement,
    Options,
    Pawn,
    PawnView,
    Roll,
    Start,
    State,
    Stay,
    View,
    Voyage,
    normalize_options,
)
from engines.afrikan_tahti.rules import rules_for, setup, to_act
from engines.base import Engine, Event, Outcome, Seat, types_of


class AfrikanTahti(Engine):
    id = "afrikan_tahti"
    min_players = 2
    max_players = 6
    default_players = 2
    Options = Options
    ais = ai.AIS
    default_ai = "smart"
    # the round limit (Options.max_rounds) ends every game well before this
    max_plies = 8_000

    # --- creation ------------------------------------------------------------------------------
    def new_game(self, players: int, seed: str, options: Any = None, *,
                 layout: Mapping[str, str] | None = None, first_seat: int | None = None,
                 dice: Iterable[int] = ()) -> State:
        """A new game. ``layout`` fixes the token on some treasure places, ``first_seat`` skips the
        roll-off, ``dice`` are the next d6 results (tests)."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError("players must be 2-6")
        opts = normalize_options(options)
        return setup(players, seed, opts, dict(layout or {}), first_seat, tuple(dice))[0]

    def start_events(self, state: State) -> tuple[Event, ...]:
        """Token placement (ids only), random start places, the roll-off and the first turn."""
        return setup(state.players, state.seed, state.options, dict(state.preset_layout),
                     state.preset_first, ())[1]

    # --- turn order and legality -----------------------------------------------------------------
    def to_act(self, state: State) -> tuple[Seat, ...]:
        return to_act(state)

    def candidate_actions(self, state: State, seat: Seat) -> Iterable[Action]:
        return rules_for(state.options).candidates(state, seat)

    def check(self, state: State, seat: Seat, action: Any) -> None:
        rules_for(state.options).check(state, seat, action)

    # --- transitions -----------------------------------------------------------------------------
    def perform(self, state: State, seat: Seat, action: Any) -> tuple[State, tuple[Event, ...]]:
        return rules_for(state.options).perform(state, seat, action)

    # --- information -----------------------------------------------------------------------------
    def view(self, state: State, seat: Seat | None) -> View:
        return rules_for(state.options).view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return rules_for(state.options).outcome(state)

    def default_action(self, state: State, seat: Seat) -> Action | None:
        """What the chat layer applies for a seat that does not answer in time (spec §7); the same
        as :func:`ai.idle_action` on the seat's view and legal actions."""
        return ai.idle_action(self.view(state, seat), self.legal_actions(state, seat))

    def hidden_tokens(self, state: State, seat: Seat | None) -> frozenset[str]:
        return rules_for(state.options).hidden_tokens(state, seat)

    # --- notation --------------------------------------------------------------------------------
    def notation(self, action: Any) -> str:
        return model.notation(action)

    def parse_notation(self, text: str) -> Action:
        return model.parse_notation(text)


AfrikanTahti.types = {**types_of(vars(board)), **types_of(vars(cards)), **types_of(vars(model)),
                      **types_of(vars(rules))}
ENGINE = AfrikanTahti()

__all__ = [
    "AFTER_MOVE", "DECLARE", "ENGINE", "MOVE", "OVER", "PHASE_ACTIONS", "RELEASE", "SETUP", "Action",
    "AfrikanTahti", "Board", "EndPhase", "Flip", "FlipRoll", "Fly", "FreeSail", "Move", "Movement",
    "Options", "Pawn", "PawnView", "Roll", "Start", "State", "Stay", "View", "Voyage", "board",
]
