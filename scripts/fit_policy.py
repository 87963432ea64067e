"""Fit the playout policy's draft weights (``coimbra_events/analysis/value.py``: ``DraftWorth``) and write them as data.

What a unit of each track's income is worth against a point, when the policy drafts a die by the income its colour
pays: a grid of candidates (coins and guards alike, pilgrim steps, the green track's base counting as points), each
playing ``--games`` two-player games on the stand-in catalog against the greedy heuristic (``policy.GREEDY``), seats
alternating, tables seeded by game; the candidate that wins most (the first of equals) is written, with every
candidate's record. Deterministic: the same arguments write the same file. Other weights make other playouts, so
shipping them means raising ``evaluation.METHOD`` (a kept analysis must not be read as one made with them). Usage
(what wrote the shipped file):

    python scripts/fit_policy.py
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coimbra_events.analysis import value  # noqa: E402
from coimbra_events.catalog import standin_catalog  # noqa: E402
from coimbra_events.catalog.effect_kinds import TRACKS  # noqa: E402
from coimbra_events.analysis.policy import GREEDY, Player, play_to_end  # noqa: E402
from coimbra_events.rules.core import start  # noqa: E402
from coimbra_events.rules.fast import Fold  # noqa: E402
from coimbra_events.rules.scoring import places, totals  # noqa: E402
from coimbra_events.simulator import DEFAULT_PLAYERS  # noqa: E402

RESOURCES = (0.25, 0.5, 0.75)
"""Candidate worths of a coin or a guard of income, in points."""
STEPS = (0.25, 0.5, 1.0)
"""Candidate worths of a pilgrim step of income, in points."""


def units(resource: float, steps: float) -> tuple[float, ...]:
    """A candidate's worth of a unit of each track's income, by ``TRACKS``: guards and coins alike, pilgrim steps,
    and the green track's base, points."""
    by_track = {"gray": resource, "orange": resource, "purple": steps, "green": 1.0}
    return tuple(by_track[t] for t in TRACKS)


def won(candidate: tuple[float, ...], seed: int) -> float:
    """Game ``seed``: 1 if the candidate finishes above the greedy heuristic, 0.5 if they share first place."""
    mine = Player(value.DraftWorth(candidate), True)
    seats = [mine, GREEDY] if seed % 2 == 0 else [GREEDY, mine]
    state = start(standin_catalog(), DEFAULT_PLAYERS[:2])
    end = play_to_end(state, random.Random(f"fit:{seed}"), seed, seats, Fold(scratch=True))
    placed = places(end, totals(end))
    me = seed % 2
    return 1.0 if placed[me] < placed[1 - me] else 0.0 if placed[me] > placed[1 - me] else 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per candidate")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=value.WEIGHTS_FILE)
    args = parser.parse_args()
    records = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for resource, steps in itertools.product(RESOURCES, STEPS):
            candidate = units(resource, steps)
            wins = sum(pool.map(partial(won, candidate), range(args.games), chunksize=8))
            records.append({"units": list(candidate), "won": wins / args.games})
            print(f"{candidate}: {wins / args.games:.1%} against the greedy heuristic", flush=True)
    best = max(records, key=lambda r: r["won"])
    data = {"format": value.WEIGHTS_FORMAT, "catalog": standin_catalog().sha256, "tracks": list(TRACKS),
            "units": best["units"], "fitted_by": f"scripts/fit_policy.py --games {args.games}", "candidates": records}
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {args.out}: {best}")


if __name__ == "__main__":
    main()
