"""Coloretto Amazonas (Abacus Spiele 2005, Michael Schacht): the engine's contract surface.

Spec: ``/work/shared/rules/coloretto_amazonas.md`` sections 1-7.

What is hidden from whom
------------------------
- A seat's hand (up to 3 animal cards) and the card it just drew: only that seat. Hand sizes are public.
- The draw pile: order and contents hidden from everyone (its size is public).
- Everything else is public: the rows (open cards), the colours and number of completed stacks (their
  contents follow from the rules), the discard pile (every card in it was public when it was
  discarded; views give only its size and the multiset of kinds, never its order), bonus cards, the
  protection card holder, a pending gift (handed over openly) and the scores.
- At the end the hands are discarded unrevealed: views keep showing hand sizes only.

Cards are instance ids ``<kind>.<n>`` (``B1.1`` ... ``G6.5``). Actions name kinds, never instances:
copies of a kind are identical for the rules, so the engine moves the copy that has been in the hand
longest. (Moving e.g. the lowest-numbered copy would leak which other copies the hand lacks; the
arrival order is as random as the shuffle, so the id shown reveals nothing beyond the kind.) Views
show instance ids only for cards the observer may see; ``hidden_tokens`` are the instance ids in the
draw pile and in the other seats' hands.

Tests inject the deck order with ``ENGINE.new_game(players, seed, options, deck=[...])``: ``deck[0]``
is the top card. Entries are instance ids or bare kinds (a kind gets its lowest unused copy number).
A shorter deck is allowed; cards not listed are out of the game. The deal takes cards from the top,
one at a time, clockwise from the start seat, three passes round the table (seat order for 2 seats
starting at seat 0: hands ``deck[0::2][:3]`` and ``deck[1::2][:3]``, then draws continue from
``deck[6]``). Fix the start seat with the option ``start_player="seat0"``.

Reading order: ``model.py`` (constants, options, state, actions and their notation, views, the deck
preset), ``rules.py`` (setup, legality, transitions over one working copy, views, scoring),
``ai.py`` (the AI players), then this file, which only wires them to :class:`engines.contract.Engine`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from engines.codec import types_of
from engines.coloretto_amazonas import model, rules
from engines.coloretto_amazonas.ai import easy_policy, smart_policy, strong_policy
from engines.coloretto_amazonas.model import CODEC, Action, PublicView, State
from engines.contract import Engine, Event, Outcome, Seat, random_policy

#: the options class for annotations inside the engine class, whose ``Options`` attribute shadows it
_Options: TypeAlias = model.Options


class ColorettoAmazonas(Engine):
    id = "coloretto_amazonas"
    min_players = model.MIN_PLAYERS
    max_players = model.MAX_PLAYERS
    default_players = 2
    Options = model.Options
    max_plies = 2_000
    ais = {
        "random": random_policy,
        "easy": easy_policy,
        "normal": smart_policy,
        "strong": strong_policy,
        "smart": smart_policy,
    }
    default_ai = "smart"
    # Event and Outcome as well: the one-module engine registered every dataclass it could see
    types = {**types_of(vars(model)), "Event": Event, "Outcome": Outcome}
    notation_codec = CODEC

    def new_game(
        self, players: int, seed: str, options: _Options | None = None, *, deck: Sequence[str] | None = None
    ) -> State:
        """A fresh game; ``deck`` (tests only) fixes the deck order, top card first."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"players: {self.min_players}-{self.max_players}")
        return rules.setup(players, seed, options or model.Options(), deck)

    def start_events(self, state: State) -> tuple[Event, ...]:
        return rules.start_events(state)

    def to_act(self, state: State) -> tuple[Seat, ...]:
        return rules.to_act(state)

    def candidate_actions(self, state: State, seat: Seat) -> list[Action]:
        return rules.candidates(state, seat)

    def check(self, state: State, seat: Seat, action: object) -> None:
        rules.check(state, seat, action)

    def perform(self, state: State, seat: Seat, action: object) -> tuple[State, tuple[Event, ...]]:
        return rules.perform(state, seat, action)

    def view(self, state: State, seat: Seat | None) -> PublicView:
        return rules.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def hidden_tokens(self, state: State, seat: Seat | None) -> frozenset[str]:
        return rules.hidden_tokens(state, seat)


ENGINE = ColorettoAmazonas()
