"""Phase C: dice are retrieved location by location, left to right.

Castle dice take favor tiles; city dice buy a character card from the row
beside their city, paying the die's value in the card's resource. Any die may
take the alternative action instead (up to the catalog's coins and guards). A die
token whose turn comes discards the row's card of highest influence (the
leftmost on a tie). When a location is done, its remaining cards are
discarded.
"""

from __future__ import annotations

from typing import Any

from coimbra_events.catalog import CharacterCard
from coimbra_events.events import AlternativeTaken, CardBought, FavorTileTaken, GameEvent
from coimbra_events.rules import effects
from coimbra_events.rules.narration import (
    CARD,
    CARDS,
    CASTLE_TILES,
    CROWN_TOKEN,
    DIE,
    AT_LOCATION,
    DIE_TOKEN,
    DISCARD,
    FACE_DOWN,
    FACE_UP,
    FAVOR_TILE,
    HELD_TILES,
    HELD_TOKENS,
    ON_CARD,
    ROWS,
    SHUTTER,
    SUPPLY,
    TABLE_WHO,
)
from coimbra_events.rules.options import Options, Run
from coimbra_events.rules.tx import Tx, replaced
from coimbra_events.state import CASTLE, CITIES, CITY_INDEX, LOCATIONS, PHASE_D, GameState, Pending
from coimbra_events.violations import RuleViolation, Seen, held


def _retrieve_die(tx: Tx, i: int, die: str) -> None:
    """The activated die goes back to its owner's shutter spaces; the next die is up."""
    p = tx.pl(i)
    p.shutter = p.shutter + (die,)
    loc, k = tx.g.cursor
    if tx.narrating:
        tx.because("C.retrieve")  # the change names the location
        tx.tell(i, DIE, die, AT_LOCATION[LOCATIONS[loc]], SHUTTER)
    tx.g.cursor = (loc, k + 1)


def _location(state: GameState, pending: Pending, broken: bool, reason: str, seen: Seen | None) -> RuleViolation | None:
    """C.location: the retrieved die's location decides what it does (``broken`` when it cannot do this)."""
    facts: dict[str, Any] = {"location": pending.location, "die": pending.die, "value": state.die_value(pending.die)}
    if broken:
        return RuleViolation("C.location", reason, facts)
    held(seen, "C.location", facts)
    return None


def check_tile(state: GameState, e: FavorTileTaken, seen: Seen | None = None) -> RuleViolation | None:
    pending = state.pending
    assert pending is not None  # check() runs this only for the input due
    if (broken := pending.location != CASTLE) or seen is not None:
        violation = _location(state, pending, broken, f"a die in the {pending.location} city buys a card; "
                              "favor tiles are taken from the castle", seen)
        if violation:
            return violation
    if (broken := e.tile not in state.favor_available) or seen is not None:
        facts: dict[str, Any] = {"tile": e.tile, "available": state.favor_available}
        if broken:
            return RuleViolation("C.tile", f"favor tile {e.tile!r} is not beside the castle", facts)
        held(seen, "C.tile", facts)
    return None


def apply_tile(tx: Tx, e: FavorTileTaken) -> None:
    i = tx.index(e.actor)
    tile = tx.catalog.favor_tiles[e.tile]
    tx.g.favor_available = tuple(t for t in tx.g.favor_available if t != e.tile)
    p = tx.pl(i)
    p.favor_tiles = p.favor_tiles + (e.tile,)
    p.crowns_total = p.crowns_total + tile.crowns
    if tx.narrating:
        tx.because("C.tile", ("tile", e.tile, "crowns", tile.crowns, "die", tx.answered().die))
        tx.tell(i, FAVOR_TILE, e.tile, CASTLE_TILES, HELD_TILES)
        tx.because("C.tile-bonus", ("tile", e.tile))
    effects.run(tx, i, tile.effects, e.tile)
    _retrieve_die(tx, i, tx.answered().die)


def card_price(state: GameState, pending: Pending) -> int:
    """A card costs the value of the die that buys it."""
    return state.die_value(pending.die)


