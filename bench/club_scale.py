"""Benchmark of a club night at scale: many tables, each with its players' and watchers' streams, on PostgreSQL with
several server processes (``coimbra serve --workers 2`` without GAME).

In one run, on a fresh PostgreSQL schema of the server the tests use (``COIMBRA_TEST_POSTGRES``), loopback only:

* setup: ``--tables`` copies of the 4-player fixture cut after its setup, and one more (``baseline``), stored; then
  ``coimbra serve --workers 2`` (the command, in a process of its own) serves every table;
* baseline: the ``baseline`` table alone, 4 players' and 4 watchers' event streams open on it, an input entered every
  2 s for ``--baseline-seconds``;
* club: every other table with 4 players' and 4 watchers' streams open (25 tables: 200 streams), each table entering
  an input every 2 s (the tables spread over those 2 s) for ``--seconds``.

The time of an input is from sending ``POST /api/games/NAME/inputs`` (with the head the table showed) until every one
of that table's 8 streams has told its entry: input -> stored -> every stream of the table told, whichever of the
two processes holds each connection. The streams are read by an HTTP client (httpx, in this process, one event loop
for all of them): what a page's own drawing adds is ``bench/board_taps.py``'s. Then the store is read: an input
answered as stored but missing from its game, or never told on one of its table's streams, is lost; an entry more than
the inputs answered is stored twice. Figures: p50 and p95 of both, their ratios, inputs lost and stored twice (both
must be 0), each server process's memory (VmRSS) and CPU time over the club phase (beyond what they take idle with
every table served: per entry, and per entry and stream), the load average, and (in this process, after) what one
process's look at the store costs after an entry stored anywhere, with every table served. Target: club p95 < 150 ms on 2
cores. Missing a target is reported, not an error: the script always exits 0 (and says so when no PostgreSQL is
configured). Usage: ``python bench/club_scale.py [--tables N]
[--seconds S] [--baseline-seconds S] [--json]``; CI runs ``--tables 10 --seconds 24 --baseline-seconds 6``.
"""

from __future__ import annotations

import argparse
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import harness  # noqa: E402
import httpx  # noqa: E402
import orjson  # noqa: E402
from live import START, command, fixture_from, percentile  # noqa: E402

PLAYERS, WATCHERS, WORKERS = 4, 4, 2
EVERY = 2.0
"""Seconds between two inputs of one table."""
STRAGGLERS = 10.0
"""Seconds an entry may still take to be told on every stream after the last input, before it counts as lost."""
P95_TARGET_MS = 150.0
BASELINE = "baseline"
LOOKS = 20
"""Looks timed in process (``look_cost``)."""
IDLE = 5.0
"""Seconds the server processes' CPU time is read idle (every table served, nothing entered, no stream open)."""


@dataclass
class Table:
    """One served table as the bench drives it: its tokens, the inputs it enters, and when each entry was sent and told."""

    name: str
    players: str
    watchers: str
    inputs: list[str]
    sent: dict[int, float] = field(default_factory=dict)
    told: list[dict[int, float]] = field(default_factory=lambda: [{} for _ in range(PLAYERS + WATCHERS)])
    refused: list[str] = field(default_factory=list)
    open: set[int] = field(default_factory=set)
    """The streams answered so far."""

    def times(self) -> list[float]:
        """Each input's time (ms) until all its streams told it (inputs some stream never told are left out)."""
        return [(max(t[seq] for t in self.told) - at) * 1000 for seq, at in self.sent.items() if all(seq in t for t in self.told)]

    def untold(self) -> int:
        return sum(not all(seq in t for t in self.told) for seq in self.sent)


async def drive(url: str, tables: list[Table], seconds: float) -> None:
    """Open every table's streams, then enter an input every ``EVERY`` seconds at each (spread over those seconds)
    for ``seconds``; wait for the stragglers and close the streams."""
    limits = httpx.Limits(max_connections=len(tables) * (PLAYERS + WATCHERS + 1) + 8, max_keepalive_connections=None)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        readers = [asyncio.create_task(follow(client, table, k)) for table in tables for k in range(PLAYERS + WATCHERS)]
        while not all(len(t.open) == PLAYERS + WATCHERS for t in tables):
            await asyncio.sleep(0.1)
            for failed in [r for r in readers if r.done()]:
                failed.result()
        start = time.perf_counter() + 0.5
        writers = [asyncio.create_task(enter(client, table, start + k * EVERY / len(tables), start + seconds))
                   for k, table in enumerate(tables)]
        await asyncio.gather(*writers)
        deadline = time.perf_counter() + STRAGGLERS
        while any(t.untold() for t in tables) and time.perf_counter() < deadline:
            await asyncio.sleep(0.1)
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)


