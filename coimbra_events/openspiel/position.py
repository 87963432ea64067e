"""A point of a game as OpenSpiel walks it: the table, the table's draw under way, the actions taken.

``Position`` knows nothing of OpenSpiel (``game.py`` wraps it): it answers who acts, the
legal actions by their fixed numbers (``actions``), the chances of the next piece of a
table draw (``draws``), and the position after an action, every event checked and
applied by the rules core (``rules.core.apply``, in a carried ``Fold``: no narration, no
hashing). It never changes, so OpenSpiel's clones (a deep copy of a state's attributes)
share it, and it pickles (OpenSpiel's serialisation) as its catalog, its players and the
actions taken, replayed when read back.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Sequence

from coimbra_events.catalog import DICE_PER_PLAYER, Catalog, find_catalog
from coimbra_events.notation import render
from coimbra_events.openspiel import draws
from coimbra_events.openspiel.actions import ActionSpace, Piece
from coimbra_events.rules import core
from coimbra_events.rules.fast import Fold
from coimbra_events.rules.scoring import final_scores
from coimbra_events.state import TABLE, GameState

SUB_DECISIONS_PER_ROUND = 100
"""Track choices and pilgrim steps one player may be granted in one round, allowed for in
``longest``: effects grant them, and no bound follows from the catalog alone (simulated
4-player games take at most about 50 steps in the whole game)."""


@lru_cache(maxsize=8)
def action_space(catalog: Catalog) -> ActionSpace:
    """The numbering for a catalog, made once."""
    return ActionSpace(catalog)


def longest(catalog: Catalog, players: int) -> int:
    """An upper bound on the decisions of a game (OpenSpiel's ``max_game_length``).

    Rounds last while the deck deals full rows; in a round each player drafts and retrieves
    their dice, invests or passes once, and in phase E activates each die and the extra die
    with at most a full purse of exchanges (one coin or guard each, at least) before each
    activation and before ending; plus the start choices and ``SUB_DECISIONS_PER_ROUND``.
    """
    deck = len(catalog.pile("II")) + len(catalog.pile("III"))
    rounds = math.ceil(deck / (3 * catalog.cards_per_row))
    purse = catalog.max_coins + catalog.max_guards
    income = (DICE_PER_PLAYER + 2) * (1 + purse)
    per_round = 2 * DICE_PER_PLAYER + 1 + income + SUB_DECISIONS_PER_ROUND
    return players * (2 + SUB_DECISIONS_PER_ROUND + rounds * per_round)


class Position:
    """The table, the pieces of the table's pending draw drawn so far, and every action taken to get here."""

    __slots__ = ("space", "state", "drawn", "actions", "players", "fold")

    def __init__(self, state: GameState, drawn: tuple[Piece, ...], actions: tuple[int, ...],
                 players: tuple[tuple[str, str], ...], fold: Fold) -> None:
        self.space = action_space(state.catalog)
        self.state = state
        self.drawn = drawn
        self.actions = actions
        self.players = players
        self.fold = fold

    @classmethod
    def start(cls, catalog: Catalog, players: Sequence[tuple[str, str]]) -> Position:
        """A new game of these players (name, colour), before the table's setup."""
        return cls(core.start(catalog, players), (), (), tuple(players), Fold())

    @classmethod
    def replayed(cls, catalog_id: str, sha256: str, players: tuple[tuple[str, str], ...],
                 actions: tuple[int, ...]) -> Position:
        """The position these actions lead to from the start (how a pickled position is read back)."""
        position = cls.start(find_catalog(catalog_id, sha256), players)
        for action in actions:
            position = position.after(action)
        return position

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def drawing(self) -> bool:
        """Whether the table is due: a roll, a deal or a draw, piece by piece."""
        due = self.state.pending
        return due is not None and due.actor == TABLE

    @property
    def seat(self) -> int:
        """The seat (index among the players) of the player due to decide."""
        due = self.state.pending
        assert due is not None and due.actor != TABLE
        return self.state.index[due.actor]

    def legal_actions(self) -> list[int]:
        """The numbers of the legal decisions, ascending (``legal``'s options, every one numbered)."""
        options = core.legal(self.state)
        assert isinstance(options, list)
        return sorted(self.space.decision_id(e) for e in options)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each possible next piece of the table's draw by its number, with its probability, ascending."""
        return sorted((self.space.piece_id(piece), p) for piece, p in draws.next_pieces(self.state, self.drawn))

    def after(self, action: int) -> Position:
        """The position after an action: a decision, or one piece of the table's draw (the last one makes the event)."""
        state, drawn = self.state, self.drawn
        if self.drawing:
            drawn += (self.space.piece(action),)
            if not draws.next_pieces(state, drawn):
                state, drawn = core.apply(state, draws.outcome(state, drawn), self.fold), ()
        else:
            due = state.pending
            assert due is not None
            state = core.apply(state, self.space.decision(due.actor, action), self.fold)
        return Position(state, drawn, self.actions + (action,), self.players, self.fold)

    def returns(self) -> list[float]:
        """Each seat's return: 1 for first place, shared equally by players sharing it (GAPS 11); else 0."""
        if not self.over:
            return [0.0] * len(self.state.players)
        firsts = {s.name for s in final_scores(self.state) if s.place == 1}
        return [1 / len(firsts) if pl.name in firsts else 0.0 for pl in self.state.players]

    def describe(self, action: int) -> str:
        """An action in words: a decision in the notation, a piece of a draw with its place in it."""
        if self.drawing:
            kind, value = self.space.piece(action)
            shown = self.state.players[value].name if kind == "seat" else value
            due = self.state.pending
            assert due is not None
            return f"{TABLE}: {due.kind} #{len(self.drawn) + 1} {kind} {shown}"
        due = self.state.pending
        return render(self.space.decision(due.actor if due else "", action))

    def __str__(self) -> str:
        g = self.state
        due = g.pending
        lines = [f"round {g.round}, phase {g.phase}; due: {due.actor + ' ' + due.kind if due else 'nobody (game over)'}"]
        if self.drawn:
            lines.append("drawn so far: " + ", ".join(f"{kind} {value}" for kind, value in self.drawn))
        lines.append("rows: " + "; ".join(" ".join(row) for row in g.rows) + f"; dice: {g.dice}; pool: {' '.join(g.pool)}")
        for pl in g.players:
            lines.append(
                f"{pl.name}: {pl.coins} coins, {pl.guards} guards, {pl.points} points, influence {pl.influence}, "
                f"pilgrim {pl.pilgrim}, cards {' '.join(pl.owned_cards)}, voyages {' '.join(pl.voyages)}, "
                f"favor tiles {' '.join(pl.favor_tiles)}, income left {' '.join(pl.income_left)}"
            )
        return "\n".join(lines)

    # Never changed after it is made: a copy is the position itself.
    def __copy__(self) -> Position:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        cat = self.state.catalog
        return Position.replayed, (cat.id, cat.sha256, self.players, self.actions)
