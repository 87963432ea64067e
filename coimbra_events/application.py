"""``GameStore``: the games of a table, stored event by event, with an index of them all.

Each game is a ``Game`` aggregate (one stored event per decision or random
outcome). The library has no call that lists aggregates, so a ``GamesIndex``
aggregate keeps one entry per game (name, players, status, created, parent);
it is saved in the same ``save()`` call as the game it describes, so the
index and the games can never disagree.

Every save of a game also saves its receipt (``coimbra_events.integrity``), and
every read checks the game against its hash chain and its latest receipt before
any rule runs: a damaged game is refused with ``DamagedGame``, never folded past
its damage. Two writers on one game: the second is refused with ``GameChanged``
(nothing stored) unless its change does not depend on what it read.

Where games are kept is chosen by the environment: ``--db PATH`` (the
``db`` argument), else ``$COIMBRA_DB``, else an eventsourcing configuration in
the environment (``PERSISTENCE_MODULE``, for PostgreSQL say), else a SQLite file
in the user's data directory. Tests use the in-memory store (``in_memory=True``).
"""

from __future__ import annotations

import difflib
import os
import random
import re
import unicodedata
from contextlib import nullcontext
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Mapper, OperationalError, RecordConflictError
from eventsourcing.utils import Environment, get_topic

from coimbra_events import postgres_store
from coimbra_events.catalog import Catalog, standin_catalog
from coimbra_events.events import Corrected, GameEvent, RuleOverridden
from coimbra_events.files import locked
from coimbra_events.game import NAMESPACE, Folding, Game, fold_game
from coimbra_events.integrity import (
    DamagedGame,
    Inspection,
    Receipt,
    StoredTopics,
    inspect_game,
    receipt_id,
    receipt_of,
    rows_of,
)
from coimbra_events.log import GameLog, LogError, LogProblem, dumps_entries, loads, read_bytes, write
from coimbra_events.notation import is_name
from coimbra_events.rules import core as rules
from coimbra_events.state import TABLE

T = TypeVar("T")
IN_PROGRESS, OVER = "in progress", "over"
STATUSES = (IN_PROGRESS, OVER)
ATTEMPTS = 5
"""How often a save is rebuilt and retried when another process wrote first."""

_GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


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
    """Another writer changed the store while this command was saving; nothing of it was stored."""


class GameChanged(StoreConflict):
    """The game was changed by another writer between this command's reading it and saving."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name}: the game changed since you read it; nothing stored; try again")


class DamagedIndex(ValueError):
    """The store's index of games cannot be read as it was saved."""


