"""Benchmark of validated replay: how fast a recorded log is read, checked and folded.

Three measurements over the same log bytes, in one run, each the best of N passes:

* baseline: ``orjson.loads`` of the bytes plus an empty Python loop over the
  events list; the floor any JSON reader in Python pays;
* read: ``coimbra_events.log_reader.loads`` (parse, decode every event, verify the
  hash chain);
* validated replay: ``loads`` then ``coimbra_events.validation.validate``
  (check and apply every event through the rules core).

The games are the fixture corpus (``fixtures/games/*.json``) when present, else
simulated 2, 3 and 4 player games. Targets: validated replay at least 50,000
events/s and at most 10 times the baseline per event. Missing a target is
reported, not an error: the script always exits 0 so CI can collect the figures.

Usage: ``python bench/replay.py [--repeat N] [--json]``
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure this checkout, installed or not
sys.path.insert(0, str(ROOT / "bench"))

import harness  # noqa: E402

from coimbra_events import core_build  # noqa: E402

from coimbra_events.log import LogError, dumps  # noqa: E402
from coimbra_events.log_reader import loads  # noqa: E402
from coimbra_events.validation import validate  # noqa: E402

GAMES = ROOT / "fixtures" / "games"
SIMULATED_SEEDS = (1, 2, 3)
"""Seeds simulated per player count when there are no fixture games."""

TARGET_EVENTS_PER_S = 50_000
TARGET_RATIO = 10.0


def fixture_games() -> list[tuple[str, bytes]]:
    """The recorded fixture games that replay to the end (others are reported and skipped)."""
    games = []
    for path in sorted(GAMES.glob("*.json")):
        data = path.read_bytes()
        try:
            valid = validate(loads(data, str(path))).valid
        except LogError as exc:
            print(f"skipping {path.name}: {exc}", file=sys.stderr)
            continue
        if not valid:
            print(f"skipping {path.name}: not a legal game", file=sys.stderr)
            continue
        games.append((path.name, data))
    return games


def simulated_games() -> list[tuple[str, bytes]]:
    """Simulated 2, 3 and 4 player games, as canonical log bytes."""
    from coimbra_events.catalog import standin_catalog
    from coimbra_events.simulator import DEFAULT_PLAYERS, simulate

    catalog = standin_catalog()
    return [
        (f"simulated-{n}p-seed{seed}", dumps(simulate(catalog, DEFAULT_PLAYERS[:n], seed)[0]))
        for n in (2, 3, 4)
        for seed in SIMULATED_SEEDS
    ]


def baseline(logs: Sequence[bytes]) -> None:
    """The floor: parse the JSON and touch every event, nothing more."""
    for data in logs:
        for _ in orjson.loads(data)["events"]:
            pass


def read_only(logs: Sequence[bytes]) -> None:
    """Read each log: parse, decode every event, verify the hash chain."""
    for data in logs:
        loads(data)


def validated_replay(logs: Sequence[bytes]) -> None:
    """Read each log and fold it through the rules, checking every event."""
    for data in logs:
        validate(loads(data))


def best_times(runs: dict[str, Callable[[Sequence[bytes]], None]], logs: Sequence[bytes], repeat: int,
               alternate: bool = False) -> dict[str, float]:
    """Best wall time of each run over ``repeat`` rounds.

    The runs are interleaved round by round, so a slow patch of the machine
    hits all of them alike. The garbage collector stays enabled as in real use;
    it is only emptied before each timed pass so one run's garbage is not
    collected on another's clock. With ``alternate``, every other round runs
    them in reverse order: a run is then timed after two different runs, and of
    two runs compared with each other, each is timed once right after the other
    (the one that goes second finds the code they share warm).
    """
    best = {name: float("inf") for name in runs}
    forward = list(runs.items())
    for k in range(repeat):
        for name, run in (forward if k % 2 == 0 or not alternate else forward[::-1]):
            gc.collect()
            start = time.perf_counter()
            run(logs)
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def measure(repeat: int) -> dict:
    """Run the benchmark and return its figures."""
    games = fixture_games()
    source = "fixtures/games"
    if not games:
        games, source = simulated_games(), "simulated"
    logs = [data for _, data in games]
    events = sum(len(loads(data).events) for data in logs)
    runs = {"baseline": baseline, "read": read_only, "validated": validated_replay}
    for run in runs.values():  # warm-up: catalog lookups, imports, caches of the interpreter
        run(logs)
    best = best_times(runs, logs, repeat)
    figures = {
        name: {"seconds": t, "us_per_event": t / events * 1e6, "events_per_s": events / t} for name, t in best.items()
    }
    ratio = best["validated"] / best["baseline"]
    rate = figures["validated"]["events_per_s"]
    return {
        "source": source,
        "games": [name for name, _ in games],
        "events": events,
        "repeat": repeat,
        "python": sys.version.split()[0],
        "rules_core": core_build(),
        "orjson": orjson.__version__,
        "runs": figures,
        "ratio": ratio,
        "targets": {
            "events_per_s": {"target": TARGET_EVENTS_PER_S, "value": rate, "pass": rate >= TARGET_EVENTS_PER_S},
            "ratio": {"target": TARGET_RATIO, "value": ratio, "pass": ratio <= TARGET_RATIO},
        },
    }


def report(result: dict) -> str:
    """The figures as a small table."""
    lines = [
        f"{result['events']} events in {len(result['games'])} games ({result['source']}), "
        f"best of {result['repeat']}; Python {result['python']}, orjson {result['orjson']}, "
        f"rules core {result['rules_core']}",
        "",
        f"{'run':<12}{'µs/event':>10}{'events/s':>12}",
    ]
    for name, f in result["runs"].items():
        lines.append(f"{name:<12}{f['us_per_event']:>10.2f}{f['events_per_s']:>12,.0f}")
    lines.append("")
    t = result["targets"]
    verdict = {True: "PASS", False: "FAIL"}
    lines.append(f"validated replay: {t['events_per_s']['value']:,.0f} events/s "
                 f"(target ≥ {TARGET_EVENTS_PER_S:,}): {verdict[t['events_per_s']['pass']]}")
    lines.append(f"ratio validated/baseline: {t['ratio']['value']:.1f} "
                 f"(target ≤ {TARGET_RATIO:g}): {verdict[t['ratio']['pass']]}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    return harness.run(argv, __doc__, measure, report, 300, "timed passes per run; the best counts")


if __name__ == "__main__":
    sys.exit(main())
