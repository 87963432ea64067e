"""``record`` without a game offers the unfinished ones first, through the use case every front-end
calls (``Games.unfinished``: ``coimbra serve`` offers the same)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.record_command import OFFERED, record_session
from coimbra_events.catalog import standin_catalog
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from tests.store.conftest import GAMES
from tests.test_record import ScriptIo
from coimbra_events import log_reader

PLAYERS = [("Ana", "red"), ("Bruno", "blue")]


@pytest.fixture
def club(tmp_path: Path):
    with Games(lambda: GameStore(tmp_path / "games.sqlite")) as games:
        games.import_log(log_reader.read(GAMES[0]), "finished")
        for name in ("older", "newer"):
            games.new_game(PLAYERS, standin_catalog(), name=name)
        yield games


def test_unfinished_lists_the_games_in_progress_most_recent_first(club):
    assert [i.name for i in club.unfinished()] == ["newer", "older"]
    assert [i.name for i in club.unfinished(limit=1)] == ["newer"]


def test_record_without_a_game_offers_the_unfinished_ones_first(club):
    script = ScriptIo(["7", "2"])  # a number out of range is asked again; 2 resumes "older"
    assert record_session(club, script, None) == 0
    text = script.text
    assert "Unfinished games (resume one, or start a new game):" in text
    assert text.index("1. newer") < text.index("2. older") and ". finished:" not in text
    assert "'7': a number from 1 to 2, or an empty line" in text and "coimbra record older" in text
    assert [i.name for i in club.games()] == ["finished", "older", "newer"]  # nothing new


def test_an_empty_line_starts_a_new_game_and_players_skip_the_offer(club):
    script = ScriptIo(["", "Carla green", "Duarte white", ""])
    record_session(club, script, None)
    assert "Unfinished games" in script.text and "new game carla-duarte" in script.text
    direct = ScriptIo([])
    record_session(club, direct, None, players=PLAYERS)
    assert "Unfinished games" not in direct.text and OFFERED == 9
