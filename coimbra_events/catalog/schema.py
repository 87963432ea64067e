"""The catalog document as pydantic models: every section and entry, each field's type and range.

Pydantic checks the shape: objects with exactly their keys, lists, strict types (``2.0``,
``"2"`` and ``true`` are not integers), ranges and choices, the effects of every bonus by
kind and context. What relates one field or section to another (tier contiguity, the
map, pile sizes, symbols, provenance coverage) is ``catalog.checks``' to say.

Every type states what it expects in the loader's own words (``catalog.schema_fields``),
so a problem reads the same whichever check found it::

    characters[12] (id 'c-II-05').influence: expected an integer 1-4, got 7
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal, Union

from pydantic import Discriminator, Tag, TypeAdapter, WrapValidator

from coimbra_events.catalog.assembly import OPTIONAL_SECTIONS, SECTION_NAMES
from coimbra_events.catalog.model import (
    CARD_TIMINGS,
    CITIES,
    DIE_COLORS,
    FAVOR_CONTEXTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MONASTERY_TIMINGS,
    NO_BONUS,
    SCORING_SIDES,
    SPACE_KINDS,
    TIE_BREAKS,
    TIMING_CONTEXTS,
)
from coimbra_events.catalog.effect_kinds import CONDITION_KEYS, END_GAME, KINDS, PILES, SPENDABLE, TRACKS, Param
from coimbra_events.catalog.schema_fields import (
    CatalogId,
    Id,
    Int,
    ListOf,
    Model,
    Notes,
    OneOf,
    Provenance,
    Text,
    describe,
    expecting,
    is_id,
    keyed_model,
    never_rising,
    object_model,
    problem,
)

PLAYER_KEYS: tuple[str, ...] = tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))


# effects


def _kind_tag(value: Any) -> str | None:
    return f"<{value.get('kind')}>" if isinstance(value, dict) else None


@functools.cache
def EffectIn(contexts: tuple[str, ...]) -> Any:  # noqa: N802
    """An effect of a kind allowed in one of ``contexts``."""
    allowed = [k for k in KINDS.values() if set(k.contexts) & set(contexts)]
    members = [Annotated[_effect_model(k.name), Tag(f"<{k.name}>")] for k in allowed]
    union = Annotated[Union[tuple(members)], Discriminator(_kind_tag)] if len(members) > 1 else _effect_model(allowed[0].name)
    return Annotated[union, WrapValidator(_kind_check(contexts, tuple(k.name for k in allowed)))]


def _kind_check(contexts: tuple[str, ...], fitting: tuple[str, ...]) -> Callable[[Any, Callable[[Any], Any]], Any]:
    def check(value: Any, handler: Callable[[Any], Any]) -> Any:
        if not isinstance(value, dict):
            raise problem('an effect object {"kind": ...}')
        if "kind" not in value:
            raise problem("a key 'kind'", "none")
        kind = value["kind"]
        if not isinstance(kind, str) or kind not in KINDS:
            raise problem(f"an effect kind ({', '.join(KINDS)})", describe(kind), ("kind",))
        if kind not in fitting:
            allowed_in = ", ".join(KINDS[kind].contexts)
            raise problem(
                f"a kind allowed in {' or '.join(contexts)} ({', '.join(fitting)})",
                f"{kind!r}, which is allowed only in {allowed_in}",
                ("kind",),
            )
        return handler(value)

    return check


@functools.cache
def _effect_model(kind_name: str) -> type[Model]:
    kind = KINDS[kind_name]
    ordered = sorted(kind.params.items(), key=lambda item: item[1].optional)  # required keys first
    fields = {name: (_param_type(p), None) if p.optional else _param_type(p) for name, p in ordered}
    return object_model(f"Effect_{kind_name}", {"kind": Literal[kind_name], **fields})


Condition = object_model("Condition", {key: (OneOf(choices), None) for key, choices in CONDITION_KEYS.items()})


def _param_type(param: Param) -> Any:
    if param.type == "int":
        return Int(param.minimum, param.maximum)
    if param.type == "enum":
        return OneOf(param.choices)
    if param.type == "effects":
        return ListOf(EffectIn((param.nested,)), lo=1)
    if param.type == "condition":
        return Condition
    if param.type == "symbols":
        return ListOf(Id, lo=1)
    raise TypeError(f"a parameter type the catalog schema does not know: {param.type!r}")


def Effects(contexts: tuple[str, ...], lo: int = 0) -> Any:  # noqa: N802
    return ListOf(EffectIn(contexts), lo=lo)


# bonuses and rewards: the timing says the context of the effects


@functools.cache
def BonusIn(timings: tuple[str, ...], note: str) -> Any:  # noqa: N802
    """A ``{"timing", "effects"}`` object with one of ``timings``; its effects fit the timing."""
    members = [Annotated[_bonus_model(t), Tag(f"<{t}>")] for t in timings]
    fallback = object_model(f"Bonus_other{len(timings)}", {"timing": OneOf(timings, note), "effects": Any})

    def tag(value: Any) -> str | None:
        if not isinstance(value, dict):
            return None
        return f"<{value['timing']}>" if value.get("timing") in timings else "<other>"

    union = Union[(*members, Annotated[fallback, Tag("<other>")])]
    return Annotated[union, Discriminator(tag), expecting("an object")]


@functools.cache
def _bonus_model(timing: str) -> type[Model]:
    if timing == NO_BONUS:
        effects: Any = ListOf(Any, hi=0, note=f" (timing {NO_BONUS!r})")
    else:
        effects = Effects((TIMING_CONTEXTS[timing],), lo=1)
    return object_model(f"Bonus_{timing}", {"timing": Literal[timing], "effects": effects})


# sections


Players = object_model("Players", {"min": Int(MIN_PLAYERS, MAX_PLAYERS), "max": Int(MIN_PLAYERS, MAX_PLAYERS), "provenance": Provenance})
DicePool = keyed_model("DicePool", DIE_COLORS, Int(0, 9))
DiceRemoved = keyed_model("DiceRemoved", DIE_COLORS, Int(0, 9), optional=True)
DiceRemovedByPlayers = keyed_model("DiceRemovedByPlayers", PLAYER_KEYS, DiceRemoved, optional=True)
Dice = object_model("Dice", {"pool": DicePool, "removed": DiceRemovedByPlayers, "provenance": Provenance})
TokenRow = Annotated[ListOf(Int(1, 6)), never_rising("city rows run from 6 down to 1")]
Cities = keyed_model("Cities", CITIES, TokenRow)
DieTokens = keyed_model("DieTokens", PLAYER_KEYS, Cities, optional=True, provenance=Provenance)
StartResources = object_model("StartResources", {"coins": Int(0, 99), "guards": Int(0, 99), "provenance": Provenance})
Limits = object_model("Limits", {"coins": Int(1, 99), "guards": Int(1, 99), "influence": Int(1, 30), "provenance": Provenance})
RewardPair = ListOf(Int(0, 20), 2, 2, note=" [base, bonus_points]")
Tier = object_model(
    "Tier",
    {"start": Int(0, 30), "end": Int(0, 30), **{t: RewardPair for t in TRACKS}},
    {"start": "from", "end": "to"},
)  # where each tier starts and ends against the others and the limit: catalog.checks
Income = object_model("Income", {"tiers": ListOf(Tier, lo=1), "provenance": Provenance})
FlagCrowns = object_model("FlagCrowns", {"values": ListOf(Int(0, 9)), "provenance": Provenance})
CrownTokens = object_model("CrownTokens", {"crowns": Int(0, 9), "provenance": Provenance})
AlternativeAction = object_model("AlternativeAction", {"coins": Int(0, 20), "guards": Int(0, 20), "provenance": Provenance})
Rows = object_model("Rows", {"cards_per_row": Int(1, 12), "provenance": Provenance})
StartGroups = object_model("StartGroups", {"cards_per_group": Int(1, 8), "provenance": Provenance})
Discs = object_model("Discs", {"supply": Int(1, 99), "provenance": Provenance})
Leftover = object_model("Leftover", {"coins_per_point": Int(0, 20), "guards_per_point": Int(0, 20)})
FinalScoring = object_model("FinalScoring", {"leftover": Leftover, "tie_break": OneOf(TIE_BREAKS), "provenance": Provenance})

# entries

FavorTile = object_model(
    "FavorTile", {"id": Id, "name": Text, "crowns": Int(0, 9), "effects": Effects(FAVOR_CONTEXTS), "provenance": Provenance}
)


@functools.cache
def character_model(pile: str | None) -> type[Model]:
    """The model of a card of this pile (``None``: a card whose pile is not known)."""
    bonus = Any if pile is None else BonusIn(CARD_TIMINGS[pile], f" (pile {pile})")
    fields = {
        "id": Id, "name": Text, "pile": OneOf(PILES), "category": OneOf(TRACKS), "cost": OneOf(SPENDABLE),
        "influence": Int(1, 4), "bonus": bonus, "symbols": ListOf(Id), "provenance": Provenance,
    }  # fmt: skip
    return object_model(f"Character_{pile or 'other'}", fields)


def _pile_tag(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    return f"<{value['pile']}>" if value.get("pile") in PILES else "<other>"


Character = Annotated[
    Union[(*(Annotated[character_model(p), Tag(f"<{p}>")] for p in PILES), Annotated[character_model(None), Tag("<other>")])],
    Discriminator(_pile_tag),
    expecting("an object"),
]
"""A character card; its pile says the timings its bonus may have (an unknown pile: the
card's other fields are still checked)."""

Monastery = object_model(
    "Monastery", {"id": Id, "name": Text, "pile": OneOf(PILES), "reward": BonusIn(MONASTERY_TIMINGS, ""), "provenance": Provenance}
)
VoyageSpace = object_model("VoyageSpace", {"resource": OneOf(SPENDABLE), "cost": Int(0, 99), "provenance": Provenance})
Voyage = object_model("Voyage", {"id": Id, "name": Text, "task": Effects((END_GAME,), lo=1), "provenance": Provenance})
RankPoints = {
    side: Annotated[ListOf(Int(0, 99), ranks, ranks, note=" (points by rank)"), never_rising("points never rise with rank")]
    for side, ranks in SCORING_SIDES.items()
}
ScoringPoints = object_model(
    "ScoringPoints",
    {f"k_{side.replace('-', '_')}": points for side, points in RankPoints.items()},
    {f"k_{side.replace('-', '_')}": side for side in SCORING_SIDES},
)
ScoringTile = object_model("ScoringTile", {"id": Id, "name": Text, "points": ScoringPoints, "provenance": Provenance})
MapSpace = object_model(
    "MapSpace", {"id": Id, "kind": OneOf(SPACE_KINDS), "pile": (OneOf(PILES), None), "name": (Text, None)}
)
Edge = ListOf(Any, 2, 2)  # which spaces an edge joins: catalog.checks
Map = object_model("Map", {"spaces": ListOf(MapSpace, lo=1), "edges": ListOf(Edge), "provenance": Provenance})

SECTIONS: Mapping[str, Any] = {
    "players": Players,
    "dice": Dice,
    "die_tokens": DieTokens,
    "start_resources": StartResources,
    "limits": Limits,
    "income": Income,
    "flag_crowns": FlagCrowns,
    "crown_tokens": CrownTokens,
    "alternative_action": AlternativeAction,
    "rows": Rows,
    "start_groups": StartGroups,
    "favor_tiles": ListOf(FavorTile, lo=1),
    "characters": ListOf(Character, lo=1),
    "monasteries": ListOf(Monastery, lo=1),
    "voyage_spaces": ListOf(VoyageSpace, lo=1),
    "voyages": ListOf(Voyage, lo=1),
    "scoring_tiles": ListOf(ScoringTile, lo=1),
    "final_scoring": FinalScoring,
    "map": Map,
    "discs": Discs,
}
"""The model of every section, by its key in file order (``catalog.assembly.SECTION_NAMES``); ``discs`` is
optional (``catalog.assembly.DISCS_DEFAULT``)."""
assert tuple(SECTIONS) == SECTION_NAMES, "catalog.assembly.SECTION_NAMES names every section, in file order"


TopLevel = object_model(
    "TopLevel",
    {
        "format": Any, "schema_": Any, "id": CatalogId, "title": Text,
        **{name: Any for name in SECTIONS if name not in OPTIONAL_SECTIONS},
        "notes": (Notes, None), **{name: (Any, None) for name in OPTIONAL_SECTIONS},
    },
    {"schema_": "schema"},
)  # fmt: skip
"""The top level: its keys, the id and the title (each section is checked on its own)."""

ENTRY_LISTS: tuple[tuple[str, ...], ...] = (
    ("favor_tiles",), ("characters",), ("monasteries",), ("voyages",), ("scoring_tiles",), ("map", "spaces"),
)  # fmt: skip
"""The lists whose entries have ids: a place in one names the entry's id too."""


@functools.cache
def adapter(section: str) -> TypeAdapter[Any]:
    """The validator of one section (``""``: the top level)."""
    return TypeAdapter(TopLevel if section == "" else SECTIONS[section])


def place(data: Any, loc: Sequence[str | int]) -> str:
    """A path into the catalog as problems name it: ``characters[12] (id 'c-II-05').influence``.

    Union tags in pydantic's paths (``<gain>``) are not places and are left out.
    """
    where, target, path = "", data, ()
    for key in loc:
        if isinstance(key, str) and key.startswith("<") and key.endswith(">"):
            continue
        if isinstance(key, int):
            where += f"[{key}]"
            target = target[key] if isinstance(target, list) and 0 <= key < len(target) else None
            if path in ENTRY_LISTS and isinstance(target, dict) and is_id(target.get("id")):
                where += f" (id {target['id']!r})"
        elif not _PLAIN_KEY.fullmatch(str(key)):  # a key typed in the file, shown so it stays on one line
            where += f"[{str(key)!r}]"
            target = target.get(key) if isinstance(target, dict) else None
        else:
            where = f"{where}.{key}" if where else key
            target = target.get(key) if isinstance(target, dict) else None
        path = (*path, key)
    return where or "(top level)"


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")
