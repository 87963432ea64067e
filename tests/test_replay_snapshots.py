"""Whole screens of the replayer at 80x24, compared with the SVG snapshots kept in ``tests/__snapshots__``.

A change of layout, colours or wording shows here as a failed comparison with
a report of both screens; after a deliberate change, ``pytest --snapshot-update``
writes the new snapshots (review them before committing).
"""

from __future__ import annotations

from cli.replay_app import ReplayApp
from cli.replay_views import Replay
from coimbra_events.store.sources import game_from_file
from tests.conftest import FIXTURES
from tests.test_replay_app import corrected_and_undone

SIZE = (80, 24)


def fixture_replay() -> Replay:
    return Replay(game_from_file(FIXTURES / "games" / "standin-3p-seed2.json"))


def test_a_step_in_phase_b(snap_compare):
    assert snap_compare(ReplayApp(fixture_replay(), start=58), press=["right", "right"], terminal_size=SIZE)


def test_the_players_pane_scrolled(snap_compare):
    assert snap_compare(ReplayApp(fixture_replay(), start=100), press=["v", "shift+pagedown"], terminal_size=SIZE)


def test_corrected_and_withdrawn_entries(snap_compare):
    assert snap_compare(ReplayApp(Replay(corrected_and_undone()), start=22), terminal_size=SIZE)


def test_the_line_of_play_only(snap_compare):
    assert snap_compare(ReplayApp(Replay(corrected_and_undone()), start=22), press=["f"], terminal_size=SIZE)


def test_a_long_entry_whole_on_top_and_in_the_list(snap_compare):
    assert snap_compare(ReplayApp(fixture_replay(), start=4), press=["right"], terminal_size=SIZE)


def test_the_last_entry_of_a_phase_and_one_player_s_side(snap_compare):
    assert snap_compare(ReplayApp(fixture_replay(), start=52), press=["right", "2"], terminal_size=SIZE)


def test_the_final_scores(snap_compare):
    assert snap_compare(ReplayApp(fixture_replay(), start=175), press=["s"], terminal_size=SIZE)

def test_an_analysed_game_marks_each_decision_with_its_grade_and_shows_the_winning_chances(snap_compare):
    """A blunder reached (entry 53): its mark in the entry and the list, the curve with it marked, what it lost."""
    from tests.test_replay_analysis import pinned_analysis

    game = game_from_file(FIXTURES / "games" / "standin-3p-seed2.json")
    assert snap_compare(ReplayApp(Replay(game, pinned_analysis()), start=52), press=["right"], terminal_size=SIZE)
