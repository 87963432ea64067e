"""The library's contract for tracking recorders (``eventsourcing.tests.persistence.TrackingRecorderTestCase``), run
against every tracking recorder the project defines: the games index's view in memory, in SQLite and in PostgreSQL,
and the league's views in SQLite and PostgreSQL, with single-row tracking (the library's default) and with
``SINGLE_ROW_TRACKING=n``, each built by the library's own factory the way ``ProjectionRunner`` builds one
(``TRACKING_RECORDER_TOPIC``)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import TrackingRecorder
from eventsourcing.tests.persistence import TrackingRecorderTestCase
from eventsourcing.utils import get_topic

from coimbra_events import log_reader
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.games_view import POPOGamesView, SQLiteGamesView
from projections.league.view import SQLiteLeagueView
from tests.store.conftest import GAMES

GAMES_VIEW_PG = "coimbra_events.store.postgres_games_view:PostgresGamesView"
LEAGUE_VIEW_PG = "projections.league.postgres_view:PostgresLeagueView"


class _ByTheFactory(TrackingRecorderTestCase):
    """A recorder built by a store's factory from ``TRACKING_RECORDER_TOPIC``, in a fresh store."""

    __test__ = False
    topic: str = ""
    single_row = "y"

    def store_env(self) -> dict[str, str]:
        folder = tempfile.mkdtemp(prefix="coimbra-tracking-")
        self.addCleanup(shutil.rmtree, folder, ignore_errors=True)
        return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(Path(folder) / "games.sqlite")}

    def create_recorder(self) -> TrackingRecorder:
        store = GameStore(env={**self.store_env(), "SINGLE_ROW_TRACKING": self.single_row, "TRACKING_RECORDER_TOPIC": self.topic})
        self.addCleanup(store.close)
        recorder = store.factory.tracking_recorder()
        assert get_topic(type(recorder)) == self.topic
        return recorder


class _OnPostgres(_ByTheFactory):
    __test__ = False

    @pytest.fixture(autouse=True)
    def _schema(self, postgres_env: dict[str, str]) -> None:
        self.env = postgres_env

    def store_env(self) -> dict[str, str]:
        return dict(self.env)


GAP = pytest.mark.xfail(strict=True, reason="with SINGLE_ROW_TRACKING=n the library's tracking table keeps a row per "
                        "notification and does not refuse one below the latest (its own recorders neither: the Library "
                        "cases); the rest of its contract holds")


def _insert_tracking() -> Any:
    def test_insert_tracking(self: TrackingRecorderTestCase) -> None:
        TrackingRecorderTestCase.test_insert_tracking(self)

    return test_insert_tracking


def _cases() -> dict[str, type]:
    cases: dict[str, type] = {}
    kinds = (("GamesView", get_topic(SQLiteGamesView), GAMES_VIEW_PG), ("LeagueView", get_topic(SQLiteLeagueView), LEAGUE_VIEW_PG),
             ("Library", "eventsourcing.sqlite:SQLiteTrackingRecorder", "eventsourcing.postgres:PostgresTrackingRecorder"))
    for single in ("y", "n"):
        for what, sqlite, postgres in kinds:
            if what == "Library" and single == "y":
                continue  # the library runs its own recorders against the case
            body: dict[str, Any] = {"__test__": True, "single_row": single}
            if single == "n":  # marked on a function of its own: a mark on the library's would mark every case
                body["test_insert_tracking"] = GAP(_insert_tracking())
            suffix = "MultiRow" if single == "n" else ""
            cases[f"Test{what}SQLite{suffix}"] = type(f"Test{what}SQLite{suffix}", (_ByTheFactory,), {**body, "topic": sqlite})
            cases[f"Test{what}Postgres{suffix}"] = type(f"Test{what}Postgres{suffix}", (_OnPostgres,), {
                **body, "topic": postgres, "pytestmark": [pytest.mark.postgres]})
    return cases


globals().update(_cases())


class TestGamesViewPOPO(TrackingRecorderTestCase):
    def create_recorder(self) -> TrackingRecorder:
        return POPOGamesView()


@pytest.mark.parametrize("single_row", ["y", "n"])
def test_the_games_index_is_not_built_again_at_the_second_open(tmp_path: Path, single_row: str) -> None:
    env: dict[str, Any] = {"SINGLE_ROW_TRACKING": single_row}
    store = GameStore(tmp_path / "games.sqlite", env=env)
    Games(store).import_log(log_reader.read(GAMES[0]), "g")
    assert store.games_index_caught_up() > 0 and [i.name for i in store.games()] == ["g"]
    store.close()
    again = GameStore(tmp_path / "games.sqlite", env=env)
    try:
        assert again.games_index_caught_up() == 0  # nothing read again: the index was kept
        assert [i.name for i in again.games()] == ["g"]
    finally:
        again.close()
