"""What a catalog must hold beyond the shape of each field: how its fields and sections fit together.

``catalog.schema`` checks every section on its own; the checks here relate them: tiers
that cover the influence track without gap or overlap, a connected map, piles big enough
for the rows and start groups, symbols that some card prints, provenance for each field,
ids and names unique within their kind. Each check runs on the sections it reads once
they are valid, so every problem found is reported, and none is a consequence of another.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from coimbra_events.catalog.model import CITIES, DICE_PER_PLAYER, MAX_PLAYERS, START_SPACES, CatalogProblem
from coimbra_events.catalog.assembly import DISCS_DEFAULT
from coimbra_events.catalog.schema import ENTRY_LISTS, place
from coimbra_events.catalog.schema_fields import describe, int_expected, is_id, names
from coimbra_events.catalog.effect_kinds import PILES, TRACKS

Loc = tuple[str | int, ...]
Data = Mapping[str, Any]

ENTRY_NAMES: Mapping[tuple[str, ...], str] = {
    ("favor_tiles",): "favor tile",
    ("characters",): "character card",
    ("monasteries",): "monastery",
    ("voyages",): "voyage",
    ("scoring_tiles",): "scoring tile",
    ("map", "spaces"): "map space",
}
"""Kinds of component people name when they type (names unique within each)."""


class Checks:
    """The checks of one catalog: its data, and the sections that passed the schema."""

    def __init__(self, data: Data, valid: set[str]) -> None:
        self.data, self.valid = data, valid

    def problem(self, loc: Loc, expected: str, got: str, at: Loc | None = None) -> CatalogProblem:
        """A problem of the value at ``loc``, named at ``at`` (default: ``loc``)."""
        return CatalogProblem(place(self.data, loc if at is None else at), expected, got, loc)

    def same_as(self, loc: Loc, expected: str, got: str, other: Loc, other_where: str) -> CatalogProblem:
        """A problem of the value at ``loc`` that repeats the one at ``other`` (``got`` names it as ``other_where``)."""
        return CatalogProblem(place(self.data, loc), expected, got, loc, other, other_where)

    def section(self, name: str) -> Any:
        """A section's data (the default of an optional section left out)."""
        return self.data.get(name, DISCS_DEFAULT if name == "discs" else None)

    def run(self) -> Iterator[CatalogProblem]:
        """Every problem of every check whose sections are valid, in catalog order."""
        yield from unique_ids(self)
        yield from unique_names(self)
        yield from provenance_coverage(self)
        for needs, check in CHECKS:
            if set(needs) <= self.valid:
                yield from check(self)

    def players(self) -> range:
        return range(self.data["players"]["min"], self.data["players"]["max"] + 1)


# ------------------------------------------------------------------ ids, names, provenance


def unique_ids(c: Checks) -> Iterator[CatalogProblem]:
    """Ids unique within each list of entries (map spaces included)."""
    for path in ENTRY_LISTS:
        first: dict[str, int] = {}
        for i, entry in enumerate(_entries(c.data, path)):
            entry_id = entry.get("id") if isinstance(entry, dict) else None
            if not is_id(entry_id):
                continue
            if entry_id in first:
                other = f"{'.'.join(path)}[{first[entry_id]}]"
                yield c.same_as((*path, i, "id"), "a unique id", f"a duplicate of {other}", (*path, first[entry_id]), other)
            else:
                first[entry_id] = i


def unique_names(c: Checks) -> Iterator[CatalogProblem]:
    """Names unique within each kind of component (whatever their case and spacing), so a
    name typed at the table names one component."""
    for section, kind in ENTRY_NAMES.items():
        first: dict[str, int] = {}
        for i, entry in enumerate(_entries(c.data, section)):
            name = entry.get("name") if isinstance(entry, dict) else None
            if not isinstance(name, str) or not name.strip():
                continue
            key = " ".join(name.casefold().split())
            if key in first:
                other = place(c.data, (*section, first[key]))
                yield c.same_as((*section, i, "name"), f"a name no other {kind} has", f"{name!r}, the name of {other}",
                                (*section, first[key]), other)
            else:
                first[key] = i


def _entries(data: Data, path: Sequence[str]) -> list[Any]:
    target: Any = data
    for key in path:
        target = target.get(key) if isinstance(target, dict) else None
    return target if isinstance(target, list) else []


