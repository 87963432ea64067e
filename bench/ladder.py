"""Benchmark: a ladder of players, their win rates against each other with 95 % intervals, for 2, 3 and 4 players.

The players: ``random`` (``coimbra simulate``'s seeded bots, their picks keyed by where each decision falls as in
the analysis's playouts until now: ``policy.BOTS``), ``greedy`` (the simple greedy heuristic: the option
whose table the rules core scores best for the player against the best other, one ply, no fitted weights, no
search: ``policy.GREEDY``), ``policy`` (the analysis's playout policy: ``coimbra_events/analysis/policy.py``) and, with
``--analysis N``, ``analysis`` (a player choosing by the analysis's own evaluation, its playouts the policy's: with
``--analysis-playouts own`` the analysis itself, the option its whole evaluation at its default settings rates best,
``evaluation.analysis_choice``, a minute or two of CPU a game for its one side; with a number, the default 2, its ranking
alone at that many playouts an option, ``evaluation.best_option``, a cheap stand-in costing hundreds of policy games a
game; N games per pairing only).

Each pairing A–B plays ``--games`` games per number of players on seeded tables (game ``g``: the table seeded with
``g``), the seats alternating A, B, A, ... from seat ``g mod 2``, so each side has every seat and, with 3 players,
two seats as often as the other. A game is A's when a player of A finishes above every player of B (a shared first
place between the two sides: half a game each). Win rates with their Wilson 95 % interval. Targets (2 players):
the policy beats the random bot in at least 95 % of the games and the greedy heuristic in at least 60 %.

Usage: ``python bench/ladder.py [--games N | --full] [--players 2,3,4] [--jobs J] [--analysis N] [--json]``;
``--full``: 1,000 games per pairing and number of players (the issue's figure; tens of minutes: run it with
``nice -n 19``); the default, 40, is CI's quick look. Always exits 0.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, Callable, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coimbra_events import core_build  # noqa: E402
from coimbra_events.analysis.evaluation import Settings, analysis_choice, best_option  # noqa: E402
from coimbra_events.catalog import standin_catalog  # noqa: E402
from coimbra_events.events import GameEvent  # noqa: E402
from coimbra_events.analysis.policy import BOTS, GREEDY, policy  # noqa: E402
from coimbra_events.bots import next_key  # noqa: E402
from coimbra_events.rules.core import start  # noqa: E402
from coimbra_events.rules.fast import Fold, options  # noqa: E402
from coimbra_events.rules.options import Options  # noqa: E402
from coimbra_events.rules.outcomes import OutcomeSpace  # noqa: E402
from coimbra_events.rules.scoring import places, totals  # noqa: E402
from coimbra_events.simulator import DEFAULT_PLAYERS  # noqa: E402
from coimbra_events.state import GameState  # noqa: E402
from harness import emit  # noqa: E402

FULL = 1000
PAIRINGS = (("policy", "random"), ("policy", "greedy"), ("greedy", "random"))
TARGETS = {("policy", "random"): 0.95, ("policy", "greedy"): 0.60}
"""The issue's targets, on 2-player games."""

Pick = Callable[[GameState, Options, int, Fold], GameEvent]
"""How a player picks the option taken in a state (``Player.pick``'s signature)."""


class Analysed:
    """A player choosing by the analysis's own evaluation (its playouts are the policy's): with ``playouts`` None, the
    option the analysis at its default settings rates best, by the whole evaluation that grades a decision
    (``evaluation.analysis_choice``: what "the analysis as a player" means, minutes of CPU a game); with ``playouts``,
    the option its ranking alone rates best at that many playouts an option (``evaluation.best_option``: a cheap
    stand-in, weaker than the analysis that grades it). Not a ``Player``: the policy is compiled, and an interpreted
    class cannot inherit from a compiled one."""

    def __init__(self, seed: int, playouts: int | None) -> None:
        if playouts is None:
            self.settings, self.choose = Settings(seed=seed), analysis_choice
        else:
            self.settings, self.choose = Settings(playouts=playouts, first_pass=playouts, seed=seed), best_option
        self.asked = 0

    def pick(self, state: GameState, found: Options, key: int, fold: Fold) -> GameEvent:
        self.asked += 1
        return self.choose(state, self.settings, self.asked)


def player(name: str, state: GameState, seed: int, analysis_playouts: int | None) -> Pick:
    """How player ``name`` picks in the game seeded with ``seed`` (``analysis_playouts``: ``Analysed``'s)."""
    if name == "analysis":
        return Analysed(seed, analysis_playouts).pick
    return ({"random": BOTS, "greedy": GREEDY}.get(name) or policy(state)).pick


