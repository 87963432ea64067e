"""The audit trail's fold: the line of play folded once, noting where every point, coin and guard came from.

Disputes at a table come down to two questions: "why was that allowed?" and
"where did those points come from?". The answers (``projections.explain`` for
one entry and the record, ``projections.ledger`` for a player's resources,
``projections.rule_facts`` for the values each rule read) all read the
``Audit`` made here.

The line of play is folded once (``fold_line``) and each play is applied
through a ``Tx`` that notes every gain, payment and point as the rules make
it: a play's net change cannot tell a payment from a bonus paid by the same
move, nor show what the coin limit cut off, but the rules' own calls can.
Nothing here decides legality: skipped and overridden plays come from
``Game.replay``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from coimbra_events.events import CardBought, GameEvent, PointsExchanged, VoyageInvested
from coimbra_events.game import Game
from coimbra_events.history import Play, is_plain
from coimbra_events.rules.core import apply_in
from coimbra_events.rules.tx import Tx
from coimbra_events.state import GameState
from coimbra_events.violations import RuleViolation

RESOURCES: tuple[str, ...] = ("points", "coins", "guards")
"""What the ledger accounts for, in the order it is shown."""

START, GAIN, SPENT, LOST, END_GAME, UNTRACED = "start", "gain", "spent", "lost over the limit", "end-game", "untraced"
"""Kinds of ledger rows. ``untraced`` would mean a change the rules made outside ``Tx.gain``/``pay``/``add_points``."""


class AuditError(ValueError):
    """A point of the record that does not exist: an entry out of range, an unknown player."""


# --- folding the line once, noting every resource movement ----------------------------------------


@dataclass(frozen=True)
class Move:
    """One change of a player's coins, guards or points, as the rules made it."""

    player: int
    resource: str
    amount: int
    kind: str
    source: str


def _bought(event: GameEvent) -> str:
    """What a payment is for: only buying a card, investing in a voyage and exchanging pay."""
    if isinstance(event, CardBought):
        return event.card
    if isinstance(event, VoyageInvested):
        return event.voyage
    return "exchange" if isinstance(event, PointsExchanged) else event.TYPE


class _Recorder(Tx):
    """A ``Tx`` that notes each gain (and what the limit cut off), payment and point, with its source."""

    __slots__ = ("moves", "event")

    def __init__(self, state: GameState, event: GameEvent) -> None:
        super().__init__(state)
        self.moves: list[Move] = []
        self.event = event

    def gain(self, i: int, resource: str, amount: int, source: str) -> None:
        if amount <= 0 or resource not in ("coins", "guards"):
            super().gain(i, resource, amount, source)  # points arrive through add_points; steps are a decision
            return
        had = getattr(self.pl(i), resource)
        super().gain(i, resource, amount, source)
        kept = getattr(self.pl(i), resource) - had
        self.moves.append(Move(i, resource, amount, GAIN, source))
        if kept < amount:
            self.moves.append(Move(i, resource, kept - amount, LOST, source))

    def pay(self, i: int, resource: str, amount: int) -> None:
        super().pay(i, resource, amount)
        if amount:
            self.moves.append(Move(i, resource, -amount, SPENT, _bought(self.event)))

    def add_points(self, i: int, amount: int, source: str) -> None:
        super().add_points(i, amount, source)
        if amount:
            self.moves.append(Move(i, "points", amount, GAIN, source))


def _apply_noted(state: GameState, event: GameEvent) -> tuple[GameState, tuple[Move, ...]]:
    """``core.apply`` with every resource movement noted."""
    tx = _Recorder(state, event)
    return apply_in(tx, event), tuple(tx.moves)


@dataclass(frozen=True)
class Step:
    """One play of the line: the tables before and after it, its moves, and any rule it did not meet.

    ``violation`` is the rule an accepted rule break broke, or why a skipped play was skipped.
    """

    play: Play
    before: GameState
    after: GameState
    moves: tuple[Move, ...] = ()
    violation: RuleViolation | None = None
    skipped: bool = False


@dataclass(frozen=True)
class Audit:
    """A game with every play of its line folded: what the explanations are read from."""

    game: Game
    steps: tuple[Step, ...]
    final: GameState
    by_seq: Mapping[int, Step] = field(repr=False)


def fold_line(game: Game) -> Audit:
    """Fold the game's line of play once, keeping each play's tables and moves.

    Which plays are skipped or accepted against a rule is ``Game.replay``'s
    verdict; a record without history entries needs none (each of its events
    was checked when recorded), so it is folded exactly once.
    """
    replayed = None if is_plain(game.events) else game.replay
    skipped = {p.seq: v for p, v in replayed.skipped} if replayed else {}
    overridden = {p.seq: v for p, v in replayed.overrides} if replayed else {}
    state, steps = game.initial, []
    for play in game.line.plays:
        if play.seq in skipped:
            steps.append(Step(play, state, state, violation=skipped[play.seq], skipped=True))
            continue
        after, moves = _apply_noted(state, play.event)
        steps.append(Step(play, state, after, moves, overridden.get(play.seq)))
        state = after
    return Audit(game, tuple(steps), state, {s.play.seq: s for s in steps})


__all__ = ["RESOURCES", "Audit", "AuditError", "Move", "Step", "fold_line"]
