"""Reading a catalog's JSON into its model, with every problem found at once.

``catalog.schema`` (pydantic) checks each section's shape, ``catalog.checks`` how the
sections fit together. This module runs both, turns pydantic's errors into the loader's
problems (place, what was expected, what was found), and has ``catalog.assembly`` build
the frozen ``Catalog`` the rules read from a document that passed. Only a wrong ``format`` or ``schema`` stops
at once: a file of another kind or version has nothing else worth checking.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import ValidationError

from coimbra_events.catalog.assembly import OPTIONAL_SECTIONS, assemble
from coimbra_events.catalog.checks import Checks
from coimbra_events.catalog.model import FORMAT, SCHEMA, Catalog, CatalogError, CatalogProblem
from coimbra_events.catalog.schema import SECTIONS, adapter, place
from coimbra_events.catalog.schema_fields import PROBLEM, describe

_DEFAULT_SOURCE = "<catalog>"


def parse_catalog(data: Any, source: str = _DEFAULT_SOURCE) -> Catalog:
    """Validate parsed JSON ``data`` and build the :class:`Catalog`.

    Raises :class:`CatalogError` with every problem found; its message names ``source``
    unless that is the default ``"<catalog>"``.
    """
    problems = find_problems(data)
    if problems:
        raise CatalogError.of(problems, None if source == _DEFAULT_SOURCE else source)
    return assemble(data)


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
