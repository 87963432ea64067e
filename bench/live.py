"""Benchmark of the live table (``coimbra serve``): an input sent, stored, and told to every open page.

In one run, on SQLite stores in a temporary directory:

* live: ``coimbra serve`` (the command, in a process of its own, on loopback) serves
  the 4-player fixture game from its first decision; 4 players' and 10 watchers'
  event streams are open (``GET /api/games/NAME/events``, httpx). Each of the
  fixture's remaining entries is sent as ``POST /api/games/NAME/inputs`` with the
  head the table showed; the time is from sending it until every one of the 14
  streams has told that entry (input -> stored -> every open page told);
* baseline: the same entries recorded in this process through the table's use
  cases (``Games.record(..., after=HEAD)`` with the read side, as the server runs
  them), each timed alone: what storing costs without the web.

Figures: p50 and p95 of each, their ratios, and the server's memory (VmRSS, and its
peak VmHWM) after the whole game. Targets: live p95 < 50 ms on 2 cores; server RSS
after a whole game < 150 MB. The load average is printed beside the figures (the
machine is shared). Missing a target is reported, not an error: the script always
exits 0. Usage: ``python bench/live.py [--repeat N] [--json]`` (N: games played, each
on a fresh store and server).
"""

from __future__ import annotations

import asyncio
import os
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import harness  # noqa: E402
import httpx  # noqa: E402
import orjson  # noqa: E402

FIXTURE = ROOT / "fixtures" / "games" / "standin-4p-seed3.json"
START = 6
"""Entries of the fixture before its first decision: the game is served from there."""
PLAYERS, WATCHERS = 4, 10
P95_TARGET_MS, RSS_TARGET_MB = 50.0, 150.0


def fixture_from(folder: Path) -> tuple[Path, list[str]]:
    """The fixture cut after ``START`` entries, as a log file, and every entry after in notation."""
    from coimbra_events import log_reader
    from projections.naming import notation_text

    log = orjson.loads(FIXTURE.read_bytes())
    log["events"] = log["events"][:START]
    path = folder / "table.json"
    path.write_bytes(orjson.dumps(log))
    return path, [notation_text(e) for e in log_reader.read(FIXTURE).events[START:]]


def environment(db: Path) -> dict[str, str]:
    return {**os.environ, "NO_COLOR": "1", "COIMBRA_DB": str(db), "PYTHONPATH": str(ROOT)}


