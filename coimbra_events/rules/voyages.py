"""Phase F, voyages, and the end of the round.

In player order each player may invest in one voyage card that does not hold
their disc yet, paying the cost of its space in the space's resource (less the
discount of a favor tile held, never below 0). After phase F the round
ends: the game is over if the character deck is empty, otherwise favor tiles go
back beside the castle and the table deals new rows.
"""

from __future__ import annotations

from coimbra_events.catalog import Catalog
from coimbra_events.events import GameEvent, VoyageInvested, VoyagePassed
from coimbra_events.rules import effects
from coimbra_events.rules.outcomes import deck_size
from coimbra_events.rules.tx import Tx
from coimbra_events.state import GAME_OVER, PHASE_A, GameState, Pending, PlayerState
from coimbra_events.violations import RuleViolation


def voyage_cost(catalog: Catalog, pl: PlayerState, space: int) -> tuple[str, int]:
    """What investing in the voyage on ``space`` costs this player now: (resource, amount)."""
    vs = catalog.voyage_spaces[space]
    return vs.resource, max(0, vs.cost - effects.voyage_discount(catalog, pl))


def check_invest(state: GameState, e: VoyageInvested) -> RuleViolation | None:
    if e.voyage not in state.voyages:
        return RuleViolation("F.voyage", f"voyage {e.voyage!r} is not on the board",
                             {"voyage": e.voyage, "board": state.voyages})
    space = state.voyages.index(e.voyage)
    if e.actor in state.voyage_discs[space]:
        return RuleViolation("F.once", f"{e.actor} has already invested in voyage {e.voyage}",
                             {"voyage": e.voyage, "investors": state.voyage_discs[space]})
    pl = state.player(e.actor)
    resource, cost = voyage_cost(state.catalog, pl, space)
    have = getattr(pl, resource)
    if have < cost:
        return RuleViolation("F.cost", f"voyage {e.voyage} costs {cost} {resource}; {e.actor} has {have}",
                             {"voyage": e.voyage, "space": space + 1, "cost": cost, "resource": resource, "have": have})
    return None


def apply_invest(tx: Tx, e: VoyageInvested) -> None:
    space = tx.g.voyages.index(e.voyage)
    i = tx.index(e.actor)
    resource, cost = voyage_cost(tx.catalog, tx.view(i), space)
    tx.pay(i, resource, cost)
    discs = tx.g.voyage_discs
    tx.g.voyage_discs = discs[:space] + (discs[space] + (e.actor,),) + discs[space + 1 :]
    p = tx.pl(i)
    p.voyages = p.voyages + (e.voyage,)
    _next_player(tx)


def apply_pass(tx: Tx, e: VoyagePassed) -> None:
    _next_player(tx)


def _next_player(tx: Tx) -> None:
    tx.g.cursor = (tx.g.cursor[0] + 1,)


def legal_voyage(state: GameState, pending: Pending) -> list[GameEvent]:
    pl = state.player(pending.actor)
    out: list[GameEvent] = []
    for space, voyage in enumerate(state.voyages):
        resource, cost = voyage_cost(state.catalog, pl, space)
        if pending.actor not in state.voyage_discs[space] and getattr(pl, resource) >= cost:
            out.append(VoyageInvested(pending.actor, voyage))
    return out + [VoyagePassed(pending.actor)]


def auto_f(tx: Tx) -> Pending | None:
    """Phase F: each player in order invests or passes; then the round ends."""
    pos = tx.g.cursor[0]
    order = tx.g.order
    if pos < len(order):
        return Pending(tx.name(order[pos]), "voyage")
    _end_round(tx)
    return None


def _end_round(tx: Tx) -> None:
    """Favor tiles return; the game ends when the character deck is empty (GAPS 17)."""
    for i in range(len(tx.g.players)):
        p = tx.pl(i)
        p.favor_tiles = ()
        p.crown_tokens = ()
    tx.g.favor_available = tuple(tx.catalog.favor_tiles)
    tx.g.crowns_on_cards = ()
    if deck_size(tx.catalog, tx.g.dealt) < 3 * tx.catalog.cards_per_row:
        tx.g.phase = GAME_OVER
        tx.g.cursor = ()
        return
    tx.g.round += 1
    tx.g.phase = PHASE_A
    tx.g.cursor = (0,)
