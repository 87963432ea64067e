"""Where a game is kept: a stored game, or a JSON log file used as GAME, behind one interface.

Every command that takes GAME works the same on both: it opens the game, changes
it, and saves it; ``save`` answers ``False`` (nothing kept) when the record moved on
since it was read (another writer saved first, or rewrote the file). ``game_source`` is
the one place that tells the two apart (``references.log_file``), so neither the
application service nor a front-end has to.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Mapping, Protocol

from coimbra_events import log as game_log
from coimbra_events import log_reader
from coimbra_events.catalog import Catalog
from coimbra_events.events import GameEvent
from coimbra_events.log import GameLog, LogError, LogProblem
from coimbra_events.references import log_file
from coimbra_events.state import TABLE
from coimbra_events.store.errors import DamagedGame, StoreConflict, TableInputNeeded
from coimbra_events.files import locked, write_atomically

if TYPE_CHECKING:  # the game and the store bring in the eventsourcing library: imported when a game is opened
    from coimbra_events.game import Game
    from coimbra_events.store.game_store import GameStore

READS = 3
"""How often ``verify`` reads a stored game's rows again when a writer changed them while they were read."""


@dataclass(frozen=True)
class ChainReport:
    """What ``verify`` reads of a record: how many entries, its hash chain (header first), its problems.

    ``stored`` says whether a place is an entry of a stored game or an event of a log file.
    """

    ref: str
    stored: bool
    events: int | None
    hashes: list[str]
    problems: tuple[LogProblem, ...]
    count: int

    @property
    def word(self) -> str:
        return "entry" if self.stored else "event"

    def failure(self, problems: tuple[LogProblem, ...], count: int) -> str:
        """The one-line error for ``problems`` (the first of ``count``): a damaged stored game, or a file's first problem."""
        if self.stored:
            return str(DamagedGame(self.ref, problems))
        more = f" (and {count - 1:,} more problems)" if count > 1 else ""
        return f"{self.ref}: {problems[0].said(self.word)}{more}"


class GameSource(Protocol):
    """A game and where it is kept; ``name`` is the game's (a log file's is its stem)."""

    ref: str
    name: str
    taken_as_written: bool
    """Whether the record read last is a move list written by hand, which no hash vouches for (front-ends say so)."""
    lines: Mapping[int, int]
    """The line of a move list each entry of the record read last stands on, by entry (empty for other records)."""

    def open(self) -> Game:
        """The game, checked (``UnknownGame``, ``DamagedGame``, ``LogError``, ``IllegalLog`` if it cannot be)."""

    def head(self) -> str:
        """The record's head as it is now, read again (what a conflict names)."""

    def save(self, game: Game) -> bool:
        """Keep what was recorded on ``game``; ``False`` (nothing kept) if the record moved on since it was read."""

    def locked(self) -> AbstractContextManager[None]:
        """Held from reading to saving, so that writers whose changes mean the same whatever else was recorded
        take turns rather than conflict."""

    def draw(self, game: Game) -> GameEvent:
        """The table's pending outcome, drawn the way the game says (``TableInputNeeded`` if it is entered by hand)."""

    def log(self) -> GameLog:
        """The record as a JSON log, whatever its ruleset (for ``validate``)."""

    def check(self) -> None:
        """``DamagedGame`` if anything of the record is not what was recorded."""

    def exported(self, force: bool = False) -> tuple[bytes, DamagedGame | None]:
        """The canonical JSON log; a damaged stored game raises ``DamagedGame``, or with ``force`` gives its
        bytes as stored and the damage."""

    def chain(self, every: bool = False) -> ChainReport:
        """The record's hash chain and every problem found in it (the first ``log.KEPT`` of a file unless ``every``)."""


def game_source(ref: str, store: Callable[[], GameStore], catalog: Catalog | None = None) -> GameSource:
    """What a GAME argument names: a JSON log file (the store is not opened) or a stored game.

    ``catalog`` reads a log file with another catalog than the one it names.
    """
    path = log_file(ref)
    return StoredGame(store(), ref) if path is None else LogFile(path, catalog, ref)


class StoredGame:
    """A game in a ``GameStore``: read checked against its receipts, saved in one transaction."""

    def __init__(self, store: GameStore, name: str) -> None:
        self.store, self.ref, self.name = store, name, name
        self.taken_as_written, self.lines = False, {}

    def open(self) -> Game:
        return self.store.get(self.name)

    def head(self) -> str:
        return self.store.get(self.name).head

    def save(self, game: Game) -> bool:
        return self.store.stored_games.save(game)

    def locked(self) -> AbstractContextManager[None]:
        """Nothing to hold: a save that conflicts is made again on the game as it is now."""
        return nullcontext()

    def draw(self, game: Game) -> GameEvent:
        from coimbra_events.store.rolls import drawn

        due = game.pending
        if due is None or due.actor != TABLE:
            waiting = "the game is over" if due is None else f"{due.actor} must act"
            raise TableInputNeeded(f"{self.name}: the table has nothing to roll or deal now ({waiting})")
        return drawn(game, self.store.get)

    def log(self) -> GameLog:
        return self.store.export(self.name)

    def check(self) -> None:
        self.store.check(self.name)

    def exported(self, force: bool = False) -> tuple[bytes, DamagedGame | None]:
        try:
            return game_log.dumps(self.store.export(self.name)), None
        except DamagedGame as exc:
            if not force:
                raise
            return self.store.export_as_stored(self.name), exc

    def chain(self, every: bool = False) -> ChainReport:
        """Read row by row (``GameStore.inspect``), again while a writer changes them meanwhile."""
        for _ in range(READS):
            inspection = self.store.inspect(self.name)
            if not inspection.raced:
                break
        else:
            raise StoreConflict(f"{self.name}: the game kept changing while it was read; try again")
        hashes = [h for h in inspection.chain if h is not None]
        return ChainReport(self.ref, True, len(inspection.entries), hashes, inspection.problems, len(inspection.problems))


