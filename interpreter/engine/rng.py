"""The game's seeded random generator, as plain data.

A game's randomness (shuffles, coin flips, random choices) comes only from
:class:`Random`, whose whole state is one integer: cloning, comparing and
serializing a game copies that integer, and the same seed always gives the
same sequence on every machine (SplitMix64, which needs no floating point).
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


class Random:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def copy(self) -> "Random":
        twin = Random.__new__(Random)
        twin.state = self.state
        return twin

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items):
        return items[self.below(len(items))]
