"""The served table's copy of the game after a save another writer beat (``act`` on the same store).

The library takes a save's pending events before it writes them, so after a lost save the copy shows no
pending events yet holds the entry that was never stored. Kept, it would be the game for the next input,
whose entry would then be stored chained on that phantom: a broken hash chain in the store (found by
``tests/live/test_races.py`` racing ``act`` against the API under load). Here the race is forced: the other
writer stores its entry after the table read the game and before the table saves.
"""

from __future__ import annotations

from pathlib import Path

from cli.live.table import ServedTable
from coimbra_events.service import Conflict, Games, Outcome, Stored
from coimbra_events.store.game_store import GameStore
from projections.read_side import ReadSide
from tests.store.conftest import PLAYERS


def test_after_a_lost_save_the_next_input_is_stored_on_the_record_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    mine, theirs = GameStore(path), GameStore(path)
    try:
        games, other = Games(lambda: mine, ReadSide()), Games(lambda: theirs)
        name = games.new_game(PLAYERS, name="evening", seed=3).name
        table = ServedTable(games, name)
        table.load()
        first, second = games.legal(name).decisions[:2]

        def beaten() -> Outcome[object]:  # act stores its entry between the table's reading and its saving
            assert isinstance(other.record(name, [second]), Stored)
            return games.record(table.session, [first], "Ana")

        assert isinstance(table._changed(beaten), Conflict)
        after = games.legal(name).decisions[0]
        assert isinstance(table.record([after], None, "Ana"), Stored)  # type: ignore[list-item]
        mine.check(name)  # every entry chains on the one stored before it
        assert list(mine.get(name).events[-2:]) == [second, after]
    finally:
        mine.close()
        theirs.close()
