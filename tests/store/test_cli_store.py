"""End to end: the installed ``coimbra`` command drives the game store, with COIMBRA_DB in tmp_path."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import orjson
import pytest

from coimbra_events import log as game_log, log_reader

from coimbra_events.store.game_store import GameStore
from tests.conftest import FIXTURES
from tests.store.conftest import GAMES, INVALID
from tests.conftest import installed_coimbra

EXPECTED = orjson.loads((FIXTURES / "invalid" / "expected.json").read_bytes())


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "store" / "games.sqlite"


def run(db: Path, *args: str) -> subprocess.CompletedProcess:
    """Run ``coimbra`` with the store in ``db``; never a traceback, whatever happens."""
    out = subprocess.run(
        [installed_coimbra(), *args], capture_output=True, text=True, timeout=120,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200", "COIMBRA_DB": str(db)},
    )
    assert "Traceback" not in out.stderr, out.stderr
    return out


def run_json(db: Path, *args: str) -> object:
    out = run(db, *args, "--json")
    assert out.returncode == 0, out.stderr
    return orjson.loads(out.stdout)


def test_new_legal_act_export_import_games_verify(db, tmp_path):
    new = run_json(db, "new", "--players", "Ana:red,Bruno:blue,Carla:yellow", "--seed", "7")
    name = new["name"]
    assert name == "ana-bruno-carla" and new["events"] == 6 and new["pending"]["actor"] != "table"

    options = run_json(db, "legal", name)["options"]
    assert options and all(o.startswith(new["pending"]["actor"] + ":") for o in options)
    listed = run(db, "legal", name)
    assert listed.returncode == 0 and options[0].split(": ", 1)[1] in listed.stdout  # the header says who

    before = run(db, "export", name).stdout
    refused = run(db, "act", name, "group 9")
    assert refused.returncode == 1
    assert "rule START.group" in refused.stderr and "nothing stored" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    garbled = run(db, "act", name, "plce gray-1 castle")
    assert garbled.returncode == 2 and "unknown verb 'plce'" in garbled.stderr
    assert run(db, "export", name).stdout == before

    acted = run(db, "act", name, options[0].split(":", 1)[1])  # without the Name: prefix
    assert acted.returncode == 0, acted.stderr
    assert f"recorded 7: {options[0]}" in acted.stdout and "next:" in acted.stdout

    exported = tmp_path / "game.json"
    assert run(db, "export", name, "-o", str(exported)).returncode == 0
    again = run(db, "import", str(exported), "--name", "copy")  # a record is one game: stored already, nothing stored
    assert again.returncode == 0 and again.stdout.strip() == name
    assert f"already stored as {name} (the same 7 entries); nothing stored" in again.stderr
    imported = run(db, "import", str(exported), "--name", "copy", "--copy")
    assert imported.returncode == 0 and imported.stdout.strip() == "copy"
    assert f"a copy of {name}; the league never counts it" in imported.stderr
    assert run(db, "export", "copy").stdout.encode() == exported.read_bytes()

    games = run_json(db, "games")["games"]
    assert [(g["name"], g["status"], g["seed"]) for g in games] == [(name, "in progress", 7), ("copy", "in progress", 7)]
    assert "ana-bruno-carla" in run(db, "games").stdout

    for ref in (name, str(exported)):
        verified = run(db, "verify", ref)
        assert verified.returncode == 0 and "intact" in verified.stdout and "7 events" in verified.stdout


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_import_then_export_is_byte_identical(db, path):
    name = run(db, "import", str(path)).stdout.strip()
    out = subprocess.run([installed_coimbra(), "export", name], capture_output=True, env={**os.environ, "COIMBRA_DB": str(db)})
    assert out.returncode == 0 and out.stdout == game_log.dumps(log_reader.read(path))


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_an_illegal_log_is_refused_with_its_rule_and_nothing_stored(db, path):
    out = run(db, "import", str(path))
    assert out.returncode == 1
    expected = EXPECTED[path.name]
    assert f"event {expected['seq']} " in out.stderr and f"rule {expected['rule']}:" in out.stderr
    assert run_json(db, "games")["games"] == []


def test_a_damaged_log_reports_every_problem_and_stores_nothing(db, tmp_path):
    lines = GAMES[0].read_bytes().split(b"\n")
    lines[3] = lines[3].replace(b'"v-', b'"w-', 1)
    lines[9] = lines[9].replace(b"start-w", b"start-n")
    damaged = tmp_path / "damaged.json"
    damaged.write_bytes(b"\n".join(lines))

    out = run(db, "import", str(damaged))
    assert out.returncode == 2
    assert "event 3: hash chain broken" in out.stderr and "event 9: hash chain broken" in out.stderr
    assert "2 problems" in out.stderr and "nothing stored" in out.stderr
    problems = orjson.loads(run(db, "import", str(damaged), "--json").stdout)["problems"]
    assert [p["seq"] for p in problems] == [3, 9] and all(p["what"] and p["why"] for p in problems)
    assert not db.exists()  # nothing stored, not even a store: the log is refused before the store is opened
    assert run(db, "games").returncode == 2 and not db.exists()  # and a read does not make one

    verified = run(db, "verify", str(damaged))
    assert verified.returncode == 2 and "damaged.json: event 3: hash chain broken" in verified.stderr


def test_verify_finds_an_event_changed_inside_the_store(db):
    name = run(db, "new", "--players", "Ana:red,Bruno:blue", "--seed", "3").stdout.strip()
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT rowid, state FROM stored_events WHERE topic LIKE '%Game.Recorded'").fetchall()
        rowid, state = next((r, bytes(s)) for r, s in rows if b"SeatingDrawn" in bytes(s))
        order = b'["Ana","Bruno"]' if b'["Ana","Bruno"]' in state else b'["Bruno","Ana"]'
        swapped = b'["Bruno","Ana"]' if order == b'["Ana","Bruno"]' else b'["Ana","Bruno"]'
        conn.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (state.replace(order, swapped), rowid))
    out = run(db, "verify", name)
    assert out.returncode == 2 and f"stored game {name} is damaged at entry 4: hash chain broken" in out.stderr


def test_table_outcomes_are_described_and_entered_by_hand(db):
    name = run(db, "new", "--players", "Ana:red,Bruno:blue").stdout.strip()
    due = run_json(db, "legal", name)
    assert due["pending"]["actor"] == "table" and due["outcome"]["kind"] == "monasteries"
    assert "monastery tiles" in run(db, "legal", name).stdout
    entered = run(db, "act", name, due["outcome"]["example"])
    assert entered.returncode == 0, entered.stderr
    assert run_json(db, "legal", name)["outcome"]["kind"] == "scoring-tiles"


def test_a_log_file_is_a_game_too(db, tmp_path):
    log = tmp_path / "g.json"
    assert run(db, "new", "--players", "Ana:red,Bruno:blue", "--seed", "4").returncode == 0
    log.write_text(run(db, "export", "ana-bruno").stdout)
    option = run_json(db, "legal", str(log))["options"][0]
    assert run(db, "act", str(log), option).returncode == 0
    assert b'"seq":7' in log.read_bytes() and run(db, "verify", str(log)).returncode == 0
    assert len(run_json(db, "legal", "ana-bruno")["options"]) > 0  # the stored game did not change
    assert run(db, "export", "ana-bruno").stdout.count('"seq"') == 6


@pytest.mark.parametrize(
    "args, message",
    [
        (("act", "nope", "pass"), "no game named 'nope'"),
        (("legal", "nope"), "no game named 'nope'"),
        (("export", "nope"), "no game named 'nope'"),
        (("verify", "nope"), "no game named 'nope'"),
        (("new", "--players", "Ana"), "expected 'Name:colour,Name:colour'"),
        (("new", "--players", "Ana:red"), "1 player;"),
        (("import", "missing.json"), "cannot read file"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(db, args, message):
    GameStore(db).close()  # a store that exists (one that does not is named as such: tests/store/test_no_store_made.py)
    out = run(db, *args)
    assert out.returncode == 2 and message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
