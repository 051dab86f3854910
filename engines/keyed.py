"""The seeded generator of seeds of the keyed form (issue #28): cheap to build, for the generator
that :func:`engines.contract.rng_for` makes for every AI decision and every die.

A game's seed selects its generator by its form. A seed that starts with :data:`KEYED_SEED` (the
seeds the chat makes since issue #28) gets a :class:`KeyedRandom`; any other seed keeps
``random.Random(key)`` exactly, so that every match stored before replays from its log as it was
played (``Random(str)`` costs SHA-512 and the Mersenne Twister's 624-word seeding, about 5 µs, on
every call).

:class:`KeyedRandom` hashes its key with BLAKE2b (512 bits, the same in every process: no
``hash()``) and serves its first draws from those bits; a generator that draws more seeds a Mersenne
Twister from the same digest and continues from it at C speed. Every ``random.Random`` method works:
they all draw through :meth:`~KeyedRandom.getrandbits` or :meth:`~KeyedRandom.random`.

A :class:`KeyedRandom` is not an instance of ``random.Random`` at run time, only to the type checker:
a ``Random`` (even a subclass that seeds nothing) allocates and seeds its own Mersenne Twister state
when it is made, about 4,000 machine instructions for every generator (one for every AI decision
and every die), while most generators draw a few bits of the digest and are dropped. It has every
method of ``random.Random`` (the ones written in Python are taken from it and draw through this
class's :meth:`~KeyedRandom.getrandbits`, :meth:`~KeyedRandom.random` and
:meth:`~KeyedRandom._randbelow`); the Mersenne Twister is made only when the digest's bits run out.
"""

from __future__ import annotations

from hashlib import blake2b
from random import Random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a Random to the type checker, by the methods it has (see the module's docstring)
    _Base = Random
else:
    _Base = object

#: the start of a seed whose generators are :class:`KeyedRandom` ("k:3fa9…")
KEYED_SEED = "k:"
#: bits of the digest served before the Mersenne Twister takes over
_POOL_BITS = 512
_MASK_53 = (1 << 53) - 1
_SCALE_53 = 2.0**-53


class KeyedRandom(_Base):
    """A ``random.Random`` whose stream is a function of ``key`` (a string), built in about a
    fifth of the time of ``Random(key)``."""

    __slots__ = ("_bytes", "_left", "_pool", "_twister", "gauss_next")

    _bytes: bytes
    _pool: int | None
    _left: int
    _twister: Random | None
    gauss_next: float | None

    def __init__(self, key: str) -> None:
        # BLAKE2b's default digest is the 512 bits of the pool, little-endian: its first byte holds
        # the first bits drawn. Most generators make one small draw (a die, an AI's choice) and are
        # dropped; that draw is mostly decided by the first byte (``_FIRST_BYTE``), and the digest
        # becomes the int of the pool only for a generator that draws more (``_unused``).
        self._bytes = blake2b(key.encode()).digest()
        self._pool = None
        self._left = _POOL_BITS
        self._twister = self.gauss_next = None

    def _unused(self) -> int:
        """The digest's bits not drawn yet, as the pool (made at the first draw that needs it)."""
        pool = int.from_bytes(self._bytes, "little") >> (_POOL_BITS - self._left)
        self._pool = pool
        return pool

    def _take_over(self) -> Random:
        """The Mersenne Twister that serves every draw once the digest's bits are spent."""
        twister = Random(int.from_bytes(self._bytes, "little"))
        self._twister = twister
        self._left = 0
        return twister

    def getrandbits(self, k: int, /) -> int:
        if self._twister is None and 0 <= k <= self._left:
            pool = self._pool
            if pool is None:
                pool = self._unused()
            self._left -= k
            self._pool = pool >> k
            return pool & ((1 << k) - 1)
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        return (self._twister or self._take_over()).getrandbits(k)

    def random(self) -> float:
        if self._left >= 53 and self._twister is None:
            pool = self._pool
            if pool is None:
                pool = self._unused()
            self._left -= 53
            self._pool = pool >> 53
            return (pool & _MASK_53) * _SCALE_53
        return (self._twister or self._take_over()).random()

    # The methods the engines call on every action, written out over the digest's bits: each gives
    # the value ``random.Random``'s own method would give from the same getrandbits stream.

    def _randbelow(self, n: int) -> int:
        """A number in ``[0, n)``, n > 0 (``Random._randbelow_with_getrandbits``)."""
        left = self._left
        if left == _POOL_BITS and 0 < n < 256:  # the first draw, decided by the first byte (mostly)
            hit = (_FIRST_BYTE[n] or _first_byte_table(n))[self._bytes[0]]
            if hit is not None:
                self._left = hit[1]
                return hit[0]
        k = n.bit_length()
        if self._twister is None and k <= left:
            pool = self._pool
            if pool is None:
                pool = self._unused()
            drawn, self._pool, self._left = _pool_below(pool, left, n)
            if drawn is not None:
                return drawn
        getrandbits = self.getrandbits
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def choice(self, seq: Any) -> Any:
        n = len(seq)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._randbelow(n)]

    def randint(self, a: int, b: int) -> int:
        if type(a) is int and type(b) is int and a <= b:
            return a + self._randbelow(b - a + 1)
        return self.randrange(a, b + 1)  # Random.randint's own way, with its errors

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Re-seeding starts a plain ``Random(a)`` stream."""
        twister = Random()
        twister.seed(a, version)
        self._twister = twister
        self._left = 0
        self.gauss_next = None

    # every other method of random.Random, drawing through the ones above (the same functions)
    VERSION = Random.VERSION
    randrange = Random.randrange
    randbytes = Random.randbytes
    shuffle = Random.shuffle
    sample = Random.sample
    choices = Random.choices
    uniform = Random.uniform
    triangular = Random.triangular
    normalvariate = Random.normalvariate
    gauss = Random.gauss
    lognormvariate = Random.lognormvariate
    expovariate = Random.expovariate
    vonmisesvariate = Random.vonmisesvariate
    gammavariate = Random.gammavariate
    betavariate = Random.betavariate
    paretovariate = Random.paretovariate
    weibullvariate = Random.weibullvariate

    def getstate(self) -> Any:
        raise NotImplementedError("a KeyedRandom is rebuilt from its key, not from a state")

    def setstate(self, state: Any) -> None:
        raise NotImplementedError("a KeyedRandom is rebuilt from its key, not from a state")


def _pool_below(pool: int, left: int, n: int) -> tuple[int | None, int, int]:
    """``Random._randbelow_with_getrandbits``'s tries of ``n.bit_length()`` bits each, from the low
    bits of ``pool`` (``left`` bits in it) while they last: (the number drawn, or None when the bits
    ran out first; the pool after the tries; the bits left in it)."""
    k = n.bit_length()
    mask = (1 << k) - 1
    while k <= left:
        r = pool & mask
        pool >>= k
        left -= k
        if r < n:
            return r, pool, left
    return None, pool, left


#: by n (below 256): the first draw of ``_randbelow(n)`` by the digest's first byte, as (the number
#: drawn, the bits left after it), or None where every try inside the byte is rejected
_FIRST_BYTE: list[list[tuple[int, int] | None] | None] = [None] * 256


def _first_byte_table(n: int) -> list[tuple[int, int] | None]:
    """``_FIRST_BYTE[n]``, made at its first use: ``Random._randbelow_with_getrandbits``'s tries of
    ``n.bit_length()`` bits each, from the byte's low bits up, as long as they fit in the byte."""
    k = n.bit_length()
    mask = (1 << k) - 1
    table: list[tuple[int, int] | None] = []
    for byte in range(256):
        hit = None
        for used in range(k, 9, k):
            r = (byte >> (used - k)) & mask
            if r < n:
                hit = (r, _POOL_BITS - used)
                break
        table.append(hit)
    _FIRST_BYTE[n] = table
    return table


