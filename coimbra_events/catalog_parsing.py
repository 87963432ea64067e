"""Reading a catalog's JSON into its model, refusing a bad one precisely.

Every problem raises ``CatalogError`` with one line naming the place, what was
expected and what was found. One small function per section, on shared
``_expect_*`` helpers; effects are checked against ``effect_kinds.KINDS``.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

from coimbra_events.effect_kinds import (
    CONDITION_KEYS,
    END_GAME,
    KINDS,
    PILES,
    SPENDABLE,
    TRACKS,
    Effect,
    EffectKind,
    Param,
)
from coimbra_events.catalog_model import (
    CARD_TIMINGS,
    CITIES,
    Catalog,
    CatalogError,
    CharacterCard,
    DICE_PER_PLAYER,
    DIE_COLORS,
    FAVOR_CONTEXTS,
    FORMAT,
    FavorTile,
    IncomeTier,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MONASTERY_TIMINGS,
    MapSpace,
    Monastery,
    NO_BONUS,
    PROVENANCES,
    PilgrimMap,
    RULES_TEXT,
    SCHEMA,
    SCORING_SIDES,
    SPACE_KINDS,
    STAND_IN,
    START_SPACES,
    ScoringTile,
    TIE_BREAKS,
    TIMING_CONTEXTS,
    Voyage,
    VoyageSpace,
)

_DEFAULT_SOURCE = "<catalog>"
_TOP = "(top level)"
_MISSING = object()
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_CATALOG_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_ID_RULE = "an id of letters, digits, '-' and '_' (starting with a letter or digit)"
_TOP_REQUIRED: tuple[str, ...] = (
    "format", "schema", "id", "title", "players", "dice", "die_tokens", "start_resources",
    "limits", "income", "flag_crowns", "crown_tokens", "alternative_action", "rows",
    "start_groups", "favor_tiles", "characters", "monasteries", "voyage_spaces", "voyages",
    "scoring_tiles", "final_scoring", "map",
)  # fmt: skip
_TOP_OPTIONAL: tuple[str, ...] = ("notes",)

T = TypeVar("T")


# ------------------------------------------------------------------ generic helpers


def _describe(value: Any) -> str:
    """A short one-line rendering of a JSON value for error messages."""
    if value is _MISSING:
        return "none"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, list):
        return f"a list of {len(value)} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def _names(items: Sequence[Any]) -> str:
    return ", ".join(repr(i) for i in items)


def _at(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return key if where == _TOP else f"{where}.{key}"


def _expect_object(
    value: Any, where: str, required: Sequence[str] = (), optional: Sequence[str] = ()
) -> dict[str, Any]:
    """An object with exactly the ``required`` keys and any of the ``optional`` ones."""
    if not isinstance(value, dict):
        raise CatalogError(where, "an object", _describe(value))
    allowed = (*required, *optional)
    for key in value:
        if key not in allowed:
            expected = f"only the keys {_names(allowed)}" if allowed else "an empty object"
            raise CatalogError(where, expected, f"the unknown key {_describe(key)}")
    for key in required:
        if key not in value:
            raise CatalogError(where, f"a key {key!r}", "none")
    return value


def _expect_int(value: Any, where: str, lo: int, hi: int) -> int:
    if type(value) is not int or not lo <= value <= hi:
        expected = f"the integer {lo}" if lo == hi else f"an integer {lo}-{hi}"
        raise CatalogError(where, expected, _describe(value))
    return value


def _expect_enum(value: Any, where: str, choices: Sequence[str], note: str = "") -> str:
    if not isinstance(value, str) or value not in choices:
        raise CatalogError(where, f"one of {_names(choices)}{note}", _describe(value))
    return value


def _expect_text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise CatalogError(where, "a non-empty string", _describe(value))
    return value


def _expect_id(value: Any, where: str, pattern: re.Pattern[str] = _ID) -> str:
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise CatalogError(where, _ID_RULE, _describe(value))
    return value


def _expect_list(
    value: Any, where: str, lo: int = 0, hi: int | None = None, note: str = ""
) -> list[Any]:
    if isinstance(value, list) and lo <= len(value) and (hi is None or len(value) <= hi):
        return value
    if hi == 0:
        expected = "an empty list"
    elif hi is None:
        expected = f"a list of at least {lo} item{'' if lo == 1 else 's'}" if lo else "a list"
    elif lo == hi:
        expected = f"a list of exactly {lo} item{'' if lo == 1 else 's'}"
    else:
        expected = f"a list of {lo}-{hi} items"
    raise CatalogError(where, expected + note, _describe(value))


def _expect_non_increasing(values: Sequence[int], where: str, what: str) -> None:
    for i in range(1, len(values)):
        if values[i] > values[i - 1]:
            raise CatalogError(
                _at(where, i), f"at most {values[i - 1]} ({what})", _describe(values[i])
            )


def _parse_provenance(entry: Mapping[str, Any], where: str) -> tuple[str, dict[str, str]]:
    """(overall, field -> provenance) of an entry whose ``provenance`` key is present."""
    value, pwhere = entry["provenance"], _at(where, "provenance")
    fields = [k for k in entry if k != "provenance"]
    if isinstance(value, str):
        _expect_enum(value, pwhere, PROVENANCES)
        return value, {f: value for f in fields}
    if not isinstance(value, dict):
        raise CatalogError(
            pwhere,
            "'rules-text', 'stand-in', 'printed' or an object mapping each field to one",
            _describe(value),
        )
    _expect_object(value, pwhere, fields)
    per_field = {f: _expect_enum(value[f], _at(pwhere, f), PROVENANCES) for f in fields}
    overall = STAND_IN if STAND_IN in per_field.values() or not per_field else RULES_TEXT
    return overall, per_field


@dataclass
class _Context:
    """What parsing collects on the way: provenance paths and symbol references."""

    provenance: dict[str, str] = field(default_factory=dict)
    symbol_refs: list[tuple[str, str]] = field(default_factory=list)

    def record(self, path: str, entry: Mapping[str, Any], where: str) -> None:
        overall, per_field = _parse_provenance(entry, where)
        self.provenance[path] = overall
        for name, value in per_field.items():
            self.provenance[f"{path}.{name}"] = value


def _record_object(
    value: Any, where: str, path: str, required: Sequence[str], ctx: _Context,
    optional: Sequence[str] = (),
) -> dict[str, Any]:  # fmt: skip
    """An entry or section with its provenance: keys checked, provenance recorded."""
    obj = _expect_object(value, where, (*required, "provenance"), optional)
    ctx.record(path, obj, where)
    return obj


def _entry_id(item: Any, where: str) -> str:
    if not isinstance(item, dict):
        raise CatalogError(where, "an object", _describe(item))
    if "id" not in item:
        raise CatalogError(where, "a key 'id'", "none")
    return _expect_id(item["id"], _at(where, "id"))


def _parse_entries(
    value: Any, where: str, lo: int, parse_one: Callable[[dict, str, str, _Context], T],
    ctx: _Context,
) -> dict[str, T]:  # fmt: skip
    """A list of entries with unique ids -> {id: parsed entry}, file order."""
    items = _expect_list(value, where, lo)
    result: dict[str, T] = {}
    first_index: dict[str, int] = {}
    for i, item in enumerate(items):
        entry_id = _entry_id(item, _at(where, i))
        entry_where = f"{where}[{i}] (id {entry_id!r})"
        if entry_id in first_index:
            raise CatalogError(
                _at(entry_where, "id"),
                "a unique id",
                f"a duplicate of {where}[{first_index[entry_id]}]",
            )
        first_index[entry_id] = i
        result[entry_id] = parse_one(item, entry_where, f"{where}.{entry_id}", ctx)
    return result


# -------------------------------------------------------------------------- effects


def _parse_effects(
    value: Any, where: str, contexts: Sequence[str], ctx: _Context, lo: int = 0
) -> tuple[Effect, ...]:
    items = _expect_list(value, where, lo)
    return tuple(_parse_effect(item, _at(where, i), contexts, ctx) for i, item in enumerate(items))


def _effect_kind(name: Any, where: str, contexts: Sequence[str]) -> EffectKind:
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise CatalogError(where, f"an effect kind ({', '.join(KINDS)})", _describe(name))
    if not set(kind.contexts) & set(contexts):
        fitting = [k.name for k in KINDS.values() if set(k.contexts) & set(contexts)]
        raise CatalogError(
            where,
            f"a kind allowed in {' or '.join(contexts)} ({', '.join(fitting)})",
            f"{name!r}, which is allowed only in {', '.join(kind.contexts)}",
        )
    return kind


def _parse_effect(value: Any, where: str, contexts: Sequence[str], ctx: _Context) -> Effect:
    if not isinstance(value, dict):
        raise CatalogError(where, 'an effect object {"kind": ...}', _describe(value))
    if "kind" not in value:
        raise CatalogError(where, "a key 'kind'", "none")
    kind = _effect_kind(value["kind"], _at(where, "kind"), contexts)
    required = ("kind", *(n for n, p in kind.params.items() if not p.optional))
    optional = tuple(n for n, p in kind.params.items() if p.optional)
    _expect_object(value, where, required, optional)
    params = {
        name: _parse_param(value[name], _at(where, name), param, ctx)
        for name, param in kind.params.items()
        if name in value
    }
    return Effect(kind.name, params)


def _param_int(value: Any, where: str, param: Param, ctx: _Context) -> int:
    return _expect_int(value, where, param.minimum, param.maximum)


def _param_enum(value: Any, where: str, param: Param, ctx: _Context) -> str:
    return _expect_enum(value, where, param.choices)


def _param_effects(value: Any, where: str, param: Param, ctx: _Context) -> tuple[Effect, ...]:
    return _parse_effects(value, where, (param.nested,), ctx, lo=1)


def _param_condition(value: Any, where: str, param: Param, ctx: _Context) -> dict[str, str]:
    obj = _expect_object(value, where, optional=tuple(CONDITION_KEYS))
    return {
        key: _expect_enum(obj[key], _at(where, key), choices)
        for key, choices in CONDITION_KEYS.items()
        if key in obj
    }


def _param_symbols(value: Any, where: str, param: Param, ctx: _Context) -> tuple[str, ...]:
    symbols = _parse_symbols(value, where, lo=1)
    ctx.symbol_refs.extend((_at(where, i), s) for i, s in enumerate(symbols))
    return symbols


_PARAM_PARSERS: Mapping[str, Callable[[Any, str, Param, _Context], Any]] = {
    "int": _param_int,
    "enum": _param_enum,
    "effects": _param_effects,
    "condition": _param_condition,
    "symbols": _param_symbols,
}


def _parse_param(value: Any, where: str, param: Param, ctx: _Context) -> Any:
    parser = _PARAM_PARSERS.get(param.type)
    if parser is None:  # a kind added to effect_kinds.py with a new parameter type
        raise CatalogError(where, "a parameter type the catalog loader knows", repr(param.type))
    return parser(value, where, param, ctx)


def _parse_symbols(value: Any, where: str, lo: int = 0) -> tuple[str, ...]:
    items = _expect_list(value, where, lo)
    return tuple(_expect_id(s, _at(where, i)) for i, s in enumerate(items))


def _parse_timed_effects(value: Any, where: str, timing: str, ctx: _Context) -> tuple[Effect, ...]:
    """The effects of a bonus or reward, valid in the context its timing names."""
    if timing == NO_BONUS:
        _expect_list(value, where, hi=0, note=" (timing 'none')")
        return ()
    return _parse_effects(value, where, (TIMING_CONTEXTS[timing],), ctx, lo=1)


# ------------------------------------------------------------------------- sections


def _parse_header(data: Any) -> tuple[str, str]:
    if not isinstance(data, dict):
        raise CatalogError(_TOP, "a JSON object", _describe(data))
    fmt = data.get("format", _MISSING)
    if fmt != FORMAT:
        raise CatalogError("format", repr(FORMAT), _describe(fmt))
    schema = data.get("schema", _MISSING)
    if type(schema) is not int or schema != SCHEMA:
        raise CatalogError("schema", f"{SCHEMA} (the schema this version reads)", _describe(schema))
    _expect_object(data, _TOP, _TOP_REQUIRED, _TOP_OPTIONAL)
    if not isinstance(data.get("notes", ""), str):
        raise CatalogError("notes", "a string", _describe(data["notes"]))
    return _expect_id(data["id"], "id", _CATALOG_ID), _expect_text(data["title"], "title")


def _parse_players(data: dict, ctx: _Context) -> tuple[int, int]:
    obj = _record_object(data["players"], "players", "players", ("min", "max"), ctx)
    low = _expect_int(obj["min"], "players.min", MIN_PLAYERS, MAX_PLAYERS)
    return low, _expect_int(obj["max"], "players.max", low, MAX_PLAYERS)


def _parse_int_section(
    data: dict, name: str, bounds: Mapping[str, tuple[int, int]], ctx: _Context
) -> dict[str, int]:
    """A section of integer fields only, e.g. ``limits`` or ``rows``."""
    obj = _record_object(data[name], name, name, tuple(bounds), ctx)
    return {key: _expect_int(obj[key], f"{name}.{key}", lo, hi) for key, (lo, hi) in bounds.items()}


def _player_keys(players: tuple[int, int]) -> tuple[str, ...]:
    return tuple(str(n) for n in range(players[0], players[1] + 1))


def _parse_dice(
    data: dict, players: tuple[int, int], ctx: _Context
) -> tuple[dict[str, str], dict[int, dict[str, int]]]:
    obj = _record_object(data["dice"], "dice", "dice", ("pool", "removed"), ctx)
    pool_obj = _expect_object(obj["pool"], "dice.pool", DIE_COLORS)
    pool = {c: _expect_int(pool_obj[c], f"dice.pool.{c}", 0, 9) for c in pool_obj}
    removed_obj = _expect_object(obj["removed"], "dice.removed", optional=_player_keys(players))
    removed = {
        int(n): _parse_removed(removed_obj[n], f"dice.removed.{n}", pool) for n in removed_obj
    }
    for n in range(players[0], players[1] + 1):
        left = sum(pool.values()) - sum(removed.get(n, {}).values())
        if left < DICE_PER_PLAYER * n:
            where = f"dice.removed.{n}" if n in removed else "dice.pool"
            raise CatalogError(
                where, f"at least {DICE_PER_PLAYER * n} dice left for {n} players", f"{left}"
            )
    die_colors = {f"{c}-{k}": c for c, count in pool.items() for k in range(1, count + 1)}
    return die_colors, removed


def _parse_removed(value: Any, where: str, pool: Mapping[str, int]) -> dict[str, int]:
    obj = _expect_object(value, where, optional=DIE_COLORS)
    return {c: _expect_int(obj[c], f"{where}.{c}", 0, pool[c]) for c in obj}


def _parse_die_tokens(
    data: dict, players: tuple[int, int], ctx: _Context
) -> dict[int, dict[str, tuple[int, ...]]]:
    obj = _record_object(
        data["die_tokens"], "die_tokens", "die_tokens", (), ctx, _player_keys(players)
    )
    tokens = {}
    for n in (k for k in obj if k != "provenance"):
        where = f"die_tokens.{n}"
        cities = _expect_object(obj[n], where, CITIES)
        tokens[int(n)] = {c: _parse_token_row(cities[c], f"{where}.{c}") for c in CITIES}
    return tokens


def _parse_token_row(value: Any, where: str) -> tuple[int, ...]:
    values = tuple(
        _expect_int(v, _at(where, i), 1, 6) for i, v in enumerate(_expect_list(value, where))
    )
    _expect_non_increasing(values, where, "city rows run from 6 down to 1")
    return values


def _parse_income(data: dict, max_influence: int, ctx: _Context) -> tuple[IncomeTier, ...]:
    obj = _record_object(data["income"], "income", "income", ("tiers",), ctx)
    tiers: list[IncomeTier] = []
    for i, raw in enumerate(_expect_list(obj["tiers"], "income.tiers", lo=1)):
        tiers.append(
            _parse_tier(raw, f"income.tiers[{i}]", tiers[-1] if tiers else None, max_influence)
        )
    if tiers[-1].high != max_influence:
        raise CatalogError(
            "income.tiers",
            f"tiers covering 0-{max_influence} (limits.influence)",
            f"the last tier ending at {tiers[-1].high}",
        )
    return tuple(tiers)


def _parse_tier(
    value: Any, where: str, previous: IncomeTier | None, max_influence: int
) -> IncomeTier:
    obj = _expect_object(value, where, ("from", "to", *TRACKS))
    low = 0 if previous is None else previous.high + 1
    if low > max_influence:
        raise CatalogError(
            where, f"no tier after space {max_influence} (limits.influence)", "another tier"
        )
    given = obj["from"]
    if given != low or type(given) is not int:
        after = (
            "the first tier starts at 0"
            if previous is None
            else f"right after tier {previous.low}-{previous.high}"
        )
        gap = "" if type(given) is not int else " (a gap)" if given > low else " (an overlap)"
        raise CatalogError(_at(where, "from"), f"{low} ({after})", _describe(given) + gap)
    high = _expect_int(obj["to"], _at(where, "to"), low, max_influence)
    rewards = {t: _parse_reward_pair(obj[t], _at(where, t)) for t in TRACKS}
    return IncomeTier(low, high, rewards)


def _parse_reward_pair(value: Any, where: str) -> tuple[int, int]:
    pair = _expect_list(value, where, 2, 2, note=" [base, bonus_points]")
    return _expect_int(pair[0], _at(where, 0), 0, 20), _expect_int(pair[1], _at(where, 1), 0, 20)


def _parse_flag_crowns(data: dict, max_players: int, ctx: _Context) -> tuple[int, ...]:
    obj = _record_object(data["flag_crowns"], "flag_crowns", "flag_crowns", ("values",), ctx)
    values = _expect_list(
        obj["values"], "flag_crowns.values", max_players, max_players, " (one per flag)"
    )
    return tuple(_expect_int(v, f"flag_crowns.values[{i}]", 0, 9) for i, v in enumerate(values))


def _parse_favor_tile(obj: dict, where: str, path: str, ctx: _Context) -> FavorTile:
    _record_object(obj, where, path, ("id", "name", "crowns", "effects"), ctx)
    name = _expect_text(obj["name"], _at(where, "name"))
    crowns = _expect_int(obj["crowns"], _at(where, "crowns"), 0, 9)
    effects = _parse_effects(obj["effects"], _at(where, "effects"), FAVOR_CONTEXTS, ctx)
    return FavorTile(obj["id"], name, crowns, effects)


def _parse_character(obj: dict, where: str, path: str, ctx: _Context) -> CharacterCard:
    fields = ("id", "name", "pile", "category", "cost", "influence", "bonus", "symbols")
    _record_object(obj, where, path, fields, ctx)
    name = _expect_text(obj["name"], _at(where, "name"))
    pile = _expect_enum(obj["pile"], _at(where, "pile"), PILES)
    category = _expect_enum(obj["category"], _at(where, "category"), TRACKS)
    cost = _expect_enum(obj["cost"], _at(where, "cost"), SPENDABLE)
    influence = _expect_int(obj["influence"], _at(where, "influence"), 1, 4)
    timing, effects = _parse_bonus(
        obj["bonus"], _at(where, "bonus"), CARD_TIMINGS[pile], f" (pile {pile})", ctx
    )
    symbols = _parse_symbols(obj["symbols"], _at(where, "symbols"))
    return CharacterCard(obj["id"], name, pile, category, cost, influence, timing, effects, symbols)


def _parse_bonus(
    value: Any, where: str, timings: Sequence[str], note: str, ctx: _Context
) -> tuple[str, tuple[Effect, ...]]:
    """A ``{"timing", "effects"}`` object (card bonus, monastery reward)."""
    obj = _expect_object(value, where, ("timing", "effects"))
    timing = _expect_enum(obj["timing"], _at(where, "timing"), timings, note)
    return timing, _parse_timed_effects(obj["effects"], _at(where, "effects"), timing, ctx)


def _parse_monastery(obj: dict, where: str, path: str, ctx: _Context) -> Monastery:
    _record_object(obj, where, path, ("id", "name", "pile", "reward"), ctx)
    name = _expect_text(obj["name"], _at(where, "name"))
    pile = _expect_enum(obj["pile"], _at(where, "pile"), PILES)
    timing, effects = _parse_bonus(obj["reward"], _at(where, "reward"), MONASTERY_TIMINGS, "", ctx)
    return Monastery(obj["id"], name, pile, timing, effects)


def _parse_voyage_spaces(
    data: dict, limits: Mapping[str, int], ctx: _Context
) -> tuple[VoyageSpace, ...]:
    spaces = []
    for i, raw in enumerate(_expect_list(data["voyage_spaces"], "voyage_spaces", lo=1)):
        where = f"voyage_spaces[{i}]"
        obj = _record_object(raw, where, f"voyage_spaces.{i}", ("resource", "cost"), ctx)
        resource = _expect_enum(obj["resource"], _at(where, "resource"), SPENDABLE)
        spaces.append(
            VoyageSpace(resource, _expect_int(obj["cost"], _at(where, "cost"), 0, limits[resource]))
        )
    return tuple(spaces)


def _parse_voyage(obj: dict, where: str, path: str, ctx: _Context) -> Voyage:
    _record_object(obj, where, path, ("id", "name", "task"), ctx)
    name = _expect_text(obj["name"], _at(where, "name"))
    return Voyage(
        obj["id"], name, _parse_effects(obj["task"], _at(where, "task"), (END_GAME,), ctx, lo=1)
    )


def _parse_scoring_tile(obj: dict, where: str, path: str, ctx: _Context) -> ScoringTile:
    _record_object(obj, where, path, ("id", "name", "points"), ctx)
    name = _expect_text(obj["name"], _at(where, "name"))
    sides = _expect_object(obj["points"], _at(where, "points"), tuple(SCORING_SIDES))
    points = {
        side: _parse_rank_points(sides[side], f"{where}.points.{side}", n)
        for side, n in SCORING_SIDES.items()
    }
    return ScoringTile(obj["id"], name, points)


def _parse_rank_points(value: Any, where: str, ranks: int) -> tuple[int, ...]:
    items = _expect_list(value, where, ranks, ranks, " (points by rank)")
    points = tuple(_expect_int(v, _at(where, i), 0, 99) for i, v in enumerate(items))
    _expect_non_increasing(points, where, "points never rise with rank")
    return points


def _parse_final_scoring(data: dict, ctx: _Context) -> tuple[int, int, str]:
    obj = _record_object(
        data["final_scoring"], "final_scoring", "final_scoring", ("leftover", "tie_break"), ctx
    )
    leftover = _expect_object(
        obj["leftover"], "final_scoring.leftover", ("coins_per_point", "guards_per_point")
    )
    coins = _expect_int(
        leftover["coins_per_point"], "final_scoring.leftover.coins_per_point", 0, 20
    )
    guards = _expect_int(
        leftover["guards_per_point"], "final_scoring.leftover.guards_per_point", 0, 20
    )
    return coins, guards, _expect_enum(obj["tie_break"], "final_scoring.tie_break", TIE_BREAKS)


# ------------------------------------------------------------------------------ map


def _parse_space(obj: dict, where: str, path: str, ctx: _Context) -> MapSpace:
    _expect_object(obj, where, ("id", "kind"), ("pile",))
    kind = _expect_enum(obj["kind"], _at(where, "kind"), SPACE_KINDS)
    if kind != "monastery" and "pile" in obj:
        raise CatalogError(
            _at(where, "pile"), "no pile (only monastery spaces have one)", _describe(obj["pile"])
        )
    if kind == "monastery" and "pile" not in obj:
        raise CatalogError(where, "a key 'pile' (a monastery space names its pile)", "none")
    pile = _expect_enum(obj["pile"], _at(where, "pile"), PILES) if kind == "monastery" else None
    return MapSpace(obj["id"], kind, pile)


def _parse_edges(
    value: Any, where: str, spaces: Mapping[str, MapSpace]
) -> dict[str, tuple[str, ...]]:
    adjacent: dict[str, set[str]] = {s: set() for s in spaces}
    first_index: dict[frozenset[str], int] = {}
    for i, raw in enumerate(_expect_list(value, where)):
        edge_where = _at(where, i)
        a, b = (
            _expect_space(s, _at(edge_where, j), spaces)
            for j, s in enumerate(_expect_list(raw, edge_where, 2, 2))
        )
        if a == b:
            raise CatalogError(edge_where, "two different spaces", f"{a!r} twice")
        key = frozenset((a, b))
        if key in first_index:
            raise CatalogError(
                edge_where, "each edge once", f"a duplicate of {where}[{first_index[key]}]"
            )
        first_index[key] = i
        adjacent[a].add(b)
        adjacent[b].add(a)
    return {s: tuple(sorted(n)) for s, n in adjacent.items()}


def _expect_space(value: Any, where: str, spaces: Mapping[str, MapSpace]) -> str:
    if not isinstance(value, str) or value not in spaces:
        raise CatalogError(where, "the id of a space in map.spaces", _describe(value))
    return value


def _check_connected(neighbours: Mapping[str, tuple[str, ...]], where: str) -> None:
    first = next(iter(neighbours))
    seen, todo = {first}, [first]
    while todo:
        for n in neighbours[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    cut_off = [s for s in neighbours if s not in seen]
    if cut_off:
        shown = ", ".join(repr(s) for s in cut_off[:3]) + (", ..." if len(cut_off) > 3 else "")
        raise CatalogError(
            where, "a connected map", f"{len(cut_off)} space(s) unreachable from {first!r}: {shown}"
        )


def _parse_map(data: dict, ctx: _Context) -> PilgrimMap:
    obj = _record_object(data["map"], "map", "map", ("spaces", "edges"), ctx)
    spaces = _parse_entries(obj["spaces"], "map.spaces", 1, _parse_space, ctx)
    starts = tuple(s for s, space in spaces.items() if space.kind == "start")
    if len(starts) != START_SPACES:
        raise CatalogError("map.spaces", f"exactly {START_SPACES} start spaces", f"{len(starts)}")
    neighbours = _parse_edges(obj["edges"], "map.edges", spaces)
    _check_connected(neighbours, "map.edges")
    monastery_spaces = {p: tuple(s for s, sp in spaces.items() if sp.pile == p) for p in PILES}
    return PilgrimMap(spaces, neighbours, starts, monastery_spaces)


# --------------------------------------------------------------------- cross checks


def _check_piles(
    characters: Mapping[str, CharacterCard], rows: int, group: int, max_players: int
) -> None:
    counts = Counter(card.pile for card in characters.values())
    if counts["I"] < group * max_players:
        raise CatalogError(
            "characters",
            f"at least {group * max_players} pile I cards "
            f"({group} per start group x {max_players} players)",
            f"{counts['I']}",
        )
    per_round = 3 * rows
    for pile in ("II", "III"):
        if counts[pile] == 0 or counts[pile] % per_round:
            raise CatalogError(
                "characters",
                f"a positive multiple of {per_round} pile {pile} cards "
                f"(3 rows of {rows} per round)",
                f"{counts[pile]}",
            )


def _check_monastery_supply(monasteries: Mapping[str, Monastery], pilgrim_map: PilgrimMap) -> None:
    counts = Counter(m.pile for m in monasteries.values())
    for pile, spaces in pilgrim_map.monastery_spaces.items():
        if counts[pile] < len(spaces):
            raise CatalogError(
                "monasteries",
                f"at least {len(spaces)} pile {pile} tiles "
                f"(the map has {len(spaces)} pile {pile} spaces)",
                f"{counts[pile]}",
            )


def _check_voyage_count(voyages: Mapping[str, Voyage], spaces: Sequence[VoyageSpace]) -> None:
    if len(voyages) < len(spaces):
        raise CatalogError(
            "voyages", f"at least {len(spaces)} voyages (one per voyage space)", f"{len(voyages)}"
        )


def _check_scoring_tiles(tiles: Mapping[str, ScoringTile]) -> None:
    if len(tiles) < len(TRACKS):
        raise CatalogError(
            "scoring_tiles", f"at least {len(TRACKS)} tiles (one per track)", f"{len(tiles)}"
        )


def _check_symbols(
    characters: Mapping[str, CharacterCard], refs: Sequence[tuple[str, str]]
) -> None:
    printed = sorted({s for card in characters.values() for s in card.symbols})
    for where, symbol in refs:
        if symbol not in printed:
            shown = ", ".join(printed) if printed else "none printed"
            raise CatalogError(
                where, f"a symbol printed on some character card ({shown})", repr(symbol)
            )


def _check_start_resources(start: Mapping[str, int], limits: Mapping[str, int]) -> None:
    for key in ("coins", "guards"):
        if start[key] > limits[key]:
            raise CatalogError(
                f"start_resources.{key}", f"at most {limits[key]} (limits.{key})", f"{start[key]}"
            )


# --------------------------------------------------------------------------- loading


def _canonical(data: Any) -> bytes:
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)


def _parse(data: Any) -> Catalog:
    catalog_id, title = _parse_header(data)
    ctx = _Context()
    players = _parse_players(data, ctx)
    limits = _parse_int_section(
        data, "limits", {"coins": (1, 99), "guards": (1, 99), "influence": (1, 30)}, ctx
    )
    die_colors, removed = _parse_dice(data, players, ctx)
    die_tokens = _parse_die_tokens(data, players, ctx)
    start = _parse_int_section(data, "start_resources", {"coins": (0, 99), "guards": (0, 99)}, ctx)
    _check_start_resources(start, limits)
    income = _parse_income(data, limits["influence"], ctx)
    flag_crowns = _parse_flag_crowns(data, players[1], ctx)
    crown_tokens = _parse_int_section(data, "crown_tokens", {"crowns": (0, 9)}, ctx)
    alternative = _parse_int_section(
        data, "alternative_action", {"coins": (0, 20), "guards": (0, 20)}, ctx
    )
    rows = _parse_int_section(data, "rows", {"cards_per_row": (1, 12)}, ctx)
    groups = _parse_int_section(data, "start_groups", {"cards_per_group": (1, 8)}, ctx)
    favor_tiles = _parse_entries(data["favor_tiles"], "favor_tiles", 1, _parse_favor_tile, ctx)
    characters = _parse_entries(data["characters"], "characters", 1, _parse_character, ctx)
    _check_piles(characters, rows["cards_per_row"], groups["cards_per_group"], players[1])
    monasteries = _parse_entries(data["monasteries"], "monasteries", 1, _parse_monastery, ctx)
    voyage_spaces = _parse_voyage_spaces(data, limits, ctx)
    voyages = _parse_entries(data["voyages"], "voyages", 1, _parse_voyage, ctx)
    _check_voyage_count(voyages, voyage_spaces)
    scoring_tiles = _parse_entries(
        data["scoring_tiles"], "scoring_tiles", 1, _parse_scoring_tile, ctx
    )
    _check_scoring_tiles(scoring_tiles)
    leftover_coins, leftover_guards, tie_break = _parse_final_scoring(data, ctx)
    pilgrim_map = _parse_map(data, ctx)
    _check_monastery_supply(monasteries, pilgrim_map)
    _check_symbols(characters, ctx.symbol_refs)
    canonical = _canonical(data)
    return Catalog(
        id=catalog_id, title=title, schema=SCHEMA,
        sha256=hashlib.sha256(canonical).hexdigest(), data=orjson.loads(orjson.dumps(data)),
        min_players=players[0], max_players=players[1], die_colors=die_colors,
        start_coins=start["coins"], start_guards=start["guards"],
        max_coins=limits["coins"], max_guards=limits["guards"], max_influence=limits["influence"],
        income=income, flag_crowns=flag_crowns, crown_token_crowns=crown_tokens["crowns"],
        alternative_coins=alternative["coins"], alternative_guards=alternative["guards"],
        cards_per_row=rows["cards_per_row"], cards_per_group=groups["cards_per_group"],
        favor_tiles=favor_tiles, characters=characters, monasteries=monasteries,
        voyage_spaces=voyage_spaces, voyages=voyages, scoring_tiles=scoring_tiles,
        leftover_coins_per_point=leftover_coins, leftover_guards_per_point=leftover_guards,
        map=pilgrim_map, provenance=ctx.provenance,
        dice_removed=removed, die_tokens=die_tokens, tie_break=tie_break,
    )  # fmt: skip


def parse_catalog(data: Any, source: str = _DEFAULT_SOURCE) -> Catalog:
    """Validate parsed JSON ``data`` and build the :class:`Catalog`.

    Raises :class:`CatalogError`; its message names ``source`` unless that is the
    default ``"<catalog>"``.
    """
    try:
        return _parse(data)
    except CatalogError as error:
        if source == _DEFAULT_SOURCE:
            raise
        raise error.at_source(source) from None


