"""The base game's fast paths (issue #28, engine speed): ``perform`` builds the next state of some
common actions from the old one without the working copy. Over every action of seeded games it must
give exactly what the general path (working copy, ``act``, ``freeze``) gives: the same state, field
by field, and the same events."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from engines import GAMES
from engines.afrikan_tahti.base import rules as base
from engines.afrikan_tahti.model import AfrikanWork, Pawn, State
from engines.contract import replacer
from engines.playout import play_ai_game

ENGINE = GAMES["afrikan_tahti"]


def general(state: State, seat: int, action: Any) -> tuple[State, tuple[Any, ...]]:
    w = AfrikanWork(state)
    base.act(w, seat, action)
    return w.freeze(), tuple(w.events)


def same(old: State, seat: int, action: Any) -> tuple[State, tuple[Any, ...]]:
    """The fast path's answer, checked against the general path's."""
    want_state, want_events = general(old, seat, action)
    got_state, got_events = base.perform(old, seat, action)
    assert got_events == want_events, (old.seed, old.ply, action)
    assert got_state == want_state, (old.seed, old.ply, action)
    for f in dataclasses.fields(State):  # an unchanged field is handed on as the same value
        if getattr(want_state, f.name) is getattr(old, f.name):
            assert getattr(got_state, f.name) is getattr(old, f.name), f.name
    return got_state, got_events


def variants(state: State) -> list[State]:
    """The state with the next seat's pawn captured, or with lost turns to serve."""
    nxt = (state.turn + 1) % state.players
    pawn = state.pawns[nxt]
    out = []
    for change in ({"captured": True}, {"lost_turns": 2}):
        pawns = (*state.pawns[:nxt], dataclasses.replace(pawn, **change), *state.pawns[nxt + 1 :])
        out.append(dataclasses.replace(state, pawns=pawns))
    return out


def codes(events: tuple[Any, ...]) -> str:
    return "+".join(e.code for e in events)


def compare_over(seed: str, players: int, options: dict[str, Any], seen: Counter[str]) -> None:
    opts = ENGINE.options_from_dict({"expansion": False, **options})
    before: list[State] = [ENGINE.new_game(players, seed, opts)]

    def on_step(state: State, seat: int, action: Any, events: tuple[Any, ...]) -> None:
        old = before[0]
        assert same(old, seat, action) == (state, events)
        seen[f"{type(action).__name__}:{'+'.join(e.code for e in events)}"] += 1
        if type(action).__name__ == "FreeSail" and dict(events[-2 if len(events) > 1 else -1].params).get(
            "arrived"
        ):
            seen["FreeSail arrived"] += 1
        name = type(action).__name__
        shifted = [dataclasses.replace(old, ply=old.ply + k) for k in (1, 2, 3)]  # other dice
        if name == "Fly" or (name == "Roll" and old.phase == "release"):  # lost turns next, other dice
            for variant in (*variants(old), *shifted):
                made_state, made = same(variant, seat, action)
                seen[f"{name} {old.phase} to {made_state.phase}:{codes(made)}"] += 1
        if name == "Board" or (name == "Roll" and old.phase == "declare"):  # a paid voyage, a die move
            unclaimed = dataclasses.replace(old, capetown_claimed=None)  # the Capetown bonus to take
            for variant in (*variants(old), *shifted, unclaimed):
                made_state, made = same(variant, seat, action)
                seen[f"{name} {old.phase} to {made_state.phase}:{codes(made)}"] += 1
        if name in ("Move", "FreeSail", "Fly", "Board", "Roll"):  # the mover holds the Star: a goal wins
            star = next(t for t, kind in old.contents if kind == "star")
            pawns = list(old.pawns)
            pawns[seat] = dataclasses.replace(pawns[seat], items=(star,))
            holding = dataclasses.replace(old, pawns=tuple(pawns), star_found=True)
            if action in ENGINE.legal_actions(holding, seat):  # (the goals are stops for a holder)
                made_state, made = same(holding, seat, action)
                seen[f"{name} holding the Star:{codes(made)}"] += 1
                seen[f"{name} holding the Star to {made_state.phase}"] += 1
        if type(action).__name__ == "Move":  # the move kept open, the flip after it, or the turn passed
            seen[f"Move to {state.phase}:{'+'.join(e.code for e in events)}"] += 1
            move = old.move
            assert move is not None
            if len(move.visited) > 1:  # first the same move having visited only where it stands
                fresh = dataclasses.replace(old, move=dataclasses.replace(move, visited=move.visited[-1:]))
                for other in ENGINE.legal_actions(fresh, seat):
                    _state, made = same(fresh, seat, other)
                    seen[f"Move fresh:{'+'.join(e.code for e in made)}"] += 1
            for other in ENGINE.legal_actions(old, seat):  # every other move of the menu too
                same(old, seat, other)
        if type(action).__name__ in ("Flip", "FlipRoll"):  # other dice and tokens, a Star found, lost turns
            shifted = [dataclasses.replace(old, ply=old.ply + k) for k in (1, 2, 3)]
            top = base.top_token(old.stacks, old.pawns[seat].node)
            tokens = [  # the token on top is each kind in turn
                dataclasses.replace(
                    old, contents=tuple((t, kind if t == top else k) for t, k in old.contents)
                )
                for kind in sorted({k for _t, k in old.contents})
            ]
            for variant in (*variants(old), *shifted, *tokens, dataclasses.replace(old, star_found=True)):
                _state, made = same(variant, seat, action)
                key = f"{type(action).__name__} {old.phase}:{'+'.join(e.code for e in made)}"
                seen[key] += 1
                if any(e.code == "gem" and dict(e.params)["doubled"] for e in made):
                    seen[f"{type(action).__name__} doubled gem"] += 1
        if type(action).__name__ in ("Stay", "EndPhase"):
            for variant in variants(old):
                _state, made = same(variant, seat, action)
                seen[f"{type(action).__name__}:{'+'.join(e.code for e in made)}"] += 1
        before[0] = state

    play_ai_game(ENGINE, ("random",) * players, seed, opts, on_step)


