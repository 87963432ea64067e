"""Fit the accuracy formula's constants (``coimbra_events/analysis/grades.py``: ``ACCURACY``) on the calibration
bench's games, as lichess fitted its own on chess games.

The formula keeps lichess's shape, ``scale * exp(-rate * loss) + offset`` clamped to 0..100 with ``scale + offset =
100``, on the loss less one standard error (``grades.counted_loss``), and a player's accuracy is
``AccuracyFormula.of_player`` (weighted by stake): two constants are free, ``rate`` and ``offset``.
They are fitted so that, on the games of ``bench/calibration.py --full`` (each kind of player against itself), the
random bots' mean accuracy is ``ANCHORS["random"]`` and the analysis as a player's is ``ANCHORS["analysis"]``: a
least-squares fit of the two kinds' means to those anchors over a grid of constants (``RATES`` by ``OFFSETS``; the
first best of the grid, so the same data always give the same constants). The anchors sit well inside issue 42's
bounds (random play below 60, the analysis above 90), so that the margin shows on other games too.

Usage (what fitted the shipped constants; the recorded data are that run's decisions, ``DATA``):

    nice -n 19 python bench/calibration.py --full --json > calibration.json
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
"""The decisions the shipped constants were fitted on (``bench/calibration.py --full``, recorded by ``--record``)."""
ANCHORS = {"random": 50.0, "analysis": 95.0}
"""Where the fit puts each kind's mean accuracy."""
RATES = np.round(np.arange(0.001, 0.5, 0.001), 3)
OFFSETS = np.round(np.arange(-400.0, 0.25, 0.5), 1)
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
    """The grid's constants that bring each anchored kind's mean accuracy nearest its anchor (least squares)."""
    kinds = {kind: [k for k, p in enumerate(found) if p["kind"] == kind] for kind in ANCHORS}
    best: tuple[float, float, float] | None = None
    for rate in RATES:
        every = accuracies(found, float(rate))
        error = sum((every[:, columns].mean(axis=1) - ANCHORS[kind]) ** 2 for kind, columns in kinds.items())
        at = int(np.argmin(error))
        if best is None or error[at] < best[0]:
            best = (float(error[at]), float(rate), float(OFFSETS[at]))
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
