"""Crash test: the league's catch-up killed with SIGKILL at random points, 20 times; then restarted, its tables
equal a rebuild from scratch (every event reflected exactly once, none lost)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

from coimbra_events.service import Games
from coimbra_events.store.aliases import change_aliases
from projections.league.projection import open_league
from tests.applied import recorded, stored
from tests.conftest import ROOT
from tests.store.league.conftest import process_env
from tests.store.league.games import simulated, winner_changing_correction

KILLS = 20
BATCH = 53
"""Small batches: many flushes, and kills between and inside them, in the middle of games."""


def record_a_season(store) -> None:
    """Games imported whole and recorded event by event, interleaved; a correction, an undo, aliases, tags."""
    games = Games(store)
    rng = random.Random(7)
    pool = ["Ana", "ana", "Bruno", "Conceição", "Duarte", "Eva", "Ana M."]
    for k in range(24):
        names = rng.sample(pool[1:], rng.choice([2, 3, 4])) if k % 2 else rng.sample(pool[:1] + pool[2:], 3)
        games.import_log(simulated(names, 500 + k), f"g{k}")
    for k, name in enumerate(("live-a", "live-b")):  # two tables recording at once: their events interleave
        games.new_game([("Ana", "red"), ("Eva", "blue")][:: 1 - 2 * k], name=name)
    lives = {name: simulated(("Ana", "Eva")[:: 1 - 2 * k], 900 + k).events for k, name in enumerate(("live-a", "live-b"))}
    for step in range(max(map(len, lives.values()))):
        for name, events in lives.items():
            if step < len(events):
                recorded(games, name, events[step])
    log, seq, alternative = winner_changing_correction()
    games.import_log(log, "disputed")
    stored(games.correct("disputed", seq, alternative))
    stored(games.undo("g3"))
    change_aliases(store, lambda a: a.add("Ana M.", "Ana"))
    games.tag(["g1", "disputed"], add=["spring"])


def test_killed_catch_ups_resume_exactly_once(club, club_env):
    record_a_season(club)
    last = club.recorder.max_notification_id()
    league = open_league(club)
    rng = random.Random(2026)
    positions = []
    for _ in range(KILLS):
        child = subprocess.Popen([sys.executable, "-m", "tests.store.league.catch_up_child", str(BATCH)], cwd=ROOT,
                                 env=process_env(club_env), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert child.stdout.readline().strip() == "ready"
        for _ in range(rng.randrange(5)):  # let it flush a few batches ...
            if not child.stdout.readline().startswith("flushed"):
                break
            child.stdin.write("\n")
            child.stdin.flush()
        time.sleep(rng.uniform(0, 0.004))  # ... then kill it while it reads, folds or writes the next one
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdin.close()
        child.stdout.close()
        with league.view.reading() as tables:
            positions.append(tables.position())
    assert positions == sorted(positions), "a kill never takes the league backwards"
    assert sum(0 < p < last for p in positions) >= KILLS // 2, f"most kills must land mid-way: {positions}"

    league.catch_up()
    with league.view.reading() as tables:
        resumed = tables.dump()
    league.rebuild()
    with league.view.reading() as tables:
        assert tables.dump() == resumed
    assert resumed["position"] == [(last,)]
