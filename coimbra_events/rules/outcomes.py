"""Random outcomes: which are possible, whether one observed is, and drawing one.

The table's inputs (monasteries, scoring tiles, voyages, seating, character rows,
start groups, dice) are events like any decision. For each kind this module
knows the space of possible outcomes: ``check`` tells whether an observed
outcome lies in it (with the rule it would break), ``sample`` draws one from a
seeded generator for simulated games. Replay only ever checks; it never draws.
``KINDS`` holds, for each kind, its space and the same outcome drawn one die or
card at a time, with the chances ``sample`` gives (what a game tree's chance nodes
need, e.g. the OpenSpiel adapter's).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Final, Sequence

from coimbra_events.catalog import Catalog
from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.events import (
    CharacterRowsDealt,
    DiceRolled,
    GameEvent,
    MonasteriesDrawn,
    ScoringTilesPlaced,
    SeatingDrawn,
    StartGroupsDealt,
    VoyagesDrawn,
)
from coimbra_events.record import Record
from coimbra_events.rules import draws
from coimbra_events.state import CITIES, TABLE, GameState
from coimbra_events.violations import RuleViolation, Seen, held


class OutcomeSpace(Record):
    """The random outcomes possible now, for the table's pending input."""

    FIELDS = ("kind", "description", "sample")
    COMPARED = FIELDS

    def __init__(self, kind: str, description: str, sample: Callable[[random.Random], GameEvent]) -> None:
        self.kind: Final = kind
        self.description: Final = description
        self.sample: Final = sample


FACES: Final = range(1, 7)
"""The values a die can show (rule A.dice)."""

Drawn = tuple[int | str, ...]
"""The values of an outcome's pieces drawn so far: die faces, seats, or catalog ids."""
Chances = list[tuple[int | str, float]]
"""What the next piece can be, with its chance (empty once every piece is drawn)."""


class OutcomeKind(Record):
    """One kind of random outcome: the space of those possible now, and the same outcome drawn
    one piece at a time (each piece a ``piece``: a die's face, a seat, a card, ...)."""

    FIELDS = ("space", "piece", "next_pieces", "outcome")
    COMPARED = FIELDS

    def __init__(self, space: Callable[[GameState], OutcomeSpace], piece: str,
                 next_pieces: Callable[[GameState, Drawn], Chances],
                 outcome: Callable[[GameState, Drawn], GameEvent]) -> None:
        self.space: Final = space
        self.piece: Final = piece
        self.next_pieces: Final = next_pieces
        self.outcome: Final = outcome


def _rows_source(state: GameState) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Cards the next rows must use: all of ``must`` plus the rest from ``may``.

    The deck is pile II shuffled on top of pile III (setup step 9): the next
    rows come from pile II while it lasts, then from pile III.
    """
    upper, piles = _deck_top(state)
    if piles == ("II",):
        return (), upper
    dealt = state.dealt
    return upper, tuple(c for c in state.catalog.pile("III") if c not in dealt)


def _deck_top(state: GameState) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Pile II's cards not dealt yet, and the piles the next rows come from: pile II alone
    while it has enough cards for them, else piles II and III."""
    cat = state.catalog
    dealt = state.dealt
    upper = tuple(c for c in cat.pile("II") if c not in dealt)
    return upper, ("II",) if len(upper) >= 3 * cat.cards_per_row else ("II", "III")


def deck_size(catalog: Catalog, dealt: frozenset[str]) -> int:
    """Character cards still in the deck (piles II and III, less those dealt)."""
    return sum(1 for pile in ("II", "III") for c in catalog.pile(pile) if c not in dealt)


def _violation(rule: str, reason: str, **facts: object) -> RuleViolation:
    return RuleViolation(rule, reason, facts)


# --- checks ------------------------------------------------------------------------------