class LogFile:
    """A JSON log used as a game: read, changed in memory, written back if nobody else changed it meanwhile."""

    def __init__(self, path: Path, catalog: Catalog | None = None, ref: str | None = None) -> None:
        self.path, self.catalog = path, catalog
        self._holding = False
        self.ref, self.name = ref if ref is not None else str(path), path.stem
        self.data: bytes | None = None
        """The bytes as last read or written: ``save`` writes only over these (a move list as a move list)."""
        self._head = ""
        """The head of the record those bytes hold: a copy is saved only if it was read at that head."""
        self.taken_as_written = False
        self.lines: Mapping[int, int] = {}

    def open(self) -> Game:
        from coimbra_events.game import Game

        self.data = log_reader.read_bytes(self.path)
        game = Game.from_log(self.name, self._read(self.data), self.catalog, str(self.path))
        game.collect_events()  # what the file holds: the copy's own entries are only those recorded from now on
        self._head = game.head
        return game

    def _read(self, data: bytes, keep: int | None = log_reader.KEPT) -> GameLog:
        """The file's record, a JSON log or a move list; ``taken_as_written`` says whether it was a move list no
        hash vouches for (written by hand)."""
        if not log_reader.is_move_list(data):
            self.taken_as_written, self.lines = False, {}
            return log_reader.loads(data, str(self.path), keep)
        from coimbra_events.movelist import read_listing  # the notation, for move lists only

        listing = read_listing(data, str(self.path))
        self.taken_as_written, self.lines = not listing.checked, listing.lines
        return listing.log

    def head(self) -> str:
        return self._read(log_reader.read_bytes(self.path)).head()

    def save(self, game: Game) -> bool:
        """Write the copy over the file if the file is as last read or written here and the copy was read at its
        head (another copy, a session's say, saved since would otherwise be written over)."""
        with nullcontext() if self._holding else locked(self.path):
            if self.data is None or log_reader.read_bytes(self.path) != self.data or _read_at(game) != self._head:
                return False
            data = _move_list(game.to_log()) if log_reader.is_move_list(self.data) else game_log.dumps(game.to_log())
            write_atomically(self.path, data)
            game.collect_events()
            self.data, self._head = data, game.head
        return True

    @contextmanager
    def locked(self) -> Iterator[None]:
        with locked(self.path):
            self._holding = True
            try:
                yield
            finally:
                self._holding = False

    def draw(self, game: Game) -> GameEvent:
        """Drawing needs the store (a seed's draws are the store's, a fork's parent is a stored game)."""
        raise TableInputNeeded(f"{self.ref}: roll draws for stored games (coimbra import {self.ref} first); "
                               f"enter the outcome by hand: coimbra act {self.ref} \"table: ...\"")

    def log(self) -> GameLog:
        return self._read(log_reader.read_bytes(self.path))

    def check(self) -> None:
        """Nothing more to check: a file's chain was checked, event by event, when it was read."""

    def exported(self, force: bool = False) -> tuple[bytes, DamagedGame | None]:
        return game_log.dumps(self.log()), None

    def chain(self, every: bool = False) -> ChainReport:
        try:
            log = self._read(log_reader.read_bytes(self.path), keep=None if every else log_reader.KEPT)
        except LogError as exc:
            return ChainReport(self.ref, False, None, [], exc.problems, exc.count)
        return ChainReport(self.ref, False, len(log.events), [log.anchor(), *log.hashes()], (), 0)


def _read_at(game: Game) -> str:
    """The head of the record a copy was read at: its latest entry but those recorded on it and not kept yet."""
    from coimbra_events.game import Game

    unsaved = sum(1 for event in game.pending_events if isinstance(event, Game.Recorded))
    kept = game.entries - unsaved
    return game.hashes[kept - 1] if kept else game.header.anchor()


def _move_list(log: GameLog) -> bytes:
    """A move list file is written back as a move list (without headings: those are the read side's)."""
    from coimbra_events import movelist

    return movelist.dumps(log).encode()


def game_from_file(path: Path, catalog: Catalog | None = None) -> Game:
    """The game in a JSON log file, rules-checked and not stored (named after the file)."""
    return LogFile(path, catalog).open()
