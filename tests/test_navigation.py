"""Moving through a folded game with the replayer's keys (``cli.replay_keys`` over ``projections.navigation``), without a terminal.

The fixture is the 3-player game ``standin-3p-seed2`` (175 entries). Where its
phases and rounds begin is written out below as read off its timeline, and
checked against the states themselves, so a move is tested against facts of the
game, not against the navigator's own index.
"""

from __future__ import annotations

from functools import reduce
from pathlib import Path

import pytest

from coimbra_events import events as ev
from coimbra_events.store.sources import game_from_file
from coimbra_events.catalog import standin_catalog
from coimbra_events.game import Game
from coimbra_events.simulator import simulate
from coimbra_events.state import TABLE
from cli.replay_keys import Cursor, press
from projections.navigation import Mark, Navigator, marks_by_entry, marks_of
from projections.timeline import timeline
from tests.conftest import FIXTURES

GAME = FIXTURES / "games" / "standin-3p-seed2.json"
LAST = 175
PHASE_STARTS = (0, 6, 13, 14, 23, 37, 50, 53, 55, 64, 73, 93, 96, 98, 107, 116, 130, 133, 135, 144, 153, 172, 175)
ROUND_STARTS = (0, 13, 53, 96, 133)


@pytest.fixture(scope="module")
def game() -> Game:
    return game_from_file(Path(GAME))


@pytest.fixture(scope="module")
def nav(game: Game) -> Navigator:
    return Navigator(timeline(game), marks_of(game))


def keys(nav: Navigator, *pressed: str, at: int = 0) -> Cursor:
    """The cursor after pressing ``pressed`` in order, from ``at``."""
    return reduce(lambda c, k: press(nav, c, k), pressed, Cursor(at=at))


def where(nav: Navigator, n: int) -> tuple[int, str]:
    state = nav.line.states[n]
    return state.round, state.phase


# --- the fixture facts -----------------------------------------------------------------------------


def test_the_phase_and_round_starts_written_here_are_the_games(nav):
    """Each listed start is where (round, phase) changes, and nowhere else does it change."""
    assert nav.last == LAST
    changes = [n for n in range(1, LAST + 1) if where(nav, n) != where(nav, n - 1)]
    assert tuple([0] + changes) == PHASE_STARTS
    rounds = [n for n in range(1, LAST + 1) if where(nav, n)[0] != where(nav, n - 1)[0]]
    assert tuple([0] + rounds) == ROUND_STARTS
    assert [where(nav, n)[0] for n in ROUND_STARTS] == [0, 1, 2, 3, 4]
    assert all(where(nav, n)[1] == "A" for n in ROUND_STARTS[1:])
    assert nav.phase_starts == PHASE_STARTS and nav.round_starts == ROUND_STARTS


# --- one entry at a time ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["right", "l"])
def test_right_steps_one_entry_forward(nav, key):
    assert keys(nav, key).at == 1
    assert keys(nav, key, key, key).at == 3
    assert keys(nav, key, at=100).at == 101


@pytest.mark.parametrize("key", ["left", "h"])
def test_left_steps_one_entry_back(nav, key):
    assert keys(nav, key, at=3).at == 2
    assert keys(nav, key, key, at=100).at == 98


def test_every_entry_is_reached_stepping_forward_and_back(nav):
    cursor = Cursor()
    seen = [0]
    for _ in range(LAST):
        cursor = press(nav, cursor, "right")
        seen.append(cursor.at)
    assert seen == list(range(LAST + 1))
    for _ in range(LAST):
        cursor = press(nav, cursor, "left")
    assert cursor.at == 0 and not cursor.message


def test_stepping_stops_at_both_ends_with_a_message(nav):
    start = keys(nav, "left")
    assert start.at == 0 and "before the first" in start.message
    end = keys(nav, "right", at=LAST)
    assert end.at == LAST and "after the last" in end.message
    assert keys(nav, "left", at=LAST).message == ""  # a move clears the message


def test_home_and_end(nav):
    assert keys(nav, "end").at == LAST
    assert keys(nav, "home", at=120).at == 0
    assert keys(nav, "end", "home").at == 0


# --- phases ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["down", "j"])
def test_down_goes_to_the_next_phase_start(nav, key):
    cursor, visited = Cursor(), []
    while True:
        moved = press(nav, cursor, key)
        if moved.at == cursor.at:
            break
        visited.append(moved.at)
        assert where(nav, moved.at) != where(nav, moved.at - 1)
        cursor = moved
    assert tuple(visited) == PHASE_STARTS[1:]
    assert "no later phase" in press(nav, cursor, key).message


def test_down_from_inside_a_phase(nav):
    assert keys(nav, "down", at=30).at == 37  # inside round 1 phase C
    assert where(nav, 37) == (1, "E")


