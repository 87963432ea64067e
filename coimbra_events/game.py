"""The ``Game`` aggregate: one stored event per decision or random outcome.

The aggregate is a thin event-sourced shell around the rules core. Its stored
events are the log's own events (type, actor, payload, chain hash), so the
store and a JSON log hold the same facts and convert into each other without
loss. Rules run in the command method *before* an event is triggered
(``record``); the ``apply`` bodies only fold, because they run again on every
replay (eventsourcing pitfall 2).

Ids are ``uuid5`` of the game's name, so a name finds its game without an index
lookup and two games can never share a name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence, TypeVar
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, CanInitAggregate
from eventsourcing.utils import get_topic

from coimbra_events import RULESET
from coimbra_events.catalog import Catalog, CatalogError, find_catalog, parse_catalog, shipped_catalogs
from coimbra_events.events import (
    HISTORY_TYPES,
    Bookmarked,
    Corrected,
    GameEvent,
    Noted,
    Retracted,
    RuleOverridden,
    decode_event,
)
from coimbra_events.history import Line, Play, Replay, is_plain, play_override, replay, resolve
from coimbra_events.log import GameLog, event_hash, header_hash
from coimbra_events.rules import core as rules
from coimbra_events.state import TABLE, GameState, Pending
from coimbra_events.validation import Validation, validate
from coimbra_events.violations import RuleViolation

NAMESPACE = UUID("5b0f6c1e-3d1a-4a47-9a51-0c01b7a3c0d2")
"""Namespace of the ``uuid5`` ids of games (and of the store's index)."""

A = TypeVar("A", bound=Aggregate)

_CATALOGS: dict[str, Catalog] = {}
"""Catalogs seen in this process, by content hash: a cache, never a source of truth."""


class NothingToOverride(ValueError):
    """An 'accepted rule break' that breaks no rule: it should be recorded as an ordinary decision."""


class IllegalLog(ValueError):
    """A log whose events break a rule: nothing of it is stored. ``validation`` has the details."""

    def __init__(self, validation: Validation) -> None:
        self.validation = validation
        v = validation.violation
        event = validation.log.events[validation.legal_events]
        super().__init__(f"event {validation.violation_seq} ({event.TYPE}) breaks rule {v.rule}: {v.reason}")


class BrokenLink(ValueError):
    """A stored entry that does not follow from the record before it (its hash, its content, a rule).

    Raised while a stored game is folded, before any rule runs on the entry, so a
    damaged game is never folded past its damage; ``GameStore.get`` then reads the
    stored rows one by one to say exactly what is wrong.
    """


class ForeignEvent(TypeError):
    """A stored row of another class among an aggregate's events."""


def project(aggregate: A | None, events: Iterable[Any]) -> A | None:
    """A plain fold for ``repository.get(projector_func=...)`` (the default one is slow, pitfall 7)."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


@dataclass(frozen=True)
class Folding:
    """``project`` for the stored events of one aggregate class: its own event classes only.

    A stored row of any other class, or a created event naming another aggregate
    class (the library would import whatever module it names), can only come from
    a change to the store behind coimbra's back: ``ForeignEvent``, before its
    ``apply`` runs.
    """

    aggregate: type[Aggregate]
    events: tuple[type, ...]

    def __call__(self, aggregate: A | None, events: Iterable[Any]) -> A | None:
        topic = get_topic(self.aggregate)
        for event in events:
            if type(event) not in self.events or (isinstance(event, CanInitAggregate) and vars(event).get("originator_topic") != topic):
                raise ForeignEvent(f"a stored {type(event).__qualname__} among the events of a {self.aggregate.__qualname__}")
            aggregate = event.mutate(aggregate)
        return aggregate


def remember_catalog(catalog: Catalog) -> None:
    """Make a catalog known to this process, so games recorded with it can be folded."""
    _CATALOGS[catalog.sha256] = catalog


def resolve_catalog(catalog_id: str, sha256: str, data: Mapping[str, Any] | None) -> Catalog:
    """The catalog a game was created with: its stored copy, else the shipped one with that identity."""
    known = _CATALOGS.get(sha256)
    if known is not None:
        return known
    catalog = parse_catalog(data) if data is not None else find_catalog(catalog_id, sha256)
    if catalog.sha256 != sha256:
        raise CatalogError(f"catalog {catalog_id!r}", f"sha256={sha256}", f"sha256={catalog.sha256}")
    remember_catalog(catalog)
    return catalog


def kept(result: Validation) -> bool:
    """Whether the store keeps a record that validated so: every event legal, or its only
    problem is plays its own corrections made illegal.

    Such a record is kept as it is (nothing recorded is lost): its skipped plays
    are listed until they are corrected, undone or accepted. A plain log with an
    illegal event, or a record whose history entries name nothing, is refused.
    """
    return result.valid or (not is_plain(result.log.events) and resolve(result.log.events).problem is None)


def _is_shipped(catalog: Catalog) -> bool:
    """Whether the catalog ships with coimbra: any other one, installed ones included, is copied
    into the game, so a store opens wherever it is copied to."""
    return catalog in shipped_catalogs()


class Game(Aggregate):
    """A game in the store: header facts, the events so far, and the state they fold into."""

    class Created(Aggregate.Created):
        """A new game: who plays, with which catalog and ruleset.

        ``catalog_data`` holds the catalog itself when it is not a shipped one (an
        installed one included), so a game recorded with a club's catalog stays
        readable on its own; without it, the catalog is found by id and hash.
        ``meta`` is the log header's free-form object, kept for exact export.
        """

        name: str
        catalog_id: str
        catalog_sha256: str
        catalog_data: dict | None
        ruleset: str
        players: tuple
        meta: dict

        def apply(self, game: Game) -> None:
            game.name = self.name
            game.catalog = resolve_catalog(self.catalog_id, self.catalog_sha256, self.catalog_data)
            game.header = GameLog(
                self.catalog_id, self.catalog_sha256, tuple((str(n), str(c)) for n, c in self.players),
                (), self.ruleset, dict(self.meta),
            )
            game.initial = rules.initial_state(game.catalog, game.header.players)
            game.events = []
            game.hashes = []
            game.receipts = 0  # how many head receipts the store holds for it (GameStore.get says)
            game.plain = True  # no history entries yet: the record is the line of play
            game.forget_replay(game.initial)

    class Recorded(Aggregate.Event):
        """One log event, as the log writes it: type, actor, JSON payload and chain hash.

        ``payload`` is a fresh dict from ``GameEvent.payload()`` (lists, not
        tuples, so it reads back equal after JSON transcoding, pitfalls 1 and 8).
        """

        type: str
        actor: str
        payload: dict
        hash: str

        def apply(self, game: Game) -> None:
            # The link first: a stored entry is decoded and folded only once its hash
            # shows it is the one recorded after the entries before it.
            seq = len(game.events) + 1
            if self.hash != event_hash(game.head, seq, self.type, self.actor, self.payload):
                raise BrokenLink(f"entry {seq} does not match its recorded hash")
            event = decode_event(self.type, self.actor, self.payload)
            game.plain = game.plain and type(event) not in HISTORY_TYPES
            if game.plain:
                # A plain record folds on, each event checked again: its hash only shows
                # what was recorded, not that it was legal when it was.
                violation = rules.check(game._state, event)
                if violation is not None:
                    raise BrokenLink(f"entry {seq} breaks rule {violation.rule}")
            game.events.append(event)
            game.hashes.append(self.hash)
            # Once history entries exist, the line of play is resolved again when next read.
            game.forget_replay(rules.apply(game._state, event) if game.plain else None)

    # Attributes set by ``Created.apply`` (not annotated on the class: eventsourcing would turn
    # annotations into ``__init__`` parameters): ``name``, ``catalog``, ``header`` (a ``GameLog``
    # without events), ``initial`` (the state before any event), ``events`` (every log entry,
    # history entries included), ``hashes`` (chain) and ``receipts`` (set by the store).

    def forget_replay(self, state: GameState | None) -> None:
        """Drop the cached line of play; ``state`` is the new state when it is known without a replay."""
        self._state = state
        self._replay: Replay | None = None
        self._line: Line | None = None

    @property
    def line(self) -> Line:
        """The line of play: the game events in force once corrections and overrides are read."""
        if self._line is None:
            self._line = resolve(self.events)
        return self._line

    @property
    def replay(self) -> Replay:
        """The line folded through the rules; plays a correction made illegal are skipped and listed."""
        if self._replay is None:
            self._replay = replay(self.initial, self.line, stop_at_violation=False)
        return self._replay

    @property
    def state(self) -> GameState:
        """The table now."""
        if self._state is None:
            self._state = self.replay.state
        return self._state

    @staticmethod
    def create_id(name: str) -> UUID:
        """The game's id follows from its name."""
        return uuid5(NAMESPACE, f"game:{name}")

    @classmethod
    def start(
        cls,
        name: str,
        catalog: Catalog,
        players: Sequence[tuple[str, str]],
        meta: Mapping[str, Any] | None = None,
        ruleset: str = RULESET,
    ) -> Game:
        """A new game before setup. ``ValueError`` if these players cannot play with this catalog."""
        rules.initial_state(catalog, players)  # refuse before anything is triggered
        remember_catalog(catalog)
        return cls._create(
            cls.Created,
            name=name,
            catalog_id=catalog.id,
            catalog_sha256=catalog.sha256,
            catalog_data=None if _is_shipped(catalog) else dict(catalog.data),
            ruleset=ruleset,
            players=tuple((n, c) for n, c in players),
            meta=dict(meta or {}),
        )

    @classmethod
    def from_log(cls, name: str, log: GameLog, catalog: Catalog | None = None, source: str = "<log>") -> Game:
        """A game holding every event of a log, after the rules core accepted all of them.

        Raises ``LogError`` (catalog not available, bad players) or
        ``IllegalLog`` (an event breaks a rule); either way nothing is triggered.
        A record whose corrections left later plays illegal is kept as it is
        (those plays are skipped and listed, see ``replay``).
        """
        result = validate(log, catalog, source)
        if not kept(result):
            raise IllegalLog(result)
        game = cls.start(name, result.state.catalog, log.players, log.meta, log.ruleset)
        for event in log.events:
            game._trigger(event)
        return game

    @property
    def pending(self) -> Pending | None:
        """Who must act next, and what kind of input is due (``None`` once the game is over)."""
        return rules.pending(self.state)

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def head(self) -> str:
        """The newest hash of the chain (the header's hash before any event)."""
        return self.hashes[-1] if self.hashes else header_hash(self.header.header())

    def record(self, event: GameEvent) -> None:
        """Add a decision or an outcome; ``RuleViolation`` (and nothing triggered) if it is illegal."""
        violation = rules.check(self.state, event)
        if violation is not None:
            raise violation
        self._trigger(event)

    # -- the record's own history: nothing is deleted, every change is an entry of its own

    def play_index(self, seq: int) -> int:
        """Position in the line of play of entry ``seq``; ``RuleViolation`` (HISTORY.target) if it is not a play."""
        k = self.line.index_of(seq)
        if k is None:
            raise RuleViolation("HISTORY.target", f"entry {seq} is not a game event in the line of play",
                                {"entry": seq, "plays": len(self.line.plays)})
        return k

    def state_before(self, seq: int) -> GameState:
        """The table just before the play first recorded as entry ``seq``."""
        k = self.play_index(seq)
        before = Line(self.line.plays[:k])
        return replay(self.initial, before, stop_at_violation=False).state

    def correct(self, seq: int, event: GameEvent, by: str = TABLE) -> tuple[tuple[Play, RuleViolation], ...]:
        """Replace what entry ``seq`` said; returns the later plays that the change made illegal.

        The replacement must be legal where the original stood (``RuleViolation``
        otherwise, nothing triggered). Later plays are checked again: those that
        no longer fit are skipped from the line of play and reported, never deleted.
        """
        violation = rules.check(self.state_before(seq), event)
        if violation is not None:
            raise violation
        before = {p.seq for p, _ in self.replay.skipped}
        self._trigger(Corrected(by, seq))
        self._trigger(event)
        return tuple((p, v) for p, v in self.replay.skipped if p.seq not in before)

    def undo(self, by: str = TABLE) -> Play:
        """Withdraw the latest play (a ``Retracted`` entry; the play stays in the log)."""
        if not self.line.plays:
            raise RuleViolation("HISTORY.target", "there is no play to undo", {"entries": len(self.events)})
        last = self.line.plays[-1]
        self._trigger(Retracted(by, last.seq))
        return last

    def accept(self, event: GameEvent, reason: str, by: str = TABLE) -> RuleViolation:
        """Record a move the table accepted although it breaks a rule; returns the rule it breaks.

        ``NothingToOverride`` if the move is legal (record it normally);
        ``RuleViolation`` (``HISTORY.override``) if it cannot be laid out at all.
        """
        violation = rules.check(self.state, event)
        if violation is None:
            raise NothingToOverride(f"{event.TYPE} breaks no rule here; record it as an ordinary decision")
        play_override(self.state, Play(len(self.events) + 2, len(self.events) + 2, event, (violation.rule, reason)))
        self._trigger(RuleOverridden(by, violation.rule, reason))
        self._trigger(event)
        return violation

    def note(self, seq: int, text: str, bookmark: bool = False, by: str = TABLE) -> None:
        """Comment on a play, or mark it as a named place to jump to."""
        self.play_index(seq)
        self._trigger(Bookmarked(by, seq, text) if bookmark else Noted(by, seq, text))

    def _trigger(self, event: GameEvent) -> None:
        payload = event.payload()
        chained = event_hash(self.head, len(self.events) + 1, event.TYPE, event.actor, payload)
        self.trigger_event(self.Recorded, type=event.TYPE, actor=event.actor, payload=payload, hash=chained)

    def to_log(self) -> GameLog:
        """The game as a JSON log (``coimbra_events.log.dumps`` writes its canonical bytes)."""
        return self.header.with_events(self.events)



fold_game = Folding(Game, (Game.Created, Game.Recorded))
"""How ``GameStore`` folds a stored game."""


__all__ = [
    "BrokenLink", "Folding", "ForeignEvent", "Game", "IllegalLog", "NothingToOverride", "fold_game", "project",
    "remember_catalog", "resolve_catalog", "NAMESPACE",
]
