"""What the application asks of the read side (``projections.read_side``): kept out of the domain, handed in."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, Sequence

from coimbra_events.events import GameEvent
from coimbra_events.state import GameState

if TYPE_CHECKING:
    from coimbra_events.game import Game
    from coimbra_events.store.game_store import GameStore


class Views(Protocol):
    """The read side the application asks: what entries changed, what each option is, the league."""

    def changes(self, before: GameState, game: Game, start: int,
                new: Sequence[GameEvent]) -> Sequence[tuple[int, Sequence[Any]]]:
        """What each of ``new``, the entries of ``game`` after its first ``start``, did on the table (``before``:
        the table then); ``new`` is given so that plays are told without reading the record before them."""

    def options(self, state: GameState) -> Sequence[Any]:
        """Every legal decision now, each described, in the order ``rules.legal`` lists them."""

    def league(self, store: GameStore) -> Any:
        """The league's tables over ``store``, ready to catch up (``NoLeague`` where it cannot be kept)."""