def provenance_coverage(c: Checks) -> Iterator[CatalogProblem]:
    """A provenance object names each other field of its entry or section, and nothing else."""
    for loc, obj in _with_provenance(c):
        given = obj["provenance"]
        if not isinstance(given, dict):
            continue
        fields = [k for k in obj if k != "provenance"]
        unknown = [k for k in given if k not in fields]
        missing = [k for k in fields if k not in given]
        for key in unknown:
            yield c.problem((*loc, "provenance"), f"only the keys {names(fields)}", f"the unknown key {describe(key)}")
        for key in missing:
            yield c.problem((*loc, "provenance", key), f"a key {key!r}", "none", (*loc, "provenance"))


def _with_provenance(c: Checks) -> Iterator[tuple[Loc, dict[str, Any]]]:
    """(place, object) of every valid section and entry that carries a provenance."""
    for name in (key for key in c.data if key in c.valid):
        value = c.data[name]
        if isinstance(value, dict) and "provenance" in value:
            yield (name,), value
        if isinstance(value, list):
            yield from (((name, i), e) for i, e in enumerate(value) if isinstance(e, dict) and "provenance" in e)


# ------------------------------------------------------------------ sections


def players_range(c: Checks) -> Iterator[CatalogProblem]:
    low, high = c.data["players"]["min"], c.data["players"]["max"]
    if high < low:
        yield c.problem(("players", "max"), int_expected(low, MAX_PLAYERS), describe(high))


def removed_player_keys(c: Checks) -> Iterator[CatalogProblem]:
    """Dice are removed only for player counts the catalog is for."""
    yield from _player_keys(c, ("dice", "removed"), c.data["dice"]["removed"], ())


def token_player_keys(c: Checks) -> Iterator[CatalogProblem]:
    """Die tokens are laid out only for player counts the catalog is for."""
    yield from _player_keys(c, ("die_tokens",), c.data["die_tokens"], ("provenance",))


def _player_keys(c: Checks, loc: Loc, keys: Mapping[str, Any], others: tuple[str, ...]) -> Iterator[CatalogProblem]:
    allowed = [str(n) for n in c.players()]
    for key in keys:
        if key not in allowed and key not in others:
            yield c.problem(loc, f"only the keys {names([*allowed, *others])}", f"the unknown key {describe(key)}")


def dice_left(c: Checks) -> Iterator[CatalogProblem]:
    """No more dice of a colour removed than the pool holds, and enough left for every player."""
    pool, removed = c.data["dice"]["pool"], c.data["dice"]["removed"]
    for n in c.players():
        taken = removed.get(str(n), {})
        too_many = [color for color, k in taken.items() if k > pool[color]]
        for color in too_many:
            yield c.problem(("dice", "removed", str(n), color), int_expected(0, pool[color]), describe(taken[color]))
        left = sum(pool.values()) - sum(taken.values())
        if not too_many and left < DICE_PER_PLAYER * n:
            loc: Loc = ("dice", "removed", str(n)) if str(n) in removed else ("dice", "pool")
            yield c.problem(loc, f"at least {DICE_PER_PLAYER * n} dice left for {n} players", f"{left}")


def start_within_limits(c: Checks) -> Iterator[CatalogProblem]:
    for key in ("coins", "guards"):
        start, limit = c.data["start_resources"][key], c.data["limits"][key]
        if start > limit:
            yield c.problem(("start_resources", key), f"at most {limit} (limits.{key})", f"{start}")


def income_tiers(c: Checks) -> Iterator[CatalogProblem]:
    """Tiers in order, covering ``0..limits.influence`` with no gap and no overlap."""
    top = c.data["limits"]["influence"]
    tiers = c.data["income"]["tiers"]
    previous: tuple[int, int] | None = None
    clean = True
    for i, tier in enumerate(tiers):
        low = 0 if previous is None else previous[1] + 1
        if low > top:
            yield c.problem(("income", "tiers", i), f"no tier after space {top} (limits.influence)", "another tier")
            return
        if tier["from"] != low:
            after = "the first tier starts at 0" if previous is None else f"right after tier {previous[0]}-{previous[1]}"
            gap = " (a gap)" if tier["from"] > low else " (an overlap)"
            yield c.problem(("income", "tiers", i, "from"), f"{low} ({after})", describe(tier["from"]) + gap)
            clean = False
        if not low <= tier["to"] <= top:
            yield c.problem(("income", "tiers", i, "to"), int_expected(low, top), describe(tier["to"]))
            clean = False
        previous = (tier["from"], tier["to"])
    if clean and previous is not None and previous[1] != top:
        yield c.problem(("income", "tiers"), f"tiers covering 0-{top} (limits.influence)", f"the last tier ending at {previous[1]}")


