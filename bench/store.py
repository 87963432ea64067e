"""Benchmark of the store's paths: reading a game, stepping through it, importing it.

In one process, the fixture games (``fixtures/games/*.json``) are imported into a
temporary SQLite file with ``Games.import_log`` (the application, as ``coimbra
import`` runs it), and a plain copy of each is
saved beside them. Then, each the best of N interleaved passes over all games, every
other pass in reverse order (``replay.best_times``): ours and theirs share the library's
code, and whichever runs second finds it warm, so each is timed both ways round:

(a) a game's final state read from the store
    * ours: ``Games.open(name).state``, what every command uses (through
      ``GameStore.get``: the name looked up in the register, the events read with
      a plain projector, the rules' ``apply`` folding them; imported games have no
      snapshot, so this is the full read);
    * theirs: ``app.repository.get(id)`` with the library's default projector of
      ``PlainGame``, a minimal ``Aggregate`` whose events carry exactly the same
      fields as ``Game``'s (type, actor, payload, hash, at, by; the same header in
      its created event) and whose ``apply`` only appends them to a list, stored
      in the same file by the same application.
    Target: ours / theirs ≤ 1.0.

(b) every state of a game for step-through (``projections.timeline`` of the
    stored game: one fold that keeps every state) vs one validated fold of the same
    record (``validate``), both from events in memory, for the games as recorded
    and for the same games with 10 undos each (each undo followed by the play
    entered again). Target: timeline / validated ≤ 3, with the undos.

(c) importing one game: ours, ``Games.import_log`` of the parsed log
    (validated by the rules, stored in one transaction with its announced result,
    its name's entry in the register and its head receipt; the games index takes it
    in at the next listing); theirs, the library saving the same events as a
    ``PlainGame`` (no rules, nothing else). Both take each entry's hash from the
    parsed log, whose reader worked the chain out as it checked it. Each pass
    imports into a store of its own that does not hold the games yet (a record a
    store holds already is not stored again: its import reads the held game
    instead), and both save into that same store. Target: ours / theirs ≤ 1.3.

(d) what keeping every entry's changes costs the fold: the timeline of a stored
    game (``projections.timeline``, what every command uses: one fold that narrates
    each event as it applies it, ``fast.narrate``, and keeps every state and
    what the rules told of every entry) vs a states-only fold of the same record
    (the game's log, then every state by ``fast.Fold.apply``: no narration kept), for the
    games as recorded, same run. Target: ≤ 1.5. Putting an entry's changes in the
    table's terms (``Change``s) and in words (``to_json``) happens when a view reads
    them; that is timed too, reported per entry read.

Missing a target is reported, not an error: the script always exits 0 so CI can
collect the figures. Usage: ``python bench/store.py [--repeat N] [--json]``
"""

from __future__ import annotations

import sys
import tempfile
from itertools import accumulate
from pathlib import Path
from typing import Any, Callable, Sequence
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate
from eventsourcing.utils import get_topic

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import harness  # noqa: E402
from replay import best_times  # noqa: E402  (the same interleaved best-of-N timing as the replay benchmark)

from coimbra_events import core_build  # noqa: E402
from coimbra_events.store.game_store import GameStore  # noqa: E402
from coimbra_events.catalog import find_catalog  # noqa: E402
from coimbra_events.game import NAMESPACE, Game  # noqa: E402
from coimbra_events.log import GameLog  # noqa: E402
from coimbra_events.log_reader import read  # noqa: E402
from coimbra_events.rules.core import start  # noqa: E402
from coimbra_events.rules.fast import Fold  # noqa: E402
from coimbra_events.service import Games  # noqa: E402
from coimbra_events.state import GameState  # noqa: E402
from coimbra_events.validation import validate  # noqa: E402
from projections.timeline import timeline  # noqa: E402

GAMES = ROOT / "fixtures" / "games"
TARGET_STORE_RATIO = 1.0
TARGET_TIMELINE_RATIO = 3.0
TARGET_IMPORT_RATIO = 1.3
TARGET_CONSEQUENCES_RATIO = 1.5
UNDOS = 10


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
        at: str | None
        by: str | None

        def apply(self, game: PlainGame) -> None:
            game.events.append((self.type, self.actor, self.payload))

    @classmethod
    def copy_of(cls, name: str, log: GameLog) -> PlainGame:
        """The same created event and the same recorded events as the stored ``Game`` of ``log`` (same fields, values)."""
        plain = cls._create(
            cls.Created, id=plain_id(name), name=name, catalog_id=log.catalog_id, catalog_sha256=log.catalog_sha256,
            catalog_data=None, ruleset=log.ruleset, players=tuple(log.players), meta=dict(log.meta),
        )
        for k, (event, chained) in enumerate(zip(log.events, log.hashes())):
            at, by = log.stamp(k)
            plain.trigger_event(cls.Recorded, type=event.TYPE, actor=event.actor, payload=event.payload(), hash=chained,
                                at=at or None, by=by or None)
        return plain


