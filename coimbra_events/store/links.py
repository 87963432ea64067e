"""The keys of a served game's table: the tokens its links carry, kept so that a restart keeps every phone's link.

A table's links (``coimbra serve``) hold two tokens: the players' and the watchers'. They are kept per game
(by its id, so a renamed game keeps them and a new game of an old name does not inherit them) beside the
store that holds it: for a SQLite file, in the folder ``FILE.links`` next to it; for another store (PostgreSQL),
in the user's data folder (``platformdirs``), under a folder named for the store's location. The folder is
its owner's only (0700) and each game's file too (0600): a token lets whoever holds it record. Renewing the
keys (``--new-links``) keeps a digest of each token it replaces, so that a phone still holding one is told its
links were replaced rather than that they are wrong. A store in memory keeps nothing: each table gets new keys.

A server of every table (a club night) has one more key, the organiser's (``OrganiserKey``), kept in the same
folder as ``organiser.json`` and renewed with the tables' keys.
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
    return _kept(TableKeys, None if folder is None else folder / f"{game_id}.json", renew)


def organiser_key(folder: Path | None, renew: bool = False) -> OrganiserKey:
    """The organiser's key of the store's tables, made and kept if there is none (``renew``: a new one)."""
    return _kept(OrganiserKey, None if folder is None else folder / f"{ORGANISER}.json", renew)


def _kept(kind: type[Kept], path: Path | None, renew: bool) -> Kept:
    """The keys kept at ``path``, or new ones (kept there) if there are none or ``renew`` says so."""
    kept = _read(kind, path) if path is not None else None
    if kept is not None and not renew:
        return kept
    keys = kept.renewed() if kept is not None else kind()
    if path is not None:
        write_private(path, orjson.dumps(asdict(keys)))
    return keys


def _read(kind: type[Kept], path: Path) -> Kept | None:
    try:
        data = orjson.loads(path.read_bytes())
        return kind(**{**data, "replaced": tuple(data.get("replaced", ()))})
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        return None  # unreadable: new keys are made and written over it


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
