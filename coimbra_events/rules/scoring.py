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

from typing import Final

from coimbra_events import record
from coimbra_events.catalog.effect_kinds import TRACKS, TRACK_INDEX, Effect
from coimbra_events.rules import effects
from coimbra_events.rules.narration import PLACE, POINTS, Record, flat
from coimbra_events.state import GameState, PlayerState


class PlayerScore(record.Record):
    """One player's score sheet: points per source, total and place."""

    FIELDS = ("name", "during_play", "influence_tiles", "cards", "monasteries", "voyages", "leftover", "total",
              "resources_left", "place")
    COMPARED = FIELDS

    def __init__(
        self,
        name: str,
        during_play: tuple[tuple[str, int], ...],
        influence_tiles: tuple[tuple[str, int], ...],
        cards: tuple[tuple[str, int], ...],
        monasteries: tuple[tuple[str, int], ...],
        voyages: tuple[tuple[str, int], ...],
        leftover: int,
        total: int,
        resources_left: int,
        place: int,
    ) -> None:
        self.name: Final = name
        self.during_play: Final = during_play
        self.influence_tiles: Final = influence_tiles
        self.cards: Final = cards
        self.monasteries: Final = monasteries
        self.voyages: Final = voyages
        self.leftover: Final = leftover
        self.total: Final = total
        self.resources_left: Final = resources_left
        self.place: Final = place

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
    players = state.players
    return [players[seat] for seat in ranked_seats(players, TRACK_INDEX[track])]


def ranked_seats(players: tuple[PlayerState, ...], k: int) -> list[int]:
    """``track_ranking``'s players of track ``k``, by seat."""
    ranked = [(-p.influence[k], p.arrivals[k], seat) for seat, p in enumerate(players) if p.influence[k] > 0]
    ranked.sort()  # the seat last, as a stable sort by the first two would leave players tied in both
    return [seat for _, _, seat in ranked]


class Item:
    """One source of end-game points of one player, with the facts that decided it (``points`` may be 0)."""

    def __init__(self, part: str, source: str, points: int, facts: dict[str, object]) -> None:
        self.part: Final = part
        self.source: Final = source
        self.points: Final = points
        self.facts: Final = facts


PARTS: Final[tuple[str, ...]] = ("influence_tiles", "cards", "monasteries", "voyages")
"""The kinds of end-game scoring, in the order they are scored (leftover coins and guards come last)."""


def tile_ranks(state: GameState) -> list[tuple[int, str, str, int, int]]:
    """Every place that scores on an influence scoring tile: (seat, track, tile, rank from 1, points), track by track.

    What both the score sheets (``influence_tile_items``, with their facts) and a playout's bare totals read."""
    players = len(state.players)
    out: list[tuple[int, str, str, int, int]] = []
    for track, tile_id in zip(TRACKS, state.scoring_tiles):
        points = state.catalog.scoring_points(tile_id, players)
        for rank, pl in enumerate(track_ranking(state, track)):
            if rank < len(points) and points[rank]:
                out.append((state.index[pl.name], track, tile_id, rank + 1, points[rank]))
    return out


def tile_points_by_rank(state: GameState) -> list[tuple[int, ...]]:
    """The points by rank of each track's influence scoring tile (``TRACKS``' order)."""
    players = len(state.players)
    return [state.catalog.scoring_points(tile_id, players) for tile_id in state.scoring_tiles]


def tile_points(players: tuple[PlayerState, ...], by_rank: list[tuple[int, ...]]) -> list[int]:
    """Each player's points (by seat) from the influence scoring tiles, ``by_rank[k]`` the points by rank of track
    ``k``'s tile (``tile_points_by_rank``): ``tile_ranks``' points added up, without the facts."""
    out = [0] * len(players)
    for k in range(len(by_rank)):
        points = by_rank[k]
        seats = ranked_seats(players, k)
        for rank in range(min(len(points), len(seats))):
            out[seats[rank]] += points[rank]
    return out


def influence_tile_items(state: GameState) -> dict[str, list[Item]]:
    """What each player gets from the four influence scoring tiles, by rank on each track."""
    out: dict[str, list[Item]] = {p.name: [] for p in state.players}
    for seat, track, tile_id, rank, points in tile_ranks(state):
        pl = state.players[seat]
        facts: dict[str, object] = {"track": track, "tile": tile_id, "rank": rank, "space": pl.influence[TRACK_INDEX[track]],
                                    "points_by_rank": state.catalog.scoring_points(tile_id, len(state.players))}
        out[pl.name].append(Item("influence_tiles", f"{track} track, rank {rank} ({tile_id})", points, facts))
    return out


def end_game_items(state: GameState, pl: PlayerState) -> list[Item]:
    """A player's end-game cards, monasteries and voyages, each with its points (those worth 0 too) and what
    it counted (``counted``: the scorer's own account, effect by effect)."""
    return [_item(part, kind, ident, effects.score(state.catalog, pl, scored))
            for part, kind, ident, scored in _end_game_sources(state, pl)]


def end_game_points(state: GameState, pl: PlayerState) -> int:
    """The points of ``end_game_items`` alone, without what each counted (a playout asks for the totals alone)."""
    total = 0
    for _, _, _, scored in _end_game_sources(state, pl):
        total += effects.score_points(state.catalog, pl, scored)
    return total