def flag_count(c: Checks) -> Iterator[CatalogProblem]:
    values, flags = c.data["flag_crowns"]["values"], c.data["players"]["max"]
    if len(values) != flags:
        yield c.problem(("flag_crowns", "values"), f"a list of exactly {flags} items (one per flag)", describe(values))


def voyage_costs(c: Checks) -> Iterator[CatalogProblem]:
    for i, space in enumerate(c.data["voyage_spaces"]):
        limit = c.data["limits"][space["resource"]]
        if space["cost"] > limit:
            yield c.problem(("voyage_spaces", i, "cost"), int_expected(0, limit), describe(space["cost"]))


def pile_sizes(c: Checks) -> Iterator[CatalogProblem]:
    """Pile I holds a start group for every player; piles II and III fill whole rounds of rows."""
    counts = Counter(card["pile"] for card in c.data["characters"])
    group, rows, players = (
        c.data["start_groups"]["cards_per_group"], c.data["rows"]["cards_per_row"], c.data["players"]["max"],
    )  # fmt: skip
    if counts["I"] < group * players:
        yield c.problem(
            ("characters",),
            f"at least {group * players} pile I cards ({group} per start group x {players} players)",
            f"{counts['I']}",
        )
    per_round = len(CITIES) * rows
    for pile in ("II", "III"):
        if counts[pile] == 0 or counts[pile] % per_round:
            yield c.problem(
                ("characters",),
                f"a positive multiple of {per_round} pile {pile} cards ({len(CITIES)} rows of {rows} per round)",
                f"{counts[pile]}",
            )


def voyage_count(c: Checks) -> Iterator[CatalogProblem]:
    voyages, spaces = c.data["voyages"], c.data["voyage_spaces"]
    if len(voyages) < len(spaces):
        yield c.problem(("voyages",), f"at least {len(spaces)} voyages (one per voyage space)", f"{len(voyages)}")


def scoring_tile_count(c: Checks) -> Iterator[CatalogProblem]:
    tiles = c.data["scoring_tiles"]
    if len(tiles) < len(TRACKS):
        yield c.problem(("scoring_tiles",), f"at least {len(TRACKS)} tiles (one per track)", f"{len(tiles)}")


def symbols_printed(c: Checks) -> Iterator[CatalogProblem]:
    """Every symbol a set counts is printed on some character card."""
    printed = sorted({s for card in c.data["characters"] for s in card["symbols"]})
    shown = ", ".join(printed) if printed else "none printed"
    for section in ("favor_tiles", "characters", "monasteries", "voyages"):
        if section not in c.valid:
            continue
        for loc, symbol in _symbol_refs(c.data[section], (section,)):
            if symbol not in printed:
                yield c.problem(loc, f"a symbol printed on some character card ({shown})", repr(symbol))


