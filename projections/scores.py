"""Score sheets as plain data: the final (or provisional) scores of a folded game."""

from __future__ import annotations

from typing import Any

from coimbra_events.rules.scoring import PlayerScore, final_scores
from coimbra_events.state import GameState


def score_report(state: GameState) -> dict[str, Any]:
    """Scores with the breakdown by source; ``final`` is false while the game goes on."""
    return {
        "final": state.over,
        "round": state.round,
        "phase": state.phase,
        "players": [_sheet(s) for s in final_scores(state)],
    }


def result_line(report: dict[str, Any]) -> str:
    """A game's result in one line: ``1. Ana 84, 2. Duarte 60, …``, or ``*`` (PGN's "in progress") with where it stands."""
    if not report["final"]:
        return f"* (in progress: round {report['round']}, phase {report['phase']})"
    return ", ".join(f"{p['place']}. {p['name']} {p['total']}" for p in report["players"])


def _sheet(s: PlayerScore) -> dict[str, Any]:
    return {
        "name": s.name,
        "place": s.place,
        "total": s.total,
        "resources_left": s.resources_left,
        "sources": s.sources(),
        "details": {
            "during play": dict(s.during_play),
            "influence tiles": dict(s.influence_tiles),
            "end-game cards": dict(s.cards),
            "monasteries": dict(s.monasteries),
            "voyages": dict(s.voyages),
        },
    }
