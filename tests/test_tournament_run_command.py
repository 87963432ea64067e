"""A tournament run with the installed command from start to standings: ``start`` seats round 1 and starts its games,
``next`` names the tables not finished (exit 1), the games are played (the simulator's inputs, recorded as a table
would), ``next`` seats round 2 by the points so far, and ``standings`` adds up the games' results."""

from __future__ import annotations

import json
import os
import subprocess
from fractions import Fraction
from pathlib import Path

from coimbra_events.tournament.standings import POINTS
from tests.conftest import installed_coimbra
from tests.tournament_play import finish

PLAYERS = "Ana,Bruno,Carla,Dora,Eva,Filipe,Gil"


def run(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", "COIMBRA_BY": "organiser"}
    return subprocess.run([installed_coimbra(), "tournament", *args, "--db", str(db)], capture_output=True, text=True,
                          env=env, timeout=120)


def read(done: subprocess.CompletedProcess[str]) -> dict:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_start_play_next_and_standings(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    begun = read(run(db, "start", "spring", "--players", PLAYERS, "--rounds", "2", "--seed", "3", "--json"))
    assert begun["round"] == 1 and begun["seated"] is True
    assert begun["started"] == {"1": "spring-r1-t1", "2": "spring-r1-t2"}
    assert sorted(len(t["players"]) for t in begun["tables"]) == [3, 4]
    assert sorted(p for t in begun["tables"] for p in t["players"]) == sorted(PLAYERS.split(","))

    unknown = run(db, "standings", "autumn")
    assert unknown.returncode == 2 and unknown.stderr == ("error: no tournament named 'autumn' in the store "
                                                          "(coimbra tournament list names them)\n")
    waiting = run(db, "next", "spring")
    assert waiting.returncode == 1 and waiting.stdout == ""
    assert waiting.stderr.startswith("error: round 1 of spring is not over: table 1 (spring-r1-t1: ")
    assert "in progress; table 2 (spring-r1-t2: " in waiting.stderr

    finish(db, ["spring-r1-t1", "spring-r1-t2"], seed=1)

    after_1 = read(run(db, "standings", "spring", "--json"))
    results = [t["result"] for t in after_1["seated"][0]["tables"]]
    expected: dict[str, Fraction] = {}
    for result in results:  # points by place, shared places split (the fixture's games may share none: both checked)
        places = sorted(r["place"] for r in result)
        for r in result:
            sharing = [k for k, p in enumerate(places) if p == r["place"]]
            expected[r["name"]] = Fraction(sum(POINTS[len(result)][k] for k in sharing), len(sharing))
    assert {line["player"]: line["points"] for line in after_1["standings"]} == {
        name: round(float(points), 3) for name, points in expected.items()}
    ranked = [(-line["points"], -line["scored"], -line["opponents"]) for line in after_1["standings"]]
    assert ranked == sorted(ranked)

    round_2 = read(run(db, "next", "spring", "--json"))
    assert round_2["round"] == 2 and round_2["started"] == {"1": "spring-r2-t1", "2": "spring-r2-t2"}
    assert sorted(p for t in round_2["tables"] for p in t["players"]) == sorted(PLAYERS.split(","))
    finish(db, ["spring-r2-t1", "spring-r2-t2"], seed=2)

    over = read(run(db, "next", "spring", "--json"))
    assert over == {"tournament": "spring", "round": None, "over": True}
    final = read(run(db, "standings", "spring", "--json"))
    assert final["over"] is True and final["version"] == 3  # created, then two rounds seated
    assert [r["round"] for r in final["seated"]] == [1, 2]
    shown = run(db, "standings", "spring")
    assert shown.returncode == 0 and "Standings after round 2 (over)" in shown.stdout
    assert final["standings"][0]["player"] in shown.stdout
    season = subprocess.run([installed_coimbra(), "league", "standings", "--season", "spring", "--json", "--db", str(db)],
                            capture_output=True, text=True, timeout=120)
    assert season.returncode == 0, season.stderr
    assert sum(row["games"] for row in json.loads(season.stdout)["players"]) == 14  # 4 games: 4 + 3 seats each


def test_refusals_are_one_line_and_store_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    bad = run(db, "start", "x", "--players", "Ana,Bruno", "--rounds", "1", "--points", "1,2,3,4")
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.count("\n") == 1
    assert "points 1,2,3,4: a place may not give more than the place before it; nothing stored" in bad.stderr
    assert not db.exists()  # the points are checked before the store is even opened
