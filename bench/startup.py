"""Benchmark of start-up: how long the installed command takes for a validation and for its help.

In one run, each the best of N interleaved runs of a fresh process (the wall time a
user waits, start-up included):

* baseline: ``python -c "import typer, rich.console"``, the floor of any Typer and
  Rich command line;
* ``coimbra validate FILE`` on a fixture game (``fixtures/games/standin-3p-seed2.json``);
* ``coimbra --help``.

The processes run with their bytecode cached (``PYTHONDONTWRITEBYTECODE`` is left out
of their environment, and a warm-up run writes it), as an installed program does.
Targets: each at most 1.5 times the baseline. Missing a target is reported, not an
error: the script always exits 0 so CI can collect the figures.

Usage: ``python bench/startup.py [--repeat N] [--json]``
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import harness  # noqa: E402

TARGET = 1.5
GAME = ROOT / "fixtures" / "games" / "standin-3p-seed2.json"


def coimbra() -> str:
    """The console script of this environment (what a user runs)."""
    beside = Path(sys.executable).parent / "coimbra"
    found = str(beside) if beside.exists() else shutil.which("coimbra")
    if not found:
        raise SystemExit("bench/startup.py: the coimbra command is not installed (pip install -e .)")
    return found


def runs() -> dict[str, list[str]]:
    return {
        "baseline: python -c 'import typer, rich.console'": [sys.executable, "-c", "import typer, rich.console"],
        "coimbra validate FILE": [coimbra(), "validate", str(GAME)],
        "coimbra --help": [coimbra(), "--help"],
    }


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"NO_COLOR": "1"}
"""As an installed program runs: its modules' bytecode cached (written by the warm-up run), as the libraries' is."""


def wall(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"bench/startup.py: {' '.join(argv)} exited {done.returncode}")
    return elapsed


def measure(repeat: int) -> dict[str, Any]:
    commands = runs()
    for argv in commands.values():  # warm the file cache, and write the bytecode of this checkout's modules
        wall(argv)
    best = {name: float("inf") for name in commands}
    for _ in range(repeat):
        for name, argv in commands.items():
            best[name] = min(best[name], wall(argv))
    base = best[next(iter(commands))]
    ratios = {name: t / base for name, t in best.items()}
    return {
        "repeat": repeat,
        "python": sys.version.split()[0],
        "runs": {name: {"ms": t * 1000, "ratio": ratios[name]} for name, t in best.items()},
        "targets": {name: {"target": TARGET, "value": ratios[name], "pass": ratios[name] <= TARGET}
                    for name in list(commands)[1:]},
    }


def report(result: dict[str, Any]) -> str:
    lines = [f"best of {result['repeat']} fresh processes; Python {result['python']}", "",
             f"{'run':<52}{'ms':>8}{'ratio':>8}"]
    lines += [f"{name:<52}{r['ms']:>8.1f}{r['ratio']:>8.2f}" for name, r in result["runs"].items()]
    lines.append("")
    for name, t in result["targets"].items():
        lines.append(f"{name} / baseline: {t['value']:.2f} (target ≤ {t['target']:g}): {'PASS' if t['pass'] else 'FAIL'}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    return harness.run(argv, __doc__, measure, report, 20, "fresh processes per run; the best counts")


if __name__ == "__main__":
    sys.exit(main())
