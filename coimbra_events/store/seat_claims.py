"""Which phone holds which seat of a served game, kept beside the table's keys so that a restart keeps them.

A claim is kept as the seat's player and a digest of the phone's device id (``links.digest``): what is kept
says which seats are held, never an id a page could send. For a SQLite store it lives in the folder of the
game's table keys (``links.links_folder``: ``FILE.links`` beside the file), as ``GAME-ID.seats``, its
owner's only (0600); a store in memory keeps them in memory, for as long as the process runs; a PostgreSQL
store keeps them in a table of its own (``store.postgres_keeping``), so that every server process on it
holds the same claims. Each keeper has the same two methods: ``load``, and ``change``, which reads, changes
and writes the claims as one step (in PostgreSQL, one transaction holding the game's row).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, TypeVar

import orjson

from coimbra_events.store.links import write_private

T = TypeVar("T")


def claims_from(data: bytes | str) -> dict[str, str]:
    """Claims as ``claims_json`` wrote them: each held seat's player -> the digest of its phone (none if unreadable)."""
    try:
        read = orjson.loads(data)
    except ValueError:
        return {}
    if not isinstance(read, dict):
        return {}
    return {seat: phone for seat, phone in read.items() if isinstance(seat, str) and isinstance(phone, str)}


def claims_json(held: Mapping[str, str]) -> bytes:
    return orjson.dumps(dict(held))


@dataclass(frozen=True)
class SeatFile:
    """The kept claims of one game, in a file (one process changes them: SQLite's one server)."""

    path: Path

    def load(self) -> dict[str, str]:
        """Each held seat's player -> the digest of the phone holding it (none if the file is missing or unreadable)."""
        try:
            return claims_from(self.path.read_bytes())
        except OSError:
            return {}

    def change(self, update: Callable[[dict[str, str]], T]) -> T:
        """``update`` the claims (it changes the dict it is given), kept whole or not at all if they changed."""
        held = self.load()
        before = dict(held)
        outcome = update(held)
        if held != before:
            write_private(self.path, claims_json(held))
        return outcome


class ClaimsInMemory:
    """The claims of one game of a store in memory: held while the process runs, as its games are."""

    def __init__(self) -> None:
        self._held: dict[str, str] = {}

    def load(self) -> dict[str, str]:
        return dict(self._held)

    def change(self, update: Callable[[dict[str, str]], T]) -> T:
        held = self.load()
        outcome = update(held)
        self._held = held
        return outcome


def seat_file(folder: Path, game_id: str) -> SeatFile:
    """Where the seat claims of game ``game_id`` are kept (``folder``: its table keys' folder)."""
    return SeatFile(folder / f"{game_id}.seats")