def check_monasteries(state: GameState, e: MonasteriesDrawn, seen: Seen | None = None) -> RuleViolation | None:
    cat = state.catalog
    placed = dict(e.placement)
    spaces = {s for pile in cat.map.monastery_spaces.values() for s in pile}
    if set(placed) != spaces:
        return _violation("SETUP.monasteries", "every monastery space of the map gets exactly one tile",
                          missing=sorted(spaces - set(placed)), unknown=sorted(set(placed) - spaces))
    if len(set(placed.values())) != len(placed):
        return _violation("SETUP.monasteries", "a monastery tile was drawn twice", tiles=sorted(placed.values()))
    for space, tile in placed.items():
        pile = cat.map.spaces[space].pile
        if tile not in cat.monasteries or cat.monasteries[tile].pile != pile:
            return _violation("SETUP.monasteries", f"space {space} takes a tile of pile {pile}, not {tile!r}",
                              space=space, tile=tile, pile=pile)
    if seen is not None:
        held(seen, "SETUP.monasteries", {"spaces": {p: len(sp) for p, sp in cat.map.monastery_spaces.items()},
                                         "placement": placed})
    return None


def check_scoring_tiles(state: GameState, e: ScoringTilesPlaced, seen: Seen | None = None) -> RuleViolation | None:
    placed = dict(e.tiles)
    tiles = state.catalog.scoring_tiles
    if set(placed) != set(TRACKS):
        return _violation("SETUP.scoring-tiles", "one scoring tile goes above each of the four tracks", tracks=sorted(placed))
    if len(set(placed.values())) != 4 or not set(placed.values()) <= set(tiles):
        return _violation("SETUP.scoring-tiles", "four different scoring tiles of the catalog are placed",
                          tiles=sorted(placed.values()), catalog=sorted(tiles))
    if seen is not None:
        held(seen, "SETUP.scoring-tiles", {"tiles": placed, "catalog": sorted(tiles)})
    return None


def check_voyages(state: GameState, e: VoyagesDrawn, seen: Seen | None = None) -> RuleViolation | None:
    cat = state.catalog
    n = len(cat.voyage_spaces)
    if (broken := len(e.voyages) != n or len(set(e.voyages)) != n or not set(e.voyages) <= set(cat.voyages)) or seen is not None:
        facts = {"drawn": e.voyages, "spaces": n}
        if broken:
            return RuleViolation("SETUP.voyages", f"{n} different voyage cards of the catalog are drawn", facts)
        held(seen, "SETUP.voyages", facts)
    return None


def check_seating(state: GameState, e: SeatingDrawn, seen: Seen | None = None) -> RuleViolation | None:
    names = sorted(p.name for p in state.players)
    if (broken := sorted(e.order) != names) or seen is not None:
        facts = {"order": e.order, "players": names}
        if broken:
            return RuleViolation("SETUP.seating", "the player order names every player exactly once", facts)
        held(seen, "SETUP.seating", facts)
    return None


def check_rows(state: GameState, e: CharacterRowsDealt, seen: Seen | None = None) -> RuleViolation | None:
    cat = state.catalog
    rows = dict(e.rows)
    if set(rows) != set(CITIES) or any(len(r) != cat.cards_per_row for r in rows.values()):
        return _violation("SETUP.rows", f"each of the three cities gets a row of {cat.cards_per_row} cards",
                          rows={k: list(v) for k, v in rows.items()})
    cards = [c for r in rows.values() for c in r]
    if len(set(cards)) != len(cards):
        twice = sorted({c for c in cards if cards.count(c) > 1})
        return _violation("SETUP.rows", f"a card was dealt twice: {', '.join(twice)}", cards=cards)
    # Each card checked against the piles the deck's top comes from, rather than the top built as a set.
    upper, piles = _deck_top(state)
    dealt = state.dealt
    characters = cat.characters
    stray = sorted(c for c in cards if c in dealt or c not in characters or characters[c].pile not in piles)
    if stray:
        must, may = _rows_source(state)
        return _violation("SETUP.rows", "cards must come from the top of the character deck and not be dealt already, "
                          f"not {', '.join(stray)}", cards=stray, deck_top=sorted(must or may))
    missing = sorted(set(upper) - set(cards)) if len(piles) == 2 else []
    if missing:
        return _violation("SETUP.rows", f"pile II must be used up before pile III is dealt: {', '.join(missing)} "
                          "must be dealt first", missing=missing)
    if seen is not None:
        held(seen, "SETUP.rows", {"rows": {k: list(v) for k, v in rows.items()}, "cards_per_row": cat.cards_per_row,
                                  "piles": piles, "deck": deck_size(cat, dealt)})
    return None


