"""A tournament's seating, round after round, reproducible from its seed and explained."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from coimbra_events.tournament.explanations import why
from coimbra_events.tournament.field import field, table_sizes
from coimbra_events.tournament.meetings import Meetings
from coimbra_events.tournament.round_model import EFFORT, STRENGTH_STEPS, RoundSolution, Tables, solve_round
from coimbra_events.tournament.seat_order import SeatCounts


@dataclass(frozen=True)
class Round:
    """One round: its tables in seat order (first player first), what the solver knows of its repeats, and a
    sentence for each repeated meeting."""

    number: int
    tables: Tables
    solution: RoundSolution
    explanations: tuple[str, ...]


@dataclass(frozen=True)
class Seating:
    """Every round of a tournament, from ``seed``."""

    seed: int
    rounds: tuple[Round, ...]

    def tables(self) -> list[list[list[str]]]:
        """Rounds of tables of names, seat order first to last (the command's ``--json``)."""
        return [[list(table) for table in r.tables] for r in self.rounds]

    def explanations(self) -> list[str]:
        """Every round's sentences, in order."""
        return [sentence for r in self.rounds for sentence in r.explanations]


def scaled(strengths: Mapping[str, float] | None, players: Sequence[str]) -> dict[str, int] | None:
    """Strengths as whole numbers 0..STRENGTH_STEPS; ``None`` when they are missing or all alike (nothing to balance)."""
    if not strengths:
        return None
    given = [float(strengths.get(name, 0.0)) for name in players]
    low, high = min(given), max(given)
    if high == low:
        return None
    return {name: round((value - low) / (high - low) * STRENGTH_STEPS) for name, value in zip(players, given)}


def seat_round(number: int, players: Sequence[str], meetings: Meetings, seats: SeatCounts,
               strengths: Mapping[str, float] | None, seed: int, effort: float = EFFORT) -> Round:
    """Round ``number`` for ``players`` (in the seed's order) after the rounds in ``meetings`` and ``seats``,
    which it then records. Strengths may change from round to round (tournament points so far)."""
    solution = solve_round(players, table_sizes(len(players)), meetings, scaled(strengths, players), seats.firsts(), seed, effort)
    tables = tuple(seats.order(table) for table in solution.tables)
    explained = tuple(why(meeting, number, meetings, solution) for meeting in meetings.repeats(tables))
    meetings.add(number, tables)
    seats.add(tables)
    return Round(number, tables, solution, explained)


def seed_order(players: Sequence[str], seed: int) -> list[str]:
    """The players in the seed's order: what every round of a tournament is seated from."""
    order = list(players)
    random.Random(seed).shuffle(order)
    return order


def seat_rounds(names: Iterable[str], rounds: int, seed: int = 0, strengths: Mapping[str, float] | None = None,
                effort: float = EFFORT) -> Seating:
    """``rounds`` rounds for ``names`` (checked by ``field``), balanced by ``strengths`` (by name; none: all equal).

    The seed shuffles the players before the first round and seeds the solver: the same seed, players and
    strengths give the same seating."""
    players = seed_order(field(names, rounds), seed)
    meetings, seats = Meetings(), SeatCounts()
    return Seating(seed, tuple(seat_round(n, players, meetings, seats, strengths, seed, effort) for n in range(1, rounds + 1)))


def seat_next(players: Sequence[str], seed: int, seated: Sequence[Tables], strengths: Mapping[str, float] | None,
              effort: float = EFFORT) -> Round:
    """The round after the rounds ``seated`` (each as it was seated, seat order kept), balanced by ``strengths``
    (a running tournament's points so far: a Swiss): as ``seat_rounds`` would seat it given those strengths, so
    that a recorded tournament's next round is reproducible from its seed, its rounds and its results."""
    meetings, seats = Meetings(), SeatCounts()
    for number, tables in enumerate(seated, 1):
        meetings.add(number, tables)
        seats.add(tables)
    return seat_round(len(seated) + 1, seed_order(players, seed), meetings, seats, strengths, seed, effort)
