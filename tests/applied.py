"""Tests drive the application (``coimbra_events.service.Games``), as every front-end does: these say "it stored"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coimbra_events.service import Games, Stored

if TYPE_CHECKING:
    from coimbra_events.events import GameEvent
    from coimbra_events.game import Game


def stored(outcome: Any) -> Game:
    """The game a write stored; the test fails, showing the refusal or the conflict, if it stored nothing."""
    assert isinstance(outcome, Stored), outcome
    return outcome.game


def recorded(games: Games, name: str, *events: GameEvent | str, by: str | None = None) -> Game:
    """``Games.record`` of these entries, all stored."""
    return stored(games.record(name, events, by))
