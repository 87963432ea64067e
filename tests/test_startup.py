"""Start-up: the top-level help imports no command module; a command imports only what it uses."""

from __future__ import annotations

import importlib
import inspect
import os
import subprocess
import sys

import orjson
import pytest

from cli.app import COMMANDS
from tests.conftest import FIXTURES, installed_coimbra

GAME = str(FIXTURES / "games" / "standin-2p-seed1.json")

IMPORTED = """
import sys
sys.argv = ["coimbra", *sys.argv[1:]]
from cli.app import main
try:
    main()
except SystemExit:
    pass
sys.__stdout__.write("\\nMODULES " + " ".join(sorted(sys.modules)) + "\\n")
"""


def imported_by(*args: str) -> set[str]:
    """The modules loaded by a run of the command with these arguments (in a fresh interpreter)."""
    done = subprocess.run([sys.executable, "-c", IMPORTED, *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "NO_COLOR": "1"})
    line = done.stdout.rsplit("MODULES ", 1)[-1]
    return set(line.split())


def command_modules(modules: set[str]) -> set[str]:
    return {m for m in modules if m.startswith("cli.") and m not in {"cli.app", "cli.lazy_group"}}


def test_the_top_level_help_imports_no_command_module():
    loaded = imported_by("--help")
    assert command_modules(loaded) == set()
    assert not {m for m in loaded if m.split(".")[0] in {"coimbra_events", "eventsourcing", "pydantic"}}
    assert "typer._adapters" not in loaded


def test_validate_of_a_file_imports_only_what_it_uses():
    loaded = imported_by("validate", GAME)
    assert command_modules(loaded) <= {"cli.log_commands", "cli.common", "cli.exits", "cli.terminal", "cli.views"}
    # pydantic comes in only with the catalog loader (the shipped catalog is read), never through Typer
    # nor the notation (a legal log's panel names nothing) nor tempfile (validate writes no file)
    for heavy in ("eventsourcing", "typer._adapters", "textual", "typer.rich_utils", "rich.markdown", "coimbra_events.store.game_store",
                  "projections.naming", "coimbra_events.notation", "tempfile"):
        assert heavy not in loaded, heavy


def test_a_command_that_opens_the_store_still_gets_it(tmp_path):
    loaded = imported_by("games", "--db", str(tmp_path / "g.sqlite"), "--json")
    assert "coimbra_events.store.game_store" in loaded and "cli.index_commands" in loaded
    assert "cli.store_commands" not in loaded
    assert "cli.replay_command" not in loaded and "cli.explain_commands" not in loaded


def test_every_command_is_listed_with_its_summary():
    """``cli.app.COMMANDS`` names each command's module and repeats its summary: both must stay true."""
    for name, where in COMMANDS.items():
        module = importlib.import_module(where.module)
        if where.app is not None:
            doc = getattr(module, where.app).info.help
        else:
            doc = inspect.getdoc(module.COMMANDS[name])
        assert doc.split("\n")[0] == where.summary, name
    listed = {name for name, where in COMMANDS.items() if where.app is None}
    defined = {name for where in {w.module for w in COMMANDS.values()} for name in getattr(importlib.import_module(where), "COMMANDS", {})}
    assert defined == listed


@pytest.mark.parametrize("args, code, text", [
    (["games", "--page", "0"], 2, "0 is not in the range 1<=x"),
    (["games", "--page", "x"], 2, "'x' is not a valid int"),
    (["simulate", "--players", "5", "--seed", "1"], 2, "is for 2-4 players, got 5"),  # a number, or the players' names
    (["validate", GAME, "--json"], 0, '"valid": true'),
])
def test_parameters_are_converted_and_checked_without_pydantic(args, code, text):
    done = subprocess.run([installed_coimbra(), *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"})
    assert done.returncode == code
    assert text in done.stdout + done.stderr


def test_validate_json_is_what_the_command_prints():
    done = subprocess.run([installed_coimbra(), "validate", GAME, "--json"], capture_output=True, timeout=60)
    assert orjson.loads(done.stdout)["valid"] is True
