"""The seating's promises (coimbra_events/tournament), held by Hypothesis over 6-64 players and 1-7 rounds.

Each seating is solved with a small deterministic budget (``EFFORT``) so that the file runs in seconds; the
promises that hold for any budget (everyone seated, table sizes, reproducibility, no worse than a greedy) are
checked at that budget, and the one that needs the solver's proof (no repeat while another seating avoids it)
against an exhaustive search over every seating of small fields.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coimbra_events.tournament import BadField, field, seat_rounds, table_sizes

EFFORT = 0.02
"""Deterministic seconds per solve in these tests (the command's is 50 times more)."""
FEW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])

PLAYERS = st.integers(6, 64)
ROUNDS = st.integers(1, 7)
SEEDS = st.integers(0, 2**16)


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(n)]


def history_weight(history: list[tuple[tuple[str, ...], ...]], tables) -> int:
    """The weight of ``tables``' repeats after ``history``: a pair that met k times before weighs k*k."""
    met = Counter(frozenset(p) for r in history for table in r for p in combinations(table, 2))
    return sum(met[frozenset(p)] ** 2 for table in tables for p in combinations(table, 2))


def spread(tables, strength: dict[str, float]) -> float:
    """The sum over tables of strongest minus weakest."""
    return sum(max(strength[n] for n in t) - min(strength[n] for n in t) for t in tables)


def every_seating(players: list[str], sizes: list[int]):
    """Every way to seat ``players`` at tables of ``sizes``, each once (tables of one size are not told apart)."""
    if not players:
        yield ()
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for seating in every_seating(remaining, left):
                yield ((first, *others), *seating)


def greedy(players: list[str], sizes: tuple[int, ...], history) -> tuple[tuple[str, ...], ...]:
    """A simple greedy seating: fill table after table, each time with the unseated player who adds the least weight."""
    left, tables = list(players), []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(left, key=lambda p: history_weight(history, [tuple(table) + (p,)]))
            left.remove(best)
            table.append(best)
        tables.append(tuple(table))
    return tuple(tables)


# --- the field and its tables ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 129))
def test_table_sizes_are_fours_and_threes_and_twos_only_when_forced(n):
    sizes = table_sizes(n)
    assert sum(sizes) == n
    assert set(sizes) <= ({2, 3} if n in (2, 5) else {3, 4})
    assert sizes.count(3) <= 3 or n == 9  # as many fours as the field allows
    assert 1 not in sizes


@pytest.mark.parametrize("players, rounds, says", [
    (["Ana"], 1, "1 player"), (["Ana", " "], 1, "empty"), (["Ana", "ANA "], 1, "given twice"),
    (["Ana", "Conceição", "conceicao"], 1, "given twice"), (["Ana", "Bruno"], 0, "0 rounds"),
    (["Ana", "Bruno"], 21, "21 rounds"), ([f"P{i}" for i in range(129)], 1, "129 players"),
])
def test_a_field_that_cannot_be_seated_is_named(players, rounds, says):
    with pytest.raises(BadField, match=says):
        field(players, rounds)


# --- the properties ---------------------------------------------------------------------------------------------


@pytest.mark.property
@FEW
@given(PLAYERS, ROUNDS, SEEDS)
def test_every_player_sits_once_a_round_at_tables_of_the_promised_sizes(n, rounds, seed):
    seating = seat_rounds(names(n), rounds, seed, effort=EFFORT)
    assert len(seating.rounds) == rounds
    for played in seating.rounds:
        assert sorted(p for t in played.tables for p in t) == names(n)
        assert sorted(map(len, played.tables)) == sorted(table_sizes(n))


@pytest.mark.property
@settings(max_examples=20, deadline=None)
@given(st.integers(6, 10), st.integers(1, 4), SEEDS)
def test_no_repeat_while_another_seating_avoids_it_checked_against_every_seating(n, rounds, seed):
    """Small fields: each round's repeats weigh exactly the least of every possible seating's, and it says so."""
    seating = seat_rounds(names(n), rounds, seed, effort=EFFORT)
    history: list = []
    for played in seating.rounds:
        least = min(history_weight(history, s) for s in every_seating(names(n), list(table_sizes(n))))
        assert history_weight(history, played.tables) == least
        assert played.solution.proved and played.solution.fewest == least
        assert len(played.explanations) == sum(1 for t in played.tables for p in combinations(t, 2)
                                               if any(set(p) <= set(u) for r in history for u in r))
        assert all("no seating of round" in s and "avoids every repeat" in s for s in played.explanations)
        history.append(played.tables)


@pytest.mark.property
@FEW
@given(PLAYERS, ROUNDS, SEEDS)
def test_no_round_repeats_more_than_a_greedy_seating_would(n, rounds, seed):
    seating = seat_rounds(names(n), rounds, seed, effort=EFFORT)
    history: list = []
    for played in seating.rounds:
        shuffled = names(n)
        random.Random(seed).shuffle(shuffled)
        assert history_weight(history, played.tables) <= history_weight(history, greedy(shuffled, table_sizes(n), history))
        history.append(played.tables)


@pytest.mark.property
@settings(max_examples=6, deadline=None)
@given(PLAYERS, st.integers(1, 3), SEEDS)
def test_the_same_seed_gives_the_same_seating_and_another_seed_another(n, rounds, seed):
    first = seat_rounds(names(n), rounds, seed, effort=EFFORT)
    assert seat_rounds(names(n), rounds, seed, effort=EFFORT).tables() == first.tables()
    assert seat_rounds(names(n), rounds, seed + 1, effort=EFFORT).tables() != first.tables()


@pytest.mark.property
@FEW
@given(PLAYERS, ROUNDS, SEEDS)
def test_the_first_seat_turns(n, rounds, seed):
    """After each round: nobody has sat first twice more than anyone else, while every round so far could put
    someone due for the first seat at each table (the aims before rotation, repeats and strength, come first)."""
    seating = seat_rounds(names(n), rounds, seed, effort=EFFORT)
    firsts = Counter({name: 0 for name in names(n)})
    for played in seating.rounds:
        firsts.update(t[0] for t in played.tables)
        if played.solution.uncovered:
            break
        assert max(firsts.values()) - min(firsts.values()) <= 1


@pytest.mark.property
@FEW
@given(PLAYERS, ROUNDS, SEEDS, st.randoms(use_true_random=False))
def test_tables_hold_players_of_similar_strength(n, rounds, seed, rng):
    """With strengths given, each round's tables spread no wider than a random seating's of no more repeats."""
    strength = {name: rng.uniform(0, 50) for name in names(n)}
    seating = seat_rounds(names(n), rounds, seed, strength, effort=EFFORT)
    history: list = []
    for played in seating.rounds:
        drawn = names(n)
        rng.shuffle(drawn)
        random_tables = greedy(drawn, table_sizes(n), [])  # in the drawn order
        if history_weight(history, random_tables) <= history_weight(history, played.tables):
            assert spread(played.tables, strength) <= spread(random_tables, strength) + 1e-9 * n
        history.append(played.tables)