def check_card(state: GameState, e: CardBought, seen: Seen | None = None) -> RuleViolation | None:
    pending = state.pending
    assert pending is not None  # check() runs this only for the input due
    if (broken := pending.location == CASTLE) or seen is not None:
        violation = _location(state, pending, broken, "a die in the castle takes a favor tile; cards are bought in the cities",
                              seen)
        if violation:
            return violation
    row = state.rows[CITY_INDEX[pending.location]]
    if (broken := e.card not in row) or seen is not None:
        facts: dict[str, Any] = {"card": e.card, "row": row}
        if broken:
            return RuleViolation("C.card", f"card {e.card!r} is not in the row beside the {pending.location} city", facts)
        held(seen, "C.card", facts)
    card = state.catalog.characters[e.card]
    price = card_price(state, pending)
    have = state.player(e.actor).holding(card.cost)
    if (broken := have < price) or seen is not None:
        facts = {"card": e.card, "price": price, "resource": card.cost, "have": have, "die": pending.die}
        if broken:
            return RuleViolation("C.cost", f"{e.card} costs {price} {card.cost} (the die's value) but {e.actor} has {have}",
                                 facts)
        held(seen, "C.cost", facts)
    return None


def apply_card(tx: Tx, e: CardBought) -> None:
    i = tx.index(e.actor)
    cat = tx.catalog
    card = cat.characters[e.card]
    pending = tx.answered()
    price = tx.die_value(pending.die)
    if tx.narrating:
        tx.because("C.cost", ("card", e.card, "die", pending.die, "price", price, "resource", card.cost))
    tx.pay(i, card.cost, price)
    k = CITY_INDEX[pending.location]
    rows = tx.g.rows
    tx.g.rows = replaced(rows, k, tuple([c for c in rows[k] if c != e.card]))
    p = tx.pl(i)
    p.cards = p.cards + (e.card,)
    if tx.narrating:
        facts: tuple[object, ...] = ("card", e.card, "bonus", card.timing, "influence", card.influence)
        tx.because("C.card", facts)
        tx.tell(i, CARD, e.card, ROWS[pending.location], CARDS)
        tx.because("C.influence", facts)  # the card's own facts: the change names the track
    tx.advance(i, card.category, card.influence, e.card)
    if card.timing == "immediate":
        if tx.narrating:
            tx.because("C.card-bonus", ("card", e.card))
        effects.run(tx, i, card.effects, e.card)
    for start_card in p.start_cards:
        effects.on_acquire(tx, i, start_card, cat.characters[start_card].effects, card)
    crowns = tx.g.crowns_on_cards
    if any(c == e.card for c, _ in crowns):
        tx.g.crowns_on_cards = tuple((c, cat_) for c, cat_ in crowns if c != e.card)
        p.crown_tokens = p.crown_tokens + (card.category,)
        p.crowns_total = p.crowns_total + cat.crown_token_crowns
        if tx.narrating:
            tx.because("C.crown-token", ("card", e.card, "category", card.category, "crowns", cat.crown_token_crowns))
            tx.tell(i, CROWN_TOKEN, card.category, ON_CARD + e.card, HELD_TOKENS)
    _retrieve_die(tx, i, pending.die)


def check_alternative(state: GameState, e: AlternativeTaken, seen: Seen | None = None) -> RuleViolation | None:
    cat = state.catalog
    if (broken := not (0 <= e.coins <= cat.alternative_coins and 0 <= e.guards <= cat.alternative_guards)) or seen is not None:
        facts: dict[str, Any] = {"coins": e.coins, "guards": e.guards}
        if broken:
            return RuleViolation("C.alternative", f"the alternative action gains up to {cat.alternative_coins} coins "
                                 f"and up to {cat.alternative_guards} guards", facts)
        held(seen, "C.alternative", {**facts, "up_to_coins": cat.alternative_coins, "up_to_guards": cat.alternative_guards})
    return None


def apply_alternative(tx: Tx, e: AlternativeTaken) -> None:
    i = tx.index(e.actor)
    if tx.narrating:
        tx.because("C.alternative", ("coins", e.coins, "guards", e.guards, "die", tx.answered().die))
    tx.gain(i, "coins", e.coins, "alternative")
    tx.gain(i, "guards", e.guards, "alternative")
    _retrieve_die(tx, i, tx.answered().die)


