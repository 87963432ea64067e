"""``GameStore``: the games of a table, stored event by event, found by name, with an index of them all.

Each game is a ``Game`` aggregate (one stored event per decision or random
outcome). Its name is claimed in the store's register (``store.claims``) in the
same transaction as the game, so two writers cannot take one name; the games
index (``store.games_index``) is a projection of the store, caught up when it is
read (listing, a game's entry, numbering an unnamed game), so saving a game costs
one transaction, as the library's own save does.

A command reads a game once: ``update`` applies a change to the game it read (or
was handed) and saves what the change triggered, reading again only when another
writer saved first. Reading a game against its evidence, saving it with its
receipt and snapshot, and retrying are the repository's (``store.repository``);
where the store lives is ``store.location``'s.
"""

from __future__ import annotations

import difflib
import os
import random
import re
from contextlib import nullcontext
from typing import Callable, Mapping, Sequence, TypeVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Mapper
from eventsourcing.utils import Environment

from coimbra_events.store import postgres as postgres_store
from coimbra_events.store import sqlite_file
from coimbra_events.catalog import Catalog, standin_catalog
from coimbra_events.events import Corrected, GameEvent, RuleOverridden
from coimbra_events.game import Game
from coimbra_events.store.games_index import GamesIndex, catch_up
from coimbra_events.store.games_query import GameInfo, GamesQuery, Page
from coimbra_events.store.games_view import info_of, view_for
from coimbra_events.store.inspection import Inspection, rows_of
from coimbra_events.store.rolls import draw_setup, drawn, parse_rolls
from coimbra_events.store.claims import NameClaims
from coimbra_events.store.receipts import Evidence
from coimbra_events.store.importing import import_record
from coimbra_events.store.records import Imported, LeagueMark, fold_mark
from coimbra_events.store.repository import GameRepository
from coimbra_events.store.location import APP, describe_store, store_settings
from coimbra_events.store.rows import Rows
from coimbra_events.log import GameLog, LogError, LogProblem, dumps_entries
from coimbra_events.log_reader import loads
from coimbra_events.store.register import legacy_game_id
from coimbra_events.store.topics import STORED_TOPICS, StoredTopics
from coimbra_events.notation import is_name
from coimbra_events.rulesets import IMPLEMENTED, refusal
from coimbra_events.state import TABLE
from coimbra_events.store.errors import (
    AlreadyStored,
    BadFork,
    BadGameName,
    BadPlayers,
    DamagedGame,
    DamagedIndex,
    EventsRemoved,
    TableInputNeeded,
    UnknownGame,
    one_line,
)

T = TypeVar("T")

_GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_TAG = re.compile(r"[^\s,]{1,40}")


# --- the store -----------------------------------------------------------------------------------


