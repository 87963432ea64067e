"""The table's random outcomes drawn one piece at a time: one chance node per die and per card.

The rules core takes a roll or a deal as one event (``DiceRolled``, ``CharacterRowsDealt``,
...). OpenSpiel's chance nodes are better small: each die shows a face, then the next;
each card of a deal comes off the deck, then the next. ``next_pieces`` says what the
next piece of the table's pending draw can be, with its probability, given the pieces
drawn so far; once every piece is drawn, ``outcome`` makes them the one event the rules
core checks and applies. The probabilities are those of ``rules.outcomes``' sampling:
the dice independent and fair, every deal and draw a uniformly shuffled deck.
"""

from __future__ import annotations

from typing import Callable, Final

from coimbra_events import events as ev
from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.events import GameEvent
from coimbra_events.openspiel.actions import FACES, Piece
from coimbra_events.rules import outcomes
from coimbra_events.state import CITIES, TABLE, GameState

Chances = list[tuple[Piece, float]]
"""The next piece's possible values with their probabilities (empty: the draw is complete)."""


def _uniform(kind: str, values: list[object]) -> Chances:
    return [((kind, v), 1 / len(values)) for v in values]


def _unused(kind: str, pool: tuple[str, ...] | list[int], drawn: tuple[Piece, ...]) -> Chances:
    """Each value of ``pool`` not drawn yet, equally likely."""
    used = {value for _, value in drawn}
    return _uniform(kind, [v for v in pool if v not in used])


def _values(drawn: tuple[Piece, ...]) -> list[object]:
    return [value for _, value in drawn]


# --- what the next piece can be ------------------------------------------------------------------------


def _dice(state: GameState, drawn: tuple[Piece, ...]) -> Chances:
    pool = state.catalog.dice_for(len(state.players))
    return [] if len(drawn) == len(pool) else _uniform("face", list(FACES))


def _monastery_slots(state: GameState) -> list[tuple[str, str]]:
    """(pile, map space) for every monastery space, in the catalog's order."""
    return [(pile, space) for pile, spaces in state.catalog.map.monastery_spaces.items() for space in spaces]


def _monasteries(state: GameState, drawn: tuple[Piece, ...]) -> Chances:
    slots = _monastery_slots(state)
    if len(drawn) == len(slots):
        return []
    return _unused("monastery", state.catalog.monasteries_of(slots[len(drawn)][0]), drawn)


def _scoring_tiles(state: GameState, drawn: tuple[Piece, ...]) -> Chances:
    return [] if len(drawn) == len(TRACKS) else _unused("scoring-tile", tuple(state.catalog.scoring_tiles), drawn)


def _voyages(state: GameState, drawn: tuple[Piece, ...]) -> Chances:
    cat = state.catalog
    return [] if len(drawn) == len(cat.voyage_spaces) else _unused("voyage", tuple(cat.voyages), drawn)


def _seating(state: GameState, drawn: tuple[Piece, ...]) -> Chances:
    seats = list(range(len(state.players)))
    return [] if len(drawn) == len(seats) else _unused("seat", seats, drawn)


def _start_groups(state: GameState, drawn: tuple[Piece, ...]) -> Chances:
    cat = state.catalog
    done = len(drawn) == len(state.players) * cat.cards_per_group
    return [] if done else _unused("card", cat.pile("I"), drawn)


def _rows(state: GameState, drawn: tuple[Piece, ...]) -> Chances:
    """The next card of the rows, left to right, city by city.

    The rows hold every card of ``must`` and the rest from ``may`` (``outcomes``: pile II
    used up before pile III), shuffled. Of the ``left`` places still empty, the ``m``
    cards of ``must`` not dealt yet each take the next one with chance 1/left; the
    other places go to cards of ``may``, each as likely: (left - m) / (left * |may left|).
    """
    cat = state.catalog
    left = 3 * cat.cards_per_row - len(drawn)
    if left == 0:
        return []
    must, may = outcomes._rows_source(state)  # the deck's top, as the rules core deals it
    used = set(_values(drawn))
    must_left = [c for c in must if c not in used]
    may_left = [c for c in may if c not in used]
    chances: Chances = [(("card", c), 1 / left) for c in must_left]
    if left > len(must_left):
        share = (left - len(must_left)) / (left * len(may_left))
        chances += [(("card", c), share) for c in may_left]
    return chances


NEXT: Final[dict[str, Callable[[GameState, tuple[Piece, ...]], Chances]]] = {
    "monasteries": _monasteries,
    "scoring-tiles": _scoring_tiles,
    "voyages": _voyages,
    "seating": _seating,
    "rows": _rows,
    "start-groups": _start_groups,
    "dice": _dice,
}


def next_pieces(state: GameState, drawn: tuple[Piece, ...]) -> Chances:
    """What the next piece of the table's pending draw can be, and how likely; empty once it is complete."""
    assert state.pending is not None and state.pending.actor == TABLE
    return NEXT[state.pending.kind](state, drawn)


# --- the pieces as the one event the rules core takes ---------------------------------------------------


def _rolled(state: GameState, drawn: tuple[Piece, ...]) -> GameEvent:
    pool = state.catalog.dice_for(len(state.players))
    return ev.DiceRolled(TABLE, tuple(sorted(zip(pool, _values(drawn)))))


def _placed(state: GameState, drawn: tuple[Piece, ...]) -> GameEvent:
    spaces = [space for _, space in _monastery_slots(state)]
    return ev.MonasteriesDrawn(TABLE, tuple(sorted(zip(spaces, _values(drawn)))))


def _tiles(state: GameState, drawn: tuple[Piece, ...]) -> GameEvent:
    return ev.ScoringTilesPlaced(TABLE, tuple(sorted(zip(TRACKS, _values(drawn)))))


def _voyages_drawn(state: GameState, drawn: tuple[Piece, ...]) -> GameEvent:
    return ev.VoyagesDrawn(TABLE, tuple(_values(drawn)))


def _seated(state: GameState, drawn: tuple[Piece, ...]) -> GameEvent:
    return ev.SeatingDrawn(TABLE, tuple(state.players[seat].name for seat in _values(drawn)))


def _groups(state: GameState, drawn: tuple[Piece, ...]) -> GameEvent:
    size = state.catalog.cards_per_group
    cards = _values(drawn)
    return ev.StartGroupsDealt(TABLE, tuple(tuple(cards[k : k + size]) for k in range(0, len(cards), size)))


def _dealt(state: GameState, drawn: tuple[Piece, ...]) -> GameEvent:
    per_row = state.catalog.cards_per_row
    cards = _values(drawn)
    rows = {city: tuple(cards[k * per_row : (k + 1) * per_row]) for k, city in enumerate(CITIES)}
    return ev.CharacterRowsDealt(TABLE, tuple(sorted(rows.items())))


OUTCOME: Final[dict[str, Callable[[GameState, tuple[Piece, ...]], GameEvent]]] = {
    "monasteries": _placed,
    "scoring-tiles": _tiles,
    "voyages": _voyages_drawn,
    "seating": _seated,
    "rows": _dealt,
    "start-groups": _groups,
    "dice": _rolled,
}


def outcome(state: GameState, drawn: tuple[Piece, ...]) -> GameEvent:
    """The table's outcome these pieces make, once every piece of the draw is drawn."""
    assert state.pending is not None
    return OUTCOME[state.pending.kind](state, drawn)
