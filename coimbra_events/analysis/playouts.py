"""One playout: the game played on from a table to its end by the playout policy, on the rules core's fast path.

No peeking: a playout starts from a state, and the state holds only what had happened by then;
every later roll and deal is drawn from the outcome spaces of the rules core (the dice of the
pool, the deck's cards not dealt yet), never read from the record. The table and the bots draw
from two streams, so that the playouts of two options of one decision, seeded alike, roll the
same dice even when the players' choices part; and where the policy leaves a pick to chance (among options it
values alike) it picks as the bots do, by where each decision falls, not by how many draws came before, so it picks
alike again wherever the two games meet the same options (common random numbers that stay common:
``coimbra_events/bots.py``, ``coimbra_events/analysis/policy.py``).
"""

from __future__ import annotations

import random
import zlib
from typing import Final, Sequence

from coimbra_events.events import GameEvent
from coimbra_events.analysis.policy import NAME, play_to_end, policy
from coimbra_events.rules.core import legal
from coimbra_events.rules.fast import Fold
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.rules.scoring import places, totals
from coimbra_events.state import GameState

POLICY: Final = NAME
"""The playout policy (``coimbra_events/analysis/policy.py``): every seat played by it; until METHOD 4, ``coimbra simulate``'s
bots (a kind of decision, then one of that kind), their picks keyed by where each decision falls."""


class Streams:
    """The seeded streams of playout ``k``: the table's draws, and the key of the players' picks left to chance
    (``bots.coupled_choice``).

    Seeded from text (``random.Random`` hashes it with SHA-512; the bots' key is its CRC-32), so the same
    analysis seed, entry and playout number give the same draws in any process and any order of work.
    """

    def __init__(self, seed: int, entry: int, k: int) -> None:
        self.table = random.Random(f"table:{seed}:{entry}:{k}")
        self.bots = zlib.crc32(f"bots:{seed}:{entry}:{k}".encode())


class Result:
    """The end of one playout: who finished first (shared first places count for each) and every final score."""

    __slots__ = ("first", "scores")

    def __init__(self, first: tuple[bool, ...], scores: tuple[int, ...]) -> None:
        self.first = first
        self.scores = scores


def play_out(state: GameState, streams: Streams, fold: Fold | None = None) -> Result:
    """Play from ``state`` to the end (``final_table``): the table draws what is possible now, the playout policy
    chooses for every player among the legal options.

    The game is played on a scratch fold (``Fold(scratch=True)``: one table refilled at every event, none kept),
    ``fold`` if given, to carry from one playout to the next; ``state`` is never changed."""
    return outcome(final_table(state, streams, fold or Fold(scratch=True)))


def final_table(state: GameState, streams: Streams, fold: Fold) -> GameState:
    """The game played on from ``state`` to its end by the playout policy in every seat, the final table itself:
    what ``play_out`` reads its places and scores from, and what the reasons split by source of points
    (``analysis.reasons``), so both read the same continuations."""
    seats = [policy(state)] * len(state.players)
    return play_to_end(state, streams.table, streams.bots, seats, fold)


def outcome(state: GameState) -> Result:
    """Places and final scores of a finished game (GAPS 11: a tie the tie break leaves is a shared place)."""
    points = totals(state)
    return Result(tuple(p == 1 for p in places(state, points)), tuple(points))


def legal_options(state: GameState) -> Sequence[GameEvent]:
    """The decisions the player due to act may take now (none when the table draws next)."""
    options = legal(state)
    return () if isinstance(options, OutcomeSpace) else options
