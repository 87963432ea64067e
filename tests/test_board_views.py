"""The board's parts drawn once and reused (``DrawnParts``) draw exactly what a fresh drawing would."""

from __future__ import annotations

import io

import pytest
from rich.console import Console, RenderableType
from rich.measure import Measurement

from cli.board_views import DrawnParts, board_panel, map_table
from cli.replay_views import Replay
from coimbra_events.store.sources import game_from_file
from tests.conftest import FIXTURES


def drawn(renderable: RenderableType, width: int) -> str:
    """The renderable as a terminal would show it, styles included."""
    console = Console(file=io.StringIO(), width=width, record=True, force_terminal=True, color_system="truecolor")
    console.print(renderable)
    return console.export_text(styles=True)


@pytest.fixture(scope="module")
def replayer() -> Replay:
    return Replay(game_from_file(FIXTURES / "games" / "standin-4p-seed3.json"))


@pytest.mark.parametrize("width, both_ways", [(160, True), (80, False)])
def test_every_board_with_reused_parts_is_the_board_drawn_afresh(replayer, width, both_ways):
    parts = DrawnParts()
    positions = list(range(replayer.nav.last + 1))
    for n in positions + (positions[::-1] if both_ways else []):  # back: parts drawn further on are reused too
        view = replayer.view(n)
        assert drawn(board_panel(view, "t", drawn=parts, boards=False), width) == drawn(board_panel(view, "t", boards=False), width), n


def test_parts_that_do_not_change_are_drawn_once(replayer):
    parts = DrawnParts()
    for n in range(replayer.nav.last + 1):
        drawn(board_panel(replayer.view(n), "t", drawn=parts, boards=False), 160)
    tiles = [key for key in parts.lines if key[0] == "tiles"]
    maps = [key for key in parts.lines if key[0] == "map"]
    assert 1 < len(tiles) < replayer.nav.last / 4  # redrawn when a voyage or a favor tile changes hands, only then
    assert 1 < len(maps) < replayer.nav.last / 2


def test_a_part_measures_as_what_it_draws(replayer):
    view = replayer.view(replayer.nav.last)
    console = Console(file=io.StringIO(), width=160)
    part = DrawnParts().part("map", view["monasteries"], lambda: map_table(view))
    assert Measurement.get(console, console.options, part) == Measurement.get(console, console.options, map_table(view))


def test_the_replayer_draws_its_boards_with_reused_parts(replayer):
    drawn(replayer.board(5), 160)
    assert replayer.parts.lines
