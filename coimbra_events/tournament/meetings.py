"""Who has met whom, and in which rounds: what the next round tries not to repeat."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

Pair = tuple[str, str]
"""Two players, in sorted order."""


def repeat_weight(times: int) -> int:
    """What seating a pair together again weighs when they have met ``times`` times: 1, then 4, 9...

    Growing faster than the count, so that two pairs meeting a second time weigh less than one pair
    meeting a third time: repeats are spread over the field, not heaped on a few."""
    return times * times


def pair(a: str, b: str) -> Pair:
    """The pair of ``a`` and ``b`` whichever is named first."""
    return (a, b) if a <= b else (b, a)


def pairs_at(table: Iterable[str]) -> list[Pair]:
    """Every pair of players who meet at ``table``."""
    return [pair(a, b) for a, b in combinations(table, 2)]


@dataclass
class Meetings:
    """The rounds (numbered from 1) in which each pair of players has met so far."""

    rounds: dict[Pair, list[int]] = field(default_factory=dict)

    def times(self, a: str, b: str) -> int:
        """How often ``a`` and ``b`` have met."""
        return len(self.rounds.get(pair(a, b), ()))

    def repeats(self, tables: Sequence[Sequence[str]]) -> list[Pair]:
        """The pairs that ``tables`` would seat together again."""
        return [p for table in tables for p in pairs_at(table) if p in self.rounds]

    def cost(self, tables: Sequence[Sequence[str]]) -> int:
        """What ``tables`` repeat, each repeated meeting weighed by ``repeat_weight``."""
        return sum(repeat_weight(len(self.rounds[p])) for p in self.repeats(tables))

    def add(self, number: int, tables: Sequence[Sequence[str]]) -> None:
        """Record that round ``number`` seated ``tables``."""
        for p in (p for table in tables for p in pairs_at(table)):
            self.rounds.setdefault(p, []).append(number)