_new = object.__new__
#: a new BLAKE2b hash of nothing yet (a copy of one made once: cheaper than a new one)
_blank = blake2b().copy


def keyed_random(key: str) -> KeyedRandom:
    """``KeyedRandom(key)``, the same generator made without the class call and ``__init__``'s frame
    (about 700 machine instructions of each of the generators made for every AI decision and die)."""
    return _of_digest(blake2b(key.encode()).digest())


def _of_digest(digest: bytes) -> KeyedRandom:
    """The :class:`KeyedRandom` whose key has this BLAKE2b ``digest``."""
    made: KeyedRandom = _new(KeyedRandom)
    made._bytes = digest
    made._pool = None
    made._left = _POOL_BITS
    made._twister = made.gauss_next = None
    return made


def keyed_below(key: str, n: int) -> int:
    """``keyed_random(key)._randbelow(n)`` (n > 0; ``randint(a, b)`` is ``a + keyed_below(key, b - a
    + 1)``): without making the generator (a die rolled as the first draw of its generator). The
    digest's first byte decides nearly every draw; the others take the generator's tries over the
    digest's bits, and only a draw that spends them all makes the generator."""
    if 0 < n < 256:
        hashed = _blank()  # blake2b(key.encode()), from a copy of the empty hash's state
        hashed.update(key.encode())
        digest = hashed.digest()
        hit = (_FIRST_BYTE[n] or _first_byte_table(n))[digest[0]]
        if hit is not None:
            return hit[0]
        # the generator's tries over the digest's bits (those of the first byte again), without it
        drawn = _pool_below(int.from_bytes(digest, "little"), _POOL_BITS, n)[0]
        return _of_digest(digest)._randbelow(n) if drawn is None else drawn
    return keyed_random(key)._randbelow(n)


def keyed(seed: str) -> bool:
    """Whether ``seed`` is of the keyed form (its generators are :class:`KeyedRandom`)."""
    return seed.startswith(KEYED_SEED)