def test_the_fast_paths_equal_the_general_path_over_seeded_games():
    seen: Counter[str] = Counter()
    for g in range(6):
        compare_over(f"k:fast:{g}", 2 + g % 3, {}, seen)
        compare_over(f"fast:{g}", 3, {"max_rounds": 12}, seen)  # the round limit ends these
        compare_over(f"k:pass:{g}", 2, {"hazard_trigger": "pass_through", "broke_sea_steps": 2 - g % 2}, seen)
    # the cases the fast paths hand back to the general path came up too
    assert seen["Stay:stayed+turn"] > 100
    assert seen["EndPhase:turn"] > 0
    assert any(k.startswith("Stay:stayed+turn_lost") for k in seen)
    assert any(k.startswith("Stay:stayed+game_over") for k in seen)
    assert seen["FreeSail:sailed+turn"] > 100 and seen["FreeSail:boarded+sailed+turn"] > 100
    assert any(k.startswith("FreeSail:") and "captured" in k for k in seen)
    assert any(k.startswith("FreeSail:") and "capetown_bonus" in k for k in seen)
    assert seen["FreeSail arrived"] > 50  # at its port: the turn passes, or arrive() acts
    assert any(k.startswith("FreeSail holding the Star:") and "won" in k for k in seen)
    assert seen["Move:moved+turn"] > 100 and seen["Move:turn"] > 10 and seen["Move:moved"] > 10
    assert any(k.startswith("Move:") and "capetown_bonus" in k for k in seen)
    assert any(k.startswith("Move:") and "captured" in k for k in seen)
    assert any(k.startswith("Move holding the Star:") and "won" in k for k in seen)
    assert seen["Move to move:moved"] > 10  # a port reached with steps left and a leg to board
    assert seen["Move to after_move:moved"] > 10 and seen["Move to after_move:"] > 10  # a token to flip
    assert seen["Move to release:moved+turn"] > 0
    for phase in ("move", "after_move", "declare"):
        assert seen[f"Move holding the Star to {phase}"] > 10, phase
    assert seen["Roll:rolled"] > 100 and seen["Roll:rolled+turn"] > 0  # one ending: carried out at once
    # paid voyages: boarded in the declaration or in a move, or sailed on by a roll
    for voyage, by in (
        ("Board declare", "rolled+boarded+"),
        ("Board move", "boarded+"),
        ("Roll declare", "rolled+"),
    ):
        for ending in ("declare", "move", "after_move"):
            assert any(k.startswith(f"{voyage} to {ending}:{by}sailed") for k in seen), (voyage, ending)
        assert any(k.startswith(f"{voyage} ") and "+captured" in k for k in seen), voyage
    assert any(k.startswith("Roll declare ") and "capetown_bonus" in k for k in seen)
    assert any(k.startswith("Roll holding the Star:") and "won" in k for k in seen)
    assert any(k.startswith("Board holding the Star:") and "won" in k for k in seen)
    # a die move whose one ending is to stay: carried out at once
    assert (
        seen["Roll declare to declare:rolled+turn"] > 10 and seen["Roll declare to release:rolled+turn"] > 0
    )
    # the start places chosen, the first turn opened
    assert seen["Start:start_chosen"] > 10 and seen["Start:start_chosen+turn"] > 10
    # flights and release rolls
    assert seen["Fly declare to declare:flew+turn"] > 10 and seen["Fly declare to after_move:flew"] > 10
    assert seen["Fly declare to release:flew+turn"] > 0
    assert any(k.startswith("Fly holding the Star:") and "won" in k for k in seen)
    assert any(k.startswith("Fly declare") and "capetown_bonus" in k for k in seen)
    assert seen["Roll release to declare:rolled+released+turn"] > 10
    assert seen["Roll release to declare:rolled+still_captured+turn"] > 10
    assert seen["Roll release to release:rolled+still_captured+turn"] > 0
    assert any(k.startswith("Roll release") and "turn_lost" in k for k in seen)  # general path
    # flips: every kind of token, by the die and paid for, in the declaration and after a move
    for flip in ("Flip declare", "Flip after_move", "FlipRoll declare"):
        by = "rolled+flipped" if flip.startswith("FlipRoll") else "flipped"
        for kind in ("blank", "gem", "robbed", "horseshoe_kept", "horseshoe_worthless", "star_found"):
            assert seen[f"{flip}:{by}+{kind}+turn"] > 0, (flip, kind)
        assert any(k.startswith(f"{flip}:") and "turn_lost" in k.split("+") for k in seen)  # general
    assert seen["FlipRoll declare:rolled+flip_failed+turn"] > 50
    assert seen["Flip after_move:flipped+blank+turns_lost+turn"] > 0  # the Slave Coast
    assert seen["FlipRoll declare:rolled+flipped+blank+turns_lost+turn"] > 0
    assert seen["Flip doubled gem"] > 0 and seen["FlipRoll doubled gem"] > 0  # the Gold Coast


