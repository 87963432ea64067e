"""Accuracy as calibrated (issue 42, item 2): the constants give the accuracies ``docs/analysis.md`` documents, a
player's accuracy weighs each decision by its stake, and ``scripts/fit_accuracy.py`` fits the shipped constants
from the recorded data of the calibration bench's games."""

from __future__ import annotations

import importlib
import importlib.util

import pytest

from coimbra_events.analysis.grades import ACCURACY, STAKE_FLOOR, accuracy, counted_loss
from tests.conftest import ROOT

DOCUMENTED = [(0.0, 100.0), (1.0, 88.4), (2.5, 72.1), (5.0, 48.2), (10.0, 9.8), (11.5, 0.3), (11.6, 0.0), (100.0, 0.0)]
"""Counted losses and the accuracy ``docs/analysis.md`` gives them (its table of the curve)."""


@pytest.mark.parametrize(("loss", "documented"), DOCUMENTED)
def test_the_constants_give_the_documented_accuracy(loss: float, documented: float) -> None:
    assert round(accuracy(loss), 1) == documented


def test_accuracy_is_100_without_loss_and_never_leaves_0_to_100() -> None:
    assert accuracy(0.0) == pytest.approx(100.0)
    assert [accuracy(loss) for loss in (100.0, 1000.0)] == [0.0, 0.0]
    assert all(0.0 <= accuracy(loss / 4) <= 100.0 for loss in range(0, 401))


def test_a_players_accuracy_weighs_each_decision_by_its_stake() -> None:
    """A decision at stake 30 weighs thirty times one whose options all win alike (stake 0: ``STAKE_FLOOR``)."""
    lost, kept = (8.0, 30.0), (0.0, 0.0)
    assert ACCURACY.of_player([lost, kept]) == pytest.approx((30 * accuracy(8.0) + STAKE_FLOOR * 100.0) / (30 + STAKE_FLOOR))
    assert ACCURACY.of_player([]) == 100.0


def test_the_loss_counted_is_the_loss_less_one_standard_error() -> None:
    assert [counted_loss(6.0, 2.0), counted_loss(1.0, 2.0), counted_loss(0.0, 0.0)] == [4.0, 0.0, 0.0]


def test_the_fit_script_gives_the_shipped_constants_from_the_recorded_games() -> None:
    spec = importlib.util.spec_from_file_location("fit_accuracy", ROOT / "scripts" / "fit_accuracy.py")
    assert spec is not None and spec.loader is not None
    fit_accuracy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fit_accuracy)
    assert fit_accuracy.fit(fit_accuracy.players(fit_accuracy.DATA)) == ACCURACY


def test_the_bench_judges_the_analysis_as_a_player_by_its_own_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench/calibration.py``'s analysis as a player, where the targets are judged (``--full``, ``--defaults``), is
    the analysis's whole evaluation at its default settings (None: ``evaluation.analysis_choice``), not its ranking
    alone at 8 playouts an option: that stand-in scored 83.7 at the defaults, graded by an analysis it was weaker
    than. CI's quick look keeps the stand-in (a minute's play), and a stand-in asked for is not judged."""
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    calibration = importlib.import_module("calibration")
    asked = [[], ["--full"], ["--defaults"], ["--defaults", "--analysis-playouts", "8"], ["--analysis-playouts", "own"]]
    read = [calibration.arguments(argv) for argv in asked]
    assert [args.analysis_playouts for args in read] == [calibration.QUICK_PLAYER, None, None, 8, None]
    assert [calibration.judges(args, "analysis") for args in read] == [False, True, True, False, False]
    assert [calibration.judges(args, "random") for args in read] == [False, True, True, True, False]
