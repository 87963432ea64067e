"""Benchmark of the analysis's luck: how far a player's luck over the 2-player fixture spreads across seeds.

Only the fixture's random entries are analysed (a roll's or deal's luck reads no decision's figures), once per seed
(seeds 1..``--seeds``, default 10), with ``--luck`` paired playouts each side of an outcome (default: the analysis's
default, ``Settings().luck``), in ``--jobs`` processes. For each player the report gives every seed's total, their
spread (largest less smallest; target: at most 3 points), their standard deviation, the mean standard error each
analysis reported for its total (what the 95 % interval is drawn from: the spread across seeds should match it), and
the playouts, wall and CPU time spent. Missing the target is reported, not an error: the script always exits 0.
``.ci/run`` runs it reduced (``--luck 64 --seeds 3``: a check that it works, not the figure of docs/analysis.md).
Usage: ``python bench/luck_spread.py [--seeds N] [--luck N] [--jobs J] [--json]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coimbra_events import core_build  # noqa: E402
from coimbra_events.analysis.engine import analyse, default_jobs, line_of_play  # noqa: E402
from coimbra_events.analysis.evaluation import Settings  # noqa: E402
from coimbra_events.catalog import standin_catalog  # noqa: E402
from coimbra_events.log_reader import read  # noqa: E402
from harness import emit, timed  # noqa: E402

GAME = ROOT / "fixtures" / "games" / "standin-2p-seed1.json"
TARGET_POINTS = 3.0
"""Issue 42's bound on the spread of a player's total luck across 10 seeds."""


def measure(seeds: int, luck: int, jobs: int) -> dict[str, Any]:
    outcomes = [e for e in line_of_play(read(GAME), standin_catalog()) if e.is_outcome]
    out: dict[str, Any] = {"core": core_build(), "cores": os.cpu_count(), "jobs": jobs, "luck": luck,
                           "outcomes": len(outcomes), "load_average_at_start": os.getloadavg()[0], "seeds": {}}
    players: tuple[str, ...] = ()
    wall = cpu = 0.0
    spent = 0
    for seed in range(1, seeds + 1):
        result, seconds, used = timed(lambda: analyse(outcomes, Settings(luck=luck, seed=seed), jobs))
        players = result.players
        tables = len(result.luck) + len({u.run for u in result.luck})  # a run's tables played out once each
        wall, cpu, spent = wall + seconds, cpu + used, spent + luck * tables
        out["seeds"][seed] = {name: [round(v, 2) for v in result.luck_total(p)] for p, name in enumerate(players)}
        print(f"seed {seed}: {out['seeds'][seed]}", file=sys.stderr, flush=True)
    for name in players:
        totals = [out["seeds"][s][name][0] for s in out["seeds"]]
        errors = [out["seeds"][s][name][1] for s in out["seeds"]]
        out[name] = {"spread": round(max(totals) - min(totals), 2),
                     "sd": round(statistics.stdev(totals), 2) if len(totals) > 1 else 0.0,
                     "mean": round(statistics.fmean(totals), 2), "mean_reported_se": round(statistics.fmean(errors), 2)}
    out.update({"playouts_per_seed": spent // seeds, "wall_seconds_per_seed": round(wall / seeds, 1),
                "cpu_seconds_per_seed": round(cpu / seeds, 1), "load_average_at_end": os.getloadavg()[0]})
    return out


def report(out: dict[str, Any]) -> str:
    lines = [f"luck over the fixture ({out['outcomes']} random entries), {out['luck']} paired playouts each side, "
             f"{out['core']} core, {out['jobs']} jobs"]
    for name in (k for k in out if isinstance(out[k], dict) and "spread" in out[k]):
        s = out[name]
        verdict = "PASS" if s["spread"] <= TARGET_POINTS else "FAIL"
        lines.append(f"  {name}: totals {[out['seeds'][k][name][0] for k in out['seeds']]}, spread {s['spread']} "
                     f"(target <= {TARGET_POINTS}: {verdict}), sd {s['sd']}, mean reported SE {s['mean_reported_se']}")
    lines.append(f"  per seed: {out['playouts_per_seed']} playouts, {out['wall_seconds_per_seed']} s wall, "
                 f"{out['cpu_seconds_per_seed']} s CPU (load average {out['load_average_at_start']} at start)")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=10, help="analyse with seeds 1..N (default 10)")
    parser.add_argument("--luck", type=int, default=Settings().luck, help="paired playouts each side of an outcome")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="worker processes (default: every core)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    return emit(measure(max(1, args.seeds), args.luck, args.jobs), args.json, report)


if __name__ == "__main__":
    sys.exit(main())
