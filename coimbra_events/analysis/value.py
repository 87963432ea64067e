"""What a table, or a die drafted, is worth to a player, cheaply: the playout policy's valuations (``policy.py``).

- ``lead``: how far a player's score of the table as it stands (the rules core's own ``scoring.totals``: points so
  far, and what the end-game cards, monasteries, voyages, influence tiles and leftover would score were the game
  over now) is ahead of the best other player's.
- ``DraftWorth``: what a die is worth to the player drafting it, by the income its colour pays them in phase E at
  their influence on that track (the catalog's income table, read, not rewritten): the base amount at a weight per
  track (a coin, a guard or a pilgrim step against a point), plus the bonus points. Placing a die changes no
  player's score, so one ply of ``lead`` cannot tell a draft's options apart; this can. The weights are fitted by
  ``scripts/fit_policy.py`` (the best of a grid, by games against the greedy heuristic) for one catalog and shipped as
  data (``policy_weights.json``); for another catalog, ``PLAIN_UNITS``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

from coimbra_events import analysis
from coimbra_events.catalog import Catalog
from coimbra_events.catalog.effect_kinds import TRACK_INDEX, TRACKS
from coimbra_events.rules.income import die_color
from coimbra_events.state import GameState

WEIGHTS_FORMAT: Final = "coimbra-policy-weights"

WEIGHTS_FILE: Final = Path(analysis.__file__).with_name("policy_weights.json")
"""The fitted weights shipped with the package (``scripts/fit_policy.py`` writes them). Found beside the package's
``__init__.py``, which is never compiled: compiled, this module's own ``__file__`` names no real place (the fitted
weights were not found, and the compiled policy drafted by ``PLAIN_UNITS`` while the pure-Python one used them)."""

PLAIN_UNITS: Final[tuple[float, ...]] = (0.5, 0.5, 0.5, 1.0)
"""A unit of each track's income against a point, by ``TRACKS`` (the green track pays points), where none are fitted."""


def lead(now: list[int], seat: int) -> float:
    """How far ``seat``'s score of a table as it stands (``now``: every player's ``scoring.totals`` of it) is ahead of
    the best other player's (alone: the score)."""
    rest = [v for k, v in enumerate(now) if k != seat]
    return float(now[seat] - (max(rest) if rest else 0))


class DraftWorth:
    """What a die's income is worth to its drafter: ``units[k]`` points a unit of track ``TRACKS[k]``'s base amount."""

    def __init__(self, units: tuple[float, ...]) -> None:
        self.units = units

    def die(self, state: GameState, seat: int, die: str) -> float:
        """The worth to ``seat`` of the income ``die`` pays in phase E: its colour's track at their influence (a die
        of no track's colour, the white one: the best track)."""
        catalog, influence = state.catalog, state.players[seat].influence
        color = die_color(catalog, die)
        best = -1.0
        for track in (color,) if color in TRACK_INDEX else TRACKS:
            k = TRACK_INDEX[track]
            base, bonus = catalog.income_for(track, influence[k])
            best = max(best, base * self.units[k] + bonus)
        return best


_LOADED: Final[dict[str, DraftWorth]] = {}


def draft_worth(catalog: Catalog) -> DraftWorth:
    """The fitted draft worth for ``catalog`` (``PLAIN_UNITS`` where the shipped weights were fitted on another)."""
    found = _LOADED.get(catalog.sha256)
    if found is None:
        found = _LOADED[catalog.sha256] = DraftWorth(_read(catalog))
    return found


def _read(catalog: Catalog) -> tuple[float, ...]:
    if not WEIGHTS_FILE.exists():
        return PLAIN_UNITS
    data = json.loads(WEIGHTS_FILE.read_text())
    if data.get("format") != WEIGHTS_FORMAT or data.get("catalog") != catalog.sha256 or data.get("tracks") != list(TRACKS):
        return PLAIN_UNITS
    return tuple(float(u) for u in data["units"])
