"""Benchmark of the replayer's stepping: is every step of ``coimbra replay`` on screen within one frame?

The real Textual app (``cli.replay_app.ReplayApp``) runs headless on the
4-player fixture game, at 160x60 and at 80x24. Each step is timed from the key
posted to the app until the screen update it causes has been written out (the
app's ``_display``), so it counts what a person waits for: the key handler
(``cli.replay_keys.press``), the panes' drawing, Textual's layout and
compositor. Textual's frame timer is set to 1000 Hz (``TEXTUAL_FPS``) so that
waiting for the next tick of its 60 Hz timer is not counted as work.

Runs, per size:

* burst →, burst ←: → from entry 0 to the end and ← back as fast as keys
  come, with no idle time at all (every pane drawn for the first time on the
  way forward, nothing drawn ahead, the garbage collector never settled): the
  worst case, shown for information;
* step →, step ←, jumps: a fresh app at a person's pace: before each key the
  app has had its idle time, in which it draws the entries the next key most
  likely shows and settles the garbage collector (``ReplayApp.idle``); → to
  the end, ← back to the start, then phase and round jumps and both ends
  (↓ ↑ PgDn PgUp End Home). The target is for these.

Each figure is per step in ms from the best of ``--repeat`` passes (lowest
mean), with its 95th percentile and maximum, and the same step's CPU time
(what the step costs, without the time other processes of a shared machine
took), against the issue's target: p95 under 16 ms, within the 16.7 ms of a
60 Hz frame. PASS is judged on the CPU p95, which a busy machine does not move;
on an idle one (CI) the two agree. A machine that runs slower moves both, so
each run at a person's pace also counts the panes' lines handed to the
compositor per step (``PaneLines``): the work a step makes, the same anywhere.
The script always exits 0 so CI collects the figures without gating on them.

Usage: ``python bench/stepping.py [--repeat N] [--sizes 160x60,80x24] [--json]`` (CI runs
``--sizes 160x60``: the same figures for the size the target misses most).
"""

from __future__ import annotations

import asyncio
import gc
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Sequence

os.environ["TEXTUAL_FPS"] = "1000"  # before Textual is imported: its frame period is read at import

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure this checkout, installed or not
sys.path.insert(0, str(ROOT / "bench"))

import harness  # noqa: E402
from textual import events  # noqa: E402

from cli.replay_app import LinesPane, ReplayApp  # noqa: E402
from cli.replay_views import Replay  # noqa: E402
from coimbra_events import core_build  # noqa: E402
from coimbra_events.store.sources import game_from_file  # noqa: E402

GAME = ROOT / "fixtures" / "games" / "standin-4p-seed3.json"
SIZES = ((160, 60), (80, 24))
BUDGET_MS = 1000 / 60
JUMPS = ("down", "up", "pagedown", "pageup", "end", "home", "down", "down", "down", "pagedown")


class Stepper:
    """A running app whose screen updates are timed: ``step(key)`` is ms from the key to the update on screen.

    Each step gives two times: wall-clock, and the process's CPU time over the
    same span (the loop waiting for the update spins, so the CPU time is the
    wall time less what other processes of a shared machine took).
    """

    def __init__(self, app: ReplayApp) -> None:
        self.app = app
        self.shown: list[tuple[float, float]] = []
        display = app._display

        def timed(screen, update) -> None:  # type: ignore[no-untyped-def]
            display(screen, update)
            self.shown.append((time.perf_counter(), time.process_time()))

        app._display = timed  # type: ignore[method-assign]

    async def step(self, key: str) -> tuple[float, float] | None:
        """(wall, CPU) ms to the screen update a key causes; ``None`` if it changed nothing on screen."""
        before = len(self.shown)
        start, cpu = time.perf_counter(), time.process_time()
        at = self.app.cursor.at
        self.app.post_message(events.Key(key, None))
        deadline = start + 2.0
        while len(self.shown) == before:
            if time.perf_counter() > deadline:
                return None
            await asyncio.sleep(0)
        if self.app.cursor.at == at and key in ("left", "right"):
            return None
        wall, used = self.shown[-1]
        return (wall - start) * 1000, (used - cpu) * 1000

    async def settle(self) -> None:
        """Wait until the app has done what it does while no key comes (drawing ahead, the collector)."""
        while self.app._ahead or self.app._unsettled:
            await asyncio.sleep(0.002)


class PaneLines:
    """How many lines the panes (``LinesPane.render_line``) hand to Textual's compositor: a count of the work a step
    makes, the same on any machine, where the times move with the machine's speed."""

    def __init__(self) -> None:
        self.count = 0
        self._render_line = LinesPane.render_line

    def __enter__(self) -> PaneLines:
        original = self._render_line

        def counted(pane: LinesPane, y: int):  # type: ignore[no-untyped-def]
            self.count += 1
            return original(pane, y)

        LinesPane.render_line = counted  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        LinesPane.render_line = self._render_line  # type: ignore[method-assign]


