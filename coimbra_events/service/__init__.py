"""The table's use cases, for every front-end: the CLI, and a page on the players' phones.

``Games`` opens and lists games, says what is due and legal, and records: one
input or several typed in notation (all or none), a roll, a correction, an undo,
a move the table accepts against a rule, a note; it forks, imports and exports.
Whatever records answers a value (``results``): the entries stored, with the game
and its new head; or the input ``Refused`` with its rule violation; or a
``Conflict`` naming the head the record moved to. Nothing is printed here and
no front-end code runs inside a save. Bad input (unreadable notation, an unknown
or damaged game) stays an exception of the domain (``NotationError``,
``UnknownGame``, ``DamagedGame``, ``LogError``).

A game is read once per use case, as ``GameStore.update`` reads it (or not at
all: ``game``, as the caller last had it from this service). What the new
entries changed on the table, and what each legal option is, are the read
side's (``projections``): a front-end hands in a ``Views``; without one the
values carry no changes and no descriptions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence, TypeVar

from coimbra_events.catalog import Catalog
from coimbra_events.events import GameEvent
from coimbra_events.log import GameLog
from coimbra_events.rules import core as rules
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.service.inputs import typed_decision, typed_line, with_player_name
from coimbra_events.service.results import Conflict, Entry, Exported, Legal, Outcome, Recorded, Refused
from coimbra_events.state import GameState
from coimbra_events.store.errors import StoreConflict
from coimbra_events.store.sources import Chain, GameSource, game_source
from coimbra_events.violations import RuleViolation

if TYPE_CHECKING:  # the game and the store bring in the eventsourcing library: imported when a game is opened
    from coimbra_events.game import Game
    from coimbra_events.history import Play
    from coimbra_events.store.game_store import GameStore
    from coimbra_events.store.games_query import GameInfo, GamesQuery, Page
    from coimbra_events.store.records import Imported

T = TypeVar("T")
Input = str | GameEvent
"""An input as typed in notation, or already read (a recorder's choice)."""


class Views(Protocol):
    """The read side the service asks (``projections.read_side``): kept out of the domain, handed in."""

    def changes(self, before: GameState, game: Game, start: int,
                new: Sequence[GameEvent]) -> Sequence[tuple[int, Sequence[Any]]]:
        """What each of ``new``, the entries of ``game`` after its first ``start``, did on the table (``before``:
        the table then); ``new`` is given so that plays are told without reading the record before them."""

    def options(self, state: GameState) -> Sequence[Any]:
        """Every legal decision now, each described, in the order ``rules.legal`` lists them."""


class _Stop(Exception):
    """Ends a change before anything is saved, with the answer to give."""

    def __init__(self, answer: Refused | Conflict) -> None:
        super().__init__(answer)
        self.answer = answer


class Games:
    """The use cases on the games of one store and on JSON log files.

    ``store`` opens the store when a stored game is first named (a log file's
    commands never open it); ``catalog`` reads log files and imports with another
    catalog than the one they name; ``entered_by`` stamps entries recorded into a
    log file (a store stamps its own).
    """

    def __init__(self, store: Callable[[], GameStore], views: Views | None = None, catalog: Catalog | None = None,
                 entered_by: str | None = None) -> None:
        self._open_store, self.views, self.catalog, self.entered_by = store, views, catalog, entered_by
        self._store: GameStore | None = None
        self._sources: dict[str, GameSource] = {}

    @property
    def store(self) -> GameStore:
        if self._store is None:
            self._store = self._open_store()
        return self._store

    def source(self, ref: str) -> GameSource:
        """Where GAME is kept; the same source for the same GAME, so a game read from it commits over what was read."""
        if ref not in self._sources:
            self._sources[ref] = game_source(ref, lambda: self.store, self.catalog, self.entered_by)
        return self._sources[ref]

    # -- reading

    def open(self, ref: str) -> Game:
        """The game GAME names, checked."""
        return self.source(ref).open()

    def games(self, query: GamesQuery | None = None) -> list[GameInfo]:
        return self.store.games(*(() if query is None else (query,)))

    def listing(self, query: GamesQuery | None = None) -> Page:
        return self.store.listing(*(() if query is None else (query,)))

    def legal(self, ref: str, game: Game | None = None) -> Legal:
        """What may be entered now: the table's outcome, or the decisions of the player due (described); ``game``:
        as the caller last had it from this service (nothing is read)."""
        game = game if game is not None else self.open(ref)
        space = rules.legal(game.state)
        if isinstance(space, OutcomeSpace):
            return Legal(game, space)
        described = tuple(self.views.options(game.state)) if self.views is not None else ()
        return Legal(game, None, tuple(space), described)

    def log(self, ref: str) -> GameLog:
        """The record as a JSON log (to validate it)."""
        return self.source(ref).log()

    def chain(self, ref: str, every: bool = False) -> Chain:
        """The record's hash chain and its problems (to verify it)."""
        return self.source(ref).chain(every)

    def check(self, ref: str) -> None:
        """``DamagedGame`` if anything of the record is not what was recorded."""
        self.source(ref).check()

    def export(self, ref: str, force: bool = False) -> Exported:
        """The canonical JSON log; a damaged stored game raises ``DamagedGame``, or with ``force`` is written as stored."""
        return Exported(*self.source(ref).exported(force))

    # -- games

    def new_game(self, players: Sequence[tuple[str, str]], catalog: Catalog | None = None, name: str | None = None,
                 seed: int | None = None) -> Game:
        """A new stored game; with a seed its setup is drawn up to the first decision."""
        return self.store.new_game(players, catalog, name, seed)

    def fork(self, ref: str, at: int, name: str | None = None, rolls: str = "parent") -> Game:
        """A new stored game sharing entries 1..``at`` (``BadFork`` for a point that is not a whole entry)."""
        return self.store.fork(ref, at, name, rolls)

    def import_log(self, log: GameLog, name: str | None = None, source: str = "<log>", copy: bool = False) -> Imported:
        """A log's record stored once (``IllegalLog`` if a rule is broken: nothing stored): a new game in one save,
        the new entries of a log that extends a stored game, or nothing when the record is stored already (the
        value says which, naming the stored game); ``copy`` stores a copy the league never counts."""
        return self.store.import_record(log, name, self.catalog, source, copy)

    def unfinished(self, limit: int | None = None) -> list[GameInfo]:
        """The games still in progress, most recently created first: what a table may want to resume before
        starting a new game (``record`` without a game, and the table's page, offer them first)."""
        from coimbra_events.store.games_query import IN_PROGRESS, GamesQuery

        listed = self.store.games(GamesQuery(status=IN_PROGRESS))
        return list(reversed(listed))[:limit]

    # -- recording

    def record(self, ref: str, inputs: Sequence[Input], after: str | None = None,
               game: Game | None = None) -> Outcome[tuple[GameState, ...]]:
        """Record inputs, all or none; ``after``: the head the device showed (a prefix of it): a ``Conflict``
        unless the record still ends there. A typed input is a line (``coimbra_events.lines``): one entry, or
        several of one player's turn (``income gray-1; orange-2``, ``walk bouro``). A decision without ``Name:``
        is the player's due when its line begins. The outcome is the table before each entry recorded (how a
        dice roll is said depends on it)."""

        def add(game: Game) -> tuple[GameState, ...]:
            if game.over:
                raise _Stop(Refused(game.name, game.catalog, RuleViolation(
                    "GAME.over", "the game is over; nothing more can be recorded", {"entries": game.entries})))
            tables = []
            for given in inputs:
                actor = game.pending.actor if game.pending else None
                events = typed_line(given, game, actor) if isinstance(given, str) else [with_player_name(given, game)]
                for event in events:
                    tables.append(game.state)
                    try:
                        game.record(event)
                    except RuleViolation as v:
                        raise _Stop(Refused(game.name, game.catalog, v, event, given if isinstance(given, str) else None,
                                            dict(game.state.monasteries))) from None
            return tuple(tables)

        return self._changed(ref, add, game, after=after)

    def roll(self, ref: str, game: Game | None = None) -> Recorded[GameEvent] | Conflict:
        """Draw the table's pending outcome from the game's seed or its parent (``TableInputNeeded`` if by hand)."""
        source = self.source(ref)
        game = game if game is not None else source.open()
        before, start = game.state, game.entries
        try:
            game, event = source.roll(game)
        except StoreConflict as exc:
            return Conflict(source.name, source.head(), str(exc))
        changes = self._changes(before, game, start, [event])
        entry = Entry(start + 1, event, game.since(start)[1][0], changes[0] if changes else ())
        return Recorded(game, (entry,), game.head, before, event)

    def correct(self, ref: str, seq: int, given: Input,
                game: Game | None = None) -> Outcome[tuple[tuple[Play, RuleViolation], ...]]:
        """Replace what entry ``seq`` said; the outcome lists the later plays that became illegal. Without
        ``Name:`` the replacement is the actor of the entry it replaces."""

        def fix(game: Game) -> tuple[tuple[Play, RuleViolation], ...]:
            actor = game.line.plays[game.play_index(seq)].event.actor
            return game.correct(seq, self._read(given, game, actor))

        return self._changed(ref, fix, game)

    def undo(self, ref: str, game: Game | None = None, after: str | None = None) -> Outcome[Play]:
        """Withdraw the latest play (it stays in the log); the outcome is the play withdrawn. ``after``: as
        ``record``'s (two devices that both undo withdraw one play, not two)."""
        return self._changed(ref, lambda g: g.undo(), game, after=after)

    def accept(self, ref: str, given: Input, reason: str, game: Game | None = None,
               after: str | None = None) -> Outcome[RuleViolation]:
        """Record a move the table accepted against a rule; the outcome is the rule it breaks
        (``NothingToOverride`` if it breaks none). ``after``: as ``record``'s."""
        return self._changed(ref, lambda g: g.accept(self._read(given, g, g.pending.actor if g.pending else None), reason),
                             game, after=after)

    def note(self, ref: str, at: int, text: str, bookmark: bool = False, game: Game | None = None) -> Outcome[None]:
        """Comment on entry ``at``, or bookmark it; made again on the game as it is now if another writer saved first."""
        return self._changed(ref, lambda g: g.note(at, text, bookmark), game, retry=True)

    # -- internals

    def _read(self, given: Input, game: Game, actor: str | None) -> GameEvent:
        return typed_decision(given, game, actor) if isinstance(given, str) else with_player_name(given, game)

    def _changed(self, ref: str, change: Callable[[Game], T], game: Game | None = None, retry: bool = False,
                 after: str | None = None) -> Outcome[T]:
        """Apply ``change`` where GAME is kept and say what was stored; a rule violation, a stale ``after`` or
        another writer's save first stores nothing and is answered as a value."""
        source = self.source(ref)
        made: list[tuple[GameState, int]] = []

        def run(game: Game) -> T:
            if after is not None and not game.head.startswith(after):
                raise _Stop(Conflict(game.name, game.head, f"{game.name}: the game changed since you read it; "
                                                           "nothing stored; try again"))
            before, start = game.state, game.entries
            try:
                outcome = change(game)
            except RuleViolation as v:
                raise _Stop(Refused(game.name, game.catalog, v)) from None
            made[:] = [(before, start)]
            return outcome

        try:
            game, outcome = source.update(run, game, retry)
        except _Stop as stop:
            return stop.answer
        except StoreConflict as exc:
            return Conflict(source.name, source.head(), str(exc))
        before, start = made[0]
        events, stamps = game.since(start)
        changes = self._changes(before, game, start, events)
        entries = tuple(Entry(start + k, event, stamp, changes[k - 1] if changes else ())
                        for k, (event, stamp) in enumerate(zip(events, stamps), 1))
        return Recorded(game, entries, game.head, before, outcome)

    def _changes(self, before: GameState, game: Game, start: int, new: Sequence[GameEvent]) -> list[Sequence[Any]]:
        """The read side's changes of each new entry (none without a read side, or when nothing was stored)."""
        if self.views is None or not new:
            return []
        return [changes for _, changes in self.views.changes(before, game, start, new)]


__all__ = ["Conflict", "Entry", "Exported", "Games", "Input", "Legal", "Outcome", "Recorded", "Refused", "Views"]
