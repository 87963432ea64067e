"""A SQLite store's file made ready before the library opens it (``coimbra_events.store.sqlite_file``): a first
open that meets another writer waits its turn, and a file that is not a database, or that stays locked, is said
in one line, never a traceback, and is left as it was."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from eventsourcing.persistence import OperationalError

from coimbra_events.store.game_store import GameStore
from coimbra_events.store.sqlite_file import NotAStore
from tests.commands import invoke, started_together


def writing(path: Path) -> sqlite3.Connection:
    """Another writer's transaction under way on ``path``, still in SQLite's first journal mode: as when another
    process opening the same new store switches it to WAL at that moment."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE another_writer (x)")
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO another_writer VALUES (1)")
    return other


def test_a_first_open_that_meets_another_writer_waits_its_turn(tmp_path):
    """SQLite refuses at once, not after its lock timeout, a switch to WAL while another connection writes:
    without ``ready`` the library's first connection raised sqlite3's 'database is locked'."""
    path = tmp_path / "games.sqlite"
    other = writing(path)
    threading.Timer(0.3, other.execute, ("COMMIT",)).start()
    started = time.perf_counter()
    store = GameStore(path)
    try:
        assert time.perf_counter() - started >= 0.3 and store.games() == []
        assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        store.close()
        other.close()


def test_a_file_locked_past_the_lock_timeout_is_said_in_one_line(tmp_path):
    path = tmp_path / "games.sqlite"
    other = writing(path)
    try:
        started = time.perf_counter()
        with pytest.raises(OperationalError, match="database is locked"):
            GameStore(path, env={"SQLITE_LOCK_TIMEOUT": "1"})
        assert 1 <= time.perf_counter() - started < 3
        result = invoke(["games", "--db", str(path)], env={"SQLITE_LOCK_TIMEOUT": "1"})
        assert (result.exit_code, result.stderr.strip()) == (
            2, f"error: cannot open the game store {path}: database is locked")
    finally:
        other.close()


JUNK = b"not a database at all, whatever its name says " * 100


@pytest.mark.parametrize("args", [["games"], ["show", "ana-bruno"], ["import", "game.json"], ["league", "standings"],
                                  ["new", "--players", "Ana:red,Bruno:blue"]])
def test_a_file_that_is_not_a_database_is_named_and_left_as_it_was(tmp_path, args, monkeypatch):
    path = tmp_path / "games.sqlite"
    path.write_bytes(JUNK)
    with pytest.raises(NotAStore, match="file is not a database"):
        GameStore(path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.json").write_bytes(Path(__file__).parents[2].joinpath(
        "fixtures", "games", "standin-2p-seed1.json").read_bytes())
    result = invoke([*args, "--db", str(path)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert result.stderr.strip() == f"error: cannot open the game store {path}: file is not a database"
    assert path.read_bytes() == JUNK and sorted(os.listdir(tmp_path)) == ["game.json", "games.sqlite"]


def test_eight_first_uses_at_once_all_open_the_new_store(tmp_path):
    """Eight commands open one new file at once, three times: each switch to WAL that SQLite refuses is tried again."""
    for attempt in range(3):
        folder = tmp_path / str(attempt)
        folder.mkdir()
        env = {**os.environ, "NO_COLOR": "1", "COIMBRA_DB": str(folder / "club.sqlite")}
        outcomes = started_together([["store", "init"]] * 8, env, folder)
        assert [code for code, _ in outcomes] == [0] * 8, outcomes
