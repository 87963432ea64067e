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

from typing import Any, Iterable, Mapping, Sequence, TypeVar
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from coimbra_events import RULESET
from coimbra_events.catalog import Catalog, CatalogError, find_catalog, parse_catalog
from coimbra_events.events import GameEvent, decode_event
from coimbra_events.log import GameLog, event_hash, header_hash
from coimbra_events.rules import core as rules
from coimbra_events.state import Pending
from coimbra_events.validation import Validation, validate

NAMESPACE = UUID("5b0f6c1e-3d1a-4a47-9a51-0c01b7a3c0d2")
"""Namespace of the ``uuid5`` ids of games (and of the store's index)."""

A = TypeVar("A", bound=Aggregate)

_CATALOGS: dict[str, Catalog] = {}
"""Catalogs seen in this process, by content hash: a cache, never a source of truth."""


class IllegalLog(ValueError):
    """A log whose events break a rule: nothing of it is stored. ``validation`` has the details."""

    def __init__(self, validation: Validation) -> None:
        self.validation = validation
        v = validation.violation
        event = validation.log.events[validation.legal_events]
        super().__init__(f"event {validation.violation_seq} ({event.TYPE}) breaks rule {v.rule}: {v.reason}")


def project(aggregate: A | None, events: Iterable[Any]) -> A | None:
    """A plain fold for ``repository.get(projector_func=...)`` (the default one is slow, pitfall 7)."""
    for event in events:
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


def _is_shipped(catalog: Catalog) -> bool:
    try:
        return find_catalog(catalog.id, catalog.sha256) == catalog
    except CatalogError:
        return False


class Game(Aggregate):
    """A game in the store: header facts, the events so far, and the state they fold into."""

    class Created(Aggregate.Created):
        """A new game: who plays, with which catalog and ruleset.

        ``catalog_data`` holds the catalog itself when it is not a shipped one,
        so a game recorded with a home-made catalog stays readable on its own.
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
            game.state = rules.initial_state(game.catalog, game.header.players)
            game.events = []
            game.hashes = []

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
            event = decode_event(self.type, self.actor, self.payload)
            game.state = rules.apply(game.state, event)
            game.events.append(event)
            game.hashes.append(self.hash)

    # Attributes set by ``Created.apply`` (not annotated on the class: eventsourcing would turn
    # annotations into ``__init__`` parameters): ``name``, ``catalog``, ``header`` (a ``GameLog``
    # without events), ``state`` (``GameState``), ``events`` (domain events) and ``hashes`` (chain).

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
        """
        result = validate(log, catalog, source)
        if not result.valid:
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

    def _trigger(self, event: GameEvent) -> None:
        payload = event.payload()
        chained = event_hash(self.head, len(self.events) + 1, event.TYPE, event.actor, payload)
        self.trigger_event(self.Recorded, type=event.TYPE, actor=event.actor, payload=payload, hash=chained)

    def to_log(self) -> GameLog:
        """The game as a JSON log (``coimbra_events.log.dumps`` writes its canonical bytes)."""
        return self.header.with_events(self.events)

    def first_mismatch(self) -> int | None:
        """The sequence number of the first stored event whose hash does not match its content."""
        for seq, (expected, stored) in enumerate(zip(self.to_log().hashes(), self.hashes), 1):
            if expected != stored:
                return seq
        return None


__all__ = ["Game", "IllegalLog", "project", "remember_catalog", "resolve_catalog", "NAMESPACE"]