@pytest.mark.parametrize("key", ["up", "k"])
def test_up_goes_to_the_start_of_this_phase_then_the_previous_one(nav, key):
    assert keys(nav, key, at=30).at == 23  # inside C: back to where C began
    assert keys(nav, key, at=23).at == 14  # at the start of C: the previous phase (B)
    assert keys(nav, key, key, at=30).at == 14
    cursor, visited = Cursor(at=LAST), []
    while cursor.at:
        cursor = press(nav, cursor, key)
        visited.append(cursor.at)
    assert tuple(reversed(visited)) == PHASE_STARTS[:-1]
    assert "first phase" in press(nav, cursor, key).message


def test_phase_jumps_land_where_the_round_and_phase_say(nav):
    at = keys(nav, "down", "down", "down", "down").at  # setup -> start -> 1A -> 1B -> 1C
    assert where(nav, at) == (1, "C")
    assert where(nav, keys(nav, "up", at=at).at) == (1, "B")


# --- rounds ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["pgdn", "]"])
def test_page_down_goes_to_the_next_round(nav, key):
    assert [keys(nav, *[key] * k).at for k in range(1, 5)] == list(ROUND_STARTS[1:])
    assert keys(nav, key, at=60).at == 96
    assert where(nav, keys(nav, key, at=60).at) == (3, "A")
    last_round = keys(nav, key, at=140)
    assert last_round.at == 140 and "no later round" in last_round.message


@pytest.mark.parametrize("key", ["pgup", "["])
def test_page_up_goes_to_the_start_of_this_round_then_the_previous_one(nav, key):
    assert keys(nav, key, at=60).at == 53  # inside round 2: its start
    assert keys(nav, key, at=53).at == 13  # at the start of round 2: round 1
    assert keys(nav, key, at=LAST).at == 133  # game over is in round 4
    assert keys(nav, key, key, key, key, key, at=LAST).at == 0
    assert "first round" in keys(nav, key, at=0).message


# --- go to -----------------------------------------------------------------------------------------


def test_g_number_enter_jumps_to_that_entry(nav):
    assert keys(nav, "g", "1", "0", "0", "enter").at == 100
    assert keys(nav, "g", "0", "enter", at=50).at == 0
    assert keys(nav, "g", "1", "7", "5", "enter").at == LAST


def test_g_shows_what_is_typed_and_can_be_corrected_or_cancelled(nav):
    typing = keys(nav, "g", "4", "2")
    assert typing.prompt == "goto" and typing.typed == "42" and typing.at == 0
    assert keys(nav, "g", "4", "2", "backspace", "7", "enter").at == 47
    cancelled = keys(nav, "g", "4", "2", "escape", at=5)
    assert cancelled.at == 5 and cancelled.prompt is None
    assert keys(nav, "g", "enter", at=5).at == 5  # nothing typed: nothing happens
    assert keys(nav, "g", "x").prompt == "goto"  # a letter is refused, the prompt stays


def test_g_beyond_the_end_stays_and_says_the_range(nav):
    cursor = keys(nav, "g", "9", "9", "9", "enter", at=12)
    assert cursor.at == 12 and cursor.prompt is None and "choose 0 to 175" in cursor.message


def test_keys_inside_a_prompt_are_not_moves(nav):
    """While typing after ``g``, ``l`` or ``q`` do nothing but ask for digits."""
    assert keys(nav, "g", "l").at == 0
    assert not keys(nav, "g", "q").quit


# --- bookmarks and notes ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def marked(game: Game) -> Navigator:
    """The fixture game with notes and bookmarks added as entries of their own (176 to 179)."""
    noted = Game.from_log("noted", game.to_log())
    noted.note(40, "ruling: token ties take the leftmost card")
    noted.note(60, "start of the comeback", bookmark=True)
    noted.note(60, "Bruno thought hard")
    noted.note(150, "endgame", bookmark=True)
    return Navigator(timeline(noted), marks_of(noted))


def test_marks_are_read_from_the_record(marked):
    assert marked.marks[40] == Mark(notes=("ruling: token ties take the leftmost card",))
    assert marked.marks[60] == Mark(notes=("Bruno thought hard",), bookmark="start of the comeback")
    assert marked.mark_stops == (40, 60, 150)
    assert marked.last == LAST + 4


def test_b_goes_to_the_next_bookmark_or_note(marked):
    assert [keys(marked, *["b"] * k).at for k in (1, 2, 3)] == [40, 60, 150]
    assert keys(marked, "b", at=40).at == 60
    end = keys(marked, "b", at=150)
    assert end.at == 150 and "no later bookmark" in end.message


def test_shift_b_goes_to_the_previous_bookmark_or_note(marked):
    assert keys(marked, "B", at=LAST).at == 150
    assert keys(marked, "B", "B", at=LAST).at == 60
    assert keys(marked, "B", at=60).at == 40
    start = keys(marked, "B", at=40)
    assert start.at == 40 and "no earlier bookmark" in start.message


