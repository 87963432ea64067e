"""``Games``: the application, the one door every front-end holds (the CLI, the live table's pages).

Every use case is a method: open and list games, say what is due and legal,
record, roll, correct, undo, accept, note, fork, import, export, rename, tag,
archive, find copies, keep aliases, read the league, and tell how far the store
has come. Persistence alone is below it (``GameStore``: a game read against its
evidence and saved with it, names claimed, the index of games).

A write is straight: read the game (or take the copy a ``Session`` holds), apply
the change, save against the head that was read. A rule violation and a record
that moved on are answered as values (``Refused``, ``Conflict``), never thrown
through the store; who entered an input is a parameter of every write. Bad input
(unreadable notation, an unknown or damaged game) stays an exception of the domain.
"""

from __future__ import annotations

import os
import random
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

from coimbra_events.catalog import Catalog, standin_catalog
from coimbra_events.events import Corrected, GameEvent, RuleOverridden
from coimbra_events.log import GameLog
from coimbra_events.rules import core as rules
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.service.inputs import check_players, check_tags, typed_decision, typed_line, with_player_name
from coimbra_events.service.results import Conflict, Entry, Exported, Legal, NotYours, Outcome, Refused, Stored
from coimbra_events.service.seats import Phone
from coimbra_events.service.sessions import GameRef, Session
from coimbra_events.service.table_links import TableLinks
from coimbra_events.service.views import Views
from coimbra_events.state import GameState
from coimbra_events.store.errors import BadFork, BadPlayers
from coimbra_events.store.sources import ChainReport, GameSource, game_source
from coimbra_events.violations import RuleViolation

if TYPE_CHECKING:  # the game and the store bring in the eventsourcing library: imported when a game is opened
    from eventsourcing.domain import Aggregate

    from coimbra_events.game import Game
    from coimbra_events.history import Play
    from coimbra_events.store.game_store import GameStore
    from coimbra_events.store.games_query import GameInfo, GamesQuery, Page
    from coimbra_events.store.probe import StoreReport
    from coimbra_events.store.records import Imported

T = TypeVar("T")
Input = str | GameEvent
"""An input as typed in notation, or already read (a recorder's choice)."""
ATTEMPTS = 5
"""How often a write whose change means the same whatever else was recorded (a note) is made again."""

