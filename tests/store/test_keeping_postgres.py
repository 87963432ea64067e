"""On PostgreSQL a served table's keys and seat claims live in the store (``store.postgres_keeping``): every
process on it holds the same ones, two claims of one seat at once are decided once, and what a file kept
before (the user's data folder) is taken over the first time, so an upgrade keeps every club's links."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from coimbra_events.service import Claimed, Games, Taken
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.links import digest, links_folder, organiser_key, table_keys
from coimbra_events.store.postgres_keeping import TABLES
from coimbra_events.store.seat_claims import seat_file
from tests.store.conftest import postgres_env, postgres_server  # noqa: F401  (fixtures)

PLAYERS = [("Ana", "red"), ("Bruno", "blue")]


@pytest.fixture
def two(postgres_env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Games, Games]:
    """Two applications on one PostgreSQL store, each with its own connections, as two server processes hold it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("COIMBRA_DB", raising=False)
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.postgres")
    stores = [GameStore(env=postgres_env), GameStore(env=postgres_env)]
    yield Games(stores[0]), Games(stores[1])
    for store in stores:
        store.close()


def test_keys_and_claims_made_through_one_process_hold_on_the_other(two: tuple[Games, Games], tmp_path: Path) -> None:
    one, other = two
    name = one.new_game(PLAYERS, name="shared").name
    keys = one.table_keys(name)
    assert other.table_keys(name) == keys
    assert one.phone(name, "phone-of-ana-0000").claim("Ana") == Claimed("Ana")
    assert other.phone(name, "phone-of-ana-0000").held == ("Ana",)
    assert isinstance(other.phone(name, "phone-of-bruno-000").claim("Ana"), Taken)
    renewed = other.table_keys(name, renew=True)
    assert one.table_keys(name) == renewed != keys
    assert other.phone(name, "phone-of-ana-0000").release("Ana") and one.phone(name, "phone-of-ana-0000").held == ()
    organiser = one.organiser_key()
    assert other.organiser_key() == organiser and other.organiser_key(renew=True) == one.organiser_key() != organiser
    assert not list((tmp_path / "data").rglob("*")), "nothing is kept in files any more"


def test_two_claims_of_one_seat_at_once_are_decided_once(two: tuple[Games, Games]) -> None:
    one, other = two
    for k in range(8):
        name = one.new_game(PLAYERS, name=f"race-{k}").name
        assert one.phone(name, "phone-of-bruno-000").claim("Bruno") == Claimed("Bruno")  # the game's claims are kept
        start, answers = threading.Barrier(2), []

        def claim(games: Games, device: str) -> None:
            phone = games.phone(name, device)
            start.wait()
            answers.append(phone.claim("Ana"))

        threads = [threading.Thread(target=claim, args=(g, f"phone-{d}-0000000000")) for g, d in ((one, "a"), (other, "b"))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(type(a).__name__ for a in answers) == ["Claimed", "Taken"], answers


def test_keys_and_claims_kept_in_files_before_are_taken_over_once(two: tuple[Games, Games]) -> None:
    one, other = two
    name = one.new_game(PLAYERS, name="upgraded").name
    game_id = str(one.open(name).id)
    folder = links_folder(one.store.env, one.store.location)
    before, organiser = table_keys(folder, game_id), organiser_key(folder)  # as a server before this change kept them
    seat_file(folder, game_id).change(lambda held: held.update(Bruno=digest("phone-of-bruno-000")))
    assert other.phone(name, "phone-of-bruno-000").held == ("Bruno",)  # read from the file until the store has a row
    assert one.table_keys(name) == before and other.table_keys(name) == before
    assert one.organiser_key() == organiser and other.organiser_key() == organiser
    assert one.phone(name, "phone-of-ana-0000").claim("Ana") == Claimed("Ana")  # the first change takes the file's over
    table_keys(folder, game_id, renew=True)  # the files change: the store keeps what it took
    organiser_key(folder, renew=True)
    seat_file(folder, game_id).change(lambda held: held.clear())
    assert other.table_keys(name) == before and other.phone(name, "phone-of-bruno-000").held == ("Bruno",)
    assert other.organiser_key() == organiser


def test_a_store_made_before_these_tables_gets_them(postgres_env: dict[str, str], two: tuple[Games, Games]) -> None:
    one, _ = two
    name = one.new_game(PLAYERS, name="older").name
    with one.store.factory.datastore.transaction(commit=True) as c:
        for table in TABLES:
            c.execute(f'DROP TABLE "{postgres_env["POSTGRES_SCHEMA"]}".{table}')
    reopened = GameStore(env=postgres_env)
    try:
        assert Games(reopened).table_keys(name).players
    finally:
        reopened.close()
