"""Phase F, voyages, and the end of the round.

In player order each player may invest in one voyage card that does not hold
their disc yet, paying the cost of its space in the space's resource (less the
discount of a favor tile held, never below 0). After phase F the round
ends: the game is over if the character deck is empty, otherwise favor tiles go
back beside the castle and the table deals new rows.
"""

from __future__ import annotations

from typing import Any

from coimbra_events.catalog import Catalog
from coimbra_events.events import GameEvent, VoyageInvested, VoyagePassed
from coimbra_events.rules import effects
from coimbra_events.rules.narration import (
    CASTLE_TILES,
    CROWN_TOKEN,
    FAVOR_TILE,
    HELD_TILES,
    HELD_TOKENS,
    ON,
    ON_CARD,
    SUPPLY,
    TABLE_WHO,
    VOYAGE_DISC,
)
from coimbra_events.rules.outcomes import deck_size
from coimbra_events.rules.options import Options
from coimbra_events.rules.tx import Tx, replaced
from coimbra_events.state import GAME_OVER, PHASE_A, GameState, Pending, PlayerState
from coimbra_events.violations import RuleViolation, Seen, held


def voyage_cost(catalog: Catalog, pl: PlayerState, space: int, discount: int | None = None) -> tuple[str, int]:
    """What investing in the voyage on ``space`` costs this player now: (resource, amount). ``discount``: the
    player's voyage discount, when the caller has it already (``legal_voyage`` prices every space)."""
    vs = catalog.voyage_spaces[space]
    return vs.resource, max(0, vs.cost - (effects.voyage_discount(catalog, pl) if discount is None else discount))


def check_invest(state: GameState, e: VoyageInvested, seen: Seen | None = None) -> RuleViolation | None:
    if (broken := e.voyage not in state.voyages) or seen is not None:
        facts: dict[str, Any] = {"voyage": e.voyage, "board": state.voyages}
        if broken:
            return RuleViolation("F.voyage", f"voyage {e.voyage!r} is not on the board", facts)
        held(seen, "F.voyage", facts)
    space = state.voyages.index(e.voyage)
    if (broken := e.actor in state.voyage_discs[space]) or seen is not None:
        facts = {"voyage": e.voyage, "investors": state.voyage_discs[space]}
        if broken:
            return RuleViolation("F.once", f"{e.actor} has already invested in voyage {e.voyage}", facts)
        held(seen, "F.once", facts)
    pl = state.player(e.actor)
    resource, cost = voyage_cost(state.catalog, pl, space)
    have = pl.holding(resource)
    if (broken := have < cost) or seen is not None:
        facts = {"voyage": e.voyage, "space": space + 1, "cost": cost, "resource": resource, "have": have,
                 "discount": effects.voyage_discount(state.catalog, pl)}
        if broken:
            return RuleViolation("F.cost", f"voyage {e.voyage} costs {cost} {resource}; {e.actor} has {have}", facts)
        held(seen, "F.cost", facts)
    return None


def apply_invest(tx: Tx, e: VoyageInvested) -> None:
    space = tx.g.voyages.index(e.voyage)
    i = tx.index(e.actor)
    resource, cost = voyage_cost(tx.catalog, tx.view(i), space)
    if tx.narrating:
        tx.because("F.cost", _cost_facts(tx, i, e.voyage, space, resource, cost))
    tx.pay(i, resource, cost)
    discs = tx.g.voyage_discs
    tx.g.voyage_discs = replaced(discs, space, discs[space] + (e.actor,))
    p = tx.pl(i)
    p.voyages = p.voyages + (e.voyage,)
    if tx.narrating:
        tx.because("F.voyage", ("voyage", e.voyage, "space", space + 1, "investors_before", discs[space]))
        tx.tell(i, VOYAGE_DISC, e.voyage, SUPPLY, ON)
    _next_player(tx)


def _cost_facts(tx: Tx, i: int, voyage: str, space: int, resource: str, cost: int) -> tuple[object, ...]:
    """A voyage's price: its space's cost, less the discount of each favor tile held that gives one."""
    tiles = tx.catalog.favor_tiles
    discounts = {t: sum(e.params["amount"] for e in tiles[t].effects if e.kind == "voyage_discount")
                 for t in tx.view(i).favor_tiles}
    return ("voyage", voyage, "space", space + 1, "resource", resource, "space_cost", tx.catalog.voyage_spaces[space].cost,
            "discounts", {t: d for t, d in discounts.items() if d}, "cost", cost)


def apply_pass(tx: Tx, e: VoyagePassed) -> None:
    _next_player(tx)


def _next_player(tx: Tx) -> None:
    tx.g.cursor = (tx.g.cursor[0] + 1,)


def legal_voyage(state: GameState, pending: Pending) -> Options:
    pl = state.player(pending.actor)
    out: list[GameEvent] = []
    discount = effects.voyage_discount(state.catalog, pl)
    for space, voyage in enumerate(state.voyages):
        resource, cost = voyage_cost(state.catalog, pl, space, discount)
        if pending.actor not in state.voyage_discs[space] and pl.holding(resource) >= cost:
            out.append(VoyageInvested(pending.actor, voyage))
    out.append(VoyagePassed(pending.actor))
    return Options(out)


def auto_f(tx: Tx) -> Pending | None:
    """Phase F: each player in order invests or passes; then the round ends."""
    pos = tx.g.cursor[0]
    order = tx.g.order
    if pos < len(order):
        return tx.due(tx.name(order[pos]), "voyage")
    _end_round(tx)
    return None


def _end_round(tx: Tx) -> None:
    """Favor tiles return; the game ends when the character deck is empty (GAPS 17)."""
    deck = deck_size(tx.catalog, tx.g.dealt)
    if tx.narrating:
        tx.because("ROUND.end", ("round", tx.g.round, "deck", deck, "cards_per_round", 3 * tx.catalog.cards_per_row))
        _tell_returns(tx)
    for i in range(len(tx.g.players)):
        p = tx.pl(i)
        p.favor_tiles = ()
        p.crown_tokens = ()
    tx.g.favor_available = tuple(tx.catalog.favor_tiles)
    tx.g.crowns_on_cards = ()
    if deck < 3 * tx.catalog.cards_per_row:
        tx.to_phase(GAME_OVER)
        tx.g.cursor = ()
        return
    tx.to_round(tx.g.round + 1, "ROUND.end")
    tx.to_phase(PHASE_A)
    tx.g.cursor = (0,)


def _tell_returns(tx: Tx) -> None:
    """Narrate what goes back at the end of a round: favor tiles beside the castle, crown tokens to their stock."""
    for i in range(len(tx.g.players)):
        p = tx.view(i)
        for tile in p.favor_tiles:
            tx.tell(i, FAVOR_TILE, tile, HELD_TILES, CASTLE_TILES)
        for category in p.crown_tokens:
            tx.tell(i, CROWN_TOKEN, category, HELD_TOKENS, SUPPLY)
    for card, category in tx.g.crowns_on_cards:
        tx.tell(TABLE_WHO, CROWN_TOKEN, category, ON_CARD + card, SUPPLY)
