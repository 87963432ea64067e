"""Reading a catalog's JSON into its model, with every problem found at once.

``catalog_schema`` (pydantic) checks each section's shape, ``catalog_checks`` how the
sections fit together. This module runs both, turns pydantic's errors into the loader's
problems (place, what was expected, what was found), and builds the frozen ``Catalog``
the rules read from a document that passed. Only a wrong ``format`` or ``schema`` stops
at once: a file of another kind or version has nothing else worth checking.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from typing import Any

import orjson
from pydantic import ValidationError

from coimbra_events.catalog_checks import Checks
from coimbra_events.catalog_model import (
    FORMAT,
    PRINTED,
    RULES_TEXT,
    SCHEMA,
    STAND_IN,
    Catalog,
    CatalogError,
    CatalogProblem,
    CharacterCard,
    FavorTile,
    IncomeTier,
    MapSpace,
    Monastery,
    PilgrimMap,
    ScoringTile,
    Voyage,
    VoyageSpace,
)
from coimbra_events.catalog_schema import OPTIONAL_SECTIONS, PROBLEM, SECTIONS, adapter, describe, place
from coimbra_events.effect_kinds import PILES, TRACKS, Effect
from coimbra_events.effect_text import from_json

_DEFAULT_SOURCE = "<catalog>"


def parse_catalog(data: Any, source: str = _DEFAULT_SOURCE) -> Catalog:
    """Validate parsed JSON ``data`` and build the :class:`Catalog`.

    Raises :class:`CatalogError` with every problem found; its message names ``source``
    unless that is the default ``"<catalog>"``.
    """
    problems = find_problems(data)
    if problems:
        raise CatalogError.of(problems, None if source == _DEFAULT_SOURCE else source)
    return _build(data)


def find_problems(data: Any) -> tuple[CatalogProblem, ...]:
    """Every problem of a catalog's JSON (none for a valid catalog)."""
    header = _header_problem(data)
    if header is not None:
        return (header,)
    problems = list(_schema_problems(data, ""))
    valid = set()
    for name in SECTIONS:
        if name not in data:
            valid.update((name,) if name in OPTIONAL_SECTIONS else ())
            continue
        found = list(_schema_problems(data, name))
        problems.extend(found)
        if not found:
            valid.add(name)
    problems.extend(Checks(data, valid).run())
    order = {key: i for i, key in enumerate(data)}  # in catalog order, section by section
    return tuple(sorted(problems, key=lambda p: order.get(p.loc[0], -1) if p.loc else -1))


def _header_problem(data: Any) -> CatalogProblem | None:
    """What makes ``data`` not a catalog this version reads at all."""
    if not isinstance(data, dict):
        return CatalogProblem("(top level)", "a JSON object", describe(data))
    if data.get("format") != FORMAT:
        return CatalogProblem("format", repr(FORMAT), describe(data["format"]) if "format" in data else "none", ("format",))
    schema = data.get("schema")
    if type(schema) is not int or schema != SCHEMA:
        got = describe(schema) if "schema" in data else "none"
        return CatalogProblem("schema", f"{SCHEMA} (the schema this version reads)", got, ("schema",))
    return None


def _schema_problems(data: Mapping[str, Any], section: str) -> Iterator[CatalogProblem]:
    """The problems pydantic finds in one section (``""``: the top level's own keys)."""
    try:
        adapter(section).validate_python(data if section == "" else data[section])
    except ValidationError as error:
        prefix = (section,) if section else ()
        for e in error.errors():
            yield _problem(data, prefix, e)


def _problem(data: Any, prefix: tuple[str, ...], error: Any) -> CatalogProblem:
    """A pydantic error as the loader says it."""
    loc = tuple(k for k in (*prefix, *error["loc"]) if not (isinstance(k, str) and k.startswith("<")))
    if error["type"] == PROBLEM:
        context = error["ctx"]
        loc = (*loc, *context.get("at", ()))
        return CatalogProblem(place(data, loc), context["expected"], context.get("got", describe(error["input"])), loc)
    if error["type"] == "missing":  # named at the object, located at the key (a sheet's column)
        return CatalogProblem(place(data, loc[:-1]), f"a key {loc[-1]!r}", "none", loc)
    return CatalogProblem(place(data, loc), error["msg"], describe(error["input"]), loc)


# ------------------------------------------------------------------ building the model


def _canonical(data: Any) -> bytes:
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)