def plain_id(name: str) -> UUID:
    return uuid5(NAMESPACE, f"bench-plain:{name}")


def with_undos(log: GameLog, undos: int = UNDOS) -> GameLog:
    """The record with ``undos`` undos spread over it, each followed by the play entered again (the same line of play)."""
    game = Game.start("undos", find_catalog(log.catalog_id, log.catalog_sha256), log.players, log.meta, log.ruleset)
    every = len(log.events) // (undos + 1)
    for k, event in enumerate(log.events, 1):
        game.record(event)
        if k % every == 0 and k // every <= undos:
            game.undo()
            game.record(event)
    return game.to_log()


def states_only(game: Game) -> tuple[GameState, ...]:
    """A states-only fold: the opened game's log, then every state by ``Fold.apply`` (the fold the timeline
    makes, one working copy carried from event to event, with nothing narrated and nothing told kept)."""
    log = game.to_log()
    return tuple(accumulate(log.events, Fold().apply, initial=start(game.catalog, log.players)))


def read_all(game: Game, words: bool) -> None:
    """The timeline, and every entry's changes read (what its fold kept, as ``Change``s; ``words``: in words too)."""
    line = timeline(game)
    for k in range(len(line.changes)):
        changes = line.changes[k]
        if words:
            [c.to_json() for c in changes]


def plain_store(path: Path) -> GameStore:
    """A SQLite store that can also hold the benchmark's plain copies (its mapper resolves only coimbra's classes)."""
    store = GameStore(path)
    store.mapper.topics |= {get_topic(PlainGame.Created), get_topic(PlainGame.Recorded)}
    return store


def setup(directory: Path) -> tuple[Games, list[GameLog], list[Game]]:
    """The games of a SQLite store holding every fixture game (through ``import_log``), with 10 undos too, and
    plain copies."""
    app = Games(plain_store(directory / "bench.sqlite"))
    store = app.store
    if store.mapper.cipher is not None or store.mapper.compressor is not None:
        raise SystemExit("bench/store.py reads rows as plain JSON: unset CIPHER_TOPIC / COMPRESSOR_TOPIC")
    if store.repository.cache is not None:
        raise SystemExit("bench/store.py times reads from the database: unset AGGREGATE_CACHE_MAXSIZE")
    logs = [read(path) for path in sorted(GAMES.glob("*.json"))]
    games = [app.import_log(log, f"g{k}").game for k, log in enumerate(logs)]
    undone = [app.import_log(with_undos(log), f"u{k}").game for k, log in enumerate(logs)]
    store.save(*(PlainGame.copy_of(g.name, log) for g, log in zip(games, logs)))
    for game, log in zip(games, logs):  # the readings agree before anything is timed
        stored = app.open(game.name)
        assert stored.state == game.state == validate(log).state and store.evidence(stored).snapshot_version == 0
        plain = store.repository.get(plain_id(game.name))
        assert [(t, a, p) for t, a, p in plain.events] == [(e.TYPE, e.actor, e.payload()) for e in stored.events]
    for game, plain in zip(undone, games):
        assert sum(e.TYPE == "Retracted" for e in game.events) == UNDOS and game.state == plain.state
    return app, logs, games + undone


