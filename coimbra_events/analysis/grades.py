"""Losses in winning chances turned into grades, as lichess grades chess moves, and its accuracy formula."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Sequence

GRADES: Final[tuple[str, ...]] = ("best", "good", "inaccuracy", "mistake", "blunder")
"""From the best decision to the worst."""

THRESHOLDS: Final[tuple[tuple[float, str], ...]] = (
    (15.0, "blunder"), (10.0, "mistake"), (5.0, "inaccuracy"), (2.5, "good"), (0.0, "best"),
)
"""Loss in percentage points of winning chances at which each grade begins: lichess's 5, 10 and 15; below 5, a
decision within 2.5 points of the best is as good as the best (no table could tell them apart), else good."""

BOUNDS: Final[tuple[float, ...]] = tuple(sorted(threshold for threshold, _ in THRESHOLDS if threshold > 0))
"""Where one grade ends and the next begins, in points of loss."""

Z95: Final = 1.959964
"""Half-width of a 95 % interval in standard errors."""

CERTAIN_SE: Final = 2.0
"""A loss is "certain" when the best option is ahead by at least this many standard errors of the difference."""

NOISE_SE: Final = 1.0
"""A decision's loss counts in its accuracy less this many of its standard errors (``counted_loss``)."""

STAKE_FLOOR: Final = 1.0
"""The least weight of a decision in a player's accuracy, in points of stake: a decision whose options all win alike
still counts, a little (lichess clamps its volatility weights likewise, at 0.5)."""


@dataclass(frozen=True)
class AccuracyFormula:
    """Accuracy of one decision from the winning chances it lost (``counted_loss``), lichess's shape: ``scale *
    exp(-rate * loss) + offset``, clamped to 0..100 (``scale + offset`` is 100: a decision that loses nothing scores
    100); a player's, the mean of their decisions' weighted by each one's stake (what it could lose at most)."""

    scale: float
    rate: float
    offset: float

    def __call__(self, loss: float) -> float:
        return min(100.0, max(0.0, self.scale * math.exp(-self.rate * loss) + self.offset))

    def of_player(self, decisions: Sequence[tuple[float, float]]) -> float:
        """A player's accuracy over their decisions with a choice, each a ``(counted loss, stake)``: the mean of the decisions'
        accuracies weighted by their stakes (at least ``STAKE_FLOOR``), so that decisions where every option wins alike,
        where any pick is as good, do not make a random player look accurate; 100 with none."""
        weights = [max(STAKE_FLOOR, stake) for _, stake in decisions]
        if not weights:
            return 100.0
        return sum(w * self(loss) for w, (loss, _) in zip(weights, decisions)) / sum(weights)

    def describe(self) -> str:
        return (f"accuracy, lichess's shape with constants fitted on Coimbra games = {self.scale} * exp(-{self.rate} * "
                f"loss) {'-' if self.offset < 0 else '+'} "
                f"{abs(self.offset)}, clamped to 0..100, per decision, the loss counted less {NOISE_SE:g} standard "
                f"error; a player's is the mean over their decisions, each weighted by its stake (the best option's "
                f"winning chances less the worst's, at least {STAKE_FLOOR:g})")


ACCURACY: Final = AccuracyFormula(200.0, 0.06, -100.0)
"""The accuracy formula: its constants fitted by ``scripts/fit_accuracy.py`` on the games of ``bench/calibration.py
--full --games 1`` (``docs/analysis.md``, "Accuracy")."""

ACCURACY_FORMULA: Final = ACCURACY.describe()
"""The accuracy formula in words, as an analysis's notes give it."""


def grade(loss: float) -> str:
    """The grade of a decision that lost ``loss`` points of winning chances against the best option (below 0: the
    option played beat every rival, best)."""
    return next((name for threshold, name in THRESHOLDS if loss >= threshold), "best")


def certain(loss: float, se: float) -> bool:
    """The best option is ahead by at least two standard errors of the difference."""
    return loss > 0 and loss >= CERTAIN_SE * se


def interval(loss: float, se: float) -> tuple[float, float]:
    """The 95 % interval of a signed loss, in percentage points, within -100..100: drawn around the difference
    measured, not around 0, so an option played that beats every rival has an interval at or below 0 (unless the
    difference is within noise of 0), never one reaching into grades its playouts rule out."""
    return max(-100.0, loss - Z95 * se), min(100.0, loss + Z95 * se)


def reach(loss: float, se: float) -> tuple[str, ...]:
    """The grades the signed loss's 95 % interval spans, mildest first: more than one where the loss lies near a grade's
    edge, so that another seed, or more playouts, could grade the decision on the other side of it."""
    low, high = interval(loss, se)
    return GRADES[GRADES.index(grade(low)):GRADES.index(grade(high)) + 1]


def accuracy(loss: float) -> float:
    """The accuracy of one decision that lost ``loss`` points of winning chances (``ACCURACY``)."""
    return ACCURACY(loss)


def counted_loss(loss: float, se: float) -> float:
    """The loss a decision's accuracy counts: the loss measured less ``NOISE_SE`` standard errors, at least 0. Loss is
    the best rival's lead, at least 0, so at a few hundred playouts the noise of a decision as good as the best reads
    as a loss of a few points; less one standard error, a best move measured on few playouts no longer looks like an
    inaccuracy, while a real loss of many standard errors still counts nearly whole."""
    return max(0.0, loss - NOISE_SE * se)


def stake(wins: Sequence[float]) -> float:
    """What a decision could lose at most, in points: the best option's winning chances (``wins``: each option's,
    0..1) less the worst's."""
    return 100 * (max(wins) - min(wins)) if wins else 0.0
