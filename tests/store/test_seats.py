"""Seats are the application's: ``Games.phone`` says which phone holds which seat, its writes are checked by it,
and the claims are kept beside the table's keys (its owner's only), so that a restart keeps them."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from coimbra_events.service import Claimed, Games, NotYours, Stored, Taken


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's data folder (platformdirs reads ``$XDG_DATA_HOME`` on Linux): a temporary one, never the tester's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def test_a_phone_enters_its_seats_decisions_and_claims_are_kept(games: Games, data_home: Path, tmp_path: Path) -> None:
    game = games.new_game([("Ana", "red"), ("Bruno", "blue")], name="seated", seed=7).name
    due = games.open(game).pending.actor
    other = "Bruno" if due == "Ana" else "Ana"
    option = games.legal(game).decisions[0]
    mine, theirs = games.phone(game, "device-of-due-000"), games.phone(game, "device-of-other-0")
    assert mine.claim(due) == Claimed(due) and isinstance(theirs.claim(due), Taken)
    assert theirs.claim(other) == Claimed(other)
    entries = games.open(game).entries
    refused = games.record(game, [option], phone=theirs)
    assert isinstance(refused, NotYours) and refused.player == due and games.open(game).entries == entries
    assert isinstance(games.record(game, [option], phone=mine), Stored)
    assert Games(games.store).phone(game, "device-of-due-000").held == (due,)  # as a restarted server reads it
    kept = sorted(tmp_path.rglob("*.seats"))
    if games.store.location == "memory" or games.store.location.startswith("PostgreSQL"):  # in memory, in the store
        assert kept == []  # PostgreSQL's tables: tests/store/test_keeping_postgres.py
        return
    assert len(kept) == 1 and stat.S_IMODE(kept[0].stat().st_mode) == 0o600
    assert "device-of" not in kept[0].read_text()
