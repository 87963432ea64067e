"""The ``Game`` aggregate: one stored event per decision or random outcome.

The aggregate is a thin event-sourced shell around the rules core. Its stored
events are the log's own events (type, actor, payload, chain hash), so the
store and a JSON log hold the same facts and convert into each other without
loss. Rules run in the command method *before* an event is triggered
(``record``); the ``apply`` bodies only fold, because they run again on every
replay (eventsourcing pitfall 2).

The table is folded once, lazily, and then kept up to date: a stored event is
only appended when read, and the state catches up on the entries it has not
folded when it is asked for; a plain play applies to it (it was checked when it
was recorded, against this same state), while a correction or retraction has the
line of play resolved and replayed again. Commands that do not look at the table
(``export``, ``verify``) fold nothing; ``import`` hands over the state its
validation reached (``from_log``); a snapshot (``Game.Snapshot``) holds the
record and the table, so a long game is read without folding it again, and its
entries are only read, checked, when something asks for them (``HeldEntries``).

Stored events have class versions (the library's upcasting): version 1 of
``Recorded`` had no ``at``/``by``, version 1 of ``Created`` came from schema-1 code.
A game's id is random; its name is claimed in the store's register
(``coimbra_events.names``), so games can be renamed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar
from uuid import UUID

import orjson
from eventsourcing.domain import Aggregate, CanInitAggregate, Snapshot
from eventsourcing.utils import get_topic

from coimbra_events import RULESET, state_codec
from coimbra_events.catalog import Catalog, CatalogError, find_catalog, parse_catalog, shipped_catalogs
from coimbra_events.event_decoding import decode_event
from coimbra_events.events import Bookmarked, Corrected, GameEvent, Noted, Retracted, RuleOverridden
from coimbra_events.history import Line, Play, Replay, advance, is_plain, play_override, replay, resolve
from coimbra_events.log import NO_STAMP, GameLog, Stamp, chained_entries, event_hash
from coimbra_events.rules import core as rules
from coimbra_events.rules.scoring import final_scores
from coimbra_events.rulesets import Migration, under_current_rules
from coimbra_events.state import TABLE, GameState, Pending
from coimbra_events.validation import Validation, validate
from coimbra_events.violations import RuleViolation

NAMESPACE = UUID("5b0f6c1e-3d1a-4a47-9a51-0c01b7a3c0d2")
"""Namespace of the ``uuid5`` ids the store derives from names (``coimbra_events.names``)."""

UNKNOWN = "unknown"
"""What a game made before results were announced last announced (``Game.announced``)."""

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


def utc_now() -> str:
    """Now, as an entry's ``at``: ISO 8601 UTC to the second."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def result_of(state: GameState) -> list[dict[str, Any]] | None:
    """A finished game's result as the index keeps it (players by place, totals and points by source); ``None`` before the end."""
    if not state.over:
        return None
    return [{"name": s.name, "place": s.place, "total": s.total, "sources": s.sources()} for s in final_scores(state)]


