"""``scoring.totals`` of many tables that each differ from one table by a move: what a greedy pick scores.

A pick scores the table after each option of a decision. Each option changes one player or two, and most leave
what a player's end-game scoring counts as it was: a player's end-game cards, monasteries and voyages count their
cards, monasteries, voyages, influence and crowns; the influence tiles rank every player's discs. ``Rescoring``
keeps those parts of the table before the decision and counts a part again only where an option changed what it
counts. The states share what a move leaves unchanged (``rules.tx.Tx`` copies references), so "unchanged" is
"the same object": a part found changed that is not is only counted again, never wrong.
"""

from __future__ import annotations

from coimbra_events.rules.scoring import end_game_points, leftover_points, tile_points, tile_points_by_rank, totals
from coimbra_events.state import GameState, PlayerState


class Rescoring:
    """``totals`` of tables a move away from ``state`` (the options of one decision), the same figures counted for
    less (module docstring). ``state`` must stay as it is while this is used."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        n = len(state.players)
        self._by_rank = tile_points_by_rank(state)
        self._end = [0] * n  # each player's end-game points in ``state``, once counted (``_known``)
        self._known = [False] * n
        self._tiles: list[int] | None = None  # the influence tiles' points in ``state``, once counted

    def totals(self, after: GameState) -> list[int]:
        """``scoring.totals(after)``."""
        before = self.state
        olds, news = before.players, after.players
        if after.catalog is not before.catalog or after.scoring_tiles is not before.scoring_tiles or len(news) != len(olds):
            return totals(after)
        out: list[int] = []
        moved = False
        for k in range(len(news)):
            pl, old = news[k], olds[k]
            if pl is not old and (pl.influence is not old.influence or pl.arrivals is not old.arrivals):
                moved = True
            end = self._end_of(k) if pl is old or _same_end_game(pl, old) else end_game_points(after, pl)
            out.append(pl.points + leftover_points(after, pl) + end)
        tiles = tile_points(news, self._by_rank) if moved else self._tiles_before()
        for k in range(len(out)):
            out[k] += tiles[k]
        return out

    def _end_of(self, k: int) -> int:
        if not self._known[k]:
            self._end[k] = end_game_points(self.state, self.state.players[k])
            self._known[k] = True
        return self._end[k]

    def _tiles_before(self) -> list[int]:
        tiles = self._tiles
        if tiles is None:
            tiles = self._tiles = tile_points(self.state.players, self._by_rank)
        return tiles


def _same_end_game(pl: PlayerState, old: PlayerState) -> bool:
    """Whether ``pl`` holds what ``old`` held of all that a player's end-game cards, monasteries and voyages count
    (``effects.SCORED``)."""
    return (pl.cards is old.cards and pl.start_cards is old.start_cards and pl.monasteries is old.monasteries
            and pl.voyages is old.voyages and pl.influence is old.influence and pl.crowns_total == old.crowns_total)