def legal_retrieve(state: GameState, pending: Pending) -> Options:
    cat = state.catalog
    who = pending.actor
    action: list[GameEvent]
    if pending.location == CASTLE:
        action = [FavorTileTaken(who, t) for t in state.favor_available]
    else:
        price = card_price(state, pending)
        pl = state.player(who)
        row = state.rows[CITY_INDEX[pending.location]]
        action = [CardBought(who, c) for c in row if pl.holding(cat.characters[c].cost) >= price]
    return Options(action, Alternatives(who, cat.alternative_coins, cat.alternative_guards))


class Alternatives(Run):
    """The alternative action's every split: 0 to ``coins`` coins, and with each 0 to ``guards`` guards."""

    def __init__(self, actor: str, coins: int, guards: int) -> None:
        super().__init__(AlternativeTaken, (coins + 1) * (guards + 1))
        self.actor = actor
        self.guards = guards

    def nth(self, n: int) -> GameEvent:
        return AlternativeTaken(self.actor, n // (self.guards + 1), n % (self.guards + 1))


def token_discard(row: tuple[str, ...], characters: dict[str, CharacterCard]) -> str | None:
    """The card a die token removes: highest influence, the leftmost on a tie."""
    chosen: str | None = None
    best = 0
    for c in row:
        influence = characters[c].influence
        if chosen is None or influence > best:  # strictly more: the leftmost of equals stays chosen
            chosen, best = c, influence
    return chosen


def _discard(tx: Tx, city: int, cards: tuple[str, ...]) -> None:
    """``cards`` from a city's row to the discard pile, the crown tokens on them back to the supply."""
    if not cards:
        return
    if tx.narrating:
        where = ROWS[CITIES[city]]
        for card in cards:
            tx.tell(TABLE_WHO, CARD, card, where, DISCARD)
            for crowned, category in tx.g.crowns_on_cards:
                if crowned == card:
                    tx.tell(TABLE_WHO, CROWN_TOKEN, category, ON_CARD + card, SUPPLY)
    rows = tx.g.rows
    row = rows[city]
    tx.g.rows = replaced(rows, city, () if cards is row else tuple([c for c in row if c not in cards]))
    tx.g.discard = tx.g.discard + cards
    crowns = tx.g.crowns_on_cards
    if any(crowned in cards for crowned, _ in crowns):
        tx.g.crowns_on_cards = tuple([cc for cc in crowns if cc[0] not in cards])


def _token_facts(tx: Tx, token: str, city: int, removed: str | None) -> tuple[object, ...]:
    """What decided a die token's discard: every card's influence, the highest, and the leftmost of those tied."""
    characters = tx.catalog.characters
    influence: dict[str, int] = {}
    highest = 0
    for c in tx.g.rows[city]:
        value = characters[c].influence
        influence[c] = value
        highest = max(highest, value)
    tied = tuple([c for c, value in influence.items() if value == highest])
    return ("token", token, "city", CITIES[city], "influence", influence, "highest", highest, "tied", tied,
            "discarded", removed, "leftmost_of_tie", len(tied) > 1)


def auto_c(tx: Tx) -> Pending | None:
    """Phase C: activate the next die of the current location, or close the location."""
    loc, k = tx.g.cursor
    if loc == len(LOCATIONS):
        tx.to_phase(PHASE_D)
        tx.g.cursor = ()
        return None
    row = tx.g.locations[loc]
    if k < len(row):
        slot = row[k]
        if not slot.is_token:
            return Pending(tx.name(slot.owner), "retrieve", location=LOCATIONS[loc], die=slot.die)
        city = loc - 1
        removed = token_discard(tx.g.rows[city], tx.catalog.characters)
        if tx.narrating:
            tx.because("C.token-discard", _token_facts(tx, slot.die, city, removed))
            tx.tell(TABLE_WHO, DIE_TOKEN, slot.die, FACE_UP, FACE_DOWN)
        if removed:
            _discard(tx, city, (removed,))
        tx.g.cursor = (loc, k + 1)
        return None
    if tx.narrating:
        tx.because("C.location-end", ("location", LOCATIONS[loc]))
    if loc > 0:
        _discard(tx, loc - 1, tx.g.rows[loc - 1])
        if tx.narrating:
            for s in row:
                if s.is_token:
                    tx.tell(TABLE_WHO, DIE_TOKEN, s.die, FACE_DOWN, FACE_UP)
    locations = tx.g.locations
    tx.g.locations = replaced(locations, loc, tuple([s for s in row if s.is_token]))
    tx.g.cursor = (loc + 1, 0)
    return None
