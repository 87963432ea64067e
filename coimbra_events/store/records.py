"""A record is one game: which stored game holds a record, and what the league is told about a game.

A record is its header and its entries; the hash chain already says both (the
anchor is the header's hash, each entry's hash chains on the one before, so the
head names the whole record). Two games hold the same record when they have the
same anchor and one's chain is the other's, or begins it.

``RecordClaim`` serializes the imports of records with one header: each import
appends to the claim of its anchor in the same transaction as the game it stores,
so of two tables importing the same log at once the second's save conflicts, and
its retry finds the game the first stored (the store's unique (id, version) row,
as the name claims use it, not luck). Which stored games hold a record is read
from the games index's ``games_index_records`` (anchor, entries and head of every
game, from its receipts), so games stored before the claims are found too.

``LeagueMark`` is what the league is told about a game beyond its record: a
deliberate copy (``import --copy``: never counted), or a game the organiser left out
(``archive --not-counted``: counted again when restored).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from coimbra_events.game import NAMESPACE
from coimbra_events.store.folding import Folding

if TYPE_CHECKING:
    from coimbra_events.game import Game


class RecordClaim(Aggregate):
    """The games imported with one header (one anchor): appended to by every import of such a log."""

    class Created(Aggregate.Created):
        anchor: str
        game_id: UUID

        def apply(self, claim: RecordClaim) -> None:
            claim.anchor, claim.games = self.anchor, [self.game_id]

    class Joined(Aggregate.Event):
        game_id: UUID

        def apply(self, claim: RecordClaim) -> None:
            claim.games.append(self.game_id)

    @staticmethod
    def create_id(anchor: str) -> UUID:
        return uuid5(NAMESPACE, f"record:{anchor}")

    @classmethod
    def first(cls, anchor: str, game_id: UUID) -> RecordClaim:
        return cls._create(cls.Created, anchor=anchor, game_id=game_id)

    def join(self, game_id: UUID) -> None:
        self.trigger_event(self.Joined, game_id=game_id)


fold_claim = Folding(RecordClaim, (RecordClaim.Created, RecordClaim.Joined))
"""How the store folds a record claim: its own event classes only."""


class LeagueMark(Aggregate):
    """What the league is told about one game: a deliberate copy of a record (never counted), or left out."""

    class Created(Aggregate.Created):
        """``game_id`` as text (read by the league from the row's JSON); ``copy_of``: the name of the game
        holding the record when the copy was made ("" if none), ``None`` for a game that is no copy."""

        game_id: str
        copy_of: str | None
        counted: bool

        def apply(self, mark: LeagueMark) -> None:
            mark.game_id, mark.copy_of, mark.counted = self.game_id, self.copy_of, self.counted

    class Marked(Aggregate.Event):
        game_id: str
        copy_of: str | None
        counted: bool

        def apply(self, mark: LeagueMark) -> None:
            mark.counted = self.counted

    @staticmethod
    def create_id(game_id: str) -> UUID:
        return uuid5(NAMESPACE, f"league:{game_id}")

    @classmethod
    def made(cls, game_id: UUID, copy_of: str | None = None, counted: bool = True) -> LeagueMark:
        return cls._create(cls.Created, game_id=str(game_id), copy_of=copy_of, counted=counted)

    def count(self, counted: bool) -> None:
        if counted != self.counted:
            self.trigger_event(self.Marked, game_id=self.game_id, copy_of=self.copy_of, counted=counted)


fold_mark = Folding(LeagueMark, (LeagueMark.Created, LeagueMark.Marked))
"""How the store folds a game's league mark: its own event classes only."""


@dataclass(frozen=True)
class Held:
    """A record already stored: the game that holds it, how many entries it has, and the log's."""

    name: str
    stored: int
    given: int

    @property
    def same(self) -> bool:
        return self.stored == self.given

    def said(self) -> str:
        """``already stored as ana-bruno (the same 212 entries)``: what an import says."""
        if self.same:
            return f"already stored as {self.name} (the same {self.stored} entries); nothing stored"
        return (f"already stored as {self.name}, which holds its {self.given} entries and {self.stored - self.given} "
                "recorded after them; nothing stored")


@dataclass(frozen=True)
class Imported:
    """What an import did: ``stored`` a new game (``copy``: marked a copy), ``appended`` the entries a log holds
    beyond a stored game's, or nothing (``held``: the record is already stored)."""

    game: Game | None
    how: str
    """``stored``, ``copy``, ``appended`` or ``held``."""
    entries: int = 0
    """Entries stored by this import."""
    held: Held | None = None


def holding(chain: Sequence[str], anchor: str, stored: Sequence[tuple[str, int, str]]) -> tuple[str, int] | None:
    """Of stored games ``(name, entries, head)`` of the same anchor, the one whose record the log's chain holds or
    begins: the longest such (``(name, entries)``); ``None`` if none. A game with more entries than the log is left
    to the caller (``longer``)."""
    best: tuple[str, int] | None = None
    for name, entries, head in stored:
        if entries <= len(chain) and (chain[entries - 1] if entries else anchor) == head:
            if best is None or entries > best[1]:
                best = (name, entries)
    return best
