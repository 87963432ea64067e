"""The golden corpus replays as pinned, and a change to one value or one rule of the engine shows in it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from coimbra_events import log_reader
from coimbra_events.catalog import find_catalog
from tests.golden import ROOT, check_corpus, corpus_games, differences

GAMES = dict(corpus_games())


def test_the_corpus_has_300_games_of_every_kind():
    logs = {name: log_reader.loads(data, name) for name, data in GAMES.items()}
    assert len(logs) >= 300
    assert Counter(len(log.players) for log in logs.values()).keys() == {2, 3, 4}
    kinds = Counter(name.split("-")[0] for name in logs)
    assert kinds["sim"] >= 200 and kinds["rec"] >= 60 and kinds["fork"] >= 30 and kinds["standin"] == 3
    history = Counter(e.TYPE for log in logs.values() for e in log.events)
    assert all(history[t] >= 50 for t in ("Corrected", "Retracted", "RuleOverridden", "Noted", "Bookmarked")), history
    assert sum(1 for log in logs.values() if log.stamps) >= 60  # schema 2: entries that say when and by whom
    assert sum(1 for log in logs.values() if log.upcast_from == 1) == 3  # schema 1, upcast as they are read
    assert all(log.meta.get("parent") and log.meta.get("forked_at") for name, log in logs.items() if name.startswith("fork"))


def test_every_game_replays_to_its_golden_file():
    found = check_corpus()
    assert not found, "\n".join(found[:10])


def test_a_changed_income_value_is_caught():
    """One entry of the income table (gray track, space 2) pays one more: a game's table differs from there."""
    table = find_catalog("standin-1")._income_table["gray"]  # the catalog the corpus's logs name
    base, bonus = table[2]
    table[2] = (base + 1, bonus)
    try:
        caught = next((found for name, data in GAMES.items() if (found := differences(name, data))), [])
    finally:
        table[2] = (base, bonus)
    assert any("the table first differs" in d for d in caught), caught


SCORING = "coimbra_events/rules/scoring.py"
LEFTOVER = "    return coins + guards\n"


def test_a_changed_scoring_rule_is_caught(tmp_path: Path):
    """The engine's own source, with the end-game rule for left-over coins and guards giving one point more,
    run from a copy in the pure-Python build: the corpus check fails, naming a game's scores."""
    for package in ("coimbra_events", "projections", "tests"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("*.so", "_compiled.json", "__pycache__"))
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")
    scoring = tmp_path / SCORING
    source = scoring.read_text()
    assert source.count(LEFTOVER) == 1, "the mutation no longer applies: choose another line of the scoring rules"
    scoring.write_text(source.replace(LEFTOVER, "    return coins + guards + 1\n"))
    done = subprocess.run([sys.executable, "-m", "tests.golden", "--first"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "COIMBRA_PURE": "1", "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "scores was" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("name", ["sim-2p-001", "rec-4p-001", "fork-3p-001", "standin-3p-seed2"])
def test_a_golden_file_names_where_a_game_went_another_way(name):
    """Replaying another game against a golden file says which phase first differs."""
    players = len(log_reader.loads(GAMES[name]).players)
    other = next(n for n in GAMES if n != name and len(log_reader.loads(GAMES[n]).players) == players)
    found = differences(name, GAMES[other])
    assert found and any("the table first differs" in d for d in found)
