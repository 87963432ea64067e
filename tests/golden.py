"""The golden corpus: recorded games and what the rules made of each, pinned.

``fixtures/corpus/games.tar.xz`` holds the games (canonical logs, compressed: their
hash chains do not compress, and 300 games are 9 MB of them), the schema-1 games
of ``fixtures/games`` count too, and ``fixtures/corpus/golden/NAME.json`` holds for
each game its final scores by source and the digest of the table at every phase
boundary (``state_codec.digest``, the same in the compiled and the pure-Python
build). ``scripts/make_corpus.py`` writes them; ``tests/test_golden.py`` replays
every game and compares. A change to what the rules compute shows as a changed
golden file, naming the game and the first phase where the table differs.
"""

from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Any, Iterator

import orjson

from coimbra_events import log_reader
from coimbra_events.log import SCHEMA, GameLog
from coimbra_events.state_codec import digest
from projections.scores import score_report
from projections.timeline import timeline

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "corpus"
ARCHIVE = CORPUS / "games.tar.xz"
GOLDEN = CORPUS / "golden"
SCHEMA_1_GAMES = ROOT / "fixtures" / "games"
DIGEST_LENGTH = 16
"""Hex digits of a state digest kept in a golden file (64 bits: a change cannot hide in a collision)."""


def corpus_games() -> Iterator[tuple[str, bytes]]:
    """Every game of the corpus, by name: the archive's, then the schema-1 fixtures."""
    with tarfile.open(ARCHIVE, "r:xz") as archive:
        for member in archive.getmembers():
            data = archive.extractfile(member)
            assert data is not None
            yield member.name.removesuffix(".json"), data.read()
    for path in sorted(SCHEMA_1_GAMES.glob("*.json")):
        yield path.stem, path.read_bytes()


def golden_of(log: GameLog) -> dict[str, Any]:
    """What the rules make of a game: its final scores by source, and the table at each phase boundary.

    The game is validated and folded into every state (``projections.timeline``);
    a phase boundary is each entry after which the round or phase differs from
    the entry before (state 0, before any entry, is the first).
    """
    line = timeline(log)
    phases = []
    previous = None
    for k, state in enumerate(line.states):
        where = (state.round, state.phase)
        if where != previous:
            phases.append([state.round, state.phase, k, digest(state)[:DIGEST_LENGTH]])
            previous = where
    report = score_report(line.final)
    return {
        "schema": log.upcast_from or SCHEMA,
        "players": len(log.players),
        "entries": len(log.events),
        "over": line.final.over,
        "scores": [{k: p[k] for k in ("name", "place", "total", "sources")} for p in report["players"]],
        "final": digest(line.final)[:DIGEST_LENGTH],
        "phases": phases,
    }


def dumps(golden: dict[str, Any]) -> bytes:
    """A golden file: one key per line, the phases one per line, so a change diffs to the phase it is in."""
    lines = [b"{"]
    for key, value in golden.items():
        if key == "phases":
            rows = b",\n    ".join(orjson.dumps(p) for p in value)
            lines.append(b'  "phases": [\n    ' + rows + b"\n  ]")
        else:
            lines.append(b'  "%s": %s,' % (key.encode(), orjson.dumps(value)))
    return b"\n".join(lines) + b"\n}\n"


def differences(name: str, data: bytes) -> list[str]:
    """How a game's replay differs from its golden file (nothing when it matches)."""
    path = GOLDEN / f"{name}.json"
    if not path.exists():
        return [f"{name}: no golden file {path.relative_to(ROOT)}"]
    expected = orjson.loads(path.read_bytes())
    got = golden_of(log_reader.loads(data, name))
    found = []
    for key in expected.keys() | got.keys():
        if key == "phases":
            continue
        if expected.get(key) != got.get(key):
            found.append(f"{name}: {key} was {expected.get(key)!r}, now {got.get(key)!r}")
    for before, now in zip(expected["phases"], got["phases"]):
        if before != now:
            found.append(f"{name}: the table first differs at round {before[0]} phase {before[1]} "
                         f"(entry {before[2]}): was {before}, now {now}")
            break
    else:
        if len(expected["phases"]) != len(got["phases"]):
            found.append(f"{name}: {len(expected['phases'])} phase boundaries, now {len(got['phases'])}")
    return found


def check_corpus(first: bool = False) -> list[str]:
    """Every difference between the corpus's replays and its golden files (only the first game's, if ``first``)."""
    found: list[str] = []
    for name, data in corpus_games():
        found += differences(name, data)
        if first and found:
            break
    return found


if __name__ == "__main__":  # ``python -m tests.golden [--first]``: the mutation test runs it on a changed engine
    import sys

    problems = check_corpus(first="--first" in sys.argv)
    print("\n".join(problems[:5]) or "every game matches its golden file")
    sys.exit(1 if problems else 0)
