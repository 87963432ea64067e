"""Benchmark of a club-sized store: importing 10,000 games, and listing them.

In one run, in a temporary directory:

(a) 10,000 games imported into a fresh SQLite store, one after another, as
    ``coimbra import FILE...`` does for each file (``Games.import_log`` of the
    read log, named after its players: the store numbers them). The games are the
    golden corpus's logs, taken in turn; from the second round on, each under a
    header of its own (``meta`` says which round), so that every import is a first
    import of a record the store does not hold: a record stored once is not stored
    again, and timing copies in the last tenth against first imports in
    the first timed two paths, not the store's growth. Each import (reading the file's
    bytes and ``import_log``) is timed; the figure is the median time per game of the
    first 10 % and of the last 10 %. Target: last / first ≤ 1.2 (nothing an import
    does grows with the store).
(b) ``coimbra games --json`` on that store and on a store of 10 games: the
    installed command's wall time (a fresh process, as a user runs it) and, for
    context, the command's own code in this process (``typer.testing.CliRunner``).
    Target: 10,000 / 10 ≤ 1.5 (the index is a table: a page of it costs the same).
(c) ``coimbra games`` (the table) against ``coimbra games --json`` on a store of
    1,000 games, the same two ways. Target: table / JSON ≤ 2.

Each command figure is the best of N runs. The first listing of a store catches the
index up with everything imported (once); that is done before anything is timed,
and timed on its own for (a). Missing a target is reported, not an error: the
script always exits 0 so CI can collect the figures.

Usage: ``python bench/scale.py [--games N] [--repeat N] [--json]``
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from typer.testing import CliRunner  # noqa: E402

from cli.app import app  # noqa: E402
from coimbra_events import core_build  # noqa: E402
from coimbra_events import log_reader  # noqa: E402
from coimbra_events.log import GameLog, dumps  # noqa: E402
from coimbra_events.service import Games  # noqa: E402
from coimbra_events.store.opening import open_store  # noqa: E402
from tests.golden import corpus_games  # noqa: E402

TARGETS = {"import": 1.2, "games_json": 1.5, "table_json": 2.0}


def coimbra() -> str:
    beside = Path(sys.executable).parent / "coimbra"
    return str(beside) if beside.exists() else shutil.which("coimbra") or "coimbra"


def round_of(data: bytes, round_number: int) -> bytes:
    """The log's bytes under a header of its own for a later round (the same entries, chained anew)."""
    if not round_number:
        return data
    log = log_reader.loads(data)
    return dumps(GameLog(log.catalog_id, log.catalog_sha256, log.players, log.events, log.ruleset,
                         {**log.meta, "bench round": round_number}, log.stamps, log.upcast_from))