@dataclass(frozen=True)
class GameInfo:
    """One entry of the games index."""

    name: str
    players: tuple[tuple[str, str], ...]
    status: str
    created: datetime
    parent: str | None = None
    seed: int | None = None
    catalog_id: str = ""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values, for ``--json`` output."""
        return {
            "name": self.name,
            "players": [{"name": n, "color": c} for n, c in self.players],
            "status": self.status,
            "created": self.created.isoformat(),
            "parent": self.parent,
            "seed": self.seed,
            "catalog": self.catalog_id,
        }


class GamesIndex(Aggregate):
    """Every game of the store by name; saved together with the game each change is about."""

    class Created(Aggregate.Created):
        def apply(self, index: GamesIndex) -> None:
            index.entries = {}

    class Listed(Aggregate.Event):
        """A game was added to the store (new, imported, or later forked from ``parent``)."""

        name: str
        players: tuple
        parent: str | None
        seed: int | None
        catalog_id: str
        status: str

        def apply(self, index: GamesIndex) -> None:
            players = self.players
            if not (type(self.name) is str and self.status in STATUSES and type(self.catalog_id) is str
                    and isinstance(players, (list, tuple)) and all(_is_pair(p) for p in players)
                    and type(self.parent) in (str, type(None)) and type(self.seed) in (int, type(None))):
                raise ValueError(f"a listing of {self.name!r} is not as coimbra saves one")
            index.entries[self.name] = GameInfo(
                self.name, tuple((n, c) for n, c in players), self.status, self.timestamp, self.parent, self.seed,
                self.catalog_id,
            )

    class StatusChanged(Aggregate.Event):
        name: str
        status: str

        def apply(self, index: GamesIndex) -> None:
            if self.status not in STATUSES or self.name not in index.entries:
                raise ValueError(f"a status change of {self.name!r} is not as coimbra saves one")
            index.entries[self.name] = replace(index.entries[self.name], status=self.status)

    @staticmethod
    def create_id() -> UUID:
        """There is one index per store."""
        return uuid5(NAMESPACE, "index:games")

    @classmethod
    def open(cls) -> GamesIndex:
        return cls._create(cls.Created)

    def list_game(self, game: Game, parent: str | None = None) -> None:
        """Add a game; ``BadGameName`` if the name is taken."""
        if game.name in self.entries:
            raise BadGameName(f"a game named {game.name!r} already exists (choose another --name)")
        seed = game.header.meta.get("seed")
        self.trigger_event(
            self.Listed, name=game.name, players=tuple(game.header.players), parent=parent,
            seed=seed if type(seed) is int else None, catalog_id=game.header.catalog_id, status=status_of(game),
        )

    def update_status(self, game: Game) -> bool:
        """Note a game's new status; ``True`` if it changed (and the index must be saved)."""
        status = status_of(game)
        if self.entries[game.name].status == status:
            return False
        self.trigger_event(self.StatusChanged, name=game.name, status=status)
        return True


def status_of(game: Game) -> str:
    return OVER if game.over else IN_PROGRESS


def _is_pair(player: Any) -> bool:
    """A player as the index stores one: name and colour."""
    return isinstance(player, (list, tuple)) and len(player) == 2 and all(type(x) is str for x in player)


fold_index = Folding(GamesIndex, (GamesIndex.Created, GamesIndex.Listed, GamesIndex.StatusChanged))
"""How the store folds its index."""

STORED_CLASSES: tuple[type, ...] = (*fold_game.events, *fold_index.events, Receipt)
"""Every class a stored row may hold: the topics the store's mapper resolves."""


# --- where the store lives ---------------------------------------------------------------------


