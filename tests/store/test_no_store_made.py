"""Only the commands that make games make a store: every other command, given a ``--db`` that does not exist,
names it with the stores that do (exit 2) and creates nothing on disk (a mistyped path must
not leave an empty store behind)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.commands import invoke
from tests.conftest import installed_coimbra

GAME = ["g"]
COMMANDS = [
    ["games"], ["games", "--duplicates"], ["score", *GAME], ["validate", *GAME], ["legal", *GAME], ["export", *GAME],
    ["verify", *GAME], ["show", *GAME], ["diff", "g", "h"], ["explain", *GAME, "--seq", "1"], ["replay", *GAME],
    ["act", *GAME, "pass"], ["fork", *GAME, "--at", "1"], ["correct", *GAME, "--seq", "1", "pass"], ["undo", *GAME],
    ["accept", *GAME, "pass", "--reason", "r"], ["note", *GAME, "--at", "1", "text"], ["roll", *GAME],
    ["rename", *GAME, "h"], ["tag", "--add", "t", *GAME], ["archive", *GAME], ["serve", *GAME], ["analyse", *GAME],
    ["league", "standings"], ["league", "ratings"], ["league", "player", "Ana"], ["league", "rebuild"],
    ["league", "follow"], ["player", "list"], ["player", "alias", "Ana", "Anna"], ["store", "check"],
    ["tournament", "seat", "--players", "Ana,Bruno,Carla,Dora,Eva,Filipe", "--rounds", "1", "--ratings", "league"],
]
"""Every command that opens the store and may not make one (new, import, record, serve without a game and store
init make one)."""


def _home(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An environment whose default store exists (and no other), and that default store."""
    home = tmp_path / "home"
    default = home / ".local" / "share" / "coimbra" / "games.sqlite"
    default.parent.mkdir(parents=True)
    default.touch()
    env = {k: v for k, v in os.environ.items() if k != "COIMBRA_DB" and not k.startswith(("POSTGRES_", "PERSISTENCE_"))}
    return {**env, "HOME": str(home), "XDG_DATA_HOME": str(home / ".local" / "share"), "NO_COLOR": "1", "COLUMNS": "300"}, default


def _refused(code: int, err: str, args: list[str], missing: Path, default: Path) -> None:
    assert code == 2 and "Traceback" not in err and str(missing) in err, err
    if args[:2] != ["store", "check"]:  # it says what it could not open, its own way
        assert f"stores that exist: the default store {default}" in err
    assert not missing.parent.parent.exists()


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_a_store_that_does_not_exist_is_named_and_nothing_is_made(args, tmp_path, monkeypatch):
    env, default = _home(tmp_path)
    for key in ("COIMBRA_DB", "PERSISTENCE_MODULE"):
        monkeypatch.delenv(key, raising=False)
    missing = tmp_path / "nonexistent" / "dir" / "x.sqlite"
    out = invoke([*args, "--db", str(missing)], env=env)
    _refused(out.exit_code, out.output, args, missing, default)


def test_the_installed_command_creates_nothing_either(tmp_path):
    env, default = _home(tmp_path)
    missing = tmp_path / "nonexistent" / "dir" / "x.sqlite"
    out = subprocess.run([installed_coimbra(), "score", "ana-bruno", "--db", str(missing)], capture_output=True, text=True,
                         env=env, timeout=60)
    _refused(out.returncode, out.stderr, ["score"], missing, default)


def test_the_commands_listed_are_every_command_that_opens_a_store():
    """A new command that opens the store is added above, or to the commands that make one."""
    from cli.app import COMMANDS as APP

    makers = {"new", "import", "record"}
    groups = {"catalog", "store", "player", "league", "tournament"}
    listed = {a[0] for a in COMMANDS}
    assert set(APP) - makers - groups - {"simulate", "rules"} <= listed
    assert Path(installed_coimbra()).exists()
