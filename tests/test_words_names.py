"""Names, not ids, in what a person reads (issue 26, point 1), through the installed command.

The move list of every fixture names each component that has a name of its own, and
reads back to the very record; a pilgrim's space is said by the monastery on it, or by
the catalog's name for it, and ``step`` takes those names.
"""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest

from coimbra_events.catalog import find_catalog
from tests.conftest import FIXTURES
from tests.test_e2e_flow import Cli

GAMES = sorted((FIXTURES / "games").glob("standin-*.json"))
_NAMED = ("characters", "favor_tiles", "monasteries", "voyages", "scoring_tiles")


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "store" / "games.sqlite")


def _named_ids(header: dict) -> set[str]:
    """Every id of the log's catalog that has a name no other component of its kind has."""
    catalog = find_catalog(header["catalog"]["id"], header["catalog"]["sha256"])
    ids = {i for table in _NAMED for i in getattr(catalog, table)}
    return ids | {s.id for s in catalog.map.spaces.values() if s.name}


@pytest.mark.parametrize("fixture", GAMES, ids=[g.stem for g in GAMES])
def test_the_move_list_names_every_named_component_and_reads_back_to_the_same_record(cli: Cli, tmp_path: Path,
                                                                                       fixture: Path) -> None:
    header = orjson.loads(fixture.read_bytes())
    cli("import", str(fixture), "--name", "original")
    text = cli("export", "original", "--format", "text").stdout_text
    entries = [line for line in text.splitlines() if re.match(r"\d+\. ", line)]
    named, words = _named_ids(header), set()
    monastery_spaces: set[str] = set()
    for line in entries:
        words |= set(re.findall(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+", line.split(": ", 1)[1]))
        if " monasteries " in line:
            monastery_spaces = set(re.findall(r"([\w-]+)=", line))
        elif re.search(r": (step|pilgrim) ", line):
            assert line.rsplit(" ", 1)[1] not in monastery_spaces, line  # said by the monastery laid on it
    assert words & named == set()
    assert any(": step " in line and not re.search(r"step [\w-]+-\w+$", line) for line in entries)
    (tmp_path / "game.txt").write_text(text)
    cli("import", str(tmp_path / "game.txt"), "--name", "copy")
    assert cli("export", "copy").stdout == cli("export", "original").stdout
