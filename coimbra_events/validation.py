"""Folding a recorded log through the rules: is every event legal, and where does it stop?

One of the folds of a record; the table in ``projections/__init__.py`` says which serves which view.
"""

from __future__ import annotations

from typing import Any, Final

from coimbra_events.catalog import Catalog, CatalogError, find_catalog
from coimbra_events.events import GameEvent, is_plain
from coimbra_events.log import GameLog, LogError, LogProblem
from coimbra_events.record import Record
from coimbra_events.rules.core import check, start
from coimbra_events.rules.fast import Fold
from coimbra_events.rulesets import Migration, under_current_rules
from coimbra_events.state import GameState
from coimbra_events.violations import RuleViolation


class Validation(Record):
    """The result of folding a log: the state after the last legal event, and the first violation.

    ``legal_events`` counts the plays folded before the violation;
    ``violation_seq`` is the log entry that breaks a rule (for a log with
    corrections, the entry whose content is in force). ``overrides`` lists the
    table-accepted rule breaks: (entry, rule, reason). ``migration`` is how a
    record of another ruleset was read (``coimbra_events.rulesets``), if it was.
    """

    FIELDS = ("log", "state", "legal_events", "violation", "violation_seq", "overrides", "migration")
    COMPARED = FIELDS

    def __init__(self, log: GameLog, state: GameState, legal_events: int, violation: RuleViolation | None = None,
                 violation_seq: int | None = None, overrides: tuple[tuple[int, str, str], ...] = (),
                 migration: Migration | None = None) -> None:
        self.log: Final = log
        self.state: Final = state
        self.legal_events: Final = legal_events
        self.violation: Final = violation
        self.violation_seq: Final = violation_seq
        self.overrides: Final = overrides
        self.migration: Final = migration

    @property
    def valid(self) -> bool:
        return self.violation is None

    def to_json(self) -> dict[str, Any]:
        """``{"valid", "events", "violation": {"seq", "rule", "message", ...}, "ruleset", "catalog", ...}``."""
        v = None
        if self.violation is not None and self.violation_seq is not None:
            v = {"seq": self.violation_seq, "type": self.log.events[self.violation_seq - 1].TYPE,
                 **self.violation.to_json(self.state.catalog)}
        return {
            "valid": self.valid,
            "ruleset": self.log.ruleset,
            "migration": None if self.migration is None else self.migration.reason,
            "catalog": {"id": self.log.catalog_id, "sha256": self.log.catalog_sha256},
            "events": len(self.log.events),
            "legal_events": self.legal_events,
            "game_over": self.state.over,
            "round": self.state.round,
            "phase": self.state.phase,
            "violation": v,
            "overrides": [{"seq": seq, "rule": rule, "reason": reason} for seq, rule, reason in self.overrides],
        }


def catalog_for(log: GameLog, catalog: Catalog | None = None, source: str = "<log>") -> Catalog:
    """The catalog a log was recorded with: the given one if its identity matches, else a shipped one."""
    if catalog is None:
        try:
            return find_catalog(log.catalog_id, log.catalog_sha256)
        except CatalogError as exc:
            raise LogError(source, [LogProblem(0, "catalog not available", str(exc))]) from None
    if (catalog.id, catalog.sha256) != (log.catalog_id, log.catalog_sha256):
        raise LogError(source, [LogProblem(0, "catalog mismatch",
                                           f"the log was recorded with catalog {log.catalog_id} "
                                           f"sha256={log.catalog_sha256[:12]}…, given {catalog.id} sha256={catalog.sha256[:12]}…")])
    return catalog


def start_state(log: GameLog, catalog: Catalog, source: str = "<log>") -> GameState:
    """The state before the log's first event; ``LogError`` if the players cannot start a game."""
    try:
        return start(catalog, log.players)
    except ValueError as exc:
        raise LogError(source, [LogProblem(0, "bad players", str(exc))]) from None


def validate(log: GameLog, catalog: Catalog | None = None, source: str = "<log>") -> Validation:
    """Fold the log's line of play through the rules until the end or the first illegal event.

    ``LogError`` for a record of another ruleset that no migration reads, a catalog that is
    not the one recorded, or players who cannot start a game."""
    folded, migration = under_current_rules(log, source)
    catalog = catalog_for(log, catalog, source)
    state = start_state(log, catalog, source)
    if not is_plain(folded.events):
        return _validate_line(log, folded.events, state, migration)
    carried = Fold()
    for n, event in enumerate(folded.events):
        violation = check(state, event)
        if violation is not None:
            return Validation(log, state, n, violation, n + 1, (), migration)
        state = carried.apply(state, event)
    return Validation(log, state, len(log.events), None, None, (), migration)


def _validate_line(log: GameLog, events: tuple[GameEvent, ...], state: GameState, migration: Migration | None) -> Validation:
    """A log with corrections, retractions or overrides: resolve its line of play, then fold it."""
    from coimbra_events.history import replay, resolve  # only such logs need it (a plain validation starts faster)

    line = resolve(events)
    result = replay(state, line, stop_at_violation=True)
    overrides = tuple((p.seq, p.override[0], p.override[1]) for p, _ in result.overrides if p.override)
    if line.problem is not None and result.first_violation is None:
        seq, violation = line.problem
        return Validation(log, result.state, result.applied, violation, seq, overrides, migration)
    if result.first_violation is not None:
        play, violation = result.first_violation
        return Validation(log, result.state, result.applied, violation, play.source, overrides, migration)
    return Validation(log, result.state, result.applied, None, None, overrides, migration)