async def follow(client: httpx.AsyncClient, table: Table, k: int) -> None:
    """Stream ``k`` of ``table`` (the first ``PLAYERS`` by the players' token): when it tells each entry."""
    token = table.players if k < PLAYERS else table.watchers
    headers = {"Authorization": f"Bearer {token}"}
    async with client.stream("GET", f"/api/games/{table.name}/events", headers=headers, params={"last": START}) as stream:
        if stream.status_code != 200:
            raise RuntimeError(f"{table.name}'s stream {k} answered {stream.status_code}: {await stream.aread()!r}")
        table.open.add(k)
        told = table.told[k]
        async for line in stream.aiter_lines():
            if line.startswith("id:"):
                told[int(line[3:])] = time.perf_counter()


async def enter(client: httpx.AsyncClient, table: Table, first: float, until: float) -> None:
    """The table's inputs, one every ``EVERY`` seconds from ``first`` until ``until`` (or its inputs run out)."""
    api, headers = f"/api/games/{table.name}", {"Authorization": f"Bearer {table.players}"}
    head = (await client.get(api, headers=headers)).json()["head"]
    seq, due = START, first
    for text in table.inputs:
        if due >= until:
            return
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        seq += 1
        table.sent[seq] = time.perf_counter()
        answer = await client.post(f"{api}/inputs", headers=headers, json={"input": text, "after": head})
        if answer.status_code != 200:
            del table.sent[seq]
            table.refused.append(f"{seq} {text!r}: {answer.status_code} {answer.text[:200]}")
            return
        head = answer.json()["head"]
        due += EVERY


def server_processes(pid: int) -> list[int]:
    """The serve command's process and the server processes it started (multiprocessing's helper left out)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and b"resource_tracker" not in cmdline:
            found.append(int(stat.parent.name))
    return sorted(found)


def rss_mb(pid: int) -> float:
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def club_store(settings: dict[str, str], count: int, folder: Path) -> Iterator[tuple[Any, dict[str, str], list[str]]]:
    """A fresh PostgreSQL schema of the server ``settings`` name, holding ``count`` tables (``table-01``…) and
    ``baseline``, each the fixture after its setup: the application on it, the environment a server process reaches
    it with, and the fixture's inputs after its setup. Dropped afterwards."""
    from coimbra_events import log_reader
    from coimbra_events.service import Games
    from tests.store.league.stores import postgres_store

    log, inputs = fixture_from(folder)
    with postgres_store(settings) as store:
        games = Games(store)
        for name in [BASELINE, *(f"table-{k:02d}" for k in range(1, count + 1))]:
            games.import_log(log_reader.read(log), name, copy=True)
        env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(folder / "data"),
               "PERSISTENCE_MODULE": "eventsourcing.postgres", **settings,
               "POSTGRES_SCHEMA": store.recorder.datastore.schema}
        env.pop("COIMBRA_DB", None)
        yield games, env, inputs