def runs(app: Games, logs: Sequence[GameLog], games: Sequence[Game],
         fresh: Sequence[Games]) -> dict[str, Callable[[Any], None]]:
    """Every timed run, by name; each takes one pass over all the games (an import pass into the next of
    ``fresh``, the games of stores that do not hold them yet)."""
    plain_ids = [plain_id(g.name) for g in games[: len(logs)]]
    names = [g.name for g in games[: len(logs)]]
    stored = [app.open(g.name) for g in games]
    plain, undone = stored[: len(logs)], stored[len(logs):]
    ours_into, theirs_into = iter(fresh), iter(fresh)
    repository = app.store.repository

    def import_ours(_: Any) -> None:
        into = next(ours_into)
        for k, log in enumerate(logs):
            into.import_log(log, f"i{k}")

    def import_theirs(_: Any) -> None:
        into = next(theirs_into).store
        for k, log in enumerate(logs):  # one transaction per game, as an import is
            into.save(PlainGame.copy_of(f"p{k}", log))

    return {
        "ours: GameStore.get(name).state": lambda _: [app.open(n).state for n in names],
        "theirs: stock repository.get, no rules": lambda _: [repository.get(i) for i in plain_ids],
        "timeline of a stored game": lambda _: [timeline(g) for g in plain],
        "one validated fold": lambda _: [validate(g.to_log()) for g in plain],
        "timeline of a stored game, 10 undos": lambda _: [timeline(g) for g in undone],
        "one validated fold, 10 undos": lambda _: [validate(g.to_log()) for g in undone],
        "ours: import_log (rules, register, receipt)": import_ours,
        "theirs: save the same events, no rules": import_theirs,
        "states-only fold (apply, nothing told kept)": lambda _: [states_only(g) for g in plain],
        "timeline, every entry's changes read": lambda _: [read_all(g, False) for g in plain],
        "timeline, every entry's changes in words": lambda _: [read_all(g, True) for g in plain],
    }


def measure(repeat: int) -> dict[str, Any]:
    """Run the benchmark and return its figures."""
    with tempfile.TemporaryDirectory(prefix="coimbra-bench-") as tmp:
        app, logs, games = setup(Path(tmp))
        fresh = [Games(plain_store(Path(tmp) / f"imports-{k}.sqlite")) for k in range(repeat + 1)]  # and the warm-up's
        try:
            timed = runs(app, logs, games, fresh)
            for run in timed.values():  # warm-up: imports, catalog, interpreter caches
                run(None)
            best = best_times(timed, [], repeat, alternate=True)
        finally:
            for each in (app, *fresh):
                each.close()
    events = sum(len(log.events) for log in logs)
    figures = {name: {"seconds": t, "us_per_event": t / events * 1e6} for name, t in best.items()}

    def target(what: str, ours: str, theirs: str, limit: float) -> dict[str, Any]:
        value = best[ours] / best[theirs]
        return {"what": what, "target": limit, "value": value, "pass": value <= limit}

    per_entry = {what: (best[f"timeline, every entry's changes {what}"] - best["timeline of a stored game"]) / events * 1e6
                 for what in ("read", "in words")}
    return {
        "games": [g.name for g in games],
        "events": events,
        "repeat": repeat,
        "python": sys.version.split()[0],
        "rules_core": core_build(),
        "runs": figures,
        "changes_per_entry_us": per_entry,
        "targets": {
            "store_ratio": target("GameStore.get final state / the library's repository.get",
                                  "ours: GameStore.get(name).state", "theirs: stock repository.get, no rules", TARGET_STORE_RATIO),
            "timeline_ratio": target("timeline / one validated fold, 10 undos per game", "timeline of a stored game, 10 undos",
                                     "one validated fold, 10 undos", TARGET_TIMELINE_RATIO),
            "timeline_plain_ratio": target("timeline / one validated fold, as recorded", "timeline of a stored game",
                                           "one validated fold", TARGET_TIMELINE_RATIO),
            "import_ratio": target("import_log / the library saving the same events", "ours: import_log (rules, register, receipt)",
                                   "theirs: save the same events, no rules", TARGET_IMPORT_RATIO),
            "consequences_ratio": target("timeline (every entry's changes kept) / states-only fold", "timeline of a stored game",
                                         "states-only fold (apply, nothing told kept)", TARGET_CONSEQUENCES_RATIO),
        },
    }


def report(result: dict[str, Any]) -> str:
    """The figures as a small table, then each target with PASS/FAIL."""
    lines = [
        f"{result['events']} events in {len(result['games'])} games (fixtures/games in a SQLite store), "
        f"best of {result['repeat']}; Python {result['python']}, rules core {result['rules_core']}",
        "",
        f"{'run':<46}{'µs/event':>10}",
    ]
    lines += [f"{name:<46}{f['us_per_event']:>10.2f}" for name, f in result["runs"].items()]
    lines.append("")
    lines += [f"an entry's changes, when first read: {us:.2f} µs ({what})" for what, us in result["changes_per_entry_us"].items()]
    lines.append("")
    for t in result["targets"].values():
        lines.append(f"{t['what']}: {t['value']:.2f} (target ≤ {t['target']:g}): {'PASS' if t['pass'] else 'FAIL'}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    return harness.run(argv, __doc__, measure, report, 100, "timed passes per run; the best counts")


if __name__ == "__main__":
    sys.exit(main())