def test_b_in_a_game_without_marks_says_so(nav):
    assert nav.mark_stops == ()
    assert "no bookmarks or notes" in keys(nav, "b").message


def test_an_accepted_rule_break_is_a_mark_with_its_rule_and_reason():
    catalog = standin_catalog()
    players = (("Ana", "red"), ("Bruno", "blue"))
    log, _ = simulate(catalog, players, 1)
    game = Game.start("g", catalog, players)
    for event in log.events[:24]:
        game.record(event)
    game.accept(ev.CardBought("Ana", "c-II-20"), "we misread the price")  # entries 25 (RuleOverridden) and 26
    game.note(26, "Bruno let it go", bookmark=False)
    marks = marks_of(game)
    assert marks[26] == Mark(notes=("Bruno let it go",), override=("C.cost", "we misread the price"))
    navigator = Navigator(timeline(game), marks)
    assert navigator.mark_stops == (26,)
    assert keys(navigator, "b").at == 26


def test_marks_outside_the_game_are_dropped(nav):
    shifted = Navigator(nav.line, marks_by_entry({0: ["x"], 3: ["three"], 999: ["y"]}))
    assert shifted.mark_stops == (3,)


# --- a player's decisions --------------------------------------------------------------------------


def decisions_of(nav: Navigator, player: str) -> list[int]:
    return [n for n, e in enumerate(nav.line.events, 1) if e.actor == player]


@pytest.mark.parametrize("name, typed", [("Ana", "a"), ("Ana", "A"), ("Ana", "1"), ("Bruno", "b"), ("Bruno", "2"),
                                         ("Carla", "c"), ("Carla", "3")])
def test_p_goes_to_the_next_decision_of_a_player(nav, name, typed):
    expected = decisions_of(nav, name)
    assert keys(nav, "p", typed).at == expected[0]
    at = expected[5]
    assert keys(nav, "p", typed, at=at).at == expected[6]
    assert keys(nav, "p", typed, at=at + 1).at == next(n for n in expected if n > at + 1)
    assert nav.line.events[keys(nav, "p", typed, at=100).at - 1].actor == name


def test_p_walks_every_decision_of_a_player_and_stops_after_the_last(nav):
    cursor, visited = Cursor(), []
    while True:
        moved = keys(nav, "p", "c", at=cursor.at)
        if moved.at == cursor.at:
            assert "no later decision of Carla" in moved.message
            break
        visited.append(moved.at)
        cursor = moved
    assert visited == decisions_of(nav, "Carla")
    assert all(nav.line.events[n - 1].actor != TABLE for n in visited)


def test_shift_p_goes_to_the_previous_decision_of_a_player(nav):
    expected = decisions_of(nav, "Bruno")
    assert expected[-1] == LAST  # Bruno made the last decision of the game
    assert keys(nav, "P", "b", at=LAST).at == expected[-2]  # strictly before where we stand
    assert keys(nav, "P", "b", at=expected[10] + 1).at == expected[10]
    first = keys(nav, "P", "2", at=expected[0])
    assert first.at == expected[0] and "no earlier decision of Bruno" in first.message


def test_p_with_an_unknown_player_says_who_can_be_chosen(nav):
    cursor = keys(nav, "p", "z", at=10)
    assert cursor.at == 10 and cursor.prompt is None and "1 Ana · 2 Bruno · 3 Carla" in cursor.message
    assert "choose 1 to 3" in keys(nav, "p", "7").message
    assert keys(nav, "p", "escape", at=10) == Cursor(at=10)
    assert keys(nav, "p").prompt == "next-player"


def test_an_initial_two_players_share_asks_for_the_number(nav):
    twins = Navigator(nav.line)
    twins.players = ("Ana", "Alice", "Bruno")
    name, why = twins.player("a")
    assert name is None and "Ana, Alice" in why and "number" in why
    assert twins.player("al") == ("Alice", "")


# --- help and quit ---------------------------------------------------------------------------------


def test_question_mark_opens_the_help_and_any_key_closes_it(nav):
    opened = keys(nav, "?", at=7)
    assert opened.help and opened.at == 7
    assert not press(nav, opened, "?").help and press(nav, opened, "?").at == 7
    moved = press(nav, opened, "right")
    assert not moved.help and moved.at == 8  # a move closes the help and moves


def test_q_quits(nav):
    assert keys(nav, "q").quit
    assert keys(nav, "ctrl-c", at=9).quit
    assert not keys(nav, "right").quit


def test_unknown_keys_stay_and_point_to_the_help(nav):
    cursor = keys(nav, "z", at=4)
    assert cursor.at == 4 and "press ?" in cursor.message
