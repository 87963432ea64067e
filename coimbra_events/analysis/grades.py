"""Losses in winning chances turned into grades, as lichess grades chess moves, and its accuracy formula."""

from __future__ import annotations

import math
from typing import Final

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

ACCURACY_FORMULA: Final = ("lichess's accuracy = 103.1668 * exp(-0.04354 * loss) - 3.1669, clamped to 0..100, per decision; "
                           "a player's is the mean over their decisions")
"""Lichess's accuracy of a move from the winning chances it lost (in percentage points)."""


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
    """Lichess's accuracy of one decision (``ACCURACY_FORMULA``)."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))
