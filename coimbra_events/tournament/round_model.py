"""One round's tables as a CP-SAT model: fewest repeated meetings first, then players of similar strength together,
then a player due for the first seat at every table.

The aims are weighed lexicographically, as one solve each: the first finds the fewest repeats (and proves it
when it can), the second keeps that many and makes each table's strengths as close as it can (the sum over tables
of strongest minus weakest: a Swiss for tables of several players), the third keeps both and puts at every table
someone who has sat first least often, so that the seats can turn evenly (``seat_order``). The solver runs on one worker with a fixed
seed and a limit in *deterministic* time, which counts work, not seconds: the same seed and the same OR-Tools
give the same tables on any machine, however busy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from coimbra_events.tournament.first_guess import first_guess
from coimbra_events.tournament.meetings import Meetings, repeat_weight

STRENGTH_STEPS = 1000
"""Strengths are scaled to whole numbers 0..STRENGTH_STEPS (weakest to strongest) for the solver."""
EFFORT = 1.0
"""Deterministic seconds each of a round's solves may spend (roughly seconds of one core)."""

Tables = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class RoundSolution:
    """A round's tables and what is known of their repeats: how many (weighed), the fewest proved possible, and
    whether that is proved to be the fewest (``proved``: the solver's OPTIMAL); and how many tables hold nobody
    due for the first seat (``uncovered``: 0 unless the aims before rotation, or the budget, allowed no better)."""

    tables: Tables
    repeats: int
    fewest: int
    proved: bool
    uncovered: int = 0


