"""Phase C: dice are retrieved location by location, left to right.

Castle dice take favor tiles; city dice buy a character card from the row
beside their city, paying the die's value in the card's resource. Any die may
take the alternative action instead (up to the catalog's coins and guards). A die
token whose turn comes discards the row's card of highest influence (the
leftmost on a tie). When a location is done, its remaining cards are
discarded.
"""

from __future__ import annotations

from coimbra_events.catalog import CharacterCard
from coimbra_events.events import AlternativeTaken, CardBought, FavorTileTaken, GameEvent
from coimbra_events.rules import effects
from coimbra_events.rules.tx import Tx
from coimbra_events.state import CASTLE, CITIES, LOCATIONS, PHASE_D, GameState, Pending
from coimbra_events.violations import RuleViolation


def _retrieve_die(tx: Tx, i: int, die: str) -> None:
    """The activated die goes back to its owner's shutter spaces; the next die is up."""
    p = tx.pl(i)
    p.shutter = p.shutter + (die,)
    loc, k = tx.g.cursor
    tx.g.cursor = (loc, k + 1)


def check_tile(state: GameState, e: FavorTileTaken) -> RuleViolation | None:
    pending = state.pending
    assert pending is not None  # check() runs this only for the input due
    if pending.location != CASTLE:
        return RuleViolation("C.location", f"a die in the {pending.location} city buys a card; favor tiles are taken from the castle",
                             {"location": pending.location, "die": pending.die})
    if e.tile not in state.favor_available:
        return RuleViolation("C.tile", f"favor tile {e.tile!r} is not beside the castle",
                             {"tile": e.tile, "available": state.favor_available})
    return None


def apply_tile(tx: Tx, e: FavorTileTaken) -> None:
    i = tx.index(e.actor)
    tile = tx.catalog.favor_tiles[e.tile]
    tx.g.favor_available = tuple(t for t in tx.g.favor_available if t != e.tile)
    p = tx.pl(i)
    p.favor_tiles = p.favor_tiles + (e.tile,)
    p.crowns_total = p.crowns_total + tile.crowns
    effects.run(tx, i, tile.effects, e.tile)
    _retrieve_die(tx, i, tx.answered().die)


def card_price(state: GameState, pending: Pending) -> int:
    """A card costs the value of the die that buys it."""
    return state.die_value(pending.die)


def check_card(state: GameState, e: CardBought) -> RuleViolation | None:
    pending = state.pending
    assert pending is not None  # check() runs this only for the input due
    if pending.location == CASTLE:
        return RuleViolation("C.location", "a die in the castle takes a favor tile; cards are bought in the cities",
                             {"location": pending.location, "die": pending.die})
    row = state.rows[CITIES.index(pending.location)]
    if e.card not in row:
        return RuleViolation("C.card", f"card {e.card!r} is not in the row beside the {pending.location} city",
                             {"card": e.card, "row": row})
    card = state.catalog.characters[e.card]
    price = card_price(state, pending)
    have = getattr(state.player(e.actor), card.cost)
    if have < price:
        return RuleViolation("C.cost", f"{e.card} costs {price} {card.cost} (the die's value) but {e.actor} has {have}",
                             {"card": e.card, "price": price, "resource": card.cost, "have": have, "die": pending.die})
    return None


def apply_card(tx: Tx, e: CardBought) -> None:
    i = tx.index(e.actor)
    cat = tx.catalog
    card = cat.characters[e.card]
    pending = tx.answered()
    tx.pay(i, card.cost, tx.die_value(pending.die))
    k = CITIES.index(pending.location)
    rows = tx.g.rows
    tx.g.rows = rows[:k] + (tuple(c for c in rows[k] if c != e.card),) + rows[k + 1 :]
    p = tx.pl(i)
    p.cards = p.cards + (e.card,)
    tx.advance(i, card.category, card.influence, e.card)
    if card.timing == "immediate":
        effects.run(tx, i, card.effects, e.card)
    for start_card in p.start_cards:
        effects.on_acquire(tx, i, start_card, cat.characters[start_card].effects, card)
    crowns = tx.g.crowns_on_cards
    if any(c == e.card for c, _ in crowns):
        tx.g.crowns_on_cards = tuple((c, cat_) for c, cat_ in crowns if c != e.card)
        p.crown_tokens = p.crown_tokens + (card.category,)
        p.crowns_total = p.crowns_total + cat.crown_token_crowns
    _retrieve_die(tx, i, pending.die)


def check_alternative(state: GameState, e: AlternativeTaken) -> RuleViolation | None:
    cat = state.catalog
    if not (0 <= e.coins <= cat.alternative_coins and 0 <= e.guards <= cat.alternative_guards):
        return RuleViolation("C.alternative",
                             f"the alternative action gains up to {cat.alternative_coins} coins and up to {cat.alternative_guards} guards",
                             {"coins": e.coins, "guards": e.guards})
    return None


def apply_alternative(tx: Tx, e: AlternativeTaken) -> None:
    i = tx.index(e.actor)
    tx.gain(i, "coins", e.coins, "alternative")
    tx.gain(i, "guards", e.guards, "alternative")
    _retrieve_die(tx, i, tx.answered().die)


def legal_retrieve(state: GameState, pending: Pending) -> list[GameEvent]:
    cat = state.catalog
    who = pending.actor
    out: list[GameEvent] = []
    if pending.location == CASTLE:
        out += [FavorTileTaken(who, t) for t in state.favor_available]
    else:
        price = card_price(state, pending)
        pl = state.player(who)
        row = state.rows[CITIES.index(pending.location)]
        out += [CardBought(who, c) for c in row if getattr(pl, cat.characters[c].cost) >= price]
    out += [AlternativeTaken(who, c, g) for c in range(cat.alternative_coins + 1) for g in range(cat.alternative_guards + 1)]
    return out


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
    rows = tx.g.rows
    tx.g.rows = rows[:city] + (tuple(c for c in rows[city] if c not in cards),) + rows[city + 1 :]
    tx.g.discard = tx.g.discard + cards
    tx.g.crowns_on_cards = tuple(cc for cc in tx.g.crowns_on_cards if cc[0] not in cards)


def auto_c(tx: Tx) -> Pending | None:
    """Phase C: activate the next die of the current location, or close the location."""
    loc, k = tx.g.cursor
    if loc == len(LOCATIONS):
        tx.g.phase = PHASE_D
        tx.g.cursor = ()
        return None
    row = tx.g.locations[loc]
    if k < len(row):
        slot = row[k]
        if not slot.is_token:
            return Pending(tx.name(slot.owner), "retrieve", location=LOCATIONS[loc], die=slot.die)
        city = loc - 1
        removed = token_discard(tx.g.rows[city], tx.catalog.characters)
        if removed:
            _discard(tx, city, (removed,))
        tx.g.cursor = (loc, k + 1)
        return None
    if loc > 0:
        _discard(tx, loc - 1, tx.g.rows[loc - 1])
    locations = tx.g.locations
    tx.g.locations = locations[:loc] + (tuple(s for s in row if s.is_token),) + locations[loc + 1 :]
    tx.g.cursor = (loc + 1, 0)
    return None
