"""Benchmark of reading games back from the store, and of building every state for step-through.

In one process, the fixture games (``fixtures/games/*.json``) are imported into a
temporary SQLite file with ``GameStore.import_log``. Then, each the best of N
interleaved passes over all games:

(a) rebuilding the final state from the store
    * ours: ``recorder.select_events`` of the game, each row's JSON decoded
      with orjson, the event decoded (``decode_event``), then the rules core's
      ``check`` and ``apply`` for every event: a fully validated rebuild;
    * theirs: ``app.repository.get(id)`` with the library's default projector
      (the stock path: transcoder, mapper, runtime protocol check per event)
      of ``PlainGame``, a minimal ``Aggregate`` whose events carry exactly the
      same fields as ``Game``'s (type, actor, payload, hash; the same header
      in its created event) and whose ``apply`` only appends them to a list.
      The plain copies are stored in the same SQLite file, same application,
      so both sides select the same number of rows of the same size.
    Target: ours / theirs ≤ 1.0. For context, not targets: ``GameStore.get``
    (what the commands use: the game's own projector, each entry's hash
    checked, then the rules' ``check`` and ``apply``, and its latest receipt
    read) and the stock ``repository.get`` of ``Game`` (default projector,
    same folds).

(b) building every state of a game for step-through (``projections.timeline``
    on the opened ``Game``: one fold that keeps all states) vs one validated
    fold of the same events (``validate``, which keeps only the last state);
    both start from events in memory. Target: timeline / validated ≤ 3.
    For context: the timeline of a log file (validated first, then folded).

Missing a target is reported, not an error: the script always exits 0 so CI can
collect the figures. Usage: ``python bench/store.py [--repeat N] [--json]``
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Sequence
from uuid import UUID, uuid5

import orjson
from eventsourcing.domain import Aggregate
from eventsourcing.utils import get_topic

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import harness  # noqa: E402
from replay import best_times  # noqa: E402  (the same interleaved best-of-N timing as the replay benchmark)

from coimbra_events import core_build  # noqa: E402
from coimbra_events.application import GameStore  # noqa: E402
from coimbra_events.events import decode_event  # noqa: E402
from coimbra_events.game import NAMESPACE, Game, resolve_catalog  # noqa: E402
from coimbra_events.log import read  # noqa: E402
from coimbra_events.rules.core import apply, check, initial_state  # noqa: E402
from coimbra_events.state import GameState  # noqa: E402
from coimbra_events.validation import validate  # noqa: E402
from projections.timeline import timeline  # noqa: E402

GAMES = ROOT / "fixtures" / "games"
TARGET_STORE_RATIO = 1.0
TARGET_TIMELINE_RATIO = 3.0


class PlainGame(Aggregate):
    """A game's stored facts with nothing done to them: the library's own reconstruction, without rules."""

    class Created(Aggregate.Created):
        name: str
        catalog_id: str
        catalog_sha256: str
        catalog_data: dict | None
        ruleset: str
        players: tuple
        meta: dict

        def apply(self, game: PlainGame) -> None:
            game.events = []

    class Recorded(Aggregate.Event):
        type: str
        actor: str
        payload: dict
        hash: str

        def apply(self, game: PlainGame) -> None:
            game.events.append((self.type, self.actor, self.payload))

    @classmethod
    def copy_of(cls, game: Game) -> PlainGame:
        """The same created event and the same recorded events as ``game`` (same fields, same values)."""
        h = game.header
        plain = cls._create(
            cls.Created, id=plain_id(game.name), name=game.name, catalog_id=h.catalog_id, catalog_sha256=h.catalog_sha256,
            catalog_data=None, ruleset=h.ruleset, players=tuple(h.players), meta=dict(h.meta),
        )
        for event, chained in zip(game.events, game.hashes):
            plain.trigger_event(cls.Recorded, type=event.TYPE, actor=event.actor, payload=event.payload(), hash=chained)
        return plain


def plain_id(name: str) -> UUID:
    return uuid5(NAMESPACE, f"bench-plain:{name}")


def validated_rebuild(store: GameStore, game_id: UUID) -> GameState:
    """Ours: the stored rows of one game, decoded and folded with ``check`` + ``apply`` for every event."""
    rows = store.recorder.select_events(game_id)
    head = orjson.loads(rows[0].state)
    catalog = resolve_catalog(head["catalog_id"], head["catalog_sha256"], head["catalog_data"])
    state = initial_state(catalog, [(n, c) for n, c in head["players"]])
    for row in rows[1:]:
        fields = orjson.loads(row.state)
        event = decode_event(fields["type"], fields["actor"], fields["payload"])
        violation = check(state, event)
        if violation is not None:
            raise violation
        state = apply(state, event)
    return state


def setup(directory: Path) -> tuple[GameStore, list[Game]]:
    """A SQLite store holding every fixture game (through ``import_log``) and its plain copy."""
    store = GameStore(directory / "bench.sqlite")
    # The plain copies are the benchmark's own class: the store's mapper resolves only coimbra's.
    store.mapper.topics |= {get_topic(PlainGame.Created), get_topic(PlainGame.Recorded)}
    if store.mapper.cipher is not None or store.mapper.compressor is not None:
        raise SystemExit("bench/store.py reads rows as plain JSON: unset CIPHER_TOPIC / COMPRESSOR_TOPIC")
    if store.repository.cache is not None or store.snapshots is not None:
        raise SystemExit("bench/store.py times full reads: unset AGGREGATE_CACHE_MAXSIZE / IS_SNAPSHOTTING_ENABLED")
    games = [store.import_log(read(path), path.stem, source=str(path)) for path in sorted(GAMES.glob("*.json"))]
    store.save(*(PlainGame.copy_of(g) for g in games))
    for game in games:  # the three readings agree before anything is timed
        stored = store.get(game.name)
        assert validated_rebuild(store, game.id) == stored.state == game.state
        plain = store.repository.get(plain_id(game.name))
        assert [(t, a, p) for t, a, p in plain.events] == [(e.TYPE, e.actor, e.payload()) for e in stored.events]
    return store, games


def runs(store: GameStore, games: Sequence[Game]) -> dict[str, Callable[[Any], None]]:
    """Every timed run, by name; each takes one pass over all the games."""
    ids = [g.id for g in games]
    plain_ids = [plain_id(g.name) for g in games]
    names = [g.name for g in games]
    logs = [g.to_log() for g in games]

    return {
        "ours: validated rebuild from the store": lambda _: [validated_rebuild(store, i) for i in ids],
        "theirs: stock repository.get, no rules": lambda _: [store.repository.get(i) for i in plain_ids],
        "GameStore.get (hash, check, apply, receipt)": lambda _: [store.get(n) for n in names],
        "stock repository.get of Game": lambda _: [store.repository.get(i) for i in ids],
        "timeline of a stored game": lambda _: [timeline(g) for g in games],
        "one validated fold": lambda _: [validate(log) for log in logs],
        "timeline of a log (validate + fold)": lambda _: [timeline(log) for log in logs],
    }


def measure(repeat: int) -> dict[str, Any]:
    """Run the benchmark and return its figures."""
    with tempfile.TemporaryDirectory(prefix="coimbra-bench-") as tmp:
        store, games = setup(Path(tmp))
        try:
            timed = runs(store, games)
            for run in timed.values():  # warm-up: imports, catalog, interpreter caches
                run(None)
            best = best_times(timed, [], repeat)
        finally:
            store.close()
    events = sum(len(g.events) for g in games)
    figures = {name: {"seconds": t, "us_per_event": t / events * 1e6} for name, t in best.items()}
    store_ratio = best["ours: validated rebuild from the store"] / best["theirs: stock repository.get, no rules"]
    timeline_ratio = best["timeline of a stored game"] / best["one validated fold"]
    return {
        "games": [g.name for g in games],
        "events": events,
        "repeat": repeat,
        "python": sys.version.split()[0],
        "rules_core": core_build(),
        "runs": figures,
        "targets": {
            "store_ratio": {"what": "ours / theirs", "target": TARGET_STORE_RATIO, "value": store_ratio,
                            "pass": store_ratio <= TARGET_STORE_RATIO},
            "timeline_ratio": {"what": "timeline / one validated fold", "target": TARGET_TIMELINE_RATIO,
                               "value": timeline_ratio, "pass": timeline_ratio <= TARGET_TIMELINE_RATIO},
        },
    }


def report(result: dict[str, Any]) -> str:
    """The figures as a small table, then each target with PASS/FAIL."""
    lines = [
        f"{result['events']} events in {len(result['games'])} games (fixtures/games in a SQLite store), "
        f"best of {result['repeat']}; Python {result['python']}, rules core {result['rules_core']}",
        "",
        f"{'run':<42}{'µs/event':>10}",
    ]
    lines += [f"{name:<42}{f['us_per_event']:>10.2f}" for name, f in result["runs"].items()]
    lines.append("")
    for t in result["targets"].values():
        lines.append(f"{t['what']}: {t['value']:.2f} (target ≤ {t['target']:g}): {'PASS' if t['pass'] else 'FAIL'}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    return harness.run(argv, __doc__, measure, report, 100, "timed passes per run; the best counts")


if __name__ == "__main__":
    sys.exit(main())
