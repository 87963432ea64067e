"""One presenter beside both front-ends: the web one does not stand on the terminal one.

The live table (``cli/live/``) and the terminal's commands (``cli/*_commands.py``) say the
table's values through ``cli.presenter``, which imports neither typer nor rich; so the
live table imports no command module, and importing the web server loads no terminal
library at all (checked in a fresh interpreter: what an import loads, directly or not).
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

from tests.test_architecture import ROOT, module_name

TERMINAL = ("typer", "rich")
COMMAND_MODULE = re.compile(r"^cli\.\w+_commands?$")
"""A module of the terminal front-end's commands (``cli.store_commands``, ``cli.serve_command``)."""
PRESENTER_MAY_IMPORT = frozenset({"coimbra_events", "projections", *sys.stdlib_module_names})


def imports_of(path: Path, root: Path = ROOT) -> list[str]:
    """Every module ``path`` imports, at any depth, relative ones made absolute; ``from X import y`` gives ``X``
    and ``X.y`` (``y`` may be a module: ``from cli import store_commands``)."""
    package = module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join([*package[: len(package) - node.level + 1], *([node.module] if node.module else [])]
                            if node.level else [node.module or ""])
            found += [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return found


def live_modules() -> list[str]:
    return sorted(module_name(path, ROOT) for path in (ROOT / "cli" / "live").rglob("*.py"))


def presenter_files() -> list[Path]:
    package = ROOT / "cli" / "presenter"
    return sorted(package.rglob("*.py")) if package.is_dir() else [ROOT / "cli" / "presenter.py"]


def terminal_modules_loaded_by(modules: list[str]) -> list[str]:
    """The typer and rich modules a fresh interpreter holds after importing ``modules``."""
    probe = (f"import importlib, json, sys\nfor m in {modules!r}:\n    importlib.import_module(m)\n"
             f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {TERMINAL!r})))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def test_the_live_table_imports_no_command_module():
    found = [f"{path.relative_to(ROOT)} imports {name}" for path in sorted((ROOT / "cli" / "live").rglob("*.py"))
             for name in imports_of(path) if COMMAND_MODULE.match(name)]
    assert found == []


def test_the_presenter_imports_only_the_domain_the_read_side_and_the_standard_library():
    found = [f"{path.relative_to(ROOT)} imports {name}" for path in presenter_files()
             for name in imports_of(path)
             if name.split(".")[0] not in PRESENTER_MAY_IMPORT and name.split(".")[:2] != ["cli", "presenter"]]
    assert found == []


def test_importing_the_web_server_loads_neither_typer_nor_rich():
    """Everything ``coimbra serve`` imports to build the app (every module of ``cli/live/``) and the presenter."""
    modules = live_modules()
    assert "cli.live.server" in modules
    assert terminal_modules_loaded_by([*modules, "cli.presenter"]) == []


def test_the_probe_sees_a_terminal_library_loaded_on_the_way():
    """The check itself: ``cli.common`` imports typer and rich, and the probe sees them."""
    loaded = terminal_modules_loaded_by(["cli.common"])
    assert "typer" in loaded and "rich" in loaded


def test_the_import_walk_sees_a_command_module_however_it_is_imported(tmp_path):
    """The check itself: from its package, relative, inside a function; and nothing that only looks like one."""
    module = tmp_path / "cli" / "live" / "view.py"
    module.parent.mkdir(parents=True)
    module.write_text("from cli import store_commands\nfrom .. import serve_command\nfrom cli.common import due\n\n\n"
                      "def draw():\n    import cli.view_commands as v\n    from .commands_log import x\n")
    found = [name for name in imports_of(module, tmp_path) if COMMAND_MODULE.match(name)]
    assert found == ["cli.store_commands", "cli.serve_command", "cli.view_commands"]
