"""``GameStore``: the games of a table, stored event by event, with an index of them all.

Each game is a ``Game`` aggregate (one stored event per decision or random
outcome). Names are claimed in the store's register (``coimbra_events.names``)
in the same transaction as the game, so two writers cannot take one name; the
games index (``coimbra_events.store.games_index``) is a projection of the store,
caught up after every save and before every listing.

The index is caught up when it is read (listing, a game's entry, numbering an
unnamed game), so saving a game costs one transaction, as the library's own save
does. A command reads a game once: ``update`` applies a change to the game it read (or
was handed) and saves what the change triggered, reading again only when another
writer saved first. Every ``SNAPSHOT_EVERY`` new events of a game being recorded,
its record and table are kept as a snapshot (``Game.Snapshot``), so reading a long
game costs about what reading a short one does.

Where games are kept is chosen by the environment: ``--db PATH`` (the
``db`` argument), else ``$COIMBRA_DB``, else an eventsourcing configuration in
the environment (``PERSISTENCE_MODULE``, for PostgreSQL say), else a SQLite file
in the user's data directory (``platformdirs``). ``--db`` and ``$COIMBRA_DB`` may also be a
``postgresql://user@host/dbname`` URL: a club's shared store. Tests use the in-memory store (``in_memory=True``).

Every save of a game also saves its receipt (``coimbra_events.store.inspection``), and
every read checks the game against its hash chain and its latest receipt before
any rule runs: a damaged game is refused with ``DamagedGame``, never folded past
its damage. A snapshot is taken before the save that makes it due, so that the
save's receipt vouches for it, and kept after; a read starts from a snapshot only
if the latest receipt vouches for it. Two writers on one game: the second is
refused with ``GameChanged`` (nothing stored) unless its change means the same
whatever else was recorded.
"""

from __future__ import annotations

import difflib
import os
import random
import re
import unicodedata
from contextlib import nullcontext, suppress
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar
from urllib.parse import parse_qs, unquote, urlsplit
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Mapper, OperationalError, PersistenceError, RecordConflictError
from eventsourcing.utils import Environment, get_topic

from coimbra_events.store import postgres as postgres_store
from coimbra_events.catalog import Catalog, standin_catalog
from coimbra_events.events import Corrected, GameEvent, RuleOverridden
from coimbra_events.store.files import locked
from coimbra_events.game import NAMESPACE, BrokenLink, Entries, Folding, Game, StaleSnapshot, fold_game, project
from coimbra_events.store.games_index import GamesIndex, catch_up
from coimbra_events.store.games_query import GameInfo, GamesQuery, IN_PROGRESS, OVER, Page, STATUSES
from coimbra_events.store.games_view import info_of, view_for
from coimbra_events.store.inspection import Inspection, inspect_game, rows_of
from coimbra_events.store.receipts import Receipt, receipt_id, receipt_of, vouched
from coimbra_events.log import GameLog, LogError, LogProblem, dumps_entries, write
from coimbra_events.log_reader import loads, read_bytes
from coimbra_events.store.register import GameName, fold_name, legacy_game_id
from coimbra_events.store.topics import STORED_TOPICS, StoredTopics
from coimbra_events.notation import is_name
from coimbra_events.players import fold_aliases
from coimbra_events.references import log_file, shaped_like_path
from coimbra_events.rules import core as rules
from coimbra_events.rulesets import IMPLEMENTED, refusal
from coimbra_events.state import TABLE
from coimbra_events.store.errors import (
    BadFork,
    BadGameName,
    BadPlayers,
    DamagedGame,
    DamagedIndex,
    GameChanged,
    StoreConflict,
    TableInputNeeded,
    UnknownGame,
)

T = TypeVar("T")
ATTEMPTS = 5
"""How often a save is rebuilt and retried when another process wrote first."""
SNAPSHOT_EVERY = 20
"""Events of a game between two of its snapshots (taken when it is recorded into, never on import)."""

_GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_TAG = re.compile(r"[^\s,]{1,40}")


# --- where the store lives ---------------------------------------------------------------------


def default_db_path() -> Path:
    """``games.sqlite`` in the user's data directory (``~/.local/share/coimbra`` on Linux, by ``platformdirs``)."""
    from platformdirs import user_data_path

    return user_data_path("coimbra", appauthor=False) / "games.sqlite"


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
    db: str | os.PathLike[str] | None = None,
    *,
    in_memory: bool = False,
    environ: Mapping[str, str] = os.environ,
    create: bool = True,
) -> dict[str, str]:
    """The eventsourcing settings for a store: see the module docstring for the order of choice.

    ``create``: make the SQLite file's folder if it is missing.
    """
    if in_memory:
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    path = db if db is not None else environ.get("COIMBRA_DB")
    if path is not None and _POSTGRES_URL.match(str(path)):
        return postgres_url_env(str(path), environ)
    if path is None and (environ.get("PERSISTENCE_MODULE") or environ.get(f"{GameStore.name.upper()}_PERSISTENCE_MODULE")):
        return {}
    target = Path(path if path is not None else default_db_path()).expanduser()
    if create:
        target.parent.mkdir(parents=True, exist_ok=True)
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(target)}


_POSTGRES_URL = re.compile(r"postgres(?:ql)?:/+", re.IGNORECASE)
"""``postgresql://...``; also as a path option collapses it (``postgresql:/...``)."""


