"""Rooms a reader can take in: no domain or read-side module over 500 lines, and a
domain folder whose top level stays small enough to scan.

Past 500 lines a module holds more than one idea; it is split along a seam and each part
named for what it holds.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 500
TOP_LEVEL_MODULES = 25


def line_counts() -> dict[str, int]:
    """Every ``.py`` file under ``coimbra_events/`` and ``projections/`` with its number of lines."""
    return {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for folder in ("coimbra_events", "projections")
        for path in sorted((ROOT / folder).rglob("*.py"))
    }


def test_no_module_is_over_500_lines():
    counts = line_counts()
    over = {path: n for path, n in counts.items() if n > LIMIT}
    assert not over, f"split these along a seam (at most {LIMIT} lines each): {over}"


def test_the_domain_folder_has_at_most_25_modules_at_its_top_level():
    modules = sorted(p.name for p in (ROOT / "coimbra_events").glob("*.py"))
    assert len(modules) <= TOP_LEVEL_MODULES, f"{len(modules)} modules: group them in rooms (folders): {modules}"
