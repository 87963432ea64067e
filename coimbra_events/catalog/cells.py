"""A sheet's cells and columns: how a value is written in a cell and read back, and where it sits.

A :class:`Column` says where in a catalog entry's JSON its value sits (``Column.path``)
and how it is written (a :class:`Cell`); ``put`` sets a value read back at its place.
Reading is lenient: a cell is turned into the value it spells (``7``, ``[3, 2]``, an
effect) or kept as written, for the catalog loader to judge. A provenance cell names
one provenance for the whole row or one per field. The sheets themselves, which columns
each holds, are ``catalog.sheets``'.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from coimbra_events.catalog import effect_text
from coimbra_events.catalog.model import PROVENANCES
from coimbra_events.catalog.schema_fields import names

Loc = tuple[str | int, ...]


class CellError(ValueError):
    """A cell that spells no value of its column: what was expected, what was found."""

    def __init__(self, expected: str, got: str) -> None:
        super().__init__(f"expected {expected}, got {got!r}")
        self.expected, self.got = expected, got


# ------------------------------------------------------------------ cells


class Cell:
    """How a value is written in a cell and read back."""

    def write(self, value: Any) -> str:
        return str(value)

    def read(self, text: str) -> Any:
        return text


class Number(Cell):
    """A whole number; anything else is kept as written, for the loader to refuse precisely."""

    def read(self, text: str) -> Any:
        stripped = text.strip()
        return int(stripped) if re.fullmatch(r"[+-]?\d+", stripped) else stripped


class Words(Cell):
    """A list written with spaces between its items (numbers read as numbers)."""

    def write(self, value: Any) -> str:
        return " ".join(map(str, value))

    def read(self, text: str) -> Any:
        return [Number().read(w) if re.fullmatch(r"[+-]?\d+", w) else w for w in text.split()]


class OneOf(Cell):
    """One of a few words, read regardless of case (``ii`` is pile ``II``)."""

    def __init__(self, choices: Sequence[str]) -> None:
        self.choices = tuple(choices)

    def read(self, text: str) -> Any:
        stripped = text.strip()
        return next((c for c in self.choices if c.lower() == stripped.lower()), stripped)


class Effects(Cell):
    """An effect list in short form (``effect_text``)."""

    def write(self, value: Any) -> str:
        return effect_text.render(effect_text.from_json(e) for e in value)

    def read(self, text: str) -> Any:
        try:
            return effect_text.parse(text)
        except effect_text.EffectTextError as error:
            raise CellError(error.expected, error.got) from None


TEXT, NUMBER, WORDS, EFFECTS = Cell(), Number(), Words(), Effects()


@dataclass(frozen=True)
class Column:
    """One column: its key (the header's first words, by which ``build`` finds it), what
    its values are (unit, then the range the schema allows), where a value sits in the
    row's JSON object, and how it is written."""

    key: str
    unit: str
    path: Loc
    cell: Cell = TEXT
    optional: bool = False  # an empty cell leaves the key out

    @property
    def header(self) -> str:
        return f"{self.key} ({self.unit})" if self.unit else self.key


def column_key(header: str) -> str:
    """The key a header names: ``influence (spaces on its track, 1-4)`` -> ``influence``."""
    return header.split(" (", 1)[0].strip().lower()


def value_at(value: Any, path: Loc) -> Any:
    """The value at ``path`` (``KeyError`` or ``IndexError`` if there is none)."""
    for key in path:
        value = value[key]
    return value


def has_value(value: Any, path: Loc) -> bool:
    """Whether there is a value at ``path``."""
    for key in path:
        if isinstance(value, dict) and key in value:
            value = value[key]
        elif isinstance(value, list) and isinstance(key, int) and key < len(value):
            value = value[key]
        else:
            return False
    return True


def put(target: Any, path: Loc, value: Any) -> None:
    """Set the value at ``path``, making the objects and lists (for a number key) on the way."""
    for key, after in zip(path, path[1:]):
        target = _slot(target, key, [] if isinstance(after, int) else {})
    _slot(target, path[-1], value, replace=True)


def _slot(target: Any, key: str | int, value: Any, replace: bool = False) -> Any:
    if isinstance(target, list) and isinstance(key, int):
        target.extend([None] * (key + 1 - len(target)))
        if replace or target[key] is None:
            target[key] = value
        return target[key]
    if replace:
        target[key] = value
        return value
    return target.setdefault(key, value)


# ------------------------------------------------------------------ provenance in a cell


def provenance_label(given: str | Mapping[str, str]) -> str:
    """``stand-in``, or ``rules-text: crowns, effects; stand-in: id, name`` (one group per value)."""
    if isinstance(given, str):
        return given
    return "; ".join(f"{p}: {', '.join(f for f, v in given.items() if v == p)}" for p in PROVENANCES if p in given.values())


def read_provenance(text: str, fields: Sequence[str]) -> dict[str, str]:
    """A provenance cell as field -> provenance (``{"*": p}`` when one value covers all)."""
    text = text.strip()
    if text in PROVENANCES:
        return {"*": text}
    per_field: dict[str, str] = {}
    for group in (g.strip() for g in text.split(";") if g.strip()):
        value, _, listed = group.partition(":")
        value = value.strip()
        if value not in PROVENANCES or not listed.strip():
            raise CellError(f"one of {names(PROVENANCES)}, or groups such as 'rules-text: crowns, effects; stand-in: name'", text)
        for name in (n.strip() for n in listed.split(",") if n.strip()):
            if name not in fields:
                raise CellError(f"fields of this row ({', '.join(fields)})", name)
            per_field[name] = value
    if not per_field:
        raise CellError(f"a provenance, one of {names(PROVENANCES)}", text)
    return per_field


def provenance_of(obj: Mapping[str, Any], name: str) -> str:
    """The provenance of one field of a section or entry."""
    given = obj["provenance"]
    return given if isinstance(given, str) else given[name]
