"""The table's draws, each exactly as Python's ``random`` module makes it from the same generator.

``below``, ``sample``, ``shuffle`` and ``randint`` take the same numbers from a ``random.Random`` as its own
``_randbelow``, ``sample``, ``shuffle`` and ``randint`` (CPython's code for them, unchanged from 3.11 on), so a seed
deals the same cards and rolls the same dice as ever. They are compiled with the rules core: a playout deals rows
and rolls dice every round, and the library's own methods are interpreted code that took about 7 % of its instructions (callgrind).
``tests/rules/test_draws.py`` holds them to the library's methods.
"""

from __future__ import annotations

import math
import random
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """A number in ``0 .. n - 1``: what ``rng._randbelow(n)`` draws (``_randbelow_with_getrandbits``)."""
    return _below(rng.getrandbits, n)


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """``below`` with the generator's ``getrandbits`` looked up once by the caller: a deal draws a dozen numbers,
    and looking the method up on the generator at each took about as long as drawing."""
    bits = n.bit_length()
    r = getrandbits(bits)
    while r >= n:
        r = getrandbits(bits)
    return r


def randint(rng: random.Random, low: int, high: int) -> int:
    """What ``rng.randint(low, high)`` draws."""
    return low + below(rng, high - low + 1)


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place as ``rng.shuffle(items)`` does."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        j = _below(getrandbits, i + 1)
        items[i], items[j] = items[j], items[i]


def sample(rng: random.Random, population: Sequence[T], k: int) -> list[T]:
    """``k`` different items of ``population``, in the order drawn: what ``rng.sample(population, k)`` draws.

    Like the library, it keeps a pool it draws from while the population is small next to the set of picks it
    would otherwise keep, and picks by position (drawing again on a repeat) when it is large.
    """
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    getrandbits = rng.getrandbits
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        picked: list[T] = []
        for i in range(k):
            j = _below(getrandbits, n - i)
            picked.append(pool[j])
            pool[j] = pool[n - i - 1]
        return picked
    chosen: set[int] = set()
    out: list[T] = []
    for _ in range(k):
        j = _below(getrandbits, n)
        while j in chosen:
            j = _below(getrandbits, n)
        chosen.add(j)
        out.append(population[j])
    return out