async def _runs(game, size: tuple[int, int]) -> tuple[dict[str, list[tuple[float, float]]], dict[str, float]]:
    """The (wall, CPU) ms of each step, per run, and the pane lines drawn per step of the runs at a person's pace."""
    runs: dict[str, list[tuple[float, float]]] = {}
    lines: dict[str, float] = {}
    last = Replay(game).nav.last
    app = ReplayApp(Replay(game))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        s = Stepper(app)
        runs["burst →"] = [t for t in [await s.step("right") for _ in range(last)] if t is not None]
        runs["burst ←"] = [t for t in [await s.step("left") for _ in range(last)] if t is not None]
    app = ReplayApp(Replay(game))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        s = Stepper(app)
        for name, keys in (("step →", ["right"] * last), ("step ←", ["left"] * last), ("jumps", list(JUMPS) * 4)):
            times = []
            with PaneLines() as drawn:
                for key in keys:
                    await s.settle()
                    times.append(await s.step(key))
            runs[name] = [t for t in times if t is not None]
            lines[name] = drawn.count / len(keys)
    return runs, lines


def figures(times: Sequence[tuple[float, float]]) -> dict:
    """Mean, median, p95 and max of the wall times, the mean and p95 of the CPU times; PASS when the CPU p95 is under 16 ms."""
    ms = sorted(t for t, _ in times)
    cpu = sorted(c for _, c in times)

    def p95(values: list[float]) -> float:
        return values[min(len(values) - 1, int(0.95 * len(values)))]

    return {"steps": len(ms), "mean_ms": statistics.fmean(ms), "median_ms": statistics.median(ms), "p95_ms": p95(ms),
            "max_ms": ms[-1], "cpu_mean_ms": statistics.fmean(cpu), "cpu_p95_ms": p95(cpu), "pass": p95(cpu) < 16}


TARGETED = ("step →", "step ←", "jumps")
"""The runs the target is for (a person stepping); the bursts are the worst case, for information."""


def measure(repeat: int, sizes: Sequence[tuple[int, int]] = SIZES) -> dict:
    start = time.perf_counter()
    game = game_from_file(GAME)
    opened = time.perf_counter() - start
    start = time.perf_counter()
    Replay(game)
    build = time.perf_counter() - start
    best: dict[str, dict[str, dict]] = {}
    for size in sizes:
        label = f"{size[0]}x{size[1]}"
        best[label] = {}
        for _ in range(repeat):
            gc.unfreeze()  # an app of the pass before froze what it kept: every pass starts alike
            gc.collect()
            runs, lines = asyncio.run(_runs(game, size))
            for name, times in runs.items():
                f = {**figures(times), "pane_lines_per_step": lines.get(name)}
                if name not in best[label] or f["mean_ms"] < best[label][name]["mean_ms"]:
                    best[label][name] = f
    return {
        "game": GAME.name,
        "entries": len(game.events),
        "repeat": repeat,
        "python": sys.version.split()[0],
        "rules_core": core_build(),
        "textual": _version("textual"),
        "open_ms": opened * 1000,
        "build_ms": build * 1000,
        "budget_ms": BUDGET_MS,
        "sizes": best,
    }


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "?"


def report(result: dict) -> str:
    verdict = {True: "PASS", False: "FAIL"}
    lines = [
        f"{result['game']}: {result['entries']} entries, the Textual app (textual {result['textual']}), best of "
        f"{result['repeat']}; Python {result['python']}, rules core {result['rules_core']}",
        f"open the log (read, validate, load): {result['open_ms']:.1f} ms; "
        f"build once (timeline fold, navigation index, entry list): {result['build_ms']:.1f} ms",
        "",
        f"{'size':<8}{'run':<9}{'steps':>6}{'mean ms':>10}{'median':>9}{'p95':>9}{'max':>9}{'cpu mean':>10}{'cpu p95':>9}"
        f"{'lines':>7}   target: CPU p95 < 16 ms",
    ]
    for size, runs in result["sizes"].items():
        for name, f in runs.items():
            lines.append(f"{size:<8}{name:<9}{f['steps']:>6}{f['mean_ms']:>10.2f}{f['median_ms']:>9.2f}"
                         f"{f['p95_ms']:>9.2f}{f['max_ms']:>9.2f}{f['cpu_mean_ms']:>10.2f}{f['cpu_p95_ms']:>9.2f}"
                         f"{'-' if f['pane_lines_per_step'] is None else format(f['pane_lines_per_step'], '.0f'):>7}"
                         f"   {verdict[f['pass']] if name in TARGETED else '-'}")
    lines += ["", "key posted -> screen update written. burst: keys with no pause (panes drawn for the first time, "
                  "no idle time); step and jumps: at a person's pace, the app's idle time used to draw the likely "
                  "next entries (the target is for these); lines: the panes' lines handed to the compositor per step"]
    return "\n".join(lines)


def size(text: str) -> tuple[int, int]:
    """A terminal size written WIDTHxHEIGHT, e.g. 160x60."""
    width, height = text.lower().split("x")
    return int(width), int(height)


def main(argv: Sequence[str] | None = None) -> int:
    parser = harness.options(__doc__, 1, "passes per size; the one with the lowest mean counts")
    parser.add_argument("--sizes", type=lambda text: [size(part) for part in text.split(",")], default=list(SIZES),
                        help="terminal sizes, comma-separated (default 160x60,80x24)")
    args = parser.parse_args(argv)
    return harness.emit(measure(max(1, args.repeat), args.sizes), args.json, report)


if __name__ == "__main__":
    sys.exit(main())
