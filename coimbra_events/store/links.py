"""The keys of a served game's table: the tokens its links carry, kept so that a restart keeps every phone's link.

A table's links (``coimbra serve``) hold two tokens: the players' and the watchers'. They are kept per game
(by its id, so a renamed game keeps them and a new game of an old name does not inherit them) beside the
store that holds it: for a SQLite file, in the folder ``FILE.links`` next to it, its owner's only (0700) and
each game's file too (0600): a token lets whoever holds it record. A PostgreSQL store keeps them in a table
of its own (``store.keeping``); what a file in the user's data folder (``platformdirs``, a folder named for
the store's location) kept for it before is taken over from there. Renewing the
keys (``--new-links``) keeps a digest of each token it replaces, so that a phone still holding one is told its
links were replaced rather than that they are wrong. A store in memory keeps nothing: each table gets new keys.

A server of every table (a club night) has one more key, the organiser's (``OrganiserKey``), kept where the
tables' keys are (``organiser.json`` in a SQLite store's folder; a row of its own in a PostgreSQL store, named
``ORGANISER``) and renewed with them.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping, TypeVar

import orjson

REPLACED_KEPT = 20
"""Digests of replaced tokens kept per game (two per renewal): older ones are told as wrong, not as replaced."""
ORGANISER = "organiser"
"""The organiser's key's file is ``organiser.json`` in the links' folder (the games' are named for their ids)."""


def token() -> str:
    """256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def digest(given: str) -> str:
    """What is kept of a replaced token: enough to recognise it, never enough to use it."""
    return hashlib.sha256(given.encode()).hexdigest()


@dataclass(frozen=True)
class TableKeys:
    """The tokens of one game's table (``players``: read and write; ``watchers``: read only), the id of this set
    of keys (``id``: new with every renewal), and the digests of the tokens earlier sets had (``replaced``)."""

    players: str = field(default_factory=token)
    watchers: str = field(default_factory=token)
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    replaced: tuple[str, ...] = ()

    def roles(self) -> dict[str, str]:
        """Each role's token."""
        return {"players": self.players, "watchers": self.watchers}

    def renewed(self) -> TableKeys:
        """New keys, these ones replaced."""
        return TableKeys(replaced=_replaced(self))


@dataclass(frozen=True)
class OrganiserKey:
    """The organiser's token of a server of every table (it lists the tables and their links), the id of this
    key (new with every renewal) and the digests of the tokens it replaced."""

    organiser: str = field(default_factory=token)
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    replaced: tuple[str, ...] = ()

    def roles(self) -> dict[str, str]:
        return {ORGANISER: self.organiser}

    def renewed(self) -> OrganiserKey:
        return OrganiserKey(replaced=_replaced(self))


Kept = TypeVar("Kept", TableKeys, OrganiserKey)


def _replaced(keys: TableKeys | OrganiserKey) -> tuple[str, ...]:
    """The digests a renewal of ``keys`` keeps: of its tokens, then of those it replaced, the newest first."""
    return (*(digest(t) for t in keys.roles().values()), *keys.replaced)[:REPLACED_KEPT]


def links_folder(env: Mapping[str, str] | Any, location: str) -> Path | None:
    """Where the keys of a store's tables are kept (``env``: the store's settings; ``location``: where it is,
    as ``GameStore.location`` says it, never with a password); ``None`` for a store in memory."""
    module = env.get("PERSISTENCE_MODULE") or "eventsourcing.popo"
    if module == "eventsourcing.popo":
        return None
    if module == "eventsourcing.sqlite":
        return Path(f"{env.get('SQLITE_DBNAME')}.links")
    from platformdirs import user_data_path

    return user_data_path("coimbra", appauthor=False) / "table-links" / digest(location)[:24]


def table_keys(folder: Path | None, game_id: str, renew: bool = False) -> TableKeys:
    """The keys of a game's table, made and kept if it has none (``renew``: new ones, the kept ones replaced)."""
    return _kept(TableKeys, folder, game_id, renew)


def organiser_key(folder: Path | None, renew: bool = False) -> OrganiserKey:
    """The organiser's key of the store's tables, made and kept if there is none (``renew``: a new one)."""
    return _kept(OrganiserKey, folder, ORGANISER, renew)


def _kept(kind: type[Kept], folder: Path | None, name: str, renew: bool) -> Kept:
    """The keys kept as ``name`` in ``folder``, or new ones (kept there) if there are none or ``renew`` says so."""
    kept = kept_keys(kind, folder, name)
    if kept is not None and not renew:
        return kept
    keys = kept.renewed() if kept is not None else kind()
    if folder is not None:
        write_private(folder / f"{name}.json", keys_json(keys))
    return keys


def kept_keys(kind: type[Kept], folder: Path | None, name: str) -> Kept | None:
    """The keys kept as ``name`` (a game's id, or ``ORGANISER``) in ``folder`` (``None``: none, or unreadable: new
    keys are made over them)."""
    if folder is None:
        return None
    try:
        return keys_from(kind, (folder / f"{name}.json").read_bytes())
    except OSError:
        return None


def keys_from(kind: type[Kept], data: bytes | str) -> Kept | None:
    """Keys as ``keys_json`` wrote them (``None`` if they cannot be read)."""
    try:
        read = orjson.loads(data)
        return kind(**{**read, "replaced": tuple(read.get("replaced", ()))})
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def keys_json(keys: TableKeys | OrganiserKey) -> bytes:
    """How keys are kept, in a file or in the store."""
    return orjson.dumps(asdict(keys))


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` where only its owner reads it (the folder 0700, the file 0600), whole or not at all."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    path.parent.chmod(0o700)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    try:
        os.write(descriptor, data)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    os.replace(temporary, path)
