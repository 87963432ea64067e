"""``act`` and ``record`` stamp each entry with when it was entered and by whom; the chain covers the stamps."""

from __future__ import annotations

import os
import subprocess
from datetime import datetime, timedelta, timezone

import orjson

from coimbra_events import log as game_log, log_reader
from coimbra_events.notation import render
from tests.conftest import FIXTURES, installed_coimbra

GAME = FIXTURES / "games" / "standin-2p-seed1.json"


def run(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([installed_coimbra(), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1", **env})


def test_act_on_a_log_file_stamps_the_new_entries(tmp_path):
    log = log_reader.read(GAME)
    path = tmp_path / "g.json"
    game_log.write(path, log.prefix(40))
    out = run("act", str(path), game_log_notation(log, 40), "--by", "Ana")
    assert out.returncode == 0, out.stderr
    doc = orjson.loads(path.read_bytes())
    entry = doc["events"][40]
    assert entry["by"] == "Ana"
    assert abs(datetime.fromisoformat(entry["at"][:-1]).replace(tzinfo=timezone.utc) - datetime.now(timezone.utc)) < timedelta(minutes=5)
    assert all("at" not in e for e in doc["events"][:40]) and doc["upcast_from"] == 1
    assert run("verify", str(path)).returncode == 0


def test_act_in_the_store_stamps_by_coimbra_by(tmp_path):
    db = str(tmp_path / "g.sqlite")
    log = log_reader.read(GAME)
    part = tmp_path / "part.json"
    game_log.write(part, log.prefix(40))
    assert run("import", str(part), "--name", "g", "--db", db).returncode == 0
    assert run("act", "g", game_log_notation(log, 40), "--db", db, COIMBRA_BY="the scorer").returncode == 0
    exported = log_reader.loads(run("export", "g", "--db", db).stdout)
    assert exported.stamps[-1][1] == "the scorer" and exported.stamps[0] == ("", "")
    assert exported.events == log.events[:41]


def game_log_notation(log, k: int) -> str:
    return render(log.events[k])


def test_simulate_stays_the_same_bytes(tmp_path):
    a, b = (run("simulate", "--players", "3", "--seed", "5").stdout for _ in range(2))
    assert a == b and '"at"' not in a and orjson.loads(a)["schema"] == 2


def test_import_and_fork_keep_the_stamps_of_their_source():
    from coimbra_events.service import Games
    from coimbra_events.store.game_store import GameStore

    log = log_reader.read(GAME)
    stamps = [(f"2026-05-01T19:{k // 60:02d}:{k % 60:02d}Z", "Ana") for k in range(len(log.events))]
    store = GameStore(in_memory=True)
    games = Games(store)  # an import and a fork take no ``by``: their entries keep their source's stamps
    assert games.import_log(log.with_events(log.events, stamps), "g").how == "stored"
    assert store.get("g").stamps == stamps
    fork = games.fork("g", 50, "f", "manual")
    assert fork.stamps == stamps[:50]


def test_a_turn_entered_at_once_is_stamped_once_on_its_line_of_the_move_list_and_reads_back(tmp_path):
    """Bruno's whole income (entries 33-37) entered with one ``act``: the move list says who entered it (and when)
    once, after the line's last entry, and imports back to the same record, byte for byte."""
    db = str(tmp_path / "g.sqlite")
    part = tmp_path / "part.json"
    game_log.write(part, log_reader.read(GAME).prefix(32))
    assert run("import", str(part), "--name", "g", "--db", db).returncode == 0
    line = "Bruno: income orange-1; purple-1; walk start-n, road-n; income gray-2"
    assert run("act", "g", line, "--db", db, COIMBRA_BY="Bruno").returncode == 0
    text = run("export", "g", "--format", "text", "--db", db).stdout
    (written,) = [entry for entry in text.splitlines() if entry.startswith("33. ")]
    assert written.startswith("33. Bruno: income orange-1") and written.count('[%by "Bruno"]') == 1, written
    assert written.endswith('[%by "Bruno"]}') and "; {[%" in written
    (tmp_path / "g.txt").write_text(text, encoding="utf-8")
    assert run("import", str(tmp_path / "g.txt"), "--name", "copy", "--copy", "--db", db).returncode == 0
    assert run("export", "copy", "--db", db).stdout == run("export", "g", "--db", db).stdout
