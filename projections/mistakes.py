"""A player's mistakes and blunders as puzzles: the table before the decision, the legal options, each one's grade.

lichess's "learn from your mistakes" over a game's analysis (``projections.analysis``): every decision graded
mistake or blunder becomes a puzzle. Its options are the legal options of the table as it was, said as the table
says them (``projections.options``: printed names, never ids), each with the value and the grade the analysis gave
it: the same figures the analysis shows, so a pick is graded by the playouts that graded the game, never again.
An option is matched to the analysis's by its words (``projections.words.entry_words``, as the analysis names it).
"""

from __future__ import annotations

from typing import Any

from coimbra_events.analysis.grades import grade
from coimbra_events.state import GameState
from projections.options import options
from projections.sections import sections
from projections.timeline import Timeline
from projections.words import entry_words

__all__ = ["LEARNED", "puzzles"]

LEARNED = ("mistake", "blunder")
"""The grades a puzzle is made of: a loss of 10 points of winning chances or more."""


def puzzles(report: dict[str, Any], line: Timeline, player: str | None = None) -> list[dict[str, Any]]:
    """Every mistake and blunder of the analysis ``report`` (of ``player`` alone, if given), in the order played, as
    a puzzle on the table ``line`` shows before it. A decision whose option played was not legal (accepted against
    the rules) is no puzzle: it was no choice among the legal options."""
    titles = sections(line)
    out = []
    for d in report["decisions"]:
        if d["grade"] not in LEARNED or (player is not None and d["player"] != player):
            continue
        before = line.states[d["seq"] - 1]
        choices = _choices(before, d)
        if before.pending is None or before.pending.actor != d["player"] or not any(c["played"] for c in choices):
            continue
        out.append({"seq": d["seq"], "player": d["player"], "kind": d["kind"], "grade": d["grade"], "loss": d["loss"],
                    "where": next(s.title for s in reversed(titles) if s.start <= d["seq"] - 1), "options": choices})
    return out


def _choices(before: GameState, decision: dict[str, Any]) -> list[dict[str, Any]]:
    """The legal options of the table before ``decision``, in the rules' order, each with the analysis's values; the
    option played keeps the decision's own grade (its loss is the one the grade was given for, unrounded)."""
    valued: dict[str, list[dict[str, Any]]] = {}
    for o in decision["options"]:
        valued.setdefault(o["option"], []).append(o)
    out = []
    for option in options(before):
        found = valued.get(entry_words(before, option.event))
        if not found:  # an option the analysis did not value: it is of another record
            continue
        value = found.pop(0)
        out.append({"words": option.words or option.text, "about": option.about, "win": value["win"],
                    "score": value["score"], "loss": value["loss"], "best": value["best"], "played": value["played"],
                    "grade": decision["grade"] if value["played"] else grade(value["loss"])})
    return out
