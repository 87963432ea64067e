"""Fill-in sheets saved as spreadsheet programs save them, built through the installed command.

Excel in Portugal, Spain, France or Germany separates cells with ``;``; its
"Unicode text" is UTF-16 with tabs; older programs write cp1252; "CSV UTF-8"
begins with a byte order mark. Each is read to the same catalog as the sheets
``catalog template`` wrote; what cannot be read is refused in one line that says
what was found and how to save the sheet; a header a program damaged stops its
file with one problem, not one per row.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coimbra_events.catalog import load_catalog, standin_catalog
from coimbra_events.catalog.sheet_files import read_table
from coimbra_events.catalog.sheets import SHEET_FILES
from coimbra_events.catalog.template import write_template
from tests.test_catalog_sheets import STANDIN_SHA256, _table, coimbra


@pytest.fixture
def sheets(tmp_path: Path) -> Path:
    folder = tmp_path / "box"
    write_template(standin_catalog(), folder)
    return folder


def resave(folder: Path, separator: str, encoding: str, files: tuple[str, ...] = SHEET_FILES, first: str = "",
           end: str = "\r\n") -> None:
    """Save sheets again as a spreadsheet program of another language would: another separator and encoding
    (and ``first``, a line some programs write before the header; ``end``, how lines end)."""
    for file in files:
        out = io.StringIO(first)
        out.seek(len(first))
        csv.writer(out, delimiter=separator, lineterminator=end).writerows(_table(folder / file))
        (folder / file).write_bytes(out.getvalue().encode(encoding))


def build(folder: Path, tmp_path: Path):
    return coimbra("catalog", "build", str(folder), "-o", str(tmp_path / "box.json"), "--id", "standin-2")


SAVED_AS = [
    pytest.param(";", "cp1252", id="semicolons-cp1252"),  # Excel "CSV (separado por vírgulas)" in Portugal
    pytest.param(";", "utf-8-sig", id="semicolons-utf8-bom"),  # "CSV UTF-8" in Portugal, Spain, France, Germany
    pytest.param("\t", "utf-16", id="tabs-utf16"),  # Excel "Unicode Text"
    pytest.param("\t", "utf-8", id="tabs-utf8"),  # LibreOffice, tab separated, no BOM
    pytest.param(",", "latin-1", id="commas-latin1"),
]


def test_a_sep_line_before_the_header_says_the_separator(sheets: Path, tmp_path: Path) -> None:
    """``sep=;``: the first line some programs write so that Excel splits the cells at semicolons."""
    resave(sheets, ";", "utf-8-sig", first="sep=;\r\n")
    assert build(sheets, tmp_path).returncode == 0


@pytest.mark.parametrize(("separator", "encoding"), SAVED_AS)
def test_sheets_saved_with_another_separator_or_encoding_build_the_same_catalog(
        sheets: Path, tmp_path: Path, separator: str, encoding: str) -> None:  # fmt: skip
    resave(sheets, separator, encoding)
    saved = (sheets / "monasteries.csv").read_bytes()
    assert "São Vicente de Fora" in saved.decode(encoding) and (encoding.startswith("utf-8") or b"S\xc3\xa3o" not in saved)
    built = build(sheets, tmp_path)
    assert built.returncode == 0, built.stderr
    assert load_catalog(tmp_path / "box.json").sha256 == STANDIN_SHA256


def test_one_sheet_saved_otherwise_among_the_others_is_read_too(sheets: Path, tmp_path: Path) -> None:
    resave(sheets, ";", "cp1252", files=("characters.csv",))
    resave(sheets, "\t", "utf-8", files=("monasteries.csv",), end="\r")  # lines ended as old Macs end them
    assert build(sheets, tmp_path).returncode == 0


LATIN_ROW = "m-I-12,Sofála,I,immediate,gain 1 coins,stand-in\r\n".encode("cp1252")
"""A row typed in a program that saves cp1252, added to a sheet saved as UTF-8."""

REFUSED = [
    pytest.param(lambda f: resave(f, "|", "utf-8", files=("voyages.csv",)),
                 "voyages.csv: expected cells separated by commas, semicolons or tabs (save it as 'CSV UTF-8 (comma "
                 "delimited)'), got a header row separated by vertical bars '|'", id="vertical-bars"),
    pytest.param(lambda f: (f / "voyages.csv").write_bytes(b"PK\x03\x04" + bytes(60)),
                 "voyages.csv: expected a CSV file (save it as 'CSV UTF-8 (comma delimited)'), got a spreadsheet "
                 "workbook (.xlsx or .ods)", id="workbook"),
    pytest.param(lambda f: (f / "monasteries.csv").write_bytes((f / "monasteries.csv").read_bytes()[3:] + LATIN_ROW),
                 "monasteries.csv: expected text in one encoding (save it as 'CSV UTF-8 (comma delimited)'), got "
                 "UTF-8 mixed with another encoding (a byte that is not UTF-8 at {at})", id="mixed-encodings"),
    pytest.param(lambda f: (f / "monasteries.csv").write_bytes((f / "monasteries.csv").read_bytes() + LATIN_ROW),
                 "monasteries.csv: expected text in one encoding (save it as 'CSV UTF-8 (comma delimited)'), got "
                 "UTF-8 (so its first bytes say) with a byte that is not UTF-8 at {at}", id="bom-then-latin-1"),
    pytest.param(lambda f: (f / "voyages.csv").write_bytes((f / "voyages.csv").read_text("utf-8-sig").encode("utf-16-le")),
                 "voyages.csv: expected a CSV file of text (save it as 'CSV UTF-8 (comma delimited)'), got UTF-16 "
                 "without a byte order mark, or not text at all", id="utf16-without-mark"),
]  # fmt: skip


@pytest.mark.parametrize(("spoil", "message"), REFUSED)
def test_a_sheet_that_cannot_be_read_is_refused_in_one_line_saying_how_to_save_it(
        sheets: Path, tmp_path: Path, spoil, message: str) -> None:  # fmt: skip
    spoil(sheets)
    saved = (sheets / "monasteries.csv").read_bytes()
    at = saved.find("á".encode("cp1252")) - (3 if saved.startswith(b"\xef\xbb\xbf") else 0)  # counted after the BOM
    built = build(sheets, tmp_path)
    assert built.returncode == 2 and built.stdout == ""
    assert built.stderr.strip().splitlines() == [f"error: {message.format(at=at)}"]
    assert not (tmp_path / "box.json").exists()


def _save_table(path: Path, table: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out).writerows(table)
    path.write_text(out.getvalue(), encoding="utf-8-sig")


def test_a_damaged_header_stops_its_sheet_with_one_problem_not_one_per_row(sheets: Path, tmp_path: Path) -> None:
    """A program that lost the header's first cell shifts every column name one place left: each of the
    sheet's rows would be judged against the wrong columns (353 problems before)."""
    table = _table(sheets / "characters.csv")
    _save_table(sheets / "characters.csv", [table[0][1:], *table[1:]])
    built = build(sheets, tmp_path)
    assert built.returncode == 2
    assert built.stderr.strip().splitlines() == [
        "error: characters.csv row 1: expected a column 'id (letters, digits, - and _)', got none"]


