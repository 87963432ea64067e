"""CSV for spreadsheets: what ``league standings --csv`` and ``score --format csv`` write.

People's own words (player and game names, tags, notes) go into these cells. A cell that starts with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return is a formula to Excel and LibreOffice (``@SUM(1)``, ``-1-1``), so such a
text is written with a leading apostrophe, which both show as text and hide (OWASP's CSV-injection rule). Numbers
stay numbers: only text is guarded.
"""

from __future__ import annotations

import csv
import io
from typing import Any, Iterable, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def as_text(cell: Any) -> Any:
    """``cell`` as a spreadsheet shows it as text: a string that would start a formula gets a leading apostrophe."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def spreadsheet_csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A header row, then ``rows``: RFC 4180 (CRLF line ends, quotes where needed), UTF-8 with a BOM, since
    without it spreadsheets read accented names as another encoding."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows([as_text(cell) for cell in row] for row in rows)
    return "\ufeff" + out.getvalue()
