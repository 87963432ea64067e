"""Benchmark of ``coimbra analyse``: the whole analysis of the 2-player fixture, its steadiness, and its strength.

In one run:

(a) speed: ``coimbra simulate``'s games per second on one core (2 players, seeded), alone and with ``--jobs``
    processes at once (a machine whose cores slow each other when all are busy shows it there), then the whole
    analysis of ``fixtures/games/standin-2p-seed1.json`` with the default settings and ``--jobs``
    (default: every core), reporting its wall time (target: at most 5 minutes of wall time on 2 idle cores) beside
    its CPU time, and its playouts per second per core, against both games per second of ``simulate``, and the
    games per second ``simulate`` would need, with every core busy, for the analysis to take 5 minutes (both run the same rules
    core and bots, so a machine's speed shows in both alike: what the figure assumes);
(b) steadiness: the same analysis with another seed; the share of decisions given the same grade
    (target: at least 95 %; ``--seeds A,B`` picks the two seeds, 1 and 2 by default);
(c) strength: ``--games`` two-player games (default 200) on seeded tables, a player choosing by the
    analysis's evaluation (``--strength-playouts``, default 2 per option, first pass and carried on)
    against the seeded bots, seats alternating; the share it finishes first, a shared first place
    counting (target: at least 70 %).

The machine may be shared: the report says how many cores it saw and the load average at the start, and gives the
CPU time beside the wall time (CPU time / jobs: the wall time idle cores would take were the work spread evenly); the
target is judged on the wall time, and only on the whole game. ``--entries A:B`` analyses a slice of the line of
play only (a quick check that the benchmark works; no target judged).
Missing a target is reported, not an error: the script always exits 0. Usage:
``python bench/analyse.py [--parts speed,steadiness,strength] [--seeds A,B] [--entries A:B] [--games N] [--jobs J]
[--json]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coimbra_events import core_build  # noqa: E402
from coimbra_events.analysis.engine import Analysis, LineEntry, analyse, default_jobs, follows, line_of_play  # noqa: E402
from coimbra_events.analysis.evaluation import Settings  # noqa: E402
from coimbra_events.analysis.grades import reach  # noqa: E402
from coimbra_events.analysis.strength import duel  # noqa: E402
from coimbra_events.catalog import standin_catalog  # noqa: E402
from coimbra_events.log_reader import read  # noqa: E402
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate  # noqa: E402
from harness import emit, timed  # noqa: E402

GAME = ROOT / "fixtures" / "games" / "standin-2p-seed1.json"
TARGET_SECONDS = 300
"""The issue's bound on the whole analysis with every core of a 2-core machine."""
PLAYERS = DEFAULT_PLAYERS[:2]


def simulate_rate(seconds: float = 5.0) -> float:
    """Whole 2-player games ``coimbra simulate`` plays per CPU second."""
    catalog, games, start = standin_catalog(), 0, time.process_time()
    while time.process_time() - start < seconds:
        simulate(catalog, PLAYERS, games)
        games += 1
    return games / (time.process_time() - start)


def simulate_rate_together(jobs: int) -> float:
    """``simulate_rate`` in ``jobs`` processes at once, per process: what a core gives when every core works, as in
    the analysis (on a machine whose cores slow each other, this is below the rate of one process alone)."""
    with ProcessPoolExecutor(jobs) as pool:
        rates = list(pool.map(simulate_rate, [5.0] * jobs))
    return sum(rates) / len(rates)


def fixture_line() -> list[LineEntry]:
    """The line of play of the game this benchmark analyses, each entry with the table before it."""
    return line_of_play(read(GAME), standin_catalog())


def timed_analysis(seed: int, jobs: int, part: slice = slice(None)) -> tuple[Analysis, float, float]:
    """The analysis of the entries ``part`` of the line of play, its wall time and its CPU time (workers included)."""
    entries = fixture_line()[part]
    return timed(lambda: analyse(entries, Settings(seed=seed), jobs))


