"""Benchmark of the league: catching up a club's archive from scratch, and reflecting one new game.

In one process, N simulated games (default 10,000: 2 to 4 players drawn from a
club of 30, seeded) are stored in a fresh SQLite store, and, when a PostgreSQL
server is configured (``COIMBRA_TEST_POSTGRES`` or ``POSTGRES_*``, as the tests
find it), the same rows are copied into a fresh PostgreSQL schema. Then, on each store, the
league opened through the application (``Games.league``, as every league command opens it):

(a) catching up from scratch (best of interleaved passes): ``League.rebuild`` (what ``coimbra league rebuild``
    runs, and the first league command on a store): every stored event read from
    the notification log, every game folded through the rules core, every
    finished game scored, ratings computed game by game, all written with the
    tracking. Baseline, measured in the same run: validating the same games from
    their logs (``validate(loads(bytes))``: parse, hash chain, check and apply
    every event, as ``coimbra validate`` does). Target: ratio ≤ 2.
(b) one new finished game: one more game stored, then ``League.catch_up`` (what
    every league command runs first), best of 5 new games; also with the
    standings read after it (``coimbra league standings``). Target: ≤ 1/100 of
    the rebuild time of (a).
(c) PostgreSQL vs SQLite for (a) and (b).

Missing a target is reported, not an error: the script always exits 0 so CI can
collect the figures. Usage: ``python bench/league.py [--games N] [--json]``
(``--repeat`` is the number of new games of (b)).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any, Iterator, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coimbra_events import core_build  # noqa: E402
from coimbra_events.store.game_store import GameStore  # noqa: E402
from coimbra_events.catalog import standin_catalog  # noqa: E402
from coimbra_events.game import Game  # noqa: E402
from coimbra_events.log_reader import loads  # noqa: E402
from coimbra_events.log import dumps  # noqa: E402
from coimbra_events.simulator import simulate  # noqa: E402
from coimbra_events.validation import validate  # noqa: E402
from coimbra_events.service import Games  # noqa: E402
from projections.league.projection import League  # noqa: E402
from projections.league.reports import standings  # noqa: E402
from projections.read_side import ReadSide  # noqa: E402
from tests.store.league.stores import postgres_store, sqlite_store  # noqa: E402

TARGET_REBUILD_RATIO = 2.0
TARGET_NEW_GAME_SHARE = 0.01
CLUB = [f"Player {k:02d}" for k in range(30)]
COLOURS = ("red", "blue", "yellow", "green")
CHUNK = 250
SAVE = 20
"""Games per transaction when filling the store (PostgreSQL slows down on very large inserts)."""


def games(n: int, first_seed: int = 0) -> Iterator[list[Any]]:
    """Simulated game logs in chunks, the same for the same seeds."""
    catalog = standin_catalog()
    chunk = []
    for seed in range(first_seed, first_seed + n):
        rng = random.Random(seed)
        players = list(zip(rng.sample(CLUB, rng.choice([2, 3, 4])), COLOURS))
        chunk.append(simulate(catalog, players, seed)[0])
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def finished(name: str, log: Any) -> Game:
    """A game as ``import`` stores it: its entries and the result it announces (the name register aside)."""
    game = Game.from_log(name, log)
    game.announce_result()
    return game


def fill(store: GameStore, n: int) -> list[bytes]:
    """Store N games (the name register aside: the league does not read it); return their logs' bytes."""
    blobs: list[bytes] = []
    for k, chunk in enumerate(games(n)):
        blobs += [dumps(log) for log in chunk]
        stored = [finished(f"g{k}-{j}", log) for j, log in enumerate(chunk)]
        for first in range(0, len(stored), SAVE):
            store.save(*stored[first:first + SAVE])
    return blobs


def copy_rows(source: GameStore, target: GameStore) -> None:
    """The same stored events, row for row and in order, into the PostgreSQL store.

    (Setting the benchmark up only: COPY takes seconds where saving 10,000 games through the library takes
    minutes; the rows are the library's own, so what the league reads is the same.)
    """
    from uuid import UUID

    from projections.league.log_rows import reader

    read, after = reader(source.recorder), 0
    table = '"{}"."{}"'.format(target.recorder.datastore.schema, target.recorder.events_table_name)
    with target.recorder.datastore.get_connection() as conn, conn.cursor() as curs:
        with curs.copy(f"COPY {table} (originator_id, originator_version, topic, state) FROM STDIN") as copy:
            while rows := read(after, 50_000, None):
                for _, originator, version, topic, state in rows:
                    copy.write_row((UUID(originator), version, topic, state))
                after = rows[-1][0]


def validating(blobs: Sequence[bytes]) -> float:
    start = time.perf_counter()
    for blob in blobs:
        validate(loads(blob))
    return time.perf_counter() - start


def rebuilding(league: League) -> float:
    start = time.perf_counter()
    league.rebuild()
    return time.perf_counter() - start


