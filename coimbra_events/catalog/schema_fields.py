"""The catalog schema's building blocks: field types that say what they expect, and the base ``Model``.

Every type states what it expects in the loader's own words (``Int(1, 4)``: "an
integer 1-4"), so a problem reads the same whichever check found it. Each such problem
is a pydantic error of type ``PROBLEM`` whose context holds ``expected``, and ``got``
and ``at`` (a further path) where they are not the value's own. The models of the
catalog's sections and entries built from them are ``catalog.schema``'s.
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
    ValidationError,
    WrapValidator,
    create_model,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from coimbra_events.catalog.model import PROVENANCES

PROBLEM = "catalog"
"""The pydantic error type of every problem this schema states in its own words."""

_ID = r"[A-Za-z0-9][A-Za-z0-9_-]*"
ID_PATTERN = f"^{_ID}$"
CATALOG_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"
ID_RULE = "an id of letters, digits, '-' and '_' (starting with a letter or digit)"

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
(that each field has one is ``catalog_checks``')."""


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


def object_model(name: str, fields: Mapping[str, Any], aliases: Mapping[str, str] | None = None) -> type[Model]:
    """A model with these fields (name -> type, or (type, default) for an optional field)."""
    definitions: dict[str, Any] = {}
    for field_name, spec in fields.items():
        annotation, default = spec if isinstance(spec, tuple) else (spec, ...)
        alias = (aliases or {}).get(field_name)
        definitions[field_name] = (annotation, Field(default, alias=alias) if alias else default)
    return create_model(name, __base__=Model, **definitions)


def keyed_model(name: str, keys: Sequence[str], value: Any, optional: bool = False, **more: Any) -> type[Model]:
    """A model whose keys are data (colours, cities, player counts): ``k_<key>`` fields aliased to them."""
    fields = {f"k_{k.replace('-', '_')}": (value, None) if optional else value for k in keys}
    aliases = {f"k_{k.replace('-', '_')}": k for k in keys}
    return object_model(name, {**fields, **more}, aliases)


def is_id(value: Any) -> bool:
    return isinstance(value, str) and re.fullmatch(_ID, value) is not None
