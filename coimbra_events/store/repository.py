"""Stored games, read against their evidence and saved with it: the one place that knows receipts,
snapshots, the inspection behind ``verify``, and retries.

Every save of a game also saves its receipt (``coimbra_events.store.receipts``),
and every read checks the game against its hash chain and its latest receipt before
any rule runs: a damaged game is refused with ``DamagedGame``, never folded past
its damage. A snapshot (``coimbra_events.store.snapshots``) is taken before the
save that makes it due, so that the save's receipt vouches for it, and kept after;
a read starts from a snapshot only if the latest receipt vouches for it. Two
writers on one game: the second's ``save`` answers ``False`` (nothing stored), and
a change that means the same whatever else was recorded is built again (``commit``). What the store knows
of each game it handed out (its receipts, the snapshot in force) is kept here, in
a ``Ledger`` beside the games, never in them.
"""

from __future__ import annotations

from contextlib import suppress
from functools import partial
from typing import TYPE_CHECKING, Callable, Protocol, Sequence, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import OperationalError, PersistenceError, RecordConflictError

from coimbra_events.game import BrokenLink, Entries, Game
from coimbra_events.log import LogProblem
from coimbra_events.rulesets import IMPLEMENTED
from coimbra_events.store.errors import DamagedGame, StoreConflict, UnknownGame
from coimbra_events.store.inspection import Inspection, inspect_game
from coimbra_events.store.receipts import Evidence, Ledger, Receipt, receipt_id, receipt_of, vouched
from coimbra_events.store.rows import Rows
from coimbra_events.store.snapshots import GameSnapshot, StaleSnapshot, fold_game, restore, snapshot_digest

if TYPE_CHECKING:
    from eventsourcing.application import Application

T = TypeVar("T")
ATTEMPTS = 5
"""How often a read or a save is tried again when another process wrote meanwhile."""
SNAPSHOT_EVERY = 20
"""Events of a game between two of its snapshots (taken when it is recorded into, never on import)."""


class Claims(Protocol):
    """The names a save claims: told when a save begins, and when it conflicted (``store.claims.NameClaims``)."""

    def begin(self) -> None: ...

    def contested(self) -> None: ...


