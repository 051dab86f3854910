"""Gnav as on Cardavia (engine id ``gnav``; ``cardavia``, the site's name, until the rename): one card
each, keep it or ask the left neighbour to swap, do not end the deal with the lowest card; lives, matadors,
resting fools. Spec: ``shared/rules/cardavia.md``.

What is hidden from whom: a seat's card is seen by its holder only until it is shown (a fool, a matador
that answers, every seat card at the end of a deal); the stock and the face-down aside cards are seen by
nobody; the two seats of an exchange see both cards, the others only that it happened (details in
``rules``).

Reading order: ``model`` (constants, options, state, actions with their notation, views, test presets),
``rules`` (setup, legality, the deal procedure over the working copy ``GnavWork``, views, outcome), ``ai``
(the AI players), and this module: the engine surface and ``ENGINE``.

Actions and notation: ``keep`` (:class:`Keep`), ``ask`` (:class:`Ask`; the dealer's request goes to the
stock) and, with ``fool_auto_reveal`` off, ``knock`` (:class:`Knock`) for a seat dealt a fool.

Steps that need no decision happen inside ``perform``: pass-bys, stock draws, settlement, dealing,
skipped deals and the next deal ([decided]: there is no "next deal" action; the chat layer pauses after a
``deal_ended`` event; every event after it in the same batch belongs to the next deal).

Tests fix the cards with ``new_game(..., decks=(...), rotation=R)`` (see ``model.deck_from_ranks``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engines.codec import Notation, types_of
from engines.contract import Engine, Event, Outcome
from engines.gnav import ai, rules
from engines.gnav.model import (
    ACTIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Action,
    Aside,
    AsideView,
    Ask,
    DealResult,
    Exchange,
    Keep,
    Knock,
    Options,
    State,
    View,
    rank_of,
)

__all__ = [
    "ENGINE",
    "Action",
    "Aside",
    "AsideView",
    "Ask",
    "DealResult",
    "Exchange",
    "Gnav",
    "Keep",
    "Knock",
    "Options",
    "State",
    "View",
    "rank_of",
]


class Gnav(Engine):
    id = "gnav"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_players = 4
    Options = Options
    ais = ai.AIS
    default_ai = "normal"  # the spec's 7.1 count; "sensible" (tuned) is strong's model of the others
    notation_codec = Notation(ACTIONS)

    # --- creation ------------------------------------------------------------------------------
    def new_game(
        self,
        players: int,
        seed: str,
        options: Any = None,
        *,
        decks: Iterable[Iterable[str]] = (),
        rotation: int | None = None,
    ) -> State:
        """A new match; ``decks`` and ``rotation`` fix the cards and the first rotation pointer (tests)."""
        return rules.new_game(players, seed, options if options is not None else Options(), decks, rotation)

    def start_events(self, state: State) -> tuple[Event, ...]:
        """The first deal (and any fool shown at once), which ``new_game`` already performed: the
        deal's history holds exactly those events until the first action."""
        return tuple(state.history) if state.ply == 0 else ()

    # --- turn order and legality -----------------------------------------------------------------
    def to_act(self, state: State) -> tuple[int, ...]:
        return rules.to_act(state)

    def candidate_actions(self, state: State, seat: int) -> Iterable[Action]:
        return rules.candidates(state, seat)

    def check(self, state: State, seat: int, action: Any) -> None:
        rules.check(state, seat, action)

    # --- transitions -----------------------------------------------------------------------------
    def perform(self, state: State, seat: int, action: Any) -> tuple[State, tuple[Event, ...]]:
        return rules.perform(state, seat, action)

    # --- information -----------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        return rules.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def hidden_tokens(self, state: State, seat: int | None) -> frozenset[str]:
        return rules.hidden_tokens(state, seat)


Gnav.types = types_of(globals())
ENGINE = Gnav()
