"""Afrikan Tähti (Kari Mannerla 1951, Peliko) on the real board: game id ``afrikan_tahti``.

Spec: ``shared/rules/afrikan_tahti/spec.md``. ``Options.expansion`` (default True) plays the game with
Retkikunnat (§5; :mod:`.expansion`, :mod:`.xtable` and its mixins :mod:`.xcards`, :mod:`.danger`,
:mod:`.duels`, :mod:`.windows`; values in :mod:`.xmodel`); ``expansion=False`` is the plain base game
(§3.1-3.2, §4; :mod:`.rules`). :mod:`.board` holds the map data and node codes, :mod:`.cards` the decks,
:mod:`.ai` and :mod:`.xai` the AI players.

Base game: only face-down token contents are hidden, so a seat's view is the public table. Expansion:
hand cards and peek results are private (``view(state, seat).x.hand`` / ``.x.peeks``; events with an
audience), the deck orders hidden from everyone.

Tests fix the setup with ``new_game(players, seed, options, layout={place: kind}, first_seat=s,
dice=(...))``; the expansion adds ``lower={place: kind}`` (discovery tokens under the equipment
tokens), ``characters=(id, ...)``, ``decks={"event": (ids or instances on top, ...), ...}`` and
``danger_dice=(face, ...)``. Such a state replays through ``new_game`` with the same keywords.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engines.afrikan_tahti import ai, board, cards, model, rules, xmodel, xquery
from engines.afrikan_tahti import expansion as expansion  # registers RULESETS["expansion"]
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
from engines.afrikan_tahti.rules import rules_for, to_act
from engines.codec import types_of
from engines.contract import Engine, Event, Outcome, Seat


class AfrikanTahti(Engine):
    id = "afrikan_tahti"
    min_players = 2
    max_players = 6
    default_players = 2
    Options = Options
    ais = ai.AIS
    default_ai = "smart"
    # the round limit (Options.max_rounds) ends every game well before this
    max_plies = 40_000

    # --- creation ------------------------------------------------------------------------------
    def new_game(self, players: int, seed: str, options: Any = None, **presets: Any) -> State:
        """A new game. Test presets: ``layout`` fixes the (top) token on some treasure places,
        ``first_seat`` the starting player, ``dice`` the next d6 results; expansion only: ``lower``,
        ``characters``, ``decks``, ``danger_dice`` (see the module docstring)."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError("players must be 2-6")
        opts = normalize_options(options)
        presets = {k: v for k, v in presets.items() if v is not None and v != () and v != {}}
        return rules_for(opts).setup(players, seed, opts, presets)[0]

    def start_events(self, state: State) -> tuple[Event, ...]:
        """Token placement (ids only), characters and start places dealt at random, the starting
        player (base game: the roll-off), the quick game's first cards, and the first turn."""
        return rules_for(state.options).start_events(state)

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

    def default_action(self, state: State, seat: Seat) -> Any:
        """What the chat layer applies for a seat that does not answer in time (spec §7); the same
        as :func:`ai.idle_action` on the seat's view and legal actions."""
        return ai.idle_action(self.view(state, seat), self.legal_actions(state, seat))

    def hidden_tokens(self, state: State, seat: Seat | None) -> frozenset[str]:
        return rules_for(state.options).hidden_tokens(state, seat)

    # --- notation --------------------------------------------------------------------------------
    def notation(self, action: Any) -> str:
        return xmodel.notation(action)

    def parse_notation(self, text: str) -> Any:
        return xmodel.parse_notation(text)


AfrikanTahti.types = {**types_of(vars(board)), **types_of(vars(cards)), **types_of(vars(model)),
                      **types_of(vars(rules)), **types_of(vars(xmodel)), **types_of(vars(xquery))}
ENGINE = AfrikanTahti()

__all__ = [
    "AFTER_MOVE", "DECLARE", "ENGINE", "MOVE", "OVER", "PHASE_ACTIONS", "RELEASE", "SETUP", "Action",
    "AfrikanTahti", "Board", "EndPhase", "Flip", "FlipRoll", "Fly", "FreeSail", "Move", "Movement",
    "Options", "Pawn", "PawnView", "Roll", "Start", "State", "Stay", "View", "Voyage", "board",
]
