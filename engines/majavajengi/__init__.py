"""Majavajengi (Biberbande, Amigo 2002): the engine. Spec: ``shared/rules/majavajengi.md`` §1-7.

What is hidden from whom (spec §1, §7):

- The draw pile order: nobody. Views give its size only.
- A face-down layout card: nobody, except what the knowledge matrix ``known[observer][seat][pos]``
  records: the owner's initial look at positions 1 and 4, cards the owner placed from a draw or
  peeked at, and cards taken face up from the discard pile (known to everyone). Knowledge follows a
  card when it is swapped. At the reveal (end of round) everything is public.
- The held (just drawn) card: only its holder, until it is discarded or used.
- The discard pile is face up; its top card and size are public.

Views and events name cards by KIND (``N5``, ``SWAP``, ``PEEK``, ``DRAW2``); instance ids (``N5.2``)
stay inside the state. The public view shows layouts as four face-down slots (``None``) until the game
is over; a seat's private view adds its held card and its row of the knowledge matrix.

Tests fix the deal with ``new_game(..., decks=[...])`` (deck orders per round, stored in the state as
``preset_decks``); without it every round is shuffled with ``rng_for``.

Reading order: ``model`` (options, state, actions and their notation, views, the deck preset),
``rules`` (setup, check, candidates, perform, view, outcome over one working copy), ``ai``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from engines.codec import Notation, types_of
from engines.contract import AIPolicy, Engine, Event, Outcome, Seat
from engines.majavajengi import model, rules
from engines.majavajengi.ai import AIS
from engines.majavajengi.model import (
    CODEC,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVER,
    Action,
    MajavajengiOptions,
    MajavajengiState,
    deck_from,
)


class Majavajengi(Engine):
    id = "majavajengi"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_players = 2
    Options = MajavajengiOptions
    default_ai = "smart"  # = normal (the name seats were stored with before the levels)
    ais: ClassVar[dict[str, AIPolicy]] = AIS
    types: ClassVar[dict[str, type]] = {**types_of(vars(model)), "Event": Event, "Outcome": Outcome}
    notation_codec: ClassVar[Notation] = CODEC

    # --- creation ------------------------------------------------------------------------
    def new_game(
        self, players: int, seed: str, options: Any = None, *, decks: Sequence[Sequence[str]] = ()
    ) -> MajavajengiState:
        """A new game; with ``decks``, round r (1-based) is dealt from ``decks[r - 1]`` instead of a
        shuffle (tests).

        Each deck order lists cards from the top: instance ids (``N5.2``) or kinds (``N5`` = its
        lowest unused copy); the cards not listed follow in canonical order. Rounds beyond ``decks``
        are shuffled. The deal takes ``4 x players`` cards (pass k fills position k, clockwise from
        the start seat), then one card starts the discard pile; the rest is the draw pile, top first.
        """
        full = tuple(deck_from(d) for d in decks)
        return rules.setup(players, seed, options or MajavajengiOptions(), full)[0]

    def start_events(self, state: MajavajengiState) -> tuple[Event, ...]:
        """The events of the first deal (``round_started``, ``dealt``, private ``dealt_cards``):
        the setup is rebuilt from the seed, options and preset decks, so any state of the game works."""
        return rules.setup(state.players, state.seed, state.options, state.preset_decks)[1]

    # --- turn order and legality -----------------------------------------------------------
    def to_act(self, state: MajavajengiState) -> tuple[Seat, ...]:
        return () if state.phase == OVER else (state.turn,)

    def candidate_actions(self, state: MajavajengiState, seat: Seat) -> Iterable[Action]:
        return rules.candidates(state, seat)

    # The rules' own functions, not methods that call them (called for every action of every game):
    # legal_actions is the candidates that pass check (filtered by the refusal check raises, nothing
    # raised and caught); apply is check, then perform.
    check = staticmethod(rules.check)
    legal_actions = staticmethod(rules.legal_actions)
    perform = staticmethod(rules.perform)
    apply = staticmethod(rules.apply)
    view = staticmethod(rules.view)
    outcome = staticmethod(rules.outcome)

    def hidden_tokens(self, state: MajavajengiState, seat: Seat | None) -> frozenset[str]:
        return rules.hidden_tokens(state, seat)


ENGINE = Majavajengi()
