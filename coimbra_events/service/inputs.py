"""An input as the table types it: a decision or an outcome in notation, players matched by name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from coimbra_events.events import GameEvent
from coimbra_events.record import replace

if TYPE_CHECKING:
    from coimbra_events.game import Game


def typed_decision(text: str, game: Game, actor: str | None) -> GameEvent:
    """A decision or outcome typed in notation, components by name, id or prefix (``NotationError`` if unreadable);
    without ``Name:`` it is ``actor``'s."""
    from coimbra_events.names import Names
    from coimbra_events.notation import parse

    names = Names(game.catalog, [n for n, _ in game.header.players], dict(game.state.monasteries))
    return with_player_name(parse(text, actor, names), game)


def with_player_name(event: GameEvent, game: Game) -> GameEvent:
    """``ana: pass`` means Ana: actors are matched to the players' names regardless of case."""
    names = {n.lower(): n for n, _ in game.header.players}
    actor = names.get(event.actor.lower())
    return replace(event, actor=actor) if actor and actor != event.actor else event
