"""The table's random outcomes drawn one piece at a time: one chance node per die and per card.

The rules core takes a roll or a deal as one event (``DiceRolled``, ``CharacterRowsDealt``,
...). OpenSpiel's chance nodes are better small: each die shows a face, then the next;
each card of a deal comes off the deck, then the next. The rules core's ``outcomes.KINDS``
draws each kind of outcome that way, with the chances of its own sampling; here its
values become the numbered pieces (``("face", 4)``, ``("card", id)``, ...):
``next_pieces`` says what the next piece of the table's pending draw can be, with its
probability, given the pieces drawn so far; once every piece is drawn, ``outcome`` makes
them the one event the rules core checks and applies.
"""

from __future__ import annotations

from coimbra_events.events import GameEvent
from coimbra_events.openspiel.actions import Piece
from coimbra_events.rules.outcomes import KINDS, Drawn, OutcomeKind
from coimbra_events.state import TABLE, GameState

Chances = list[tuple[Piece, float]]
"""The next piece's possible values with their probabilities (empty: the draw is complete)."""


def _pending(state: GameState) -> OutcomeKind:
    assert state.pending is not None and state.pending.actor == TABLE
    return KINDS[state.pending.kind]


def _values(drawn: tuple[Piece, ...]) -> Drawn:
    return tuple(value for _, value in drawn)


def next_pieces(state: GameState, drawn: tuple[Piece, ...]) -> Chances:
    """What the next piece of the table's pending draw can be, and how likely; empty once it is complete."""
    kind = _pending(state)
    return [((kind.piece, value), chance) for value, chance in kind.next_pieces(state, _values(drawn))]


def outcome(state: GameState, drawn: tuple[Piece, ...]) -> GameEvent:
    """The table's outcome these pieces make, once every piece of the draw is drawn."""
    return _pending(state).outcome(state, _values(drawn))