def _end_game_sources(state: GameState, pl: PlayerState) -> list[tuple[str, str, str, tuple[Effect, ...]]]:
    """What scores for a player at the end, in scoring order: (part, kind, id, effects) of each end-game card,
    monastery and voyage."""
    cat = state.catalog
    cards, ms, vs = cat.characters, cat.monasteries, cat.voyages
    out = [("cards", "card", c, cards[c].effects) for c in pl.owned_cards if cards[c].timing == "end_game"]
    out += [("monasteries", "monastery", m, ms[m].effects) for m in pl.monasteries if ms[m].timing == "end_game"]
    out += [("voyages", "voyage", v, vs[v].effects) for v in pl.voyages]
    return out


def _item(part: str, kind: str, ident: str, scored: tuple[int, tuple[effects.Counted, ...]]) -> Item:
    points, counted = scored
    return Item(part, ident, points, {kind: ident, "counted": counted})


def leftover_item(state: GameState, pl: PlayerState) -> Item:
    """Points for the coins and guards left, at the catalog's rates (none when it sets none)."""
    cat = state.catalog
    return Item("leftover", "leftover", leftover_points(state, pl), {"coins": pl.coins, "guards": pl.guards,
                                                          "coins_per_point": cat.leftover_coins_per_point,
                                                          "guards_per_point": cat.leftover_guards_per_point})


def leftover_points(state: GameState, pl: PlayerState) -> int:
    """The points of the coins and guards a player has left, at the catalog's rates (none when it sets none)."""
    cat = state.catalog
    coins = pl.coins // cat.leftover_coins_per_point if cat.leftover_coins_per_point else 0
    guards = pl.guards // cat.leftover_guards_per_point if cat.leftover_guards_per_point else 0
    return coins + guards


def scored_items(state: GameState) -> list[list[Item]]:
    """Each player's end-game points (by seat), source by source in scoring order: influence tiles, cards,
    monasteries, voyages, then the leftover coins and guards."""
    tiles = influence_tile_items(state)
    return [tiles[pl.name] + end_game_items(state, pl) + [leftover_item(state, pl)] for pl in state.players]


def totals(state: GameState, items: list[list[Item]] | None = None) -> list[int]:
    """Each player's final points (by seat): those of play and of every end-game item (what a playout ends on).

    ``items``: the players' ``scored_items``, when they are at hand already. Without them, the influence tiles, the
    end-game cards, monasteries and voyages and the leftover are counted without the facts a score sheet shows (a
    playout asks for the totals alone).
    """
    if items is not None:
        return [pl.points + sum([item.points for item in mine]) for pl, mine in zip(state.players, items)]
    out = [pl.points + leftover_points(state, pl) + end_game_points(state, pl) for pl in state.players]
    tiles = tile_points(state.players, tile_points_by_rank(state))
    for seat in range(len(out)):
        out[seat] += tiles[seat]
    return out


def final_scores(state: GameState, items: list[list[Item]] | None = None) -> list[PlayerScore]:
    """Score sheets for all players, best first (provisional while the game is not over).

    ``items``: the players' ``scored_items``, when they are at hand already.
    """
    scored = scored_items(state) if items is None else items
    points = totals(state, scored)
    placed = places(state, points)
    out = [
        PlayerScore(name=pl.name, during_play=pl.points_by_source, leftover=mine[-1].points, total=total,
                    resources_left=pl.coins + pl.guards, place=place,
                    **{part: tuple((i.source, i.points) for i in mine if i.part == part and i.points) for part in PARTS})
        for pl, mine, total, place in zip(state.players, scored, points, placed)
    ]
    return sorted(out, key=lambda s: (s.place, s.name))


def places(state: GameState, totals: list[int]) -> list[int]:
    """Each player's place (by seat) for these totals: most points first; tied, more coins and guards left when
    the catalog's tie break says so; still tied, the place is shared (GAPS 11)."""
    by_resources = state.catalog.tie_break == "resources"
    keys = [(-total, -(pl.coins + pl.guards) if by_resources else 0) for pl, total in zip(state.players, totals)]
    out: list[int] = []
    for key in keys:
        place = 1
        for other in keys:
            if other < key:
                place += 1
        out.append(place)
    return out


def end_game_told(state: GameState) -> list[Record]:
    """The end-game scoring as the table does it: each player's scoring disc moved source by source, then the places."""
    told: list[Record] = []
    totals: list[int] = []
    for i, (pl, mine) in enumerate(zip(state.players, scored_items(state))):
        running = pl.points
        for item in mine:
            if item.points:
                told.append((END_RULES[item.part], i, POINTS, "", running, running + item.points, -1, item.points,
                                 item.source, flat(item.facts)))
                running += item.points
        totals.append(running)
    placed = places(state, totals)
    tie_break = state.catalog.tie_break
    for i in sorted(range(len(placed)), key=lambda k: (placed[k], state.players[k].name)):
        pl = state.players[i]
        shared = [p.name for k, p in enumerate(state.players) if placed[k] == placed[i] and k != i]
        told.append(("END.places", i, PLACE, "", 0, placed[i], -1, 0, "",
                     ("total", totals[i], "resources_left", pl.coins + pl.guards, "tie_break", tie_break,
                      "shared_with", tuple(shared))))
    return told


END_RULES: Final[dict[str, str]] = {
    "influence_tiles": "END.influence-tiles", "cards": "END.cards", "monasteries": "END.monasteries",
    "voyages": "END.voyages", "leftover": "END.leftover",
}
"""The rule id of each kind of end-game scoring."""