class GameRepository:
    """Games of one store by id: read checked (``read``), inspected row by row (``inspect``), saved (``commit``)."""

    def __init__(self, app: Application, rows: Rows, claims: Claims) -> None:
        self.app, self.rows, self.claims = app, rows, claims
        self.ledger = Ledger()
        """The store's evidence of each game it handed out: its receipts and the snapshot in force."""

    def read(self, game_id: UUID, name: str) -> Game:
        """The game with this id, if its latest receipt vouches for it; else what ``inspect`` finds wrong."""
        for _ in range(ATTEMPTS):
            failure: Exception | None = None
            game: Game | None = None
            try:
                receipt = self.latest_receipt(game_id)
                game = self.read_any(game_id, receipt)
                if game.name != name:
                    raise UnknownGame(name)
                if receipt is not None and (receipt.entries, receipt.head) == (game.entries, game.head):
                    self.evidence(game).receipts = receipt.originator_version
                    return game
            except UnknownGame:
                game = None  # nothing stored under this id, or a game by another name: ``inspect`` says which
            except Exception as exc:  # whatever a changed store makes the library or the fold raise; see below
                failure, game = exc, None
            inspection = self.inspect(game_id, name)
            if inspection.raced:
                continue
            if inspection.problems:
                raise DamagedGame(name, inspection.problems)
            if failure is not None:
                raise failure  # the rows are as recorded: a fault of coimbra's own, not of the store
            if game is not None and receipt is None:
                return game  # a game from before receipts were kept: its rows hold (it gets one at its next save)
        raise StoreConflict(f"{name}: the game kept changing while it was read; try again")

    def evidence(self, game: Game) -> Evidence:
        """What this store knows of a game: its receipts and the snapshot in force.

        Kept for a game this store read or saved, as long as nobody saved that copy
        since; a new game has none yet; of a copy saved elsewhere since (through
        another connection to the store), the game's latest receipt is read.
        """
        stored = game.version - len(game.pending_events)
        evidence = self.ledger.of(game)
        if evidence is None or evidence.saved != stored:
            receipt = self.latest_receipt(game.id) if stored else None
            evidence = self.ledger.keep(game, Evidence.of_receipt(stored, receipt))
        return evidence

    def inspect(self, game_id: UUID, name: str) -> Inspection:
        """Every problem of a stored game's rows, read one by one; ``UnknownGame`` if there is none."""
        inspection = inspect_game(self.rows, game_id, name)
        if inspection is None:
            raise UnknownGame(name)
        return inspection

    def latest_receipt(self, game_id: UUID) -> Receipt | None:
        """A game's latest receipt (``None``: a game from before receipts were kept)."""
        rows = self.rows.of(receipt_id(game_id), desc=True, limit=1)
        if not rows:
            return None
        receipt = self.rows.event(rows[0])
        if type(receipt) is not Receipt:
            raise TypeError(f"a stored {type(receipt).__qualname__} among the receipts of {game_id}")
        return receipt

    def read_any(self, game_id: UUID, receipt: Receipt | None) -> Game:
        """A stored game by id, from its latest snapshot if this code can use it and ``receipt`` (the game's
        latest) vouches for it, else from its events.

        The snapshot's entries are read when first asked for; if they do not hold
        then, they are read from the game's rows (``_rows_up_to``).
        """
        game: Game | None = None
        try:
            game = self._from_snapshot(game_id, receipt)
        except (StaleSnapshot, BrokenLink):  # a snapshot not usable, or not the one the later rows chain on
            game = None
        if game is None:
            game = fold_game(None, self.app.events.get(game_id))
            if not isinstance(game, Game):
                raise UnknownGame(str(game_id))
            self.ledger.keep(game, Evidence(game.version))
        return game

    def _from_snapshot(self, game_id: UUID, receipt: Receipt | None) -> Game | None:
        """The game from its latest snapshot and the events since, if it has one its latest receipt vouches for."""
        row = self.rows.latest_snapshot(game_id)
        if row is None:
            return None
        snapshot = self.rows.event(row)
        digest = snapshot_digest(snapshot.state)
        if not vouched(snapshot.originator_version, digest, receipt):
            return None
        restored, held = restore(snapshot, partial(self._rows_up_to, game_id))
        game = fold_game(restored, self.app.events.get(game_id, gt=snapshot.originator_version))
        if not isinstance(game, Game):
            return None
        self.ledger.keep(game, Evidence(game.version, version=snapshot.originator_version, digest=digest, held=held))
        return game

    def _rows_up_to(self, game_id: UUID, name: str, version: int, count: int, head: str) -> Entries:
        """The entries of a game's rows up to ``version``, for a snapshot whose copy of them does not hold.

        They must end where the snapshot said (``count`` entries, at ``head``: the
        head the receipt vouched for when the game was read); else, or if the rows
        cannot be read (the store was closed since, say), ``DamagedGame`` names what
        ``inspect`` finds.
        """
        try:
            rows = fold_game(None, self.app.events.get(game_id, lte=version))
            if isinstance(rows, Game) and (rows.entries, rows.head) == (count, head):
                return rows.events, rows.hashes, rows.stamps
            problems = list(self.inspect(game_id, name).problems)
        except Exception:  # whatever a changed or closed store makes the library or the fold raise
            problems = []
        raise DamagedGame(name, problems or [LogProblem(count, "snapshot changed", "the game's latest snapshot does not "
                                                        "hold the entries its head chains, and its rows cannot be read now")])

    def save(self, game: Game, others: Sequence[Aggregate] = (), snapshot: bool = True, announce: bool = True) -> bool:
        """Save what was triggered on ``game`` (and ``others``), with the game's new receipt, in one transaction;
        ``False``, and nothing saved, if another writer saved first (the caller reads the game again or answers
        a conflict: a value, never an exception thrown through the store).

        The game announces a changed result (``Game.announce_result``) in the same
        transaction; afterwards a snapshot is taken if one is due.
        """
        if announce:
            game.announce_result()
        if not game.pending_events and not others:
            return True  # nothing to save
        kept = self._snapshot_due(game) if snapshot else None
        evidence = self.evidence(game)
        receipt = receipt_of(game, evidence, kept)
        try:
            self.app.save(game, receipt, *others)
        except (RecordConflictError, OperationalError) as exc:
            if isinstance(exc, OperationalError) and "locked" not in str(exc):
                raise
            return False
        evidence.saved_with(game.version, receipt)
        if kept is not None:
            self._keep_snapshot(game, kept, receipt)
        return True

    def commit(self, build: Callable[[], tuple[Game, list[Aggregate], T]], snapshot: bool = True,
               announce: bool = True) -> tuple[Game, T]:
        """Build a change that means the same whatever else was saved meanwhile (a new game, a fork, a rename,
        tags) and save it, built again on what is stored now if another writer saved first; ``StoreConflict``
        if that kept happening. Returns the game and what ``build`` returned."""
        for _ in range(ATTEMPTS):
            self.claims.begin()
            game, others, outcome = build()
            if self.save(game, others, snapshot, announce):
                return game, outcome
            self.claims.contested()
        raise StoreConflict("the store kept changing while saving; nothing stored; try again")

    def _snapshot_due(self, game: Game) -> GameSnapshot | None:
        """The game's record and table as a snapshot, if one is due: taken before the save, so that the save's
        receipt vouches for it. Never of a game recorded under rules this code does not implement (its table
        would be a fold under other rules; such a game is only ever read as recorded)."""
        if self.app.snapshots is not None and game.version - self.evidence(game).snapshot_version >= SNAPSHOT_EVERY and \
                game.header.ruleset in IMPLEMENTED:
            return GameSnapshot.take(game)
        return None

    def _keep_snapshot(self, game: Game, snapshot: GameSnapshot, receipt: Receipt) -> None:
        """Store a snapshot the game's save vouched for in ``receipt`` (a cache: the save is done whatever becomes
        of it, so a snapshot that cannot be written is not an error: reads fold the rows until the next is kept)."""
        with suppress(PersistenceError):
            self.app.snapshots.put([snapshot])
            self.evidence(game).kept(receipt.snapshot_version, receipt.snapshot_sha256)
            self.rows.drop_snapshots_before(game.id, game.version)
