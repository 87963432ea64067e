"""The command line every benchmark shares: ``--repeat N``, ``--json``, a report, exit 0.

Benchmarks report figures and PASS/FAIL against their targets; they never fail
the run, so CI collects the figures without gating on a noisy machine.
"""

from __future__ import annotations

import argparse
import json
import resource
from typing import Any, Callable, Sequence


def run(
    argv: Sequence[str] | None,
    doc: str,
    measure: Callable[[int], dict[str, Any]],
    report: Callable[[dict[str, Any]], str],
    default_repeat: int,
    repeat_help: str,
) -> int:
    """Parse the shared options, measure, print the report (or JSON), and return 0."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=default_repeat, help=f"{repeat_help} (default {default_repeat})")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    result = measure(max(1, args.repeat))
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


def cpu_seconds() -> float:
    """CPU time of this process and of its finished worker processes (on a shared machine, steadier than wall time)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
