"""Benchmark of ``coimbra analyse`` against another build of it: the same decisions timed in turns, in one run.

A whole analysis (``bench/analyse.py``) takes minutes, and a machine's own speed moves by 10-15 % between two
runs of it, which hides a change of that size. Here this checkout's build and another (``BASE``) each analyse the
same slice of the 2-player fixture, one after the other, ``--rounds`` times, each time in a fresh process; the
report gives every time, the median of each build and their ratio (this build over the base: below 1 is faster),
and whether the two gave the same analysis (the same playouts and grades: a change meant only to be faster must).

``BASE`` is a folder from which ``import coimbra_events`` loads the other build, for instance::

    git worktree add ../base 468bc3d
    python -m pip install --no-deps --target ../base-build ../base

Usage: ``python bench/analyse_against.py BASE [--entries 30:42] [--rounds 3] [--seed 0] [--jobs J] [--json]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence

from harness import emit, timed

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "fixtures" / "games" / "standin-2p-seed1.json"


def timed_slice(first: int, last: int, seed: int, jobs: int) -> dict[str, Any]:
    """Entries ``first .. last - 1`` of the fixture analysed by the build this process imports: wall time, CPU time,
    the build and the folder it was loaded from, and a digest of every decision's grade, loss and playouts."""
    import coimbra_events
    from coimbra_events import core_build
    from coimbra_events.analysis.engine import analyse, line_of_play
    from coimbra_events.analysis.evaluation import Settings
    from coimbra_events.catalog import standin_catalog
    from coimbra_events.log_reader import read

    entries = line_of_play(read(GAME), standin_catalog())[first:last]
    result, seconds, cpu = timed(lambda: analyse(entries, Settings(seed=seed), jobs))
    measured = [(d.seq, d.grade, round(d.loss, 6), d.playouts) for d in result.decisions]
    measured += [(u.seq, u.luck, u.playouts) for u in result.luck]
    digest = hashlib.sha256(repr(measured).encode()).hexdigest()[:16]
    return {"build": core_build(), "from": str(Path(coimbra_events.__file__).resolve().parent.parent),
            "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2),
            "playouts": sum(m[-1] for m in measured),
            "digest": digest}


def run_in(tree: Path, first: int, last: int, seed: int, jobs: int) -> dict[str, Any]:
    """``timed_slice`` in a fresh process that imports ``coimbra_events`` from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("COIMBRA_PURE", None)
    done = subprocess.run([sys.executable, __file__, "--worker", str(first), str(last), str(seed), str(jobs)],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the analysis in {tree} failed: {done.stderr.strip().splitlines()[-1:]}")
    found: dict[str, Any] = json.loads(done.stdout)
    if Path(found["from"]) != tree.resolve():
        raise SystemExit(f"asked for the build in {tree}, the analysis imported the one in {found['from']}")
    return found


def compare(base: Path, first: int, last: int, rounds: int, seed: int, jobs: int) -> dict[str, Any]:
    """Both builds in turns, ``rounds`` times: this one first in each round."""
    runs: dict[str, list[dict[str, Any]]] = {"this": [], "base": []}
    for _ in range(rounds):
        for name, tree in (("this", ROOT), ("base", base)):
            timing = run_in(tree, first, last, seed, jobs)
            if runs[name] and timing["build"] != runs[name][0]["build"]:
                raise SystemExit(f"the build in {tree} changed during the run ({runs[name][0]['build']}, then "
                                 f"{timing['build']}): was a source file edited?")
            runs[name].append(timing)
            print(f"{name}: {timing['seconds']} s wall, {timing['cpu_seconds']} s CPU", file=sys.stderr, flush=True)

    def median(name: str, figure: str) -> float:
        return float(statistics.median(r[figure] for r in runs[name]))

    return {"entries": [first, last], "rounds": rounds, "seed": seed, "jobs": jobs,
            "builds": {name: found[0]["build"] for name, found in runs.items()},
            "seconds": {name: [r["seconds"] for r in found] for name, found in runs.items()},
            "cpu_seconds": {name: [r["cpu_seconds"] for r in found] for name, found in runs.items()},
            "ratio": round(median("this", "seconds") / median("base", "seconds"), 3),
            "cpu_ratio": round(median("this", "cpu_seconds") / median("base", "cpu_seconds"), 3),
            "playouts": {name: found[0]["playouts"] for name, found in runs.items()},
            "same_analysis": len({r["digest"] for found in runs.values() for r in found}) == 1}


def report(r: dict[str, Any]) -> str:
    same = "the same analysis (playouts and grades)" if r["same_analysis"] else "DIFFERENT analyses"
    lines = [f"entries {r['entries'][0]}..{r['entries'][1] - 1} of {GAME.name}, seed {r['seed']}, {r['jobs']} jobs, "
             f"{r['rounds']} rounds in turns; builds: this {r['builds']['this']}, base {r['builds']['base']}"]
    for name in ("this", "base"):
        lines.append(f"{name} build: {r['seconds'][name]} s wall, {r['cpu_seconds'][name]} s CPU")
    lines.append(f"this / base, medians: {r['ratio']} wall, {r['cpu_ratio']} CPU ({r['playouts']['this']} and "
                 f"{r['playouts']['base']} playouts; {same})")
    return "\n".join(lines)


def _every_core() -> int:
    """``coimbra analyse``'s default jobs, from this checkout (only the workers import the build they time)."""
    sys.path.insert(0, str(ROOT))
    from coimbra_events.analysis.engine import default_jobs

    return default_jobs()


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    if args_in[:1] == ["--worker"]:
        first, last, seed, jobs = (int(a) for a in args_in[1:5])
        print(json.dumps(timed_slice(first, last, seed, jobs)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base", type=Path, help="a folder from which `import coimbra_events` loads the other build")
    parser.add_argument("--entries", default="30:42", help="the slice of the fixture's line of play (default 30:42)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each timing both builds (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="the analysis seed (default 0)")
    parser.add_argument("--jobs", type=int, default=_every_core(), help="processes (default: every core)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(args_in)
    if not (args.base / "coimbra_events" / "__init__.py").is_file():
        parser.error(f"{args.base} holds no coimbra_events package")
    first, _, last = args.entries.partition(":")
    return emit(compare(args.base.resolve(), int(first), int(last), args.rounds, args.seed, args.jobs), args.json,
                report)


if __name__ == "__main__":
    sys.exit(main())