def check_start_groups(state: GameState, e: StartGroupsDealt, seen: Seen | None = None) -> RuleViolation | None:
    cat = state.catalog
    n = len(state.players)
    cards = [c for g in e.groups for c in g]
    if len(e.groups) != n or any(len(g) != cat.cards_per_group for g in e.groups):
        return _violation("SETUP.start-groups", f"{n} groups of {cat.cards_per_group} start cards, one per player",
                          groups=[list(g) for g in e.groups])
    pile = set(cat.pile("I"))
    if len(set(cards)) != len(cards) or not set(cards) <= pile:
        wrong = sorted({c for c in cards if cards.count(c) > 1 or c not in pile})
        return _violation("SETUP.start-groups", f"start groups hold different start cards (pile I), not {', '.join(wrong)}",
                          cards=cards, pile=sorted(pile))
    if seen is not None:
        held(seen, "SETUP.start-groups", {"groups": [list(g) for g in e.groups], "cards_per_group": cat.cards_per_group,
                                          "players": n})
    return None


def check_dice(state: GameState, e: DiceRolled, seen: Seen | None = None) -> RuleViolation | None:
    pool = state.catalog.dice_for(len(state.players))
    values = dict(e.values)
    if len(values) != len(e.values) or sorted(values) != sorted(pool):
        return _violation("A.dice", f"the pool for {len(state.players)} players is rolled, every die once",
                          rolled=sorted(values), pool=list(pool))
    bad = {d: v for d, v in values.items() if not 1 <= v <= 6}
    if bad:
        return _violation("A.dice", "a die shows a value from 1 to 6", values=bad)
    if seen is not None:
        held(seen, "A.dice", {"pool": list(pool), "rolled": sorted(values), "values": values})
    return None


CHECKS: Final[dict[type, Callable[[GameState, Any, Seen | None], RuleViolation | None]]] = {
    MonasteriesDrawn: check_monasteries,
    ScoringTilesPlaced: check_scoring_tiles,
    VoyagesDrawn: check_voyages,
    SeatingDrawn: check_seating,
    CharacterRowsDealt: check_rows,
    StartGroupsDealt: check_start_groups,
    DiceRolled: check_dice,
}

# --- each kind: its outcome space, and the same outcome drawn one piece at a time ------------------
#
# ``sample`` draws a whole outcome at once; a game tree whose chance nodes are single dice and
# cards (the OpenSpiel adapter) draws it piece by piece instead: ``next_pieces`` says what the
# next piece can be, with the chance ``sample`` gives it, given the values drawn so far (empty
# once every piece is drawn), and ``outcome`` makes the drawn values the one event ``check`` takes.


def _uniform(values: Sequence[int | str]) -> Chances:
    return [(v, 1 / len(values)) for v in values]


def _unused(pool: Sequence[int | str], drawn: Drawn) -> Chances:
    """Each value of ``pool`` not drawn yet, equally likely (a draw without putting back)."""
    return _uniform([v for v in pool if v not in drawn])


def _texts(drawn: Drawn) -> list[str]:
    return [str(v) for v in drawn]


def _numbers(drawn: Drawn) -> list[int]:
    return [int(v) for v in drawn]


def _monastery_slots(state: GameState) -> list[tuple[str, str]]:
    """(pile, map space) for every monastery space, in the catalog's order."""
    return [(pile, space) for pile, spaces in state.catalog.map.monastery_spaces.items() for space in spaces]


