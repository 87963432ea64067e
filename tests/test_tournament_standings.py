"""Tournament points by place, shared places split, and the standings' tie-breaks (coimbra_events/tournament/standings)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coimbra_events.tournament.standings import POINTS, Finish, standings, table_points


def table(*rows: tuple[str, int, int]) -> list[Finish]:
    return [Finish(*row) for row in rows]


def test_a_table_of_four_gives_4_2_1_0_and_smaller_tables_keep_the_top_places():
    assert table_points(table(("A", 1, 60), ("B", 2, 50), ("C", 3, 40), ("D", 4, 30))) == {"A": 4, "B": 2, "C": 1, "D": 0}
    assert table_points(table(("A", 2, 50), ("B", 1, 60), ("C", 3, 40))) == {"B": 4, "A": 2, "C": 0}
    assert table_points(table(("A", 1, 60), ("B", 2, 50))) == {"A": 4, "B": 0}


def test_shared_places_split_their_points():
    assert table_points(table(("A", 1, 60), ("B", 1, 60), ("C", 3, 40), ("D", 4, 30))) == {"A": 3, "B": 3, "C": 1, "D": 0}
    assert table_points(table(("A", 1, 60), ("B", 2, 50), ("C", 2, 50), ("D", 2, 50))) == {
        "A": 4, "B": Fraction(1), "C": Fraction(1), "D": Fraction(1)}


def test_points_are_configurable():
    assert table_points(table(("A", 1, 60), ("B", 2, 50)), {2: (3, 1)}) == {"A": 3, "B": 1}
    with pytest.raises(ValueError, match="table of 2"):
        table_points(table(("A", 1, 60), ("B", 2, 50)), {4: (4, 2, 1, 0)})


def test_standings_rank_by_points_then_points_scored_then_opponents_then_share_a_rank():
    round_1 = [table(("A", 1, 60), ("B", 2, 50), ("C", 3, 40), ("D", 4, 30)),
               table(("E", 1, 70), ("F", 2, 40), ("G", 3, 20))]
    round_2 = [table(("A", 1, 60), ("E", 2, 50), ("B", 3, 40), ("F", 4, 30)),
               table(("C", 1, 55), ("D", 2, 40), ("G", 3, 20))]
    first, second = standings([round_1, round_2])
    assert [(s.rank, s.name, s.points) for s in first][:2] == [(1, "E", 4), (2, "A", 4)]  # E scored 70, A 60
    assert [s.name for s in second][:3] == ["A", "E", "C"]
    assert [(s.name, s.points, s.scored) for s in second if s.name in "BF"] == [("B", 3, 90), ("F", 2, 70)]
    tied = standings([[table(("A", 1, 50), ("B", 1, 50))]])[0]
    assert [(s.rank, s.name, s.points) for s in tied] == [(1, "A", 2), (1, "B", 2)]


def test_opponents_strength_breaks_a_tie_of_points_and_points_scored():
    round_1 = [table(("A", 1, 50), ("B", 2, 40)), table(("C", 1, 50), ("D", 2, 40)), table(("E", 1, 60), ("F", 2, 10))]
    round_2 = [table(("A", 1, 50), ("E", 2, 10)), table(("C", 1, 50), ("F", 2, 10)), table(("B", 1, 0), ("D", 2, 0))]
    after = standings([round_1, round_2])[1]
    ranks = {s.name: s for s in after}
    assert ranks["A"].points == ranks["C"].points and ranks["A"].scored == ranks["C"].scored
    assert ranks["A"].opponents > ranks["C"].opponents and ranks["A"].rank < ranks["C"].rank


@given(st.integers(2, 4).flatmap(lambda n: st.lists(st.integers(1, n), min_size=n, max_size=n)))
def test_a_table_hands_out_exactly_its_places_points_and_a_better_place_never_earns_less(places):
    finishes = [Finish(f"P{i}", place, 0) for i, place in enumerate(places)]
    earned = table_points(finishes)
    assert sum(earned.values()) == sum(POINTS[len(places)])
    for a in finishes:
        for b in finishes:
            if a.place < b.place:
                assert earned[a.name] >= earned[b.name]
            if a.place == b.place:
                assert earned[a.name] == earned[b.name]


def test_points_for_smaller_tables_follow_from_a_table_of_fours():
    from coimbra_events.tournament.standings import points_by_size

    assert points_by_size((4, 2, 1, 0)) == POINTS
    assert points_by_size((5, 3, 1, 1)) == {4: (5, 3, 1, 1), 3: (5, 3, 1), 2: (5, 1)}


@pytest.mark.parametrize("given, says", [((4, 2, 1), "four whole numbers"), ((4, 2, 1, -1), "four whole numbers"),
                                         ((4, 2, 1, 101), "four whole numbers"), ((2, 4, 1, 0), "more than the place before")])
def test_points_that_cannot_be_used_are_refused(given, says):
    from coimbra_events.tournament.standings import BadPoints, points_by_size

    with pytest.raises(BadPoints, match=says):
        points_by_size(given)


PLACES = st.lists(st.integers(1, 4), min_size=2, max_size=4).map(
    lambda drawn: [1 + sum(1 for other in drawn if other < mine) for mine in drawn])
"""A table's places as the tie rule gives them: a shared place, then the places it took skipped (1, 1, 3, 4)."""
SCHEMES = st.lists(st.integers(0, 100), min_size=4, max_size=4).map(lambda p: tuple(sorted(p, reverse=True)))


@given(PLACES, SCHEMES)
def test_shared_places_share_exactly_the_points_of_the_places_they_take(places, scheme):
    from coimbra_events.tournament.standings import points_by_size

    points = points_by_size(scheme)
    earned = table_points([Finish(f"P{k}", place, 0) for k, place in enumerate(places)], points)
    assert sum(earned.values()) == sum(points[len(places)])
    for k, place in enumerate(places):
        for j, other in enumerate(places):
            if place == other:
                assert earned[f"P{k}"] == earned[f"P{j}"]
            if place < other:
                assert earned[f"P{k}"] >= earned[f"P{j}"]


def test_players_without_a_result_yet_are_listed_level_with_nothing():
    after = standings([[table(("A", 1, 60), ("B", 1, 60), ("C", 3, 40))]], players=["A", "B", "C", "D"])[0]
    assert [(s.rank, s.name, s.points, s.scored, s.opponents) for s in after] == [
        (1, "A", 3, 60, 3), (1, "B", 3, 60, 3), (3, "C", 0, 40, 6), (4, "D", 0, 0, 0)]
