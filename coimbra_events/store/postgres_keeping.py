"""A PostgreSQL store's served tables' keys and seat claims, in tables of its own (imported only for PostgreSQL).

``coimbra_table_keys`` and ``coimbra_seat_claims`` hold one row per game (its id, and what a file beside a
SQLite store holds: ``links.keys_json``, ``seat_claims.claims_json``; the keys' table also the organiser's key,
as ``links.ORGANISER``), created as the store's other tables
are (``GameStore.tables``: one process creates them, under the store's advisory lock). Every change reads
and writes a game's row in one transaction holding it (``SELECT … FOR UPDATE``), so two server processes
that claim one seat at once, or that first make a table's keys at once, agree: one claim wins, one set of
keys is made. A game whose row is missing, but whose keys or claims a file kept before (the user's data
folder: ``links.links_folder``), has them taken over into its row the first time they are asked, so an
upgrade keeps every club's links; the files are read no more after that (and are left as they are).
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from coimbra_events.store.keeping import FileKeeping
from coimbra_events.store.links import ORGANISER, Kept, OrganiserKey, TableKeys, kept_keys, keys_from, keys_json
from coimbra_events.store.seat_claims import claims_from, claims_json

T = TypeVar("T")
KEYS, CLAIMS = "coimbra_table_keys", "coimbra_seat_claims"
TABLES = (KEYS, CLAIMS)


class PostgresKeeping:
    """Keys and claims in the store's database (``datastore``: the library's); ``files``: what was kept before."""

    def __init__(self, datastore: Any, files: FileKeeping) -> None:
        self.datastore, self.files = datastore, files

    def create_table(self) -> None:
        with self.datastore.transaction(commit=True) as c:
            for table in TABLES:
                c.execute(f"CREATE TABLE IF NOT EXISTS {self.named(table)} (game_id TEXT PRIMARY KEY, kept TEXT NOT NULL)")

    def keys(self, game_id: str, renew: bool = False) -> TableKeys:
        """The keys of a game's table, made (or taken over from its file) if it has none; ``renew``: new ones."""
        return self._keys(TableKeys, game_id, renew)

    def organiser(self, renew: bool = False) -> OrganiserKey:
        """The organiser's key of the store's tables: a row of the keys' table named ``ORGANISER`` (no game's id)."""
        return self._keys(OrganiserKey, ORGANISER, renew)

    def _keys(self, kind: type[Kept], name: str, renew: bool) -> Kept:
        def first() -> bytes:
            return keys_json(kept_keys(kind, self.files.folder, name) or kind())

        with self.datastore.transaction(commit=True) as c:
            kept = keys_from(kind, self.locked(c, KEYS, name, first))
            if kept is not None and not renew:
                return kept
            keys = kept.renewed() if kept is not None else kind()
            c.execute(f"UPDATE {self.named(KEYS)} SET kept = %s WHERE game_id = %s", (keys_json(keys).decode(), name))
            return keys

    def claims(self, game_id: str) -> KeptClaims:
        return KeptClaims(self, game_id)

    def locked(self, c: Any, table: str, game_id: str, first: Callable[[], bytes]) -> str:
        """What ``table`` keeps for ``game_id``, its row held until the transaction ends; made from ``first()``
        (what a file kept before) if it has none (another process making it first: its row is taken)."""
        select = f"SELECT kept FROM {self.named(table)} WHERE game_id = %s FOR UPDATE"
        c.execute(select, (game_id,))
        row = c.fetchone()
        if row is None:
            c.execute(f"INSERT INTO {self.named(table)} (game_id, kept) VALUES (%s, %s) ON CONFLICT (game_id) DO NOTHING",
                      (game_id, first().decode()))
            c.execute(select, (game_id,))
            row = c.fetchone()
        return str(row["kept"])

    def read(self, table: str, game_id: str) -> str | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT kept FROM {self.named(table)} WHERE game_id = %s", (game_id,))
            row = c.fetchone()
        return None if row is None else str(row["kept"])

    def named(self, name: str) -> str:
        """A table's name in the store's schema."""
        return f'"{self.datastore.schema}".{name}'


class KeptClaims:
    """The claims of one game in the store: read in one query, changed in one transaction holding its row."""

    def __init__(self, keeping: PostgresKeeping, game_id: str) -> None:
        self.keeping, self.game_id = keeping, game_id

    def load(self) -> dict[str, str]:
        kept = self.keeping.read(CLAIMS, self.game_id)
        return claims_from(kept) if kept is not None else self._before()

    def change(self, update: Callable[[dict[str, str]], T]) -> T:
        with self.keeping.datastore.transaction(commit=True) as c:
            held = claims_from(self.keeping.locked(c, CLAIMS, self.game_id, lambda: claims_json(self._before())))
            before = dict(held)
            outcome = update(held)
            if held != before:
                c.execute(f"UPDATE {self.keeping.named(CLAIMS)} SET kept = %s WHERE game_id = %s",
                          (claims_json(held).decode(), self.game_id))
            return outcome

    def _before(self) -> dict[str, str]:
        """What a file kept before the store did (none for a new game)."""
        return self.keeping.files.claims(self.game_id).load()
