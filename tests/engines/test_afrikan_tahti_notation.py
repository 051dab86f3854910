"""The notation codec built from the actions' NOTATION templates against the hand-written notation
it replaces: the same text for every action seen in AI playouts, and the same reading (or refusal)
of those texts and of variants of them."""

from __future__ import annotations

import pytest

from engines.afrikan_tahti import ENGINE, Options, xmodel
from engines.codec import BadNotation
from engines.playout import play_ai_game

EXTRA = ["", "roll x", "offer seat1 give 100 get rifle", "offer seat1 give rifle,200 get -",
         "offer seat1 100 for rifle", "offer seat9 100 for rifle", "offer seat1 50 for rifle",
         "offer seat1 rifle,rifle for 100", "offer seat1 100,200 for rifle", "offer seat1 give - get -",
         "duel seat1 money:300", "duel seat1 card:rifle", "duel seat1 star", "duel seat1 card:zzz",
         "duel seat+1 star", "duel seat01 star", "reroll rifle 1,2", "reroll doctor 2", "reroll rifle 2,1",
         "reroll rifle 0", "reroll rifle 1,1", "reroll rifle a", "reroll rifle +1,02", "reroll rifle \u0661",
         "adjust +1", "adjust -1", "adjust 1", "adjust +2", "choose buy", "choose seat2", "choose cairo",
         "choose tangier", "choose p3", "use binoculars cairo", "use binoculars zzz", "use binoculars seat1:rifle",
         "play sabotage seat1:rifle", "play sabotage seat1:zzz", "play surprise cairo", "play bribe",
         "play rifle", "hold rifle", "discard toll", "sell toll", "hold toll", "character doctor",
         "character zzz", "seaplane cairo", "seaplane p3", "swap_stack cairo", "move p1", "move p1 via p2",
         "move cairo", "move cairo via tangier", "move p1 by p2", "board cairo", "board p3", "fly cairo",
         "start cairo", "start p3", "free_sail cairo", "fly zzz", "ROLL", " roll ", "Roll", "\u017ftay",
         "end_phase", "flip_roll", "gem_roll", "reroll_move", "reroll_done", "pass", "accept", "decline",
         "peek", "exchange", "buy_discard", "stay", "flip", "move", "board", "use", "play", "use rifle",
         "use rifle cairo", "sell rifle", "unhold rifle", "discard rifle", "reroll doctor", "duel seat1"]


def variants(text: str) -> list[str]:
    w = text.split()
    out = [text, text.upper(), "  " + text.replace(" ", "   ") + " ", text + " x", " ".join(w[:-1])]
    if len(w) > 1:
        out.append(" ".join((w[0], w[1].upper(), *w[2:])))
        out.append(" ".join(w[1:]))
    return out


def old_read(text: str) -> object:
    try:
        return xmodel.parse_notation(text)
    except BadNotation:
        return BadNotation


def new_read(text: str) -> object:
    try:
        return xmodel.NOTATION.read(text)
    except BadNotation:
        return BadNotation


def seen_actions() -> set[object]:
    seen: set[object] = set()

    def collect(state: object, seat: int, action: object, events: object) -> None:
        if ENGINE.outcome(state) is None:
            for s in ENGINE.to_act(state):
                seen.update(ENGINE.legal_actions(state, s))

    for seed, options, ais in (("n1", Options(expansion=False), ("smart", "random", "smart")),
                               ("n2", Options(), ("smart", "random") * 2),
                               ("n3", Options(quick_game=True), ("random",) * 3),
                               ("n4", Options(), ("smart",) * 5)):
        play_ai_game(ENGINE, ais, seed, options, on_step=collect)
    return seen


@pytest.fixture(scope="module")
def actions() -> set[object]:
    return seen_actions()


def test_codec_writes_what_the_old_notation_wrote(actions: set[object]) -> None:
    assert len(actions) > 500
    for a in actions:
        assert xmodel.NOTATION.write(a) == xmodel.notation(a), a


def test_codec_reads_what_the_old_parser_read(actions: set[object]) -> None:
    texts = {v for a in actions for v in variants(xmodel.notation(a))} | {v for t in EXTRA for v in variants(t)}
    for text in sorted(texts):
        assert new_read(text) == old_read(text), text
