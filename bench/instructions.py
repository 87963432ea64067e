"""Instructions per event of the replay benchmark's runs, counted by valgrind.

Wall-clock figures on a shared machine move by about 5 % from run to run, so a
change worth 1 % cannot be seen in them. The number of instructions executed
does not move (well under 1 %), which makes it the measure to compare two
versions of the rules core by; it is not a time (cache misses and the cost of
each instruction differ between the runs), so ``bench/replay.py`` stays the
benchmark the targets are judged by.

Each run of ``bench/replay.py`` (baseline, read, validated) is executed under
``valgrind --tool=callgrind`` twice, with no pass and with N passes over the
games after the same warm-up; the difference divided by N and by the number
of events is the cost per event, without the interpreter's start-up.

The same for ``coimbra analyse``'s inner loop (the ``playout`` run): one playout
(``analysis.playouts.play_out`` on one scratch fold, as ``Tally.run`` plays them)
from every third decision of the 2-player fixture ``bench/analyse.py`` times, with
fixed streams; the cost per playout, and against the baseline's per event. Its
passes can be fewer (``--playout-passes``, CI's 1): the streams are fixed, so every
pass plays the same playouts and one pass gives the same mean per playout within 0.3 %
(8,664,037 and 8,682,653 in two runs, against 8,658,205 for 10 passes), where a replay
pass of the baseline (about 3 M instructions) moves by some 10 % alone.

Usage: ``python bench/instructions.py [--repeat N] [--playout-passes N] [--json]``
(needs valgrind on the PATH; without it, says so and exits 0, like every benchmark here).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # measure this checkout, installed or not
sys.path.insert(0, str(HERE))

import harness  # noqa: E402
import replay  # noqa: E402

RUNS = {"baseline": replay.baseline, "read": replay.read_only, "validated": replay.validated_replay}
PLAYOUT = "playout"
CHILD = "--child"


def games() -> list[bytes]:
    """The log bytes ``bench/replay.py`` measures: the fixture games, else simulated ones."""
    found = replay.fixture_games() or replay.simulated_games()
    return [data for _, data in found]


def playout_starts() -> list[Any]:
    """The table at every third decision of the 2-player fixture the analysis benchmark measures."""
    from analyse import fixture_line  # here: the replay runs do not load the analysis

    return [entry.before for entry in fixture_line() if not entry.is_outcome][::3]


def playouts(starts: Sequence[Any]) -> None:
    """One playout from each start, on one scratch fold, with the streams of playout ``k`` of entry 0, seed 1."""
    from coimbra_events.analysis.playouts import Streams, play_out
    from coimbra_events.rules.fast import Fold

    fold = Fold(scratch=True)
    for k, state in enumerate(starts):
        play_out(state, Streams(1, 0, k), fold)


def child(run: str, passes: int) -> None:
    """In the process valgrind counts: warm up as the replay benchmark does (and with one pass of playouts for the
    playout run), then ``passes`` passes."""
    logs = games()
    for warm in RUNS.values():
        warm(logs)
    if run == PLAYOUT:
        starts = playout_starts()
        for _ in range(passes + 1):
            playouts(starts)
        return
    for _ in range(passes):
        RUNS[run](logs)


def instructions(run: str, passes: int) -> int:
    """Instructions valgrind counts for a child process doing ``passes`` passes of ``run``."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, __file__, CHILD, run, str(passes)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"valgrind reported no instruction count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def measure(repeat: int, playout_passes: int) -> dict[str, Any]:
    """Instructions per event of each run, and the validated/baseline ratio of them; per playout, over its own passes."""
    if shutil.which("valgrind") is None:
        return {"skipped": "valgrind is not on the PATH"}
    events = sum(len(replay.loads(data).events) for data in games())
    warmed = instructions(next(iter(RUNS)), 0)  # no pass: every replay run's child warms up alike, so count it once
    per_event = {run: (instructions(run, repeat) - warmed) / (repeat * events) for run in RUNS}
    starts = len(playout_starts())
    played = instructions(PLAYOUT, playout_passes) - instructions(PLAYOUT, 0)
    per_playout = played / (playout_passes * starts)
    return {
        "events": events,
        "repeat": repeat,
        "playout_passes": playout_passes,
        "python": sys.version.split()[0],
        "rules_core": replay.core_build(),
        "instructions_per_event": per_event,
        "ratio": per_event["validated"] / per_event["baseline"],
        "playouts": starts,
        "instructions_per_playout": per_playout,
        "playout_ratio": per_playout / per_event["baseline"],
    }


def report(result: dict[str, Any]) -> str:
    """The counts as a small table."""
    if "skipped" in result:
        return f"instruction counts skipped: {result['skipped']}"
    lines = [
        f"{result['events']} events, {result['repeat']} passes; Python {result['python']}, "
        f"rules core {result['rules_core']}",
        "",
        f"{'run':<12}{'instructions/event':>20}",
    ]
    lines += [f"{run:<12}{count:>20,.0f}" for run, count in result["instructions_per_event"].items()]
    lines += ["", f"ratio validated/baseline, in instructions: {result['ratio']:.1f} (not a time: see the docstring)"]
    lines += [f"{result['playouts']} playouts a pass, passes counted {result['playout_passes']}: "
              f"{result['instructions_per_playout']:,.0f} instructions per playout, "
              f"{result['playout_ratio']:,.0f} times the baseline's per event"]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == [CHILD]:
        child(args[1], int(args[2]))
        return 0
    parser = harness.options(__doc__, 10, "passes counted (after the warm-up)")
    parser.add_argument("--playout-passes", type=int, help="passes of the playouts counted (default: --repeat's)")
    options = parser.parse_args(args)
    repeat = max(1, options.repeat)
    return harness.emit(measure(repeat, max(1, options.playout_passes or repeat)), options.json, report)


if __name__ == "__main__":
    sys.exit(main())
