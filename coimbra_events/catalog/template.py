"""``catalog template``: a catalog written out as fill-in sheets, with a README on filling them in.

:func:`write_template` writes every sheet of ``catalog.sheets`` into a new folder, with
``README.txt`` and the catalog they come from (``BASE``), which ``catalog build``
(``catalog.build``) reads the sheets back against. What can be wrong with a folder of
sheets (:class:`SheetError`) is named here, as both directions report it.
"""

from __future__ import annotations

import csv
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import orjson

from coimbra_events.catalog import effect_text
from coimbra_events.catalog.effect_kinds import CONDITION_KEYS
from coimbra_events.catalog.model import Catalog
from coimbra_events.catalog.sheets import ENTRY_SHEETS, SHEET_FILES, TABLE_SHEETS, all_rows, headers_of, keys_of

BASE = "_base-catalog.json"
README = "README.txt"


@dataclass(frozen=True)
class SheetProblem:
    """One problem of the sheets: file, row (the header is row 1) and column where known."""

    file: str
    row: int | None
    column: str | None
    expected: str
    got: str
    detail: str = ""  # where inside the cell: "effect 2, amount"

    def __str__(self) -> str:
        place = self.file + (f" row {self.row}" if self.row else "") + (f", column {self.column!r}" if self.column else "")
        return f"{place}{', ' + self.detail if self.detail else ''}: expected {self.expected}, got {self.got}"


class SheetError(Exception):
    """Sheets that do not make a catalog: every problem found, in sheet and row order."""

    def __init__(self, problems: Sequence[SheetProblem]) -> None:
        order = {f: i for i, f in enumerate((BASE, *SHEET_FILES))}
        self.problems = sorted(problems, key=lambda p: (order.get(p.file, len(order)), p.row or 0))
        more = len(self.problems) - 1
        super().__init__(f"{self.problems[0]}" + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""))


def write_template(catalog: Catalog, folder: Path) -> list[Path]:
    """Write the sheets of ``catalog``, README.txt and the base catalog into ``folder``.

    Raises :class:`SheetError` when ``folder`` already holds any of them: filled-in
    sheets are never overwritten.
    """
    taken = [f for f in (*SHEET_FILES, README, BASE) if (folder / f).exists()]
    if taken or (folder.exists() and not folder.is_dir()):
        got = f"a folder that already holds {', '.join(taken)}" if taken else "a file"
        raise SheetError([SheetProblem(str(folder), None, None, "a new or empty folder for the sheets", got)])
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for sheet, rows in all_rows(catalog.data):
        path = folder / sheet.file
        with path.open("w", newline="", encoding="utf-8-sig") as out:  # the BOM tells spreadsheets it is UTF-8
            writer = csv.writer(out)
            writer.writerow(headers_of(sheet))
            writer.writerows([row[k] for k in keys_of(sheet)] for row in rows)
        written.append(path)
    (folder / README).write_text(readme(catalog), encoding="utf-8")
    (folder / BASE).write_bytes(orjson.dumps(catalog.data, option=orjson.OPT_INDENT_2) + b"\n")
    return [*written, folder / README, folder / BASE]


def readme(catalog: Catalog) -> str:
    """How to fill in the sheets, with every sheet and every effect's short form."""
    sheets = [(s.file, s.what, s.advice) for s in (*TABLE_SHEETS, *ENTRY_SHEETS)]
    lines = [
        f"Fill-in sheets of the catalog {catalog.id!r} ({catalog.title})",
        "",
        "Each .csv file is one kind of component: a row per component, a column per value. Open them in any",
        "spreadsheet program, overwrite what the printed components of your box say, and save them as CSV",
        "under the same names ('CSV UTF-8' is best; semicolons or tabs between the cells, and the Windows",
        "encodings, are read too). Each header says what its column holds: its unit and range in brackets.",
        "Keep the header words before the bracket; add a row for a component the box has and the sheet",
        "does not, delete the row of one it has not. Empty rows are ignored.",
        "",
        "Then build the catalog (every problem is listed with its file, row and column; nothing is written",
        "until there is none), and share it with your club:",
        "",
        "    coimbra catalog build THIS-FOLDER -o my-box.json --id my-box-1",
        "    coimbra catalog install my-box.json",
        "    coimbra new --players 'Ana:red,Bruno:blue' --catalog my-box.json",
        "",
        "Provenance: every value you change is marked 'printed' (transcribed from the box); every value you",
        "leave keeps its provenance, 'rules-text' (given by the rule texts) or 'stand-in' (invented so that",
        "games can be played; never the printed value). Where a stand-in value is what your box prints, write",
        "'printed' in its provenance cell. A cell may give one provenance for the whole row, or one per",
        "field: 'rules-text: crowns, effects; stand-in: id, name'.",
        "",
        f"{BASE} is the catalog these sheets were written from: build compares your sheets with it.",
        "Leave it as it is.",
        "",
        "The sheets",
        "",
        *(line for file, what, advice in sheets
          for line in textwrap.wrap(f"{file}: {what}.{' ' + advice if advice else ''}", 100, initial_indent="  ",
                                    subsequent_indent="      ")),
        "",
        "Effects",
        "",
        "A bonus, reward, task or tile effect is written in a short form; several effects with '; ' between",
        "them. Words in capitals stand for a value; a part in [brackets] may be left out.",
        "",
        *(line for form in effect_text.forms() for line in _form_lines(form)),
        "",
        f"A card CONDITION is 'any', or words among {', '.join(c for cs in CONDITION_KEYS.values() for c in cs)}",
        "(at most one of each: a category, a cost, a pile), e.g. 'on acquiring green card: gain 1 points'.",
        "",
    ]
    return "\n".join(lines)


def _form_lines(form: effect_text.Form) -> list[str]:
    kind = form.kind
    lines = [f"  {form.pattern}"]
    for text in (f"{kind.summary} (in {', '.join(kind.contexts)})", *([form.slots()] if kind.params else [])):
        lines.extend(textwrap.wrap(text, 100, initial_indent="      ", subsequent_indent="      "))
    return lines
