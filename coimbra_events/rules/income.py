"""Phases D and E: the new player order by crowns, then influence income.

Phase D is derived: crowns from this round's crown tokens and favor tiles plus
the crowns beside the player's current flag; most crowns first, and players
tied keep their order reversed. Phase E, in the new order: a player's start-of-
phase bonuses happen first, then each die on the shutter spaces (and the
extra-die tile) pays the income beside the disc on its track, in the order the
player chooses; exchanges can be made between activations.
"""

from __future__ import annotations

from typing import Any, Final, Sequence

from coimbra_events.catalog import Catalog
from coimbra_events.catalog.effect_kinds import SPENDABLE, TRACKS, TRACK_INDEX, TRACK_RESOURCE
from coimbra_events.events import GameEvent, IncomeActivated, IncomeEnded, PointsExchanged
from coimbra_events.rules import effects
from coimbra_events.rules.narration import DICE_AREA, DIE, LION, SHUTTER
from coimbra_events.rules.options import Options
from coimbra_events.rules.tx import PlayerDraft, Tx
from coimbra_events.state import EXTRA_DIE, PHASE_E, PHASE_F, GameState, Pending, PlayerState
from coimbra_events.violations import RuleViolation, Seen, held

WHITE: Final = "white"


# --- phase D ---------------------------------------------------------------------------------


def round_crowns(catalog: Catalog, pl: PlayerState, flag: int) -> int:
    """Crowns counted in phase D: crown tokens and favor tiles of this round, plus the flag's."""
    tiles = catalog.favor_tiles
    return (
        len(pl.crown_tokens) * catalog.crown_token_crowns
        + sum(tiles[t].crowns for t in pl.favor_tiles)
        + catalog.flag_crowns[flag]
    )


def new_order(catalog: Catalog, players: Sequence[PlayerState], order: tuple[int, ...]) -> tuple[int, ...]:
    """Most crowns first; players tied are put in the reverse of their current order."""
    ranked = [(-round_crowns(catalog, players[i], flag), -flag, i) for flag, i in enumerate(order)]
    ranked.sort()  # the flags differ, so the seats themselves are never compared
    return tuple([i for _, _, i in ranked])


def auto_d(tx: Tx) -> None:
    players = [tx.view(i) for i in range(len(tx.g.players))]
    before = tx.g.order
    tx.g.order = new_order(tx.catalog, players, before)
    if tx.narrating:
        tx.because("D.order", _order_facts(tx.catalog, players, before, tx.g.order))
        for flag, i in enumerate(tx.g.order):  # a lion that stays is told too: the new order is news either way
            tx.tell(i, LION, "", before.index(i) + 1, flag + 1)
    tx.to_phase(PHASE_E)
    tx.g.cursor = (0, 0)


def _order_facts(catalog: Catalog, players: Sequence[PlayerState], before: tuple[int, ...],
                 after: tuple[int, ...]) -> tuple[object, ...]:
    """The crowns each player counted in phase D (by where they lie), and the ties whose order was reversed."""
    tiles = catalog.favor_tiles
    counted: dict[str, object] = {}
    by_crowns: dict[int, list[str]] = {}
    for flag, i in enumerate(before):
        pl = players[i]
        total = round_crowns(catalog, pl, flag)
        tile_crowns = 0
        for t in pl.favor_tiles:
            tile_crowns += tiles[t].crowns
        counted[pl.name] = {"crown_tokens": len(pl.crown_tokens) * catalog.crown_token_crowns, "favor_tiles": tile_crowns,
                            "flag": catalog.flag_crowns[flag], "total": total}
        by_crowns.setdefault(total, []).append(pl.name)
    ties = tuple([tuple(names) for _, names in sorted(by_crowns.items(), reverse=True) if len(names) > 1])
    return ("crowns", counted, "before", tuple([players[i].name for i in before]),
            "after", tuple([players[i].name for i in after]), "ties_reversed", ties)


# --- phase E ----------------------------------------------------------------------------------


def income(catalog: Catalog, track: str, position: int) -> tuple[str, int, int]:
    """What a track pays at a disc position: (resource, amount, bonus victory points)."""
    base, bonus = catalog.income_for(track, position)
    return TRACK_RESOURCE[track], base, bonus


def tier_of(catalog: Catalog, position: int) -> tuple[int, int]:
    """The row of the income table a disc position falls in: its first and last space."""
    for tier in catalog.income:
        if tier.low <= position <= tier.high:
            return tier.low, tier.high
    return position, position


def die_color(catalog: Catalog, die: str) -> str:
    return WHITE if die == EXTRA_DIE else catalog.die_colors[die]


def _begin(tx: Tx, i: int) -> None:
    """A player's phase E starts: dice to activate, then 'at the beginning of phase E' bonuses."""
    pl = tx.view(i)
    left = pl.shutter + ((EXTRA_DIE,) if effects.has_extra_die(tx.catalog, pl) else ())
    tx.pl(i).income_left = left
    for card in pl.owned_cards:
        c = tx.catalog.characters[card]
        if c.timing == "phase_e":
            if tx.narrating:
                tx.because("E.start-bonus", ("card", card, "dice", pl.shutter))
            effects.run(tx, i, c.effects, card)


def can_exchange(catalog: Catalog, p: PlayerDraft) -> bool:
    """Whether the player could still exchange coins or guards for points."""
    zone = effects.phase_e(catalog, p.start_cards, p.cards)
    return zone.offer_for("coins", 1, p.coins) is not None or zone.offer_for("guards", 1, p.guards) is not None


