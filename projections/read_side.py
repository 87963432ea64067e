"""The read side the application service asks (``coimbra_events.service.Views``), handed in by a front-end.

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


class ReadSide:
    """``Views`` over the projections: the rules' own narration of each new entry, and ``options``."""

    def changes(self, before: GameState, game: Game, start: int,
                new: Sequence[GameEvent]) -> list[tuple[int, tuple[Change, ...]]]:
        return new_entries(before, game, start, new)

    def options(self, state: GameState) -> list[Option]:
        return options(state)
