"""The ``Game`` aggregate: one stored event per decision or random outcome.

The aggregate is a thin event-sourced shell around the rules core. Its stored
events are the log's own events (type, actor, payload, chain hash), so the
store and a JSON log hold the same facts and convert into each other without
loss. Rules run in the command method *before* an event is triggered
(``record``); the ``apply`` bodies only fold, because they run again on every
replay (eventsourcing pitfall 2). The table is folded once, lazily
(``coimbra_events.folded_record``); ``import`` hands over the table its
validation reached (``from_log``), and a game restored from a copy of its record
and table (``restore``: the store's snapshots) is not folded at all.

The aggregate holds the record and the table, and nothing the store writes:
receipts, snapshots and what the store knows of them are the store's
(``coimbra_events.store``). Stored events have class versions (the library's
upcasting): version 1 of ``Recorded`` had no ``at``/``by``, version 1 of
``Created`` came from schema-1 code. A game's id is random; its name is claimed
in the store's register (``coimbra_events.store.register``), so games can be renamed.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Mapping, Sequence
from uuid import UUID

from eventsourcing.domain import Aggregate, Snapshot
from eventsourcing.utils import get_topic

from coimbra_events import RULESET
from coimbra_events.catalog import Catalog, is_shipped, remember_catalog, resolve_catalog
from coimbra_events.event_decoding import decode_event
from coimbra_events.events import Bookmarked, Corrected, GameEvent, Noted, Retracted, RuleOverridden
from coimbra_events.folded_record import Entries, FoldedRecord, HeldRecord
from coimbra_events.history import Line, Play, is_plain, play_override, replay, resolve
from coimbra_events.log import NO_STAMP, GameLog, Stamp, event_hash
from coimbra_events.rules import core as rules
from coimbra_events.rules.scoring import final_scores
from coimbra_events.rulesets import Migration, under_current_rules
from coimbra_events.state import TABLE, GameState
from coimbra_events.validation import Validation, validate
from coimbra_events.violations import RuleViolation

NAMESPACE = UUID("5b0f6c1e-3d1a-4a47-9a51-0c01b7a3c0d2")
"""Namespace of the ``uuid5`` ids the store derives from names (``coimbra_events.store.register``)."""

UNKNOWN = "unknown"
"""What a game made before results were announced last announced (``Game.announced``)."""


class NothingToOverride(ValueError):
    """An 'accepted rule break' that breaks no rule: it should be recorded as an ordinary decision."""


class StillInProgress(ValueError):
    """A game in progress asked to be put away: only a game over is (one in progress is archived instead)."""


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


class Game(FoldedRecord, Aggregate):
    """A game in the store: header facts, the record so far, and the table it folds into.

    Each decision or random outcome the rules accept is an entry, chained to the
    ones before it (``head``: the newest hash); an undo is an entry of its own,
    so nothing recorded is lost:

    >>> import random
    >>> from coimbra_events.catalog import standin_catalog
    >>> from coimbra_events.rules.core import legal
    >>> game = Game.start("tuesday", standin_catalog(), [("Ana", "red"), ("Bruno", "blue")])
    >>> game.pending.kind, game.entries
    ('monasteries', 0)
    >>> anchor = game.head
    >>> game.record(legal(game.state).sample(random.Random(1)))
    >>> game.entries, game.pending.kind, game.head != anchor
    (1, 'scoring-tiles', True)
    >>> game.events
    [MonasteriesDrawn(actor='table', placement=(('blue-e1', 'm-I-...'), ...))]
    >>> game.undo()
    Play(seq=1, source=1, event=MonasteriesDrawn(...), override=None)
    >>> game.entries, game.pending.kind, game.events[-1]
    (2, 'monasteries', Retracted(actor='table', seq=1))
    """

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
            if not isinstance(self.upcast_from, int):  # the compiled GameLog refuses it too: the same in pure Python
                raise ValueError(f"the header's upcast_from {self.upcast_from!r} is not a schema number")
            catalog = resolve_catalog(self.catalog_id, self.catalog_sha256, self.catalog_data)
            header = GameLog(
                self.catalog_id, self.catalog_sha256, tuple((str(n), str(c)) for n, c in self.players),
                (), self.ruleset, dict(self.meta), (), self.upcast_from,
            )
            game._begin(self.name, catalog, header, None, None if self.announces else UNKNOWN, (), False)
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

    class PutAway(Aggregate.Event):
        """The game, over, was put away at a club night's server (``coimbra serve``): no server of every table serves
        it any more. A fact for those servers, which read it from the store's notification log; nothing the game
        holds changes (record, table, result, tags and listing stay as they were), so it folds nothing."""

    def _begin(self, name: str, catalog: Catalog, header: GameLog, held: HeldRecord | None, announced: Any,
               tags: tuple[str, ...], archived: bool) -> None:
        """Every attribute of a game but the table (``start_fold``), whether created or restored from a copy."""
        self.name, self.catalog, self.header = name, catalog, header
        self.initial = rules.start(catalog, header.players)
        self._held = held
        self._events, self._hashes, self._stamps = [], [], []
        self.announced, self.tags, self.archived = announced, tags, archived
        self.making: GameEvent | None = None  # the entry this code is appending, chained already (see Recorded.apply)

    @classmethod
    def restore(cls, id: UUID, version: int, created_on: datetime, modified_on: datetime, *, name: str,
                catalog: Catalog, header: GameLog, held: HeldRecord, table: GameState, announced: Any,
                tags: tuple[str, ...], archived: bool) -> Game:
        """A game restored from a copy of its record (``held``, read when first asked for) and its table, not folded.

        The library's ``Snapshot.mutate`` builds the aggregate (its id, version and
        pending events) from the attribute dict ``Snapshot.take`` writes; the
        aggregate's two timestamps are the only attributes of the library's in it,
        named as ``take`` names them (the library has no public setter for them).
        """
        library = Snapshot(originator_id=id, originator_version=version, timestamp=modified_on, topic=get_topic(cls),
                           state={"_created_on": created_on, "_modified_on": modified_on})
        game = library.mutate(None)
        assert isinstance(game, cls)
        game._begin(name, catalog, header, held, announced, tags, archived)
        game.start_fold(table, held.count)
        return game

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
        rules.start(catalog, players)  # refuse before anything is triggered
        remember_catalog(catalog)
        return cls._create(
            cls.Created,
            name=name,
            catalog_id=catalog.id,
            catalog_sha256=catalog.sha256,
            catalog_data=None if is_shipped(catalog) else dict(catalog.data),
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
        announces the result when it saves, ``GameRepository.save``). Raises ``LogError`` (catalog not available, bad players,
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

    def append_log(self, log: GameLog, catalog: Catalog | None = None, source: str = "<log>") -> int:
        """Append the entries of a log that extends this record (its chain holds this game's head), with the
        log's stamps and hashes, after the rules accepted the whole log: one pass. Returns how many.

        Raises ``IllegalLog`` (nothing triggered) or ``ValueError`` if the log does not extend this record.
        """
        chain, start = log.hashes(), self.entries
        if log.anchor() != self.header.anchor() or len(chain) <= start or (chain[start - 1] if start else log.anchor()) != self.head:
            raise ValueError(f"{source} does not extend {self.name}")
        result = validate(log, catalog, source)
        if not kept(result):
            raise IllegalLog(result)
        for k in range(start, len(log.events)):
            self._trigger(log.events[k], log.stamp(k))
        self.start_fold(result.state if result.valid else None, len(log.events) if result.valid else 0)
        return len(log.events) - start

    def record(self, event: GameEvent, entered_by: str | None = None) -> None:
        """Add a decision or an outcome; ``RuleViolation`` (and nothing triggered) if it is illegal.

        ``entered_by``: who entered it, kept with the time in its stamp (``None``: not stamped). So are the
        other writes' below: who enters is said with each write, never left on the game.
        """
        violation = rules.check(self.state, event)
        if violation is not None:
            raise violation
        self._trigger(event, entered_by=entered_by)

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

    def correct(self, seq: int, event: GameEvent, by: str = TABLE,
                entered_by: str | None = None) -> tuple[tuple[Play, RuleViolation], ...]:
        """Replace what entry ``seq`` said; returns the later plays that the change made illegal.

        The replacement must be legal where the original stood (``RuleViolation``
        otherwise, nothing triggered). Later plays are checked again: those that
        no longer fit are skipped from the line of play and reported, never deleted.
        """
        violation = rules.check(self.state_before(seq), event)
        if violation is not None:
            raise violation
        before = {p.seq for p, _ in self.replay.skipped}
        self._trigger(Corrected(by, seq), entered_by=entered_by)
        self._trigger(event, entered_by=entered_by)
        return tuple((p, v) for p, v in self.replay.skipped if p.seq not in before)

    def undo(self, by: str = TABLE, entered_by: str | None = None) -> Play:
        """Withdraw the latest play (a ``Retracted`` entry; the play stays in the log)."""
        if not self.line.plays:
            raise RuleViolation("HISTORY.target", "there is no play to undo", {"entries": len(self.events)})
        last = self.line.plays[-1]
        self._trigger(Retracted(by, last.seq), entered_by=entered_by)
        return last

    def accept(self, event: GameEvent, reason: str, by: str = TABLE, entered_by: str | None = None) -> RuleViolation:
        """Record a move the table accepted although it breaks a rule; returns the rule it breaks.

        ``NothingToOverride`` if the move is legal (record it normally);
        ``RuleViolation`` (``HISTORY.override``) if it cannot be laid out at all.
        """
        violation = rules.check(self.state, event)
        if violation is None:
            raise NothingToOverride(f"{event.TYPE} breaks no rule here; record it as an ordinary decision")
        seq = self.entries + 2
        play_override(self.state, Play(seq, seq, event, (violation.rule, reason)))
        self._trigger(RuleOverridden(by, violation.rule, reason), entered_by=entered_by)
        self._trigger(event, entered_by=entered_by)
        return violation

    def note(self, seq: int, text: str, bookmark: bool = False, by: str = TABLE, entered_by: str | None = None) -> None:
        """Comment on a play, or mark it as a named place to jump to."""
        self.play_index(seq)
        self._trigger(Bookmarked(by, seq, text) if bookmark else Noted(by, seq, text), entered_by=entered_by)

    # -- facts about the record, for the games index: its result, name, tags, whether it is listed; and for a club
    #    night's servers, whether its table was put away

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

    def put_away(self) -> None:
        """Say that the game's table is put away (``PutAway``), once the game is over; ``StillInProgress`` before:
        a game in progress leaves a club night's tables archived (``set_archived``), never merely put away."""
        if not self.over:
            raise StillInProgress(f"{self.name} is in progress: archive it (the league leaves it out), or finish it first")
        self.trigger_event(self.PutAway)

    def _trigger(self, event: GameEvent, stamp: Stamp | None = None, entered_by: str | None = None) -> None:
        """Append an entry, chained now: stamped with its source's stamp (a fork's parent), else now and
        ``entered_by`` when someone is entering."""
        payload = event.payload()
        if stamp is None:
            stamp = NO_STAMP if entered_by is None else (utc_now(), entered_by)
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


def _migrated_record(log: GameLog, migration: Migration, source: str) -> GameLog:
    """A record of an older ruleset, read through its migration, as a new record under this ruleset."""
    folded, _ = under_current_rules(log, source)
    head = log.hashes()[-1] if log.events else log.anchor()
    meta = {**log.meta, "migrated_from": {"ruleset": log.ruleset, "head": head, "why": migration.reason}}
    return GameLog(folded.catalog_id, folded.catalog_sha256, folded.players, folded.events, RULESET, meta, log.stamps)


__all__ = ["BrokenLink", "Entries", "Game", "HeldRecord", "IllegalLog", "NothingToOverride", "kept", "result_of", "utc_now",
           "NAMESPACE", "UNKNOWN"]
