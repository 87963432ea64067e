"""Invariants every reachable game state must keep, used by the property tests."""

from __future__ import annotations

from collections import Counter

from coimbra_events.state import PHASE_C, PHASE_E, GameState

def card_places(state: GameState) -> Counter:
    """How many times each character card appears anywhere on or off the table."""
    places: Counter = Counter()
    places.update(c for row in state.rows for c in row)
    places.update(state.discard)
    for k, group in enumerate(state.start_groups):
        if not state.start_groups_taken[k]:
            places.update(group)
    for p in state.players:
        places.update(p.owned_cards)
    return places


def check_invariants(state: GameState) -> None:
    """Assert resources, tracks, dice, cards and discs are all where the rules allow."""
    cat = state.catalog
    for p in state.players:
        assert 0 <= p.coins <= cat.max_coins, (p.name, "coins", p.coins)
        assert 0 <= p.guards <= cat.max_guards, (p.name, "guards", p.guards)
        assert all(0 <= v <= cat.max_influence for v in p.influence), (p.name, p.influence)
        assert p.points == sum(v for _, v in p.points_by_source) >= 0
        assert len(set(p.voyages)) == len(p.voyages) and len(set(p.monasteries)) == len(p.monasteries)
        assert cat.discs_in_supply - len(p.voyages) - len(p.monasteries) >= 0
        assert len(p.shutter) <= 3
    # each card is in exactly one place; dealt cards are all accounted for
    places = card_places(state)
    assert all(n == 1 for n in places.values()), [c for c, n in places.items() if n > 1]
    assert set(places) <= set(state.dealt)
    assert set(state.dealt) - set(places) <= set(cat.pile("I")), "only unchosen start cards leave the game"
    # voyage discs match the players' records
    for k, investors in enumerate(state.voyage_discs):
        assert len(set(investors)) == len(investors)
        for name in investors:
            assert state.voyages[k] in state.player(name).voyages
    # three dice per player per round
    if state.phase == PHASE_C and state.cursor == (0, 0):
        owners = Counter(s.owner for row in state.locations for s in row if not s.is_token)
        assert all(owners[i] == 3 for i in range(len(state.players))), owners
    if state.phase == PHASE_E:
        assert all(len(p.shutter) == 3 for p in state.players)
