"""Benchmark of recording one decision into a long record with history, against a short one.

In one run, on a SQLite store in a temporary directory:

* long: a 4-player game recorded entry by entry through the application
  (``Games.record``, ``undo``, ``correct`` and ``note`` on a ``Session``, as the
  recorder does) up to its 400th entry, with 20 corrections and undos in it (each
  undo followed by the play entered again, each correction of the latest play taken
  back by another), and notes filling the rest;
* short: another game with 9 entries.

Then ``coimbra act GAME DECISION`` runs in this process (``typer.testing.CliRunner``:
the command's own code, the store opened and closed, the output printed, without
the interpreter's start-up) N times on each, interleaved; each time the next
decision of the game's line, so the long record grows from entry 400 on and the
short one from entry 10 on. The figure is the median time of each (wall; the CPU time of the
process is reported beside it). Target: long /
short ≤ 1.2 (reading a game costs about the same however long it is: its latest
snapshot and the entries after it). For context it also reports what reading each
game costs (``Games.open``, which reads through ``GameStore.get``), from its snapshot
and, for the long one, folded from all its events.

Missing a target is reported, not an error: the script always exits 0 so CI can
collect the figures. Usage: ``python bench/act.py [--repeat N] [--json]``
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import harness  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from cli.app import app  # noqa: E402
from coimbra_events import core_build  # noqa: E402
from coimbra_events.store.repository import SNAPSHOT_EVERY  # noqa: E402
from coimbra_events.catalog import standin_catalog  # noqa: E402
from coimbra_events.game import Game  # noqa: E402
from coimbra_events.service import Games, Session, Stored  # noqa: E402
from coimbra_events.store.folding import project  # noqa: E402
from coimbra_events.notation import render  # noqa: E402
from coimbra_events.rules.core import legal  # noqa: E402
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate  # noqa: E402

TARGET = 1.2
LONG, SHORT, CHANGES = 400, 10, 20


def recorded_long(games: Games, line: Sequence[Any]) -> Game:
    """The long record: the line's plays, with an undo or a correction every few plays, notes on the others,
    up to entry 399, each written through the application on one session (as the recorder keeps its game).

    Each correction replaces the latest play with another legal one and then puts it back; each undo is followed
    by the play entered again, so the line of play stays the simulated game's."""
    session = Session("long", games.import_log(simulate(standin_catalog(), DEFAULT_PLAYERS[:4], 9)[0].prefix(0),
                                               "long").game)

    def stored(outcome: Any) -> Game:
        assert isinstance(outcome, Stored), f"bench/act.py: the long record was not stored: {outcome}"
        return outcome.game

    game, changes = session.game, 0
    while len(game.events) < LONG - 1:
        plays = len(game.line.plays)
        game = stored(games.record(session, [line[plays]]))
        seq = len(game.events)
        if changes < CHANGES and plays % 3 == 2:
            options = legal(game.state_before(seq))
            others = [o for o in options if o != line[plays]] if isinstance(options, list) else []
            if changes % 2 or not others:
                stored(games.undo(session))
                game = stored(games.record(session, [line[plays]]))
            else:
                stored(games.correct(session, seq, others[0]))
                game = stored(games.correct(session, seq, line[plays]))
            changes += 1
        elif changes < CHANGES:
            game = stored(games.note(session, seq, "noted"))
        else:  # two notes on each play: the record reaches entry 400 with plays of the game left to act
            stored(games.note(session, seq, "noted"))
            game = stored(games.note(session, seq, "bookmarked", bookmark=True))
    assert changes == CHANGES, "the game ended before its corrections and undos: choose a longer line"
    return game