def import_games(db: Path, count: int, logs: list[bytes]) -> list[float]:
    """Import ``count`` games (the logs in turn, each round under headers of its own) and return each import's time."""
    times = []
    with Games(open_store(db, create=True)) as games:  # opened as the command opens it, before any import is timed
        for k in range(count):
            data = round_of(logs[k % len(logs)], k // len(logs))
            start = time.perf_counter()
            games.import_log(log_reader.loads(data, f"game-{k}.json"), None, f"game-{k}.json")
            times.append(time.perf_counter() - start)
    return times


def index_catch_up(db: Path) -> float:
    with Games(open_store(db)) as games:
        start = time.perf_counter()
        games.index_caught_up()
        return time.perf_counter() - start


def wall(args: list[str], db: Path, repeat: int) -> float:
    best = float("inf")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120", "COIMBRA_DB": str(db)}
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([coimbra(), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        best = min(best, time.perf_counter() - start)
        if done.returncode:
            raise SystemExit(f"bench/scale.py: coimbra {' '.join(args)} exited {done.returncode}")
    return best


def in_process(args: list[str], db: Path, repeat: int) -> float:
    runner, best = CliRunner(), float("inf")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120", "COIMBRA_DB": str(db)}
    for _ in range(repeat):
        start = time.perf_counter()
        result = runner.invoke(app, args, env=env)
        best = min(best, time.perf_counter() - start)
        if result.exit_code:
            raise SystemExit(f"bench/scale.py: coimbra {' '.join(args)} failed: {result.output}")
    return best


def measure(games: int, repeat: int) -> dict[str, Any]:
    logs = [data for _, data in corpus_games()]
    with tempfile.TemporaryDirectory(prefix="coimbra-bench-") as tmp:
        big, thousand, small = Path(tmp, "big.sqlite"), Path(tmp, "thousand.sqlite"), Path(tmp, "small.sqlite")
        started = time.perf_counter()
        times = import_games(big, games, logs)
        imported_s = time.perf_counter() - started
        catch_up_s = index_catch_up(big)
        import_games(thousand, min(1000, games), logs)
        import_games(small, 10, logs)
        for db in (thousand, small):
            index_catch_up(db)
        tenth = max(1, len(times) // 10)
        first, last = statistics.median(times[:tenth]), statistics.median(times[-tenth:])
        commands = {
            "big json": (f"games --json, {games} games", ["games", "--json"], big),
            "small json": ("games --json, 10 games", ["games", "--json"], small),
            "json": (f"games --json, {min(1000, games)} games", ["games", "--json"], thousand),
            "table": (f"games (the table), {min(1000, games)} games", ["games"], thousand),
        }
        walls = {key: wall(args, db, repeat) for key, (_, args, db) in commands.items()}
        inside = {key: in_process(args, db, repeat) for key, (_, args, db) in commands.items()}

    def target(key: str, value: float) -> dict[str, Any]:
        return {"target": TARGETS[key], "value": value, "pass": value <= TARGETS[key]}

    return {
        "games": games,
        "repeat": repeat,
        "python": sys.version.split()[0],
        "rules_core": core_build(),
        "import": {"seconds": imported_s, "first_tenth_ms": first * 1000, "last_tenth_ms": last * 1000,
                   "index_catch_up_s": catch_up_s},
        "commands": {commands[k][0]: {"wall_ms": walls[k] * 1000, "in_process_ms": inside[k] * 1000} for k in commands},
        "targets": {
            "import last / first tenth": target("import", last / first),
            f"games --json {games} / 10 (wall)": target("games_json", walls["big json"] / walls["small json"]),
            f"games --json {games} / 10 (in process)": target("games_json", inside["big json"] / inside["small json"]),
            "games table / --json (wall)": target("table_json", walls["table"] / walls["json"]),
            "games table / --json (in process)": target("table_json", inside["table"] / inside["json"]),
        },
    }


def report(result: dict[str, Any]) -> str:
    imp = result["import"]
    lines = [
        f"{result['games']} games imported in {imp['seconds']:.0f} s; Python {result['python']}, rules core {result['rules_core']}",
        f"per game: first tenth {imp['first_tenth_ms']:.2f} ms, last tenth {imp['last_tenth_ms']:.2f} ms (medians); "
        f"the index then caught up with all of them in {imp['index_catch_up_s']:.1f} s",
        "", f"{'command (best of ' + str(result['repeat']) + ')':<40}{'wall ms':>10}{'in process ms':>16}",
    ]
    lines += [f"{n:<40}{c['wall_ms']:>10.1f}{c['in_process_ms']:>16.2f}" for n, c in result["commands"].items()]
    lines.append("")
    for name, t in result["targets"].items():
        lines.append(f"{name}: {t['value']:.2f} (target ≤ {t['target']:g}): {'PASS' if t['pass'] else 'FAIL'}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games imported into the big store (default 10000)")
    parser.add_argument("--repeat", type=int, default=10, help="runs of each command; the best counts (default 10)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    result = measure(max(10, args.games), max(1, args.repeat))
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
