"""The catalog document as pydantic models: every section and entry, each field's type and range.

Pydantic checks the shape: objects with exactly their keys, lists, strict types (``2.0``,
``"2"`` and ``true`` are not integers), ranges and choices, the effects of every bonus by
kind and context. What relates one field or section to another (tier contiguity, the
map, pile sizes, symbols, provenance coverage) is ``catalog.checks``' to say.

Every type states what it expects in the loader's own words, so a problem reads the
same whichever check found it::

    characters[12] (id 'c-II-05').influence: expected an integer 1-4, got 7

Each such problem is a pydantic error of type ``"catalog"`` whose context holds
``expected``, and ``got`` and ``at`` (a further path) where they are not the value's own.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Strict,
    StringConstraints,
    Tag,
    TypeAdapter,
    ValidationError,
    WrapValidator,
    create_model,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

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
    PROVENANCES,
    SCORING_SIDES,
    SPACE_KINDS,
    TIE_BREAKS,
    TIMING_CONTEXTS,
)
from coimbra_events.catalog.effect_kinds import CONDITION_KEYS, END_GAME, KINDS, PILES, SPENDABLE, TRACKS, Param

PROBLEM = "catalog"
"""The pydantic error type of every problem this schema states in its own words."""

_ID = r"[A-Za-z0-9][A-Za-z0-9_-]*"
ID_PATTERN = f"^{_ID}$"
CATALOG_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"
ID_RULE = "an id of letters, digits, '-' and '_' (starting with a letter or digit)"
PLAYER_KEYS: tuple[str, ...] = tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))

# ------------------------------------------------------------------ words for values


def describe(value: Any) -> str:
    """A short one-line rendering of a JSON value for problems."""
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


def names(items: Sequence[Any]) -> str:
    return ", ".join(repr(i) for i in items)


def list_expected(lo: int = 0, hi: int | None = None) -> str:
    """How a list of ``lo``..``hi`` items is named in a problem."""
    if hi == 0:
        return "an empty list"
    if hi is None:
        return f"a list of at least {lo} item{'' if lo == 1 else 's'}" if lo else "a list"
    if lo == hi:
        return f"a list of exactly {lo} item{'' if lo == 1 else 's'}"
    return f"a list of {lo}-{hi} items"


def int_expected(lo: int, hi: int) -> str:
    return f"the integer {lo}" if lo == hi else f"an integer {lo}-{hi}"


def problem(expected: str, got: str | None = None, at: tuple[str | int, ...] = ()) -> PydanticCustomError:
    """A problem in the loader's words; ``got`` defaults to the value, ``at`` to its own place."""
    context: dict[str, Any] = {"expected": expected, "at": at}
    if got is not None:
        context["got"] = got
    return PydanticCustomError(PROBLEM, "expected {expected}", context)


# ------------------------------------------------------------------ field types


def expecting(expected: str, meaning: str = "") -> WrapValidator:
    """Pydantic's own checks of a value, reported as expecting ``expected``; problems
    further in (an item of a list, a field of an object) keep their own words.

    ``meaning`` (default: ``expected``) is the short form a sheet's header shows (``1-4``).
    """

    def wrap(value: Any, handler: Callable[[Any], Any]) -> Any:
        try:
            return handler(value)
        except ValidationError as error:
            if any(not e["loc"] for e in error.errors()):
                raise problem(expected) from None
            raise

    wrap.meaning = meaning or expected  # type: ignore[attr-defined]
    return WrapValidator(wrap)


def meaning(model: type[BaseModel], field: str) -> str:
    """What a field of ``model`` holds, as a sheet's header says it (``1-4``, ``coins or guards``)."""
    for item in model.model_fields[field].metadata:
        if isinstance(item, WrapValidator) and hasattr(item.func, "meaning"):
            return str(item.func.meaning)
    raise KeyError(f"{model.__name__}.{field} states no meaning")


def either(choices: Sequence[str]) -> str:
    """``gray, orange, purple or green``."""
    return ", ".join(choices[:-1]) + f" or {choices[-1]}" if len(choices) > 1 else "".join(choices)


@functools.cache
def Int(lo: int, hi: int) -> Any:  # noqa: N802 - a type, named as one
    """A JSON integer from ``lo`` to ``hi`` (inclusive)."""
    return Annotated[int, Strict(), Field(ge=lo, le=hi), expecting(int_expected(lo, hi), f"{lo}-{hi}")]


def OneOf(choices: Sequence[str], note: str = "") -> Any:  # noqa: N802
    """One of the strings ``choices``."""
    return _one_of(tuple(choices), note)


