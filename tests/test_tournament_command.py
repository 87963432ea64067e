"""``coimbra tournament seat`` as a user runs it: the installed command, its --json, its refusals and its colours."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.conftest import installed_coimbra

PLAYERS = "Ana,Bruno,Carla,Dora,Eva,Filipe,Gil"


@pytest.fixture(scope="module")
def coimbra() -> str:
    return installed_coimbra()


def run(coimbra: str, *args: str, color: bool = False) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update({"COLUMNS": "200", **({"FORCE_COLOR": "1"} if color else {"NO_COLOR": "1"})})
    return subprocess.run([coimbra, "tournament", "seat", *args], capture_output=True, text=True, env=env, timeout=120)


def test_json_is_rounds_of_tables_of_names_in_seat_order(coimbra):
    done = run(coimbra, "--players", PLAYERS, "--rounds", "3", "--seed", "7", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"rounds", "explanations"}
    assert len(out["rounds"]) == 3
    for tables in out["rounds"]:
        assert sorted(len(t) for t in tables) == [3, 4]
        assert sorted(name for t in tables for name in t) == sorted(PLAYERS.split(","))
    assert all(isinstance(s, str) and "meet again" in s for s in out["explanations"])
    again = run(coimbra, "--players", PLAYERS, "--rounds", "3", "--seed", "7", "--json")
    assert json.loads(again.stdout) == out


@pytest.mark.parametrize("players, rounds, says", [
    ("Ana", "2", "1 player"),
    ("Ana,Bruno,ana ", "2", "'ana' is given twice"),
    ("Ana,,Bruno", "2", "a player's name is empty"),
    ("Ana,Bruno", "0", "0 rounds"),
    ("Ana,Bruno", "21", "21 rounds"),
])
def test_bad_input_exits_2_with_one_line_naming_the_problem(coimbra, players, rounds, says):
    done = run(coimbra, "--players", players, "--rounds", rounds)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ") and says in done.stderr
    assert "Traceback" not in done.stderr


def test_ratings_from_an_unknown_place_exit_2(coimbra):
    done = run(coimbra, "--players", "Ana,Bruno", "--rounds", "1", "--ratings", "chess")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--ratings 'chess'" in done.stderr


def test_people_read_a_table_a_round_with_the_explanations_and_no_colour_under_no_color(coimbra):
    plain = run(coimbra, "--players", PLAYERS, "--rounds", "2", "--seed", "7")
    assert plain.returncode == 0, plain.stderr
    assert "\x1b[" not in plain.stdout
    assert "Round 1" in plain.stdout and "Round 2" in plain.stdout and "first" in plain.stdout
    assert "meet again in round 2 (as in round 1)" in plain.stdout
    assert "Seed 7" in plain.stdout
    coloured = run(coimbra, "--players", PLAYERS, "--rounds", "2", "--seed", "7", color=True)
    assert "\x1b[" in coloured.stdout


def test_ratings_from_the_league_seat_the_strong_together_and_resolve_aliases(coimbra, tmp_path):
    """Rated: Carla 3.55, Duarte 2.01, Ana -0.49, Bruno -1.17; unrated players count 0. A Swiss first round puts
    Carla (typed as her alias) with Duarte and Ana with Bruno; without ratings the seed alone decides."""
    from tests.conftest import FIXTURES

    db = str(tmp_path / "games.sqlite")
    env = {**os.environ, "NO_COLOR": "1"}
    for game in ("standin-4p-seed3.json", "standin-3p-seed2.json"):
        subprocess.run([coimbra, "import", str(FIXTURES / "games" / game), "--db", db], check=True, env=env, capture_output=True)
    subprocess.run([coimbra, "player", "alias", "Carlinha", "Carla", "--db", db], check=True, env=env, capture_output=True)
    players = "Eva,Carlinha,Filipe,Ana,Gil,Duarte,Hugo,Bruno"
    for seed in ("1", "2", "3"):
        done = run(coimbra, "--players", players, "--rounds", "1", "--seed", seed, "--ratings", "league", "--db", db, "--json")
        assert done.returncode == 0, done.stderr
        tables = [set(t) for t in json.loads(done.stdout)["rounds"][0]]
        assert {"Carlinha", "Duarte"} in [t & {"Carlinha", "Duarte"} for t in tables]
        assert {"Ana", "Bruno"} in [t & {"Ana", "Bruno"} for t in tables]
