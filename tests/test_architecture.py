"""The house is one-way: cli → projections → coimbra_events, and only cli/ speaks to a terminal.

Every import of every module is read from its source (top-level and inside
functions alike, relative ones resolved), so a second front-end can use the
domain and the read side without pulling in a UI library, and no room reaches
back into the one above it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("coimbra_events", "projections", "cli")
UI_LIBRARIES = frozenset({"typer", "rich", "textual", "prompt_toolkit"})
"""Imported only under ``cli/``."""
FORBIDDEN: dict[str, frozenset[str]] = {
    "coimbra_events": UI_LIBRARIES | {"projections", "cli"},
    "projections": UI_LIBRARIES | {"cli"},
    "cli": frozenset(),
}
"""What the modules of each package may not import (by the imported module's top-level name)."""


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, root: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, with the line it does so on; relative imports made absolute."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            name = ".".join([*base, node.module] if node.module else base)
            found.append((node.lineno, name))
    return found


def violations(path: Path, package: str, root: Path = ROOT) -> list[str]:
    """The imports of ``path`` (a module of ``package``) that go where ``package`` may not."""
    where = path.relative_to(root).as_posix()
    return [f"{where}:{line} imports {name}" for line, name in imported(path, root)
            if name.split(".")[0] in FORBIDDEN[package]]


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_imports_against_the_direction_of_the_house(package):
    found = modules(package)
    assert found, f"no modules under {package}/"
    problems = [p for path in found for p in violations(path, package)]
    assert problems == []


def test_the_walk_finds_imports_at_any_depth_and_relative_ones(tmp_path):
    """The check itself: a UI import inside a function, and a relative import of the layer above, are both caught."""
    package = tmp_path / "projections" / "sub"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    module = package / "view.py"
    module.write_text("import os\n\n\ndef draw():\n    from rich.text import Text\n    from ...cli import app\n"
                      "    from . import other\n    import textual.app as t\n    return Text, app, other, t\n")
    assert violations(module, "projections", tmp_path) == ["projections/sub/view.py:5 imports rich.text",
                                                           "projections/sub/view.py:6 imports cli",
                                                           "projections/sub/view.py:8 imports textual.app"]


APPLICATION = ("coimbra_events.store", "coimbra_events.service")
"""The domain's persistence and its use cases: they stand on the rest of the domain, which never reaches up to them."""


def test_the_domain_does_not_reach_up_into_its_store_or_service():
    """The rules, records and aggregates are read by the store and the service; importing them back would make a
    module of the game load the store (and the ``eventsourcing`` application) and go round in a circle."""
    below = [path for path in modules("coimbra_events") if not module_name(path, ROOT).startswith(APPLICATION)]
    problems = [f"{path.relative_to(ROOT).as_posix()}:{line} imports {name}" for path in below
                for line, name in imported(path, ROOT) if name.startswith(APPLICATION)]
    assert problems == []


SOURCE_KIND = frozenset({"log_file", "shaped_like_path", "LogFile", "StoredGame"})
"""What tells a stored game from a JSON log file used as GAME (``coimbra_events.store.sources``)."""


def source_kind_branches(path: Path) -> list[int]:
    """The lines of ``path`` that ask which kind of game source GAME is: a call of ``log_file`` or
    ``shaped_like_path``, or an ``isinstance`` against one of the two sources."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        named = {n.id for arg in node.args[1:] for n in ast.walk(arg) if isinstance(n, ast.Name)}
        if called in SOURCE_KIND or (called == "isinstance" and named & SOURCE_KIND):
            lines.append(node.lineno)
    return sorted(lines)


def test_the_cli_asks_which_kind_of_game_source_in_at_most_two_places():
    """A stored game and a log file sit behind one interface (``game_source``): commands do not branch on them."""
    found = {f"{path.relative_to(ROOT)}:{line}" for path in modules("cli") for line in source_kind_branches(path)}
    assert len(found) <= 2, f"cli/ asks which kind of GAME it has in {len(found)} places: {sorted(found)}"


def test_the_source_kind_count_sees_calls_and_isinstance(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("if log_file(ref) is None:\n    pass\nok = isinstance(s, (LogFile, int))\nshaped_like_path(x)\nother(LogFile)\n")
    assert source_kind_branches(sample) == [1, 3, 4]


def test_every_package_ships_in_the_wheel():
    """pyproject.toml lists the packages a wheel carries: a room added without it works installed editable and is
    missing from a wheel."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {module_name(init, ROOT) for package in PACKAGES for init in (ROOT / package).rglob("__init__.py")}
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