def test_a_sheet_whose_header_row_was_deleted_is_one_problem_naming_what_stands_there(sheets: Path, tmp_path: Path) -> None:
    _save_table(sheets / "voyages.csv", _table(sheets / "voyages.csv")[1:])
    built = build(sheets, tmp_path)
    assert built.stderr.strip().splitlines() == [
        "error: voyages.csv row 1: expected the columns 'id', 'name', 'task', 'provenance' in its header row, "
        "got the columns 'v-01', 'Ceuta', '5 points', 'stand-in' instead"]


LETTERS = st.text(st.sampled_from("abcxyz AZ09-_,;\t\"'|:()=.ãçéíóúâêôàÀÉÇÃÕ"), max_size=12)
"""Cell text with every separator and quote, and Portuguese letters (all of them cp1252 bytes that no UTF-8
continuation byte follows, so that text in cp1252 is never also text in UTF-8)."""


@given(rows=st.lists(st.lists(LETTERS, min_size=1, max_size=5), max_size=6),
       separator=st.sampled_from([",", ";", "\t"]), encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "cp1252"]),
       end=st.sampled_from(["\r\n", "\n", "\r"]))
def test_any_table_saved_with_any_separator_and_encoding_reads_back_as_written(
        rows: list[list[str]], separator: str, encoding: str, end: str) -> None:  # fmt: skip
    header = ["id (letters, digits, - and _)", "name (text; unique)", "provenance"]
    out = io.StringIO()
    csv.writer(out, delimiter=separator, lineterminator=end).writerows([header, *rows])
    assert read_table(out.getvalue().encode(encoding), {"id", "name", "provenance"}) == [header, *rows]
