"""The facts of the audit trail: for each rule ``check`` covers, the values it reads from the table.

``core.RULES_CHECKED`` says which rules were checked for an event, in order;
``FACTS`` reads, for each of them, the values that rule looks at on the table
just before the event, with the rules modules' own accessors (nothing here
decides legality). ``tests/test_explain.py`` keeps ``FACTS`` covering every
rule id ``RULES_CHECKED`` cites.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from coimbra_events.effect_kinds import TRACKS
from coimbra_events.events import GameEvent
from coimbra_events.rules import effects
from coimbra_events.rules.core import ACCEPTS, RULES_CHECKED
from coimbra_events.rules.dice import insert_position
from coimbra_events.rules.income import die_color, income
from coimbra_events.rules.outcomes import deck_size
from coimbra_events.rules.retrieval import card_price
from coimbra_events.rules.setup import free_groups, free_start_spaces
from coimbra_events.rules.voyages import voyage_cost
from coimbra_events.state import CITIES, LOCATIONS, GameState
from coimbra_events.violations import RULES
from projections.audit import Step

Facts = Callable[[GameState, Any], dict[str, Any]]


def _retrieved_die(s: GameState, e: GameEvent) -> dict[str, Any]:
    p = s.pending
    return {"die": p.die, "value": s.die_value(p.die), "location": p.location}


def _placed_die(s: GameState, e: Any) -> dict[str, Any]:
    return {"die": e.die, "value": s.die_value(e.die), "dice_area": {d: v for d, v in s.dice if d in s.pool}}


def _location(s: GameState, e: Any) -> dict[str, Any]:
    row = s.locations[LOCATIONS.index(e.location)]
    at = insert_position(row, e.location, s.die_value(e.die))
    return {"location": e.location, "locations": list(LOCATIONS), "row": [f"{x.die}={x.value}" for x in row], "lands_at": at + 1}


def _card_row(s: GameState, e: Any) -> dict[str, Any]:
    city = s.pending.location
    return {"card": e.card, "name": s.catalog.characters[e.card].name, "city": city, "row": list(s.rows[CITIES.index(city)])}


def _card_cost(s: GameState, e: Any) -> dict[str, Any]:
    card = s.catalog.characters[e.card]
    return {"card": e.card, "die": s.pending.die, "price": card_price(s, s.pending), "resource": card.cost,
            "have": getattr(s.player(e.actor), card.cost)}


def _income_track(s: GameState, e: Any) -> dict[str, Any]:
    position = s.player(e.actor).influence_on(e.track)
    resource, amount, points = income(s.catalog, e.track, position)
    return {"die": e.die, "die_colour": die_color(s.catalog, e.die), "track": e.track, "disc_on": position,
            "pays": {"resource": resource, "amount": amount, "points": points}}


def _exchange(s: GameState, e: Any) -> dict[str, Any]:
    pl = s.player(e.actor)
    zone = effects.phase_e(s.catalog, pl.owned_cards)
    have = getattr(pl, e.give)
    rate = zone.offer_for(e.give, e.times, have)
    return {"give": e.give, "times": e.times, "have": have,
            "offers": [{"rate": r, "points": p} for r, p in zone.offers(e.give)],
            "rate_used": None if rate is None else {"rate": rate[0], "points": rate[1], "costs": rate[0] * e.times}}


def _voyage_space(s: GameState, e: Any) -> int:
    return s.voyages.index(e.voyage)


def _voyage_cost(s: GameState, e: Any) -> dict[str, Any]:
    pl, space = s.player(e.actor), _voyage_space(s, e)
    resource, cost = voyage_cost(s.catalog, pl, space)
    return {"voyage": e.voyage, "space": space + 1, "resource": resource, "printed_cost": s.catalog.voyage_spaces[space].cost,
            "discount": effects.voyage_discount(s.catalog, pl), "cost": cost, "have": getattr(pl, resource)}


FACTS: Mapping[str, Facts] = {
    "GAME.over": lambda s, e: {"round": s.round, "phase": s.phase},
    "TURN.actor": lambda s, e: {"due": s.pending.actor, "actor": e.actor},
    "TURN.kind": lambda s, e: {"kind": s.pending.kind, "accepted": [t.TYPE for t in ACCEPTS[s.pending.kind]], "event": e.TYPE},
    "SETUP.monasteries": lambda s, e: {"spaces": {p: len(sp) for p, sp in s.catalog.map.monastery_spaces.items()},
                                       "placement": dict(e.placement)},
    "SETUP.scoring-tiles": lambda s, e: {"tiles": dict(e.tiles), "catalog": list(s.catalog.scoring_tiles)},
    "SETUP.voyages": lambda s, e: {"drawn": list(e.voyages), "spaces": len(s.catalog.voyage_spaces)},
    "SETUP.seating": lambda s, e: {"order": list(e.order), "players": [p.name for p in s.players]},
    "SETUP.rows": lambda s, e: {"rows": {c: list(r) for c, r in e.rows}, "cards_per_row": s.catalog.cards_per_row,
                                "deck": deck_size(s.catalog, s.dealt)},
    "SETUP.start-groups": lambda s, e: {"groups": [list(g) for g in e.groups], "cards_per_group": s.catalog.cards_per_group,
                                        "players": len(s.players)},
    "A.dice": lambda s, e: {"pool": list(s.catalog.dice_for(len(s.players))), "rolled": dict(e.values)},
    "START.once": lambda s, e: {"player": e.actor, "done": list(s.player(e.actor).start_choices)},
    "START.group": lambda s, e: {"group": e.group, "cards": list(s.start_groups[e.group - 1]), "available": free_groups(s)},
    "START.space": lambda s, e: {"space": e.space, "free": free_start_spaces(s)},
    "CHOICE.track": lambda s, e: {"track": e.track, "tracks": list(TRACKS), "amount": s.pending.amount, "from": s.pending.source},
    "PILGRIM.adjacent": lambda s, e: {"from": s.player(e.actor).pilgrim, "to": e.to,
                                      "adjacent": list(s.catalog.map.neighbours.get(s.player(e.actor).pilgrim, ())),
                                      "monastery": s.monastery_at(e.to)},
    "B.die": _placed_die,
    "B.location": _location,
    "C.location": _retrieved_die,
    "C.tile": lambda s, e: {"tile": e.tile, "name": s.catalog.favor_tiles[e.tile].name,
                            "crowns": s.catalog.favor_tiles[e.tile].crowns, "beside_castle": list(s.favor_available)},
    "C.card": _card_row,
    "C.cost": _card_cost,
    "C.alternative": lambda s, e: {"coins": e.coins, "guards": e.guards, "up_to_coins": s.catalog.alternative_coins,
                                   "up_to_guards": s.catalog.alternative_guards},
    "E.die": lambda s, e: {"die": e.die, "income_left": list(s.player(e.actor).income_left)},
    "E.track": _income_track,
    "E.exchange": _exchange,
    "F.voyage": lambda s, e: {"voyage": e.voyage, "board": list(s.voyages)},
    "F.once": lambda s, e: {"voyage": e.voyage, "investors": list(s.voyage_discs[_voyage_space(s, e)])},
    "F.cost": _voyage_cost,
}
"""For each rule id ``RULES_CHECKED`` cites: the values it reads, from the state before the event."""


def rule_facts(rule: str, state: GameState, event: GameEvent) -> dict[str, Any]:
    """The facts a rule reads for this event; for an accepted rule break they may not all exist."""
    try:
        return FACTS[rule](state, event)
    except (LookupError, ValueError, AttributeError) as exc:
        return {"unreadable": f"{type(exc).__name__}: {exc}"}


def rules_checked(step: Step) -> list[dict[str, Any]]:
    """Each rule checked for the play: holds, or (accepted rule break) broken and the ones not reached after it.

    ``RULES_CHECKED`` lists rules in the order ``check`` tests them, and ``check``
    stops at the first broken one.
    """
    event, broken = step.play.event, step.violation
    out, reached = [], True
    for rule in RULES_CHECKED[type(event)]:
        is_broken = broken is not None and rule == broken.rule
        status = "broken" if is_broken else ("holds" if reached else "not checked")
        facts = dict(broken.facts) if is_broken else rule_facts(rule, step.before, event)
        out.append({"rule": rule, "statement": RULES[rule].statement_for(step.before.catalog), "source": RULES[rule].source,
                    "status": status, "facts": _plain(facts)})
        reached = reached and not is_broken
    return out


def _plain(value: Any) -> Any:
    """Facts as JSON values (tuples and sets become lists)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list, set, frozenset)):
        return [_plain(v) for v in value]
    return value


__all__ = ["FACTS", "rule_facts", "rules_checked"]