class GameStore(Application):
    """Games stored as events: create, record, import, export, list, rename, tag, archive.

    ``entered_by`` is who enters new entries through this store (the ``by`` of
    their stamps, with ``at`` the time); ``None`` leaves new entries unstamped.
    """

    name = APP
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
        module = environment.get("PERSISTENCE_MODULE")
        postgres = module == "eventsourcing.postgres"
        if module == "eventsourcing.sqlite":
            sqlite_file.ready(environment)
        with postgres_store.ready(environment, self.tables()) if postgres else nullcontext({}) as extra:
            super().__init__(env={**settings, **extra})
            self.index = GamesIndex(view_for(self),
                                    lambda game_id: self.stored_games.read_any(game_id, self.stored_games.latest_receipt(game_id)))
        rows = Rows(self.recorder, self.mapper, self.snapshots)
        self.claims = NameClaims(self.events, rows, self._largest_number)
        self.stored_games = GameRepository(self, rows, self.claims)
        """Stored games read against their evidence and saved with it (receipts, snapshots, retries)."""

    def tables(self) -> list[str]:
        """The tables this store is kept in (PostgreSQL's names): the library's, and the games index's
        (``coimbra_events.store.games_index``)."""
        snapshots = ["coimbra_snapshots"] if type(self).is_snapshotting_enabled or type(self).snapshotting_intervals else []
        index = ["games_index", "games_index_players", "games_index_tags", "games_index_records", "games_index_tracking"]
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
            game = self.stored_games.read(self._game_id(name), name)
        except UnknownGame:
            raise UnknownGame(name, self._near(name)) from None
        if not any_ruleset and game.header.ruleset not in IMPLEMENTED:
            raise LogError(f"stored game {name}", [LogProblem(0, "another ruleset", refusal(game.header.ruleset))])
        return game

    def evidence(self, game: Game) -> Evidence:
        """What this store knows of a game it handed out: its receipts and the snapshot in force."""
        return self.stored_games.evidence(game)

    def inspect(self, name: str) -> Inspection:
        """Every problem of a stored game's rows, read one by one; ``UnknownGame`` if there is none."""
        return self.stored_games.inspect(self._game_id(name), name)

    def _game_id(self, name: str) -> UUID:
        entry = self.claims.entry(name)
        if entry is None:
            return legacy_game_id(name)  # stores from before the register
        if entry.game_id is None:
            raise UnknownGame(name)
        return entry.game_id

    def _near(self, name: str) -> list[str]:
        """Stored names close to a mistyped one (a read of the index, only when a name is not found)."""
        try:
            self._caught_up()
            rows = self.index.view.select(GamesQuery())[0] + self.index.view.select(GamesQuery(archived=True))[0]
        except EventsRemoved:
            raise  # the game may be among what was removed: that is the news, not a mistyped name
        except DamagedIndex:
            return []
        return difflib.get_close_matches(name, [r["name"] for r in rows], n=3, cutoff=0.6)

    def _largest_number(self, base: str) -> int:
        """The largest number an unnamed game of this base name was given (``ana-bruno-2``: 2), the index caught up."""
        self._caught_up()
        return self.index.view.largest_number(base)

    def games_index_caught_up(self) -> int:
        """Bring the games index up to date now (it is also whenever it is read); how many events it took in.
        ``DamagedIndex`` if a stored row it reads is not as it was saved."""
        return self._caught_up()

    def _caught_up(self) -> int:
        """``catch_up`` of the games index; ``DamagedIndex`` if a stored row it reads is not as it was saved, or if
        the index has read further than the store now holds (its events were removed: a store is append-only)."""
        try:
            return catch_up(self, self.index)
        except EventsRemoved:
            raise
        except Exception as exc:  # whatever a changed store makes the library or the projection raise
            raise DamagedIndex(f"the store's index of games cannot be brought up to date ({one_line(exc)}); "
                               "nothing was changed") from None

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
            chosen = self.claims.name_for(name, players)
            try:
                game = Game.start(chosen, catalog, players, meta)
            except ValueError as exc:
                raise BadPlayers(str(exc)) from None
            game.enter_as(self.entered_by)
            if seed is not None:
                draw_setup(game, random.Random(seed))
            return game, self.claims.claim(chosen, game.id), None

        return self.stored_games.commit(build)[0]

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
        self, log: GameLog, name: str | None = None, catalog: Catalog | None = None, source: str = "<log>",
        copy: bool = False,
    ) -> Game:
        """``import_record``'s game: the game stored, or the stored game the log extended.

        ``AlreadyStored`` if the record is stored already (nothing stored).
        """
        imported = self.import_record(log, name, catalog, source, copy)
        if imported.game is None:
            assert imported.held is not None
            raise AlreadyStored(imported.held)
        return imported.game

    def import_record(
        self, log: GameLog, name: str | None = None, catalog: Catalog | None = None, source: str = "<log>",
        copy: bool = False,
    ) -> Imported:
        """Store a log's record once (``store.importing``): a new game, the entries a stored game lacks, or nothing."""
        return import_record(self, log, name, catalog, source, copy)

    def duplicates(self) -> list[tuple[str, int, list[GameInfo]]]:
        """The groups of stored games that hold the same record (same header and entries), oldest first: the record's
        head, its entries, and the games."""
        self._caught_up()
        return [(group[0]["head"], group[0]["entries"], [info_of(r) for r in group]) for group in self.index.view.duplicates()]

    def count(self, names: Sequence[str], counted: bool) -> list[Game]:
        """Tell the league to leave these games out (``counted=False``: a teaching game, a test) or count them again;
        every name is checked before anything is stored."""
        games = [self.get(name, any_ruleset=True) for name in names]
        for game in games:
            mark = fold_mark(None, self.events.get(LeagueMark.create_id(str(game.id))))
            if mark is None:
                mark = LeagueMark.made(game.id, counted=counted)
            mark.count(counted)
            if mark.pending_events:
                self.save(mark)
        return games

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

        return self.stored_games.commit(build, retry=retry)

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
            chosen = self.claims.name_for(new_name, parent.header.players)
            game = Game.start(chosen, parent.catalog, parent.header.players, meta, parent.header.ruleset)
            for event, stamp in zip(parent.events[:at], parent.stamps):
                game._trigger(event, stamp)
            return game, self.claims.claim(chosen, game.id), None

        return self.stored_games.commit(build, snapshot=False)[0]

    def rename(self, name: str, new_name: str) -> Game:
        """Give a game another name; the old one is free again. ``BadGameName`` if the new one is taken or not a name."""

        def build() -> tuple[Game, list[Aggregate], None]:
            game = self.get(name, any_ruleset=True)
            claims = self.claims.claim(self.claims.name_for(new_name, ()), game.id)
            game.rename(new_name)
            return game, [*claims, self.claims.released(name)], None

        return self.stored_games.commit(build)[0]

    def tag(self, name: str, add: Sequence[str] = (), remove: Sequence[str] = ()) -> Game:
        """Add tags to a game and take others off (``BadGameName`` for a tag with spaces or commas)."""
        return self.tag_games([name], add, remove)[0]

    def tag_games(self, names: Sequence[str], add: Sequence[str] = (), remove: Sequence[str] = ()) -> list[Game]:
        """``tag`` for several games, every name and tag checked before any game is changed: ``UnknownGame``,
        or ``BadGameName`` for a tag with spaces or commas, or one that is a stored game's name."""
        for tag in add:
            if not _TAG.fullmatch(tag):
                raise BadGameName(f"tag {tag!r}: use up to 40 characters without spaces or commas")
            if self.claims.taken(tag):
                raise BadGameName(f"tag {tag!r} is the name of a stored game: a tag names an evening or a season "
                                  "(coimbra tag --add TAG GAME...)")
        for name in names:
            self.get(name, any_ruleset=True)

        def retag(game: Game) -> None:
            kept = [t for t in game.tags if t not in remove]
            game.set_tags(kept + [t for t in dict.fromkeys(add) if t not in kept])

        return [self.update_any(name, retag) for name in dict.fromkeys(names)]

    def archive(self, name: str, archived: bool = True) -> Game:
        """Leave a game out of the games list (``archived``) or list it again; nothing is deleted."""
        return self.archive_games([name], archived)[0]

    def archive_games(self, names: Sequence[str], archived: bool = True) -> list[Game]:
        """``archive`` for several games, every name checked (``UnknownGame``) before any game is changed."""
        for name in names:
            self.get(name, any_ruleset=True)
        return [self.update_any(name, lambda game: game.set_archived(archived)) for name in dict.fromkeys(names)]

    def update_any(self, name: str, change: Callable[[Game], None]) -> Game:
        """``update`` for facts about a record that fold nothing (tags, archiving): any ruleset."""

        def build() -> tuple[Game, list[Aggregate], None]:
            game = self.get(name, any_ruleset=True)
            change(game)
            return game, [], None

        return self.stored_games.commit(build, announce=False)[0]

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
            event = drawn(game, self.get)
            game.record(event)
            return event

        return self.update(name, draw, game)

def check_players(players: Sequence[tuple[str, str]]) -> None:
    """Names the notation can write and the rules core accepts; ``BadPlayers`` otherwise."""
    for player, color in players:
        if not is_name(player) or not is_name(color) or " " in color:
            raise BadPlayers(f"player {player!r} ({color!r}): names and colours may not contain ':', ',', '=' or '+'")
