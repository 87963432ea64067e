"""One round's tables as a CP-SAT model: fewest repeated meetings first, then players of similar strength together.

The two aims are weighed lexicographically, as two solves: the first finds the fewest repeats (and proves it
when it can), the second keeps that many and makes each table's strengths as close as it can (the sum over tables
of strongest minus weakest: a Swiss for tables of several players). The solver runs on one worker with a fixed
seed and a limit in *deterministic* time, which counts work, not seconds: the same seed and the same OR-Tools
give the same tables on any machine, however busy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from coimbra_events.tournament.meetings import Meetings, repeat_weight

STRENGTH_STEPS = 1000
"""Strengths are scaled to whole numbers 0..STRENGTH_STEPS (weakest to strongest) for the solver."""
EFFORT = 2.0
"""Deterministic seconds each of a round's two solves may spend (roughly seconds of one core)."""

Tables = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class RoundSolution:
    """A round's tables and what is known of their repeats: how many, the fewest proved possible, and
    whether that is proved to be the fewest (``proved``: the solver's OPTIMAL)."""

    tables: Tables
    repeats: int
    fewest: int
    proved: bool


class _Model:
    """The round's variables: ``at[p][t]`` is player ``p`` (an index) at table ``t``."""

    def __init__(self, players: Sequence[str], sizes: Sequence[int]) -> None:
        self.players, self.sizes = players, sizes
        self.cp = cp_model.CpModel()
        n, tables = len(players), range(len(sizes))
        self.at = [[self.cp.new_bool_var(f"p{p}t{t}") for t in tables] for p in range(n)]
        for row in self.at:
            self.cp.add_exactly_one(row)
        for t, size in enumerate(sizes):
            self.cp.add(sum(row[t] for row in self.at) == size)
        self._order_equal_tables()

    def _order_equal_tables(self) -> None:
        """Tables of one size are interchangeable: order them by their first player, so that the solver
        does not search every relabelling of the same seating (a solution is still found for every seating)."""
        n = len(self.players)
        lowest = []
        for t in range(len(self.sizes)):
            low = self.cp.new_int_var(0, n, f"low{t}")
            self.cp.add_min_equality(low, [p * row[t] + n * (1 - row[t]) for p, row in enumerate(self.at)])
            lowest.append(low)
        for t in range(len(self.sizes) - 1):
            if self.sizes[t] == self.sizes[t + 1]:
                self.cp.add(lowest[t] < lowest[t + 1])

    def repeats(self, meetings: Meetings) -> cp_model.LinearExpr:
        """The repeats of the seating: each pair seated together again, weighed by ``repeat_weight``."""
        index = {name: p for p, name in enumerate(self.players)}
        terms = []
        for (a, b), rounds in meetings.rounds.items():
            if a not in index or b not in index:
                continue
            together = self.cp.new_bool_var(f"met{index[a]}_{index[b]}")
            for t in range(len(self.sizes)):
                self.cp.add(together >= self.at[index[a]][t] + self.at[index[b]][t] - 1)
            terms.append(repeat_weight(len(rounds)) * together)
        return sum(terms)

    def spread(self, strengths: Mapping[str, int]) -> cp_model.LinearExpr:
        """The sum over tables of the strongest player's strength minus the weakest's."""
        total = []
        for t in range(len(self.sizes)):
            high = self.cp.new_int_var(0, STRENGTH_STEPS, f"high{t}")
            low = self.cp.new_int_var(0, STRENGTH_STEPS, f"low_strength{t}")
            for p, name in enumerate(self.players):
                self.cp.add(high >= strengths[name]).only_enforce_if(self.at[p][t])
                self.cp.add(low <= strengths[name]).only_enforce_if(self.at[p][t])
            total.append(high - low)
        return sum(total)

    def hint(self, tables: Tables) -> None:
        """Start the search from ``tables`` (a seating the model allows)."""
        self.cp.clear_hints()
        where = {name: t for t, table in enumerate(tables) for name in table}
        for p, name in enumerate(self.players):
            for t, var in enumerate(self.at[p]):
                self.cp.add_hint(var, where[name] == t)

    def solve(self, objective: cp_model.LinearExpr, seed: int, effort: float) -> tuple[Tables, int, int, bool]:
        """Minimise ``objective``: the tables, its value, its proved lower bound, and whether that is optimal."""
        self.cp.minimize(objective)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = seed % 2**31
        solver.parameters.max_deterministic_time = effort
        status = solver.solve(self.cp)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise RuntimeError(f"the seating model found no seating ({solver.status_name(status)})")
        tables = tuple(tuple(name for p, name in enumerate(self.players) if solver.boolean_value(self.at[p][t]))
                       for t in range(len(self.sizes)))
        value = round(solver.objective_value)
        optimal = status == cp_model.OPTIMAL
        return tables, value, value if optimal else max(0, -int(-solver.best_objective_bound // 1)), optimal


def in_order(players: Sequence[str], sizes: Sequence[int]) -> Tables:
    """The players at tables in the order given: the first ``sizes[0]`` at the first table, and so on."""
    starts = [sum(sizes[:t]) for t in range(len(sizes))]
    return tuple(tuple(players[s:s + size]) for s, size in zip(starts, sizes))


def solve_round(players: Sequence[str], sizes: Sequence[int], meetings: Meetings, strengths: Mapping[str, int] | None,
                seed: int, effort: float = EFFORT) -> RoundSolution:
    """The round's tables for ``players`` (in the seed's order): fewest repeats of ``meetings``, then closest strengths.

    With nobody met yet and no strengths, the players sit in the order given: nothing is left to choose."""
    start = in_order(players, sizes)
    if not meetings.rounds and not strengths:
        return RoundSolution(start, 0, 0, True)
    model = _Model(players, sizes)
    repeats = model.repeats(meetings)
    tables, value, fewest, proved = start, 0, 0, True
    if meetings.rounds:
        model.hint(start)
        tables, value, fewest, proved = model.solve(repeats, seed, effort)
    if strengths:
        if meetings.rounds:
            model.cp.add(repeats <= value)
        model.hint(tables)
        tables = model.solve(model.spread(strengths), seed, effort)[0]
    return RoundSolution(tables, value, fewest, proved)