def command(*args: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from cli.app import main; sys.argv[0] = 'coimbra'; main()", *args]


def baseline(log: Path, inputs: list[str], db: Path) -> list[float]:
    """Each input recorded through ``Games`` in this process, timed alone (ms)."""
    from cli.common import served
    from coimbra_events import log_reader

    times = []
    with served(db, views=True, create=True) as games:
        game = games.import_log(log_reader.read(log), "table").game
        head = game.head
        for text in inputs:
            started = time.perf_counter()
            head = games.record("table", [text], by="bench", after=head).head
            times.append((time.perf_counter() - started) * 1000)
    return times


def memory(pid: int) -> dict[str, float]:
    """The server's resident memory now and at its peak (MB)."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return {key: int(fields[key].split()[0]) / 1024 for key in ("VmRSS", "VmHWM")}


async def live(ready: dict[str, Any], inputs: list[str]) -> list[float]:
    """Each input sent to the server, timed until all the open streams told it (ms)."""
    url, api = ready["url"], f"/api/games/{ready['game']}"
    limits = httpx.Limits(max_connections=PLAYERS + WATCHERS + 2)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        players = {"Authorization": f"Bearer {ready['players_token']}"}
        watchers = {"Authorization": f"Bearer {ready['watchers_token']}"}
        view = (await client.get(api, headers=players)).json()
        told: list[dict[int, float]] = [{} for _ in range(PLAYERS + WATCHERS)]
        arrived = asyncio.Event()

        async def follow(k: int, headers: dict[str, str]) -> None:
            async with client.stream("GET", f"{api}/events", headers=headers, params={"last": view["events"]}) as stream:
                async for line in stream.aiter_lines():
                    if line.startswith("id:"):
                        told[k][int(line[3:])] = time.perf_counter()
                        arrived.set()

        readers = [asyncio.create_task(follow(k, players if k < PLAYERS else watchers)) for k in range(len(told))]
        head, seq, times = view["head"], view["events"], []
        for text in inputs:
            seq += 1
            started = time.perf_counter()
            answer = await client.post(f"{api}/inputs", headers=players, json={"input": text, "after": head})
            if answer.status_code != 200:
                raise SystemExit(f"input {seq} {text!r} answered {answer.status_code}: {answer.text}")
            head = answer.json()["head"]
            while not all(seq in t for t in told):
                arrived.clear()
                await asyncio.wait_for(arrived.wait(), 30)
            times.append((max(t[seq] for t in told) - started) * 1000)
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    return times


@contextmanager
def serving(log: Path, db: Path, *more: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """``log`` imported into ``db`` as ``table`` and served on loopback by ``coimbra serve`` (a process of its own,
    with the options ``more``): its process id and the line it prints once it answers; stopped as Ctrl-C stops it."""
    subprocess.run(command("import", str(log), "--name", "table"), env=environment(db), check=True, capture_output=True)
    server = subprocess.Popen(command("serve", "table", "--json", "--host", "127.0.0.1", "--port", "0", *more),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(db))
    try:
        if not select.select([server.stdout], [], [], 120)[0]:
            raise SystemExit("coimbra serve did not start")
        yield server.pid, orjson.loads(server.stdout.readline())
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)


def one_game(folder: Path) -> dict[str, Any]:
    log, inputs = fixture_from(folder)
    base = baseline(log, inputs, folder / "baseline.sqlite")
    with serving(log, folder / "live.sqlite") as (pid, ready):
        before = memory(pid)
        times = asyncio.run(live(ready, inputs))
        after = memory(pid)
    return {"inputs": len(inputs), "live": times, "baseline": base, "rss_start_mb": before["VmRSS"],
            "rss_end_mb": after["VmRSS"], "rss_peak_mb": after["VmHWM"]}


def played(repeat: int, game: Callable[[Path], dict[str, Any]]) -> list[dict[str, Any]]:
    """``game`` played ``repeat`` times, each in a temporary folder of its own: the figures of each."""
    games = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as folder:
            games.append(game(Path(folder)))
    return games


def percentile(values: Sequence[float], p: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


def measure(repeat: int) -> dict[str, Any]:
    games = played(repeat, one_game)
    live_times = [t for g in games for t in g["live"]]
    base_times = [t for g in games for t in g["baseline"]]
    figures = {
        "games": repeat, "inputs": sum(g["inputs"] for g in games), "streams": {"players": PLAYERS, "watchers": WATCHERS},
        "live_p50_ms": percentile(live_times, 50), "live_p95_ms": percentile(live_times, 95),
        "baseline_p50_ms": percentile(base_times, 50), "baseline_p95_ms": percentile(base_times, 95),
        "rss_end_mb": max(g["rss_end_mb"] for g in games), "rss_peak_mb": max(g["rss_peak_mb"] for g in games),
        "rss_start_mb": min(g["rss_start_mb"] for g in games), "load_average": os.getloadavg()[0], "cores": os.cpu_count(),
    }
    figures["ratio_p50"] = figures["live_p50_ms"] / figures["baseline_p50_ms"]
    figures["ratio_p95"] = figures["live_p95_ms"] / figures["baseline_p95_ms"]
    figures["p95_pass"] = figures["live_p95_ms"] < P95_TARGET_MS
    figures["rss_pass"] = figures["rss_end_mb"] < RSS_TARGET_MB
    return figures


def report(f: dict[str, Any]) -> str:
    verdict = {True: "PASS", False: "FAIL"}
    return "\n".join([
        f"live table: {f['inputs']} inputs of the 4-player fixture, {PLAYERS} players' and {WATCHERS} watchers' streams open "
        f"(load average {f['load_average']:.1f} on {f['cores']} cores)",
        f"  input -> stored -> every stream told: p50 {f['live_p50_ms']:.1f} ms, p95 {f['live_p95_ms']:.1f} ms "
        f"(target p95 < {P95_TARGET_MS:.0f} ms: {verdict[f['p95_pass']]})",
        f"  baseline, Games.record in process: p50 {f['baseline_p50_ms']:.1f} ms, p95 {f['baseline_p95_ms']:.1f} ms",
        f"  ratio live/baseline: p50 {f['ratio_p50']:.2f}, p95 {f['ratio_p95']:.2f}",
        f"  server memory: {f['rss_start_mb']:.0f} MB at start, {f['rss_end_mb']:.0f} MB after the whole game "
        f"(peak {f['rss_peak_mb']:.0f} MB; target < {RSS_TARGET_MB:.0f} MB: {verdict[f['rss_pass']]})",
    ])


def main(argv: Sequence[str] | None = None) -> int:
    return harness.run(argv, __doc__, measure, report, 1, "games played, each on a fresh store and server")


if __name__ == "__main__":
    sys.exit(main())