def play(state: GameState, seed: int, seats: Sequence[Pick]) -> tuple[GameState, list[GameEvent]]:
    """Game ``seed`` played from ``state`` to its end, and its events: what ``policy.play_to_end`` plays (the table
    drawing from a stream seeded with ``seed``, each pick keyed by ``seed`` and where the decision falls), with any
    picker in a seat (``play_to_end`` is compiled and takes only its own ``Player``)."""
    table, probe, fold = random.Random(seed), Fold(), Fold(scratch=True)
    at_round, at_phase, alike, events = -1, "", [], []
    while not state.over:
        found = options(state)
        if isinstance(found, OutcomeSpace):
            event = found.sample(table)
        else:
            if state.round != at_round or state.phase != at_phase:
                at_round, at_phase, alike = state.round, state.phase, []
            event = seats[state.index[state.pending.actor]](state, found, next_key(alike, state, seed), probe)
        events.append(event)
        state = fold.apply(state, event)
    return state, events


def player_of(analysis_playouts: int | None) -> str:
    """The analysis as a player, in words."""
    if analysis_playouts is None:
        return "its whole evaluation at its default settings"
    return f"its ranking alone at {analysis_playouts} playouts an option"


def game(pairing: tuple[str, str], players: int, analysis_playouts: int | None, seed: int) -> float:
    """Game ``seed`` of a pairing: 1 if side A finishes above every player of B, 0 if below, 0.5 if they share first."""
    state = start(standin_catalog(), DEFAULT_PLAYERS[:players])
    a, b = (player(name, state, seed, analysis_playouts) for name in pairing)
    sides = [(seat + seed) % 2 == 0 for seat in range(players)]  # True: side A
    end, _ = play(state, seed, [a if side else b for side in sides])
    placed = places(end, totals(end))
    best_a = min(p for p, side in zip(placed, sides) if side)
    best_b = min(p for p, side in zip(placed, sides) if not side)
    return 1.0 if best_a < best_b else 0.0 if best_b < best_a else 0.5


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson's 95 % score interval of a proportion (a shared first place counted as half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    pairings = list(PAIRINGS) + ([("analysis", "policy"), ("analysis", "random")] if args.analysis else [])
    rows = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for players in args.players:
            for pairing in pairings:
                n = args.analysis if "analysis" in pairing else args.games
                began = time.perf_counter()
                scores = list(pool.map(partial(game, pairing, players, args.analysis_playouts), range(n), chunksize=4))
                wins = sum(scores)
                low, high = wilson(wins, n)
                target = TARGETS.get(pairing) if players == 2 else None
                rows.append({"players": players, "a": pairing[0], "b": pairing[1], "games": n, "a_wins": wins,
                             "rate": wins / n, "low": low, "high": high, "target": target,
                             "pass": None if target is None else wins / n >= target,
                             "wall_s": round(time.perf_counter() - began, 1)})
    return {"core": core_build(), "jobs": args.jobs, "games": args.games, "rows": rows,
            "analysis_playouts": args.analysis_playouts if args.analysis else "not played"}


def report(result: dict[str, Any]) -> str:
    lines = [f"ladder ({result['core']} rules core, {result['jobs']} jobs): A's share of games against B, 95 % Wilson interval",
             f"{'players':>7}  {'A':<9} {'B':<8} {'games':>6}  {'A wins':>7}  {'interval':<15} target"]
    for r in result["rows"]:
        target = "" if r["target"] is None else f">= {r['target']:.0%}: {'PASS' if r['pass'] else 'FAIL'}"
        lines.append(f"{r['players']:>7}  {r['a']:<9} {r['b']:<8} {r['games']:>6}  {r['rate']:>7.1%}  "
                     f"{r['low']:.1%}–{r['high']:.1%}{'':<3} {target}")
    if result["analysis_playouts"] != "not played":
        lines.append(f"the analysis as a player: {player_of(result['analysis_playouts'])}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per pairing and number of players (default 40)")
    parser.add_argument("--full", action="store_true", help=f"{FULL} games per pairing and number of players")
    parser.add_argument("--players", type=lambda s: [int(x) for x in s.split(",")], default=[2, 3, 4])
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
    parser.add_argument("--analysis", type=int, default=0, help="games of the analysis as a player per pairing (default: none)")
    parser.add_argument("--analysis-playouts", type=lambda word: None if word == "own" else int(word), default=2,
                        metavar="N|own", help="the analysis as a player: N, its ranking alone at N playouts an option "
                        "(default 2); own, its whole evaluation at its default settings")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.full:
        args.games = FULL
    return emit(measure(args), args.json, report)


if __name__ == "__main__":
    sys.exit(main())
