"""The fixed numbering OpenSpiel needs: every decision and every piece of a table draw a catalog allows.

OpenSpiel numbers a game's actions once, when the game is made, and keeps the numbers
for every state. Coimbra's rules core answers "what may this player do now" with
events; here every event a player could ever be offered under a catalog is listed
once, in a fixed order read from the catalog (its dice, cards, tiles, voyages, map
spaces, the most coins and guards a player can hold), so the same decision always has
the same number. The table's draws get a numbering of their own (OpenSpiel's chance
outcomes): a die face, a seat, or one component of the catalog.
"""

from __future__ import annotations

from typing import Any, Final, Iterator

from coimbra_events import events as ev
from coimbra_events.catalog import Catalog
from coimbra_events.catalog.effect_kinds import SPENDABLE, TRACKS
from coimbra_events.events import GameEvent
from coimbra_events.rules.outcomes import FACES
from coimbra_events.state import EXTRA_DIE, LOCATIONS

Decision = tuple[type[GameEvent], tuple[Any, ...]]
"""A decision without its actor: the event type and its payload values, in ``KINDS`` order."""
Piece = tuple[str, Any]
"""One piece of a table draw: ``("face", 4)``, ``("seat", 1)``, ``("card", id)``, ``("monastery", id)``, ..."""


def _decisions(catalog: Catalog) -> Iterator[Decision]:
    """Every decision the rules could offer under this catalog, in a fixed order."""
    dice = tuple(catalog.die_colors)
    spaces = tuple(catalog.map.spaces)
    yield from ((ev.StartGroupTaken, (group,)) for group in range(1, catalog.max_players + 1))
    yield from ((ev.PilgrimPlaced, (space,)) for space in catalog.map.start_spaces)
    yield from ((ev.TrackChosen, (track,)) for track in TRACKS)
    yield from ((ev.PilgrimStepped, (space,)) for space in spaces)
    yield ev.PilgrimStopped, ()
    yield from ((ev.DiePlaced, (die, location)) for die in dice for location in LOCATIONS)
    yield from ((ev.FavorTileTaken, (tile,)) for tile in catalog.favor_tiles)
    yield from ((ev.CardBought, (card,)) for card in catalog.characters)
    yield from ((ev.AlternativeTaken, (coins, guards)) for coins in range(catalog.alternative_coins + 1)
                for guards in range(catalog.alternative_guards + 1))
    yield from ((ev.IncomeActivated, (die, track)) for die in (*dice, EXTRA_DIE) for track in TRACKS)
    # An exchange costs at least one coin or guard a time, and a player holds at most the catalog's maximum.
    most = {"coins": catalog.max_coins, "guards": catalog.max_guards}
    yield from ((ev.PointsExchanged, (give, times)) for give in SPENDABLE for times in range(1, most[give] + 1))
    yield ev.IncomeEnded, ()
    yield from ((ev.VoyageInvested, (voyage,)) for voyage in catalog.voyages)
    yield ev.VoyagePassed, ()


def _pieces(catalog: Catalog) -> Iterator[Piece]:
    """Every piece a table draw can show under this catalog, in a fixed order."""
    yield from (("face", face) for face in FACES)
    yield from (("seat", seat) for seat in range(catalog.max_players))
    yield from (("monastery", m) for m in catalog.monasteries)
    yield from (("scoring-tile", t) for t in catalog.scoring_tiles)
    yield from (("voyage", v) for v in catalog.voyages)
    yield from (("card", c) for c in catalog.characters)


class ActionSpace:
    """Decisions and draw pieces numbered from 0, for one catalog."""

    def __init__(self, catalog: Catalog) -> None:
        self.decisions: Final[tuple[Decision, ...]] = tuple(_decisions(catalog))
        self.pieces: Final[tuple[Piece, ...]] = tuple(_pieces(catalog))
        self._decision_ids: Final = {d: k for k, d in enumerate(self.decisions)}
        self._piece_ids: Final = {p: k for k, p in enumerate(self.pieces)}

    def decision_id(self, event: GameEvent) -> int:
        """The number of a decision (``KeyError`` for one the catalog cannot offer)."""
        return self._decision_ids[(type(event), event.key()[1:])]

    def decision(self, actor: str, action: int) -> GameEvent:
        """The decision numbered ``action``, taken by ``actor``."""
        kind, payload = self.decisions[action]
        return kind(actor, *payload)

    def piece_id(self, piece: Piece) -> int:
        """The number of a draw piece."""
        return self._piece_ids[piece]

    def piece(self, action: int) -> Piece:
        """The draw piece numbered ``action``."""
        return self.pieces[action]
