"""Comparing two games or two lines of one game.

``common_prefix`` and ``first_divergence`` say how far two event lists agree and
where they part; ``state_differences`` compares two boards (every difference per
player and on the board), and ``table_moves`` turns those differences into the
physical moves that make table A look like table B.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from coimbra_events.events import GameEvent
from coimbra_events.state import GameState
from projections.board import board_view


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

_HELD = {
    "cards": ("give back character card {x}", "take character card {x}"),
    "start_cards": ("give back start card {x}", "take start card {x}"),
    "favor_tiles": ("return favor tile {x} to the castle", "take favor tile {x} from the castle"),
    "crown_tokens": ("give back the crown token of {x}", "take the crown token of {x}"),
    "monasteries": ("take the disc off monastery {x}", "put a disc on monastery {x}"),
    "voyages": ("take the disc off voyage {x}", "put a disc on voyage {x}"),
    "dice_on_shutter": ("take die {x} from behind the shutter", "put die {x} behind the shutter"),
}
"""Things a player holds or marks: how to take one away, and how to add one."""

_DERIVED = {"crowns_collected", "discs_in_supply", "income_left"}
"""Player values that follow from the others (or are bookkeeping): no move of their own."""


def _gone_new(a: Any, b: Any) -> tuple[list[Any], list[Any]]:
    a, b = a or [], b or []
    return [x for x in a if x not in b], [x for x in b if x not in a]


def _player_moves(who: str, what: list[str], d: Difference) -> list[str]:
    if what[0] in _MARKERS:
        return [f"{who}: move the {_MARKERS[what[0]]} from {_short(d.a)} to {_short(d.b)}"]
    if what[0] == "influence":
        return [f"{who}: move the disc on the {what[1]} influence track from {d.a} to {d.b}"]
    if what[0] in _HELD:
        take_away, add = _HELD[what[0]]
        gone, new = _gone_new(d.a, d.b)
        return [f"{who}: {take_away.format(x=x)}" for x in gone] + [f"{who}: {add.format(x=x)}" for x in new]
    return []


def _board_moves(parts: list[str], d: Difference) -> list[str]:
    where = parts[0]
    if where == "dice_area":
        die = parts[1]
        if d.a is None:
            return [f"dice area: put die {die} there, showing {d.b}"]
        if d.b is None:
            return [f"dice area: take die {die} away"]
        return [f"dice area: turn die {die} from {d.a} to {d.b}"]
    if where == "locations":
        return [f"{parts[1]}: the dice, left to right, become {_short(d.b)} (were {_short(d.a)})"]
    if where == "character_rows":
        gone, new = _gone_new(d.a, d.b)
        return [f"beside the {parts[1]} city: take away card {x}" for x in gone] + \
               [f"beside the {parts[1]} city: lay out card {x}" for x in new]
    if where == "monasteries" and parts[-1] == "id":
        return [f"map space {parts[1]}: {_replace('monastery', d)}"]
    if where == "voyages" and parts[-1] == "id":
        return [f"voyage space {parts[1]}: {_replace('voyage card', d)}"]
    if where == "scoring_tiles":
        return [f"above the {parts[1]} track: {_replace('scoring tile', d)}"]
    if where == "start_groups" and parts[-1] == "cards":
        return [f"start group {parts[1]}: the cards become {_short(d.b)} (were {_short(d.a)})"]
    if where in ("deck", "discard"):
        return [f"{'draw deck' if where == 'deck' else 'discard pile'}: {d.b} cards (was {d.a})"]
    return []


def _replace(thing: str, d: Difference) -> str:
    if d.a is None:
        return f"lay {thing} {d.b}"
    if d.b is None:
        return f"take away {thing} {d.a}"
    return f"replace {thing} {d.a} with {d.b}"


def _moves(d: Difference) -> list[str]:
    """The physical moves for one difference, in the words of the table; none if it is not a thing on the table.

    A disc on a monastery or a voyage, a favor tile and a start group taken
    appear both on the board and on the player's side; only the player's side
    gives a move, so each thing is moved once. Round, phase, who is due, player
    order (the lions are moved per player) and derived counts give none.
    """
    parts = d.path.split(".")
    if parts[0] == "players" and len(parts) >= 3:
        return [] if parts[2] in _DERIVED else _player_moves(parts[1], parts[2:], d)
    return _board_moves(parts, d)


def _short(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(_short(v) for v in value) or "nothing"
    return str(value)


def table_moves(differences: Sequence[Difference]) -> list[str]:
    """The physical moves that turn table A into table B, one per line."""
    return [m for d in differences for m in _moves(d)]


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
