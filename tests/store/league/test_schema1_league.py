"""The league reads a store written by the schema-1 code (``fixtures/stores``) through the library's upcasting."""

from __future__ import annotations

import shutil

import pytest
from eventsourcing.utils import get_topic

from coimbra_events.store.game_store import GameStore
from coimbra_events.game import Game
from projections.league.projection import open_league
from projections.league.reports import standings
from tests.conftest import FIXTURES
from tests.store.league import brute


@pytest.fixture
def old(tmp_path):
    path = tmp_path / "schema1.sqlite"
    shutil.copy(FIXTURES / "stores" / "schema1.sqlite", path)
    store = GameStore(path)
    yield store
    store.close()


def test_old_rows_are_read_with_the_fields_their_upcasters_give(old):
    league = open_league(old)
    recorded = get_topic(Game.Recorded)
    rows = [r for r in old.recorder.select_notifications(0, 10_000) if r.topic == recorded]
    assert rows and all(b"class_version" not in bytes(r.state) for r in rows)
    fields = league.decode(recorded, str(rows[0].originator_id), rows[0].originator_version, bytes(rows[0].state))
    assert (fields["at"], fields["by"]) == (None, None)  # what Recorded.upcast_v1_v2 adds


def test_the_standings_of_an_old_store_are_those_of_its_exported_games(old):
    league = open_league(old)
    league.catch_up()
    finished = [i.name for i in old.games() if i.status == "over" and i.parent is None]
    assert finished
    games = brute.results([(n, old.export(n)) for n in finished])
    with league.view.reading() as tables:
        assert brute.reported(standings(tables), {}) == brute.standings(games, {})
