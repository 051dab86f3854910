"""The strong Gnav AI imagines the others as they are: in the worlds it samples from its view, every
other seat knows the cards it really knows, and no more (issue #18: its own matador, which nobody had
seen, was public in every sampled world, so the others it imagined never asked it and never lost a life
to its dragoon or cat)."""

from __future__ import annotations

import random

from engines.gnav import ENGINE as E
from engines.gnav import Keep, Options, ai
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


def _first_turn(players: int, cards: tuple[str, ...]):
    """The first seat to act (seat 0; the last seat deals), its view and its legal actions."""
    state = E.new_game(
        players, "levels", Options(seats=("ai",) * players), decks=(cards,), rotation=players - 1
    )
    return E.view(state, 0), E.legal_actions(state, 0)


def _after_a_keep(own: str):
    """Heads-up: the first player kept an X; the dealer holds ``own``."""
    state = E.new_game(2, "levels", Options(seats=("ai", "ai")), decks=(("n10", own),), rotation=1)
    state, _ = E.apply(state, 0, Keep())
    return E.view(state, 1), E.legal_actions(state, 1)


def _choice(name: str, view, legal, seed: int = 1) -> str:
    return type(E.ai_action(name, view, legal, random.Random(seed))).__name__


def test_normal_keeps_a_middling_card_that_sensible_hands_on():
    """The levels differ in play: normal asks only when asking is expected to save lives now (the spec's
    margin), so it keeps a III at the first seat of four; sensible, tuned by self-play, hands it on."""
    view, legal = _first_turn(4, ("n3", "n8", "n9", "n10"))
    assert _choice("normal", view, legal) == "Keep"
    assert _choice("sensible", view, legal) == "Ask"
    view, legal = _first_turn(4, ("n2", "n8", "n9", "n10"))
    assert _choice("normal", view, legal) == _choice("sensible", view, legal) == "Ask"


def test_strong_dealer_reads_a_keep_as_a_high_card():
    """Heads-up, the first player kept: the strong dealer takes that for a high card and draws from the
    stock with a IV or a V, where normal and sensible, who count every unseen card alike, keep them."""
    for own in ("n4", "n5"):
        view, legal = _after_a_keep(own)
        assert _choice("normal", view, legal) == _choice("sensible", view, legal) == "Keep"
        assert {_choice("strong", view, legal, seed) for seed in range(5)} == {"Ask"}, own
    view, legal = _after_a_keep("n12")
    assert _choice("strong", view, legal) == "Keep"


def test_strong_settles_a_clear_choice_quickly_and_a_close_one_with_more_worlds():
    """The strong player's work per decision is a count of sampled worlds, not a clock: a clear choice
    (keep a XII) takes the least, a close one (a V after a keep) several times more, never above the
    budget."""
    most = ai.WORLD_BUDGET // 2
    clear = [ai.search(_after_a_keep("n12")[0], random.Random(k)) for k in range(3)]
    close = [ai.search(_after_a_keep("n5")[0], random.Random(k)) for k in range(3)]
    assert all(r is not None and r[2] == ai.MIN_WORLDS for r in clear)
    assert all(r is not None and 4 * ai.MIN_WORLDS <= r[2] <= most for r in close)