def measure_store(store: GameStore, blobs: Sequence[bytes], repeat: int, passes: int) -> dict[str, Any]:
    """(a) and (b) on one store holding the games of ``blobs``; (a) as the best of interleaved passes."""
    events = store.recorder.max_notification_id() or 0
    league = Games(store, views=ReadSide()).league()  # as every league command opens it
    validate_s, rebuild_s = [], []
    for _ in range(passes):
        validate_s.append(validating(blobs))
        rebuild_s.append(rebuilding(league))
    rebuild = min(rebuild_s)
    one, one_and_read = [], []
    new = [log for chunk in games(repeat, first_seed=10**6) for log in chunk]
    for k, log in enumerate(new):
        store.save(finished(f"new-{k}", log))
        start = time.perf_counter()
        league.catch_up()
        one.append(time.perf_counter() - start)
        with league.view.reading() as tables:
            standings(tables)
        one_and_read.append(time.perf_counter() - start)
    return {
        "events": events,
        "validate_s": min(validate_s),
        "rebuild_s": rebuild,
        "rebuild_ratio": rebuild / min(validate_s),
        "new_game_s": min(one),
        "new_game_with_standings_s": min(one_and_read),
        "new_game_share": min(one) / rebuild,
        "new_game_with_standings_share": min(one_and_read) / rebuild,
    }


def postgres_settings() -> dict[str, str] | None:
    """The PostgreSQL server the tests use, if one is configured (``tests/store/conftest.py``)."""
    from tests.store.conftest import postgres_settings as settings, postgres_source

    source = postgres_source()
    return None if source is None else settings(source)


def measure(n: int, repeat: int, passes: int) -> dict[str, Any]:
    stores: dict[str, Any] = {}
    settings = postgres_settings()
    with sqlite_store() as lite, (nullcontext() if settings is None else postgres_store(settings)) as pg:
        blobs = fill(lite, n)
        if pg is not None:
            copy_rows(lite, pg)
        stores["sqlite"] = measure_store(lite, blobs, repeat, passes)
        if pg is not None:
            stores["postgres"] = measure_store(pg, blobs, repeat, passes)
    targets = {}
    for kind, f in stores.items():
        targets[f"{kind}_rebuild"] = {"what": f"{kind}: catching up from scratch / validating the same logs",
                                     "target": TARGET_REBUILD_RATIO, "value": f["rebuild_ratio"],
                                     "pass": f["rebuild_ratio"] <= TARGET_REBUILD_RATIO}
        targets[f"{kind}_new_game"] = {"what": f"{kind}: one new finished game / the rebuild", "target": TARGET_NEW_GAME_SHARE,
                                      "value": f["new_game_share"], "pass": f["new_game_share"] <= TARGET_NEW_GAME_SHARE}
    result: dict[str, Any] = {"games": n, "new_games": repeat, "passes": passes, "python": sys.version.split()[0],
                              "rules_core": core_build(), "stores": stores, "targets": targets}
    if "postgres" in stores:
        pg, lite = stores["postgres"], stores["sqlite"]
        result["postgres_vs_sqlite"] = {"rebuild": pg["rebuild_s"] / lite["rebuild_s"],
                                        "new_game": pg["new_game_s"] / lite["new_game_s"]}
    return result


def report(result: dict[str, Any]) -> str:
    lines = [f"{result['games']:,} simulated games, best of {result['passes']} passes and of {result['new_games']} new games; "
             f"Python {result['python']}, rules core {result['rules_core']}", ""]
    lines.append(f"{'store':<10}{'events':>11}{'validate s':>12}{'rebuild s':>11}{'ratio':>7}{'new game ms':>13}"
                 f"{'+ standings ms':>16}{'share':>9}")
    for kind, f in result["stores"].items():
        lines.append(f"{kind:<10}{f['events']:>11,}{f['validate_s']:>12.2f}{f['rebuild_s']:>11.2f}{f['rebuild_ratio']:>7.2f}"
                     f"{f['new_game_s'] * 1e3:>13.1f}{f['new_game_with_standings_s'] * 1e3:>16.1f}"
                     f"{f['new_game_share']:>9.4f}")
    lines.append("")
    if "postgres_vs_sqlite" in result:
        pv = result["postgres_vs_sqlite"]
        lines.append(f"PostgreSQL / SQLite: rebuild {pv['rebuild']:.2f}, one new game {pv['new_game']:.2f}")
    else:
        lines.append("PostgreSQL not configured (COIMBRA_TEST_POSTGRES): SQLite only")
    for t in result["targets"].values():
        lines.append(f"{t['what']}: {t['value']:.4g} (target ≤ {t['target']:g}): {'PASS' if t['pass'] else 'FAIL'}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in the archive (default 10,000)")
    parser.add_argument("--repeat", type=int, default=5, help="new games timed one by one, the best counts (default 5)")
    parser.add_argument("--passes", type=int, default=3, help="interleaved passes of (a), the best counts (default 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    result = measure(max(1, args.games), max(1, args.repeat), max(1, args.passes))
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