def postgres_url_env(url: str, environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """``postgresql://user[:password]@host[:port]/dbname[?schema=S]`` as eventsourcing settings.

    Without a password in the URL, ``$PGPASSWORD`` gives it (so it need not be typed where others can see it).
    """
    parts = urlsplit(_POSTGRES_URL.sub("postgresql://", url, count=1))
    query = parse_qs(parts.query)
    settings = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_HOST": parts.hostname or "localhost",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": unquote(parts.username or environ.get("PGUSER", "")),
        "POSTGRES_PASSWORD": unquote(parts.password or environ.get("PGPASSWORD", "")),
        "POSTGRES_DBNAME": unquote(parts.path.lstrip("/")) or unquote(parts.username or ""),
    }
    if query.get("schema"):
        settings["POSTGRES_SCHEMA"] = query["schema"][0]
    return settings


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
    """Games stored as events: create, record, import, export, list, rename, tag, archive.

    ``entered_by`` is who enters new entries through this store (the ``by`` of
    their stamps, with ``at`` the time); ``None`` leaves new entries unstamped.
    """

    name = "coimbra"
    is_snapshotting_enabled = True  # the store takes snapshots itself (``_saved``), not on the library's interval

    def __init__(
        self,
        db: str | os.PathLike[str] | None = None,
        *,
        in_memory: bool = False,
        env: Mapping[str, str] | None = None,
        entered_by: str | None = None,
    ) -> None:
        settings = store_settings(db, in_memory=in_memory, env=env)
        environment = Environment(self.name, {**os.environ, **settings})
        self.location = describe_store(environment)
        self.entered_by = entered_by
        postgres = environment.get("PERSISTENCE_MODULE") == "eventsourcing.postgres"
        with postgres_store.ready(environment, self.tables()) if postgres else nullcontext({}) as extra:
            super().__init__(env={**settings, **extra})
            self.index = GamesIndex(view_for(self), lambda game_id: self._read(game_id, self._latest_receipt(game_id)))
        self._numbers: dict[str, int] = {}
        """The next number to try for an unnamed game, by base name (read from the index once per base)."""
        self._contested: set[str] = set()
        """Names whose claim conflicted: the next claim reads their entry first (a new name is claimed unread)."""
        self._legacy: bool | None = None
        """Whether this store was written before the register (read once)."""
        self._claiming: list[str] = []
        """The names claimed by the save being built (``_commit``)."""

    def tables(self) -> list[str]:
        """The tables this store is kept in (PostgreSQL's names): the library's, and the games index's
        (``coimbra_events.store.games_index``)."""
        snapshots = ["coimbra_snapshots"] if type(self).is_snapshotting_enabled or type(self).snapshotting_intervals else []
        index = ["games_index", "games_index_players", "games_index_tags", "games_index_tracking"]
        return [f"{self.name.lower()}_events", *snapshots, *index]

    def construct_mapper(self) -> Mapper:
        """A mapper that resolves the topics of this application's own classes only (``StoredTopics``)."""
        mapper = self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=StoredTopics)
        mapper.topics = STORED_TOPICS
        return mapper

    # -- reading

    def get(self, name: str, any_ruleset: bool = False) -> Game:
        """The stored game with this name, checked against its hash chain and its latest receipt.

        ``UnknownGame`` if there is none; ``DamagedGame`` (naming the first problem)
        if its rows are not what was recorded. A game recorded under a ruleset this
        engine does not implement is refused (``LogError``), unless ``any_ruleset``
        (for reading its record as it is: export, verify).
        """
        try:
            game = self._checked(self._game_id(name), name)
        except UnknownGame:
            raise UnknownGame(name, self._near(name)) from None
        if not any_ruleset and game.header.ruleset not in IMPLEMENTED:
            raise LogError(f"stored game {name}", [LogProblem(0, "another ruleset", refusal(game.header.ruleset))])
        return game

    def _checked(self, game_id: UUID, name: str) -> Game:
        """The game with this id, if its latest receipt vouches for it; else what ``inspect`` finds wrong."""
        for _ in range(ATTEMPTS):
            failure: Exception | None = None
            game: Game | None = None
            try:
                receipt = self._latest_receipt(game_id)
                game = self._read(game_id, receipt)
                if game.name != name:
                    raise UnknownGame(name)
                if receipt is not None and (receipt.entries, receipt.head) == (game.entries, game.head):
                    game.receipts = receipt.originator_version
                    return game
            except UnknownGame:
                game = None  # nothing stored under this id, or a game by another name: ``inspect`` says which
            except Exception as exc:  # whatever a changed store makes the library or the fold raise; see below
                failure, game = exc, None
            inspection = self._inspect(game_id, name)
            if inspection.raced:
                continue
            if inspection.problems:
                raise DamagedGame(name, inspection.problems)
            if failure is not None:
                raise failure  # the rows are as recorded: a fault of coimbra's own, not of the store
            if game is not None and receipt is None:
                return game  # a game from before receipts were kept: its rows hold (it gets one at its next save)
        raise StoreConflict(f"{name}: the game kept changing while it was read; try again")

    def inspect(self, name: str) -> Inspection:
        """Every problem of a stored game's rows, read one by one; ``UnknownGame`` if there is none."""
        return self._inspect(self._game_id(name), name)

    def _inspect(self, game_id: UUID, name: str) -> Inspection:
        inspection = inspect_game(self, game_id, name)
        if inspection is None:
            raise UnknownGame(name)
        return inspection

    def _latest_receipt(self, game_id: UUID) -> Receipt | None:
        rows = self.recorder.select_events(receipt_id(game_id), desc=True, limit=1)
        if not rows:
            return None
        receipt = self.mapper.to_domain_event(rows[0])
        if type(receipt) is not Receipt:
            raise TypeError(f"a stored {type(receipt).__qualname__} among the receipts of {game_id}")
        return receipt

    def _game_id(self, name: str) -> UUID:
        entry = self._entry(name)
        if entry is None:
            return legacy_game_id(name)  # stores from before the register
        if entry.game_id is None:
            raise UnknownGame(name)
        return entry.game_id

    def _entry(self, name: str) -> GameName | None:
        """The register's entry for a name (a few events, never snapshotted), if it has one."""
        try:
            entry = fold_name(None, self.events.get(GameName.create_id(name)))
            if entry is not None and entry.game_id is not None and not isinstance(entry.game_id, UUID):
                raise ValueError(f"it has the name stand for {entry.game_id!r}, which is no game's id")
            return entry
        except Exception as exc:  # whatever a changed store makes the library or the fold raise
            raise DamagedIndex(f"the store's register of names is damaged at {name!r} ({_one_line(exc)}); "
                               "nothing was changed") from None

    def _read(self, game_id: UUID, receipt: Receipt | None) -> Game:
        """A stored game by id, from its latest snapshot if this code can use it and ``receipt`` (the game's
        latest) vouches for it, else from its events.

        The snapshot's entries are read when first asked for; if they do not hold
        then, they are read from the game's rows (``_rows_up_to``).
        """
        try:
            game = self.repository.get(game_id, projector_func=fold_game)
        except AggregateNotFoundError:
            raise UnknownGame(str(game_id)) from None
        except (StaleSnapshot, BrokenLink):  # a snapshot not usable, or not the one the later rows chain on
            game = None
        if not isinstance(game, Game) or not vouched(game, receipt):
            game = fold_game(None, self.events.get(game_id))
        if not isinstance(game, Game):
            raise UnknownGame(str(game_id))
        if game.snapshot_version:
            game.read_rows_with(partial(self._rows_up_to, game_id, game.name))
        return game

    def _rows_up_to(self, game_id: UUID, name: str, version: int, count: int, head: str) -> Entries:
        """The entries of a game's rows up to ``version``, for a snapshot whose copy of them does not hold.

        They must end where the snapshot said (``count`` entries, at ``head``: the
        head the receipt vouched for when the game was read); else, or if the rows
        cannot be read (the store was closed since, say), ``DamagedGame`` names what
        ``inspect`` finds.
        """
        try:
            rows = fold_game(None, self.events.get(game_id, lte=version))
            if isinstance(rows, Game) and (rows.entries, rows.head) == (count, head):
                return rows.events, rows.hashes, rows.stamps
            problems = list(self._inspect(game_id, name).problems)
        except Exception:  # whatever a changed or closed store makes the library or the fold raise
            problems = []
        raise DamagedGame(name, problems or [LogProblem(count, "snapshot changed", "the game's latest snapshot does not "
                                                        "hold the entries its head chains, and its rows cannot be read now")])

    def _near(self, name: str) -> list[str]:
        """Stored names close to a mistyped one (a read of the index, only when a name is not found)."""
        try:
            self._caught_up()
            rows = self.index.view.select(GamesQuery())[0] + self.index.view.select(GamesQuery(archived=True))[0]
        except DamagedIndex:
            return []
        return difflib.get_close_matches(name, [r["name"] for r in rows], n=3, cutoff=0.6)

    def _caught_up(self) -> int:
        """``catch_up`` of the games index; ``DamagedIndex`` if a stored row it reads is not as it was saved."""
        try:
            return catch_up(self, self.index)
        except Exception as exc:  # whatever a changed store makes the library or the projection raise
            raise DamagedIndex(f"the store's index of games cannot be brought up to date ({_one_line(exc)}); "
                               "nothing was changed") from None

    def open(self, ref: str, catalog: Catalog | None = None) -> Game:
        """A stored game by name, or the game in a JSON log file (not stored; rules-checked).

        Raises ``UnknownGame``, ``LogError`` (unreadable log) or ``IllegalLog``.
        """
        path = log_file(ref)
        return self.get(ref) if path is None else game_from_file(path, catalog)

    def export(self, name: str) -> GameLog:
        """A stored game as a JSON log (whatever ruleset it was recorded under: nothing is folded);
        ``DamagedGame`` if anything of it is not what was recorded.

        A log leaves the store as evidence, so every row of the game is checked
        (``inspect``: every receipt too, not only the latest one ``get`` reads).
        """
        log = self.get(name, any_ruleset=True).to_log()
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

    def games(self, query: GamesQuery = GamesQuery()) -> list[GameInfo]:
        """The stored games a query lets through, oldest first (every listed game by default)."""
        return self.listing(query).games

    def listing(self, query: GamesQuery = GamesQuery()) -> Page:
        """One page of the games index, and how many games match in all."""
        self._caught_up()
        rows, total = self.index.view.select(query)
        return Page([info_of(r) for r in rows], total, query)

    def games_index_caught_up(self) -> int:
        """Bring the games index up to date now (it is also whenever it is read); how many events it took in."""
        return self._caught_up()

    def info(self, name: str) -> GameInfo:
        """The index entry of one game."""
        self._caught_up()
        row = self.index.view.find(name)
        if row is None:
            raise UnknownGame(name)
        return info_of(row)

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

        def build() -> tuple[Game, list[Aggregate], None]:
            chosen = self._name_for(name, players)
            try:
                game = Game.start(chosen, catalog, players, meta)
            except ValueError as exc:
                raise BadPlayers(str(exc)) from None
            game.enter_as(self.entered_by)
            if seed is not None:
                draw_setup(game, random.Random(seed))
            return game, self._claim(chosen, game.id), None

        return self._commit(build)[0]

    def record(self, name: str, *events: GameEvent, game: Game | None = None) -> Game:
        """Add events to a stored game, all or none; ``RuleViolation`` for the first illegal one.

        ``GameChanged`` if another writer changed the game meanwhile: a decision is
        made for the table as it was read (a "pass" means the player then due).
        """

        def add(game: Game) -> None:
            for event in events:
                game.record(event)

        return self.update(name, add, game)[0]

    def commit(self, game: Game) -> Game:
        """Save what was recorded on a game read from this store; ``GameChanged`` if another writer saved first."""
        return self.update(game.name, lambda _: None, game)[0]

    def import_log(
        self, log: GameLog, name: str | None = None, catalog: Catalog | None = None, source: str = "<log>"
    ) -> Game:
        """Store every event of a log in one transaction, after the rules accepted them all (one pass).

        Raises ``LogError`` (catalog, players or ruleset), ``IllegalLog`` (a rule is
        broken; nothing is stored) or ``BadGameName``.
        """

        def build() -> tuple[Game, list[Aggregate], None]:
            chosen = self._name_for(name, log.players)
            game = Game.from_log(chosen, log, catalog, source)
            return game, self._claim(chosen, game.id), None

        return self._commit(build, snapshot=False)[0]

    def update(
        self, name: str, change: Callable[[Game], T], game: Game | None = None, retry: bool = False
    ) -> tuple[Game, T]:
        """Apply ``change`` to a stored game and save what it triggered, all or nothing.

        ``game`` is the stored game as the caller already read it (nothing is read
        then). If another writer saved first: ``GameChanged``, or with ``retry`` (a
        change that means the same whatever else was recorded, a note say) the
        change runs again on a freshly read copy. If ``change`` raises, nothing is
        stored, but the game handed in may hold what it triggered before raising:
        read the game again rather than go on with it.
        """
        given = [game] if game is not None else []

        def build() -> tuple[Game, list[Aggregate], T]:
            current = given.pop() if given else self.get(name)
            current.enter_as(self.entered_by)
            return current, [], change(current)

        return self._commit(build, retry=retry)

    def fork(self, name: str, at: int, new_name: str | None = None, rolls: str = "manual") -> Game:
        """A new game sharing entries 1..``at`` of ``name``; its lineage goes into the index and its header.

        ``rolls`` says where the fork's later table outcomes come from: the
        parent's where they still fit (``parent``), typed by hand (``manual``) or
        drawn from a seed (``seed:S``). ``BadFork`` for a point that is not a
        whole entry of the parent's record.
        """
        parse_rolls(rolls)

        def build() -> tuple[Game, list[Aggregate], None]:
            parent = self.get(name)
            if not 0 <= at <= parent.entries:
                raise BadFork(f"--at {at}: {name} has entries 0 to {parent.entries}")
            if at and type(parent.events[at - 1]) in (Corrected, RuleOverridden):
                raise BadFork(f"entry {at} introduces entry {at + 1}; fork at {at + 1} or {at - 1}")
            mode, seed = parse_rolls(rolls)
            meta = {k: v for k, v in parent.header.meta.items() if k != "seed"}
            meta.update({"parent": name, "forked_at": at, "rolls": rolls, **({"seed": seed} if mode == "seed" else {})})
            chosen = self._name_for(new_name, parent.header.players)
            game = Game.start(chosen, parent.catalog, parent.header.players, meta, parent.header.ruleset)
            for event, stamp in zip(parent.events[:at], parent.stamps):
                game._trigger(event, stamp)
            return game, self._claim(chosen, game.id), None

        return self._commit(build, snapshot=False)[0]

    def rename(self, name: str, new_name: str) -> Game:
        """Give a game another name; the old one is free again. ``BadGameName`` if the new one is taken or not a name."""

        def build() -> tuple[Game, list[Aggregate], None]:
            game = self.get(name, any_ruleset=True)
            claims = self._claim(self._name_for(new_name, ()), game.id)
            game.rename(new_name)
            return game, [*claims, self._released(name)], None

        return self._commit(build)[0]

    def tag(self, name: str, add: Sequence[str] = (), remove: Sequence[str] = ()) -> Game:
        """Add tags to a game and take others off (``BadGameName`` for a tag with spaces or commas)."""
        for tag in add:
            if not _TAG.fullmatch(tag):
                raise BadGameName(f"tag {tag!r}: use up to 40 characters without spaces or commas")

        def retag(game: Game) -> None:
            kept = [t for t in game.tags if t not in remove]
            game.set_tags(kept + [t for t in dict.fromkeys(add) if t not in kept])

        return self.update_any(name, retag)

    def archive(self, name: str, archived: bool = True) -> Game:
        """Leave a game out of the games list (``archived``) or list it again; nothing is deleted."""
        return self.update_any(name, lambda game: game.set_archived(archived))

    def update_any(self, name: str, change: Callable[[Game], None]) -> Game:
        """``update`` for facts about a record that fold nothing (tags, archiving): any ruleset."""

        def build() -> tuple[Game, list[Aggregate], None]:
            game = self.get(name, any_ruleset=True)
            change(game)
            return game, [], None

        return self._commit(build, announce=False)[0]

    def roll(self, name: str, game: Game | None = None) -> tuple[Game, GameEvent]:
        """Draw the table's pending outcome the way the game's header says, and record it (``game``: as ``update``).

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

        return self.update(name, draw, game)

    def _drawn(self, game: Game) -> GameEvent:
        mode, seed = rolls_of(game)
        space = rules.legal(game.state)
        if mode == "seed":
            return space.sample(random.Random(f"{seed}:{game.entries}"))
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

    # -- internals: names, saving

    def _name_for(self, name: str | None, players: Sequence[tuple[str, str]]) -> str:
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
            self._caught_up()
            self._numbers[base] = self.index.view.largest_number(base) + 1
        number = self._numbers[base]
        while self._taken(candidate := base if number == 1 else f"{base}-{number}"):
            number += 1  # claimed by a game the index has not seen yet
        self._numbers[base] = number + 1
        return candidate

    def _taken(self, name: str) -> bool:
        entry = self._entry(name)
        return entry.game_id is not None if entry is not None else self._legacy_exists(name)

    def _claim(self, name: str, game_id: UUID) -> list[Aggregate]:
        """The register's entry for ``name``, claimed for ``game_id``; ``BadGameName`` if another game has it.

        In a store written since the register, a name not seen contested is claimed
        as a new entry without reading the register: if it has an entry already, the
        save conflicts and the retry reads it.
        """
        entry = self._entry(name) if name in self._contested or self._is_legacy() else None
        if entry is None:
            if self._legacy_exists(name):
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
            self._legacy = bool(self.recorder.select_events(uuid5(NAMESPACE, "index:games"), limit=1))
        return self._legacy

    def _legacy_exists(self, name: str) -> bool:
        """Whether a store from before the register holds a game first named ``name``."""
        return self._is_legacy() and bool(self.recorder.select_events(legacy_game_id(name), limit=1))

    def _released(self, name: str) -> GameName:
        entry = self._entry(name) or GameName.register(name)  # a game from before the register: its old name becomes free
        entry.release()
        return entry

    def _commit(
        self, build: Callable[[], tuple[Game, list[Aggregate], T]], snapshot: bool = True, announce: bool = True,
        retry: bool = True,
    ) -> tuple[Game, T]:
        """Build the changes and save them, with the game's new receipt, in one transaction.

        The game announces a changed result (``Game.announce_result``) in the same
        transaction; afterwards a snapshot is taken if one is due. If another writer
        saved first: rebuild and save again with ``retry`` (a new game, a rename, a
        note), else ``GameChanged``; ``StoreConflict`` if it kept happening. Returns
        the game and what ``build`` returned.
        """
        for _ in range(ATTEMPTS):
            self._claiming = []
            game, others, outcome = build()
            if announce:
                game.announce_result()
            if not game.pending_events and not others:
                return game, outcome  # nothing to save
            kept = self._snapshot_due(game) if snapshot else None
            receipt = receipt_of(game, kept)
            try:
                self.save(game, receipt, *others)
            except (RecordConflictError, OperationalError) as exc:
                if isinstance(exc, OperationalError) and "locked" not in str(exc):
                    raise
                self._contested.update(self._claiming)
                if not retry:
                    raise GameChanged(game.name) from None
                continue
            game.receipts += 1
            if kept is not None:
                self._keep_snapshot(game, kept, receipt)
            return game, outcome
        raise StoreConflict("the store kept changing while saving; nothing stored; try again")

    def _snapshot_due(self, game: Game) -> Game.Snapshot | None:
        """The game's record and table as a snapshot, if one is due: taken before the save, so that the save's
        receipt vouches for it. Never of a game recorded under rules this code does not implement (its table
        would be a fold under other rules; such a game is only ever read as recorded)."""
        if self.snapshots is not None and game.version - game.snapshot_version >= SNAPSHOT_EVERY and \
                game.header.ruleset in IMPLEMENTED:
            return Game.Snapshot.take(game)
        return None

    def _keep_snapshot(self, game: Game, snapshot: Game.Snapshot, receipt: Receipt) -> None:
        """Store a snapshot the game's save vouched for in ``receipt`` (a cache: the save is done whatever becomes
        of it, so a snapshot that cannot be written is not an error: reads fold the rows until the next is kept)."""
        with suppress(PersistenceError):
            self.snapshots.put([snapshot])
            game.snapshot_version, game.snapshot_digest = receipt.snapshot_version, receipt.snapshot_sha256
            drop_older_snapshots(self.snapshots.recorder, game.id, game.version)


def drop_older_snapshots(recorder: Any, game_id: UUID, version: int) -> None:
    """Delete a game's snapshots older than ``version``: only the latest is ever read, and each holds
    the whole record, so keeping them all would grow a store with the square of its games' length.

    The library has no call for it (eventsourcing 9.5): one statement per SQL store. An in-memory
    store keeps its snapshots (it ends with the process)."""
    stores = {cls.__module__ for cls in type(recorder).__mro__}
    if "eventsourcing.sqlite" in stores:
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"DELETE FROM {recorder.events_table_name} WHERE originator_id = ? AND originator_version < ?",
                           (game_id.hex, version))
    elif "eventsourcing.postgres" in stores:
        from psycopg.sql import SQL, Identifier

        statement = SQL("DELETE FROM {schema}.{table} WHERE originator_id = %s AND originator_version < %s").format(
            schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name))
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(statement, (game_id, version))


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:160] or type(exc).__name__


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
