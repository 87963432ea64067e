"""SIGKILL at any moment of an import, an act or a log file's write: what was confirmed is there,
and the store and the files are whole (the old state or the new one, never half of one).

The installed command is run as a user runs it and killed after a delay spread over the time
a whole run takes (measured first), so the kills land before, during and after the save.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time

import orjson

from coimbra_events import log_reader
from coimbra_events import log as game_log
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.errors import UnknownGame
from tests.conftest import installed_coimbra
from tests.store.conftest import GAMES, PLAYERS

FRACTIONS = (0.75, 0.85, 0.9, 0.95, 0.99)
"""When to kill, as parts of the time a whole run takes."""


def started(*args: str, db) -> subprocess.Popen:
    return subprocess.Popen([installed_coimbra(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COIMBRA_DB": str(db), "NO_COLOR": "1"})


def killed_after(process: subprocess.Popen, delay: float) -> str:
    """Kill the process after ``delay`` seconds (unless it ended); what it printed on stdout."""
    try:
        out, _ = process.communicate(timeout=delay)
        return out
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
        out, _ = process.communicate()
        return out


def whole_run(*args: str, db) -> float:
    begin = time.perf_counter()
    assert started(*args, db=db).wait(timeout=60) == 0
    return time.perf_counter() - begin


def test_an_import_killed_at_any_moment_stores_the_whole_log_or_nothing(tmp_path):
    path = GAMES[-1]
    events = len(log_reader.read(path).events)
    duration = whole_run("import", str(path), "--name", "timed", db=tmp_path / "timing.sqlite")
    for k, fraction in enumerate(FRACTIONS):
        db = tmp_path / f"{k}.sqlite"
        out = killed_after(started("import", str(path), "--name", "g", db=db), duration * fraction)
        if not db.exists():
            assert out == ""
            continue
        store = GameStore(db)
        try:
            game = store.get("g")
        except UnknownGame:
            assert out == "" and store.games() == []
        else:
            assert len(game.events) == events and store.inspect("g").problems == ()
            assert [g.name for g in store.games()] == ["g"]
        finally:
            store.close()


def test_acts_killed_at_any_moment_keep_every_confirmed_decision(tmp_path):
    db = tmp_path / "games.sqlite"
    with Games(GameStore(db)) as games:
        games.new_game(PLAYERS[:2], seed=3, name="g")

    def option() -> str:
        listed = subprocess.run([installed_coimbra(), "legal", "g", "--json"], capture_output=True, text=True,
                                env={**os.environ, "COIMBRA_DB": str(db)})
        return orjson.loads(listed.stdout)["options"][0]

    duration = whole_run("act", "g", option(), db=db)
    confirmed = 7
    for fraction in FRACTIONS:
        out = killed_after(started("act", "g", option(), db=db), duration * fraction)
        if "recorded" in out:
            confirmed += 1
        store = GameStore(db)
        try:
            entries = len(store.get("g").events)
            assert store.inspect("g").problems == ()
        finally:
            store.close()
        assert entries in (confirmed, confirmed + 1)  # confirmed is there; one killed after its save, before saying so
        confirmed = entries


def test_a_log_file_write_killed_at_any_moment_leaves_the_old_file_or_the_new_one(tmp_path):
    path = tmp_path / "g.json"
    with Games(GameStore(in_memory=True)) as games:
        game_log.write(path, games.new_game(PLAYERS[:2], seed=3, name="g").to_log())

    def option() -> str:
        listed = subprocess.run([installed_coimbra(), "legal", str(path), "--json"], capture_output=True, text=True)
        return orjson.loads(listed.stdout)["options"][0]

    duration = whole_run("act", str(path), option(), db=tmp_path / "unused.sqlite")
    for fraction in FRACTIONS:
        before = path.read_bytes()
        out = killed_after(started("act", str(path), option(), db=tmp_path / "unused.sqlite"), duration * fraction)
        after = path.read_bytes()
        log = log_reader.loads(after)  # whole: it reads, every hash matching
        assert after == before or len(log.events) == len(log_reader.loads(before).events) + 1
        if "recorded" in out:
            assert after != before
    leftovers = {p.name for p in tmp_path.iterdir()} - {"g.json", "g.json.lock", "unused.sqlite"}
    assert all(name.startswith(".g.json.") and name.endswith(".tmp") for name in leftovers)
