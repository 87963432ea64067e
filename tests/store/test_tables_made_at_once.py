"""Two processes opening a new store at the same moment both create its tracked tables (the games index's and
the league's). The library reads a tracking table's migration row before the transaction that creates the tables,
so the second creator inserts that row again; it must then find the tables made and go on, not fail to open.

Each case forces that order with a real SQLite file: the second view's reading of the migration row is answered
"no table yet", after the first view has made the tables."""

from __future__ import annotations

from pathlib import Path

import pytest
from eventsourcing.persistence import OperationalError
from eventsourcing.sqlite import SQLiteDatastore

from coimbra_events.store.games_view import SQLiteGamesView
from projections.league.view import SQLiteLeagueView


def _late(view_class: type) -> type:
    """The view, made to read the migration row before another process makes the tables."""

    class Late(view_class):  # type: ignore[misc, valid-type]
        other: object = None

        def max_tracking_id(self, application_name: str) -> int | None:
            if self.other is not None:
                self.other.create_table()  # the other process, between this one's reading and its creating
                self.other = None
                raise OperationalError("no such table")  # what this one read before the tables were made
            return super().max_tracking_id(application_name)

    return Late


@pytest.mark.parametrize("view_class", [SQLiteGamesView, SQLiteLeagueView], ids=["games index", "league"])
def test_the_second_of_two_creators_finds_the_tables_made(view_class: type, tmp_path: Path) -> None:
    path = str(tmp_path / "club.sqlite")
    first, second = SQLiteDatastore(db_name=path), SQLiteDatastore(db_name=path)
    late = _late(view_class)(datastore=second)
    late.other = view_class(datastore=first)
    late.create_table()
    assert late.max_tracking_id(late.table_migration_identifier) == 1
    assert late.max_tracking_id("coimbra") is None