def playouts(result: Analysis) -> int:
    """Playouts played: each decision's, and each table of a run of random entries once (``luck.run_luck``: the table
    after one entry is the next's before; an entry's ``playouts`` counts both sides)."""
    luck = sorted(result.luck, key=lambda u: u.index)
    shared = sum(1 for a, b in zip(luck, luck[1:]) if follows(a, b))
    return sum(d.playouts for d in result.decisions) + sum(u.playouts for u in luck) - shared * result.settings.luck


def _strength_game(args: tuple[int, int]) -> bool:
    game, per_option = args
    settings = Settings(playouts=per_option, first_pass=per_option, candidates=2)
    return duel(standin_catalog(), PLAYERS, 10_000 + game, game % 2, settings).first[game % 2]


def measure(parts: set[str], games: int, jobs: int, per_option: int, seeds: tuple[int, int] = (1, 2),
            part: slice = slice(None)) -> dict[str, Any]:
    whole = len(fixture_line())
    out: dict[str, Any] = {"core": core_build(), "cores": os.cpu_count(), "jobs": jobs, "seeds": seeds,
                           "load_average_at_start": os.getloadavg()[0], "settings": Settings().to_json(),
                           "entries": list(part.indices(whole)[:2]), "entries_of_the_game": whole}
    if parts & {"speed", "steadiness"}:
        out["simulate_games_per_s_per_core"] = round(simulate_rate(), 1)
        out["simulate_games_per_s_per_core_all_busy"] = round(simulate_rate_together(jobs), 1)
        first, seconds, cpu = timed_analysis(seeds[0], jobs, part)
        out["analysis_wall_seconds"] = round(seconds, 1)
        out["analysis_cpu_seconds"] = round(cpu, 1)
        out["analysis_cpu_seconds_per_job"] = round(cpu / jobs, 1)
        out["decisions"] = len(first.decisions)
        out["playouts"] = playouts(first)
        out["playouts_per_s_per_core"] = round(playouts(first) / cpu, 1)
        out["playouts_per_simulated_game"] = round(out["playouts_per_s_per_core"] / out["simulate_games_per_s_per_core"], 2)
        out["playouts_per_simulated_game_all_busy"] = round(
            out["playouts_per_s_per_core"] / out["simulate_games_per_s_per_core_all_busy"], 2)
        out["simulate_games_per_s_for_target"] = round(
            out["simulate_games_per_s_per_core_all_busy"] * out["analysis_cpu_seconds_per_job"] / TARGET_SECONDS)
    if "steadiness" in parts:
        second, seconds2, cpu2 = timed_analysis(seeds[1], jobs, part)
        same = sum(a.grade == b.grade for a, b in zip(first.decisions, second.decisions))
        out["second_analysis_wall_seconds"] = round(seconds2, 1)
        out["second_analysis_cpu_seconds"] = round(cpu2, 1)
        out["second_playouts"] = playouts(second)
        out["same_grade"] = round(same / len(first.decisions), 4)
        out["grades_differing"] = [(a.seq, a.grade, round(a.loss, 1), b.grade, round(b.loss, 1))
                                   for a, b in zip(first.decisions, second.decisions) if a.grade != b.grade]
        out["differing_within_reach"] = sum(
            a.grade != b.grade and (len(reach(a.signed_loss, a.se)) > 1 or len(reach(b.signed_loss, b.se)) > 1)
            for a, b in zip(first.decisions, second.decisions))
        out["reaching_two"] = [sum(len(reach(d.signed_loss, d.se)) > 1 for d in run.decisions) for run in (first, second)]
    if "strength" in parts:
        start = time.perf_counter()
        firsts: list[bool] = []
        with ProcessPoolExecutor(jobs) as pool:
            for first in pool.map(_strength_game, [(g, per_option) for g in range(games)], chunksize=1):
                firsts.append(first)
                print(f"strength: {sum(firsts)} first of {len(firsts)}", file=sys.stderr, flush=True)
        out["strength"] = {"games": games, "playouts_per_option": per_option, "first": round(sum(firsts) / games, 4),
                           "seconds": round(time.perf_counter() - start, 1)}
    out["load_average_at_end"] = os.getloadavg()[0]
    return out


