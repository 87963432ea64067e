"""Who sits first at each table: the seats turn so that nobody is first player much more often than others.

A table holds at most four players, so its 24 orders at most are simply all tried: no solver or library
is needed for a choice that small.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations

SEATS = 4


@dataclass
class SeatCounts:
    """How often each player has sat in each seat (0 is the first player)."""

    counts: dict[str, list[int]] = field(default_factory=dict)

    def of(self, name: str) -> list[int]:
        """``name``'s count for each seat."""
        return self.counts.get(name, [0] * SEATS)

    def firsts(self) -> dict[str, int]:
        """How often each player who has played has sat first."""
        return {name: seats[0] for name, seats in self.counts.items()}

    def order(self, table: Sequence[str]) -> tuple[str, ...]:
        """``table``'s players in seat order: the first seat to whoever has had it least, then the second seat
        likewise among the rest, and so on; a tie keeps the order given."""
        return min(permutations(table), key=lambda seated: [self.of(name)[seat] for seat, name in enumerate(seated)])

    def add(self, tables: Sequence[Sequence[str]]) -> None:
        """Count the seats of one round's ``tables``."""
        for table in tables:
            for seat, name in enumerate(table):
                self.counts.setdefault(name, [0] * SEATS)[seat] += 1
