"""A league catch-up in a process of its own (the crash test kills it with SIGKILL).

After each flush it says so on stdout and waits for a line on stdin before it goes
on, so the test decides how far it gets before the kill lands (in the next batch).
Usage: ``python -m tests.store.league.catch_up_child BATCH`` with the store in the environment.
"""

from __future__ import annotations

import sys

from coimbra_events.store.game_store import GameStore
from projections.league.projection import open_league


def main() -> None:
    store = GameStore()
    league = open_league(store)
    print("ready", flush=True)
    def flushed(position: int, last: int) -> None:
        print(f"flushed {position} {last}", flush=True)
        sys.stdin.readline()

    league.catch_up(batch=int(sys.argv[1]), progress=flushed)
    print("done", flush=True)


if __name__ == "__main__":
    main()
