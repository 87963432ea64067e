"""The compiled draws (``coimbra_events/rules/draws.py``) take the same numbers from a generator as Python's own
``random`` methods: the same result, and the generator left in the same state, for any seed and size."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coimbra_events.rules import draws

SEEDS = st.integers(min_value=0, max_value=2**64)


def twins(seed: int) -> tuple[random.Random, random.Random]:
    return random.Random(seed), random.Random(seed)


@given(SEEDS, st.integers(min_value=1, max_value=10**12))
def test_below_draws_what_the_library_draws(seed: int, n: int) -> None:
    ours, theirs = twins(seed)
    assert [draws.below(ours, n) for _ in range(5)] == [theirs._randbelow(n) for _ in range(5)]
    assert ours.getstate() == theirs.getstate()


@given(SEEDS, st.integers(min_value=-3, max_value=3), st.integers(min_value=0, max_value=40))
def test_randint_draws_what_the_library_draws(seed: int, low: int, width: int) -> None:
    ours, theirs = twins(seed)
    assert [draws.randint(ours, low, low + width) for _ in range(8)] == [theirs.randint(low, low + width) for _ in range(8)]
    assert ours.getstate() == theirs.getstate()


@given(SEEDS, st.lists(st.integers(), max_size=60))
def test_shuffle_moves_what_the_library_moves(seed: int, items: list[int]) -> None:
    ours, theirs = twins(seed)
    mine, library = list(items), list(items)
    draws.shuffle(ours, mine)
    theirs.shuffle(library)
    assert mine == library
    assert ours.getstate() == theirs.getstate()


@given(SEEDS, st.integers(min_value=0, max_value=400), st.data())
def test_sample_picks_what_the_library_picks(seed: int, n: int, data: st.DataObject) -> None:
    """Both of the library's ways: a pool for a small population, picks by position for a large one (past 21 + 4**k
    items: a population of 400 takes that way for most sizes of sample)."""
    k = data.draw(st.integers(min_value=0, max_value=n))
    population = tuple(f"card-{i}" for i in range(n))
    ours, theirs = twins(seed)
    assert draws.sample(ours, population, k) == theirs.sample(population, k)
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("k", [-1, 4])
def test_sample_refuses_a_size_the_library_refuses(k: int) -> None:
    with pytest.raises(ValueError):
        random.Random(1).sample((1, 2, 3), k)
    with pytest.raises(ValueError):
        draws.sample(random.Random(1), (1, 2, 3), k)
