"""``coimbra analyse`` end to end, through the installed command: the graded list and summary with names, ``--json``
with the fields the issue names, the read model kept under its key and read back, refusals."""

from __future__ import annotations

import os
import shutil
import subprocess

import orjson
import pytest

import projections.analysis as analysis_module
from cli.analyse_command import hedge
from coimbra_events import log as game_log
from coimbra_events.analysis.grades import grade
from coimbra_events.log_reader import read
from projections.analysis import Settings, analysis_key, cached_analysis, latest_analysis
from tests.conftest import FIXTURES, installed_coimbra

GAME = FIXTURES / "games" / "standin-2p-seed1.json"
QUICK = ("--playouts", "4", "--settle", "8", "--luck", "4", "--jobs", "1")


def run(*args: str, cache) -> subprocess.CompletedProcess:
    return subprocess.run([installed_coimbra(), "analyse", *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200", "COIMBRA_ANALYSES": str(cache)})


@pytest.fixture(scope="module")
def opening(tmp_path_factory):
    """The fixture's setup, start choices and first decisions of round 1: a short game to analyse."""
    folder = tmp_path_factory.mktemp("analyse")
    path = folder / "opening.json"
    game_log.write(path, read(GAME).prefix(17))
    return path, folder / "analyses"


def test_json_grades_every_decision_with_seq_grade_loss_and_interval(opening):
    path, cache = opening
    out = run(str(path), *QUICK, "--json", cache=cache)
    assert out.returncode == 0, out.stderr
    report = orjson.loads(out.stdout)
    log = read(path)
    decisions = [k + 1 for k, e in enumerate(log.events) if e.actor != "table"]
    assert [d["seq"] for d in report["decisions"]] == decisions
    for d in report["decisions"]:
        assert d["grade"] in ("best", "good", "inaccuracy", "mistake", "blunder")
        low, high = d["interval"]
        assert -100 <= low <= d["signed_loss"] <= high <= 100 and d["player"] in ("Ana", "Bruno")
        assert d["loss"] == max(0.0, d["signed_loss"])
        assert d["grade"] in d["reach"] and (d["reach"][0], d["reach"][-1]) == (grade(low), grade(high))
        assert d["options_total"] == len(d["options"]) and sum(o["played"] for o in d["options"]) == 1
    assert report["players"] == ["Ana", "Bruno"] and set(report["summary"]) == {"Ana", "Bruno"}
    assert [p["seq"] for p in report["curve"]] == list(range(1, 18))
    assert report["key"] == analysis_key(log, Settings(playouts=4, first_pass=4, settle=8, luck=4))


def test_the_analysis_is_kept_under_its_key_and_read_back(opening):
    path, cache = opening
    first = run(str(path), *QUICK, "--json", cache=cache)
    again = run(str(path), *QUICK, "--json", cache=cache)
    assert first.stdout == again.stdout
    log, settings = read(path), Settings(playouts=4, first_pass=4, settle=8, luck=4)
    assert cached_analysis(log, settings, cache) == orjson.loads(first.stdout)
    assert cached_analysis(log, Settings(playouts=4, first_pass=4, settle=8, luck=4, seed=3), cache) is None  # another key
    assert latest_analysis(log, cache) == orjson.loads(first.stdout)
    assert latest_analysis(read(GAME), cache) is None  # another record


def test_an_analysis_kept_by_an_older_method_is_made_anew(opening, monkeypatch):
    """The same settings and seed measured another way (another ``METHOD``) are another key: the kept one is not
    read as this one's."""
    path, cache = opening
    log, settings = read(path), Settings(playouts=4, first_pass=4, settle=8, luck=4)
    assert run(str(path), *QUICK, "--json", cache=cache).returncode == 0 and cached_analysis(log, settings, cache)
    monkeypatch.setattr(analysis_module, "METHOD", analysis_module.METHOD + 1)
    assert cached_analysis(log, settings, cache) is None


def test_the_summary_and_graded_list_name_players_and_components(opening):
    path, cache = opening
    out = run(str(path), *QUICK, cache=cache)
    assert out.returncode == 0, out.stderr
    for words in ("Where the game was decided", "Every decision", "accuracy", "luck", "Ana", "Bruno", "start group",
                  "lichess"):
        assert words in out.stdout
    report = orjson.loads(run(str(path), *QUICK, "--json", cache=cache).stdout)
    hedged = [d for d in report["decisions"] if len(d["reach"]) > 1]
    assert hedged and all(d["grade"] + hedge(d) in out.stdout for d in hedged)  # near an edge: what else it could be
    assert "Every roll and deal" in out.stdout and report["luck"]
    for u in report["luck"]:  # each roll's and deal's luck, with its interval, per player
        for name, (low, high) in u["interval"].items():
            assert f"{u['luck'][name]:+.1f} ({low:+.1f} to {high:+.1f})" in out.stdout
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize(("grade", "reach", "certain", "said"), [
    ("good", ["best", "good"], False, " (or best)"), ("mistake", ["mistake", "blunder"], True, " (or blunder)"),
    ("good", ["best", "good", "inaccuracy"], False, " (best to inaccuracy)"), ("best", ["best"], False, ""),
    ("inaccuracy", ["inaccuracy"], True, ""), ("inaccuracy", ["inaccuracy"], False, " (uncertain)")])
def test_a_grade_in_the_list_says_what_else_its_interval_reaches(grade, reach, certain, said):
    assert hedge({"grade": grade, "reach": reach, "certain": certain}) == said


def test_an_illegal_game_is_refused_with_one_line(tmp_path):
    bad = sorted((FIXTURES / "invalid").glob("*-*.json"))[0]
    out = run(str(bad), *QUICK, cache=tmp_path)
    assert out.returncode in (1, 2) and out.stderr.count("error:") == 1 and "Traceback" not in out.stderr


def test_a_kept_analysis_of_another_shape_is_not_shown(opening, tmp_path):
    """A report kept by an older version (another ``format``) is never handed to the views. (A copy of the module's
    kept analyses, so that the opening is analysed again only when this test runs alone.)"""
    path, cache = opening[0], tmp_path
    if opening[1].exists():
        shutil.copytree(opening[1], cache, dirs_exist_ok=True)
    log = read(path)
    assert run(str(path), *QUICK, "--json", cache=cache).returncode == 0
    kept = latest_analysis(log, cache)
    pointer = orjson.loads((cache / "heads" / f"{log.head()}.json").read_bytes())
    (cache / pointer).write_bytes(orjson.dumps({**kept, "key": {**kept["key"], "format": 0}}))
    assert latest_analysis(log, cache) is None


def test_the_text_shows_top_options_gains_turning_points_and_losses_by_kind_and_round(opening):
    """The reasons (tests/test_analysis_reasons.py) in the text, from the analysis this module keeps (the same settings)."""
    path, cache = opening
    out = run(str(path), *QUICK, cache=cache)
    assert out.returncode == 0, out.stderr
    report = orjson.loads(run(str(path), *QUICK, "--json", cache=cache).stdout)
    for title in ("top options (win, expected score)", "the best gains", "Turning points",
                  "Points lost by kind of decision", "Points lost by round"):
        assert title in out.stdout
    gained = next(d for d in report["decisions"] if d["gains"])
    source, points = next(iter(gained["gains"].items()))
    assert f"{'+' if points >= 0 else '−'}{abs(points):.1f} {source}" in out.stdout