class BrokenLink(ValueError):
    """A stored entry that does not follow from the record before it: its hash is not the one chained.

    Raised while a stored game is read, before its entry is even decoded, so a
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
    moved_from: tuple[str, ...] = ()
    """Topics the aggregate class was stored under before it moved (registered with the library's ``register_topic``)."""

    def __call__(self, aggregate: A | None, events: Iterable[Any]) -> A | None:
        topics = (get_topic(self.aggregate), *self.moved_from)
        for event in events:
            if type(event) not in self.events or (isinstance(event, CanInitAggregate) and vars(event).get("originator_topic") not in topics):
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


def _pending_fixes(log: GameLog) -> bool:
    """Whether a log's only problem can be plays its own corrections made illegal.

    Such a record is kept as it is (nothing recorded is lost): its skipped plays
    are listed until they are corrected, undone or accepted. A plain log with an
    illegal event, or a record whose history entries name nothing, is refused.
    """
    return not is_plain(log.events) and resolve(log.events).problem is None


def kept(result: Validation) -> bool:
    """Whether the store keeps a record that validated so: every event legal, or only plays its own
    corrections made illegal (``_pending_fixes``)."""
    return result.valid or _pending_fixes(result.log)


def _is_shipped(catalog: Catalog) -> bool:
    """Whether the catalog ships with coimbra: any other one, installed ones included, is copied
    into the game, so a store opens wherever it is copied to."""
    return catalog in shipped_catalogs()


class Game(Aggregate):
    """A game in the store: header facts, the record so far, and the table it folds into."""

    class Created(Aggregate.Created):
        """A new game: who plays, with which catalog and ruleset.

        ``catalog_data`` holds the catalog itself when it is not a shipped one (an
        installed one included), so a game recorded with a club's catalog stays
        readable on its own; without it, the catalog is found by id and hash.
        ``meta`` is the log header's free-form object, kept for exact export;
        ``upcast_from`` the log schema the record was begun under, if older (its
        chain is anchored there). ``announces`` is true for games that announce
        their results (``Finished``, ``Reopened``): every game made since schema 2.
        """

        class_version = 2

        name: str
        catalog_id: str
        catalog_sha256: str
        catalog_data: dict | None
        ruleset: str
        players: tuple
        meta: dict
        upcast_from: int
        announces: bool

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            """Made by schema-1 code: the chain is anchored on the schema-1 header; no result was announced."""
            state["upcast_from"] = 1
            state["announces"] = False

        def apply(self, game: Game) -> None:
            if not isinstance(self.timestamp, datetime):  # not hashed, but the game is dated by it: a changed row
                raise ValueError(f"the header's timestamp {self.timestamp!r} is not a time")
            game.name = self.name
            game.catalog = resolve_catalog(self.catalog_id, self.catalog_sha256, self.catalog_data)
            game.header = GameLog(
                self.catalog_id, self.catalog_sha256, tuple((str(n), str(c)) for n, c in self.players),
                (), self.ruleset, dict(self.meta), (), self.upcast_from,
            )
            game.initial = rules.initial_state(game.catalog, game.header.players)
            game._events, game._hashes, game._stamps = [], [], []
            game._held = None
            game.announced = None if self.announces else UNKNOWN
            game.tags = ()
            game.archived = False
            game.entry_by = None
            game.snapshot_version = 0  # the snapshot it was read from or last kept, and its ``snapshot_digest``
            game.snapshot_digest = None
            game.receipts = 0  # how many head receipts the store holds for it (GameStore.get says)
            game.making = None  # the entry this code is appending, chained already (see Recorded.apply)
            game.start_fold(game.initial, 0)

    class Recorded(Aggregate.Event):
        """One log entry, as the log writes it: type, actor, JSON payload, when and by whom, chain hash.

        ``payload`` is a fresh dict from ``GameEvent.payload()`` (lists, not
        tuples, so it reads back equal after JSON transcoding, pitfalls 1 and 8).
        ``at`` and ``by`` are ``None`` where not known (every entry of class version 1).
        """

        class_version = 2

        type: str
        actor: str
        payload: dict
        hash: str
        at: str | None
        by: str | None

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            """Entries stored before schema 2 do not say when or by whom."""
            state["at"] = None
            state["by"] = None

        def apply(self, game: Game) -> None:
            # The link first: a stored entry is decoded, and later folded, only once its
            # hash shows it is the one recorded after the entries before it. An entry this
            # code is making (``game.making``) was chained just now from the event it holds
            # (``_trigger``; ``from_log``: the log's own chain), so it is neither hashed nor
            # decoded again. It follows the entries a snapshot holds, read yet or not (``HeldEntries``).
            stamp = (self.at or "", self.by or "")
            event = game.making
            if event is None:
                seq = game.entries + 1
                if self.hash != event_hash(game.head, seq, self.type, self.actor, self.payload, *stamp):
                    raise BrokenLink(f"entry {seq} does not match its recorded hash")
                event = decode_event(self.type, self.actor, self.payload)
            game._events.append(event)
            game._hashes.append(self.hash)
            game._stamps.append(stamp)

    class Finished(Aggregate.Event):
        """The record now ends the game, with this result (players by place; see ``result_of``)."""

        result: list

        def apply(self, game: Game) -> None:
            game.announced = self.result

    class Reopened(Aggregate.Event):
        """The record no longer ends the game (an undo or a correction took its end back)."""

        def apply(self, game: Game) -> None:
            game.announced = None

    class Renamed(Aggregate.Event):
        """The game is known by another name from now on (the store's register moves with it)."""

        name: str

        def apply(self, game: Game) -> None:
            game.name = self.name

    class Tagged(Aggregate.Event):
        """The game's tags are now these (an evening, a season, a league: what a club groups games by)."""

        tags: tuple

        def apply(self, game: Game) -> None:
            game.tags = tuple(str(t) for t in self.tags)

    class Archived(Aggregate.Event):
        """The game is left out of the games list (``archived``), or listed again; nothing is deleted."""

        archived: bool

        def apply(self, game: Game) -> None:
            game.archived = self.archived

    class Snapshot(Snapshot):
        """A stored game's record and table at one version, so reading it need not fold it again.

        The snapshot holds the entries as the log writes them (read only when
        asked for, ``HeldEntries``), how many there are and the head of their
        chain, and the table as ``state_codec`` writes it. It is a cache: one
        taken by other code (another ruleset, another state layout) is not used
        (``StaleSnapshot``), the game is folded from its events instead.
        """

        @classmethod
        def take(cls, aggregate: Any) -> Any:
            game: Game = aggregate
            entries = [[e.TYPE, e.actor, e.payload(), h, at, by]  # read first: a copy that did not hold refolds the table
                       for e, h, (at, by) in zip(game.events, game.hashes, game.stamps)]
            return cls(
                originator_id=game.id, originator_version=game.version, timestamp=cls.create_timestamp(),
                topic=SNAPSHOT_TOPIC, state={**game.snapshot_facts(), "entries": orjson.dumps(entries).decode()},
            )

        def mutate(self, _: None) -> Any:
            return Game.from_snapshot(self.originator_id, self.originator_version, self.timestamp, self.state)

    # Attributes set by ``Created.apply`` (not annotated on the class: eventsourcing would turn
    # annotations into ``__init__`` parameters): ``name``, ``catalog``, ``header`` (a ``GameLog``
    # without events), ``initial`` (the state before any event), ``_events``, ``_hashes`` and
    # ``_stamps`` (the entries after those ``_held`` from a snapshot, if any: see ``events``),
    # ``announced`` (the last result announced: ``Finished``'s, ``None``, or ``UNKNOWN``), ``tags``,
    # ``archived``, and ``entry_by`` (who enters new entries in this session; ``None``: not stamped).

    def snapshot_facts(self) -> dict[str, Any]:
        """What a snapshot of the game now holds beside its entries (``snapshot_digest`` hashes it)."""
        return {
            "format": SNAPSHOT_FORMAT, "ruleset": RULESET, "name": self.name, "created": self.created_on.isoformat(),
            "header": self.header.header(), "catalog_data": None if _is_shipped(self.catalog) else dict(self.catalog.data),
            "count": self.entries, "head": self.head, "table": state_codec.dumps(self.state).decode(),
            "announced": self.announced, "tags": list(self.tags), "archived": self.archived,
        }

    @classmethod
    def from_snapshot(cls, id: UUID, version: int, timestamp: datetime, data: Mapping[str, Any]) -> Game:
        """The game a snapshot holds; ``StaleSnapshot`` if this code did not write it."""
        if data.get("format") != SNAPSHOT_FORMAT or data.get("ruleset") != RULESET:
            raise StaleSnapshot(f"snapshot of {data.get('name')!r} is from other code ({data.get('format')}, {data.get('ruleset')})")
        head = data["header"]
        try:
            game = object.__new__(cls)
            catalog = resolve_catalog(head["catalog"]["id"], head["catalog"]["sha256"], data["catalog_data"])
            game.__dict__.update(_id=id, _version=version, _pending_events=[], _created_on=datetime.fromisoformat(data["created"]),
                                 _modified_on=timestamp)
            game.name, game.catalog = data["name"], catalog
            game.header = GameLog(catalog.id, catalog.sha256, tuple((p["name"], p["color"]) for p in head["players"]), (),
                                  head["ruleset"], head.get("meta", {}), (), head.get("upcast_from", 0))
            game.initial = rules.initial_state(catalog, game.header.players)
            game._held = HeldEntries(data["entries"], data["count"], data["head"])
            game._events, game._hashes, game._stamps = [], [], []
            game.announced, game.tags, game.archived = data["announced"], tuple(data["tags"]), data["archived"]
            game.entry_by = None
            game.snapshot_version, game.snapshot_digest = version, snapshot_digest(data)
            game.receipts = 0
            game.making = None
            game.start_fold(state_codec.decode(orjson.loads(data["table"]), catalog), game._held.count)
        except (KeyError, TypeError, ValueError) as exc:
            raise StaleSnapshot(f"snapshot of {data.get('name')!r} cannot be read by this code: {exc}") from None
        return game

    # -- the table, folded once

    def start_fold(self, state: GameState | None, folded: int) -> None:
        """The table after the first ``folded`` entries is ``state`` (``None``: not known, fold the line again)."""
        self._state = state
        self._folded = folded
        self._introduced: GameEvent | None = None
        self._line: tuple[int, Line] | None = None
        self._replay: tuple[int, Replay] | None = None
        self._carried = rules.Fold()  # the working copy of the table, kept from one new entry to the next

    @property
    def state(self) -> GameState:
        """The table now: the entries not folded yet are folded on, or the line is replayed if history changed it."""
        if self._state is not None and self._folded < self.entries:
            state: GameState | None = self._state
            for event in self._since(self._folded):
                state, self._introduced = advance(state, self._introduced, event, self._carried)
                if state is None:
                    break
                self._state, self._folded = state, self._folded + 1
            if state is None:
                self._state = None
        if self._state is None:
            self._state, self._folded = self.replay.state, self.entries
            last = self.events[-1] if self.events else None
            self._introduced = last if type(last) in (Corrected, RuleOverridden) else None
        return self._state

    @property
    def line(self) -> Line:
        """The line of play: the game events in force once corrections and overrides are read."""
        if self._line is None or self._line[0] != self.entries:
            self._line = (self.entries, resolve(self.events))
        return self._line[1]

    @property
    def replay(self) -> Replay:
        """The line folded through the rules; plays a correction made illegal are skipped and listed."""
        if self._replay is None or self._replay[0] != self.entries:
            self._replay = (self.entries, replay(self.initial, self.line, stop_at_violation=False))
        return self._replay[1]

    # -- the record: read from a snapshot only when something asks for its entries

    @property
    def events(self) -> list[GameEvent]:
        """Every entry of the record, history entries included."""
        if self._held is not None:
            self._settle(self._held)
        return self._events

    @property
    def hashes(self) -> list[str]:
        """Each entry's hash, chained to the one before."""
        if self._held is not None:
            self._settle(self._held)
        return self._hashes

    @property
    def stamps(self) -> list[Stamp]:
        """When and by whom each entry was entered (``NO_STAMP`` where not known)."""
        if self._held is not None:
            self._settle(self._held)
        return self._stamps

    @property
    def entries(self) -> int:
        """How many entries the record has (a snapshot's entries are not read for it)."""
        return len(self._events) + (self._held.count if self._held is not None else 0)

    @property
    def head(self) -> str:
        """The newest hash of the chain (the header's hash before any event; a snapshot's entries are not read for it)."""
        if self._hashes:
            return self._hashes[-1]
        return self._held.head if self._held is not None else self.header.anchor()

    def _since(self, k: int) -> list[GameEvent]:
        """The entries after the first ``k``: those recorded since the snapshot are served without reading it."""
        held = self._held.count if self._held is not None else 0
        return self._events[k - held:] if k >= held else self.events[k:]

    def read_rows_with(self, rows: RowsReader) -> None:
        """Where the entries held from a snapshot are read from if the snapshot's own copy does not hold (the store's rows)."""
        if self._held is not None:
            self._held.rows = rows

    def _settle(self, held: HeldEntries) -> None:
        """Read the snapshot's entries, checked, in front of those recorded since (``HeldEntries``).

        A copy that does not hold is not the record: the entries are read from the
        store's rows instead, the table is folded again from them, and the next
        save takes a new snapshot. ``StaleSnapshot`` if there are no rows to read.
        """
        try:
            events, hashes, stamps = held.read(self.header.anchor())
        except StaleSnapshot:
            if held.rows is None:
                raise
            events, hashes, stamps = held.rows(self.snapshot_version, held.count, held.head)
            self.snapshot_version, self.snapshot_digest = 0, None
            self.start_fold(None, 0)
        self._held = None
        self._events[:0], self._hashes[:0], self._stamps[:0] = events, hashes, stamps

    @property
    def pending(self) -> Pending | None:
        """Who must act next, and what kind of input is due (``None`` once the game is over)."""
        return rules.pending(self.state)

    @property
    def over(self) -> bool:
        return self.state.over

    @classmethod
    def start(
        cls,
        name: str,
        catalog: Catalog,
        players: Sequence[tuple[str, str]],
        meta: Mapping[str, Any] | None = None,
        ruleset: str = RULESET,
        upcast_from: int = 0,
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
            upcast_from=upcast_from,
            announces=True,
        )

    @classmethod
    def from_log(cls, name: str, log: GameLog, catalog: Catalog | None = None, source: str = "<log>") -> Game:
        """A game holding every entry of a log, after the rules core accepted all of them: one pass.

        The entries are stored as the log has them (the same chain) and the table
        is the one the validation reached, so nothing is folded twice (the store
        announces the result when it saves, ``GameStore._commit``). Raises ``LogError`` (catalog not available, bad players,
        another ruleset) or ``IllegalLog`` (an event breaks a rule); either way
        nothing is triggered. A record whose corrections left later plays illegal
        is kept as it is (those plays are skipped and listed, see ``replay``). A
        record of an older ruleset read through a migration is stored as a new
        record under this ruleset, saying where it came from (``meta.migrated_from``).
        """
        result = validate(log, catalog, source)
        if not kept(result):
            raise IllegalLog(result)
        if result.migration is not None:
            log = _migrated_record(log, result.migration, source)
        game = cls.start(name, result.state.catalog, log.players, log.meta, log.ruleset, log.upcast_from)
        trigger, recorded = game.trigger_event, cls.Recorded
        stamps = log.stamps or [NO_STAMP] * len(log.events)
        for event, chained, (at, by) in zip(log.events, log.hashes(), stamps):
            game.making = event
            trigger(recorded, type=event.TYPE, actor=event.actor, payload=event.payload(), hash=chained, at=at or None, by=by or None)
        game.making = None
        if result.valid:
            game.start_fold(result.state, len(log.events))
        return game

    def enter_as(self, by: str | None) -> None:
        """Who enters the entries recorded on this copy from now on, kept with each (with the time);
        ``None``: entries are not stamped."""
        self.entry_by = by

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
        seq = self.entries + 2
        play_override(self.state, Play(seq, seq, event, (violation.rule, reason)))
        self._trigger(RuleOverridden(by, violation.rule, reason))
        self._trigger(event)
        return violation

    def note(self, seq: int, text: str, bookmark: bool = False, by: str = TABLE) -> None:
        """Comment on a play, or mark it as a named place to jump to."""
        self.play_index(seq)
        self._trigger(Bookmarked(by, seq, text) if bookmark else Noted(by, seq, text))

    # -- facts about the record, for the games index: its result, name, tags, whether it is listed

    def announce_result(self) -> None:
        """Say so if the record now ends the game with another result, or no longer ends it."""
        result = result_of(self.state)
        if result == self.announced:
            return
        if result is None:
            self.trigger_event(self.Reopened)
        else:
            self.trigger_event(self.Finished, result=result)

    def rename(self, name: str) -> None:
        if name != self.name:
            self.trigger_event(self.Renamed, name=name)

    def set_tags(self, tags: Sequence[str]) -> None:
        if tuple(tags) != self.tags:
            self.trigger_event(self.Tagged, tags=tuple(tags))

    def set_archived(self, archived: bool) -> None:
        if archived != self.archived:
            self.trigger_event(self.Archived, archived=archived)

    def _trigger(self, event: GameEvent, stamp: Stamp | None = None) -> None:
        """Append an entry, chained now: stamped with its source's stamp (a fork's parent), else now and
        ``entry_by`` when someone is entering."""
        payload = event.payload()
        if stamp is None:
            stamp = NO_STAMP if self.entry_by is None else (utc_now(), self.entry_by)
        at, by = stamp
        chained = event_hash(self.head, self.entries + 1, event.TYPE, event.actor, payload, at, by)
        self.making = event
        try:
            self.trigger_event(self.Recorded, type=event.TYPE, actor=event.actor, payload=payload, hash=chained,
                               at=at or None, by=by or None)
        finally:
            self.making = None

    def to_log(self) -> GameLog:
        """The game as a JSON log (``coimbra_events.log.dumps`` writes its canonical bytes)."""
        stamps = self.stamps if any(at or by for at, by in self.stamps) else ()
        return self.header.with_events(self.events, stamps)

    def first_mismatch(self) -> int | None:
        """The sequence number of the first stored event whose hash does not match its content."""
        for seq, (expected, stored) in enumerate(zip(self.to_log().hashes(), self.hashes), 1):
            if expected != stored:
                return seq
        return None


fold_game = Folding(Game, (Game.Snapshot, Game.Created, Game.Recorded, Game.Finished, Game.Reopened, Game.Renamed,
                           Game.Tagged, Game.Archived))
"""How ``GameStore`` folds a stored game: from its snapshot if it has one, then its own events."""

SNAPSHOT_FORMAT = "coimbra-game-snapshot-2"
"""What ``Game.Snapshot`` writes; a snapshot in any other format is not used."""
SNAPSHOT_TOPIC = "coimbra_events.game:Game"


class StaleSnapshot(ValueError):
    """A snapshot this code cannot use (written by other code, or changed since): the game is read from its events instead."""


def snapshot_digest(state: Mapping[str, Any]) -> str:
    """The sha256 of what a snapshot holds but its entries, which its head chains: what a game's receipt vouches for.

    A snapshot is a copy a read starts from instead of the rows; one the latest
    receipt does not vouch for (changed, or not kept after all) is not used.
    """
    rest = {k: v for k, v in state.items() if k != "entries"}
    return hashlib.sha256(orjson.dumps(rest, option=orjson.OPT_SORT_KEYS)).hexdigest()


Entries = tuple[list[GameEvent], list[str], list[Stamp]]
"""A record's entries, their hashes and their stamps, in order."""

RowsReader = Callable[[int, int, str], Entries]
"""The entries of a stored game's rows up to a version, which must be so many and end at this head."""


class HeldEntries:
    """The entries a snapshot copies, as it holds them, not read yet.

    Most commands that record (``act``, ``record``, ``roll``) need only the table,
    the head and the number of entries, so a game read from its snapshot reads
    none of its entries until something asks for one (``Game.events``). Then they
    are checked before any is decoded: each against its hash, chained on from the
    header, ending at the head the snapshot gave (the head the game's latest
    receipt vouched for when the store read it). ``rows``, set by the store that
    read the game, reads the entries from its rows instead when the copy does not hold.
    """

    __slots__ = ("text", "count", "head", "rows")

    def __init__(self, text: Any, count: Any, head: Any) -> None:
        if type(text) is not str or type(count) is not int or type(head) is not str:
            raise StaleSnapshot("its entries, their number or their head are not as this code writes them")
        self.text, self.count, self.head = text, count, head
        self.rows: RowsReader | None = None

    def read(self, anchor: str) -> Entries:
        """The entries, each checked against its hash; ``StaleSnapshot`` if they do not end at the head."""
        try:
            events, hashes, stamps = chained_entries(anchor, orjson.loads(self.text))
        except (KeyError, TypeError, ValueError) as exc:
            raise StaleSnapshot(f"the snapshot's entries cannot be read as the record: {exc}") from None
        if len(events) != self.count or (hashes[-1] if hashes else anchor) != self.head:
            raise StaleSnapshot(f"the snapshot's {len(events)} entries do not end at the head it gives, entry {self.count}")
        return events, hashes, stamps


def _migrated_record(log: GameLog, migration: Migration, source: str) -> GameLog:
    """A record of an older ruleset, read through its migration, as a new record under this ruleset."""
    folded, _ = under_current_rules(log, source)
    head = log.hashes()[-1] if log.events else log.anchor()
    meta = {**log.meta, "migrated_from": {"ruleset": log.ruleset, "head": head, "why": migration.reason}}
    return GameLog(folded.catalog_id, folded.catalog_sha256, folded.players, folded.events, RULESET, meta, log.stamps)


__all__ = ["BrokenLink", "Entries", "Folding", "ForeignEvent", "Game", "HeldEntries", "IllegalLog", "NothingToOverride",
           "StaleSnapshot", "fold_game",
           "kept", "project", "remember_catalog", "snapshot_digest", "resolve_catalog", "result_of", "utc_now", "NAMESPACE", "UNKNOWN"]
