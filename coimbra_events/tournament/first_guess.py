"""A round's first guess, for the solver to start from and improve: a greedy seating, table after table."""

from __future__ import annotations

from collections.abc import Sequence

from coimbra_events.tournament.meetings import Meetings, repeat_weight


def first_guess(players: Sequence[str], sizes: Sequence[int], meetings: Meetings) -> tuple[tuple[str, ...], ...]:
    """Each table in turn: the first player left, then again and again whoever adds the least weight of repeats,
    the earliest in ``players`` on a tie (so players in order of strength sit with their neighbours)."""
    left, tables = list(players), []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(left, key=lambda p: sum(repeat_weight(meetings.times(p, q)) for q in table))
            left.remove(best)
            table.append(best)
        tables.append(tuple(table))
    return tuple(tables)
