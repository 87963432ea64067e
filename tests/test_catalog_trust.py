"""Catalogs checked once: a folder's ``checked.sha256`` vouches for the catalogs that passed every check.

A listed catalog is assembled without the checks (so a command that reads only the
stand-in never imports pydantic); anything else, an edited file included, is checked in
full. The shipped list must stay true: each listed catalog passes every check.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from coimbra_events.catalog import CatalogError, catalog_dirs, load_catalog
from coimbra_events.catalog.assembly import SECTION_NAMES, content_hash
from coimbra_events.catalog.folder import CHECKED, checked_in, checks_version, install, installed
from coimbra_events.catalog.parsing import find_problems
from tests.conftest import FIXTURES

STANDIN = FIXTURES / "catalogs" / "standin.json"


def test_the_shipped_list_names_exactly_the_shipped_catalogs_and_each_passes_every_check() -> None:
    for folder in catalog_dirs():
        documents = [orjson.loads(p.read_bytes()) for p in sorted(folder.glob("*.json"))]
        assert checked_in(folder) == {content_hash(d) for d in documents}
        for document in documents:
            assert find_problems(document) == ()


def test_the_assembly_names_every_section_the_checks_know() -> None:
    from coimbra_events.catalog.schema import SECTIONS

    assert tuple(SECTIONS) == SECTION_NAMES


def test_a_listed_catalog_is_the_catalog_the_checks_build() -> None:
    from coimbra_events.catalog.parsing import parse_catalog

    data = orjson.loads(STANDIN.read_bytes())
    trusted = load_catalog(STANDIN, frozenset({content_hash(data)}))
    checked = parse_catalog(data)
    assert trusted == checked and trusted.provenance == checked.provenance and trusted.map == checked.map
    assert trusted.characters == checked.characters and trusted.income == checked.income


def test_validating_a_stand_in_game_does_not_import_the_checks() -> None:
    script = (
        "import sys\n"
        "from cli.app import main\n"
        f"sys.argv = ['coimbra', 'validate', {str(FIXTURES / 'games' / 'standin-3p-seed2.json')!r}]\n"
        "try:\n    main()\nexcept SystemExit as end:\n    code = end.code\n"
        "print(code, 'pydantic' in sys.modules, 'coimbra_events.catalog.parsing' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.stdout.split()[-3:] == ["0", "False", "False"], out.stdout + out.stderr


def _edited(path: Path, influence: int) -> bytes:
    data = orjson.loads(STANDIN.read_bytes())
    data["id"] = "edited-box"
    data["characters"][5]["influence"] = influence
    path.write_bytes(orjson.dumps(data))
    return path.read_bytes()


def test_a_catalog_not_listed_is_checked_in_full(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    _edited(bad, 99)
    with pytest.raises(CatalogError, match="influence"):
        load_catalog(bad, frozenset({content_hash(orjson.loads(STANDIN.read_bytes()))}))


def test_an_installed_catalog_is_vouched_for_by_the_checks_of_this_version(tmp_path: Path, catalogs_folder: Path) -> None:
    box = tmp_path / "box.json"
    _edited(box, 2)
    catalog, target, _ = install(box, ())
    listed = (catalogs_folder / CHECKED).read_text().splitlines()
    assert f"checks {checks_version()}" in listed and catalog.sha256 in listed
    assert checked_in(catalogs_folder, versioned=True) == {catalog.sha256}
    assert [c for c, _ in installed().catalogs] == [catalog]

    # The file edited in the folder no longer has the listed hash: it is checked, and refused.
    data = orjson.loads(target.read_bytes())
    data["characters"][5]["influence"] = 99
    target.write_bytes(orjson.dumps(data))
    assert installed().catalogs == () and "influence" in installed().broken[0][1]


def test_a_list_made_by_other_checks_vouches_for_nothing(tmp_path: Path, catalogs_folder: Path) -> None:
    box = tmp_path / "box.json"
    _edited(box, 2)
    catalog, _, _ = install(box, ())
    listed = catalogs_folder / CHECKED
    listed.write_text(listed.read_text().replace(f"checks {checks_version()}", "checks 0000000000000000"))
    assert checked_in(catalogs_folder, versioned=True) == frozenset()
    assert checked_in(catalogs_folder) == {catalog.sha256}  # unversioned, as the shipped folder's is read
    install(box, ())  # installing again vouches for it under these checks
    assert checked_in(catalogs_folder, versioned=True) == {catalog.sha256}
