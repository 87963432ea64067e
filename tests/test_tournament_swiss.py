"""The Swiss rounds of a running tournament (``seating.seat_next``), held by Hypothesis: everyone seated once a round
at tables of the promised sizes, the same seating from the same record, and players of similar points together:
never further apart than tables filled in order of points, and, for small fields, the closest of every seating
with the fewest repeats (an exhaustive search)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coimbra_events.tournament import seat_rounds, table_sizes
from coimbra_events.tournament.seating import seat_next
from tests.test_tournament_seating import every_seating, history_weight, names, spread

EFFORT = 0.02
"""Deterministic seconds per solve, as the seating's own properties use."""
FEW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def points_of(players: list[str], seed: int) -> dict[str, float]:
    """Tournament points as a few rounds give them: whole and half points, many players level."""
    draw = random.Random(seed)
    return {p: draw.choice([0, 0.5, 1, 2, 3, 4, 4, 6, 7, 8]) for p in players}


def earlier(players: list[str], rounds: int, seed: int):
    """``rounds`` rounds seated before, as a tournament records them (seat order kept)."""
    return [r.tables for r in seat_rounds(players, rounds, seed, effort=EFFORT).rounds] if rounds else []


@FEW
@given(st.integers(6, 64), st.integers(0, 2), st.integers(0, 2**16))
def test_everyone_sits_once_at_the_promised_sizes_and_the_record_gives_the_same_round(n, before, seed):
    players = names(n)
    seated, points = earlier(players, before, seed), points_of(players, seed)
    made = seat_next(players, seed, seated, points, effort=EFFORT)
    assert made.number == before + 1
    assert sorted(p for t in made.tables for p in t) == sorted(players)
    assert sorted(map(len, made.tables)) == sorted(table_sizes(n))
    assert seat_next(players, seed, seated, points, effort=EFFORT).tables == made.tables


@FEW
@given(st.integers(6, 64), st.integers(0, 2**16))
def test_a_first_swiss_round_is_never_further_apart_than_tables_filled_in_order_of_points(n, seed):
    players = names(n)
    points = points_of(players, seed)
    made = seat_next(players, seed, [], points, effort=EFFORT)
    ordered = sorted(players, key=lambda p: points[p])
    blocks, start = [], 0
    for size in table_sizes(n):
        blocks.append(ordered[start:start + size])
        start += size
    assert spread(made.tables, points) <= spread(blocks, points)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(6, 9), st.integers(0, 3), st.integers(0, 2**16))
def test_a_swiss_round_seats_the_closest_points_among_the_seatings_with_fewest_repeats(n, before, seed):
    """Checked against every seating of the round: the fewest repeats first (they weigh more), then the
    smallest sum over tables of most points minus fewest."""
    players = names(n)
    seated, points = earlier(players, before, seed), points_of(players, seed)
    made = seat_next(players, seed, seated, points, effort=1.0)
    best = min((history_weight(seated, s), spread(s, points)) for s in every_seating(players, list(table_sizes(n))))
    assert (history_weight(seated, made.tables), spread(made.tables, points)) == best