def _monasteries(state: GameState) -> OutcomeSpace:
    cat = state.catalog

    def sample(rng: random.Random) -> GameEvent:
        placement: dict[str, str] = {}
        for pile, spaces in cat.map.monastery_spaces.items():
            tiles = draws.sample(rng, cat.monasteries_of(pile), len(spaces))
            placement.update(zip(spaces, tiles))
        return MonasteriesDrawn(TABLE, tuple(sorted(placement.items())))

    counts = ", ".join(f"{len(s)} of pile {p}" for p, s in cat.map.monastery_spaces.items())
    return OutcomeSpace("monasteries", f"monastery tiles drawn onto the map: {counts}", sample)


def _next_monastery(state: GameState, drawn: Drawn) -> Chances:
    """The tile of the next monastery space, from that space's pile."""
    slots = _monastery_slots(state)
    if len(drawn) == len(slots):
        return []
    return _unused(state.catalog.monasteries_of(slots[len(drawn)][0]), drawn)


def _monasteries_drawn(state: GameState, drawn: Drawn) -> GameEvent:
    spaces = [space for _, space in _monastery_slots(state)]
    return MonasteriesDrawn(TABLE, tuple(sorted(zip(spaces, _texts(drawn)))))


def _scoring_tiles(state: GameState) -> OutcomeSpace:
    tiles = tuple(state.catalog.scoring_tiles)

    def sample(rng: random.Random) -> GameEvent:
        return ScoringTilesPlaced(TABLE, tuple(sorted(zip(TRACKS, draws.sample(rng, tiles, len(TRACKS))))))

    return OutcomeSpace("scoring-tiles", f"one of {len(tiles)} scoring tiles above each track", sample)


def _next_scoring_tile(state: GameState, drawn: Drawn) -> Chances:
    return [] if len(drawn) == len(TRACKS) else _unused(tuple(state.catalog.scoring_tiles), drawn)


def _scoring_tiles_placed(state: GameState, drawn: Drawn) -> GameEvent:
    return ScoringTilesPlaced(TABLE, tuple(sorted(zip(TRACKS, _texts(drawn)))))


def _voyages(state: GameState) -> OutcomeSpace:
    cat = state.catalog

    def sample(rng: random.Random) -> GameEvent:
        return VoyagesDrawn(TABLE, tuple(draws.sample(rng, tuple(cat.voyages), len(cat.voyage_spaces))))

    return OutcomeSpace("voyages", f"{len(cat.voyage_spaces)} of {len(cat.voyages)} voyage cards", sample)


def _next_voyage(state: GameState, drawn: Drawn) -> Chances:
    cat = state.catalog
    return [] if len(drawn) == len(cat.voyage_spaces) else _unused(tuple(cat.voyages), drawn)


def _voyages_drawn(state: GameState, drawn: Drawn) -> GameEvent:
    return VoyagesDrawn(TABLE, tuple(_texts(drawn)))


def _seating(state: GameState) -> OutcomeSpace:
    names = tuple(p.name for p in state.players)

    def sample(rng: random.Random) -> GameEvent:
        return SeatingDrawn(TABLE, tuple(draws.sample(rng, names, len(names))))

    return OutcomeSpace("seating", "any order of the players", sample)


def _next_seat(state: GameState, drawn: Drawn) -> Chances:
    """The seat (a player's place in the game's list of players) that sits next."""
    seats = range(len(state.players))
    return [] if len(drawn) == len(seats) else _unused(seats, drawn)


def _seating_drawn(state: GameState, drawn: Drawn) -> GameEvent:
    return SeatingDrawn(TABLE, tuple(state.players[seat].name for seat in _numbers(drawn)))


def _rows(state: GameState) -> OutcomeSpace:
    cat = state.catalog
    must, may = _rows_source(state)
    per_row = cat.cards_per_row

    def sample(rng: random.Random) -> GameEvent:
        cards = list(must) + draws.sample(rng, may, 3 * per_row - len(must))
        draws.shuffle(rng, cards)
        return _dealt(per_row, cards)

    return OutcomeSpace("rows", f"{3 * per_row} cards from the {len(must) + len(may)} at the top of the deck", sample)


