"""A fill-in sheet's file as people save it: its encoding and its separator are found, not assumed.

Spreadsheet programs save CSV in the ways of the computer's language: Excel in
Portugal, Spain, France or Germany separates the cells with ``;``, its "Unicode
text" is UTF-16 with tabs, older programs write cp1252 (Windows' Latin-1), and
"CSV UTF-8" starts with a byte order mark. :func:`read_table` reads every one of
these; a file it cannot read is refused in one sentence (:class:`SheetFileError`)
that names what was found and how to save the sheet instead.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Collection

from coimbra_events.catalog.cells import column_key

SAVE_AS = "save it as 'CSV UTF-8 (comma delimited)'"

SEPARATORS: dict[str, str] = {",": "commas", ";": "semicolons", "\t": "tabs"}
"""The separators read, by what a person calls them."""

_OTHER_SEPARATORS: dict[str, str] = {"|": "vertical bars '|'", ":": "colons", "^": "carets '^'"}
"""Separators some programs offer that a sheet is not read with: named when found."""

_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (codecs.BOM_UTF8, "utf-8-sig", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"),
)

_UTF8_LETTER = re.compile(rb"[\xc2-\xf4][\x80-\xbf]")
"""Two bytes that are one UTF-8 letter (``é`` is ``c3 a9``): in a file that is not UTF-8 throughout,
a sign that it mixes two encodings, which no single reading would get right."""


_SEP_LINE = re.compile(r"sep=(.)\r?\n")


class SheetFileError(Exception):
    """A sheet's file that is no table of text: what it should be (and how to save it), and what it is."""

    def __init__(self, expected: str, got: str) -> None:
        super().__init__(f"expected {expected}, got {got}")
        self.expected = expected
        self.got = got


def read_table(data: bytes, wanted: Collection[str]) -> list[list[str]]:
    """The rows of a sheet's file, its header first; ``wanted`` are the column keys its header should name."""
    text = decode(data)
    hint = _SEP_LINE.match(text)  # "sep=;", the line some programs write first to tell Excel the separator
    if hint:
        text, separator = text[hint.end():], hint.group(1)
    else:
        separator = find_separator(text, wanted)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
    try:
        return list(reader)
    except csv.Error as error:
        raise SheetFileError("a well-formed CSV file", f"{error} at line {reader.line_num}") from None


def decode(data: bytes) -> str:
    """The text of a file in UTF-8 (a byte order mark or none), UTF-16 with its mark, or cp1252 / Latin-1."""
    if data.startswith(b"PK\x03\x04"):
        raise SheetFileError(f"a CSV file ({SAVE_AS})", "a spreadsheet workbook (.xlsx or .ods)")
    for mark, codec, name in _BOMS:
        if data.startswith(mark):
            try:
                return data.decode(codec)
            except UnicodeDecodeError as error:
                raise SheetFileError(f"text in one encoding ({SAVE_AS})",
                                     f"{name} (so its first bytes say) with a byte that is not {name} at {error.start}") from None
    if b"\x00" in data:
        raise SheetFileError(f"a CSV file of text ({SAVE_AS})", "UTF-16 without a byte order mark, or not text at all")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        if _UTF8_LETTER.search(data):
            raise SheetFileError(f"text in one encoding ({SAVE_AS})",
                                 f"UTF-8 mixed with another encoding (a byte that is not UTF-8 at {error.start})") from None
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # every byte is a Latin-1 letter


def find_separator(text: str, wanted: Collection[str]) -> str:
    """The separator whose header row names the most of ``wanted`` columns (the one found most often on a tie).

    A header that another separator splits into more of them is refused, naming that separator.
    """
    header = re.split(r"\r\n|\r|\n", text, maxsplit=1)[0]  # lines end as the saving computer ends them

    def named(separator: str) -> int:
        cells = next(csv.reader([header], delimiter=separator), [])
        return sum(column_key(c) in wanted for c in cells)

    best = max(SEPARATORS, key=lambda s: (named(s), header.count(s)))
    other = max(_OTHER_SEPARATORS, key=named)
    if named(other) > named(best):
        raise SheetFileError(f"cells separated by commas, semicolons or tabs ({SAVE_AS})",
                             f"a header row separated by {_OTHER_SEPARATORS[other]}")
    return best


__all__ = ["SAVE_AS", "SEPARATORS", "SheetFileError", "decode", "find_separator", "read_table"]
