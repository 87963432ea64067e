"""Final scoring: every victory point of every player, by source.

The scoring track holds the points earned during play (by source: income,
cards, monasteries, exchanges ...). At the end come the influence scoring tiles
(rank on each track; on one space the disc that arrived first is ahead; a disc
on space 0 scores nothing), end-game card bonuses, monastery conditions, voyage
tasks and any leftover conversion the catalog sets. Places: most points;
tied, more coins + guards left (the catalog's tie break); still tied, the
place is shared (GAPS 11).
"""

from __future__ import annotations

from dataclasses import dataclass

from coimbra_events.effect_kinds import TRACKS
from coimbra_events.rules import effects
from coimbra_events.state import GameState, PlayerState


@dataclass(frozen=True)
class PlayerScore:
    """One player's score sheet: points per source, total and place."""

    name: str
    during_play: tuple[tuple[str, int], ...]
    influence_tiles: tuple[tuple[str, int], ...]
    cards: tuple[tuple[str, int], ...]
    monasteries: tuple[tuple[str, int], ...]
    voyages: tuple[tuple[str, int], ...]
    leftover: int
    total: int
    resources_left: int
    place: int

    def sources(self) -> dict[str, int]:
        """Points by kind of source, adding up to ``total``."""
        return {
            "during play": sum(v for _, v in self.during_play),
            "influence tiles": sum(v for _, v in self.influence_tiles),
            "end-game cards": sum(v for _, v in self.cards),
            "monasteries": sum(v for _, v in self.monasteries),
            "voyages": sum(v for _, v in self.voyages),
            "leftover": self.leftover,
        }


def track_ranking(state: GameState, track: str) -> list[PlayerState]:
    """Players ahead on a track first; same space: the earlier arrival is ahead; space 0 left out."""
    k = TRACKS.index(track)
    ranked = [p for p in state.players if p.influence[k] > 0]
    return sorted(ranked, key=lambda p: (-p.influence[k], p.arrivals[k]))


def influence_tile_points(state: GameState) -> dict[str, list[tuple[str, int]]]:
    """Points each player gets from the four influence scoring tiles."""
    players = len(state.players)
    out: dict[str, list[tuple[str, int]]] = {p.name: [] for p in state.players}
    for track, tile_id in zip(TRACKS, state.scoring_tiles):
        points = state.catalog.scoring_points(tile_id, players)
        for rank, pl in enumerate(track_ranking(state, track)):
            if rank < len(points) and points[rank]:
                out[pl.name].append((f"{track} track, rank {rank + 1} ({tile_id})", points[rank]))
    return out


def _end_game_cards(state: GameState, pl: PlayerState) -> list[tuple[str, int]]:
    cards = state.catalog.characters
    items = [(c, effects.score(state.catalog, pl, cards[c].effects)) for c in pl.owned_cards if cards[c].timing == "end_game"]
    return [(c, v) for c, v in items if v]


def _monasteries(state: GameState, pl: PlayerState) -> list[tuple[str, int]]:
    ms = state.catalog.monasteries
    items = [(m, effects.score(state.catalog, pl, ms[m].effects)) for m in pl.monasteries if ms[m].timing == "end_game"]
    return [(m, v) for m, v in items if v]


def _voyages(state: GameState, pl: PlayerState) -> list[tuple[str, int]]:
    vs = state.catalog.voyages
    items = [(v, effects.score(state.catalog, pl, vs[v].effects)) for v in pl.voyages]
    return [(v, p) for v, p in items if p]


def _leftover(state: GameState, pl: PlayerState) -> int:
    cat = state.catalog
    coins = pl.coins // cat.leftover_coins_per_point if cat.leftover_coins_per_point else 0
    guards = pl.guards // cat.leftover_guards_per_point if cat.leftover_guards_per_point else 0
    return coins + guards


def final_scores(state: GameState) -> list[PlayerScore]:
    """Score sheets for all players, best first (provisional while the game is not over)."""
    tiles = influence_tile_points(state)
    sheets = []
    for pl in state.players:
        parts = {
            "influence_tiles": tuple(tiles[pl.name]),
            "cards": tuple(_end_game_cards(state, pl)),
            "monasteries": tuple(_monasteries(state, pl)),
            "voyages": tuple(_voyages(state, pl)),
        }
        leftover = _leftover(state, pl)
        total = pl.points + leftover + sum(v for part in parts.values() for _, v in part)
        sheets.append((pl, parts, leftover, total))
    by_resources = state.catalog.tie_break == "resources"
    keys = [(-total, -(pl.coins + pl.guards) if by_resources else 0) for pl, _, _, total in sheets]
    out = [
        PlayerScore(name=pl.name, during_play=pl.points_by_source, leftover=leftover, total=total,
                    resources_left=pl.coins + pl.guards, place=1 + sum(1 for k in keys if k < key), **parts)
        for (pl, parts, leftover, total), key in zip(sheets, keys)
    ]
    return sorted(out, key=lambda s: (s.place, s.name))