def _symbol_refs(value: Any, loc: Loc) -> Iterator[tuple[Loc, str]]:
    """(place, symbol) of every symbol a ``points_per_symbol_set`` effect names, anywhere in ``value``."""
    if isinstance(value, dict):
        if value.get("kind") == "points_per_symbol_set":
            yield from (((*loc, "symbols", i), s) for i, s in enumerate(value["symbols"]))
        for key, child in value.items():
            if key != "symbols":
                yield from _symbol_refs(child, (*loc, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _symbol_refs(child, (*loc, i))


# ------------------------------------------------------------------ the map


def map_spaces(c: Checks) -> Iterator[CatalogProblem]:
    """Exactly the start spaces the rules have; a pile on each monastery space and on no other."""
    spaces = c.data["map"]["spaces"]
    starts = [s for s in spaces if s["kind"] == "start"]
    if len(starts) != START_SPACES:
        yield c.problem(("map", "spaces"), f"exactly {START_SPACES} start spaces", f"{len(starts)}")
    for i, space in enumerate(spaces):
        if space["kind"] == "monastery" and "pile" not in space:
            yield c.problem(("map", "spaces", i, "pile"), "a key 'pile' (a monastery space names its pile)", "none", ("map", "spaces", i))
        if space["kind"] != "monastery" and "pile" in space:
            yield c.problem(("map", "spaces", i, "pile"), "no pile (only monastery spaces have one)", describe(space["pile"]))


def map_edges(c: Checks) -> Iterator[CatalogProblem]:
    """Edges join two different spaces of the map, each pair once, and the map is connected."""
    spaces = [s["id"] for s in c.data["map"]["spaces"]]
    if len(set(spaces)) != len(spaces):
        return  # duplicate space ids are reported by unique_ids; edges cannot be read against them
    adjacent: dict[str, set[str]] = {s: set() for s in spaces}
    first: dict[frozenset[str], int] = {}
    clean = True
    for i, edge in enumerate(c.data["map"]["edges"]):
        unknown = [j for j, s in enumerate(edge) if not isinstance(s, str) or s not in adjacent]
        for j in unknown:
            yield c.problem(("map", "edges", i, j), "the id of a space in map.spaces", describe(edge[j]))
        if unknown:
            clean = False
            continue
        a, b = edge
        key = frozenset((a, b))
        if a == b:
            yield c.problem(("map", "edges", i), "two different spaces", f"{a!r} twice")
            clean = False
        elif key in first:
            yield c.problem(("map", "edges", i), "each edge once", f"a duplicate of map.edges[{first[key]}]")
            clean = False
        else:
            first[key] = i
            adjacent[a].add(b)
            adjacent[b].add(a)
    if clean:
        yield from _connected(c, adjacent)


def _connected(c: Checks, adjacent: Mapping[str, set[str]]) -> Iterator[CatalogProblem]:
    start = next(iter(adjacent))
    seen, todo = {start}, [start]
    while todo:
        for n in adjacent[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    cut_off = [s for s in adjacent if s not in seen]
    if cut_off:
        shown = ", ".join(repr(s) for s in cut_off[:3]) + (", ..." if len(cut_off) > 3 else "")
        yield c.problem(("map", "edges"), "a connected map", f"{len(cut_off)} space(s) unreachable from {start!r}: {shown}")


def monastery_supply(c: Checks) -> Iterator[CatalogProblem]:
    """Enough monastery tiles of each pile for the map's spaces of that pile."""
    counts = Counter(m["pile"] for m in c.data["monasteries"])
    spaces = Counter(s.get("pile") for s in c.data["map"]["spaces"] if s["kind"] == "monastery")
    for pile in PILES:
        if counts[pile] < spaces[pile]:
            yield c.problem(
                ("monasteries",),
                f"at least {spaces[pile]} pile {pile} tiles (the map has {spaces[pile]} pile {pile} spaces)",
                f"{counts[pile]}",
            )


def disc_supply(c: Checks) -> Iterator[CatalogProblem]:
    """A disc for every voyage space and monastery space: a player marks each at most once."""
    voyages = len(c.data["voyage_spaces"])
    monasteries = sum(1 for s in c.data["map"]["spaces"] if s["kind"] == "monastery")
    supply = c.section("discs")["supply"]
    if supply < voyages + monasteries:
        yield c.problem(
            ("discs", "supply"),
            f"at least {voyages + monasteries} (a disc for each of the {voyages} voyage spaces "
            f"and {monasteries} monastery spaces)",
            f"{supply}",
        )


CHECKS: tuple[tuple[tuple[str, ...], Callable[[Checks], Iterator[CatalogProblem]]], ...] = (
    (("players",), players_range),
    (("players", "dice"), removed_player_keys),
    (("players", "die_tokens"), token_player_keys),
    (("players", "dice"), dice_left),
    (("start_resources", "limits"), start_within_limits),
    (("income", "limits"), income_tiers),
    (("flag_crowns", "players"), flag_count),
    (("voyage_spaces", "limits"), voyage_costs),
    (("characters", "rows", "start_groups", "players"), pile_sizes),
    (("monasteries", "map"), monastery_supply),
    (("voyages", "voyage_spaces"), voyage_count),
    (("scoring_tiles",), scoring_tile_count),
    (("characters",), symbols_printed),
    (("map",), map_spaces),
    (("map",), map_edges),
    (("discs", "voyage_spaces", "map"), disc_supply),
)
"""Each check with the sections it reads: it runs once they all passed the schema."""
