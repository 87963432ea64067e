"""``catalog build``: a folder of fill-in sheets read back into a catalog.

:func:`build` reads the sheets ``catalog template`` (``catalog.template``) wrote: each
value that differs from the catalog they come from (``BASE``) is marked ``printed``,
every other keeps the provenance its row (or ``settings.csv``) gives, the catalog
loader checks the result, and every problem is named by file, row and column.
Nothing is written on any problem: :class:`SheetError` lists them all.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from coimbra_events.catalog import load_catalog
from coimbra_events.catalog.assembly import OPTIONAL_SECTIONS, overall
from coimbra_events.catalog.cells import EFFECTS, NUMBER, WORDS, CellError, Column, column_key, put, read_provenance
from coimbra_events.catalog.model import FORMAT, PRINTED, PROVENANCES, SCHEMA, Catalog, CatalogError, CatalogProblem
from coimbra_events.catalog.parsing import find_problems, parse_catalog
from coimbra_events.catalog.schema import PLAYER_KEYS, SECTIONS
from coimbra_events.catalog.schema_fields import names
from coimbra_events.catalog.sheet_files import SheetFileError, read_table
from coimbra_events.catalog.sheets import ENTRY_SHEETS, SETTINGS, TABLE_SHEETS, Row, Setting, Sheet
from coimbra_events.catalog.template import BASE, SheetError, SheetProblem

_KEY = re.compile(r"^a key '[^']*'")
_MISSING = object()
Loc = tuple[str | int, ...]


def build(folder: Path, catalog_id: str) -> Catalog:
    """The catalog the sheets in ``folder`` describe, with id ``catalog_id``; raises :class:`SheetError`."""
    reader = _Reader(folder)
    base = reader.base()
    data = reader.document(catalog_id, base)
    if base is not None:
        reader.mark_provenance(data, base.data)
    # a sheet not read leaves the catalog without its part: the loader's problems would be about what is missing
    problems = [*reader.problems, *([] if reader.unread else reader.located(find_problems(data)))]
    if problems or base is None:
        raise SheetError(problems)
    return parse_catalog(data)


def write_catalog(catalog: Catalog, path: Path) -> None:
    """Write a built catalog as indented JSON (whole or not at all)."""
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(orjson.dumps(catalog.data, option=orjson.OPT_INDENT_2) + b"\n")
    os.replace(partial, path)


@dataclass
class _Place:
    file: str
    row: int | None
    column: Column | str | None


class _Reader:
    """Reading one folder of sheets: the problems found, and where each value of the catalog came from."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.problems: list[SheetProblem] = []
        self.places: dict[Loc, _Place] = {}
        self.bad_cells: set[tuple[str, int | None, str | None]] = set()
        self.unread: set[str] = set()
        self.provenance_cells: dict[Loc, tuple[str, Row]] = {}  # (section, field) or entry loc -> cell

    def problem(self, file: str, row: int | None, column: str | None, expected: str, got: str) -> None:
        self.problems.append(SheetProblem(file, row, column, expected, got))

    def base(self) -> Catalog | None:
        try:
            return load_catalog(self.folder / BASE)
        except CatalogError as error:
            self.problem(BASE, None, None, f"the catalog 'catalog template' wrote beside the sheets ({error.expected})", error.got)
            return None

    # -------------------------------------------------------------- files

    def read(self, file: str, headers: Sequence[str]) -> list[Row]:
        """The rows of a sheet by column key; problems of the file and its header are noted."""
        path = self.folder / file
        try:
            table = read_table(path.read_bytes(), {column_key(h) for h in headers})
        except FileNotFoundError:
            return self._unread(file, "the sheet 'catalog template' writes", "no such file")
        except OSError as error:
            return self._unread(file, "a readable file", error.strerror or type(error).__name__)
        except SheetFileError as error:
            return self._unread(file, error.expected, error.got)
        if not table:
            return self._unread(file, "a header row", "an empty file")
        return self._rows(file, headers, table)

    def _unread(self, file: str, expected: str, got: str, row: int | None = None) -> list[Row]:
        self.problem(file, row, None, expected, got)
        self.unread.add(file)
        return []

    def _rows(self, file: str, headers: Sequence[str], table: list[list[str]]) -> list[Row]:
        """The rows under a header that names every column; a header that does not stops the file with one
        problem (its rows, judged against the wrong columns, would each give problems of their own)."""
        wanted = {column_key(h): h for h in headers}
        found = [column_key(h) for h in table[0]]
        missing = [key for key in wanted if key not in found]
        unknown = [header for key, header in zip(found, table[0]) if key not in wanted and header.strip()]
        if missing:
            expected = f"a column {wanted[missing[0]]!r}" if len(missing) == 1 else \
                f"the columns {', '.join(map(repr, missing))} in its header row"
            got = "none" if not unknown else f"the column{'s' if len(unknown) > 1 else ''} {_some(unknown)} instead"
            return self._unread(file, expected, got, row=1)
        for header in unknown:
            self.problem(file, 1, None, f"only the columns {', '.join(map(repr, wanted))}", f"the column {header!r}")
        rows = []
        for number, cells in enumerate(table[1:], 2):
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > len(found) and any(c.strip() for c in cells[len(found):]):
                self.problem(file, number, None, f"at most {len(found)} cells (one per column)", f"{len(cells)}")
            rows.append(Row(number, {k: (cells[i] if i < len(cells) else "") for i, k in enumerate(found) if k in wanted}))
        return rows

    def place(self, loc: Loc, file: str, row: int | None = None, column: Column | str | None = None) -> None:
        self.places[loc] = _Place(file, row, column)

    # -------------------------------------------------------------- the document

    def document(self, catalog_id: str, base: Catalog | None) -> dict[str, Any]:
        """The catalog's JSON as the sheets spell it (provenance of entries and sections not yet marked)."""
        data: dict[str, Any] = {"format": FORMAT, "schema": SCHEMA, "id": catalog_id}
        self.place(("id",), "--id")
        self._settings(data)
        self._dice(data)
        self._tokens(data)
        for sheet in ENTRY_SHEETS:
            self._entries(data, sheet)
        ordered = {k: data[k] for k in ("format", "schema", "id", "title", "notes") if k in data}
        return {**ordered, **{name: data[name] for name in SECTIONS if name in data}}

    def _settings(self, data: dict[str, Any]) -> None:
        table = TABLE_SHEETS[0]
        known = {(s.section, s.field): s for s in (*SETTINGS, *_token_settings())}
        seen: set[tuple[str, str]] = set()
        for row in self.read(table.file, list(table.headers.values())):
            key = (row.cells.get("section", "").strip(), row.cells.get("field", "").strip())
            setting = known.get(key)
            if setting is None:
                self.problem(table.file, row.number, "field", "a section and field this sheet lists", f"{' '.join(key)!r}")
                continue
            if key in seen:
                self.problem(table.file, row.number, "field", "each section field once", f"{' '.join(key)!r} again")
                continue
            seen.add(key)
            self._setting(data, setting, row)
        if table.file not in self.unread:
            for setting in SETTINGS:
                if (setting.section, setting.field) not in seen and setting.field != "notes":
                    self.problem(table.file, None, None, f"a row for {setting.section} {setting.field}", "none")

    def _setting(self, data: dict[str, Any], setting: Setting, row: Row) -> None:
        file, text = TABLE_SHEETS[0].file, row.cells.get("value", "")
        if setting.sheet:
            if text.strip():
                self.problem(file, row.number, "value", f"an empty cell (the values are in {setting.sheet})", repr(text))
        elif setting.section == "catalog":
            if text.strip() or setting.field == "title":
                data[setting.field] = text
                self.place((setting.field,), file, row.number, "value")
        else:
            put(data, setting.path, setting.cell.read(text))
            self.place(setting.path, file, row.number, "value")
        if setting.section != "catalog":
            self.provenance_cells[(setting.section, setting.field)] = (row.cells.get("provenance", ""), row)
            self.place((setting.section, "provenance"), file, None, "provenance")
            self.place((setting.section,), file, None, None)

    def _dice(self, data: dict[str, Any]) -> None:
        table = TABLE_SHEETS[1]
        pool: dict[str, Any] = {}
        removed: dict[str, dict[str, Any]] = {}
        for row in self.read(table.file, list(table.headers.values())):
            colour = row.cells.get("colour", "").strip()
            pool[colour] = NUMBER.read(row.cells.get("pool", ""))
            self.place(("dice", "pool", colour), table.file, row.number, "pool")
            for n in PLAYER_KEYS:
                column = f"removed with {n} players"
                text = row.cells.get(column, "")
                if text.strip():
                    removed.setdefault(n, {})[colour] = NUMBER.read(text)
                self.place(("dice", "removed", n, colour), table.file, row.number, column)
        for n in PLAYER_KEYS:
            self.place(("dice", "removed", n), table.file, None, f"removed with {n} players")
        self.place(("dice", "pool"), table.file, None, "pool")
        self.place(("dice", "removed"), table.file)
        section = data.setdefault("dice", {})
        section.update(pool=pool, removed=removed)

    def _tokens(self, data: dict[str, Any]) -> None:
        table = TABLE_SHEETS[2]
        tokens: dict[str, Any] = data.setdefault("die_tokens", {})
        for row in self.read(table.file, list(table.headers.values())):
            players, city = row.cells.get("players", "").strip(), row.cells.get("city", "").strip().lower()
            tokens.setdefault(players, {})[city] = WORDS.read(row.cells.get("tokens", ""))
            self.place(("die_tokens", players, city), table.file, row.number, "tokens")
            self.place(("die_tokens", players), table.file, row.number, "players")
        self.place(("die_tokens",), table.file)

    def _entries(self, data: dict[str, Any], sheet: Sheet) -> None:
        shared = [s.file for s in ENTRY_SHEETS if s.items == sheet.items]
        items = _list_for(data, sheet.items)
        self.place(sheet.items, " and ".join(shared))
        noted: list[tuple[Row, Column | None, CellError]] = []
        for row in self.read(sheet.file, sheet.headers):
            index = len(items)
            items.append(sheet.entry(row, noted))
            self.place((*sheet.items, index), sheet.file, row.number)
            for column in sheet.columns:
                self.place((*sheet.items, index, *column.path), sheet.file, row.number, column)
            if sheet.provenance:
                self.provenance_cells[(*sheet.items, index)] = (row.cells.get("provenance", ""), row)
                self.place((*sheet.items, index, "provenance"), sheet.file, row.number, "provenance")
        for row, column, error in noted:
            self.cell_problem(sheet.file, row, column.key if column else None, error)

    def cell_problem(self, file: str, row: Row, column: str | None, error: CellError) -> None:
        self.problem(file, row.number, column, error.expected, repr(error.got))
        self.bad_cells.add((file, row.number, column))

    # -------------------------------------------------------------- provenance

    def mark_provenance(self, data: dict[str, Any], base: Mapping[str, Any]) -> None:
        """Each entry's and section's provenance: ``printed`` where a value differs from ``base``,
        else what its cell says."""
        for sheet in ENTRY_SHEETS:
            if not sheet.provenance:
                continue
            before = _by_key(_list_in(base, sheet.items))
            for index, entry in enumerate(_list_in(data, sheet.items)):
                cell = self.provenance_cells.get((*sheet.items, index))
                if cell is not None and isinstance(entry, dict):
                    old = before.get(entry.get("id", index)) if "id" in entry else before.get(index)
                    entry["provenance"] = self._entry_provenance(sheet.file, entry, old, cell)
        for name in SECTIONS:
            if isinstance(data.get(name), dict):
                self._section_provenance(data, base, name)

    def _entry_provenance(self, file: str, entry: Mapping[str, Any], old: Any, cell: tuple[str, Row]) -> Any:
        fields = [k for k in entry if k != "provenance"]
        changed = [f for f in fields if not isinstance(old, dict) or old.get(f, _MISSING) != entry[f]]
        given = self._cell_provenance(file, cell, fields, needed=[f for f in fields if f not in changed])
        per_field = {f: PRINTED if f in changed else given.get(f, given.get("*", PRINTED)) for f in fields}
        return _compact(per_field)

    def _cell_provenance(self, file: str, cell: tuple[str, Row], fields: list[str], needed: list[str]) -> dict[str, str]:
        text, row = cell
        if not needed:  # every value of the row is new: printed, whatever the cell says
            return {}
        try:
            given = read_provenance(text, fields)
        except CellError as error:
            self.cell_problem(file, row, "provenance", error)
            return {"*": PRINTED}
        uncovered = [f for f in needed if f not in given and "*" not in given]
        if uncovered:
            self.cell_problem(file, row, "provenance", CellError(f"a provenance for every field (none for {', '.join(uncovered)})", text))
        return given

    def _section_provenance(self, data: dict[str, Any], base: Mapping[str, Any], name: str) -> None:
        """A section's provenance, field by field: its settings rows' cells, ``printed`` where changed."""
        section = data[name]
        before = base.get(name, OPTIONAL_SECTIONS.get(name, {}))
        per_field: dict[str, str] = {}
        for field in (k for k in section if k != "provenance"):
            unchanged = before.get(field, _MISSING) == section[field]
            values = []
            for setting in (s for s in (*SETTINGS, *_token_settings()) if s.section == name and s.top == field):
                cell = self.provenance_cells.get((name, setting.field))
                if cell is None:
                    continue
                own_change = not unchanged and (setting.sheet or _value(before, setting.path[1:]) != _value(data, setting.path))
                values.append(PRINTED if own_change else self._one_provenance(cell))
            if not values and unchanged and TABLE_SHEETS[0].file not in self.unread:
                self.problem(TABLE_SHEETS[0].file, None, None, f"a row for {name} {field} with its provenance", "none")
            per_field[field] = overall(values) if values else PRINTED
        section["provenance"] = _compact(per_field)
        if name in OPTIONAL_SECTIONS and name not in base and section == OPTIONAL_SECTIONS[name]:
            del data[name]  # left out, as in the catalog the sheets came from

    def _one_provenance(self, cell: tuple[str, Row]) -> str:
        text, row = cell
        if text.strip() in PROVENANCES:
            return text.strip()
        self.cell_problem(TABLE_SHEETS[0].file, row, "provenance", CellError(f"one of {names(PROVENANCES)}", text))
        return PRINTED

    # -------------------------------------------------------------- the loader's problems

    def located(self, problems: Iterable[CatalogProblem]) -> list[SheetProblem]:
        """The loader's problems, each named by the file, row and column its value came from."""
        out = []
        for p in problems:
            place, rest = self._find(p.loc)
            if place is None:
                out.append(SheetProblem("the catalog", None, None, p.expected, f"{p.got} (at {p.where})"))
                continue
            column = place.column.key if isinstance(place.column, Column) else place.column
            if (place.file, place.row, column) in self.bad_cells:
                continue
            expected, got = p.expected, p.got
            if column and got == "none" and not rest and _KEY.match(expected):
                expected, got = _KEY.sub("a value", expected, count=1), "an empty cell"
            if p.other_where:
                other, _ = self._find(p.other)
                if other is not None and other.row:
                    got = got.replace(p.other_where, f"{other.file} row {other.row}")
            out.append(SheetProblem(place.file, place.row, column, expected, got, _detail(rest, place.column)))
        return out

    def _find(self, loc: Loc) -> tuple[_Place | None, Loc]:
        for n in range(len(loc), -1, -1):
            if loc[:n] in self.places:
                return self.places[loc[:n]], loc[n:]
        return None, loc


