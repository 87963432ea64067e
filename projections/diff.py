"""Comparing two games or two lines of one game.

``diff_games`` finds the common prefix of two event lists and the first event
where they part, then compares the two boards at a chosen point (by default the
end of each line): every difference per player and on the board, and the
physical moves that turn table A into table B.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from coimbra_events.events import GameEvent
from projections.board import board_view
from coimbra_events.state import GameState


@dataclass(frozen=True)
class Difference:
    """One value that differs: where (a dotted path) and its value in A and in B."""

    path: str
    a: Any
    b: Any

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "a": self.a, "b": self.b}
        if isinstance(self.a, list) and isinstance(self.b, list):
            out["only_in_a"] = [x for x in self.a if x not in self.b]
            out["only_in_b"] = [x for x in self.b if x not in self.a]
        return out


def common_prefix(a: Sequence[GameEvent], b: Sequence[GameEvent]) -> int:
    """How many events the two lines share from the start."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _comparable(view: dict[str, Any]) -> dict[str, Any]:
    """The board view keyed for comparison: players by name, the rest as it is."""
    out = {k: v for k, v in view.items() if k != "players"}
    out["players"] = {p["name"]: {k: v for k, v in p.items() if k != "name"} for p in view["players"]}
    return out


def _walk(a: Any, b: Any, path: str) -> Iterator[Difference]:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            yield from _walk(a.get(key), b.get(key), f"{path}.{key}" if path else str(key))
    elif a != b:
        yield Difference(path, a, b)


def state_differences(a: GameState, b: GameState) -> list[Difference]:
    """Every value that differs between two boards, players first."""
    va, vb = _comparable(board_view(a)), _comparable(board_view(b))
    diffs = list(_walk(va, vb, ""))
    return sorted(diffs, key=lambda d: (not d.path.startswith("players."), d.path))


_MARKERS = {"coins": "coin marker", "guards": "guard marker", "points": "disc on the scoring track",
            "flag": "lion (player-order flag)", "pilgrim": "pilgrim"}


def _move(d: Difference) -> str | None:
    """A physical move for one difference, in the words of the table; ``None`` if it is not a thing on the table."""
    parts = d.path.split(".")
    if parts[0] == "players" and len(parts) >= 3:
        who, what = parts[1], parts[2]
        if what in _MARKERS:
            return f"{who}: move the {_MARKERS[what]} from {d.a} to {d.b}"
        if what == "influence":
            return f"{who}: move the disc on the {parts[3]} influence track from {d.a} to {d.b}"
        if isinstance(d.a, list) and isinstance(d.b, list):
            gone = [x for x in d.a if x not in d.b]
            new = [x for x in d.b if x not in d.a]
            label = what.replace("_", " ")
            steps = [f"{who}: remove {x} from {label}" for x in gone] + [f"{who}: add {x} to {label}" for x in new]
            return "; ".join(steps) or None
        return None
    if parts[0] in ("locations", "character_rows", "favor_tiles", "dice_area", "voyages", "monasteries"):
        return f"set {' '.join(parts).replace('_', ' ')} to match B: {_short(d.b)}"
    return None


def _short(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_short(v) for v in value) or "nothing"
    if isinstance(value, dict):
        for key in ("id", "die"):
            if key in value:
                return str(value[key]) + (f"={value['value']}" if "value" in value else "")
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def table_moves(differences: Sequence[Difference]) -> list[str]:
    """The physical moves that turn table A into table B."""
    return [m for m in (_move(d) for d in differences) if m]


def first_divergence(a: Sequence[GameEvent], b: Sequence[GameEvent], prefix: int) -> dict[str, Any] | None:
    """The first event where the lines part (either side may have ended)."""
    if prefix == len(a) == len(b):
        return None

    def side(events: Sequence[GameEvent]) -> dict[str, Any] | None:
        if prefix >= len(events):
            return None
        e = events[prefix]
        return {"type": e.TYPE, "actor": e.actor, "payload": e.payload()}

    return {"seq": prefix + 1, "a": side(a), "b": side(b)}
