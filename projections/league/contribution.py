"""What one finished game adds to the league: a row per seat, scored by the rules core.

A seat's place, total and points by source come from ``final_scores`` on the
game's final state (the one scoring of the engine, tie rule included: most
points, then most coins and guards left, then a shared place); the profile
facts (tracks, income per track, voyages, monasteries, cards by category,
start choices) come from the same fold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.players import person_key
from coimbra_events.rules.scoring import final_scores
from coimbra_events.state import GameState
from projections.league.fold import GameFold
from projections.naming import name_of, space_name

SOURCES: tuple[tuple[str, str], ...] = (
    ("during play", "during_play"),
    ("influence tiles", "influence_tiles"),
    ("end-game cards", "end_game_cards"),
    ("monasteries", "monasteries"),
    ("voyages", "voyages"),
    ("leftover", "leftover"),
)
"""Sources of points as ``PlayerScore.sources`` names them, and the column each is kept in."""


@dataclass(frozen=True)
class Seat:
    """One player's result in one finished game."""

    seat: int
    spelling: str
    key: str
    place: int
    shared: bool
    """whether another seat holds the same place (the tie rule left them level)"""
    total: int
    sources: tuple[int, ...]
    resources_left: int
    facts: Mapping[str, Any]
    """tracks, income per track, voyages, monasteries, cards by category, start choices (see ``seats_of``)"""


def seats_of(fold: GameFold) -> tuple[Seat, ...]:
    """The seats of a finished game, in seating order of the header."""
    state, observed = fold.final()
    if not state.over:
        return ()
    cards = state.catalog.characters
    seats = []
    sheets = final_scores(state)
    places = [sheet.place for sheet in sheets]
    for sheet in sheets:
        i = state.index[sheet.name]
        pl = state.players[i]
        by_source = sheet.sources()
        bought: dict[str, int] = {}
        for card in pl.cards:
            bought[cards[card].category] = bought.get(cards[card].category, 0) + 1
        facts = {
            "influence": dict(zip(TRACKS, pl.influence)),
            "income": {t: observed.income[i][t] for t in TRACKS if t in observed.income[i]},
            "voyages": len(pl.voyages),
            "monasteries": len(pl.monasteries),
            "cards": bought,
            "start": {
                "first": pl.start_choices[0] if pl.start_choices else None,  # "cards" or "pilgrim"
                "cards": [name_of(state.catalog, c) for c in pl.start_cards],
                "space": _space(state, observed.start_space[i]),
            },
        }
        seats.append(Seat(i, sheet.name, person_key(sheet.name), sheet.place, places.count(sheet.place) > 1, sheet.total,
                          tuple(by_source[s] for s, _ in SOURCES), sheet.resources_left, facts))
    return tuple(sorted(seats, key=lambda s: s.seat))

def _space(state: GameState, space: str | None) -> str | None:
    """A start space as people call it: the catalog's name for it, else its id."""
    return None if space is None else space_name(state.catalog, space) or space
