"""``GameStore``: the games of a table, stored event by event, with an index of them all.

Each game is a ``Game`` aggregate (one stored event per decision or random
outcome). The library has no call that lists aggregates, so a ``GamesIndex``
aggregate keeps one entry per game (name, players, status, created, parent);
it is saved in the same ``save()`` call as the game it describes, so the
index and the games can never disagree.

Where games are kept is chosen by the environment: ``--db PATH`` (the
``db`` argument), else ``$COIMBRA_DB``, else an eventsourcing configuration in
the environment (``PERSISTENCE_MODULE``, for PostgreSQL say), else a SQLite file
in the user's data directory. ``--db`` and ``$COIMBRA_DB`` may also be a
``postgresql://user@host/dbname`` URL: a club's shared store. Tests use the in-memory store (``in_memory=True``).
"""

from __future__ import annotations

import difflib
import os
import random
import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar
from urllib.parse import parse_qs, unquote, urlsplit
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import RecordConflictError

from coimbra_events.catalog import Catalog, standin_catalog
from coimbra_events.events import Corrected, GameEvent, RuleOverridden
from coimbra_events.game import NAMESPACE, Game, project
from coimbra_events.log import GameLog, read
from coimbra_events.notation import is_name
from coimbra_events.rules import core as rules
from coimbra_events.state import TABLE

T = TypeVar("T")
IN_PROGRESS, OVER = "in progress", "over"
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
    """Other writers kept changing the same game or the index; nothing of this command was stored."""


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
            players = tuple((str(n), str(c)) for n, c in self.players)
            index.entries[self.name] = GameInfo(
                self.name, players, self.status, self.timestamp, self.parent, self.seed, self.catalog_id
            )

    class StatusChanged(Aggregate.Event):
        name: str
        status: str

        def apply(self, index: GamesIndex) -> None:
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


# --- where the store lives ---------------------------------------------------------------------


def default_db_path(environ: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_DATA_HOME/coimbra/games.sqlite`` (``~/.local/share`` by default; ``%APPDATA%`` on Windows)."""
    if os.name == "nt":
        base = environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
    else:
        base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "coimbra" / "games.sqlite"


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
    target = Path(path if path is not None else default_db_path(environ)).expanduser()
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
    return Game.from_log(path.stem, read(path), catalog, str(path))


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
        settings = {**store_env(db, in_memory=in_memory, environ={**os.environ, **(env or {})}), **(env or {})}
        # Set the prefixed keys too, so a stray COIMBRA_SQLITE_DBNAME cannot override --db.
        settings.update({f"{self.name.upper()}_{k}": v for k, v in list(settings.items())})
        self.location = settings.get("SQLITE_DBNAME") or ("memory" if in_memory else settings.get("PERSISTENCE_MODULE", "environment"))
        super().__init__(env=settings)

    # -- reading

    def get(self, name: str) -> Game:
        """The stored game with this name; ``UnknownGame`` if there is none."""
        try:
            return self.repository.get(Game.create_id(name), projector_func=project)
        except AggregateNotFoundError:
            raise UnknownGame(name, self._near(name)) from None

    def _near(self, name: str) -> list[str]:
        """Stored names close to a mistyped one (a read of the index, only when a name is not found)."""
        try:
            names = [i.name for i in self.games()]
        except AggregateNotFoundError:
            return []
        return difflib.get_close_matches(name, names, n=3, cutoff=0.6)

    def open(self, ref: str, catalog: Catalog | None = None) -> Game:
        """A stored game by name, or the game in a JSON log file (not stored; rules-checked).

        Raises ``UnknownGame``, ``LogError`` (unreadable log) or ``IllegalLog``.
        """
        path = log_file(ref)
        return self.get(ref) if path is None else game_from_file(path, catalog)

    def export(self, name: str) -> GameLog:
        """A stored game as a JSON log."""
        return self.get(name).to_log()

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
        """Add events to a stored game, all or none; ``RuleViolation`` for the first illegal one."""

        def add(game: Game) -> None:
            for event in events:
                game.record(event)

        return self.update(name, add)[0]

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

    def update(self, name: str, change: Callable[[Game], T]) -> tuple[Game, T]:
        """Apply ``change`` to a stored game and save what it triggered, all or nothing.

        ``change`` runs again on a fresh copy if another writer saved first.
        """
        outcome: list[T] = []

        def build(index: GamesIndex | None) -> Game:
            game = self.get(name)
            outcome[:] = [change(game)]
            return game

        game = self._commit(build, with_index=False)
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
            return self.repository.get(GamesIndex.create_id(), projector_func=project)
        except AggregateNotFoundError:
            return GamesIndex.open()

    def _name_for(self, index: GamesIndex, name: str | None, players: Sequence[tuple[str, str]]) -> str:
        """The given name if free and well formed, else ``ana-bruno-carla``, ``ana-bruno-carla-2`` ..."""
        if name is not None:
            if not _GAME_NAME.fullmatch(name):
                raise BadGameName(f"game name {name!r}: use letters, digits, '-', '_' or '.' (at most 64)")
            return name
        base = slug(n for n, _ in players)
        k, candidate = 1, base
        while candidate in index.entries:
            k += 1
            candidate = f"{base}-{k}"
        return candidate

    def _commit(self, build: Callable[[Any], Game], with_index: bool) -> Game:
        """Build the changes and save game and index in one transaction; rebuild if another writer won.

        ``with_index``: the change lists a game. Otherwise the index is only
        read (and saved) when the game may have changed status.
        """
        for _ in range(ATTEMPTS):
            index = self._index() if with_index else None
            game = build(index)
            if index is None and game.over:
                index = self._index()
                if game.name not in index.entries or not index.update_status(game):
                    index = None
            try:
                self.save(game, index)
            except RecordConflictError:
                continue
            return game
        raise StoreConflict("the store kept changing while saving; nothing was stored, try again")


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
