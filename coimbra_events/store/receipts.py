"""A game's receipts: where its chain stood after each save, saved with it in the same transaction.

The latest receipt is read with the game, so cutting off the last entries, or adding
some behind coimbra's back, shows; each receipt also vouches for the snapshot a read
may start from (``snapshot_version`` and ``snapshot_sha256``, ``snapshot_digest``).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import DomainEvent
from eventsourcing.utils import register_topic

from coimbra_events.game import NAMESPACE, Game, snapshot_digest


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


def receipt_of(game: Game, snapshot: Game.Snapshot | None = None) -> Receipt:
    """The receipt to save with ``game``'s pending events: the next one of its stream, vouching for
    ``snapshot`` (to be kept once they are saved), else for the snapshot the game was read from."""
    version, sha256 = (snapshot.originator_version, snapshot_digest(snapshot.state)) if snapshot is not None else (
        game.snapshot_version, game.snapshot_digest)
    return Receipt(
        originator_id=receipt_id(game.id), originator_version=game.receipts + 1,
        timestamp=Receipt.create_timestamp(), entries=game.entries, head=game.head,
        snapshot_version=version, snapshot_sha256=sha256,
    )


def vouched(game: Game, receipt: Receipt | None) -> bool:
    """Whether a game read from a snapshot was read from the one its latest receipt vouches for (a game read
    from its rows needs none)."""
    if not game.snapshot_version:
        return True
    return receipt is not None and (receipt.snapshot_version, receipt.snapshot_sha256) == (
        game.snapshot_version, game.snapshot_digest)


MOVED_FROM = "coimbra_events.integrity:Receipt"
"""The receipts' topic before the store was one package: older rows name it."""
register_topic(MOVED_FROM, Receipt)