@functools.cache
def _one_of(choices: tuple[str, ...], note: str) -> Any:
    return Annotated[Literal[tuple(choices)], expecting(f"one of {names(choices)}{note}", either(choices))]


def ListOf(item: Any, lo: int = 0, hi: int | None = None, note: str = "") -> Any:  # noqa: N802
    """A list of ``lo``..``hi`` items of type ``item``."""
    return Annotated[list[item], Field(min_length=lo, max_length=hi), expecting(list_expected(lo, hi) + note)]


def never_rising(why: str) -> AfterValidator:
    """A list of integers none of which is above the one before it."""

    def check(values: list[int]) -> list[int]:
        for i in range(1, len(values)):
            if values[i] > values[i - 1]:
                raise problem(f"at most {values[i - 1]} ({why})", describe(values[i]), (i,))
        return values

    return AfterValidator(check)


Text = Annotated[str, Strict(), StringConstraints(pattern=r"\S"), expecting("a non-empty string", "text")]
Id = Annotated[str, Strict(), StringConstraints(pattern=ID_PATTERN), expecting(ID_RULE, "letters, digits, - and _")]
CatalogId = Annotated[str, Strict(), StringConstraints(pattern=CATALOG_ID_PATTERN), expecting(ID_RULE)]
Notes = Annotated[str, Strict(), expecting("a string")]
ProvenanceValue = OneOf(PROVENANCES)


def _provenance_form(value: Any) -> str | None:
    return "<one>" if isinstance(value, str) else "<each>" if isinstance(value, dict) else None


Provenance = Annotated[
    Union[Annotated[ProvenanceValue, Tag("<one>")], Annotated[dict[str, ProvenanceValue], Tag("<each>")]],
    Discriminator(_provenance_form),
    expecting(f"{names(PROVENANCES)} or an object mapping each field to one"),
]
"""Where values come from: one provenance for the whole entry, or one for each field
(that each field has one is ``catalog.checks``')."""


# ------------------------------------------------------------------ models