def auto_e(tx: Tx) -> Pending | None:
    """Phase E: begin the next player's income, wait for their choices, then move on."""
    pos, begun = tx.g.cursor
    order = tx.g.order
    if pos == len(order):
        if tx.narrating:
            tx.because("E.end")
        for i in order:
            p = tx.pl(i)
            if tx.narrating:
                for die in p.shutter:
                    tx.tell(i, DIE, die, SHUTTER, DICE_AREA)
            p.shutter = ()
        tx.to_phase(PHASE_F)
        tx.g.cursor = (0,)
        return None
    i = order[pos]
    if not begun:
        _begin(tx, i)
        tx.g.cursor = (pos, 1)
        return None
    p = tx.pl(i)
    if p.income_left or can_exchange(tx.catalog, p):
        return tx.due(p.name, "income")
    tx.g.cursor = (pos + 1, 0)
    return None


def check_activate(state: GameState, e: IncomeActivated, seen: Seen | None = None) -> RuleViolation | None:
    pl = state.player(e.actor)
    if (broken := e.die not in pl.income_left) or seen is not None:
        facts: dict[str, Any] = {"die": e.die, "left": pl.income_left}
        if broken:
            return RuleViolation("E.die", f"{e.die!r} has no income left to collect for {e.actor}", facts)
        held(seen, "E.die", facts)
    color = die_color(state.catalog, e.die)
    if (broken := e.track not in TRACKS or (color != WHITE and e.track != color)) or seen is not None:
        facts = {"die": e.die, "color": color, "track": e.track}
        if broken:
            allowed = TRACKS if color == WHITE else (color,)
            return RuleViolation("E.track", f"{e.die} pays the income of {' or '.join(allowed)}, not {e.track!r}", facts)
        held(seen, "E.track", facts)
    return None


def apply_activate(tx: Tx, e: IncomeActivated) -> None:
    i = tx.index(e.actor)
    p = tx.pl(i)
    left = list(p.income_left)
    left.remove(e.die)
    p.income_left = tuple(left)
    position = p.influence[TRACK_INDEX[e.track]]
    resource, amount, bonus = income(tx.catalog, e.track, position)
    if tx.narrating:
        tx.because("E.income", ("die", e.die, "track", e.track, "disc_on", position, "tier", tier_of(tx.catalog, position),
                                "pays", amount, "resource", resource, "bonus_points", bonus))
    tx.gain(i, resource, amount, "income")
    tx.gain(i, "points", bonus, "income")
    color = die_color(tx.catalog, e.die)
    if color != WHITE:
        effects.on_die(tx, i, effects.phase_e(tx.catalog, p.start_cards, p.cards), color, "phase E bonus")


def check_exchange(state: GameState, e: PointsExchanged, seen: Seen | None = None) -> RuleViolation | None:
    pl = state.player(e.actor)
    zone = effects.phase_e(state.catalog, pl.start_cards, pl.cards)
    offers = zone.offers(e.give)
    if not offers:
        return RuleViolation("E.exchange", f"{e.actor} has no card that exchanges {e.give!r} for points",
                             {"give": e.give})
    have = pl.holding(e.give)
    if (broken := e.times < 1 or zone.offer_for(e.give, e.times, have) is None) or seen is not None:
        cheapest = zone.cheapest(e.give)
        facts: dict[str, Any] = {"give": e.give, "times": e.times, "rate": cheapest, "rates": [r for r, _ in offers],
                                 "have": have}
        if broken:
            return RuleViolation("E.exchange", f"exchanging {e.times} times costs at least {cheapest * max(e.times, 1)} "
                                 f"{e.give}; {e.actor} has {have}", facts)
        held(seen, "E.exchange", facts)
    return None


def apply_exchange(tx: Tx, e: PointsExchanged) -> None:
    i = tx.index(e.actor)
    p = tx.pl(i)
    offer = effects.phase_e(tx.catalog, p.start_cards, p.cards).offer_for(e.give, e.times, p.holding(e.give))
    assert offer is not None  # check_exchange has found the offer
    rate, points = offer
    if tx.narrating:
        tx.because("E.exchange", ("give", e.give, "times", e.times, "rate", rate, "points", points))
    tx.pay(i, e.give, rate * e.times)
    tx.add_points(i, points * e.times, "exchange")


def apply_end(tx: Tx, e: IncomeEnded) -> None:
    i = tx.index(e.actor)
    tx.pl(i).income_left = ()
    pos, _ = tx.g.cursor
    tx.g.cursor = (pos + 1, 0)


def legal_income(state: GameState, pending: Pending) -> Options:
    who = pending.actor
    pl = state.player(who)
    out: list[GameEvent] = []
    left = pl.income_left
    for k in range(len(left)):
        die = left[k]
        if die in left[:k]:  # two dice alike pay alike: one option each
            continue
        color = die_color(state.catalog, die)
        if color == WHITE:
            for track in TRACKS:
                out.append(IncomeActivated(who, die, track))
        else:
            out.append(IncomeActivated(who, die, color))
    zone = effects.phase_e(state.catalog, pl.start_cards, pl.cards)
    for give in SPENDABLE:
        cheapest = zone.cheapest(give)
        if cheapest:
            for times in range(1, pl.holding(give) // cheapest + 1):
                out.append(PointsExchanged(who, give, times))
    out.append(IncomeEnded(who))
    return Options(out)
