"""The store's register of game names: which game each name stands for.

A game is found by its name, and names must be unique even when two tables
create games at once. Each name has a small ``GameName`` aggregate, with an id
that follows from the name; claiming a name creates it (or appends to it) in the
same transaction as the game's own events, so of two writers claiming one name,
the second's save conflicts. Renaming a game claims the new name and releases the old
one, which may then be claimed again.

Stores written before schema 2 have no register: their games' ids follow from
their names (``legacy_game_id``), which is where a name without an entry is looked up.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate
from eventsourcing.utils import register_topic

from coimbra_events.game import NAMESPACE
from coimbra_events.store.folding import Folding


class GameName(Aggregate):
    """One name in the register: the game it stands for now, if any."""

    class Created(Aggregate.Created):
        """A name entered in the register, standing for ``game_id`` (``None``: for no game yet).

        A new game's name is registered claimed in this one event (one row per new
        name, not two); entries made before class version 2 were created unclaimed.
        """

        class_version = 2

        name: str
        game_id: UUID | None

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["game_id"] = None  # claimed, if at all, by a ``Claimed`` event of its own

        def apply(self, entry: GameName) -> None:
            entry.name = self.name
            entry.game_id = self.game_id

    class Claimed(Aggregate.Event):
        game_id: UUID

        def apply(self, entry: GameName) -> None:
            entry.game_id = self.game_id

    class Released(Aggregate.Event):
        def apply(self, entry: GameName) -> None:
            entry.game_id = None

    @staticmethod
    def create_id(name: str) -> UUID:
        return uuid5(NAMESPACE, f"name:{name}")

    @classmethod
    def register(cls, name: str, game_id: UUID | None = None) -> GameName:
        """A new entry of the register, claimed for ``game_id`` if one is given."""
        return cls._create(cls.Created, name=name, game_id=game_id)

    def claim(self, game_id: UUID) -> None:
        self.trigger_event(self.Claimed, game_id=game_id)

    def release(self) -> None:
        self.trigger_event(self.Released)


def legacy_game_id(name: str) -> UUID:
    """Where a store written before schema 2 keeps the game it named ``name`` (the id followed from the name)."""
    return uuid5(NAMESPACE, f"game:{name}")


MOVED_FROM = "coimbra_events.game_names:GameName"
"""The register's topic before the store was one package: its older rows name it."""
register_topic(MOVED_FROM, GameName)

fold_name = Folding(GameName, (GameName.Created, GameName.Claimed, GameName.Released), (MOVED_FROM,))
"""How the store folds an entry of the register of names: its own event classes only."""
