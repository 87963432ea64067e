"""The luck part of an analysis's read model: each random outcome's luck with its 95 % interval, and each player's
luck over the game with its interval, their result and their luck-adjusted result (GNU Backgammon's: the result less
the luck; ``coimbra_events/analysis/luck.py`` says how luck and its errors are measured)."""

from __future__ import annotations

from typing import Any, Callable

from coimbra_events.analysis.engine import Analysis, LineEntry
from coimbra_events.analysis.luck import Z95
from coimbra_events.analysis.playouts import outcome
from coimbra_events.rules.fast import Fold


def luck_entries(result: Analysis, entries: list[LineEntry], words: Callable[[LineEntry], str]) -> list[dict[str, Any]]:
    """Every random outcome: its luck per player (points) with its 95 % interval, what the luck sums to (``shared``:
    the points by which it raised the expected number of players sharing first place), and P(first) after it."""
    players = result.players
    return [{"seq": u.seq, "index": u.index, "round": entries[u.index].before.round, "kind": u.kind,
             "outcome": words(entries[u.index]), "luck": {name: round(v, 1) for name, v in zip(players, u.luck)},
             "interval": {name: _interval(v, se) for name, v, se in zip(players, u.luck, u.se)},
             "shared": round(u.shared, 2), "win_after": {name: round(v, 4) for name, v in zip(players, u.win_after)}}
            for u in result.luck]


def luck_summary(result: Analysis, entries: list[LineEntry]) -> dict[str, dict[str, Any]]:
    """Per player: their luck over the game (points) with its 95 % interval; their result (100 for a first place,
    shared or not, else 0; ``None`` while the game is not over) and the luck-adjusted result, the result less the luck,
    with the luck's interval (the result itself is no estimate)."""
    firsts = first_places(entries)
    out = {}
    for p, name in enumerate(result.players):
        luck, se = result.luck_total(p)
        got = None if firsts is None else 100.0 * firsts[p]
        out[name] = {"luck": round(luck, 1) + 0.0, "luck_interval": _interval(luck, se), "result": got,
                     "luck_adjusted": None if got is None else round(got - luck, 1) + 0.0,
                     "luck_adjusted_interval": None if got is None else _interval(got - luck, se)}
    return out


def first_places(entries: list[LineEntry]) -> tuple[bool, ...] | None:
    """Who finished first at the end of the line of play (a first place still shared after the tie break counts for
    each), or ``None`` where the game is not over."""
    if not entries:
        return None
    last = entries[-1]
    final = Fold().apply(last.before, last.event)
    return outcome(final).first if final.over else None


def _interval(points: float, se: float) -> list[float]:
    return [round(points - Z95 * se, 1) + 0.0, round(points + Z95 * se, 1) + 0.0]
