"""The one source of randomness a game state may use.

A small xoshiro256** generator seeded through SplitMix64. It is deterministic across
platforms and Python versions, its whole state is four integers (so cloning a game
state costs almost nothing), and it never appears in any view: only the server and
records hold seeds.
"""

from __future__ import annotations

import random as _random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


def _splitmix64(x: int) -> tuple[int, int]:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


class Rng:
    """A seeded pseudo-random generator owned by one game state."""

    __slots__ = ("_s0", "_s1", "_s2", "_s3")

    def __init__(self, seed: int) -> None:
        x = seed & _MASK
        # Mix in the high bits too, so seeds wider than 64 bits still differ.
        x ^= (seed >> 64) & _MASK
        x, a = _splitmix64(x)
        x, b = _splitmix64(x)
        x, c = _splitmix64(x)
        x, d = _splitmix64(x)
        if a == b == c == d == 0:  # pragma: no cover - astronomically unlikely
            a = 1
        self._s0, self._s1, self._s2, self._s3 = a, b, c, d

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        s0, s1, s2, s3 = self._s0, self._s1, self._s2, self._s3
        x = (s1 * 5) & _MASK
        result = ((((x << 7) | (x >> 57)) & _MASK) * 9) & _MASK
        t = (s1 << 17) & _MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 45) | (s3 >> 19)) & _MASK
        self._s0, self._s1, self._s2, self._s3 = s0, s1, s2, s3
        return result

    def below(self, n: int) -> int:
        """Return a uniform integer in ``range(n)`` (unbiased, by rejection)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        shift = 64 - (n - 1).bit_length()
        while True:
            r = self.next64() >> shift
            if r < n:
                return r

    def randint(self, low: int, high: int) -> int:
        """Return a uniform integer ``low <= r <= high``, like a die roll."""
        return low + self.below(high - low + 1)

    def random(self) -> float:
        """Return a uniform float in ``[0, 1)``."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: Sequence[T]) -> T:
        """Return one item of a non-empty sequence, uniformly."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffle_fast(self, items: list[T]) -> None:
        """Shuffle a list in place with a Mersenne Twister seeded from this generator.

        Deterministic like every draw here, and far faster than :meth:`shuffle` (the work
        runs in C), but a different sequence: for bots' imagined worlds, never for a deal.
        """
        _random.Random(self.next64()).shuffle(items)

    def clone(self) -> Rng:
        """Return an independent generator in the same state."""
        other = Rng.__new__(Rng)
        other._s0, other._s1, other._s2, other._s3 = self._s0, self._s1, self._s2, self._s3
        return other

    def getstate(self) -> tuple[int, int, int, int]:
        """Return the full generator state (for persistence on the server only)."""
        return (self._s0, self._s1, self._s2, self._s3)

    def setstate(self, state: tuple[int, int, int, int]) -> None:
        """Restore a state returned by :meth:`getstate`."""
        self._s0, self._s1, self._s2, self._s3 = state