class _Model:
    """The round's variables: ``at[p][t]`` is player ``p`` (an index) at table ``t``."""

    def __init__(self, players: Sequence[str], sizes: Sequence[int]) -> None:
        self.players, self.sizes = players, sizes
        self.index = {name: p for p, name in enumerate(players)}
        self.cp = cp_model.CpModel()
        self.derived: list[tuple[cp_model.IntVar, Callable[[Tables], int]]] = []
        n, tables = len(players), range(len(sizes))
        self.at = [[self.cp.new_bool_var(f"p{p}t{t}") for t in tables] for p in range(n)]
        for row in self.at:
            self.cp.add_exactly_one(row)
        for t, size in enumerate(sizes):
            self.cp.add(sum(row[t] for row in self.at) == size)
        self._order_equal_tables()

    def _new(self, lower: int, upper: int, name: str, value: Callable[[Tables], int]) -> cp_model.IntVar:
        """A variable that follows from the seating, with how to work it out from tables (to hint it)."""
        var = self.cp.new_int_var(lower, upper, name)
        self.derived.append((var, value))
        return var

    def _order_equal_tables(self) -> None:
        """Tables of one size are interchangeable: order them by their first player, so that the solver
        does not search every relabelling of the same seating (a solution is still found for every seating)."""
        n = len(self.players)
        lowest = []
        for t in range(len(self.sizes)):
            low = self._new(0, n, f"first{t}", lambda tables, t=t: min(self.index[name] for name in tables[t]))
            self.cp.add_min_equality(low, [p * row[t] + n * (1 - row[t]) for p, row in enumerate(self.at)])
            lowest.append(low)
        for t in range(len(self.sizes) - 1):
            if self.sizes[t] == self.sizes[t + 1]:
                self.cp.add(lowest[t] < lowest[t + 1])

    def repeats(self, meetings: Meetings) -> cp_model.LinearExpr:
        """The repeats of the seating: each pair seated together again, weighed by ``repeat_weight``."""
        terms = []
        for (a, b), rounds in meetings.rounds.items():
            together = self._new(0, 1, f"met_{a}_{b}", lambda tables, a=a, b=b: any(a in t and b in t for t in tables))
            for t in range(len(self.sizes)):
                self.cp.add(together >= self.at[self.index[a]][t] + self.at[self.index[b]][t] - 1)
            terms.append(repeat_weight(len(rounds)) * together)
        return sum(terms)

    def spread(self, strengths: Mapping[str, int]) -> cp_model.LinearExpr:
        """The sum over tables of the strongest player's strength minus the weakest's."""
        total = []
        for t in range(len(self.sizes)):
            high = self._new(0, STRENGTH_STEPS, f"high{t}", lambda tables, t=t: max(strengths[name] for name in tables[t]))
            low = self._new(0, STRENGTH_STEPS, f"low{t}", lambda tables, t=t: min(strengths[name] for name in tables[t]))
            for p, name in enumerate(self.players):
                self.cp.add(high >= strengths[name]).only_enforce_if(self.at[p][t])
                self.cp.add(low <= strengths[name]).only_enforce_if(self.at[p][t])
            total.append(high - low)
        return sum(total)

    def lateness(self, firsts: Mapping[str, int]) -> cp_model.LinearExpr:
        """How many tables hold nobody due for the first seat (due: sat first least often so far). None, when the
        due players outnumber the tables; when they do not, each sits at a table of their own."""
        low = min(firsts.get(name, 0) for name in self.players)
        due = {name for name in self.players if firsts.get(name, 0) == low}
        uncovered = []
        for t in range(len(self.sizes)):
            covered = self._new(0, 1, f"covered{t}", lambda tables, t=t: bool(due & set(tables[t])))
            self.cp.add(covered <= sum(self.at[self.index[name]][t] for name in due))
            uncovered.append(1 - covered)
        return sum(uncovered)

    def canonical(self, tables: Tables) -> Tables:
        """``tables`` with the tables of each size in the order ``_order_equal_tables`` asks for."""
        ordered: list[tuple[str, ...]] = []
        for size in dict.fromkeys(self.sizes):
            ordered += sorted((t for t in tables if len(t) == size), key=lambda t: min(self.index[name] for name in t))
        return tuple(ordered)

    def hint(self, tables: Tables) -> Tables:
        """Start the search from ``tables`` (a seating of the round's sizes), every variable hinted: the solver
        begins with a whole solution. The tables as hinted (reordered) are returned."""
        tables = self.canonical(tables)
        self.cp.clear_hints()
        where = {name: t for t, table in enumerate(tables) for name in table}
        for p, name in enumerate(self.players):
            for t, var in enumerate(self.at[p]):
                self.cp.add_hint(var, where[name] == t)
        for var, value in self.derived:
            self.cp.add_hint(var, int(value(tables)))
        return tables

    def solve(self, objective: cp_model.LinearExpr, seed: int, effort: float) -> tuple[Tables, int, int, bool]:
        """Minimise ``objective``: the tables, its value, its proved lower bound, and whether that is optimal.

        A budget too small to find any seating is doubled until one is found: still counted in deterministic time."""
        self.cp.minimize(objective)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = seed % 2**31
        solver.parameters.max_deterministic_time = effort
        solver.parameters.cp_model_presolve = False  # it would spend a small budget before the search starts from the hint
        solver.parameters.catch_sigint_signal = False  # else Ctrl-C's handler is the solver's, not the server's, once it ran
        status = solver.solve(self.cp)
        if status == cp_model.UNKNOWN:
            return self.solve(objective, seed, 2 * effort)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise RuntimeError(f"the seating model has no seating ({solver.status_name(status)})")
        tables = tuple(tuple(name for p, name in enumerate(self.players) if solver.boolean_value(self.at[p][t]))
                       for t in range(len(self.sizes)))
        value = round(solver.objective_value)
        optimal = status == cp_model.OPTIMAL
        return tables, value, value if optimal else max(0, -int(-solver.best_objective_bound // 1)), optimal


def solve_round(players: Sequence[str], sizes: Sequence[int], meetings: Meetings, strengths: Mapping[str, int] | None,
                firsts: Mapping[str, int], seed: int, effort: float = EFFORT) -> RoundSolution:
    """The round's tables for ``players`` (in the seed's order): fewest repeats of ``meetings``, then closest
    ``strengths``, then a player due for the first seat (fewest ``firsts``) at every table.

    Each aim is one solve that keeps what the ones before it reached, starting from the seating the one before
    found (the first from the players in order of strength). An aim with nothing to weigh (nobody met yet, all
    strengths alike, everyone first equally often) is left out; with none, the players sit in the order given."""
    model = _Model(players, sizes)
    tables = first_guess(sorted(players, key=lambda name: (strengths or {}).get(name, 0)), sizes, meetings)
    uneven = len({firsts.get(name, 0) for name in players}) > 1
    aims: list[tuple[object, Callable[[], cp_model.LinearExpr]]] = [
        (meetings.rounds, lambda: model.repeats(meetings)),
        (strengths, lambda: model.spread(strengths or {})),
        (uneven, lambda: model.lateness(firsts)),
    ]
    repeats = (0, 0, True)
    for number, (weighed, build) in enumerate(aims):
        if not weighed:
            continue
        objective = build()
        tables = model.hint(tables)
        tables, value, fewest, proved = model.solve(objective, seed, effort)
        model.cp.add(objective <= value)
        if number == 0:
            repeats = (value, fewest, proved)
    return RoundSolution(tables, *repeats, uncovered=value if uneven else 0)