@contextmanager
def serving(env: dict[str, str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """``coimbra serve --workers 2`` of every table on loopback: its process id and its JSON line; stopped as Ctrl-C
    stops it."""
    server = subprocess.Popen(command("serve", "--json", "--host", "127.0.0.1", "--port", "0", "--workers", str(WORKERS),
                                      "--per-address", "2048"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        if not select.select([server.stdout], [], [], 180)[0]:
            raise SystemExit(f"coimbra serve did not start: {server.stderr.read1().decode()}")  # type: ignore[union-attr]
        yield server.pid, orjson.loads(server.stdout.readline())
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)


def phase(url: str, tables: list[Table], seconds: float, pids: list[int]) -> dict[str, Any]:
    """One phase driven: its input times, what was lost, and each server process's CPU time meanwhile."""
    cpu = {pid: cpu_s(pid) for pid in pids}
    asyncio.run(drive(url, tables, seconds))
    times = [t for table in tables for t in table.times()]
    return {"times": times, "inputs": sum(len(t.sent) for t in tables), "untold": sum(t.untold() for t in tables),
            "refused": [r for t in tables for r in t.refused], "cpu_s": {pid: cpu_s(pid) - cpu[pid] for pid in pids},
            "seconds": seconds}


def stored_against_sent(games: Any, tables: list[Table]) -> tuple[int, int]:
    """Inputs answered as stored but not in the store, and entries stored beyond the inputs answered."""
    lost = twice = 0
    for table in tables:
        entries = games.open(table.name).entries - START
        lost += max(0, len(table.sent) - entries)
        twice += max(0, entries - len(table.sent))
    return lost, twice


def measure(count: int, seconds: float, baseline_seconds: float) -> dict[str, Any]:
    from league import postgres_settings

    settings = postgres_settings()
    if settings is None:
        return {"skipped": "no PostgreSQL configured (COIMBRA_TEST_POSTGRES)"}
    with tempfile.TemporaryDirectory() as folder, club_store(settings, count, Path(folder)) as (games, env, inputs):
        with serving(env) as (pid, line):
            workers = [p for p in server_processes(pid) if p != pid]
            tables = {t["game"]: Table(t["game"], t["players_token"], t["watchers_token"], inputs) for t in line["tables"]}
            idle = {p: cpu_s(p) for p in workers}
            time.sleep(IDLE)
            idle_share = sum(cpu_s(p) - idle[p] for p in workers) / IDLE
            base = phase(line["url"], [tables.pop(BASELINE)], baseline_seconds, workers)
            rss_start = {p: rss_mb(p) for p in workers}
            club = phase(line["url"], list(tables.values()), seconds, workers)
            rss_end = {p: rss_mb(p) for p in workers}
            supervisor = rss_mb(pid)
        lost, twice = stored_against_sent(games, list(tables.values()))
        looks = look_cost(games)
    return {**figures(count, seconds, base, club, lost, twice, rss_start, rss_end, supervisor, idle_share), **looks}


def look_cost(games: Any, repeat: int = LOOKS) -> dict[str, float]:
    """What one server process does for an entry stored anywhere, timed in this process: a note stored on one table,
    then the look that follows (``ServedTables.look``: the notification log's position and what moved since, the
    games in progress listed, and the noted table read again); median wall time of a look, and its CPU time (this
    process's), with every table served."""
    from cli.live.access import Keys
    from cli.live.tables import ServedTables

    tables = ServedTables(games, "bench", Keys(games.organiser_key()))
    tables.serve_every()

    async def looks() -> list[tuple[float, float]]:
        await tables.look()
        times = []
        for k in range(repeat):
            games.note(BASELINE, 1, f"look {k}", by="bench")
            started, cpu = time.perf_counter(), time.process_time()
            await tables.look()
            times.append(((time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000))
        return times

    timed = asyncio.run(looks())
    wall, cpu = statistics.median(t[0] for t in timed), statistics.median(t[1] for t in timed)
    served = len(tables.served)
    return {"look_ms": wall, "look_cpu_ms": cpu, "look_tables": served}


def figures(count: int, seconds: float, base: dict[str, Any], club: dict[str, Any], lost: int, twice: int,
            rss_start: dict[int, float], rss_end: dict[int, float], supervisor: float, idle_share: float) -> dict[str, Any]:
    """The figures of both phases; CPU per entry is the server processes' CPU time beyond what they take idle (every
    table served, no stream open, nothing entered: following the store), over the entries."""
    streams = PLAYERS + WATCHERS
    cpu = sum(club["cpu_s"].values())
    entered = max(0.0, cpu - idle_share * seconds)
    base_entered = max(0.0, sum(base["cpu_s"].values()) - idle_share * base["seconds"])
    result = {
        "tables": count, "streams": count * streams, "seconds": seconds, "workers": WORKERS,
        "club_inputs": club["inputs"], "baseline_inputs": base["inputs"],
        "club_p50_ms": percentile(club["times"], 50), "club_p95_ms": percentile(club["times"], 95),
        "club_max_ms": max(club["times"]),
        "baseline_p50_ms": percentile(base["times"], 50), "baseline_p95_ms": percentile(base["times"], 95),
        "lost": lost + club["untold"], "stored_twice": twice, "refused": club["refused"] + base["refused"],
        "rss_start_mb": list(rss_start.values()), "rss_end_mb": list(rss_end.values()), "supervisor_rss_mb": supervisor,
        "server_cpu_s": cpu, "server_cpu_per_entry_ms": entered / max(1, club["inputs"]) * 1000,
        "server_cpu_per_entry_stream_ms": entered / max(1, club["inputs"] * streams) * 1000,
        "server_cpu_share": cpu / seconds, "idle_cpu_share": idle_share,
        "baseline_cpu_per_entry_ms": base_entered / max(1, base["inputs"]) * 1000,
        "load_average": os.getloadavg()[0], "cores": os.cpu_count(), "nice": os.nice(0),
    }
    result["ratio_p50"] = result["club_p50_ms"] / result["baseline_p50_ms"]
    result["ratio_p95"] = result["club_p95_ms"] / result["baseline_p95_ms"]
    result["p95_pass"] = result["club_p95_ms"] < P95_TARGET_MS
    result["none_lost"] = result["lost"] == 0 and twice == 0 and not result["refused"]
    return result


def report(f: dict[str, Any]) -> str:
    if "skipped" in f:
        return f"club at scale: skipped: {f['skipped']}"
    verdict = {True: "PASS", False: "FAIL"}
    return "\n".join([
        f"club at scale: {f['tables']} tables x ({PLAYERS} players' + {WATCHERS} watchers' streams) = {f['streams']} "
        f"streams, coimbra serve --workers {f['workers']} on PostgreSQL, an input every {EVERY:.0f} s per table for "
        f"{f['seconds']:.0f} s (load average {f['load_average']:.1f} on {f['cores']} cores, nice {f['nice']})",
        f"  input -> stored -> every stream of its table told: p50 {f['club_p50_ms']:.1f} ms, p95 {f['club_p95_ms']:.1f} ms, "
        f"max {f['club_max_ms']:.0f} ms over {f['club_inputs']} inputs (target p95 < {P95_TARGET_MS:.0f} ms: "
        f"{verdict[f['p95_pass']]})",
        f"  baseline, the same with 1 table ({PLAYERS + WATCHERS} streams): p50 {f['baseline_p50_ms']:.1f} ms, "
        f"p95 {f['baseline_p95_ms']:.1f} ms over {f['baseline_inputs']} inputs",
        f"  ratio club/baseline: p50 {f['ratio_p50']:.2f}, p95 {f['ratio_p95']:.2f}",
        f"  inputs lost {f['lost']}, stored twice {f['stored_twice']}, refused {len(f['refused'])} "
        f"(all must be 0: {verdict[f['none_lost']]}){''.join(chr(10) + '    ' + r for r in f['refused'][:5])}",
        "  server processes' memory (VmRSS): " + ", ".join(f"{a:.0f} -> {b:.0f} MB" for a, b in zip(f["rss_start_mb"],
                                                                                                  f["rss_end_mb"]))
        + f" (the supervisor: {f['supervisor_rss_mb']:.0f} MB)",
        f"  server processes' CPU over the club phase: {f['server_cpu_s']:.1f} s ({f['server_cpu_share']:.2f} of a core; "
        f"idle, every table served: {f['idle_cpu_share']:.3f}); beyond idle, {f['server_cpu_per_entry_ms']:.1f} ms per "
        f"entry, {f['server_cpu_per_entry_stream_ms']:.2f} ms per entry "
        f"and stream; with 1 table: {f['baseline_cpu_per_entry_ms']:.1f} ms per entry (PostgreSQL's own not counted)",
        f"  a process's look after an entry stored anywhere (in process, {f['look_tables']} tables served): "
        f"{f['look_ms']:.1f} ms, of which CPU {f['look_cpu_ms']:.1f} ms (PostgreSQL's own not counted)",
    ])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=25, help="tables entering inputs at once (default 25)")
    parser.add_argument("--seconds", type=float, default=300.0, help="seconds of the club phase (default 300)")
    parser.add_argument("--baseline-seconds", type=float, default=60.0, help="seconds of the 1-table baseline (default 60)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    return harness.emit(measure(max(1, args.tables), args.seconds, args.baseline_seconds), args.json, report)


if __name__ == "__main__":
    sys.exit(main())
