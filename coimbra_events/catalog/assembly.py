"""Building the frozen ``Catalog`` from a catalog document that passed every check.

Kept apart from the checks (``catalog.parsing``, on pydantic) because a catalog whose
content was already checked (a shipped one, listed in its folder's ``checked.sha256``,
or one checked when it was installed) is assembled without them: a command that only
reads the stand-in then starts without importing pydantic at all.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import orjson

from coimbra_events.catalog.model import (
    PRINTED,
    RULES_TEXT,
    SCHEMA,
    STAND_IN,
    Catalog,
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
from coimbra_events.catalog.effect_kinds import PILES, TRACKS, Effect
from coimbra_events.catalog.effect_text import from_json

SECTION_NAMES: tuple[str, ...] = (
    "players", "dice", "die_tokens", "start_resources", "limits", "income", "flag_crowns", "crown_tokens",
    "alternative_action", "rows", "start_groups", "favor_tiles", "characters", "monasteries", "voyage_spaces",
    "voyages", "scoring_tiles", "final_scoring", "map", "discs",
)  # fmt: skip
"""Every section of a catalog by its key, in file order (``catalog.schema.SECTIONS`` checks each)."""

DISCS_DEFAULT: Mapping[str, Any] = {"supply": 20, "provenance": RULES_TEXT}
"""The optional ``discs`` section when a catalog leaves it out: 20 discs in each player's
supply (rules text 000, Setup 7: 25 discs, 4 on the influence tracks, 1 on the scoring
track). Schema 1 catalogs written before the section existed, the stand-in among them,
keep their content hash."""

OPTIONAL_SECTIONS: Mapping[str, Mapping[str, Any]] = {"discs": DISCS_DEFAULT}


def content_hash(data: Any) -> str:
    """A catalog's identity: the sha256 of its canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()


def assemble(data: Mapping[str, Any], sha256: str | None = None) -> Catalog:
    """The frozen catalog of a document that passed every check (``sha256``: its content hash, if known)."""
    limits, scoring = data["limits"], data["final_scoring"]
    die_colors = {f"{c}-{k}": c for c, count in data["dice"]["pool"].items() for k in range(1, count + 1)}
    return Catalog(
        id=data["id"], title=data["title"], schema=SCHEMA,
        sha256=sha256 or content_hash(data), data=orjson.loads(orjson.dumps(data)),
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
    spaces = {s["id"]: MapSpace(s["id"], s["kind"], s.get("pile"), s.get("name", "")) for s in section["spaces"]}
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
    for name in SECTION_NAMES:
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
