"""The rulesets this engine implements, and what happens to a record made under another one.

Every log and stored game names the ruleset it was recorded under. This engine
folds records of exactly one ruleset, ``RULESET``; a record of any other is
refused by name (exit 2), unless ``MIGRATIONS`` holds a documented migration from
it: then its events are read through the migration, in memory, and the record
itself stays as it was recorded (docs/rulesets.md has the policy).

Any change to the rules core that can alter the outcome of a recorded game (a
score, a legal move, a consequence) gets a new ruleset id in
``coimbra_events/__init__.py``, and either a migration here or nothing (old
records are then refused by name): never a silent reinterpretation. The golden
corpus (``fixtures/corpus``) is how such a change is noticed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from coimbra_events import RULESET
from coimbra_events.events import GameEvent
from coimbra_events.log import GameLog, LogError, LogProblem

IMPLEMENTED: tuple[str, ...] = (RULESET,)
"""The rulesets this engine folds as they are."""


@dataclass(frozen=True)
class Migration:
    """How records of an older ruleset are read under ``RULESET``.

    ``reason`` says what changed between the two and why the records mean the
    same under the new rules (it is shown with every migrated record);
    ``convert`` rewrites one recorded event into the new ruleset's terms (the
    identity when only the name of the ruleset changed).
    """

    source: str
    reason: str
    convert: Callable[[GameEvent], GameEvent] = lambda event: event


MIGRATIONS: dict[str, Migration] = {}
"""Documented migrations, by the ruleset they read. None exists yet: every ruleset so far is ``RULESET``."""


def migration_for(ruleset: str, source: str) -> Migration | None:
    """``None`` for a record of this engine's ruleset, its migration for another; ``LogError`` if there is none."""
    if ruleset in IMPLEMENTED:
        return None
    migration = MIGRATIONS.get(ruleset)
    if migration is None:
        raise LogError(source, [LogProblem(0, "another ruleset", refusal(ruleset))])
    return migration


def refusal(ruleset: str) -> str:
    """Why a record of ``ruleset`` is not folded, naming both rulesets."""
    return (f"recorded under ruleset {ruleset!r}, but this coimbra implements {RULESET!r} and has no migration "
            "from it (docs/rulesets.md); it is not reinterpreted under other rules")


def under_current_rules(log: GameLog, source: str = "<log>") -> tuple[GameLog, Migration | None]:
    """The log as this engine folds it: itself, or its events read through a migration (with ``RULESET``)."""
    migration = migration_for(log.ruleset, source)
    if migration is None:
        return log, None
    events = tuple(migration.convert(e) for e in log.events)
    migrated = GameLog(log.catalog_id, log.catalog_sha256, log.players, events, RULESET, log.meta, log.stamps)
    return migrated, migration
