"""The audit trail's fold: the line of play folded once, with every change the rules made.

Disputes at a table come down to two questions: "why was that allowed?" and
"where did those points come from?". The answers (``projections.explain`` for
one entry and the record, ``projections.ledger`` for a player's resources) all
read the ``Audit`` made here.

The line of play is folded once (``fold_line``), through one narrating
``rules.fast.Fold``, which reports every change as the rules make it: a
play's net change cannot tell a payment from a bonus paid by the same move, nor
show what the coin limit cut off, but the rules' own reports can. Nothing
here decides legality: skipped and overridden plays come from ``Game.replay``.
Why this is not the timeline's fold: the table in ``projections/__init__.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from coimbra_events.game import Game
from coimbra_events.history import Play, is_plain
from coimbra_events.rules import narration
from coimbra_events.rules.fast import Fold
from coimbra_events.rules.narration import Told, records, told as read_told
from coimbra_events.state import GameState
from coimbra_events.violations import RuleViolation

RESOURCES: tuple[str, ...] = ("points", "coins", "guards")
"""What the ledger accounts for, in the order it is shown."""

START, GAIN, SPENT, LOST, END_GAME, UNTRACED = "start", "gain", "spent", "lost over the limit", "end-game", "untraced"
"""Kinds of ledger rows. ``untraced`` would mean a change of a resource the rules did not report (none expected)."""


class AuditError(ValueError):
    """A point of the record that does not exist: an entry out of range, an unknown player."""


# --- folding the line once, noting every resource movement ----------------------------------------


@dataclass(frozen=True)
class Move:
    """One change of a player's coins, guards or points, as the rules made it, with their rule and facts."""

    player: int
    resource: str
    amount: int
    kind: str
    source: str
    rule: str = ""
    facts: Mapping[str, Any] = field(default_factory=dict)


_RESOURCE_TOLD = {narration.COINS: "coins", narration.GUARDS: "guards", narration.POINTS: "points"}


def moves_of(told: tuple[Told, ...]) -> tuple[Move, ...]:
    """The resource movements among what the rules told: gains (and what a limit cut off) and payments."""
    out: list[Move] = []
    for t in told:
        resource = _RESOURCE_TOLD.get(t.what)
        if resource is None or t.rule.startswith("END."):
            continue
        facts = t.facts or {}
        if t.amount <= 0:  # a payment (gains are never 0): for the card, the voyage, or the exchange
            bought = facts.get("card") or facts.get("voyage") or ("exchange" if t.rule == "E.exchange" else t.rule)
            out.append(Move(t.who, resource, t.amount, SPENT, str(bought), t.rule, facts))
            continue
        out.append(Move(t.who, resource, t.amount, GAIN, t.source, t.rule, facts))
        kept = int(t.dst) - int(t.src)  # type: ignore[call-overload]
        if kept < t.amount:
            out.append(Move(t.who, resource, kept - t.amount, LOST, t.source, t.rule, facts))
    return tuple(out)


@dataclass(frozen=True)
class Step:
    """One play of the line: the tables before and after it, its moves, and any rule it did not meet.

    ``violation`` is the rule an accepted rule break broke, or why a skipped play was skipped.
    """

    play: Play
    before: GameState
    after: GameState
    told: tuple[Told, ...] = ()
    violation: RuleViolation | None = None
    skipped: bool = False

    @property
    def moves(self) -> tuple[Move, ...]:
        """The play's changes of coins, guards and points."""
        return moves_of(self.told)


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
    fold = Fold(narrating=True)
    tape = fold.tape
    for play in game.line.plays:
        if play.seq in skipped:
            steps.append(Step(play, state, state, violation=skipped[play.seq], skipped=True))
            continue
        start = len(tape)
        after = fold.apply(state, play.event)
        told = tuple(map(read_told, records(tape, start, len(tape))))
        steps.append(Step(play, state, after, told, overridden.get(play.seq)))
        state = after
    return Audit(game, tuple(steps), state, {s.play.seq: s for s in steps})


__all__ = ["RESOURCES", "Audit", "AuditError", "Move", "Step", "fold_line", "moves_of"]
