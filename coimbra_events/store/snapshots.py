"""A stored game's snapshot: a copy of its record and table, so that reading a long game need not fold it again.

A snapshot holds the entries as the log writes them (read only when something
asks for one: ``HeldEntries``), how many there are and the head of their chain,
the table as ``state_codec`` writes it, and the game's header, name, result,
tags and archiving. It is a cache:

* one written by other code (another format or ruleset) is not used (``StaleSnapshot``):
  the game is folded from its rows;
* a read starts from it only if the game's latest receipt vouches for it
  (``coimbra_events.store.receipts``: its version and ``snapshot_digest``);
* its entries are checked against their hashes, up to the head it gives, when
  first read; a copy that does not hold then is never read as the record: the
  store's rows are read instead (``HeldEntries.rows``), the table is folded again
  from them, and the next save takes a new snapshot.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, Callable, Mapping

import orjson
from eventsourcing.domain import Snapshot
from eventsourcing.utils import get_topic, register_topic

from coimbra_events import RULESET, state_codec
from coimbra_events.catalog import is_shipped, resolve_catalog
from coimbra_events.game import Entries, Game
from coimbra_events.log import GameLog, chained_entries
from coimbra_events.store.folding import Folding

SNAPSHOT_FORMAT = "coimbra-game-snapshot-2"
"""What ``GameSnapshot`` writes; a snapshot in any other format is not used."""

MOVED_FROM = "coimbra_events.game:Game.Snapshot"
"""The snapshots' topic before they were the store's: older rows name it."""


class StaleSnapshot(ValueError):
    """A snapshot this code cannot use (written by other code, or changed since): the game is read from its events instead."""


RowsReader = Callable[[str, int, int, str], Entries]
"""The entries of the named game's rows up to a version, which must be so many and end at this head."""


class GameSnapshot(Snapshot):
    """A stored game's record and table at one version (see the module docstring)."""

    @classmethod
    def take(cls, aggregate: Any) -> Any:
        game: Game = aggregate
        entries = [[e.TYPE, e.actor, e.payload(), h, at, by]  # read first: a copy that did not hold refolds the table
                   for e, h, (at, by) in zip(game.events, game.hashes, game.stamps)]
        return cls(
            originator_id=game.id, originator_version=game.version, timestamp=cls.create_timestamp(),
            topic=get_topic(Game), state={**facts_of(game), "entries": orjson.dumps(entries).decode()},
        )

    def mutate(self, _: None) -> Any:
        """The game it holds, with no rows to read its entries from if its copy does not hold."""
        return restore(self, None)[0]


register_topic(MOVED_FROM, GameSnapshot)


def facts_of(game: Game) -> dict[str, Any]:
    """What a snapshot of the game now holds beside its entries (``snapshot_digest`` hashes it)."""
    return {
        "format": SNAPSHOT_FORMAT, "ruleset": RULESET, "name": game.name, "created": game.created_on.isoformat(),
        "header": game.header.header(), "catalog_data": None if is_shipped(game.catalog) else dict(game.catalog.data),
        "count": game.entries, "head": game.head, "table": state_codec.dumps(game.state).decode(),
        "announced": game.announced, "tags": list(game.tags), "archived": game.archived,
    }


def snapshot_digest(state: Mapping[str, Any]) -> str:
    """The sha256 of what a snapshot holds but its entries, which its head chains: what a game's receipt vouches for."""
    rest = {k: v for k, v in state.items() if k != "entries"}
    return hashlib.sha256(orjson.dumps(rest, option=orjson.OPT_SORT_KEYS)).hexdigest()


def restore(snapshot: Snapshot, rows: RowsReader | None) -> tuple[Game, HeldEntries]:
    """The game a snapshot holds, and its held entries (read from ``rows`` if the copy does not hold);
    ``StaleSnapshot`` if this code did not write it."""
    data = snapshot.state
    if data.get("format") != SNAPSHOT_FORMAT or data.get("ruleset") != RULESET:
        raise StaleSnapshot(f"snapshot of {data.get('name')!r} is from other code ({data.get('format')}, {data.get('ruleset')})")
    try:
        head = data["header"]
        catalog = resolve_catalog(head["catalog"]["id"], head["catalog"]["sha256"], data["catalog_data"])
        header = GameLog(catalog.id, catalog.sha256, tuple((p["name"], p["color"]) for p in head["players"]), (),
                         head["ruleset"], head.get("meta", {}), (), head.get("upcast_from", 0))
        held = HeldEntries(data["entries"], data["count"], data["head"], data["name"], snapshot.originator_version, rows)
        game = Game.restore(
            snapshot.originator_id, snapshot.originator_version, datetime.fromisoformat(data["created"]), snapshot.timestamp,
            name=data["name"], catalog=catalog, header=header, held=held,
            table=state_codec.decode(orjson.loads(data["table"]), catalog),
            announced=data["announced"], tags=tuple(data["tags"]), archived=data["archived"],
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise StaleSnapshot(f"snapshot of {data.get('name')!r} cannot be read by this code: {exc}") from None
    return game, held


class HeldEntries:
    """The entries a snapshot copies, as it holds them, not read yet (a ``coimbra_events.game.HeldRecord``).

    Most commands that record (``act``, ``record``, ``roll``) need only the table,
    the head and the number of entries, so a game read from its snapshot reads
    none of its entries until something asks for one (``Game.events``). Then they
    are checked before any is decoded: each against its hash, chained on from the
    header, ending at the head the snapshot gave (the head the game's latest
    receipt vouched for when the store read it). ``rows``, given by the store that
    read the game, reads the entries from its rows instead when the copy does not
    hold (``from_rows`` then says so: the snapshot is no longer in force).
    """

    __slots__ = ("text", "count", "head", "name", "version", "rows", "from_rows")

    def __init__(self, text: Any, count: Any, head: Any, name: str, version: int, rows: RowsReader | None) -> None:
        if type(text) is not str or type(count) is not int or type(head) is not str:
            raise StaleSnapshot("its entries, their number or their head are not as this code writes them")
        self.text, self.count, self.head, self.name, self.version, self.rows = text, count, head, name, version, rows
        self.from_rows = False

    def read(self, anchor: str) -> tuple[Entries, bool]:
        """The entries, each checked against its hash, and whether they came from the rows (the copy did not
        hold: the table is folded again); ``StaleSnapshot`` if the copy does not hold and there are no rows."""
        try:
            return self._copy(anchor), False
        except StaleSnapshot:
            if self.rows is None:
                raise
        self.from_rows = True
        return self.rows(self.name, self.version, self.count, self.head), True

    def _copy(self, anchor: str) -> Entries:
        """The copy's entries; ``StaleSnapshot`` if they cannot be read or do not end at the head."""
        try:
            events, hashes, stamps = chained_entries(anchor, orjson.loads(self.text))
        except (KeyError, TypeError, ValueError) as exc:
            raise StaleSnapshot(f"the snapshot's entries cannot be read as the record: {exc}") from None
        if len(events) != self.count or (hashes[-1] if hashes else anchor) != self.head:
            raise StaleSnapshot(f"the snapshot's {len(events)} entries do not end at the head it gives, entry {self.count}")
        return events, hashes, stamps


fold_game = Folding(Game, (GameSnapshot, Game.Created, Game.Recorded, Game.Finished, Game.Reopened, Game.Renamed,
                           Game.Tagged, Game.Archived, Game.PutAway))
"""How the store folds a stored game's rows: its own event classes only (a snapshot's too)."""
