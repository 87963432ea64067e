"""The component catalog: every printed value the rule texts leave to the missing
"Cards & Components" appendix, held as data (GAPS.md).

A catalog is a JSON file (``"format": "coimbra-catalog"``, ``"schema": 1``; the
format is documented in ``docs/catalog.md``). :func:`load_catalog` reads and
validates one and returns a frozen :class:`Catalog`; a bad one raises
:class:`CatalogError` with every problem found, each one line naming the place,
what was expected and what was found::

    characters[12] (id 'c-II-05').influence: expected an integer 1-4, got 7

The project ships a complete stand-in catalog (:func:`standin_catalog`, the one new games start with); clubs
install their own (``catalog.folder``), and :func:`find_catalog` finds either by
id and content hash. Every entry and section of a catalog carries its provenance:
``rules-text`` where one of the three rule texts gives the value, ``printed`` where
a group transcribed it from its box, ``stand-in`` otherwise; the loader flattens it
into :attr:`Catalog.provenance`.

A catalog whose content was checked already is not checked again: a folder of
catalogs lists the content hashes it vouches for in ``checked.sha256`` (the shipped
folder's list is kept true by ``tests/test_catalog_trust.py``; an installed catalog is
listed when ``catalog install`` has checked it, with the version of the checks). Such a
catalog is assembled directly, so a command that reads only the stand-in never imports
the checks (pydantic). Any other catalog, ``--catalog FILE`` included, is checked in full.

Effects (card bonuses, favor tiles, monastery rewards, voyage tasks) are parsed
into :class:`coimbra_events.catalog.effect_kinds.Effect` and checked against
:data:`coimbra_events.catalog.effect_kinds.KINDS`: kind, context, parameters, ranges.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from collections.abc import Iterable
from typing import Any, Mapping

import orjson

from coimbra_events.catalog.model import (  # the model, re-exported: import it from here
    CARD_TIMINGS,
    Catalog,
    CatalogError,
    CharacterCard,
    CITIES,
    DICE_PER_PLAYER,
    DIE_COLORS,
    FAVOR_CONTEXTS,
    FavorTile,
    FORMAT,
    IncomeTier,
    MapSpace,
    MAX_PLAYERS,
    Monastery,
    MONASTERY_TIMINGS,
    NO_BONUS,
    PilgrimMap,
    PRINTED,
    PROVENANCES,
    RULES_TEXT,
    SCHEMA,
    SCORING_SIDES,
    ScoringTile,
    SPACE_KINDS,
    STAND_IN,
    START_SPACES,
    TIE_BREAKS,
    TIMING_CONTEXTS,
    Voyage,
    VoyageSpace,
)
from coimbra_events.catalog.assembly import assemble, content_hash
from coimbra_events.catalog.folder import checked_in, installed, installed_dir
from coimbra_events.catalog.effect_kinds import Param
from coimbra_events.catalog.effect_text import forms


def parse_catalog(data: Any, source: str = "<catalog>") -> Catalog:
    """Validate parsed JSON ``data`` and build the :class:`Catalog` (see
    :func:`coimbra_events.catalog.parsing.parse_catalog`). The loader, and pydantic with
    it, is imported only when a catalog is read: commands that read none start faster."""
    from coimbra_events.catalog.parsing import parse_catalog as parse

    return parse(data, source)


def load_catalog(path: str | os.PathLike[str], checked: frozenset[str] = frozenset()) -> Catalog:
    """Read, parse and validate a catalog file. Raises :class:`CatalogError`
    (naming the file) for a missing or unreadable file, malformed JSON or an
    invalid catalog. A catalog whose content hash is in ``checked`` (see the
    module's docstring) is assembled without checking it again."""
    source = os.fspath(path)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise CatalogError("", "an existing catalog file", "no such file", source) from None
    except IsADirectoryError:
        raise CatalogError("", "a catalog file", "a directory", source) from None
    except OSError as error:
        raise CatalogError(
            "", "a readable catalog file", error.strerror or type(error).__name__, source
        ) from None
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        where = f"{error.msg} at line {error.lineno} column {error.colno}"
        raise CatalogError("", "valid JSON", where, source) from None
    if checked and isinstance(data, dict):
        sha256 = content_hash(data)
        if sha256 in checked:
            return assemble(data, sha256)
    return parse_catalog(data, source)


def catalog_dirs() -> tuple[Path, ...]:
    """Where the shipped catalogs live: ``fixtures/catalogs`` of the source tree, and
    ``coimbra_events/_catalogs`` where a built wheel puts them (those that exist)."""
    package = Path(__file__).resolve().parent.parent  # coimbra_events
    candidates = (package.parent / "fixtures" / "catalogs", package / "_catalogs")
    return tuple(d for d in candidates if d.is_dir()) or candidates[:1]


STANDIN_FILE = "standin-2.json"
"""The stand-in new games start with: ``standin-2``, the values of ``standin-1`` (``standin.json``) with a name for
every map space, so that what a person reads names every space. Records keep the catalog they name."""


@functools.cache
def standin_catalog() -> Catalog:
    """The shipped stand-in catalog every new game starts with when none is chosen (loaded once)."""
    for directory in catalog_dirs():
        if (directory / STANDIN_FILE).is_file():
            return load_catalog(directory / STANDIN_FILE, checked_in(directory))
    raise CatalogError("", "the shipped stand-in catalog", "no such file", STANDIN_FILE)


@functools.cache
def _shipped_catalogs() -> tuple[tuple[Catalog, ...], tuple[str, ...]]:
    """(the valid shipped catalogs, the names of shipped files that failed to load)."""
    catalogs, broken = [], []
    for directory in catalog_dirs():
        checked = checked_in(directory)
        for path in sorted(directory.glob("*.json")):
            try:
                catalogs.append(load_catalog(path, checked))
            except CatalogError:
                broken.append(path.name)
    return tuple(catalogs), tuple(broken)


def shipped_catalogs() -> tuple[Catalog, ...]:
    """The catalogs that ship with coimbra (those that load)."""
    return _shipped_catalogs()[0]


INSTALL_HINT = "install it with 'coimbra catalog install FILE', or give the file with --catalog FILE"


def find_catalog(catalog_id: str, sha256: str | None = None) -> Catalog:
    """The shipped or installed catalog with this id (and this hash, when given).

    Shipped catalogs come first; installed ones are those of ``catalog.folder``. A
    refusal names the catalog needed, what is there, and how to install it.
    """
    shipped, broken = _shipped_catalogs()
    for catalog in shipped:  # the folder is listed only for catalogs that are not shipped
        if catalog.id == catalog_id and (sha256 is None or catalog.sha256 == sha256):
            return catalog
    folder = installed()
    same_id = [c for c in (*shipped, *(c for c, _ in folder.catalogs)) if c.id == catalog_id]
    for catalog in same_id:
        if sha256 is None or catalog.sha256 == sha256:
            return catalog
    where = f"catalog {catalog_id!r}" + (f" sha256={sha256}" if sha256 else "")
    failed = [*broken, *(p.name for p, _ in folder.broken)]
    note = f"; files that failed to load: {', '.join(failed)}" if failed else ""
    if same_id:
        hashes = ", ".join(c.sha256 for c in same_id)
        raise CatalogError(
            where,
            "a shipped or installed catalog with this id and hash",
            f"only sha256={hashes}{note}; the log needs the file it was recorded with: {INSTALL_HINT}",
        )
    listed = f"shipped: {_ids(shipped)}; installed in {installed_dir()}: {_ids(c for c, _ in folder.catalogs)}{note}"
    raise CatalogError(where, f"the id of a shipped or installed catalog ({listed})", f"no such catalog ({INSTALL_HINT})")


def _ids(catalogs: Iterable[Catalog]) -> str:
    return ", ".join(sorted({c.id for c in catalogs})) or "none"


def effect_vocabulary_markdown() -> str:
    """The effect vocabulary as a markdown table (embedded in docs/catalog.md)."""
    lines = ["| kind | contexts | parameters | meaning | written |", "| --- | --- | --- | --- | --- |"]
    for form in forms():
        kind = form.kind
        params = "; ".join(_describe_param(n, p) for n, p in kind.params.items()) or "none"
        lines.append(f"| `{kind.name}` | {', '.join(kind.contexts)} | {params} | {kind.summary} | `{form.pattern}` |")
    return "\n".join(lines) + "\n"


def _describe_param(name: str, param: Param) -> str:
    kinds = {
        "int": f"integer {param.minimum}-{param.maximum}",
        "enum": " \\| ".join(f"`{c}`" for c in param.choices),
        "effects": f"non-empty effect list ({param.nested})",
        "condition": "card condition",
        "symbols": "non-empty list of symbols",
    }
    optional = " (optional)" if param.optional else ""
    return f"`{name}`{optional}: {kinds.get(param.type, param.type)}"


_CATALOGS: dict[str, Catalog] = {}
"""Catalogs seen in this process, by content hash: a cache, never a source of truth."""


def remember_catalog(catalog: Catalog) -> None:
    """Make a catalog known to this process, so games recorded with it can be folded."""
    _CATALOGS[catalog.sha256] = catalog


def resolve_catalog(catalog_id: str, sha256: str, data: Mapping[str, Any] | None) -> Catalog:
    """The catalog a game was created with: its stored copy, else the shipped one with that identity."""
    known = _CATALOGS.get(sha256)
    if known is not None:
        return known
    catalog = parse_catalog(data) if data is not None else find_catalog(catalog_id, sha256)
    if catalog.sha256 != sha256:
        raise CatalogError(f"catalog {catalog_id!r}", f"sha256={sha256}", f"sha256={catalog.sha256}")
    remember_catalog(catalog)
    return catalog


def is_shipped(catalog: Catalog) -> bool:
    """Whether the catalog ships with coimbra: any other one, installed ones included, is copied
    into the game, so a store opens wherever it is copied to."""
    return catalog in shipped_catalogs()


__all__ = [
    "is_shipped",
    "remember_catalog",
    "resolve_catalog",
    "CARD_TIMINGS",
    "Catalog",
    "catalog_dirs",
    "CatalogError",
    "CharacterCard",
    "CITIES",
    "DICE_PER_PLAYER",
    "DIE_COLORS",
    "effect_vocabulary_markdown",
    "FAVOR_CONTEXTS",
    "FavorTile",
    "find_catalog",
    "INSTALL_HINT",
    "FORMAT",
    "IncomeTier",
    "load_catalog",
    "MapSpace",
    "MAX_PLAYERS",
    "Monastery",
    "MONASTERY_TIMINGS",
    "NO_BONUS",
    "parse_catalog",
    "PilgrimMap",
    "PRINTED",
    "PROVENANCES",
    "RULES_TEXT",
    "SCHEMA",
    "SCORING_SIDES",
    "shipped_catalogs",
    "ScoringTile",
    "SPACE_KINDS",
    "STAND_IN",
    "standin_catalog",
    "STANDIN_FILE",
    "START_SPACES",
    "TIE_BREAKS",
    "TIMING_CONTEXTS",
    "Voyage",
    "VoyageSpace",
]
