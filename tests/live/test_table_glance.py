"""The organiser's glance at a table (``ServedTable.glance``): at game over the points are the final scores, end-game
scoring included, as the score sheet has them (during play they are the points on the track)."""

from __future__ import annotations

from pathlib import Path

from cli.live.table import ServedTable
from coimbra_events import log_reader
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from projections.read_side import ReadSide
from projections.scores import score_report
from tests.conftest import FIXTURES


def test_a_finished_table_shows_its_final_scores(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite")
    try:
        games = Games(lambda: store, ReadSide())
        name = "finished"
        games.import_log(log_reader.read(FIXTURES / "games" / "standin-2p-seed1.json"), name)
        table = ServedTable(games, name)
        table.load()
        glance = table.glance()
        finals = {p["name"]: p["total"] for p in score_report(store.get(name).state)["players"]}
        track = {p.name: p.points for p in store.get(name).state.players}
        assert glance["over"] and finals != track  # the end's scoring adds points: the check can tell them apart
        assert {p["name"]: p["points"] for p in glance["players"]} == finals
    finally:
        store.close()
