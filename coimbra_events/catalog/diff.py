"""What differs between two catalogs, component by component and field by field.

Both catalogs are laid out as their fill-in sheets (``catalog.sheets``), so a
difference is named the way a person transcribing the box sees it: a sheet, a row's
component (its id and name, or its place) and a column, with the two cells.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from coimbra_events.catalog.model import Catalog
from coimbra_events.catalog.cells import column_key
from coimbra_events.catalog.sheets import Sheet, Table, all_rows, keys_of


@dataclass(frozen=True)
class Difference:
    """One difference: a field changed, or a component only one catalog has (``field`` empty)."""

    sheet: str
    component: str
    field: str
    a: str | None
    b: str | None

    @property
    def change(self) -> str:
        return "added" if self.a is None else "removed" if self.b is None else "changed"

    def to_json(self) -> dict[str, Any]:
        return {"sheet": self.sheet, "component": self.component, "change": self.change, "field": self.field or None,
                "a": self.a, "b": self.b}


def catalog_diff(a: Catalog, b: Catalog) -> list[Difference]:
    """Every difference from ``a`` to ``b``, in sheet order; none when they are the same catalog."""
    out = [Difference("catalog", "id", "id", a.id, b.id)] if a.id != b.id else []
    for (sheet, rows_a), (_, rows_b) in zip(all_rows(a.data), all_rows(b.data)):
        out.extend(_sheet_diff(sheet, rows_a, rows_b))
    return out


def _sheet_diff(sheet: Sheet | Table, rows_a: list[dict[str, str]], rows_b: list[dict[str, str]]) -> list[Difference]:
    name = sheet.file.removesuffix(".csv")
    by_a, by_b = _keyed(sheet, rows_a), _keyed(sheet, rows_b)
    counted = {column_key(sheet.number)} if isinstance(sheet, Sheet) and sheet.number else set()
    out = []
    for key in [*by_a, *(k for k in by_b if k not in by_a)]:
        row_a, row_b = by_a.get(key), by_b.get(key)
        label = sheet.label(row_a or row_b or {})
        if row_a is None or row_b is None:
            out.append(Difference(name, label, "", _cells(row_a), _cells(row_b)))
            continue
        out.extend(
            Difference(name, label, column, row_a[column], row_b[column])
            for column in keys_of(sheet) if column not in counted and row_a.get(column) != row_b.get(column)
        )  # fmt: skip
    return out


def _keyed(sheet: Sheet | Table, rows: list[dict[str, str]]) -> dict[Any, dict[str, str]]:
    """Rows by what names their component: an id, a place, an edge's two spaces, a table's key columns."""
    if isinstance(sheet, Table):
        return {tuple(r[k] for k in sheet.keys): r for r in rows}
    if rows and "id" in rows[0]:
        return {r["id"]: r for r in rows}
    if sheet.file == "map-edges.csv":
        return {frozenset((r["from"], r["to"])): r for r in rows}
    return dict(enumerate(rows))


def _cells(row: Mapping[str, str] | None) -> str | None:
    return None if row is None else "; ".join(f"{k}={v}" for k, v in row.items() if v)
