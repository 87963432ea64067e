"""A running tournament through the application (``Games``): its facts kept as one aggregate with its versions, each
round reproducible from its record and the games' results, a table's abandoned (archived) game started again, and a
table holding two games waiting until one is archived."""

from __future__ import annotations

from pathlib import Path

import pytest

from coimbra_events.service import Games
from coimbra_events.service.tournaments import RoundNotOver, RoundStarted
from coimbra_events.tournament import BadField
from coimbra_events.tournament.seating import seat_next
from tests.tournament_play import finish

PLAYERS = ["Ana", "Bruno", "Carla", "Dora", "Eva", "Filipe"]


def test_a_round_is_the_one_its_record_and_results_give_and_abandoned_tables_start_again(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with Games.at(db, create=True) as games:
        begun = games.start_tournament("cup", PLAYERS, 2, (3, 2, 1, 0), seed=5, tags=["friday"])
        assert begun.seated and dict(begun.started) == {1: "cup-r1-t1", 2: "cup-r1-t2"}
        assert games.info("cup-r1-t1").tags == ("cup", "cup/round-1", "friday")
        with pytest.raises(BadField, match="'cup' is recorded already"):
            games.start_tournament("cup", PLAYERS, 2)
        games.archive(["cup-r1-t2"])  # abandoned: the table is started again
        again = games.next_round("cup")
        assert isinstance(again, RoundStarted) and not again.seated and dict(again.started) == {2: "cup-r1-t2-2"}
    finish(db, ["cup-r1-t1", "cup-r1-t2-2"], seed=4)
    with Games.at(db) as games:
        before = games.tournament("cup")
        assert before.tournament.version == 2 and before.rounds[0].over
        points = before.strengths()
        assert points is not None and sum(points.values()) == 2 * (3 + 2 + 0)
        made = games.next_round("cup")
        assert isinstance(made, RoundStarted) and made.seated
        recorded = games.tournament("cup").tournament
        assert recorded.version == 3
        assert recorded.seated[1] == seat_next(PLAYERS, 5, recorded.seated[:1], points).tables
        table = made.round.tables[0]
        games.new_game([(name, color) for name, color in zip(table.players, ("red", "blue", "yellow"))],
                       name="stray", tags=["cup", "cup/round-2"])
    finish(db, ["cup-r2-t1", "cup-r2-t2"], seed=6)
    with Games.at(db) as games:
        waiting = games.next_round("cup")
        assert isinstance(waiting, RoundNotOver)
        assert [t.said() for t in waiting.round.waiting()] == [
            f"table 1 (cup-r2-t1, stray: {', '.join(table.players)}) several games"]
        games.archive(["stray"])
        assert games.tournament("cup").over
