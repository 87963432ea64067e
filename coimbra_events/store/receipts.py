"""A game's receipts: where its chain stood after each save, saved with it in the same transaction.

The latest receipt is read with the game, so cutting off the last entries, or adding
some behind coimbra's back, shows; each receipt also vouches for the snapshot a read
may start from (``snapshot_version`` and ``snapshot_sha256``, ``snapshot_digest``).
"""

from __future__ import annotations

import weakref
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import DomainEvent
from eventsourcing.utils import register_topic

from coimbra_events.game import NAMESPACE, Game
from coimbra_events.store.snapshots import GameSnapshot, HeldEntries, snapshot_digest


class Receipt(DomainEvent):
    """Where a game's chain stood after one save: its number of entries and its head, and the snapshot
    a read may start from (``snapshot_version``, 0 for none, and its ``snapshot_sha256``: ``snapshot_digest``)."""

    class_version = 2

    entries: int
    head: str
    snapshot_version: int
    snapshot_sha256: str | None

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Saved before receipts vouched for snapshots: none is vouched for (the game is read from its rows)."""
        state["snapshot_version"] = 0
        state["snapshot_sha256"] = None


def receipt_id(game_id: UUID) -> UUID:
    """The stream of a game's receipts (one per save, numbered from 1)."""
    return uuid5(NAMESPACE, f"receipt:{game_id}")


class Evidence:
    """What the store knows of a game beside the game itself, true while the game stands at version ``saved``: how
    many receipts it holds, and the snapshot in force (the one it was read from or last kept, and its
    ``snapshot_digest``), which its next receipt vouches for, unless the snapshot's copy of the entries did not
    hold when they were read (``HeldEntries.from_rows``)."""

    __slots__ = ("saved", "receipts", "_version", "_digest", "_held")

    def __init__(self, saved: int, receipts: int = 0, version: int = 0, digest: str | None = None,
                 held: HeldEntries | None = None) -> None:
        self.saved, self.receipts = saved, receipts
        self._version, self._digest, self._held = version, digest, held

    @classmethod
    def of_receipt(cls, saved: int, receipt: Receipt | None) -> Evidence:
        """What a game's latest receipt says: the receipts so far and the snapshot in force."""
        if receipt is None:
            return cls(saved)
        return cls(saved, receipt.originator_version, receipt.snapshot_version, receipt.snapshot_sha256)

    @property
    def snapshot_version(self) -> int:
        """The version of the snapshot in force (0: none)."""
        return 0 if self._held is not None and self._held.from_rows else self._version

    @property
    def snapshot_digest(self) -> str | None:
        """The ``snapshot_digest`` of the snapshot in force (``None``: none)."""
        return None if self._held is not None and self._held.from_rows else self._digest

    def saved_with(self, version: int, receipt: Receipt) -> None:
        """The game was saved, up to ``version``, with ``receipt``."""
        self.saved, self.receipts = version, receipt.originator_version

    def kept(self, version: int, digest: str | None) -> None:
        """A new snapshot is in force."""
        self._version, self._digest, self._held = version, digest, None


class Ledger:
    """The evidence of each game a store handed out, for as long as the game object lives.

    Kept beside the games, not in them: a ``Game`` holds its record and its table,
    and nothing the store writes. Games are not hashable (the library's aggregates),
    so they are known by identity, and forgotten when collected.
    """

    def __init__(self) -> None:
        self._by_game: dict[int, Evidence] = {}

    def of(self, game: Game) -> Evidence | None:
        """The store's evidence of ``game``, if this store handed it out or saved it."""
        return self._by_game.get(id(game))

    def keep(self, game: Game, evidence: Evidence) -> Evidence:
        """Know ``evidence`` as ``game``'s from now on."""
        if id(game) not in self._by_game:
            weakref.finalize(game, self._by_game.pop, id(game), None)
        self._by_game[id(game)] = evidence
        return evidence


def receipt_of(game: Game, evidence: Evidence, snapshot: GameSnapshot | None = None) -> Receipt:
    """The receipt to save with ``game``'s pending events: the next one of its stream, vouching for
    ``snapshot`` (to be kept once they are saved), else for the snapshot in force."""
    version, sha256 = (snapshot.originator_version, snapshot_digest(snapshot.state)) if snapshot is not None else (
        evidence.snapshot_version, evidence.snapshot_digest)
    return Receipt(
        originator_id=receipt_id(game.id), originator_version=evidence.receipts + 1,
        timestamp=Receipt.create_timestamp(), entries=game.entries, head=game.head,
        snapshot_version=version, snapshot_sha256=sha256,
    )


def vouched(version: int, digest: str | None, receipt: Receipt | None) -> bool:
    """Whether a game's latest ``receipt`` vouches for its snapshot at ``version`` with this digest (a game read
    from its rows, version 0, needs none)."""
    if not version:
        return True
    return receipt is not None and (receipt.snapshot_version, receipt.snapshot_sha256) == (version, digest)


MOVED_FROM = "coimbra_events.integrity:Receipt"
"""The receipts' topic before the store was one package: older rows name it."""
register_topic(MOVED_FROM, Receipt)
