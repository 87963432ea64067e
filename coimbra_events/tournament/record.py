"""A running tournament as the store keeps it: its own facts only, appended round by round.

``Tournament`` holds who plays, how many rounds, the points by place, the seed and the strengths round 1 is
balanced by (the league's ratings when asked for), then each round's seating as it was made, with its
explanations. Results are never kept here: they are the games' (each tagged with the tournament and its
round, ``round_tag``), read from the store whenever the tournament is. ``TournamentList`` is the store's list
of tournaments by name (one per store), appended to in the transaction that records a new tournament.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from coimbra_events.game import NAMESPACE
from coimbra_events.tournament.field import BadField

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,29}")
"""A tournament's name: a tag (``league standings --season NAME``) and the start of its games' names, so that
``NAME/round-20`` is a tag too (at most 40 characters) and ``NAME-r20-t32`` a game's name."""
TablesOfNames = tuple[tuple[str, ...], ...]


def checked_name(name: str) -> str:
    """``name`` if a tournament may be called so; else ``BadField`` saying what a name may hold."""
    if not NAME.fullmatch(name):
        raise BadField(f"tournament name {name!r}: use letters, digits, '-', '_' or '.' (at most 30), "
                       "beginning with a letter or digit")
    return name


def round_tag(name: str, number: int) -> str:
    """The tag on every game of round ``number`` of tournament ``name`` (``spring/round-2``)."""
    return f"{name}/round-{number}"


def game_name(name: str, number: int, table: int) -> str:
    """The name a tournament gives the game of table ``table`` of round ``number`` (``spring-r2-t3``)."""
    return f"{name}-r{number}-t{table}"


class Tournament(Aggregate):
    """A tournament: its field and settings (``Created``), then one ``Seated`` per round begun."""

    class Created(Aggregate.Created):
        """``points``: by place at a table of four (smaller tables: ``standings.points_by_size``); ``strengths``:
        round 1's balance by name (``None``: all equal)."""

        name: str
        players: tuple
        rounds: int
        points: tuple
        seed: int
        strengths: dict | None

        def apply(self, tournament: Tournament) -> None:
            tournament.name, tournament.rounds, tournament.seed = self.name, int(self.rounds), int(self.seed)
            tournament.players = tuple(str(p) for p in self.players)
            tournament.points = tuple(int(p) for p in self.points)
            tournament.strengths = {str(k): float(v) for k, v in self.strengths.items()} if self.strengths else None
            tournament.seated, tournament.explanations = [], []

    class Seated(Aggregate.Event):
        """Round ``number`` seated: its tables in seat order (first player first) and why anyone meets again."""

        number: int
        tables: tuple
        explanations: tuple

        def apply(self, tournament: Tournament) -> None:
            tournament.seated.append(tuple(tuple(str(p) for p in table) for table in self.tables))
            tournament.explanations.append(tuple(str(s) for s in self.explanations))

    @staticmethod
    def create_id(name: str) -> UUID:
        """One tournament of a name per store."""
        return uuid5(NAMESPACE, f"tournament:{name}")

    @classmethod
    def begin(cls, name: str, players: Sequence[str], rounds: int, points: Sequence[int], seed: int,
              strengths: Mapping[str, float] | None) -> Tournament:
        return cls._create(cls.Created, id=cls.create_id(name), name=name, players=tuple(players), rounds=rounds,
                           points=tuple(points), seed=seed, strengths=dict(strengths) if strengths else None)

    def seat(self, tables: TablesOfNames, explanations: Sequence[str]) -> None:
        """Record the next round's seating."""
        if len(self.seated) >= self.rounds:
            raise BadField(f"{self.name} has {self.rounds} rounds, all seated")
        self.trigger_event(self.Seated, number=len(self.seated) + 1, tables=tuple(tables), explanations=tuple(explanations))

    def facts(self) -> dict[str, Any]:
        """The tournament's own facts as ``--json`` says them."""
        return {"tournament": self.name, "players": list(self.players), "rounds": self.rounds,
                "points": list(self.points), "seed": self.seed, "strengths": self.strengths, "version": self.version}


class TournamentList(Aggregate):
    """The store's tournaments by name, in the order they were begun."""

    class Created(Aggregate.Created):
        def apply(self, listed: TournamentList) -> None:
            listed.names = []

    class Entered(Aggregate.Event):
        name: str

        def apply(self, listed: TournamentList) -> None:
            listed.names.append(str(self.name))

    @staticmethod
    def create_id() -> UUID:
        return uuid5(NAMESPACE, "index:tournaments")

    @classmethod
    def open(cls) -> TournamentList:
        return cls._create(cls.Created, id=cls.create_id())

    def enter(self, name: str) -> None:
        self.trigger_event(self.Entered, name=name)
