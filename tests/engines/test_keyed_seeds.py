"""Seeds of two forms (issue #28): a seed of the keyed form (``k:…``, the chat's seeds since then) gets
the cheap :class:`engines.keyed.KeyedRandom`; every other seed keeps ``random.Random(str)``, so the
matches stored before replay from their logs as they were played."""

from __future__ import annotations

import os
import subprocess
import sys
from hashlib import blake2b
from pathlib import Path
from random import Random

import pytest

from engines import GAMES
from engines.contract import randint_for, rng_for
from engines.keyed import KEYED_SEED, KeyedRandom, keyed_below, keyed_random
from engines.playout import play_ai_game, replay

ROOT = Path(__file__).resolve().parents[2]


def dice(seed: str, count: int = 24) -> list[int]:
    """The first dice of a random-policy base game of Afrikan Tähti."""
    engine = GAMES["afrikan_tahti"]
    rolls: list[int] = []

    def on_step(_state: object, _seat: int, _action: object, events: tuple) -> None:
        rolls.extend(dict(e.params)["die"] for e in events if e.code == "rolled")

    play_ai_game(engine, ("random", "random"), seed, engine.options_from_dict({"expansion": False}), on_step)
    return rolls[:count]


def test_a_seed_of_the_old_form_keeps_its_dice():
    # recorded before issue #28's keyed seeds: a stored match with such a seed replays as played
    assert dice("old-form") == [6, 1, 4, 1, 6, 1, 1, 4, 1, 5, 6, 1, 6, 4, 3, 2, 2, 2, 6, 3, 4, 1, 6, 3]
    for seed in ("3fa9c0d1e2b34455", "test:12", "kk:1", "K:1", " k:1"):
        rng = rng_for(seed, 7, "die3")
        assert type(rng) is Random
        assert [rng.random() for _ in range(3)] == _stream(f"{seed}:7:die3")


def _stream(key: str) -> list[float]:
    reference = Random(key)
    return [reference.random() for _ in range(3)]


def test_a_seed_of_the_keyed_form_has_its_own_recorded_stream():
    # pinned: a match stored with a keyed seed replays only while these stay the same
    assert dice(f"{KEYED_SEED}new-form") == [
        2,
        1,
        6,
        6,
        1,
        1,
        3,
        4,
        4,
        1,
        1,
        2,
        5,
        1,
        1,
        6,
        2,
        5,
        6,
        6,
        6,
        5,
        2,
        5,
    ]
    rng = rng_for(f"{KEYED_SEED}pin", 3, "x")
    assert type(rng) is KeyedRandom
    assert [rng.randint(1, 6) for _ in range(8)] == [6, 1, 1, 2, 1, 2, 1, 1]
    assert rng.random() == 0.4098560650960418
    cards = list(range(100))
    rng.shuffle(cards)  # more bits than the digest holds: the Mersenne Twister takes over
    assert cards[:10] == [68, 20, 78, 48, 45, 46, 95, 54, 85, 21]
    assert [rng.randint(1, 6) for _ in range(5)] == [6, 2, 1, 5, 2]


def test_the_keyed_stream_is_the_same_in_another_process():
    probe = (
        "from engines.contract import rng_for; r = rng_for('k:x', 1, 'ai0'); "
        "print([r.randrange(1000) for _ in range(200)], r.choices('abc', k=5), r.uniform(0, 1))"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", probe],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": str(n)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for n in (1, 2)
    }
    here = rng_for("k:x", 1, "ai0")
    assert runs == {
        f"{[here.randrange(1000) for _ in range(200)]} {here.choices('abc', k=5)} {here.uniform(0, 1)}\n"
    }


def test_every_random_method_works_and_keys_part_the_streams():
    a, b, other = KeyedRandom("k:a:1:x"), KeyedRandom("k:a:1:x"), KeyedRandom("k:a:1:y")
    draws = [
        (r.choice("abcdef"), r.randrange(3, 90, 3), r.randint(-5, 5), r.random(), r.uniform(2, 3),
         r.choices(range(9), k=4), r.sample(range(50), 6), r.gauss(0, 1), r.randbytes(3), r.getrandbits(70))
        for r in (a, b, other)
    ]  # fmt: skip
    assert draws[0] == draws[1] and draws[0] != draws[2]
    assert 3 <= draws[0][1] < 90 and draws[0][1] % 3 == 0 and -5 <= draws[0][2] <= 5
    assert 0 <= draws[0][3] < 1 and 2 <= draws[0][4] <= 3 and draws[0][9] < 2**70
    # fair dice, from the digest's bits and from the twister's
    counts = [0] * 6
    for n in range(6000):
        counts[KeyedRandom(str(n)).randint(1, 6) - 1] += 1
    long = KeyedRandom("long")
    for _ in range(6000):
        counts[long.randint(1, 6) - 1] += 1
    assert all(1800 < c < 2200 for c in counts), counts
    with pytest.raises(ValueError):
        a.getrandbits(-1)


