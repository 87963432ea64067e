"""The read side the application asks (``coimbra_events.service.Views``), handed in by a front-end.

The domain does not import ``projections``: what new entries changed on the table
and what each legal option is are answered here, from the read models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from coimbra_events.events import GameEvent
from coimbra_events.state import GameState
from projections.changes import Change
from projections.consequences import new_entries
from projections.options import Option, options

if TYPE_CHECKING:
    from coimbra_events.game import Game
    from coimbra_events.store.game_store import GameStore
    from projections.league.projection import League


class ReadSide:
    """``Views`` over the projections: the rules' own narration of each new entry, ``options``, the league."""

    def changes(self, before: GameState, game: Game, start: int,
                new: Sequence[GameEvent]) -> list[tuple[int, tuple[Change, ...]]]:
        return new_entries(before, game, start, new)

    def options(self, state: GameState) -> list[Option]:
        return options(state)

    def league(self, store: GameStore) -> League:
        from projections.league.projection import open_league

        return open_league(store)