def _build(data: Mapping[str, Any]) -> Catalog:
    """The frozen catalog of a document that passed every check."""
    limits, scoring = data["limits"], data["final_scoring"]
    die_colors = {f"{c}-{k}": c for c, count in data["dice"]["pool"].items() for k in range(1, count + 1)}
    return Catalog(
        id=data["id"], title=data["title"], schema=SCHEMA,
        sha256=hashlib.sha256(_canonical(data)).hexdigest(), data=orjson.loads(orjson.dumps(data)),
        min_players=data["players"]["min"], max_players=data["players"]["max"], die_colors=die_colors,
        start_coins=data["start_resources"]["coins"], start_guards=data["start_resources"]["guards"],
        max_coins=limits["coins"], max_guards=limits["guards"], max_influence=limits["influence"],
        income=tuple(_tier(t) for t in data["income"]["tiers"]), flag_crowns=tuple(data["flag_crowns"]["values"]),
        crown_token_crowns=data["crown_tokens"]["crowns"],
        alternative_coins=data["alternative_action"]["coins"], alternative_guards=data["alternative_action"]["guards"],
        cards_per_row=data["rows"]["cards_per_row"], cards_per_group=data["start_groups"]["cards_per_group"],
        favor_tiles={t["id"]: _favor_tile(t) for t in data["favor_tiles"]},
        characters={c["id"]: _character(c) for c in data["characters"]},
        monasteries={m["id"]: _monastery(m) for m in data["monasteries"]},
        voyage_spaces=tuple(VoyageSpace(s["resource"], s["cost"]) for s in data["voyage_spaces"]),
        voyages={v["id"]: Voyage(v["id"], v["name"], _effects(v["task"])) for v in data["voyages"]},
        scoring_tiles={t["id"]: ScoringTile(t["id"], t["name"], {s: tuple(p) for s, p in t["points"].items()})
                       for t in data["scoring_tiles"]},
        leftover_coins_per_point=scoring["leftover"]["coins_per_point"],
        leftover_guards_per_point=scoring["leftover"]["guards_per_point"],
        map=_map(data["map"]), provenance=_provenance(data),
        discs_in_supply=data.get("discs", OPTIONAL_SECTIONS["discs"])["supply"],
        dice_removed={int(n): dict(r) for n, r in data["dice"]["removed"].items()},
        die_tokens={int(n): {c: tuple(v) for c, v in cities.items()}
                    for n, cities in data["die_tokens"].items() if n != "provenance"},
        tie_break=scoring["tie_break"],
    )  # fmt: skip


def _tier(tier: Mapping[str, Any]) -> IncomeTier:
    return IncomeTier(tier["from"], tier["to"], {t: (tier[t][0], tier[t][1]) for t in TRACKS})


def _favor_tile(t: Mapping[str, Any]) -> FavorTile:
    return FavorTile(t["id"], t["name"], t["crowns"], _effects(t["effects"]))


def _character(c: Mapping[str, Any]) -> CharacterCard:
    return CharacterCard(
        c["id"], c["name"], c["pile"], c["category"], c["cost"], c["influence"],
        c["bonus"]["timing"], _effects(c["bonus"]["effects"]), tuple(c["symbols"]),
    )  # fmt: skip


def _monastery(m: Mapping[str, Any]) -> Monastery:
    return Monastery(m["id"], m["name"], m["pile"], m["reward"]["timing"], _effects(m["reward"]["effects"]))


def _effects(items: list[Any]) -> tuple[Effect, ...]:
    return tuple(from_json(e) for e in items)


def _map(section: Mapping[str, Any]) -> PilgrimMap:
    spaces = {s["id"]: MapSpace(s["id"], s["kind"], s.get("pile")) for s in section["spaces"]}
    adjacent: dict[str, set[str]] = {s: set() for s in spaces}
    for a, b in section["edges"]:
        adjacent[a].add(b)
        adjacent[b].add(a)
    starts = tuple(s for s, space in spaces.items() if space.kind == "start")
    by_pile = {p: tuple(s for s, space in spaces.items() if space.pile == p) for p in PILES}
    return PilgrimMap(spaces, {s: tuple(sorted(n)) for s, n in adjacent.items()}, starts, by_pile)


def _provenance(data: Mapping[str, Any]) -> dict[str, str]:
    """Every section's and entry's provenance, and each of its fields', by dotted path."""
    out: dict[str, str] = {}
    for name in SECTIONS:
        value = data.get(name, OPTIONAL_SECTIONS.get(name))
        if isinstance(value, dict) and "provenance" in value:
            _record(out, name, value)
        elif isinstance(value, list):
            for i, entry in enumerate(value):
                if "provenance" in entry:
                    _record(out, f"{name}.{entry.get('id', i)}", entry)
    return out


def _record(out: dict[str, str], path: str, entry: Mapping[str, Any]) -> None:
    given = entry["provenance"]
    fields = [k for k in entry if k != "provenance"]
    per_field = {f: given for f in fields} if isinstance(given, str) else dict(given)
    out[path] = given if isinstance(given, str) else overall(per_field.values())
    out.update({f"{path}.{f}": p for f, p in per_field.items()})


def overall(provenances: Any) -> str:
    """One provenance for values of several: ``stand-in`` as soon as one is, else ``printed``
    as soon as one is, else ``rules-text``."""
    given = set(provenances)
    return next((p for p in (STAND_IN, PRINTED) if p in given), RULES_TEXT)
