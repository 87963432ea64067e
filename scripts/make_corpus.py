"""Write the golden corpus: 300-odd recorded games and a golden file for each.

Run from the repository root: ``python scripts/make_corpus.py``. The same code
always writes the same bytes (every choice comes from a seeded generator, every
time stamp from the entry's number), so running it again on an unchanged engine
changes nothing; ``--check`` says whether that holds, without writing.

The games (``fixtures/corpus/games.tar.xz``):

* ``sim-Np-SSS``: whole games of seeded bots and a seeded table, 2 to 4 players;
* ``rec-Np-SSS``: games recorded the way a table records them, with undos (and
  another choice after them), corrections of recent entries, moves the table
  accepted against a rule, notes and bookmarks, each entry stamped with when and
  by whom it was entered;
* ``fork-Np-SSS``: a simulated game forked at some entry and played on with other
  rolls and choices, its lineage in the header.

Golden files (``fixtures/corpus/golden/NAME.json``, see ``tests/golden.py``) are
written for these and for the schema-1 games of ``fixtures/games``. The corpus is
then frozen like every fixture: regenerate it only to add games, or when a rules
change is meant to change what the games give, and then say so (a new ruleset id,
``coimbra_events/rulesets.py``).
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import tarfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from make_fixtures import CASES  # noqa: E402  (candidates for moves that break a given rule)

from coimbra_events import log as game_log, log_reader  # noqa: E402
from coimbra_events.catalog import Catalog, find_catalog  # noqa: E402
from coimbra_events.events import Corrected  # noqa: E402
from coimbra_events.game import Game, NothingToOverride  # noqa: E402
from coimbra_events.history import OVERRIDABLE, replay, resolve  # noqa: E402
from coimbra_events.log import GameLog  # noqa: E402
from coimbra_events.rules.core import check, legal  # noqa: E402
from coimbra_events.rules.outcomes import OutcomeSpace  # noqa: E402
from coimbra_events.simulator import DEFAULT_PLAYERS, next_event, simulate  # noqa: E402
from coimbra_events.state import TABLE  # noqa: E402
from coimbra_events.violations import RuleViolation  # noqa: E402
from tests.golden import ARCHIVE, GOLDEN, SCHEMA_1_GAMES, dumps, golden_of  # noqa: E402

SIMULATED, RECORDED, FORKED = 70, 25, 10
"""Games of each kind per player count (2, 3 and 4)."""
GENERATOR = "scripts/make_corpus.py"
FIRST_ENTRY = datetime(2026, 3, 6, 19, 0, tzinfo=timezone.utc)
DEVICES = ("table laptop", "Ana's phone", "scorekeeper")

BREAKS = [(rule, candidate) for rule, candidate in CASES.values() if rule in OVERRIDABLE]
"""Moves a table can accept against a rule: paying what one lacks, a pilgrim jumping, ..."""


def recorded(catalog: Catalog, players: int, seed: int) -> GameLog:
    """A game recorded at a table, with the record's own history: undos, corrections, accepted breaks, notes."""
    rng = random.Random(f"recorded:{players}:{seed}")
    game = Game.start("g", catalog, DEFAULT_PLAYERS[:players], {"generator": GENERATOR, "seed": seed})
    while not game.over:
        roll = rng.random()
        if roll < 0.015 and game.line.plays:
            game.undo()  # and the bot (or the table) enters something again, maybe something else
        elif roll < 0.03:
            correct_recent(game, rng)
        elif roll < 0.04:
            accept_break(game, rng)
        elif roll < 0.055 and game.line.plays:
            play = rng.choice(game.line.plays)
            game.note(play.seq, f"note {len(game.events) + 1}", bookmark=rng.random() < 0.3)
        else:
            game.record(next_event(game.state, rng))
    return stamped(game.to_log(), rng)


def correct_recent(game: Game, rng: random.Random) -> None:
    """Replace one of the last three plays with another legal one, if no later play becomes illegal by it."""
    plays = game.line.plays[-3:]
    if not plays:
        return
    play = rng.choice(plays)
    before = game.state_before(play.seq)
    options = legal(before)
    other = options.sample(rng) if isinstance(options, OutcomeSpace) else rng.choice(list(options))
    if other == play.event or check(before, other) is not None:
        return
    events = [*game.events, Corrected(TABLE, play.seq), other]
    if replay(game.initial, resolve(events), stop_at_violation=False).skipped:
        return
    game.correct(play.seq, other)


