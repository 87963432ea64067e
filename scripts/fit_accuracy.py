"""Fit the accuracy formula's constants (``coimbra_events/analysis/grades.py``: ``ACCURACY``) on the calibration
bench's games, as lichess fitted its own on chess games.

The formula keeps lichess's shape, ``scale * exp(-rate * loss) + offset`` clamped to 0..100 with ``scale + offset =
100``, on the loss less one standard error (``grades.counted_loss``), and a player's accuracy is
``AccuracyFormula.of_player`` (weighted by stake): two constants are free, ``rate`` and ``offset``.
They are fitted for the widest margin on issue 42's two bounds, on the games of ``bench/calibration.py --full`` (each
kind of player against itself): the random bots' mean accuracy below ``BOUNDS["random"]`` (60) and the analysis as a
player's above ``BOUNDS["analysis"]`` (90), the smaller of the two margins as large as it can be, over a grid of
constants (``RATES`` by ``OFFSETS``; the first best of the grid, so the same data always give the same constants).
The offset stays within -100..0 (the scale at most 200): further down the curve loses its bend, and the fit drifts
towards a straight line for a margin hardly wider.

Usage (what fitted the shipped constants; the recorded data are that run's decisions, ``DATA``):

    nice -n 19 python bench/calibration.py --full --games 1 --json > calibration.json
    python scripts/fit_accuracy.py calibration.json --record scripts/fit_accuracy_games.json
    python scripts/fit_accuracy.py            # the recorded data: prints the constants and each kind's accuracy
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any, Sequence

import numpy as np  # OR-Tools, a dependency, brings it

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coimbra_events.analysis.grades import NOISE_SE, STAKE_FLOOR, AccuracyFormula, counted_loss  # noqa: E402

DATA = ROOT / "scripts" / "fit_accuracy_games.json"
"""The decisions the shipped constants were fitted on (``bench/calibration.py --full --games 1``, recorded by ``--record``),
the analysis as a player then its ranking alone at 8 playouts an option (``--analysis-playouts 8``), not yet the
analysis itself that the bench now plays at ``--full`` (``docs/analysis.md``, "Accuracy")."""
BOUNDS = {"random": 60.0, "analysis": 90.0}
"""Issue 42's: random play scores below 60, the analysis as a player above 90."""
RATES = np.round(np.arange(0.001, 0.5, 0.001), 3)
OFFSETS = np.round(np.arange(-100.0, 0.25, 0.5), 1)
FIELDS = ("kind", "game", "player", "losses", "ses", "stakes")
"""What the fit reads of each player of a game (``bench/calibration.py --json``'s ``players``)."""


def players(path: Path) -> list[dict[str, Any]]:
    """The players of the calibration games in ``path`` (the bench's JSON, or the recorded data)."""
    return [{field: p[field] for field in FIELDS} for p in json.loads(path.read_text())["players"]]


def accuracies(found: Sequence[dict[str, Any]], rate: float) -> np.ndarray:
    """Every player's accuracy at ``rate`` for every offset of ``OFFSETS`` (rows: offsets; columns: players), as
    ``AccuracyFormula.of_player`` gives it, for the whole grid at once."""
    columns = []
    for p in found:
        counted = np.maximum(0.0, np.asarray(p["losses"], dtype=float) - NOISE_SE * np.asarray(p["ses"], dtype=float))
        decays, weights = np.exp(-rate * counted), np.maximum(STAKE_FLOOR, p["stakes"])
        each = np.clip(np.outer(100.0 - OFFSETS, decays) + OFFSETS[:, None], 0.0, 100.0)
        columns.append(each @ weights / weights.sum() if len(decays) else np.full(len(OFFSETS), 100.0))
    return np.stack(columns, axis=1)


def fit(found: Sequence[dict[str, Any]]) -> AccuracyFormula:
    """The grid's constants that leave the widest margin on both bounds (the smaller one as large as it can be)."""
    random, analysis = ([k for k, p in enumerate(found) if p["kind"] == kind] for kind in BOUNDS)
    best: tuple[float, float, float] | None = None
    for rate in RATES:
        every = accuracies(found, float(rate))
        margin = np.minimum(BOUNDS["random"] - every[:, random].mean(axis=1),
                            every[:, analysis].mean(axis=1) - BOUNDS["analysis"])
        at = int(np.argmax(margin))
        if best is None or margin[at] > best[0]:
            best = (float(margin[at]), float(rate), float(OFFSETS[at]))
    assert best is not None
    _, rate, offset = best
    return AccuracyFormula(round(100.0 - offset, 1), rate, offset)


def table(found: Sequence[dict[str, Any]], formula: AccuracyFormula) -> list[dict[str, Any]]:
    """Each kind's accuracy with ``formula`` (by ``of_player`` itself): mean over its players, their SD, how many."""
    rows = []
    for kind in dict.fromkeys(p["kind"] for p in found):
        mine = [formula.of_player([(counted_loss(loss, se), stake) for loss, se, stake in zip(p["losses"], p["ses"], p["stakes"])])
                for p in found if p["kind"] == kind]
        rows.append({"kind": kind, "players": len(mine), "accuracy": round(statistics.fmean(mine), 1),
                     "sd": round(statistics.stdev(mine), 1) if len(mine) > 1 else None})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="?", type=Path, default=DATA, help="the bench's JSON (default: the recorded data)")
    parser.add_argument("--record", type=Path, help="write the games' decisions here (what the fit reads)")
    args = parser.parse_args(argv)
    found = players(args.games)
    if args.record:
        source = json.loads(args.games.read_text())
        kept = {k: source[k] for k in ("core", "settings", "analysis_playouts") if k in source}
        args.record.write_text(json.dumps({**kept, "players": found}, separators=(",", ":")) + "\n")
    formula = fit(found)
    print(json.dumps({"scale": formula.scale, "rate": formula.rate, "offset": formula.offset,
                      "kinds": table(found, formula)}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
