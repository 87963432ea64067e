"""The luck of a random entry, measured so that a player's luck over a game keeps its sign from one seed to the next.

An outcome's luck, for each player, is their winning chances after the outcome recorded minus those before it (the
average over every outcome possible then: playouts from the table before it draw the outcome afresh). Both sides are
played out on the same streams, and so are all the entries of one **run** of random entries that follow each other
with no decision between them (the setup's draws; a round's deal and roll): every playout of the run draws entry
``j``'s outcome from a stream of that entry's own and plays on with the run's streams. So the table after one entry
of a run, measured by that entry, is measured on exactly the playouts the next entry measures the table before it
on (the same table, the same streams), and over a run the luck telescopes: its sum, per playout, is the playouts
from the table after the run's last outcome minus those from the table before its first. The spread of a total is
then that of one difference per run, not of two values per entry.

Where no player can be favoured yet (the table before the seating is drawn: ``exchangeable``), every player's
chance is the same, so each playout of such a table counts its first places shared out evenly among the players
(``evened``): the same mean, and no spread but that of how many finish first. The setup's run then measures only
the table after its last outcome, and the luck of the draws before the seating is exactly what they change in the
chance of a shared first place.

Each luck comes with its standard error, from the spread of its paired differences (playout ``k`` after minus
playout ``k`` before); a player's total over the game with its own, from the spread of each run's summed differences
(runs use streams of their own, so their errors add in quadrature): the 95 % interval is 1.96 of them each way.
"""

from __future__ import annotations

import math
import random
from itertools import groupby
from typing import Final, Sequence

from coimbra_events.analysis.playouts import Streams, play_out
from coimbra_events.events import GameEvent
from coimbra_events.rules.core import legal
from coimbra_events.rules.fast import Fold
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.state import GameState, PlayerState

Firsts = tuple[float, ...]
"""One playout's first places, every player's 1 or 0 (shared out evenly where the table is ``exchangeable``)."""

Z95 = 1.96
"""Standard errors each way of a 95 % interval."""


class Luck:
    """One random entry's playouts: every player's first places, playout by playout, from the table before it and from
    the table after the outcome recorded (paired: playout ``k`` of each on the same streams)."""

    def __init__(self, before: Sequence[Firsts], after: Sequence[Firsts]) -> None:
        self.before = before
        self.after = after

    @property
    def n(self) -> int:
        return len(self.after)

    def differences(self, player: int) -> tuple[float, ...]:
        """Playout by playout, ``player``'s first place after the outcome less before it: -1, 0 or 1 (between them
        where a side is ``exchangeable``)."""
        return tuple(float(a[player]) - float(b[player]) for a, b in zip(self.after, self.before))

    def points(self, player: int) -> float:
        """Percentage points of P(first) the outcome gave ``player`` (negative: it took them)."""
        return 100 * sum(self.differences(player)) / self.n

    def se(self, player: int) -> float:
        """The standard error of ``points(player)``, from the spread of the paired differences."""
        return standard_error([self.differences(player)])

    def win_after(self) -> tuple[float, ...]:
        """Every player's P(first) after the outcome recorded."""
        return tuple(sum(a[p] for a in self.after) / self.n for p in range(len(self.after[0])))

    def shared(self) -> float:
        """Points by which the outcome raised the expected number of players finishing first beyond one (a first
        place shared after the tie break counts for each): what every player's luck sums to."""
        extra = sum(sum(a) - sum(b) for a, b in zip(self.after, self.before))
        return 100 * extra / self.n


def luck(state: GameState, outcome: GameEvent, seed: int, entry: int, run: int, playouts: int) -> Luck:
    """Entry ``entry`` (of the run of random entries that starts at line index ``run``), ``outcome`` recorded, measured
    on ``playouts`` playouts each side."""
    return run_luck([(state, outcome, entry)], seed, run, playouts)[0]