class Games(TableLinks):
    """The use cases on the games of one store and on JSON log files.

    ``store`` is the persistence, or how to open it: it is opened when a stored
    game is first named (a log file's commands never open it). ``views`` is the
    read side (``projections.read_side``): with it the values carry what new
    entries changed and what each legal option is. ``catalog`` reads log files
    and imports with another catalog than the one they name. ``db``: where the
    store is, as a person named it (``at``).
    """

    def __init__(self, store: GameStore | Callable[[], GameStore], views: Views | None = None,
                 catalog: Catalog | None = None, db: str | os.PathLike[str] | None = None) -> None:
        self._open_store: Callable[[], GameStore] = (lambda: store) if hasattr(store, "stored_games") else store
        self.views, self.catalog, self.db = views, catalog, db
        self._store: GameStore | None = None
        self._sources: dict[str, GameSource] = {}

    @classmethod
    def at(cls, db: str | os.PathLike[str] | None = None, *, create: bool = False, views: Views | None = None,
           catalog: Catalog | None = None) -> Games:
        """The games of the store at ``db`` (a SQLite file or a PostgreSQL URL; default: where games live), opened
        when first needed. Only an application that may make games (``create``) makes a store: otherwise a SQLite
        file that does not exist is ``NoStore`` (nothing is created on disk); ``StoreNotOpened`` if it cannot be
        opened."""
        def opened() -> GameStore:
            from coimbra_events.store.opening import open_store  # the store's library, loaded only when it is opened

            return open_store(db, create)

        return cls(opened, views, catalog, db)

    @property
    def store(self) -> GameStore:
        """The persistence (opened now if it was not): for the read side's projections, never for a front-end."""
        if self._store is None:
            self._store = self._open_store()
        return self._store

    def close(self) -> None:
        """Close the store, if it was opened."""
        if self._store is not None:
            self._store.close()
            self._store = None

    def __enter__(self) -> Games:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def source(self, ref: str) -> GameSource:
        """Where GAME is kept; the same source for the same GAME, so a game read from it is saved over what was read."""
        if ref not in self._sources:
            self._sources[ref] = game_source(ref, lambda: self.store, self.catalog)
        return self._sources[ref]

    def session(self, ref: str) -> Session:
        """A session on GAME, for a front-end that keeps the game between calls (read now: ``UnknownGame`` if none)."""
        return Session(ref, self.source(ref).open())

    # -- reading

    def open(self, game: GameRef) -> Game:
        """The game GAME names, checked (a session's copy as it holds it)."""
        if isinstance(game, Session):
            if game.game is None:
                game.game = self.source(game.ref).open()
            return game.game
        return self.source(game).open()

    def games(self, query: GamesQuery | None = None) -> list[GameInfo]:
        """The stored games a query lets through, oldest first (every listed game by default)."""
        return self.listing(query).games

    def listing(self, query: GamesQuery | None = None) -> Page:
        """One page of the games index, and how many games match in all."""
        return self.store.listing(*(() if query is None else (query,)))

    def info(self, name: str) -> GameInfo:
        """The index entry of one stored game."""
        return self.store.info(name)

    def index_caught_up(self) -> int:
        """Bring the index of games up to date now (it is also whenever it is read); how many events it took in."""
        return self.store.games_index_caught_up()

    def probe(self) -> StoreReport:
        """Where the store is, that it answers, its size and how far the league got, read without opening it for
        writing (a SQLite file read-only); ``StoreUnreachable`` says why it cannot be."""
        from coimbra_events.store.probe import probe

        return probe(self.db)

    def location(self) -> str:
        """Where the store is, said for a person (never a password)."""
        return self.store.location

    def unfinished(self, limit: int | None = None) -> list[GameInfo]:
        """The games still in progress, most recently created first: what a table may want to resume before
        starting a new game (``record`` without a game, and the table's page, offer them first)."""
        from coimbra_events.store.games_query import IN_PROGRESS, GamesQuery

        return list(reversed(self.games(GamesQuery(status=IN_PROGRESS))))[:limit]

    def duplicates(self) -> list[tuple[str, int, list[GameInfo]]]:
        """The groups of stored games that hold the same record: the record's head, its entries, and the games."""
        return self.store.duplicates()

    def legal(self, game: GameRef) -> Legal:
        """What may be entered now: the table's outcome, or the decisions of the player due (described)."""
        read = self.open(game)
        space = rules.legal(read.state)
        if isinstance(space, OutcomeSpace):
            return Legal(read, space)
        described = tuple(self.views.options(read.state)) if self.views is not None else ()
        return Legal(read, None, tuple(space), described)

    def log(self, ref: str) -> GameLog:
        """The record as a JSON log (to validate it)."""
        return self.source(ref).log()

    def chain(self, ref: str, every: bool = False) -> ChainReport:
        """The record's hash chain and its problems (to verify it)."""
        return self.source(ref).chain(every)

    def check(self, ref: str) -> None:
        """``DamagedGame`` if anything of the record is not what was recorded."""
        self.source(ref).check()

    def export(self, ref: str, force: bool = False) -> Exported:
        """The canonical JSON log; a damaged stored game raises ``DamagedGame``, or with ``force`` is written as stored."""
        return Exported(*self.source(ref).exported(force))

    # -- the store's position, for a front-end that keeps a session

    def position(self) -> int | None:
        """How far the store's notification log has come: a session need be looked at again only when it moved."""
        return self.store.position()

    def refreshed(self, session: Session) -> Game:
        """The session's game as stored now: its copy, unless the game's latest receipt (one row) says another
        save came since, then the game read again."""
        held = session.game
        if held is not None:
            receipt = self.store.stored_games.latest_receipt(held.id)
            if receipt is not None and receipt.originator_version == self.store.evidence(held).receipts:
                return held
        session.game = self.source(session.ref).open()
        return session.game

    def subscription(self, gt: int | None) -> Any:
        """The library's subscription to what is stored after ``gt``, where the store can tell (PostgreSQL's
        LISTEN/NOTIFY); ``None`` where it cannot (SQLite, memory): look at ``position`` instead."""
        recorder = self.store.recorder
        return recorder.subscribe(gt=gt) if type(recorder).__module__ == "eventsourcing.postgres" else None

    def settings(self) -> dict[str, str]:
        """The store's settings, for a process of its own that opens it again (``league follow``)."""
        return dict(self.store.env)

    # -- recording

    def record(self, game: GameRef, inputs: Sequence[Input], by: str | None = None, after: str | None = None,
               phone: Phone | None = None) -> Outcome[tuple[GameState, ...]]:
        """Record inputs, all or none; ``after``: the head the device showed (a prefix of it): a ``Conflict``
        unless the record still ends there. A typed input is a line (``coimbra_events.lines``): one entry, or
        several of one player's turn (``income gray-1; orange-2``, ``walk bouro``). A decision without ``Name:``
        is the player's due when its line begins. ``by``: who entered them; ``phone``: the phone they come from
        (``NotYours`` for another seat's decision). The outcome is the table before each entry recorded."""

        def add(read: Game) -> tuple[GameState, ...] | Refused:
            if read.over:
                return Refused(read.name, read.catalog, RuleViolation(
                    "GAME.over", "the game is over; nothing more can be recorded", {"entries": read.entries}))
            tables = []
            for given in inputs:
                actor = read.pending.actor if read.pending else None
                events = typed_line(given, read, actor) if isinstance(given, str) else [with_player_name(given, read)]
                for event in events:
                    tables.append(read.state)
                    try:
                        read.record(event, by)
                    except RuleViolation as v:
                        return Refused(read.name, read.catalog, v, event, given if isinstance(given, str) else None,
                                       dict(read.state.monasteries))
            return tuple(tables)

        return self._write(game, add, after=after, phone=phone)

    def roll(self, game: GameRef, by: str | None = None) -> Outcome[GameEvent]:
        """Draw the table's pending outcome from the game's seed or its parent (``TableInputNeeded`` if by hand)."""
        source = self.source(game.ref if isinstance(game, Session) else game)

        def draw(read: Game) -> GameEvent:
            event = source.draw(read)
            read.record(event, by)
            return event

        return self._write(game, draw)

    def correct(self, game: GameRef, seq: int, given: Input,
                by: str | None = None) -> Outcome[tuple[tuple[Play, RuleViolation], ...]]:
        """Replace what entry ``seq`` said; the outcome lists the later plays that became illegal. Without
        ``Name:`` the replacement is the actor of the entry it replaces."""

        def fix(read: Game) -> tuple[tuple[Play, RuleViolation], ...]:
            actor = read.line.plays[read.play_index(seq)].event.actor
            return read.correct(seq, self._read(given, read, actor), entered_by=by)

        return self._write(game, fix)

    def undo(self, game: GameRef, by: str | None = None, after: str | None = None,
             phone: Phone | None = None) -> Outcome[Play]:
        """Withdraw the latest play (it stays in the log); the outcome is the play withdrawn. ``after``, ``phone``:
        as ``record``'s (two devices that both undo withdraw one play; a phone never another seat's, nor at game over)."""
        return self._write(game, lambda read: (phone and phone.undo_barred(read)) or read.undo(entered_by=by), after=after)

    def accept(self, game: GameRef, given: Input, reason: str, by: str | None = None, after: str | None = None,
               phone: Phone | None = None) -> Outcome[RuleViolation]:
        """Record a move the table accepted against a rule; the outcome is the rule it breaks
        (``NothingToOverride`` if it breaks none). ``after``, ``phone``: as ``record``'s."""

        def overridden(read: Game) -> RuleViolation:
            return read.accept(self._read(given, read, read.pending.actor if read.pending else None), reason,
                               entered_by=by)

        return self._write(game, overridden, after=after, phone=phone)

    def note(self, game: GameRef, at: int, text: str, bookmark: bool = False, by: str | None = None) -> Outcome[None]:
        """Comment on entry ``at``, or bookmark it; made again on the game as it is now if another writer saved first."""
        return self._write(game, lambda read: read.note(at, text, bookmark, entered_by=by), retry=True)

    # -- games

    def new_game(self, players: Sequence[tuple[str, str]], catalog: Catalog | None = None, name: str | None = None,
                 seed: int | None = None, by: str | None = None) -> Game:
        """A new stored game; with a seed the table's setup outcomes are drawn up to the first decision, through the
        rules core's outcome spaces (as a simulated game's), stored as ordinary events, the seed kept in the
        header (``meta.seed``) and the index."""
        from coimbra_events.game import Game
        from coimbra_events.store.rolls import draw_setup

        catalog = catalog or standin_catalog()
        check_players(players)
        meta = {"seed": seed} if seed is not None else {}
        claims = self.store.claims

        def build() -> tuple[Game, list[Aggregate], None]:
            chosen = claims.name_for(name, players)
            try:
                game = Game.start(chosen, catalog, players, meta)
            except ValueError as exc:
                raise BadPlayers(str(exc)) from None
            if seed is not None:
                draw_setup(game, random.Random(seed), by)
            return game, claims.claim(chosen, game.id), None

        return self.store.stored_games.commit(build)[0]

    def fork(self, ref: str, at: int, name: str | None = None, rolls: str = "parent") -> Game:
        """A new game sharing entries 1..``at`` of ``ref``, its lineage in the index and its header; ``rolls``: where
        its later table outcomes come from (the parent's while they fit, ``manual``, or ``seed:S``). ``BadFork``
        for a point that is not a whole entry of the parent's record."""
        from coimbra_events.game import Game
        from coimbra_events.store.rolls import parse_rolls

        mode, seed = parse_rolls(rolls)
        store = self.store

        def build() -> tuple[Game, list[Aggregate], None]:
            parent = store.get(ref)
            if not 0 <= at <= parent.entries:
                raise BadFork(f"--at {at}: {ref} has entries 0 to {parent.entries}")
            if at and type(parent.events[at - 1]) in (Corrected, RuleOverridden):
                raise BadFork(f"entry {at} introduces entry {at + 1}; fork at {at + 1} or {at - 1}")
            meta = {k: v for k, v in parent.header.meta.items() if k != "seed"}
            meta.update({"parent": ref, "forked_at": at, "rolls": rolls, **({"seed": seed} if mode == "seed" else {})})
            chosen = store.claims.name_for(name, parent.header.players)
            game = Game.start(chosen, parent.catalog, parent.header.players, meta, parent.header.ruleset)
            for event, stamp in zip(parent.events[:at], parent.stamps):
                game._trigger(event, stamp)
            return game, store.claims.claim(chosen, game.id), None

        return store.stored_games.commit(build, snapshot=False)[0]

    def import_log(self, log: GameLog, name: str | None = None, source: str = "<log>", copy: bool = False) -> Imported:
        """A log's record stored once (``IllegalLog`` if a rule is broken: nothing stored): a new game in one save,
        the new entries of a log that extends a stored game, or nothing when the record is stored already (the
        value says which, naming the stored game); ``copy`` stores a copy the league never counts."""
        from coimbra_events.store.importing import import_record

        return import_record(self.store, log, name, self.catalog, source, copy)

    def rename(self, name: str, new_name: str) -> Game:
        """Give a game another name; the old one is free again. ``BadGameName`` if the new one is taken or not a name."""
        store = self.store

        def build() -> tuple[Game, list[Aggregate], None]:
            game = store.get(name, any_ruleset=True)
            claims = store.claims.claim(store.claims.name_for(new_name, ()), game.id)
            game.rename(new_name)
            return game, [*claims, store.claims.released(name)], None

        return store.stored_games.commit(build)[0]

    def tag(self, names: Sequence[str], add: Sequence[str] = (), remove: Sequence[str] = ()) -> list[Game]:
        """Add tags to games and take others off, every name and tag checked before any game is changed:
        ``UnknownGame``, or ``BadGameName`` for a tag with spaces or commas, or one that is a stored game's name."""
        check_tags(add, self.store.claims.taken)

        def retag(game: Game) -> None:
            kept = [t for t in game.tags if t not in remove]
            game.set_tags(kept + [t for t in dict.fromkeys(add) if t not in kept])

        return self._each(names, retag)

    def archive(self, names: Sequence[str], archived: bool = True) -> list[Game]:
        """Leave games out of the games list (``archived``) or list them again; nothing is deleted. Every name is
        checked (``UnknownGame``) before any game is changed."""
        return self._each(names, lambda game: game.set_archived(archived))

    def count(self, names: Sequence[str], counted: bool) -> list[Game]:
        """Tell the league to leave these games out (``counted=False``: a teaching game, a test) or count them again;
        every name is checked before anything is stored."""
        from coimbra_events.store.records import LeagueMark, fold_mark

        store = self.store
        games = [store.get(name, any_ruleset=True) for name in names]
        for game in games:
            mark = fold_mark(None, store.events.get(LeagueMark.create_id(str(game.id))))
            if mark is None:
                mark = LeagueMark.made(game.id, counted=counted)
            mark.count(counted)
            if mark.pending_events:
                store.save(mark)
        return games

    # -- people and the league

    def alias(self, alias: str, person: str) -> None:
        """Record that ALIAS is PERSON in the store's alias map (``BadAlias`` if it cannot be; nothing stored)."""
        from coimbra_events.store.aliases import change_aliases

        change_aliases(self.store, lambda aliases: aliases.add(alias, person))

    def unalias(self, alias: str) -> None:
        """Make ALIAS a person of their own again (``BadAlias`` if it is no alias; nothing stored)."""
        from coimbra_events.store.aliases import change_aliases

        change_aliases(self.store, lambda aliases: aliases.remove(alias))

    def league(self) -> Any:
        """The league's tables over this store, from the read side (``projections.league``), ready to catch up."""
        if self.views is None:
            raise TypeError("the league is the read side's: open the application with views")
        return self.views.league(self.store)

    # -- the straight write

    def _read(self, given: Input, game: Game, actor: str | None) -> GameEvent:
        return typed_decision(given, game, actor) if isinstance(given, str) else with_player_name(given, game)

    def _write(self, game: GameRef, change: Callable[[Game], T | Refused | NotYours], after: str | None = None,
               retry: bool = False, phone: Phone | None = None) -> Outcome[T]:
        """Read the game (or take the session's copy), apply ``change``, save against the head that was read.

        A rule violation, a stale ``after`` or another writer's save first store
        nothing and are answered as values; ``retry``: a change that means the same
        whatever else was recorded (a note) is made again on the game as it is now;
        ``phone``: what it entered must be its seats' or the table's (``NotYours``).
        """
        session = game if isinstance(game, Session) else Session(game)
        source = self.source(session.ref)
        with source.locked() if retry else nullcontext():
            for _ in range(ATTEMPTS):
                read = self.open(session)
                if after is not None and not read.head.startswith(after):
                    return Conflict(read.name, read.head, f"{read.name}: the game changed since you read it; "
                                                          "nothing stored; try again")
                before, start, version = read.state, read.entries, read.version
                try:
                    outcome = change(read)
                except RuleViolation as v:
                    outcome = Refused(read.name, read.catalog, v)
                except BaseException:  # bad input met midway: never go on with a copy holding what was not saved
                    session.game = read if read.version == version else None
                    raise
                if phone is not None and not isinstance(outcome, (Refused, NotYours)):
                    outcome = phone.barred(read, read.events[start:]) or outcome
                if isinstance(outcome, (Refused, NotYours)):
                    session.game = read if read.version == version else None  # a copy holding what was not saved
                    return outcome
                saved = source.save(read)
                session.game = read if saved else None
                if saved:
                    return self._stored(read, before, start, outcome)
                if not retry:
                    break
        return Conflict(source.name, source.head(), f"{source.ref}: the game changed since you read it; "
                                                    "nothing stored; try again")

    def _stored(self, game: Game, before: GameState, start: int, outcome: T) -> Stored[T]:
        """What a write stored: each new entry with what it changed on the table (the read side's, if handed one)."""
        events, stamps = game.since(start)
        changes = self._changes(before, game, start, events)
        entries = tuple(Entry(start + k, event, stamp, changes[k - 1] if changes else ())
                        for k, (event, stamp) in enumerate(zip(events, stamps), 1))
        return Stored(game, entries, game.head, before, outcome)

    def _changes(self, before: GameState, game: Game, start: int, new: Sequence[GameEvent]) -> list[Sequence[Any]]:
        """The read side's changes of each new entry (none without a read side, or when nothing was stored)."""
        if self.views is None or not new:
            return []
        return [changes for _, changes in self.views.changes(before, game, start, new)]

    def _each(self, names: Sequence[str], change: Callable[[Game], None]) -> list[Game]:
        """Facts about records that fold nothing (tags, archiving), any ruleset, every name checked first."""
        store = self.store
        for name in names:
            store.get(name, any_ruleset=True)

        def changed(name: str) -> Game:
            def build() -> tuple[Game, list[Aggregate], None]:
                game = store.get(name, any_ruleset=True)
                change(game)
                return game, [], None

            return store.stored_games.commit(build, announce=False)[0]

        return [changed(name) for name in dict.fromkeys(names)]