def accept_break(game: Game, rng: random.Random) -> None:
    """Record a move the table accepted against a rule, when one of the kinds a table can accept fits now."""
    for rule, candidate in rng.sample(BREAKS, len(BREAKS)):
        bad = candidate(game.state)
        violation = bad and check(game.state, bad)
        if violation and violation.rule == rule:
            try:
                game.accept(bad, f"the table agreed ({rule})")
            except (NothingToOverride, RuleViolation):
                continue
            return


def forked(catalog: Catalog, players: int, seed: int) -> GameLog:
    """A simulated game's first entries, then another line: other rolls, other choices."""
    parent, _ = simulate(catalog, DEFAULT_PLAYERS[:players], seed)
    rng = random.Random(f"forked:{players}:{seed}")
    at = rng.randint(20, len(parent.events) - 20)
    meta = {"generator": GENERATOR, "parent": f"sim-{players}p-{seed:03d}", "forked_at": at, "rolls": f"seed:{seed + 500}"}
    game = Game.start("g", catalog, DEFAULT_PLAYERS[:players], meta)
    for event in parent.events[:at]:
        game.record(event)
    while not game.over:
        game.record(next_event(game.state, rng))
    return game.to_log()


def stamped(log: GameLog, rng: random.Random) -> GameLog:
    """The log with each entry stamped: a time a few seconds after the last, and one of the table's devices."""
    when, stamps = FIRST_ENTRY, []
    for _ in log.events:
        when += timedelta(seconds=rng.randint(2, 90))
        stamps.append((when.strftime("%Y-%m-%dT%H:%M:%SZ"), rng.choice(DEVICES)))
    return log.with_events(log.events, stamps)


def corpus(catalog: Catalog) -> dict[str, GameLog]:
    """Every generated game of the corpus, by name."""
    games: dict[str, GameLog] = {}
    for players in (2, 3, 4):
        for seed in range(1, SIMULATED + 1):
            log, _ = simulate(catalog, DEFAULT_PLAYERS[:players], seed)
            games[f"sim-{players}p-{seed:03d}"] = log
        for seed in range(1, RECORDED + 1):
            games[f"rec-{players}p-{seed:03d}"] = recorded(catalog, players, seed)
        for seed in range(1, FORKED + 1):
            games[f"fork-{players}p-{seed:03d}"] = forked(catalog, players, seed)
    return dict(sorted(games.items()))


def archive_bytes(games: dict[str, GameLog]) -> bytes:
    """The games as canonical logs in one xz-compressed tar, with no time, owner or order that could vary."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:xz", preset=9) as archive:
        for name, log in games.items():
            data = game_log.dumps(log)
            member = tarfile.TarInfo(f"{name}.json")
            member.size, member.mode, member.mtime = len(data), 0o644, 0
            archive.addfile(member, io.BytesIO(data))
    return out.getvalue()


def outputs() -> dict[Path, bytes]:
    """Every file the corpus consists of, and its bytes."""
    games = corpus(find_catalog("standin-1"))  # the catalog the frozen corpus was made on, not new games' default
    files = {ARCHIVE: archive_bytes(games)}
    for path in sorted(SCHEMA_1_GAMES.glob("*.json")):
        games[path.stem] = log_reader.read(path)
    for name, log in games.items():
        files[GOLDEN / f"{name}.json"] = dumps(golden_of(log))
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the files on disk are what would be written")
    args = parser.parse_args(argv)
    files = outputs()
    if args.check:
        stale = [p for p, data in files.items() if not p.exists() or p.read_bytes() != data]
        extra = sorted(set(GOLDEN.glob("*.json")) - set(files))
        for path in stale + extra:
            print(f"differs: {path.relative_to(ROOT)}")
        return 1 if stale or extra else 0
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for path, data in files.items():
        path.write_bytes(data)
    print(f"wrote {len(files) - 1} golden files and {ARCHIVE.relative_to(ROOT)} ({len(files[ARCHIVE]) // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