def run_luck(steps: Sequence[tuple[GameState, GameEvent, int]], seed: int, run: int, playouts: int) -> list[Luck]:
    """Consecutive entries of the run that starts at line index ``run`` (each: the table before it, its outcome, its
    line index), each measured as ``luck`` measures it alone, but every table played out once: the table after one
    entry is the next's before, and measured apart it was played out twice (a third of the luck's playouts on the
    2-player fixture, most of them the setup's, which play a whole game)."""
    assert all(b[2] == a[2] + 1 for a, b in zip(steps, steps[1:])), "consecutive entries"
    state, _, first = steps[0]
    tables = [chances(state, seed, first, run, playouts)]
    for state, outcome, entry in steps:
        tables.append(chances(Fold().apply(state, outcome), seed, entry + 1, run, playouts))
    return [Luck(before, after) for before, after in zip(tables, tables[1:])]


def chances(state: GameState, seed: int, entry: int, run: int, playouts: int) -> list[Firsts]:
    """Every player's first places in ``playouts`` playouts from ``state``, the table before line index ``entry``: the
    outcomes still to draw in the run are drawn, each from its entry's own stream, then the game is played on with the
    run's streams (``Streams(seed, run, k)``), so that the same table is measured alike by any entry of the run; shared
    out evenly where ``state`` is ``exchangeable``."""
    fold = Fold(scratch=True)
    found: list[Firsts] = []
    for k in range(playouts):
        table, j = state, entry
        while isinstance(space := legal(table), OutcomeSpace):
            table = fold.apply(table, space.sample(random.Random(f"first:{seed}:{j}:{k}")))
            j += 1
        found.append(tuple(float(f) for f in play_out(table, Streams(seed, run, k), fold).first))
    return [evened(f) for f in found] if exchangeable(state) else found


def exchangeable(state: GameState) -> bool:
    """Whether no player can be favoured yet: the seating is not drawn and every player's board is alike but for the
    name and colour. Seats, turn order and start groups all come from the seating and later draws, the rules read
    neither name nor colour, and the playout policy values every seat alike (its picks left to chance are keyed by
    name, but as likely whatever the name): so the players' chances of first place are the same, whatever the
    table's draws before the seating."""
    if state.order:
        return False
    boards = {tuple(getattr(p, f) for f in PlayerState.FIELDS if f not in _COSMETIC) for p in state.players}
    return len(boards) == 1


_COSMETIC: Final = ("name", "color")
"""What tells the players apart before the seating, and no rule reads."""


def evened(firsts: Firsts) -> Firsts:
    """One playout's first places shared out evenly among the players: each player's chance estimated by the mean
    over all of them, as good an estimate of it where they are ``exchangeable`` and with no spread but that of how
    many finish first (none with two players and no shared first place)."""
    share = sum(firsts) / len(firsts)
    return (share,) * len(firsts)


def standard_error(differences: Sequence[Sequence[float]]) -> float:
    """The standard error, in points, of the mean of the summed ``differences`` (one sequence per entry of a run, all
    of one length, playout by playout): the run's entries are summed playout by playout before the spread is taken."""
    sums = [sum(column) for column in zip(*differences)]
    n = len(sums)
    if n < 2:
        return 0.0
    mean = sum(sums) / n
    return 100 * math.sqrt(sum((s - mean) ** 2 for s in sums) / (n - 1) / n)


def total(entries: Sequence[tuple[int, float, Sequence[float]]]) -> tuple[float, float]:
    """A player's luck over the entries given (each: its run, its luck in points, its paired differences): the sum, and
    its standard error (each run's from its summed differences, the runs' added in quadrature)."""
    variance = sum(standard_error([d for _, _, d in together]) ** 2
                   for _, together in groupby(sorted(entries, key=lambda e: e[0]), key=lambda e: e[0]))
    return sum(points for _, points, _ in entries), math.sqrt(variance)


__all__ = ("Z95", "Firsts", "Luck", "luck", "run_luck", "chances", "exchangeable", "evened", "standard_error", "total")
