"""The store's refusals, kept apart from the store itself.

A command that never opens the store (``coimbra validate FILE``) still names these
in its error handling; here they cost nothing to import, while the store brings in
the ``eventsourcing`` library.
"""

from __future__ import annotations

from typing import Sequence


class UnknownGame(KeyError):
    """No stored game has this name; ``near`` are stored names close to it."""

    def __init__(self, name: str, near: Sequence[str] = ()) -> None:
        super().__init__(name)
        self.near = tuple(near)

    def __str__(self) -> str:
        hint = f"; did you mean {' or '.join(repr(n) for n in self.near)}?" if self.near else ""
        return f"no game named {self.args[0]!r} in the store{hint} (coimbra games lists them)"


class BadGameName(ValueError):
    """A name that cannot be a game's name (taken, or not a plain word)."""


class BadPlayers(ValueError):
    """Players that cannot start a game (count, repeated names, names the notation cannot write)."""


class BadFork(ValueError):
    """A fork point or a rolls policy that cannot be used."""


class TableInputNeeded(ValueError):
    """The table's outcome must be typed by hand (or nothing is due from the table)."""


class StoreConflict(RuntimeError):
    """Other writers kept changing the same game or the index; nothing of this command was stored."""
