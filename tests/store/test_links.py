"""A table's links survive a restart: the application keeps each game's keys beside its store, its owner's only."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from coimbra_events.service import Games
from coimbra_events.store.links import digest


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's data folder (platformdirs reads ``$XDG_DATA_HOME`` on Linux): a temporary one, never the tester's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def kept_files(games: Games, data_home: Path, tmp_path: Path) -> list[Path]:
    """The files holding keys: beside a SQLite file, else in the user's data folder."""
    return sorted((tmp_path / "games.sqlite.links").glob("*.json")) + sorted((data_home / "coimbra").rglob("*.json"))


def test_the_keys_are_kept_per_game_and_renewed_on_demand(games: Games, data_home: Path, tmp_path: Path) -> None:
    game = games.new_game([("Ana", "red"), ("Bruno", "blue")], name="kept").name
    other = games.new_game([("Carla", "red"), ("Dino", "blue")], name="other").name
    first = games.table_keys(game)
    if games.store.location == "memory":  # nothing is kept: every table has new keys
        assert games.table_keys(game).players != first.players and not kept_files(games, data_home, tmp_path)
        return
    again = Games(games.store).table_keys(game)  # as a restarted server asks
    assert again == first and len({first.players, first.watchers, games.table_keys(other).players}) == 3
    renewed = games.table_keys(game, renew=True)
    assert {renewed.players, renewed.watchers}.isdisjoint({first.players, first.watchers}) and renewed.id != first.id
    assert renewed.replaced[:2] == (digest(first.players), digest(first.watchers))
    assert first.players not in str(renewed.replaced)
    assert games.table_keys(game) == renewed


def test_kept_keys_are_readable_by_their_owner_only(games: Games, data_home: Path, tmp_path: Path) -> None:
    if games.store.location == "memory":
        pytest.skip("a store in memory keeps no keys")
    games.table_keys(games.new_game([("Ana", "red"), ("Bruno", "blue")], name="private").name)
    files = kept_files(games, data_home, tmp_path)
    if games.store.location.startswith("PostgreSQL"):  # in the store's tables: tests/store/test_keeping_postgres.py
        assert files == []
        return
    assert len(files) == 1 and files[0].stem == str(games.open("private").id)
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600 and stat.S_IMODE(files[0].parent.stat().st_mode) == 0o700


def test_the_organisers_key_is_kept_with_the_tables_and_renewed_on_demand(games: Games, data_home: Path,
                                                                           tmp_path: Path) -> None:
    first = games.organiser_key()
    table = games.table_keys(games.new_game([("Ana", "red"), ("Bruno", "blue")], name="table").name)
    assert first.organiser not in (table.players, table.watchers)
    if games.store.location == "memory":
        assert games.organiser_key() != first
        return
    assert Games(games.store).organiser_key() == first  # as a restarted server asks
    renewed = games.organiser_key(renew=True)
    assert renewed.organiser != first.organiser and renewed.replaced[0] == digest(first.organiser)
    assert games.organiser_key() == renewed and games.table_keys("table") == table
    in_files = set() if games.store.location.startswith("PostgreSQL") else {"organiser", str(games.open("table").id)}
    assert {p.stem for p in kept_files(games, data_home, tmp_path)} == in_files  # PostgreSQL: in the store's tables


def test_a_table_the_organiser_starts_carries_the_evenings_tag_and_its_seats(games: Games) -> None:
    players = [("Ana", "red"), ("Bruno", "blue"), ("Carla", "yellow")]
    entered = games.start_table(players, tag="club-night")
    assert list(entered.tags) == ["club-night"] and list(entered.header.players) == players
    orders = {tuple(games.start_table(players, drawn=True).header.players) for _ in range(12)}
    assert all(sorted(o) == sorted(players) for o in orders) and len(orders) > 1  # 12 draws of 6 orders: all alike 1 in 6**11
    with pytest.raises(Exception, match="tag 'two words'"):
        games.start_table(players, tag="two words")
    assert len(games.games()) == 13  # the refused tag stored no game