def report(r: dict[str, Any]) -> str:
    lines = [f"rules core: {r['core']}; {r['cores']} cores, {r['jobs']} jobs; load average at start "
             f"{r['load_average_at_start']:.1f}, at the end {r['load_average_at_end']:.1f}"]
    if "analysis_wall_seconds" in r:
        lines += [f"simulate: {r['simulate_games_per_s_per_core']} games/s on one core (CPU time), "
                  f"{r['simulate_games_per_s_per_core_all_busy']} per core with {r['jobs']} at once",
                  f"analysis of {GAME.name}{_slice(r)}: {r['analysis_wall_seconds']} s wall with {r['jobs']} jobs "
                  f"({_verdict(r)}); {r['analysis_cpu_seconds']} s CPU, {r['analysis_cpu_seconds_per_job']} s per job "
                  f"(the wall time were the work spread evenly on idle cores); {r['decisions']} decisions, "
                  f"{r['playouts']} playouts",
                  f"playouts: {r['playouts_per_s_per_core']}/s per core = {r['playouts_per_simulated_game']} x simulate's "
                  f"games/s ({r['playouts_per_simulated_game_all_busy']} x with every core busy, as in the analysis)",
                  *([] if _slice(r) else [
                      f"the analysis would take {TARGET_SECONDS} s of CPU per job on {r['jobs']} cores where simulate "
                      f"plays {r['simulate_games_per_s_for_target']} games/s per core with every core busy"])]
    if "same_grade" in r:
        ok = "a slice: not judged" if _slice(r) else "PASS" if r["same_grade"] >= 0.95 else "FAIL"
        lines.append(f"steadiness: same grade with seeds {r['seeds'][0]} and {r['seeds'][1]} for "
                     f"{100 * r['same_grade']:.1f} % of decisions "
                     f"(target >= 95 %): {ok}; differing (seq, grade and loss with each seed): {r['grades_differing']}, "
                     f"{r['differing_within_reach']} of them reaching two grades with a seed (decisions reaching two in "
                     f"all: {r['reaching_two'][0]} and {r['reaching_two'][1]}); "
                     f"seed {r['seeds'][1]}: {r['second_analysis_wall_seconds']} s wall, {r['second_analysis_cpu_seconds']} s CPU, "
                     f"{r['second_playouts']} playouts")
    if "strength" in r:
        s = r["strength"]
        ok = "PASS" if s["first"] >= 0.7 else "FAIL"
        lines.append(f"strength: first in {100 * s['first']:.1f} % of {s['games']} games against the seeded bots at "
                     f"{s['playouts_per_option']} playouts per option ({s['seconds']} s; target >= 70 %): {ok}")
    return "\n".join(lines)


def _slice(r: dict[str, Any]) -> str:
    first, last = r["entries"]
    return "" if (first, last) == (0, r["entries_of_the_game"]) else f" (entries {first}..{last - 1} only)"


def _verdict(r: dict[str, Any]) -> str:
    """The wall time against the target: judged on the whole game only, and said to be on busy cores when it was."""
    if _slice(r):
        return "a slice: the target is not judged"
    ok = "PASS" if r["analysis_wall_seconds"] <= TARGET_SECONDS else "FAIL"
    busy = f"; the cores were not idle: load average {r['load_average_at_start']:.1f} at the start" \
        if r["load_average_at_start"] >= 0.5 else ""
    return f"target <= {TARGET_SECONDS} s wall on {r['jobs']} idle cores: {ok}{busy}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", default="speed,steadiness,strength", help="which parts to run (comma-separated)")
    parser.add_argument("--seeds", default="1,2", help="the two seeds whose grades are compared (default 1,2)")
    parser.add_argument("--entries", default=":", help="a slice A:B of the line of play to analyse (default: all)")
    parser.add_argument("--games", type=int, default=200, help="strength games (default 200)")
    parser.add_argument("--strength-playouts", type=int, default=2, help="playouts per option of the analysing player")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="processes (default: every core)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    first, second = (int(seed) for seed in args.seeds.split(","))
    start, _, stop = args.entries.partition(":")
    part = slice(int(start) if start else None, int(stop) if stop else None)
    return emit(measure(set(args.parts.split(",")), args.games, args.jobs, args.strength_playouts, (first, second), part),
                args.json, report)


if __name__ == "__main__":
    sys.exit(main())
