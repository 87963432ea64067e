"""Phases A and B: the dice pool is rolled, then drafted and placed.

The castle row runs ascending (a die goes right of every die of lower or equal
value); the three city rows run descending (right of every die of higher or
equal value). Die tokens sit in the city rows as neutral dice. Where a die
lands is a consequence of its value, not a choice, so ``DiePlaced`` names only
the die and the location.
"""

from __future__ import annotations

from typing import Any, Mapping

from coimbra_events.catalog import DICE_PER_PLAYER
from coimbra_events.events import DiceRolled, DiePlaced, GameEvent
from coimbra_events.rules.narration import AT_LOCATION, DICE_AREA, DIE, ROLL, TABLE_WHO
from coimbra_events.rules.options import Options, Run
from coimbra_events.rules.tx import Tx, replaced
from coimbra_events.state import CASTLE, LOCATIONS, LOCATION_INDEX, PHASE_B, PHASE_C, TABLE, GameState, Pending, Slot
from coimbra_events.violations import RuleViolation, Seen, held


def insert_position(row: tuple[Slot, ...], location: str, value: int) -> int:
    """Where a die of ``value`` goes in a location's row.

    Castle: right of every die with a value less than or equal, left of every
    greater one. Cities: right of every die with a value greater than or equal,
    left of every smaller one (rules text 000/002, phase B).
    """
    if location == CASTLE:
        return next((k for k, s in enumerate(row) if s.value > value), len(row))
    return next((k for k, s in enumerate(row) if s.value < value), len(row))


def token_slots(values_by_city: Mapping[str, tuple[int, ...]]) -> tuple[tuple[Slot, ...], ...]:
    """The four location rows at the start of the game: die tokens in the cities."""
    rows = []
    for location in LOCATIONS:
        row: tuple[Slot, ...] = ()
        for k, value in enumerate(values_by_city.get(location, ())):
            slot = Slot(f"token-{location}-{k + 1}", value, -1)
            at = insert_position(row, location, value)
            row = row[:at] + (slot,) + row[at:]
        rows.append(row)
    return tuple(rows)


def apply_dice(tx: Tx, e: DiceRolled) -> None:
    """Phase A: the rolled pool becomes this round's dice area."""
    if tx.narrating:
        tx.because("A.dice")
        for die, value in e.values:
            tx.tell(TABLE_WHO, ROLL, die, _shown(tx.g.dice, die), value)
    tx.g.dice = e.values
    tx.g.pool = tuple(d for d, _ in e.values)
    tx.to_phase(PHASE_B)
    tx.g.cursor = (0,)


def _shown(dice: tuple[tuple[str, int], ...], die: str) -> int:
    """The value a die shows from its last roll (0: not rolled yet)."""
    for d, value in dice:
        if d == die:
            return value
    return 0


def check_place(state: GameState, e: DiePlaced, seen: Seen | None = None) -> RuleViolation | None:
    if (broken := e.die not in state.pool) or seen is not None:
        facts: dict[str, Any] = {"die": e.die, "dice_area": state.pool}
        if broken:
            return RuleViolation("B.die", f"die {e.die!r} is not in the dice area", facts)
        held(seen, "B.die", facts)
    if (broken := e.location not in LOCATIONS) or seen is not None:
        facts = {"location": e.location, "locations": LOCATIONS}
        if broken:
            return RuleViolation("B.location", f"{e.location!r} is not a location", facts)
        held(seen, "B.location", facts)
    return None


def apply_place(tx: Tx, e: DiePlaced) -> None:
    i = tx.index(e.actor)
    value = tx.die_value(e.die)
    k = LOCATION_INDEX[e.location]
    locations = tx.g.locations
    row = locations[k]
    at = insert_position(row, e.location, value)
    if tx.narrating:
        tx.because("B.position", ("value", value, "row", tuple([s.value for s in row]), "position", at + 1))
        tx.tell(i, DIE, e.die, DICE_AREA, AT_LOCATION[e.location], at=at)
    row = row[:at] + (Slot(e.die, value, i),) + row[at:]
    tx.g.locations = replaced(locations, k, row)
    tx.g.pool = tuple(d for d in tx.g.pool if d != e.die)
    tx.g.cursor = (tx.g.cursor[0] + 1,)


def legal_place(state: GameState, pending: Pending) -> Options:
    return Options([], Placements(pending.actor, state.pool))


class Placements(Run):
    """Every die of the pool at every location, die by die, each built when asked for."""

    def __init__(self, actor: str, pool: tuple[str, ...]) -> None:
        super().__init__(DiePlaced, len(pool) * len(LOCATIONS))
        self.actor = actor
        self.pool = pool

    def nth(self, n: int) -> GameEvent:
        return DiePlaced(self.actor, self.pool[n // len(LOCATIONS)], LOCATIONS[n % len(LOCATIONS)])


def auto_a(tx: Tx) -> Pending:
    """Phase A waits for the table: new character rows (after round 1), then the roll."""
    return tx.due(TABLE, "dice" if tx.g.rows and any(tx.g.rows) else "rows")


def auto_b(tx: Tx) -> Pending | None:
    """Phase B: players place in turn until each has placed three dice."""
    turn = tx.g.cursor[0]
    order = tx.g.order
    if turn < DICE_PER_PLAYER * len(order):
        return tx.due(tx.name(order[turn % len(order)]), "draft")
    tx.to_phase(PHASE_C)
    tx.g.cursor = (0, 0)
    return None
