"""Why the best option is better: what it gains over the option played, by source of points.

A grade says how much a decision lost; a player asks where. The best option and the option played are played out
again on paired playouts (the same streams for both, numbered apart from the grading's), and the acting player's
final points are split by source as the rules core's scoring splits them (``rules.scoring``): points scored during
play by what gave them (income, an exchange, a card, a monastery...), then the end-game parts (influence tiles,
end-game cards, monasteries, voyages, leftover). Cards and monasteries count together whether they scored during
play or at the end. No value of the catalog is written here: the sources are the ones the scoring reports.
"""

from __future__ import annotations

from typing import Final

from coimbra_events.analysis.evaluation import Settings
from coimbra_events.analysis.playouts import Streams, final_table
from coimbra_events.events import GameEvent
from coimbra_events.rules.fast import Fold
from coimbra_events.rules.scoring import scored_items
from coimbra_events.state import GameState

GAINS: Final = 1 << 21
"""Playouts of the gains are numbered from here: streams of their own, apart from the grading's (``SETTLING``)."""

PARTS: Final = {"influence_tiles": "influence tiles", "cards": "cards", "monasteries": "monasteries",
                "voyages": "voyages", "leftover": "leftover"}
"""The end-game parts of the scoring (``scoring.PARTS`` and the leftover), in words."""


def points_by_source(state: GameState, seat: int) -> dict[str, int]:
    """A finished game's final points of the player in ``seat``, by source (they add up to the final score): during
    play by what scored them (a card's or a monastery's points counted with the end-game ones of its kind), then the
    end-game parts."""
    catalog, pl = state.catalog, state.players[seat]
    out: dict[str, int] = {}
    for source, points in pl.points_by_source:
        kind = "cards" if source in catalog.characters else "monasteries" if source in catalog.monasteries else source
        out[kind] = out.get(kind, 0) + points
    for item in scored_items(state)[seat]:
        kind = PARTS[item.part]
        out[kind] = out.get(kind, 0) + item.points
    return out


def expected_sources(start: GameState, seat: int, settings: Settings, entry: int) -> dict[str, float]:
    """The mean points by source of the player in ``seat`` over ``settings.playouts`` playouts from ``start``."""
    sums: dict[str, int] = {}
    fold = Fold(scratch=True)
    for k in range(settings.playouts):
        for kind, points in points_by_source(final_table(start, Streams(settings.seed, entry, GAINS + k), fold), seat).items():
            sums[kind] = sums.get(kind, 0) + points
    return {kind: total / settings.playouts for kind, total in sums.items()}


def gains(state: GameState, best: GameEvent, played: GameEvent, settings: Settings, entry: int) -> tuple[tuple[str, float], ...]:
    """What ``best`` gains over ``played`` for the player due to act in ``state``: the difference of their expected
    points by source, on paired playouts, largest first (by size), sources that do not differ left out."""
    assert state.pending is not None, "gains are those of a decision"
    seat = state.index[state.pending.actor]
    ahead = expected_sources(Fold().apply(state, best), seat, settings, entry)
    behind = expected_sources(Fold().apply(state, played), seat, settings, entry)
    differences = {kind: ahead.get(kind, 0.0) - behind.get(kind, 0.0) for kind in {*ahead, *behind}}
    shown = [(kind, round(value, 2)) for kind, value in differences.items() if round(value, 2)]
    return tuple(sorted(shown, key=lambda item: (-abs(item[1]), item[0])))
