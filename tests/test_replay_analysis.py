"""An analysed game in the replayer: every decision marked with its grade, the winning chances shown.

The analysis is ``fixtures/analyses/standin-3p-seed2.json``: ``projections.analysis``'s
read model of the 3-player fixture, made by the analysis engine with few playouts
(its ``key`` says which settings) and kept without each decision's list of options,
so that these tests and the snapshot in ``tests/test_replay_snapshots.py`` hold
whatever the engine's later estimates. The replayer is driven headless with
Textual's pilot, as ``tests/test_replay_app.py`` drives it.
"""

from __future__ import annotations

import orjson
import pytest

from cli.analysis_views import GRADE_MARKS, LEVELS, Graded
from cli.replay_app import ReplayApp
from cli.replay_views import Replay
from coimbra_events.store.sources import game_from_file
from tests.conftest import FIXTURES
from tests.test_replay_app import GAME, run

ANALYSIS = FIXTURES / "analyses" / "standin-3p-seed2.json"


def pinned_analysis() -> dict:
    return orjson.loads(ANALYSIS.read_bytes())


@pytest.fixture(scope="module")
def analysed() -> Replay:
    return Replay(game_from_file(GAME), pinned_analysis())


def test_the_pinned_analysis_is_of_the_fixture_game_as_it_is():
    assert pinned_analysis()["key"]["head"] == game_from_file(GAME).head


def test_every_decision_in_the_entry_list_carries_its_grades_mark_and_no_other_entry_does(analysed):
    report = pinned_analysis()
    grades = {d["seq"]: d["grade"] for d in report["decisions"]}
    entries = run(ReplayApp(analysed))["entries"]
    assert len(entries) == len(analysed.rows)
    for row, line in zip(analysed.rows, entries):
        mark = line[5:8]  # after the entry's number, right-aligned in four places and a space
        assert mark == (f"{GRADE_MARKS[grades[row.seq]]:<2} " if row.seq in grades else "   "), line
    assert {"blunder", "mistake", "inaccuracy", "best"} <= set(grades.values())  # the fixture shows each kind


@pytest.mark.parametrize("grade", ["blunder", "mistake", "inaccuracy", "best"])
def test_a_decision_shows_its_grade_its_loss_with_the_interval_and_the_better_option(analysed, grade):
    decision = next(d for d in pinned_analysis()["decisions"] if d["grade"] == grade and not d["forced"])
    seq = decision["seq"]
    app = ReplayApp(analysed, start=seq - 1)
    seen = run(app, "right")
    pane = analysed.graded.details(seq)
    assert f"{GRADE_MARKS[grade]} {grade}" in seen["entry"].splitlines()[1]
    assert str(pane[0]).startswith(f"{GRADE_MARKS[grade]} {grade}")
    low, high = decision["interval"]
    assert f"95 %: {low:.1f} to {high:.1f}" in str(pane[1])
    if decision["loss"]:
        assert f"−{decision['loss']:.1f} pp" in str(pane[0])
    shows_best = any(str(line).startswith("best: ") for line in pane)
    assert shows_best == (grade != "best" and decision["best"] != decision["played"])


def test_a_random_outcome_shows_the_luck_it_brought_each_player(analysed):
    luck = pinned_analysis()["luck"][3]
    shown = str(analysed.graded.details(luck["seq"])[0])
    assert shown.startswith("luck: ") and all(f"{name} {points:+.1f} pp" in shown for name, points in luck["luck"].items())


def test_the_curve_has_a_line_a_player_ending_in_the_chance_after_the_entry_shown(analysed):
    report = pinned_analysis()
    graded = analysed.graded
    for n in (0, 40, report["curve"][-1]["seq"]):
        point = graded.point_at(n)
        rendered = _rendered(graded, n, width=40)
        for name, line in zip(report["players"], rendered):
            assert line.startswith(name)
            if point is None:
                assert not line.rstrip().endswith("%")
            else:
                assert line.rstrip().endswith(f"{report['curve'][point]['win'][name] * 100:3.0f}%")
            assert set(line[len(name):].split()[0]) <= set(LEVELS)


def _rendered(graded: Graded, n: int, width: int) -> list[str]:
    from rich.console import Console

    console = Console(width=width, record=True, color_system=None)
    console.print(graded.panel(n))
    return console.export_text().splitlines()


def test_without_an_analysis_the_replayer_shows_no_grades_and_no_curve(analysed):
    plain = Replay(game_from_file(GAME))
    seen = run(ReplayApp(plain, start=52), "right")
    assert "??" not in seen["entry"] and all(line[5] not in "★✓?" for line in seen["entries"])
