"""Many tables at once on one store: 8 tables recording 8 games and 2 devices recording one game, all at the same time.

Each table and device is a process of its own sending decisions through the
``act`` command (``recorder_child``), all at once, for the last entries of its
game (the earlier ones are stored before they start). Afterwards every game
holds exactly what its table recorded (nothing lost, nothing twice), every
attempt that failed stored nothing, and the league's standings and ratings equal
the brute force over the exported logs.

The two devices on one game race for every entry: one stores it, the other's
attempt is stale (it was made on the table as the device last showed it, passed
to ``act --after``) and gets the store's conflict: exit 3, "the game changed since
you read it; nothing stored; try again"; the device reads again and goes on.
Every process opens the store as any command does: the first use creates the
tables, one process at a time (under an advisory lock).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

from coimbra_events import log as game_log
from coimbra_events.service import Games
from coimbra_events.validation import validate
from projections.league.projection import open_league
from projections.league.reports import ratings, standings
from tests.conftest import ROOT
from tests.store.league import brute
from tests.store.league.conftest import process_env
from tests.store.league.games import simulated

TABLES = 8
CONFLICT = "the game changed since you read it; nothing stored; try again"

POOL = ("Ana", "Bruno", "Conceição", "Duarte", "Eva", "Filipa", "Gil", "Helena")


def start(club_env: dict[str, str], name: str, log_path: Path, per_act: int = 1) -> subprocess.Popen:
    """A table (or device) recording ``per_act`` decisions per ``act``, a process of its own."""
    return subprocess.Popen([sys.executable, "-m", "tests.store.league.recorder_child", name, str(log_path), str(per_act)],
                            cwd=ROOT, env=process_env(club_env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish(child: subprocess.Popen) -> list[dict]:
    out, err = child.communicate(timeout=600)
    assert "Traceback" not in err, err
    assert child.returncode == 0, err
    return [orjson.loads(line) for line in out.splitlines()]


RECORDED = 36
"""Entries each table records at the same time as the others: the last ones of its game (the earlier ones are
imported first), so that every game finishes and the league has something to rank."""


def prepare(club, tmp_path: Path, games: dict[str, object]) -> dict[str, Path]:
    """Store each game but its last entries; write its whole log for its table to record from."""
    paths, application = {}, Games(club)
    for name, log in games.items():
        application.import_log(log.with_events(log.events[:-RECORDED]), name)
        paths[name] = tmp_path / f"{name}.json"
        game_log.write(paths[name], log)
    return paths


def test_eight_tables_and_two_devices_at_once(club, club_env, tmp_path):
    games = {f"table-{k}": simulated([POOL[(k + j) % len(POOL)] for j in range(2 + k % 2)], 700 + k) for k in range(TABLES)}
    games["shared"] = simulated(("Ana", "Bruno"), 777)
    paths = prepare(club, tmp_path, games)
    children = [(name, start(club_env, name, paths[name], 1 if name == "shared" else 3)) for name in games]
    children += [("shared", start(club_env, "shared", paths["shared"]))]
    attempts: dict[str, list[dict]] = {}
    for name, child in children:
        attempts.setdefault(name, []).extend(finish(child))

    for name, log in games.items():
        stored = club.export(name)
        tried = [a for a in attempts[name] if "entry" in a]
        assert {a["code"] for a in tried} <= {0, 1, 2, 3}
        stored_by_acts = sum(min(3, len(log.events) - a["entry"] + 1) if name != "shared" else 1 for a in tried if a["code"] == 0)
        assert stored_by_acts + len(log.events) - RECORDED == len(stored.events), f"{name}: a success not stored, or a failure stored"
        assert validate(stored).valid and stored.events == log.events, f"{name}: an entry lost or stored twice"
        if name != "shared":  # one table per game: no conflict
            assert all(a["code"] == 0 for a in tried), name
    shared = [a for a in attempts["shared"] if "entry" in a]
    stale = [a for a in shared if a["code"] != 0]
    assert stale, "the two devices never raced: the test tested nothing"
    assert not (odd := not_conflicts(stale)), odd[:3]

    league = open_league(club)
    league.catch_up()
    order = sorted(games, key=lambda n: _finished(league, club, n))
    logs = [(n, club.export(n)) for n in order]
    with league.view.reading() as tables:
        report, rated = standings(tables), ratings(tables)
    results = brute.results(logs)
    assert brute.reported(report, {}) == brute.standings(results, {})
    expected = brute.ratings(results, {})
    assert {brute.person({}, r["player"]): (r["mu"], r["sigma"]) for r in rated["players"]} == {
        p: (round(mu, 3), round(sigma, 3)) for p, (mu, sigma) in expected.items()}


def not_conflicts(failed: list[dict]) -> list[dict]:
    """The failed attempts that are not the store's conflict of a stale attempt (each is named when the test fails, not the first few)."""
    return [a for a in failed if not (a["code"] == 3 and CONFLICT in a["error"])]


def _finished(league, club, name: str) -> int:
    with league.view.reading() as tables:
        status, finished = tables.game(str(club.get(name).id))
    return finished if finished is not None else 1 << 62


def test_a_stale_device_gets_the_conflict_and_retrying_works(club, club_env, tmp_path):
    log = simulated(("Ana", "Bruno"), 778)
    paths = prepare(club, tmp_path, {"shared": log})
    devices = [start(club_env, "shared", paths["shared"]) for _ in range(2)]
    tried = [a for device in devices for a in finish(device) if "entry" in a]
    stale = [a for a in tried if a["code"] != 0]
    assert stale, "the two devices never raced"
    assert not (odd := not_conflicts(stale)), odd[:3]
    assert club.export("shared").events == log.events  # retrying after each conflict recorded the whole game, once


def test_a_decision_made_on_a_table_that_has_moved_on_is_not_stored(tmp_path):
    """``act --after HEAD``: the head a device showed; if the record moved on since, exit 3 and nothing stored."""
    from coimbra_events.store.game_store import GameStore
    from coimbra_events.notation import render
    from tests.commands import invoke

    log = simulated(("Ana", "Bruno"), 779)
    env = {"COIMBRA_DB": str(tmp_path / "club.sqlite")}
    store = GameStore(env["COIMBRA_DB"])
    Games(store).import_log(log.with_events(log.events[:-3]), "shared")
    shown = store.get("shared").head
    store.close()
    first = invoke(["act", "shared", "--after", shown[:12], render(log.events[-3])], env=env)
    assert first.exit_code == 0, first.output
    stale = invoke(["act", "shared", "--after", shown[:12], render(log.events[-2])], env=env)
    assert stale.exit_code == 3 and CONFLICT in stale.stderr
    assert invoke(["act", "shared", "--after", "not-a-hash", render(log.events[-2])], env=env).exit_code == 2
    store = GameStore(env["COIMBRA_DB"])
    assert store.export("shared").events == log.events[:-2]  # the stale decision was not stored
    store.close()
