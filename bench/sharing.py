"""Benchmark of the replay page (``coimbra export --format html``): its size, and a step in Chromium.

On the 4-player fixture game, in one run:

* page: the file as ``export --format html`` writes it (``cli.replay_page`` over
  one fold of the timeline), its size against the 400 KB target, and against the
  game's canonical JSON log (the baseline: the record itself, with no state);
* load: opening the file from disk in Debian's Chromium (the script parses the
  data, rebuilds every state from its changes, draws the first table);
* forward / back: from entry 0 press → up to the last entry, then ← back to 0;
  jumps: ``#entry=N`` for every N in a shuffled order. Each step is timed in the
  page, from the key (or the hash change) to the table laid out again: the
  script's handler, then the style and layout it caused, forced. Paint is the
  browser's and is not in the figure;
* floor, the baseline: one text node of the page changed and laid out again, the
  least a step can cost in this browser on this machine.

Each figure is per step, in ms, from the best of ``--repeat`` passes (lowest
mean), with its 95th percentile and maximum: PASS when the slowest step of a run
stays under 30 ms. Without Chromium (``/usr/bin/chromium``, or
``$COIMBRA_CHROMIUM``) or Playwright it says so. Always exits 0.

Usage: ``python bench/sharing.py [--repeat N] [--json]``
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure this checkout, installed or not
sys.path.insert(0, str(ROOT / "bench"))

import harness  # noqa: E402

from cli.replay_page import replay_page  # noqa: E402
from coimbra_events import core_build  # noqa: E402
from coimbra_events.store.sources import game_from_file  # noqa: E402
from projections.timeline import timeline  # noqa: E402

GAME = ROOT / "fixtures" / "games" / "standin-4p-seed3.json"
CHROMIUM = Path(os.environ.get("COIMBRA_CHROMIUM", "/usr/bin/chromium"))
SIZE_TARGET_KB = 400
STEP_TARGET_MS = 30.0

TIMED_KEYS = """(key) => {
  const times = [];
  let before = -1;
  while (window.coimbraReplay.at !== before) {
    before = window.coimbraReplay.at;
    const start = performance.now();
    document.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
    document.body.getBoundingClientRect();
    times.push(performance.now() - start);
  }
  times.pop();  // the press at the end, which moved nothing
  return times;
}"""

TIMED_JUMPS = """(order) => order.map((n) => {
  const start = performance.now();
  location.hash = "#entry=" + n;
  window.dispatchEvent(new HashChangeEvent("hashchange"));
  document.body.getBoundingClientRect();
  return performance.now() - start;
})"""

FLOOR = """() => {
  const node = document.querySelector("#current .where");
  const times = [];
  for (let k = 0; k < 200; k++) {
    const start = performance.now();
    node.textContent = "entry " + k;
    document.body.getBoundingClientRect();
    times.push(performance.now() - start);
  }
  return times;
}"""


def figures(times_ms: Sequence[float]) -> dict[str, Any]:
    ms = sorted(times_ms)
    return {"steps": len(ms), "mean_ms": statistics.fmean(ms), "median_ms": statistics.median(ms),
            "p95_ms": ms[min(len(ms) - 1, int(0.95 * len(ms)))], "max_ms": ms[-1]}


def measure(repeat: int) -> dict[str, Any]:
    game = game_from_file(GAME)
    start = time.perf_counter()
    page = replay_page(game, timeline(game)).encode()
    write_ms = (time.perf_counter() - start) * 1000
    result: dict[str, Any] = {
        "game": GAME.name, "entries": len(game.events), "repeat": repeat, "rules_core": core_build(),
        "page_kb": len(page) / 1024, "log_kb": GAME.stat().st_size / 1024, "write_ms": write_ms,
        "size_target_kb": SIZE_TARGET_KB, "step_target_ms": STEP_TARGET_MS,
    }
    result["size_pass"] = result["page_kb"] <= SIZE_TARGET_KB
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {**result, "browser": "not run: Playwright for Python is not installed (pip install -e '.[test]')"}
    if not CHROMIUM.exists():
        return {**result, "browser": f"not run: no Chromium at {CHROMIUM} (apt-get install chromium)"}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        path = Path(tmp) / "game.html"
        path.write_bytes(page)
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-background-networking"])
        result["browser"] = f"Chromium {browser.version}"
        best: dict[str, dict[str, Any]] = {}
        for _ in range(repeat):
            tab = browser.new_page(viewport={"width": 1280, "height": 900})
            start = time.perf_counter()
            tab.goto(path.as_uri())
            tab.wait_for_function("window.coimbraReplay && window.coimbraReplay.at === 0")
            runs = {"load": [(time.perf_counter() - start) * 1000]}
            runs["forward"] = tab.evaluate(TIMED_KEYS, "ArrowRight")
            runs["back"] = tab.evaluate(TIMED_KEYS, "ArrowLeft")
            order = list(range(len(game.events) + 1))
            random.Random(1).shuffle(order)
            runs["jumps"] = tab.evaluate(TIMED_JUMPS, order)
            runs["floor"] = tab.evaluate(FLOOR)
            for name, times in runs.items():
                f = figures(times)
                if name not in best or f["mean_ms"] < best[name]["mean_ms"]:
                    best[name] = f
            tab.close()
        browser.close()
    for name in ("forward", "back", "jumps"):
        best[name]["pass"] = best[name]["max_ms"] < STEP_TARGET_MS
        best[name]["ratio_to_floor"] = best[name]["mean_ms"] / max(best["floor"]["mean_ms"], 1e-6)
    return {**result, "runs": best}


def report(result: dict[str, Any]) -> str:
    verdict = {True: "PASS", False: "FAIL"}
    lines = [
        f"{result['game']}: {result['entries']} entries, best of {result['repeat']}; rules core {result['rules_core']}; "
        f"{result['browser']}",
        f"page: {result['page_kb']:.1f} KB (the JSON log: {result['log_kb']:.1f} KB, ratio {result['page_kb'] / result['log_kb']:.1f}), "
        f"written in {result['write_ms']:.0f} ms; target ≤ {result['size_target_kb']} KB: {verdict[result['size_pass']]}",
    ]
    if "runs" not in result:
        return "\n".join(lines)
    lines += ["", f"{'run':<9}{'steps':>6}{'mean ms':>10}{'median':>9}{'p95':>9}{'max':>9}{'÷ floor':>9}   target: every step < "
                  f"{result['step_target_ms']:.0f} ms"]
    for name, f in result["runs"].items():
        ratio = f"{f['ratio_to_floor']:>9.1f}" if "ratio_to_floor" in f else f"{'':>9}"
        tail = f"   {verdict[f['pass']]}" if "pass" in f else ""
        lines.append(f"{name:<9}{f['steps']:>6}{f['mean_ms']:>10.2f}{f['median_ms']:>9.2f}{f['p95_ms']:>9.2f}{f['max_ms']:>9.2f}"
                     f"{ratio}{tail}")
    lines += ["", "load: open the file until the first table is drawn; forward/back: → and ← through every entry; "
                  "jumps: #entry=N in a shuffled order; floor: one text change laid out again (the baseline)"]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    return harness.run(argv, __doc__, measure, report, 3, "passes per run; the one with the lowest mean counts")


if __name__ == "__main__":
    sys.exit(main())