class Model(BaseModel):
    """An object of the catalog: exactly its keys, strict types, frozen once read."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)

    @model_validator(mode="wrap")
    @classmethod
    def _an_object_with_its_keys(cls, data: Any, handler: Callable[[Any], Any]) -> Any:
        """Not an object, or an unknown key, said with the keys this object has."""
        if not isinstance(data, dict):
            raise problem("an object")
        try:
            return handler(data)
        except ValidationError as error:
            errors = error.errors()
            if not any(e["type"] == "extra_forbidden" and len(e["loc"]) == 1 for e in errors):
                raise
            raise ValidationError.from_exception_data(cls.__name__, [cls._named(e) for e in errors]) from None

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        """The keys of this object, as the catalog writes them."""
        return tuple(f.alias or name for name, f in cls.model_fields.items())

    @classmethod
    def _named(cls, error: Any) -> InitErrorDetails:
        loc, context = tuple(error["loc"]), error.get("ctx") or {}
        if error["type"] == "extra_forbidden" and len(loc) == 1:
            expected = f"only the keys {names(cls.keys())}" if cls.keys() else "an empty object"
            return InitErrorDetails(type=problem(expected, f"the unknown key {describe(loc[0])}"), loc=(), input=error["input"])
        if error["type"] == PROBLEM:
            return InitErrorDetails(type=PydanticCustomError(PROBLEM, "expected {expected}", context), loc=loc, input=error["input"])
        if error["type"] == "missing":
            return InitErrorDetails(type="missing", loc=loc, input=error["input"])
        return InitErrorDetails(
            type=PydanticCustomError(error["type"], "{message}", {"message": error["msg"]}), loc=loc, input=error["input"]
        )


def _model(name: str, fields: Mapping[str, Any], aliases: Mapping[str, str] | None = None) -> type[Model]:
    """A model with these fields (name -> type, or (type, default) for an optional field)."""
    definitions: dict[str, Any] = {}
    for field_name, spec in fields.items():
        annotation, default = spec if isinstance(spec, tuple) else (spec, ...)
        alias = (aliases or {}).get(field_name)
        definitions[field_name] = (annotation, Field(default, alias=alias) if alias else default)
    return create_model(name, __base__=Model, **definitions)


def _keyed(name: str, keys: Sequence[str], value: Any, optional: bool = False, **more: Any) -> type[Model]:
    """A model whose keys are data (colours, cities, player counts): ``k_<key>`` fields aliased to them."""
    fields = {f"k_{k.replace('-', '_')}": (value, None) if optional else value for k in keys}
    aliases = {f"k_{k.replace('-', '_')}": k for k in keys}
    return _model(name, {**fields, **more}, aliases)


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
    return _model(f"Effect_{kind_name}", {"kind": Literal[kind_name], **fields})


Condition = _model("Condition", {key: (OneOf(choices), None) for key, choices in CONDITION_KEYS.items()})


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
    fallback = _model(f"Bonus_other{len(timings)}", {"timing": OneOf(timings, note), "effects": Any})

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
    return _model(f"Bonus_{timing}", {"timing": Literal[timing], "effects": effects})


# sections


Players = _model("Players", {"min": Int(MIN_PLAYERS, MAX_PLAYERS), "max": Int(MIN_PLAYERS, MAX_PLAYERS), "provenance": Provenance})
DicePool = _keyed("DicePool", DIE_COLORS, Int(0, 9))
DiceRemoved = _keyed("DiceRemoved", DIE_COLORS, Int(0, 9), optional=True)
DiceRemovedByPlayers = _keyed("DiceRemovedByPlayers", PLAYER_KEYS, DiceRemoved, optional=True)
Dice = _model("Dice", {"pool": DicePool, "removed": DiceRemovedByPlayers, "provenance": Provenance})
TokenRow = Annotated[ListOf(Int(1, 6)), never_rising("city rows run from 6 down to 1")]
Cities = _keyed("Cities", CITIES, TokenRow)
DieTokens = _keyed("DieTokens", PLAYER_KEYS, Cities, optional=True, provenance=Provenance)
StartResources = _model("StartResources", {"coins": Int(0, 99), "guards": Int(0, 99), "provenance": Provenance})
Limits = _model("Limits", {"coins": Int(1, 99), "guards": Int(1, 99), "influence": Int(1, 30), "provenance": Provenance})
RewardPair = ListOf(Int(0, 20), 2, 2, note=" [base, bonus_points]")
Tier = _model(
    "Tier",
    {"start": Int(0, 30), "end": Int(0, 30), **{t: RewardPair for t in TRACKS}},
    {"start": "from", "end": "to"},
)  # where each tier starts and ends against the others and the limit: catalog.checks
Income = _model("Income", {"tiers": ListOf(Tier, lo=1), "provenance": Provenance})
FlagCrowns = _model("FlagCrowns", {"values": ListOf(Int(0, 9)), "provenance": Provenance})
CrownTokens = _model("CrownTokens", {"crowns": Int(0, 9), "provenance": Provenance})
AlternativeAction = _model("AlternativeAction", {"coins": Int(0, 20), "guards": Int(0, 20), "provenance": Provenance})
Rows = _model("Rows", {"cards_per_row": Int(1, 12), "provenance": Provenance})
StartGroups = _model("StartGroups", {"cards_per_group": Int(1, 8), "provenance": Provenance})
Discs = _model("Discs", {"supply": Int(1, 99), "provenance": Provenance})
Leftover = _model("Leftover", {"coins_per_point": Int(0, 20), "guards_per_point": Int(0, 20)})
FinalScoring = _model("FinalScoring", {"leftover": Leftover, "tie_break": OneOf(TIE_BREAKS), "provenance": Provenance})

# entries

FavorTile = _model(
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
    return _model(f"Character_{pile or 'other'}", fields)


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

Monastery = _model(
    "Monastery", {"id": Id, "name": Text, "pile": OneOf(PILES), "reward": BonusIn(MONASTERY_TIMINGS, ""), "provenance": Provenance}
)
VoyageSpace = _model("VoyageSpace", {"resource": OneOf(SPENDABLE), "cost": Int(0, 99), "provenance": Provenance})
Voyage = _model("Voyage", {"id": Id, "name": Text, "task": Effects((END_GAME,), lo=1), "provenance": Provenance})
RankPoints = {
    side: Annotated[ListOf(Int(0, 99), ranks, ranks, note=" (points by rank)"), never_rising("points never rise with rank")]
    for side, ranks in SCORING_SIDES.items()
}
ScoringPoints = _model(
    "ScoringPoints",
    {f"k_{side.replace('-', '_')}": points for side, points in RankPoints.items()},
    {f"k_{side.replace('-', '_')}": side for side in SCORING_SIDES},
)
ScoringTile = _model("ScoringTile", {"id": Id, "name": Text, "points": ScoringPoints, "provenance": Provenance})
MapSpace = _model("MapSpace", {"id": Id, "kind": OneOf(SPACE_KINDS), "pile": (OneOf(PILES), None)})
Edge = ListOf(Any, 2, 2)  # which spaces an edge joins: catalog.checks
Map = _model("Map", {"spaces": ListOf(MapSpace, lo=1), "edges": ListOf(Edge), "provenance": Provenance})

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


TopLevel = _model(
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


def is_id(value: Any) -> bool:
    return isinstance(value, str) and re.fullmatch(_ID, value) is not None


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
