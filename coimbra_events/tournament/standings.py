"""Tournament points by place and the standings after each round, from the tables' results.

A table's places give tournament points (``POINTS``: 4/2/1/0 at a table of four); players who share places share
those places' points equally (two sharing first at a table of four: (4 + 2) / 2 = 3 each). The standings rank by
tournament points, then by game points scored, then by opponents' strength (the tournament points of everyone
they have sat with, summed once per meeting: a Buchholz score), then by name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

POINTS: Mapping[int, tuple[int, ...]] = {4: (4, 2, 1, 0), 3: (4, 2, 0), 2: (4, 0)}
"""Tournament points by place, for each table size: the top places keep a table of four's, the last place 0."""
MOST_POINTS = 100
"""The most points a place may give: a bound that catches a typo (``--points 4,2,10000,0``)."""


class BadPoints(ValueError):
    """Points by place that cannot be used: not four whole numbers, negative, or a lower place given more."""


def points_by_size(places: Sequence[int]) -> dict[int, tuple[int, ...]]:
    """Points by place for every table size from a table of four's (``4,2,1,0``): a smaller table keeps the top
    places' points and gives its last place the last place's (three: ``4,2,0``; two: ``4,0``), as ``POINTS`` does."""
    given = tuple(places)
    if len(given) != 4 or not all(isinstance(p, int) and 0 <= p <= MOST_POINTS for p in given):
        raise BadPoints(f"points {','.join(map(str, given))}: give four whole numbers from 0 to {MOST_POINTS}, "
                        "one for each place at a table of four (e.g. 4,2,1,0)")
    if any(a < b for a, b in zip(given, given[1:])):
        raise BadPoints(f"points {','.join(map(str, given))}: a place may not give more than the place before it")
    return {4: given, 3: given[:2] + given[-1:], 2: given[:1] + given[-1:]}


@dataclass(frozen=True)
class Finish:
    """One player's result at a table: their place (1 the best; players who tie share a place) and game points."""

    name: str
    place: int
    score: int


@dataclass(frozen=True)
class Standing:
    """A player's line after a round: rank (shared when every tie-break is equal), tournament points, game
    points scored, and opponents' strength."""

    rank: int
    name: str
    points: Fraction
    scored: int
    opponents: Fraction


def table_points(table: Sequence[Finish], points: Mapping[int, Sequence[int]] = POINTS) -> dict[str, Fraction]:
    """Each player's tournament points at one table: the points of the places they take, shared among those who tie."""
    if len(table) not in points:
        raise ValueError(f"no tournament points for a table of {len(table)}")
    by_place = points[len(table)]
    ordered = sorted(table, key=lambda f: f.place)
    earned: dict[str, Fraction] = {}
    start = 0
    for place in sorted({f.place for f in table}):
        sharing = [f.name for f in ordered if f.place == place]
        share = Fraction(sum(by_place[start:start + len(sharing)]), len(sharing))
        earned.update((name, share) for name in sharing)
        start += len(sharing)
    return earned


def standings(rounds: Sequence[Sequence[Sequence[Finish]]], points: Mapping[int, Sequence[int]] = POINTS,
              players: Sequence[str] = ()) -> list[list[Standing]]:
    """The standings after each round of ``rounds`` (rounds of tables of finishes); ``players``: who is listed
    before any result of theirs (with nothing yet), besides everyone who has one."""
    total: dict[str, Fraction] = defaultdict(Fraction, {name: Fraction(0) for name in players})
    scored: dict[str, int] = defaultdict(int)
    met: dict[str, list[str]] = defaultdict(list)
    after = []
    for tables in rounds:
        for table in tables:
            for name, earned in table_points(table, points).items():
                total[name] += earned
            for finish in table:
                scored[finish.name] += finish.score
                met[finish.name] += [other.name for other in table if other.name != finish.name]
        after.append(ranked(total, scored, met))
    return after


def ranked(total: Mapping[str, Fraction], scored: Mapping[str, int], met: Mapping[str, list[str]]) -> list[Standing]:
    """Every player ranked: points, then points scored, then opponents' strength; equal on all three, equal rank."""
    keys = {name: (total[name], scored[name], sum((total[o] for o in met[name]), Fraction(0))) for name in total}
    order = sorted(keys, key=lambda name: ([-k for k in keys[name]], name))
    lines = []
    for position, name in enumerate(order, 1):
        rank = lines[-1].rank if lines and keys[lines[-1].name] == keys[name] else position
        lines.append(Standing(rank, name, *keys[name]))
    return lines
