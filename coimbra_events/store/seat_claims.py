"""Which phone holds which seat of a served game, kept beside the table's keys so that a restart keeps them.

A claim is kept as the seat's player and a digest of the phone's device id (``links.digest``): the file
says which seats are held, never an id a page could send. It lives in the folder of the game's table keys
(``links.links_folder``: ``FILE.links`` beside a SQLite file, else the user's data folder), as
``GAME-ID.seats``, its owner's only (0600). A store in memory keeps nothing. ``SeatFile`` is the one
place that reads and writes them: a store that keeps claims itself (for several servers on one game)
is another keeper with the same two methods.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import orjson

from coimbra_events.store.links import write_private


@dataclass(frozen=True)
class SeatFile:
    """The kept claims of one game (``path``: ``None`` for a store in memory, which keeps none)."""

    path: Path | None

    def load(self) -> dict[str, str]:
        """Each held seat's player -> the digest of the phone holding it (none if the file is missing or unreadable)."""
        if self.path is None:
            return {}
        try:
            data = orjson.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {seat: phone for seat, phone in data.items() if isinstance(seat, str) and isinstance(phone, str)}

    def save(self, held: Mapping[str, str]) -> None:
        """Keep ``held`` (seat -> phone digest), whole or not at all."""
        if self.path is not None:
            write_private(self.path, orjson.dumps(dict(held)))


def seat_file(folder: Path | None, game_id: str) -> SeatFile:
    """Where the seat claims of game ``game_id`` are kept (``folder``: its table keys' folder)."""
    return SeatFile(None if folder is None else folder / f"{game_id}.seats")