def default_db_path(environ: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_DATA_HOME/coimbra/games.sqlite`` (``~/.local/share`` by default; ``%APPDATA%`` on Windows)."""
    if os.name == "nt":
        base = environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
    else:
        base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "coimbra" / "games.sqlite"


def store_settings(
    db: str | os.PathLike[str] | None = None, *, in_memory: bool = False, env: Mapping[str, str] | None = None
) -> dict[str, str]:
    """What a ``GameStore`` is given: where it lives (``store_env``), ``env`` over it, each key also with
    the application's prefix (so a stray ``COIMBRA_SQLITE_DBNAME`` cannot override ``--db``), and, for
    PostgreSQL, a short connection timeout and a pool of one connection unless set otherwise."""
    settings = {**store_env(db, in_memory=in_memory, environ={**os.environ, **(env or {})}), **(env or {})}
    given = Environment(GameStore.name, {**os.environ, **settings})
    settings.update({key: value for key, value in postgres_store.DEFAULTS.items() if not given.get(key)})
    settings.update({f"{GameStore.name.upper()}_{k}": v for k, v in list(settings.items())})
    return settings


def describe_store(env: Mapping[str, str]) -> str:
    """Where a store's games are, as messages say it: a file, ``memory``, or a PostgreSQL database
    (an eventsourcing ``Environment``, which reads prefixed keys first)."""
    module = env.get("PERSISTENCE_MODULE") or "eventsourcing.popo"
    if module == "eventsourcing.sqlite":
        return env.get("SQLITE_DBNAME") or "a SQLite file"
    if module == "eventsourcing.postgres":
        return postgres_store.where(postgres_store.settings(env))
    return "memory" if module == "eventsourcing.popo" else module


def where_games_live(db: str | os.PathLike[str] | None = None) -> str:
    """``describe_store`` for the store ``GameStore(db)`` would open (for a message when it cannot)."""
    try:
        settings = store_settings(db)
    except OSError:
        settings = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db or os.environ.get("COIMBRA_DB") or "")}
    return describe_store(Environment(GameStore.name, {**os.environ, **settings}))


def store_env(
    db: str | os.PathLike[str] | None = None, *, in_memory: bool = False, environ: Mapping[str, str] = os.environ
) -> dict[str, str]:
    """The eventsourcing settings for a store: see the module docstring for the order of choice."""
    if in_memory:
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    path = db if db is not None else environ.get("COIMBRA_DB")
    if path is None and (environ.get("PERSISTENCE_MODULE") or environ.get(f"{GameStore.name.upper()}_PERSISTENCE_MODULE")):
        return {}
    target = Path(path if path is not None else default_db_path(environ)).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(target)}


def log_file(ref: str) -> Path | None:
    """The JSON log a GAME argument names, or ``None`` for a stored game's name.

    An existing file, or anything shaped like a path (a folder separator, a
    ``.json`` ending), is a log, so a mistyped path says "cannot read file"
    rather than "no such game".
    """
    path = Path(ref)
    looks_like_path = "/" in ref or os.sep in ref or ref.lower().endswith(".json")
    return path if path.is_file() or looks_like_path else None


def game_from_file(path: Path, catalog: Catalog | None = None) -> Game:
    """The game in a JSON log file, rules-checked and not stored (named after the file)."""
    return LogFile(path).open(catalog)


class LogFile:
    """A JSON log used as a game: read once, changed in memory, written back if nobody else changed it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data = read_bytes(path)
        """The bytes as read: ``commit`` writes only over these."""

    def open(self, catalog: Catalog | None = None) -> Game:
        """The game it holds, rules-checked (named after the file); ``LogError`` or ``IllegalLog`` if it cannot be."""
        return Game.from_log(self.path.stem, loads(self.data, str(self.path)), catalog, str(self.path))

    def commit(self, game: Game) -> Game:
        """Write ``game`` over the file under its lock; ``GameChanged`` if the file changed since it was read."""
        with locked(self.path):
            self.replace(game)
        return game

    def replace(self, game: Game) -> None:
        """``commit`` for a caller that holds the file's lock."""
        if read_bytes(self.path) != self.data:
            raise GameChanged(str(self.path))
        write(self.path, game.to_log())


def update_log_file(path: Path, change: Callable[[Game], T], catalog: Catalog | None = None,
                    serialize: bool = False) -> tuple[Game, T]:
    """``GameStore.update`` for a JSON log: apply ``change`` and write the file back.

    If another process wrote the file meanwhile: ``GameChanged``; with
    ``serialize`` (a change that means the same whatever else was recorded) the
    file's lock is held from reading to writing, so such writers take turns.
    """
    with locked(path) if serialize else nullcontext():
        file = LogFile(path)
        game = file.open(catalog)
        outcome = change(game)
        file.replace(game) if serialize else file.commit(game)
    return game, outcome


def slug(words: Iterable[str]) -> str:
    """``Ana``, ``Bruno``, ``Conceição`` -> ``ana-bruno-conceicao``."""
    text = unicodedata.normalize("NFKD", "-".join(words)).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:48] or "game"


# --- the store -----------------------------------------------------------------------------------


