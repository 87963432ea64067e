"""An analysis as a move list's annotations (``coimbra export --format text --analysis``): each graded decision
marked as PGN marks a chess move, with the loss and the best option as a comment.

``?!`` an inaccuracy, ``?`` a mistake, ``??`` a blunder; ``!`` a best move that was hard to find (``hard_to_find``).
Best and good decisions, and those with one option, are left unmarked.
"""

from __future__ import annotations

from typing import Any, Final, Mapping

MARKS: Final = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""PGN's marks for the grades that lose winning chances."""

HARD_LOSS: Final = 10.0
"""A best move was hard to find where every other option loses at least this many points (a mistake or worse)."""

HARD_OPTIONS: Final = 3
"""... and the player had at least this many options (with two, a coin would find it one time in two)."""


def hard_to_find(decision: Mapping[str, Any]) -> bool:
    """The option played is the best of the list, among at least ``HARD_OPTIONS`` options, and every other option
    measured loses at least ``HARD_LOSS`` points: a player picking among them without seeing why would most
    likely have made a mistake or a blunder (chess's "only move")."""
    options = decision["options"]
    return (decision["grade"] == "best" and options[0]["played"] and decision["options_total"] >= HARD_OPTIONS
            and all(o["loss"] >= HARD_LOSS for o in options[1:]))


def annotation(decision: Mapping[str, Any]) -> tuple[str, str] | None:
    """A decision's mark and comment, or ``None`` where it gets none."""
    if decision["forced"]:
        return None
    if decision["grade"] in MARKS:
        return MARKS[decision["grade"]], (f"{decision['grade'].capitalize()}: {decision['loss']:.1f} points of winning "
                                          f"chances lost. Best: {decision['best']}")
    if hard_to_find(decision):
        lowest = min(o["loss"] for o in decision["options"][1:])
        return "!", f"Hard to find: every other option loses {lowest:.1f} points of winning chances or more."
    return None


def annotations(report: Mapping[str, Any]) -> dict[int, tuple[str, str]]:
    """Every decision's mark and comment that has one, by sequence number (what ``movelist.dumps`` writes)."""
    found = {d["seq"]: annotation(d) for d in report["decisions"]}
    return {seq: said for seq, said in found.items() if said is not None}
