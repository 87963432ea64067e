"""The reasons of an analysis, read from its decisions and its curve: where the game turned, and which kinds of
decision and which rounds lost the most (``projections.analysis`` puts them in the read model)."""

from __future__ import annotations

from typing import Any, Final, Sequence

TOP: Final = 3
"""How many options of a decision are shown as its top options, best first."""

TURNING_POINTS: Final = 5
"""How many of the largest swings of the curve are shown as the game's turning points."""


def turning_points(curve: Sequence[dict[str, Any]], decisions: Sequence[dict[str, Any]],
                   luck: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries that moved the winning chances most, largest first: each with what happened (the decision with
    its player and grade, or the random outcome), and how far it moved each player's chances (percentage points)
    from the point before it on the curve (the first entry has none before it, and is left out)."""
    said = {d["seq"]: d for d in decisions} | {u["seq"]: u for u in luck}
    steps = []
    for before, after in zip(curve, curve[1:]):
        swing = {name: round(100 * (after["win"][name] - before["win"][name]), 1) for name in after["win"]}
        steps.append((max(abs(v) for v in swing.values()), after, swing))
    steps.sort(key=lambda step: (-step[0], step[1]["seq"]))
    out = []
    for _, point, swing in steps[:TURNING_POINTS]:
        entry = said[point["seq"]]
        decided = "played" in entry
        out.append({"seq": point["seq"], "round": point["round"], "what": entry["played" if decided else "outcome"],
                    "player": entry["player"] if decided else None, "grade": entry["grade"] if decided else None,
                    "swing": swing})
    return out


def losses_by(decisions: Sequence[dict[str, Any]], players: Sequence[str], field: str) -> list[dict[str, Any]]:
    """The decisions with a choice grouped by ``field`` (``kind`` or ``round``), in its order: how many, the points
    of winning chances they lost in all, and each player's part of that sum."""
    groups: dict[Any, list[dict[str, Any]]] = {}
    for d in decisions:
        if not d["forced"]:
            groups.setdefault(d[field], []).append(d)
    return [{field: value, "decisions": len(mine), "loss": round(sum(d["loss"] for d in mine), 1),
             "players": {name: round(sum(d["loss"] for d in mine if d["player"] == name), 1) + 0.0 for name in players}}
            for value, mine in sorted(groups.items(), key=lambda group: group[0])]
