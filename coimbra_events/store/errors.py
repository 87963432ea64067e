"""The store's refusals, kept apart from the store itself.

A command that never opens the store (``coimbra validate FILE``) still names these
in its error handling; here they cost nothing to import, while the store brings in
the ``eventsourcing`` library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from coimbra_events.log import LogProblem
    from coimbra_events.store.records import Held


class UnknownGame(KeyError):
    """No stored game has this name; ``near`` are stored names close to it."""

    def __init__(self, name: str, near: Sequence[str] = ()) -> None:
        super().__init__(name)
        self.near = tuple(near)

    def __str__(self) -> str:
        hint = f"; did you mean {' or '.join(repr(n) for n in self.near)}?" if self.near else ""
        return f"no game named {self.args[0]!r} in the store{hint} (coimbra games lists them)"


class AlreadyStored(ValueError):
    """A record that is stored already, which ends an import's save (``store.importing``): ``held`` says where;
    nothing was stored."""

    def __init__(self, held: Held) -> None:
        super().__init__(held.said())
        self.held = held


class BadGameName(ValueError):
    """A name that cannot be a game's name (taken, or not a plain word)."""


class BadPlayers(ValueError):
    """Players that cannot start a game (count, repeated names, names the notation cannot write)."""


class BadFork(ValueError):
    """A fork point or a rolls policy that cannot be used."""


class TableInputNeeded(ValueError):
    """The table's outcome must be typed by hand (or nothing is due from the table)."""


class NoStore(ValueError):
    """No store where one was named, and nothing made there (only a use that makes games makes a store)."""


class StoreNotOpened(ValueError):
    """The store cannot be opened (a file that cannot be read, a server that does not answer)."""


class StoreConflict(RuntimeError):
    """Another writer changed the store while this command was saving; nothing of it was stored (exit 3)."""


class DamagedIndex(ValueError):
    """The store's index of games cannot be read as it was saved."""


class EventsRemoved(DamagedIndex):
    """The store holds fewer events than its index of games has read: events were removed from an append-only store."""


class DamagedGame(ValueError):
    """A stored game that is not what was recorded; ``problems`` lists everything found
    (``coimbra_events.store.inspection`` finds them)."""

    def __init__(self, name: str, problems: Sequence[LogProblem]) -> None:
        self.name = name
        self.problems = tuple(problems)
        first = self.problems[0]
        where = "its header" if first.seq == 0 else f"entry {first.seq}"
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__(f"stored game {name} is damaged at {where}: {first.what}: {first.why}{more}; nothing was changed")


def one_line(exc: BaseException, limit: int | None = 200) -> str:
    """An exception's message on one line (its type's name if it has none), cut to ``limit`` characters with an
    ellipsis: a library's error or a damaged row quoted inside a message, or a log line, stays one line."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if limit is None or len(text) <= limit else text[:limit - 1] + "…"
