"""Which name a game gets, and claiming it in the store's register of names (``coimbra_events.store.register``).

A name is claimed in the same transaction as the game that takes it, so of two
writers claiming one name the second's save conflicts; the claim is then made
again on the register as it is now (``contested``). An unnamed game takes the
next of ``ana-bruno-carla``, ``ana-bruno-carla-2``, ... its players' names give.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Callable, Iterable, Sequence
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import EventStore

from coimbra_events.game import NAMESPACE
from coimbra_events.references import shaped_like_path
from coimbra_events.store.errors import BadGameName, DamagedIndex, one_line
from coimbra_events.store.register import GameName, fold_name, legacy_game_id
from coimbra_events.store.rows import Rows

_GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def slug(words: Iterable[str]) -> str:
    """``Ana``, ``Bruno``, ``Conceição`` -> ``ana-bruno-conceicao``."""
    text = unicodedata.normalize("NFKD", "-".join(words)).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:48] or "game"


class NameClaims:
    """The names one store's saves claim, and what it remembers of the register between them."""

    def __init__(self, events: EventStore, rows: Rows, largest_number: Callable[[str], int]) -> None:
        """``events``: the store's events (the register's entries); ``rows``: its rows as stored (a store from before
        the register); ``largest_number``: the largest number the games index has given a base name, caught up."""
        self.events, self.rows, self.largest_number = events, rows, largest_number
        self._numbers: dict[str, int] = {}
        """The next number to try for an unnamed game, by base name (read from the index once per base)."""
        self._contested: set[str] = set()
        """Names whose claim conflicted: the next claim reads their entry first (a new name is claimed unread)."""
        self._legacy: bool | None = None
        """Whether this store was written before the register (read once)."""
        self._claiming: list[str] = []
        """The names claimed by the save being built (``GameRepository.commit``)."""

    def begin(self) -> None:
        """A save is being built: no name claimed by it yet."""
        self._claiming = []

    def contested(self) -> None:
        """The save conflicted: the names it claimed are read before they are claimed again."""
        self._contested.update(self._claiming)

    def entry(self, name: str) -> GameName | None:
        """The register's entry for a name (a few events, never snapshotted), if it has one."""
        try:
            entry = fold_name(None, self.events.get(GameName.create_id(name)))
            if entry is not None and entry.game_id is not None and not isinstance(entry.game_id, UUID):
                raise ValueError(f"it has the name stand for {entry.game_id!r}, which is no game's id")
            return entry
        except Exception as exc:  # whatever a changed store makes the library or the fold raise
            raise DamagedIndex(f"the store's register of names is damaged at {name!r} ({one_line(exc)}); "
                               "nothing was changed") from None

    def name_for(self, name: str | None, players: Sequence[tuple[str, str]]) -> str:
        """The given name if well formed, else the next of ``ana-bruno-carla``, ``ana-bruno-carla-2`` ...

        (Whether a name is free is settled by claiming it, ``_claim``.)"""
        if name is not None:
            if not _GAME_NAME.fullmatch(name):
                raise BadGameName(f"game name {name!r}: use letters, digits, '-', '_' or '.' (at most 64)")
            if shaped_like_path(name):
                raise BadGameName(f"game name {name!r} reads as a log file's path (it ends in .json); "
                                  "choose a name without it")
            return name
        base = slug(n for n, _ in players)
        if base not in self._numbers:
            self._numbers[base] = self.largest_number(base) + 1
        number = self._numbers[base]
        while self.taken(candidate := base if number == 1 else f"{base}-{number}"):
            number += 1  # claimed by a game the index has not seen yet
        self._numbers[base] = number + 1
        return candidate

    def taken(self, name: str) -> bool:
        """Whether a stored game has this name now."""
        entry = self.entry(name)
        return entry.game_id is not None if entry is not None else self.legacy_exists(name)

    def claim(self, name: str, game_id: UUID) -> list[Aggregate]:
        """The register's entry for ``name``, claimed for ``game_id``; ``BadGameName`` if another game has it.

        In a store written since the register, a name not seen contested is claimed
        as a new entry without reading the register: if it has an entry already, the
        save conflicts and the retry reads it.
        """
        entry = self.entry(name) if name in self._contested or self._is_legacy() else None
        if entry is None:
            if self.legacy_exists(name):
                raise BadGameName(f"game name {name!r} is taken")
            entry = GameName.register(name, game_id)
        elif entry.game_id is not None:
            raise BadGameName(f"game name {name!r} is taken")
        else:
            entry.claim(game_id)
        self._claiming.append(name)
        return [entry]

    def _is_legacy(self) -> bool:
        """Whether this store was written before the register (it has the old index aggregate)."""
        if self._legacy is None:
            self._legacy = bool(self.rows.of(uuid5(NAMESPACE, "index:games"), limit=1))
        return self._legacy

    def legacy_exists(self, name: str) -> bool:
        """Whether a store from before the register holds a game first named ``name``."""
        return self._is_legacy() and bool(self.rows.of(legacy_game_id(name), limit=1))

    def released(self, name: str) -> GameName:
        """The register's entry for a name its game no longer has, released (saved with the rename)."""
        entry = self.entry(name) or GameName.register(name)  # a game from before the register: its old name becomes free
        entry.release()
        return entry
