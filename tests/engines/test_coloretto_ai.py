"""The Coloretto levels decide from their seat's view only: with the hidden cards (the other hands,
the draw pile) dealt differently, the view is the same and so is every level's choice; the strong
level's sampled worlds are its own (seeded) guesses, not the real cards."""

from __future__ import annotations

import dataclasses
import random

from engines.coloretto_amazonas import ENGINE as E
from engines.coloretto_amazonas.model import TURN
from engines.contract import rng_for


def redealt(state, seat, rng):
    """The same table with the cards ``seat`` cannot see shuffled among the places it cannot see."""
    hidden = list(state.deck)
    for i, s in enumerate(state.seats):
        if i != seat:
            hidden += s.hand
    rng.shuffle(hidden)
    seats = []
    for i, s in enumerate(state.seats):
        if i == seat:
            seats.append(s)
        else:
            seats.append(dataclasses.replace(s, hand=tuple(hidden[: len(s.hand)]), last_drawn=None))
            hidden = hidden[len(s.hand) :]
    return dataclasses.replace(state, seats=tuple(seats), deck=tuple(hidden))


def test_every_level_decides_from_the_view_alone():
    rng = random.Random(7)
    checked = 0
    for players in (2, 4):
        state = E.new_game(players, f"view-only:{players}")
        while E.outcome(state) is None and checked < 12 * players:
            seat = E.to_act(state)[0]
            legal = E.legal_actions(state, seat)
            if state.phase == TURN and len(legal) > 1 and state.ply % 5 == 0:
                other = redealt(state, seat, rng)
                view = E.view(state, seat)
                assert E.view(other, seat) == view
                for level in ("easy", "normal", "strong"):
                    a = E.ai_action(level, view, legal, rng_for("x", state.ply, level))
                    b = E.ai_action(level, E.view(other, seat), legal, rng_for("x", state.ply, level))
                    assert a == b and a in legal
                checked += 1
            state, _ = E.apply(
                state, seat, E.ai_action("normal", E.view(state, seat), legal, E.ai_rng(state, seat))
            )
    assert checked >= 10