class GameStore(Application):
    """Games stored as events: create, record, import, export, list."""

    name = "coimbra"

    def __init__(
        self, db: str | os.PathLike[str] | None = None, *, in_memory: bool = False, env: Mapping[str, str] | None = None
    ) -> None:
        settings = store_settings(db, in_memory=in_memory, env=env)
        environment = Environment(self.name, {**os.environ, **settings})
        self.location = describe_store(environment)
        postgres = environment.get("PERSISTENCE_MODULE") == "eventsourcing.postgres"
        with postgres_store.ready(environment, self.tables()) if postgres else nullcontext({}) as extra:
            super().__init__(env={**settings, **extra})

    def tables(self) -> list[str]:
        """The tables the library keeps this store in (PostgreSQL's names)."""
        snapshots = ["coimbra_snapshots"] if type(self).is_snapshotting_enabled or type(self).snapshotting_intervals else []
        return [f"{self.name.lower()}_events", *snapshots]

    def construct_mapper(self) -> Mapper:
        """A mapper that resolves the topics of this application's own classes only (``StoredTopics``)."""
        mapper = self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=StoredTopics)
        mapper.topics = frozenset(get_topic(cls) for cls in STORED_CLASSES)
        return mapper

    # -- reading

    def get(self, name: str) -> Game:
        """The stored game with this name, checked against its hash chain and its latest receipt.

        ``UnknownGame`` if there is none; ``DamagedGame`` (naming the first
        problem) if its rows are not what was recorded.
        """
        for _ in range(ATTEMPTS):
            failure: Exception | None = None
            try:
                receipt = self._latest_receipt(name)
                game = self.repository.get(Game.create_id(name), projector_func=fold_game)
                if (receipt is not None and isinstance(game, Game) and game.name == name
                        and (receipt.entries, receipt.head) == (len(game.events), game.head)):
                    game.receipts = receipt.originator_version
                    return game
            except AggregateNotFoundError:
                pass
            except Exception as exc:  # whatever a changed store makes the library or the fold raise; see below
                failure = exc
            inspection = self.inspect(name)
            if inspection.raced:
                continue
            if inspection.problems:
                raise DamagedGame(name, inspection.problems)
            if failure is not None:
                raise failure  # the rows are as recorded: a fault of coimbra's own, not of the store
        raise StoreConflict(f"{name}: the game kept changing while it was read; try again")

    def inspect(self, name: str) -> Inspection:
        """Every problem of a stored game's rows, read one by one; ``UnknownGame`` if there is none."""
        inspection = inspect_game(self.recorder, self.mapper, name)
        if inspection is None:
            raise UnknownGame(name, self._near(name))
        return inspection

    def _near(self, name: str) -> list[str]:
        """Stored names close to a mistyped one (a read of the index, only when a name is not found)."""
        try:
            names = [i.name for i in self.games()]
        except (AggregateNotFoundError, DamagedIndex):
            return []
        return difflib.get_close_matches(name, names, n=3, cutoff=0.6)

    def _latest_receipt(self, name: str) -> Receipt | None:
        rows = self.recorder.select_events(receipt_id(name), desc=True, limit=1)
        if not rows:
            return None
        receipt = self.mapper.to_domain_event(rows[0])
        if type(receipt) is not Receipt:
            raise TypeError(f"a stored {type(receipt).__qualname__} among the receipts of {name}")
        return receipt

    def open(self, ref: str, catalog: Catalog | None = None) -> Game:
        """A stored game by name, or the game in a JSON log file (not stored; rules-checked).

        Raises ``UnknownGame``, ``LogError`` (unreadable log) or ``IllegalLog``.
        """
        path = log_file(ref)
        return self.get(ref) if path is None else game_from_file(path, catalog)

    def export(self, name: str) -> GameLog:
        """A stored game as a JSON log; ``DamagedGame`` if anything of it is not what was recorded.

        A log leaves the store as evidence, so every row of the game is checked
        (``inspect``: every receipt too, not only the latest one ``get`` reads).
        """
        log = self.get(name).to_log()
        self.check(name)
        return log

    def check(self, name: str) -> None:
        """``DamagedGame`` if any row of the game is not what was recorded (every receipt too)."""
        problems = self.inspect(name).problems
        if problems:
            raise DamagedGame(name, problems)

    def export_as_stored(self, name: str) -> bytes:
        """A damaged game's log as it is stored: its readable entries with the hashes they were recorded with.

        ``DamagedGame`` if the damage would not show in such a file (a header that
        cannot be read, entries missing at the end, hashes worked out again), so
        that no file written from a damaged game reads as intact.
        """
        inspection = self.inspect(name)
        problems = inspection.problems or (LogProblem(0, "changed while read", "try again"),)
        if inspection.header is None:
            raise DamagedGame(name, problems)
        try:
            data = dumps_entries(inspection.header, rows_of(inspection.entries))
            loads(data, name)
        except TypeError:
            pass  # nested too deeply to write: refused below
        except LogError:
            return data  # the file shows the damage, as it must
        raise DamagedGame(name, problems[:1] + (LogProblem(problems[0].seq, "cannot be shown in a log file",
                                                           "written as stored, it would read as intact; coimbra verify lists it"),))

    def games(self) -> list[GameInfo]:
        """Every stored game, oldest first."""
        return list(self._index().entries.values())

    def info(self, name: str) -> GameInfo:
        """The index entry of one game."""
        try:
            return self._index().entries[name]
        except KeyError:
            raise UnknownGame(name) from None

    # -- writing

    def new_game(
        self,
        players: Sequence[tuple[str, str]],
        catalog: Catalog | None = None,
        name: str | None = None,
        seed: int | None = None,
    ) -> Game:
        """Create a game; with a seed, the table's setup outcomes are drawn up to the first decision.

        The draws go through the rules core's outcome spaces, the same ones a
        simulated game uses, and are stored as ordinary events; the seed is
        kept in the log header (``meta.seed``) and the index.
        """
        catalog = catalog or standin_catalog()
        check_players(players)
        meta = {"seed": seed} if seed is not None else {}

        def build(index: GamesIndex) -> Game:
            chosen = self._name_for(index, name, players)
            try:
                game = Game.start(chosen, catalog, players, meta)
            except ValueError as exc:
                raise BadPlayers(str(exc)) from None
            if seed is not None:
                draw_setup(game, random.Random(seed))
            index.list_game(game)
            return game

        return self._commit(build, with_index=True)

    def record(self, name: str, *events: GameEvent) -> Game:
        """Add events to a stored game, all or none; ``RuleViolation`` for the first illegal one.

        ``GameChanged`` if another writer changed the game meanwhile: a decision
        is made for the table as it was read (a "pass" means the player then due).
        """

        def add(game: Game) -> None:
            for event in events:
                game.record(event)

        return self.update(name, add)[0]

    def commit(self, game: Game) -> Game:
        """Save what was recorded on a game read from this store; ``GameChanged`` if another writer saved first."""
        return self._commit(lambda index: game, with_index=False, retry=False)

    def import_log(
        self, log: GameLog, name: str | None = None, catalog: Catalog | None = None, source: str = "<log>"
    ) -> Game:
        """Store every event of a log in one transaction, after the rules accepted them all.

        Raises ``LogError`` (catalog or players), ``IllegalLog`` (a rule is
        broken; nothing is stored) or ``BadGameName``.
        """
        players = log.players

        def build(index: GamesIndex) -> Game:
            game = Game.from_log(self._name_for(index, name, players), log, catalog, source)
            parent = log.meta.get("parent")
            index.list_game(game, parent=parent if isinstance(parent, str) else None)
            return game

        return self._commit(build, with_index=True)

    def update(self, name: str, change: Callable[[Game], T], retry: bool = False) -> tuple[Game, T]:
        """Apply ``change`` to a stored game and save what it triggered, all or nothing.

        If another writer saved first: ``GameChanged``, or with ``retry`` (for a
        change that means the same whatever else was recorded, a note say) the
        change runs again on a fresh copy.
        """
        outcome: list[T] = []

        def build(index: GamesIndex | None) -> Game:
            game = self.get(name)
            outcome[:] = [change(game)]
            return game

        game = self._commit(build, with_index=False, retry=retry)
        return game, outcome[0]

    def fork(self, name: str, at: int, new_name: str | None = None, rolls: str = "manual") -> Game:
        """A new game sharing entries 1..``at`` of ``name``; its lineage goes into the index and its header.

        ``rolls`` says where the fork's later table outcomes come from: the
        parent's where they still fit (``parent``), typed by hand (``manual``) or
        drawn from a seed (``seed:S``). ``BadFork`` for a point that is not a
        whole entry of the parent's record.
        """
        parse_rolls(rolls)

        def build(index: GamesIndex) -> Game:
            parent = self.get(name)
            if not 0 <= at <= len(parent.events):
                raise BadFork(f"--at {at}: {name} has entries 0 to {len(parent.events)}")
            if at and type(parent.events[at - 1]) in (Corrected, RuleOverridden):
                raise BadFork(f"entry {at} introduces entry {at + 1}; fork at {at + 1} or {at - 1}")
            mode, seed = parse_rolls(rolls)
            meta = {k: v for k, v in parent.header.meta.items() if k != "seed"}
            meta.update({"parent": name, "forked_at": at, "rolls": rolls, **({"seed": seed} if mode == "seed" else {})})
            game = Game.start(self._name_for(index, new_name, parent.header.players), parent.catalog,
                              parent.header.players, meta, parent.header.ruleset)
            for event in parent.events[:at]:
                game._trigger(event)
            index.list_game(game, parent=name)
            return game

        return self._commit(build, with_index=True)

    def roll(self, name: str) -> GameEvent:
        """Draw the table's pending outcome the way the game's header says, and record it.

        ``seed:S`` (or a game created with a seed) draws from ``Random("S:k")``,
        k the number of entries so far, so a draw depends only on the seed and
        the point of the game; ``parent`` reuses the parent's outcome of that
        kind and turn when it is still legal. ``TableInputNeeded`` when the
        outcome must be typed by hand.
        """

        def draw(game: Game) -> GameEvent:
            due = game.pending
            if due is None or due.actor != TABLE:
                waiting = "the game is over" if due is None else f"{due.actor} must act"
                raise TableInputNeeded(f"{name}: the table has nothing to roll or deal now ({waiting})")
            event = self._drawn(game)
            game.record(event)
            return event

        return self.update(name, draw)[1]

    def _drawn(self, game: Game) -> GameEvent:
        mode, seed = rolls_of(game)
        space = rules.legal(game.state)
        if mode == "seed":
            return space.sample(random.Random(f"{seed}:{len(game.events)}"))
        if mode == "parent":
            reused = self._parent_outcome(game)
            if reused is not None:
                return reused
            raise TableInputNeeded(f"{game.name}: the parent's {space.kind} no longer fits this line; enter it by hand")
        raise TableInputNeeded(f"{game.name} takes table outcomes by hand: coimbra act {game.name} \"table: ...\" (coimbra legal shows the form)")

    def _parent_outcome(self, game: Game) -> GameEvent | None:
        """The parent's outcome of the same kind with the same ordinal, if it is legal here."""
        kind = type_of_due(game)
        ordinal = sum(1 for p in game.line.plays if type(p.event) is kind)
        try:
            parent = self.get(str(game.header.meta["parent"]))
        except UnknownGame:
            raise TableInputNeeded(f"{game.name}: its parent {game.header.meta['parent']!r} is not in this store; "
                                   "enter the outcome by hand") from None
        same = [p.event for p in parent.line.plays if type(p.event) is kind]
        if ordinal < len(same) and rules.check(game.state, same[ordinal]) is None:
            return same[ordinal]
        return None

    # -- internals

    def _index(self) -> GamesIndex:
        try:
            index = self.repository.get(GamesIndex.create_id(), projector_func=fold_index)
        except AggregateNotFoundError:
            return GamesIndex.open()
        except Exception as exc:  # whatever a changed store makes the library or the fold raise
            raise DamagedIndex(f"the store's index of games is damaged ({' '.join(str(exc).split())[:160]}); "
                               "nothing was changed") from None
        return index

    def _name_for(self, index: GamesIndex, name: str | None, players: Sequence[tuple[str, str]]) -> str:
        """The given name if free and well formed, else ``ana-bruno-carla``, ``ana-bruno-carla-2`` ..."""
        if name is not None:
            if not _GAME_NAME.fullmatch(name):
                raise BadGameName(f"game name {name!r}: use letters, digits, '-', '_' or '.' (at most 64)")
            if log_file(name) is not None:
                raise BadGameName(f"game name {name!r} reads as a log file's path (it ends in .json); "
                                  "choose a name without it")
            return name
        base = slug(n for n, _ in players)
        k, candidate = 1, base
        while candidate in index.entries:
            k += 1
            candidate = f"{base}-{k}"
        return candidate

    def _commit(self, build: Callable[[Any], Game], with_index: bool, retry: bool = True) -> Game:
        """Build the changes and save game, receipt and index in one transaction.

        ``with_index``: the change lists a game. Otherwise the index is only
        read (and saved) when the game may have changed status. If another
        writer saved first: rebuild and save again with ``retry`` (creating a
        game, a note), else ``GameChanged``; ``StoreConflict`` if it kept happening.
        """
        for _ in range(ATTEMPTS):
            index = self._index() if with_index else None
            game = build(index)
            if not game.pending_events:
                return game  # nothing to save
            if index is None and game.over:
                index = self._index()
                if game.name not in index.entries or not index.update_status(game):
                    index = None
            try:
                self.save(game, receipt_of(game), index)
            except (RecordConflictError, OperationalError) as exc:
                if isinstance(exc, OperationalError) and "locked" not in str(exc):
                    raise
                if not retry:
                    raise GameChanged(game.name) from None
                continue
            game.receipts += 1
            return game
        raise StoreConflict("the store kept changing while saving; nothing stored; try again")