def _next_row_card(state: GameState, drawn: Drawn) -> Chances:
    """The next card of the rows, left to right, city by city.

    The rows hold every card of ``must`` and the rest from ``may``, shuffled. Of the
    ``left`` places still empty, the ``m`` cards of ``must`` not dealt yet each take the
    next one with chance 1/left; the other places go to cards of ``may``, each as
    likely: (left - m) / (left * |may left|).
    """
    left = 3 * state.catalog.cards_per_row - len(drawn)
    if left == 0:
        return []
    must, may = _rows_source(state)
    must_left = [c for c in must if c not in drawn]
    may_left = [c for c in may if c not in drawn]
    chances: Chances = [(c, 1 / left) for c in must_left]
    if left > len(must_left):
        share = (left - len(must_left)) / (left * len(may_left))
        chances += [(c, share) for c in may_left]
    return chances


def _rows_dealt(state: GameState, drawn: Drawn) -> GameEvent:
    return _dealt(state.catalog.cards_per_row, _texts(drawn))


def _dealt(per_row: int, cards: list[str]) -> GameEvent:
    """The rows these cards make, ``per_row`` to a city in the cities' order."""
    rows = {city: tuple(cards[k * per_row : (k + 1) * per_row]) for k, city in enumerate(CITIES)}
    return CharacterRowsDealt(TABLE, tuple(sorted(rows.items())))


def _start_groups(state: GameState) -> OutcomeSpace:
    cat = state.catalog
    n = len(state.players)
    size = cat.cards_per_group

    def sample(rng: random.Random) -> GameEvent:
        return _grouped(size, draws.sample(rng, cat.pile("I"), n * size))

    return OutcomeSpace("start-groups", f"{n} groups of {size} start cards", sample)


def _next_start_card(state: GameState, drawn: Drawn) -> Chances:
    cat = state.catalog
    return [] if len(drawn) == len(state.players) * cat.cards_per_group else _unused(cat.pile("I"), drawn)


def _start_groups_dealt(state: GameState, drawn: Drawn) -> GameEvent:
    return _grouped(state.catalog.cards_per_group, _texts(drawn))


def _grouped(size: int, cards: list[str]) -> GameEvent:
    """The start groups these cards make, ``size`` to a group."""
    return StartGroupsDealt(TABLE, tuple(tuple(cards[k : k + size]) for k in range(0, len(cards), size)))


def _dice(state: GameState) -> OutcomeSpace:
    pool = state.catalog.dice_for(len(state.players))
    lowest, highest = FACES[0], FACES[-1]  # read once per roll, not twice per die

    def sample(rng: random.Random) -> GameEvent:
        return DiceRolled(TABLE, tuple(sorted([(d, draws.randint(rng, lowest, highest)) for d in pool])))

    return OutcomeSpace("dice", f"each of the {len(pool)} dice shows 1-6", sample)


def _next_face(state: GameState, drawn: Drawn) -> Chances:
    """The next die of the pool, in the catalog's order, shows any face."""
    return [] if len(drawn) == len(state.catalog.dice_for(len(state.players))) else _uniform(FACES)


def _dice_rolled(state: GameState, drawn: Drawn) -> GameEvent:
    pool = state.catalog.dice_for(len(state.players))
    return DiceRolled(TABLE, tuple(sorted(zip(pool, _numbers(drawn)))))


KINDS: Final[dict[str, OutcomeKind]] = {
    "monasteries": OutcomeKind(_monasteries, "monastery", _next_monastery, _monasteries_drawn),
    "scoring-tiles": OutcomeKind(_scoring_tiles, "scoring-tile", _next_scoring_tile, _scoring_tiles_placed),
    "voyages": OutcomeKind(_voyages, "voyage", _next_voyage, _voyages_drawn),
    "seating": OutcomeKind(_seating, "seat", _next_seat, _seating_drawn),
    "rows": OutcomeKind(_rows, "card", _next_row_card, _rows_dealt),
    "start-groups": OutcomeKind(_start_groups, "card", _next_start_card, _start_groups_dealt),
    "dice": OutcomeKind(_dice, "face", _next_face, _dice_rolled),
}
"""Every kind of random outcome the table gives, by the kind its pending input names: a new
kind brings its space and its piece-by-piece draw together."""
