"""Comparing two games or two lines of one game.

``common_prefix`` and ``first_divergence`` say how far two event lists agree and
where they part; ``state_differences`` compares two boards (every difference per
player and on the board), and ``table_moves`` lists the physical moves that make
table A look like table B, each once, as ``Change``s (``projections.tabletop``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from coimbra_events.events import GameEvent
from coimbra_events.state import GameState
from projections.board import board_view
from projections.changes import Change
from projections.tabletop import differences, tabletop


@dataclass(frozen=True)
class StateDifference:
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


def _die(d: dict[str, Any]) -> str:
    return f"{d['die']}={d['value']}" + (f" ({d['owner']})" if d.get("owner") else "")


def _card(c: dict[str, Any]) -> str:
    return c["id"] + (" with crown token" if c.get("crown_token") else "")


def _comparable(view: dict[str, Any]) -> dict[str, Any]:
    """The board view keyed for comparison, so a difference names the one thing that differs.

    Players are keyed by name; monasteries by map space, voyages by voyage
    space, start groups by number, dice in the dice area by die; dice in a
    location and cards beside a city become short texts in their order. The
    legend (a lookup of catalog names) and each player's holdings (the same
things the player's lists hold, named) are left out.
    """
    out = {k: v for k, v in view.items() if k not in ("players", "legend")}
    out["dice_area"] = {d["die"]: "not rolled" if d["value"] is None else d["value"] for d in view["dice_area"]}
    out["locations"] = {loc: [_die(d) for d in dice] for loc, dice in view["locations"].items()}
    out["character_rows"] = {city: [_card(c) for c in row] for city, row in view["character_rows"].items()}
    out["favor_tiles"] = [t["id"] for t in view["favor_tiles"]]
    out["voyages"] = {str(v["space"]): {"id": v["id"], "investors": v["investors"]} for v in view["voyages"]}
    out["monasteries"] = {m["space"]: {"id": m["id"], "marked_by": m["marked_by"]} for m in view["monasteries"]}
    out["start_groups"] = {str(g["group"]): {"cards": g["cards"], "taken_by": g["taken_by"]} for g in view["start_groups"]}
    out["players"] = {p["name"]: {k: v for k, v in p.items() if k not in ("name", "holdings")} for p in view["players"]}
    return out


def _walk(a: Any, b: Any, path: str) -> Iterator[StateDifference]:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            yield from _walk(a.get(key), b.get(key), f"{path}.{key}" if path else str(key))
    elif a != b:
        yield StateDifference(path, a, b)


def state_differences(a: GameState, b: GameState) -> list[StateDifference]:
    """Every value that differs between two boards, players first."""
    va, vb = _comparable(board_view(a)), _comparable(board_view(b))
    diffs = list(_walk(va, vb, ""))
    return sorted(diffs, key=lambda d: (not d.path.startswith("players."), d.path))


def table_moves(a: GameState, b: GameState) -> list[Change]:
    """The physical moves that turn table A into table B: each thing moved once, each marker turned once."""
    return differences(tabletop(a), tabletop(b), a.catalog)


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