def _detail(rest: Loc, column: Column | str | None) -> str:
    """Where inside a cell a problem is: ``effect 2, amount: ``."""
    if not rest:
        return ""
    words = []
    in_effects = isinstance(column, Column) and column.cell is EFFECTS
    for key in rest:
        if isinstance(key, int):
            words.append(f"{'effect' if in_effects else 'item'} {key + 1}")
        elif key != "effects" or not in_effects:
            words.append(str(key))
    return ", ".join(words)


def _some(cells: Sequence[str], most: int = 4) -> str:
    """``'a', 'b', 'c', 'd' and 3 more``: the first few of many cells."""
    shown = ", ".join(repr(c[:40]) for c in cells[:most])
    return shown + (f" and {len(cells) - most} more" if len(cells) > most else "")


def _token_settings() -> list[Setting]:
    return [Setting("die_tokens", n, "", sheet="die-tokens.csv") for n in PLAYER_KEYS]


def _list_in(data: Mapping[str, Any], path: Loc) -> list[Any]:
    """The list at ``path`` of a catalog's JSON, or none."""
    value = _value(data, path)
    return value if isinstance(value, list) else []


def _list_for(data: dict[str, Any], path: Loc) -> list[Any]:
    """The list at ``path`` of the JSON being built, made where it is not yet."""
    if _value(data, path) is _MISSING:
        put(data, path, [])
    return _value(data, path)  # type: ignore[no-any-return]


def _value(data: Any, path: Loc) -> Any:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return _MISSING
        data = data[key]
    return data


def _by_key(entries: list[Any]) -> dict[Any, Any]:
    """Entries of the base catalog by id, or by place where they have none."""
    return {(e["id"] if isinstance(e, dict) and "id" in e else i): e for i, e in enumerate(entries)}


def _compact(per_field: Mapping[str, str]) -> Any:
    """One provenance for the whole object when its fields agree, else one per field."""
    values = set(per_field.values())
    return next(iter(values)) if len(values) == 1 else dict(per_field)
