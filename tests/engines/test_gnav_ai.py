"""The strong Gnav AI imagines the others as they are: in the worlds it samples from its view, every
other seat knows the cards it really knows, and no more (issue #18: its own matador, which nobody had
seen, was public in every sampled world, so the others it imagined never asked it and never lost a life
to its dragoon or cat)."""

from __future__ import annotations

import random

from engines.gnav import ENGINE as E
from engines.gnav import Options, ai
from engines.gnav.model import HOUSE, PUBLIC
from engines.gnav.rules import GnavWork


def decisions(players: int, games: int, seed: str):
    """States where a seat chooses between keep and ask (sensible play), with the seat to act."""
    for g in range(games):
        state = E.new_game(players, f"{seed}:{g}", Options(seats=("ai",) * players))
        while E.outcome(state) is None:
            seat = E.to_act(state)[0]
            legal = E.legal_actions(state, seat)
            view = E.view(state, seat)
            undone = any(e.code == "exchanges_undone" for e in view.history)
            if len(legal) > 1 and not undone:
                yield state, seat, view
            state, _ = E.apply(state, seat, ai.sensible_policy(view, legal, random.Random(0)))


def test_the_others_in_a_sampled_world_know_what_they_really_know():
    rng = random.Random(3)
    checked = hidden_matadors = 0
    for state, seat, view in decisions(4, 12, "knows"):
        true = GnavWork(state, quiet=True)
        world = ai.sample_world(view, rng)
        own = true.hands[seat]
        if own >> 1 >= HOUSE and not true.know[own] & PUBLIC:
            hidden_matadors += 1
            assert not world.know[world.hands[seat]] & PUBLIC, "a matador nobody saw is public"
        for other in true.order:
            if other == seat or other in true.departed:
                continue
            real = ai.info_from_work(true, other)
            imagined = ai.info_from_work(world, other)
            assert set(imagined.known) == set(real.known), (other, real.known, imagined.known)
            assert imagined.ordinary == real.ordinary
        checked += 1
    assert checked > 200 and hidden_matadors > 10


def _easy_choices(first: str, tries: int = 200) -> set[str]:
    """What the easy AI does, over many of its own random draws, as the first seat holding ``first``."""
    state = E.new_game(4, "easy", Options(seats=("ai",) * 4), decks=((first, "n8", "n9", "n10"),), rotation=3)
    seat = E.to_act(state)[0]
    view, legal = E.view(state, seat), E.legal_actions(state, seat)
    return {type(ai.easy_policy(view, legal, random.Random(k))).__name__ for k in range(tries)}


def test_easy_makes_a_beginners_mistakes_not_random_ones():
    """Easy takes the owl and the pot for good picture cards and misreads IV/VI and IX/XI now and then, but
    never keeps a card it reads as low (0, II) nor gives away one it reads as high (VIII, XII)."""
    assert _easy_choices("owl") == _easy_choices("pot") == {"Ask", "Keep"}
    assert _easy_choices("n4") == _easy_choices("n6") == {"Ask", "Keep"}
    assert _easy_choices("n9") == _easy_choices("n11") == {"Keep"}  # IX read as XI: still a keep
    assert _easy_choices("zero") == _easy_choices("n2") == _easy_choices("fool") == {"Ask"}
    assert _easy_choices("n8") == _easy_choices("n12") == {"Keep"}
