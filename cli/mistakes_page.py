"""``coimbra league mistakes``: one page of a person's mistakes and blunders, from every analysed game of theirs.

The replay page's "learn from your mistakes" (``cli/web/learn.js``) over many games: each puzzle
(``projections.mistakes``) carries the board view of the table before its decision, each game its players and
its catalog's names, so the page draws any puzzle's table with the replay page's drawing (``cli/web/board.js``)
and needs nothing else: one file, nothing fetched. Only analyses already kept are read
(``projections.analysis.latest_analysis``): an analysis takes minutes of every core, too much to start for a
whole league behind one command; the games not analysed are named, with the command that analyses one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from cli.presenter import catalog_lookup
from cli.replay_page import html_page
from coimbra_events.game import Game
from projections.board import board_view
from projections.mistakes import puzzles
from projections.timeline import timeline

FORMAT = "coimbra-mistakes"
VERSION = 1
"""The version of the embedded data the page's script (``cli/web/mistakes.js``) reads."""


@dataclass(frozen=True)
class Studied:
    """One analysed game of the person: the game, its analysis, and the spelling the person played it under."""

    game: Game
    analysis: dict[str, Any]
    spelling: str


def analysed(game: Game, spelling: str) -> Studied | None:
    """The game with the analysis kept last for its record as it is now, or ``None``: never one computed here."""
    from projections.analysis import latest_analysis  # imported here: the analysis engine is large

    found = latest_analysis(game.to_log())
    return None if found is None else Studied(game, found, spelling)


def mistakes_data(person: str, studied: Sequence[Studied], not_analysed: Sequence[str]) -> dict[str, Any]:
    """What the page shows, as JSON-able data: the person's puzzles from every game studied, in the order given, each
    with the board view before its decision; the games (players, catalog, head) and those not analysed."""
    catalogs: dict[str, Any] = {}
    games, found = [], []
    for k, s in enumerate(studied):
        log = s.game.to_log()
        catalogs.setdefault(log.catalog_id, catalog_lookup(s.game.catalog))
        games.append({"game": s.game.name, "players": [{"name": n, "color": c} for n, c in log.players],
                      "catalog": log.catalog_id, "head": s.game.head, "spelling": s.spelling})
        line = timeline(s.game)
        found += [{**p, "game": k, "before": board_view(line.states[p["seq"] - 1])}
                  for p in puzzles(s.analysis, line, s.spelling)]
    return {"format": FORMAT, "version": VERSION, "player": person, "catalogs": catalogs, "games": games,
            "puzzles": found, "not_analysed": list(not_analysed)}


def mistakes_page(data: dict[str, Any]) -> str:
    """The page around the data ``mistakes_data`` makes: the replay page's template and stylesheet, its drawing of the
    table and its puzzles (``learn.js``), run by ``mistakes.js`` alone (the stepping and the replay's panels hidden)."""
    return html_page(f"{data['player']}: learn from your mistakes · coimbra", data, ("board.js", "learn.js", "mistakes.js"))


__all__ = ["FORMAT", "VERSION", "Studied", "analysed", "mistakes_data", "mistakes_page"]
