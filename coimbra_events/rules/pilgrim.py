"""The pilgrim on the pilgrimage map: steps, stops and monastery visits.

Pilgrim steps are taken one at a time (GAPS decision 7): each moves to an
adjacent space, and the player may stop early, forfeiting the rest. Entering a
monastery space the player has not marked yet gives the monastery's reward and
marks it with one of the player's discs.
"""

from __future__ import annotations

from coimbra_events.events import GameEvent, PilgrimStepped, PilgrimStopped
from coimbra_events.rules import effects
from coimbra_events.rules.narration import MONASTERY_DISC, ON, PILGRIM, SUPPLY
from coimbra_events.rules.options import Options
from coimbra_events.rules.tx import Tx
from coimbra_events.state import GameState, Pending
from coimbra_events.violations import RuleViolation, Seen, held


def check_step(state: GameState, e: PilgrimStepped, seen: Seen | None = None) -> RuleViolation | None:
    here = state.player(e.actor).pilgrim
    neighbours = state.catalog.map.neighbours.get(here or "", ())
    if (broken := e.to not in neighbours) or seen is not None:
        facts = {"from": here, "to": e.to, "adjacent": neighbours}
        if broken:
            return RuleViolation("PILGRIM.adjacent", f"{e.to!r} is not adjacent to the pilgrim's space {here!r}", facts)
        held(seen, "PILGRIM.adjacent", facts)
    return None


def apply_step(tx: Tx, e: PilgrimStepped) -> None:
    steps = tx.pop()
    i = tx.index(e.actor)
    p = tx.pl(i)
    if tx.narrating:
        tx.because("PILGRIM.adjacent", ("steps_left", steps.amount - 1, "from", steps.source))
        tx.tell(i, PILGRIM, "", p.pilgrim or "", e.to)
    p.pilgrim = e.to
    monastery = _tile_on(tx.g.monasteries, e.to)
    if monastery and monastery not in p.monasteries:
        p.monasteries = p.monasteries + (monastery,)
        m = tx.catalog.monasteries[monastery]
        if tx.narrating:
            tx.because("MONASTERY.reward", ("monastery", monastery, "space", e.to, "reward", m.timing))
            tx.tell(i, MONASTERY_DISC, monastery, SUPPLY, ON)
        if m.timing == "immediate":
            effects.run(tx, i, m.effects, monastery)
    if steps.amount > 1:
        tx.push(Pending(steps.actor, "steps", steps.amount - 1, steps.source))


def _tile_on(monasteries: tuple[tuple[str, str], ...], space: str) -> str | None:
    """The monastery tile drawn onto a map space, if it is a monastery space (read per step,
    so the pairs are searched rather than made into a dict)."""
    for on, tile in monasteries:
        if on == space:
            return tile
    return None


def apply_stop(tx: Tx, e: PilgrimStopped) -> None:
    tx.pop()


def legal_steps(state: GameState, pending: Pending) -> Options:
    here = state.player(pending.actor).pilgrim
    moves: list[GameEvent] = [PilgrimStepped(pending.actor, s) for s in state.catalog.map.neighbours.get(here or "", ())]
    moves.append(PilgrimStopped(pending.actor))
    return Options(moves)