@pytest.mark.parametrize(
    ("game", "options", "players"),
    [(g, o, p) for g in sorted(GAMES) for o in ({}, {"expansion": True}) if o == {} or g == "afrikan_tahti"
     for p in sorted({GAMES[g].min_players, GAMES[g].max_players})],
)  # fmt: skip
def test_a_game_with_a_keyed_seed_replays_from_its_log(game, options, players):
    engine = GAMES[game]
    opts = engine.options_from_dict(options)
    seed = f"{KEYED_SEED}replay"
    ais = (engine.default_ai, "random")
    final, log = play_ai_game(engine, tuple(ais[s % 2] for s in range(players)), seed, opts)
    assert engine.dump(replay(engine, players, seed, opts, log)) == engine.dump(final)
    # and the keyed seed plays another game than the same seed of the old form
    _old, old_log = play_ai_game(engine, tuple(ais[s % 2] for s in range(players)), "replay", opts)
    assert old_log != log


@pytest.mark.parametrize("seed", ["old-form", f"{KEYED_SEED}new-form"])
def test_the_ai_generator_is_rng_for_of_the_seat(seed):
    engine = GAMES["gnav"]
    state = engine.new_game(4, seed, None)
    for seat in range(4):
        mine, expected = engine.ai_rng(state, seat), rng_for(seed, state.ply, f"ai{seat}")
        assert type(mine) is type(expected)
        assert [mine.random() for _ in range(20)] == [expected.random() for _ in range(20)]


class _Reference(Random):
    """The keyed stream as it is defined: the BLAKE2b digest's bits first (``getrandbits`` and
    ``random`` from the pool), then ``Random(digest)``; every other method is ``Random``'s own."""

    def __init__(self, key: str) -> None:
        self._pool = self._digest = int.from_bytes(blake2b(key.encode()).digest(), "little")
        self._left = 512
        self._twister: Random | None = None
        super().__init__(0)  # the twister of Random itself is never drawn from

    def _rest(self) -> Random:
        if self._twister is None:
            self._twister, self._left = Random(self._digest), 0
        return self._twister

    def getrandbits(self, k: int, /) -> int:
        if self._twister is None and k <= self._left:
            value, self._pool, self._left = self._pool & ((1 << k) - 1), self._pool >> k, self._left - k
            return value
        return self._rest().getrandbits(k)

    def random(self) -> float:
        if self._twister is None and self._left >= 53:
            return self.getrandbits(53) * 2.0**-53
        return self._rest().random()


def test_a_keyed_generator_draws_as_its_definition_in_every_method():
    # the written-out methods (choice, randint, _randbelow) and the ones taken from Random, before
    # and after the digest's bits run out, give the draws of the plain definition
    assert {n for n in dir(Random) if not n.startswith("_")} <= set(dir(KeyedRandom))

    def draws(r: Random) -> list[object]:
        out: list[object] = []
        for _ in range(12):  # 12 rounds cross the digest's 512 bits
            out += [r.choice("abcdefg"), r.randint(1, 6), r.randrange(5, 100, 7), r.random(), r.uniform(2, 3)]
            out += [r.choices(range(9), k=3), r.sample(range(40), 4), r.gauss(0, 1), r.randbytes(2)]
            cards = list(range(10))
            r.shuffle(cards)
            out += [cards, r.getrandbits(9), r.triangular(), r.expovariate(2), r.betavariate(2, 3)]
        return out

    for n in range(40):
        reference = draws(_Reference(f"k:ref:{n}"))
        assert draws(KeyedRandom(f"k:ref:{n}")) == reference
        assert draws(keyed_random(f"k:ref:{n}")) == reference  # rng_for's way of making one
        assert type(keyed_random(f"k:ref:{n}")) is KeyedRandom
    reseeded = KeyedRandom("k:ref:seed")
    reseeded.seed(5)  # a re-seeded one is Random(5)
    assert draws(reseeded) == draws(Random(5))


def test_the_first_draw_of_a_fresh_generator_and_the_draws_after_it_follow_the_definition():
    # the first draw of choice and _randbelow (randint, randrange) is looked up by the digest's first
    # byte (the pool's bits where every try in the byte is rejected): over every size of a die or a
    # menu, it gives what the definition gives, and the draws after it go on from the bits it left
    def draws(r: Random, first: str, n: int) -> list[object]:
        if first == "choice":
            got = r.choice(range(n))
        elif first == "randint":
            got = r.randint(1, n)
        else:
            got = r.randrange(n)
        return [got, r.getrandbits(7), r.choice(range(n)), r.random()]

    for n in (*range(1, 300), 1000, 65_537, 2**31 + 5, 2**40):
        for key in range(12):
            # the first draw without the generator (a random AI's move, a die): the same numbers
            first = _Reference(f"k:first:{key}")._randbelow(n)
            assert keyed_below(f"k:first:{key}", n) == first, (n, key)
            for first in ("choice", "randint", "randrange"):
                expected = draws(_Reference(f"k:first:{key}"), first, n)
                assert draws(keyed_random(f"k:first:{key}"), first, n) == expected, (n, key, first)


@pytest.mark.parametrize("seed", ["k:dice", "old-form dice"])
def test_a_die_without_its_generator_is_the_generators_draw(seed):
    # randint_for (a die of a fast path; Work.randint) gives rng_for(...).randint's number, and its
    # errors where the range is empty
    for ply in range(200):
        for a, b in ((1, 6), (1, 2), (0, 0), (-3, 300), (5, 5)):
            assert randint_for(seed, ply, "d61", a, b) == rng_for(seed, ply, "d61").randint(a, b)
    with pytest.raises(ValueError):
        randint_for(seed, 1, "d61", 6, 1)