def draw_setup(game: Game, rng: random.Random) -> None:
    """Record the table's random outcomes, drawn from ``rng``, until a player must decide."""
    while (due := game.pending) is not None and due.actor == TABLE:
        game.record(rules.legal(game.state).sample(rng))


def parse_rolls(rolls: str) -> tuple[str, int | None]:
    """``parent``, ``manual`` or ``seed:S``; ``BadFork`` otherwise."""
    if rolls in ("parent", "manual"):
        return rolls, None
    word, _, seed = rolls.partition(":")
    if word == "seed" and re.fullmatch(r"-?\d+", seed):
        return "seed", int(seed)
    raise BadFork(f"--rolls {rolls!r}: expected parent, manual or seed:S (S a whole number)")


def rolls_of(game: Game) -> tuple[str, int | None]:
    """Where a game's table outcomes come from: its fork policy, else its seed, else by hand."""
    meta = game.header.meta
    if "rolls" in meta:
        return parse_rolls(str(meta["rolls"]))
    seed = meta.get("seed")
    return ("seed", seed) if type(seed) is int else ("manual", None)


def type_of_due(game: Game) -> type[GameEvent]:
    """The event type that answers the table's pending input."""
    return rules.ACCEPTS[game.pending.kind][0]


def check_players(players: Sequence[tuple[str, str]]) -> None:
    """Names the notation can write and the rules core accepts; ``BadPlayers`` otherwise."""
    for player, color in players:
        if not is_name(player) or not is_name(color) or " " in color:
            raise BadPlayers(f"player {player!r} ({color!r}): names and colours may not contain ':', ',', '=' or '+'")