def test_replacer_is_dataclasses_replace():
    state = ENGINE.new_game(3, "k:r", ENGINE.options_from_dict({"expansion": False}))
    rep = replacer(State, ("turn", "round"))
    made = rep(state, 2, 7)
    assert made == dataclasses.replace(state, turn=2, round=7)
    assert type(made) is State and made.pawns is state.pawns
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.turn = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        replacer(State, ("turn", "no_such_field"))
    # a class whose twin does not fit (a subclass of slotted dataclasses): the same value by maker
    sub = dataclasses.dataclass(frozen=True, slots=True)(
        type("Sub", (Pawn,), {"__annotations__": {"extra": int}, "extra": 0})
    )
    pawn = sub("A", 100, 0, False, None, (), 5)
    assert replacer(sub, ("cash", "extra"))(pawn, 300, 6) == dataclasses.replace(pawn, cash=300, extra=6)


def test_apply_refuses_what_legal_actions_did_not_offer_right_after_it():
    # apply passes an action object that legal_actions offered for this very state and seat without
    # checking it again; anything else is still checked: an equal action of another seat, a seat
    # given as a bool, a refused candidate, a move built by the caller
    from engines.afrikan_tahti.model import Move, Roll
    from engines.contract import IllegalAction

    opts = ENGINE.options_from_dict({"expansion": False})
    refused = Counter[str]()

    def on_step(state: State, seat: int, action: Any, events: tuple[Any, ...]) -> None:
        before = previous[0]
        legal = ENGINE.legal_actions(before, seat)
        assert action in legal
        other = 1 - seat
        tries: list[tuple[Any, Any]] = [(other, a) for a in legal] + [(bool(seat), a) for a in legal]
        tries += [(seat, a) for a in base.candidates(before, seat) if a not in legal]
        tries += [(seat, Move("cairo")), (seat, Roll()) if Roll() not in legal else (other, Roll())]
        for who, a in tries:
            ENGINE.legal_actions(before, seat)  # the last state asked about: this one
            if who == seat and type(who) is int and a in legal:
                continue
            with pytest.raises(IllegalAction) as caught:
                ENGINE.apply(before, who, a)
            refused[caught.value.code] += 1
        previous[0] = state

    for g in range(3):
        previous = [ENGINE.new_game(2, f"k:refuse:{g}", opts)]
        play_ai_game(ENGINE, ("random", "random"), f"k:refuse:{g}", opts, on_step)
    assert refused["not_your_turn"] > 100 and refused["no_such_seat"] > 100
    assert refused["wrong_phase"] > 100 and refused["cannot_afford"] > 10


@pytest.mark.parametrize("rnd", [1, 199, 200, 201, 350])
def test_the_turn_passed_into_a_late_round_is_the_general_paths(rnd):
    # the turn events of the first 200 rounds come from a table (issue #28); the turn that opens
    # round 200, 201 or later is the same as the general path's, with or without a round limit
    from engines.afrikan_tahti.model import Stay

    for limit in (0, 500):
        opts = ENGINE.options_from_dict({"expansion": False, "max_rounds": limit})
        state = ENGINE.new_game(3, "k:late", opts)
        while state.phase != "declare":
            seat = state.turn
            state, _ = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
        last = (state.first_seat - 1) % state.players  # its stay opens the next round
        state = dataclasses.replace(state, round=rnd - 1, turn=last)
        got, events = same(state, last, Stay())
        assert got.round == rnd and events[-1].code == "turn" and events[-1]["round"] == rnd
