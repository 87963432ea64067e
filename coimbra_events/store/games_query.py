"""What a listing of stored games asks (``GamesQuery``) and gets (a ``Page`` of ``GameInfo``).

The values the games index (``coimbra_events.store.games_index``) hands the store and the
command line: plain frozen values, with nothing of the view or the projection behind them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Mapping
from uuid import UUID



IN_PROGRESS, OVER = "in progress", "over"
STATUSES = (IN_PROGRESS, OVER)
_NUMBERED = re.compile(r"(.+)-(\d{1,9})")


def name_series(name: str) -> tuple[str, int]:
    """A name as the store numbers it: ``ana-bruno-3`` is (``ana-bruno``, 3), ``ana-bruno`` (``ana-bruno``, 1)."""
    found = _NUMBERED.fullmatch(name)
    return (found.group(1), int(found.group(2))) if found else (name, 1)


@dataclass(frozen=True)
class GameInfo:
    """One game as the index lists it."""

    name: str
    players: tuple[tuple[str, str], ...]
    status: str
    created: datetime
    parent: str | None = None
    seed: int | None = None
    catalog_id: str = ""
    result: tuple[Mapping[str, Any], ...] = ()
    """Players by place, with ``total`` and points by source (``Game.Finished``); empty until the game ends."""
    tags: tuple[str, ...] = ()
    archived: bool = False
    game_id: UUID | None = None

    @property
    def winners(self) -> tuple[str, ...]:
        """Who placed first (several when the tie-break leaves them level)."""
        return tuple(p["name"] for p in self.result if p["place"] == 1)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values, for ``--json`` output."""
        return {
            "name": self.name,
            "players": [{"name": n, "color": c} for n, c in self.players],
            "status": self.status,
            "created": self.created.isoformat(),
            "parent": self.parent,
            "seed": self.seed,
            "catalog": self.catalog_id,
            "winners": list(self.winners),
            "scores": [{"name": p["name"], "place": p["place"], "total": p["total"]} for p in self.result],
            "tags": list(self.tags),
            "archived": self.archived,
        }


@dataclass(frozen=True)
class GamesQuery:
    """Which games to list: filters (all optional), archived ones or the others, and one page."""

    player: str | None = None
    status: str | None = None
    since: datetime | None = None
    tag: str | None = None
    archived: bool = False
    offset: int = 0
    limit: int | None = None


@dataclass(frozen=True)
class Page:
    """One page of a listing and how many games the filters let through in all."""

    games: list[GameInfo]
    total: int
    query: GamesQuery = field(default_factory=GamesQuery)