def timed(run: Any) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def measure(repeat: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="coimbra-bench-") as tmp:
        db = str(Path(tmp) / "act.sqlite")
        long_line = simulate(standin_catalog(), DEFAULT_PLAYERS[:4], 9)[0].events
        short_line = simulate(standin_catalog(), DEFAULT_PLAYERS[:2], 9)[0].events
        with Games.at(db, create=True) as games:
            long_game = recorded_long(games, long_line)
            short_game = games.import_log(simulate(standin_catalog(), DEFAULT_PLAYERS[:2], 9)[0].prefix(SHORT - 1),
                                          "short").game
        history = sum(1 for e in long_game.events if e.TYPE in ("Corrected", "Retracted"))
        runner = CliRunner()
        lines = {"long": long_line, "short": short_line}
        plays = {"long": len(long_game.line.plays), "short": len(short_game.line.plays)}
        times: dict[str, list[float]] = {"long": [], "short": []}
        cpu: dict[str, list[float]] = {"long": [], "short": []}
        env = {**os.environ, "NO_COLOR": "1", "COIMBRA_DB": db, "COIMBRA_BY": "bench"}
        for k in range(repeat + 2):
            for name in ("long", "short"):
                decision = render(lines[name][plays[name]])
                start, start_cpu = time.perf_counter(), time.process_time()
                result = runner.invoke(app, ["act", name, decision], env=env)
                elapsed, elapsed_cpu = time.perf_counter() - start, time.process_time() - start_cpu
                if result.exit_code != 0:
                    raise SystemExit(f"bench/act.py: act {name} {decision!r} failed: {result.output}")
                plays[name] += 1
                if k >= 2:  # the first two warm up imports and caches
                    times[name].append(elapsed)
                    cpu[name].append(elapsed_cpu)
        with Games.at(db) as games:
            entries = {name: len(games.open(name).events) for name in ("long", "short")}
            store = games.store
            reads = {  # for context: what reading the game costs, from its snapshot, and folded from all its events
                "read long (GameStore.get)": lambda: games.open("long").state,
                "read short (GameStore.get)": lambda: games.open("short").state,
                "read long without its snapshot": lambda: project(None, store.events.get(store._game_id("long"))).state,
            }
            read_ms = {name: 1000 * min(timed(run) for _ in range(repeat)) for name, run in reads.items()}
    median = {name: statistics.median(t) for name, t in times.items()}
    ratio = median["long"] / median["short"]
    median_cpu = {name: statistics.median(t) for name, t in cpu.items()}
    return {
        "repeat": repeat,
        "python": sys.version.split()[0],
        "rules_core": core_build(),
        "snapshot_every": SNAPSHOT_EVERY,
        "history_entries_in_long": history,
        "entries_after": entries,
        "runs": {name: {"median_ms": median[name] * 1000, "mean_ms": statistics.fmean(t) * 1000,
                        "median_cpu_ms": median_cpu[name] * 1000} for name, t in times.items()},
        "cpu_ratio": median_cpu["long"] / median_cpu["short"],
        "reads_ms": read_ms,
        "targets": {"ratio": {"what": f"act at entry {LONG} / at entry {SHORT}", "target": TARGET, "value": ratio,
                              "pass": ratio <= TARGET}},
    }


def report(result: dict[str, Any]) -> str:
    lines = [f"coimbra act in process, {result['repeat']} times each; Python {result['python']}, rules core "
             f"{result['rules_core']}; the long record has {result['history_entries_in_long']} corrections and undos "
             f"(entries, 2 each), snapshots every {result['snapshot_every']} events", "",
             f"{'run':<10}{'median ms':>12}{'mean ms':>10}{'median CPU ms':>15}"]
    lines += [f"{name:<10}{r['median_ms']:>12.2f}{r['mean_ms']:>10.2f}{r['median_cpu_ms']:>15.2f}"
              for name, r in result["runs"].items()]
    lines += ["", "for context, best times of reading a game (no open or close of the store):"]
    lines += [f"  {name:<34}{ms:>8.2f} ms" for name, ms in result["reads_ms"].items()]
    t = result["targets"]["ratio"]
    lines += ["", f"{t['what']}: {t['value']:.2f} (target ≤ {t['target']:g}): {'PASS' if t['pass'] else 'FAIL'}",
              f"the same in the process's CPU time (for context: a busy disk or machine moves wall time most): "
              f"{result['cpu_ratio']:.2f}"]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    return harness.run(argv, __doc__, measure, report, 40, "acts timed on each game")


if __name__ == "__main__":
    sys.exit(main())
