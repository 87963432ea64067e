"""The command line every benchmark shares: ``--repeat N``, ``--json``, a report, exit 0.

Benchmarks report figures and PASS/FAIL against their targets; they never fail
the run, so CI collects the figures without gating on a noisy machine.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from typing import Any, Callable, Sequence, TypeVar

T = TypeVar("T")


def run(
    argv: Sequence[str] | None,
    doc: str,
    measure: Callable[[int], dict[str, Any]],
    report: Callable[[dict[str, Any]], str],
    default_repeat: int,
    repeat_help: str,
) -> int:
    """Parse the shared options, measure, print the report (or JSON), and return 0."""
    args = options(doc, default_repeat, repeat_help).parse_args(argv)
    return emit(measure(max(1, args.repeat)), args.json, report)


def options(doc: str, default_repeat: int, repeat_help: str) -> argparse.ArgumentParser:
    """The shared options (``--repeat N``, ``--json``), for a benchmark to add its own to (a reduced mode for CI)."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=default_repeat, help=f"{repeat_help} (default {default_repeat})")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return parser


def emit(result: dict[str, Any], as_json: bool, report: Callable[[dict[str, Any]], str]) -> int:
    """Print the figures, as JSON or as the benchmark's report, and give the exit code every benchmark gives: 0."""
    print(json.dumps(result, indent=2) if as_json else report(result))
    return 0


def timed(work: Callable[[], T]) -> tuple[T, float, float]:
    """``work()``, its wall time and its CPU time (``cpu_seconds``: worker processes included)."""
    start, cpu = time.perf_counter(), cpu_seconds()
    result = work()
    return result, time.perf_counter() - start, cpu_seconds() - cpu


def cpu_seconds() -> float:
    """CPU time of this process and of its finished worker processes (on a shared machine, steadier than wall time)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
