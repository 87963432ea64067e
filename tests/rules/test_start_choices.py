"""Start choices (000 after setup; 002 Choosing start conditions): order, START.*, start cards, CHOICE.track."""

from __future__ import annotations

import pytest

from coimbra_events import events as ev
from coimbra_events.rules.core import legal
from coimbra_events.rules.setup import chooser

from .helpers import (
    CAT,
    accepted,
    do,
    drive,
    names,
    new_game,
    passive,
    refused,
    start_choice,
    started,
    waiting_for,
)

START_SPACES = CAT.map.start_spaces


def choice_actors(state, pilgrim_first=()):
    """Who is asked for each start choice, in turn, following the ``start_choice`` plan."""
    actors = []
    while state.pending.kind == "start-choice":
        actors.append(state.pending.actor)
        state = accepted(state, start_choice(state, pilgrim_first))
    return actors, state


@pytest.mark.parametrize("n", [2, 3, 4])
def test_START_order_reverse_player_order_then_player_order(n):
    actors, _ = choice_actors(new_game(n))
    order = list(names(n))
    assert actors == order[::-1] + order


def test_START_order_follows_the_seating_not_the_table():
    actors, _ = choice_actors(new_game(3, order=("Carla", "Ana", "Bruno")))
    assert actors == ["Bruno", "Ana", "Carla", "Carla", "Ana", "Bruno"]


def test_chooser_function():
    order = (2, 0, 1)
    assert [chooser(order, t) for t in range(6)] == [1, 0, 2, 2, 0, 1]


def test_first_pass_offers_both_actions_second_pass_only_the_other():
    state = new_game(2)
    who = state.pending.actor
    assert who == "Bruno"
    options = legal(state)
    assert ev.StartGroupTaken(who, 1) in options and ev.StartGroupTaken(who, 2) in options
    assert {e.space for e in options if isinstance(e, ev.PilgrimPlaced)} == set(START_SPACES)
    state = do(state, ev.PilgrimPlaced, "start-s")  # Bruno: pilgrim first
    state = do(state, ev.StartGroupTaken, 1)  # Ana: cards first
    assert state.pending.actor == "Ana"
    assert all(isinstance(e, ev.PilgrimPlaced) for e in legal(state))
    assert {e.space for e in legal(state)} == set(START_SPACES) - {"start-s"}
    state = do(state, ev.PilgrimPlaced, "start-n")
    assert state.pending.actor == "Bruno"
    assert legal(state) == [ev.StartGroupTaken("Bruno", 2)]


# --- START.group ----------------------------------------------------------------------------------


def test_START_group_legal_takes_both_cards():
    state = new_game(3)
    state = accepted(state, ev.StartGroupTaken("Carla", 2))
    assert state.start_groups_taken[1] == "Carla"
    assert state.player("Carla").start_choices == ("cards",)


def test_START_group_taken_already():
    state = do(new_game(3), ev.StartGroupTaken, 2)  # Carla
    refused(state, ev.StartGroupTaken("Bruno", 2), "START.group", group=2, available=[1, 3])


@pytest.mark.parametrize("group", [0, -1, 4, 99])
def test_START_group_not_on_the_table(group):
    refused(new_game(3), ev.StartGroupTaken("Carla", group), "START.group", group=group, available=[1, 2, 3])


# --- START.space ------------------------------------------------------------------------------


def test_START_space_legal():
    state = accepted(new_game(4), ev.PilgrimPlaced("Duarte", "start-e"))
    assert state.player("Duarte").pilgrim == "start-e"
    assert state.pilgrims_placed == ("start-e",)


def test_START_space_taken():
    state = do(new_game(4), ev.PilgrimPlaced, "start-e")
    refused(state, ev.PilgrimPlaced("Carla", "start-e"), "START.space", space="start-e",
            free=["start-n", "start-s", "start-w"])


@pytest.mark.parametrize("space", ["road-n", "blue-n1", "red-s", "nowhere"])
def test_START_space_not_a_start_space(space):
    refused(new_game(4), ev.PilgrimPlaced("Duarte", space), "START.space", space=space)


# --- START.once -------------------------------------------------------------------------------


def test_START_once_the_same_action_twice_is_refused():
    state = new_game(2)
    state = do(state, ev.StartGroupTaken, 1)  # Bruno
    state = do(state, ev.StartGroupTaken, 2)  # Ana
    assert state.pending.actor == "Ana"
    refused(state, ev.StartGroupTaken("Ana", 1), "START.once", player="Ana", done=("cards",))
    state = accepted(state, ev.PilgrimPlaced("Ana", "start-w"))
    refused(state, ev.StartGroupTaken("Bruno", 2), "START.once", player="Bruno", done=("cards",))


def test_START_once_pilgrim_twice_is_refused():
    state = new_game(2)
    state = do(state, ev.PilgrimPlaced, "start-n")  # Bruno
    state = do(state, ev.PilgrimPlaced, "start-e")  # Ana
    refused(state, ev.PilgrimPlaced("Ana", "start-s"), "START.once", player="Ana", done=("pilgrim",))
    accepted(state, ev.StartGroupTaken("Ana", 1))


def test_START_out_of_turn_is_TURN_actor():
    state = new_game(4)
    refused(state, ev.StartGroupTaken("Ana", 1), "TURN.actor", due="Duarte", actor="Ana")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_each_player_ends_with_2_start_cards_and_a_pilgrim_on_a_different_corner(n):
    state = started(n, pilgrim_first=names(n)[::2])
    pilgrims = [p.pilgrim for p in state.players]
    assert len(set(pilgrims)) == n and set(pilgrims) <= set(START_SPACES)
    cards = [c for p in state.players for c in p.start_cards]
    assert all(len(p.start_cards) == 2 for p in state.players) and len(set(cards)) == 2 * n
    assert all(sorted(p.start_choices) == ["cards", "pilgrim"] for p in state.players)
    assert (state.round, state.phase, state.pending.kind) == (1, "A", "dice")


# --- using the start cards ------------------------------------------------------------------------


def test_start_cards_advance_influence_and_give_immediate_bonus():
    """Ana: Town Sergeant (gray 2, +3 guards), Spice Trader (orange 2, +3 coins)."""
    ana = started(2).player("Ana")
    assert ana.influence == (2, 2, 0, 0)
    assert (ana.guards, ana.coins, ana.points) == (10, 10, 0)


def test_start_cards_phase_C_bonus_does_nothing_at_start():
    """Bruno: Watch Captain (gray 1), Moneylender (orange 1): only influence."""
    bruno = started(2).player("Bruno")
    assert bruno.influence == (1, 1, 0, 0)
    assert (bruno.guards, bruno.coins, bruno.points) == (7, 7, 0)


def test_start_cards_are_used_only_after_every_choice_in_player_order():
    state = new_game(4)
    for _ in range(7):
        state = accepted(state, start_choice(state))
        assert all(p.influence == (0, 0, 0, 0) for p in state.players)
    state = accepted(state, start_choice(state))
    # Ana .. Carla have used theirs; Duarte's Novice asks for steps first (then Student's track choice)
    assert state.pending.actor == "Duarte" and state.pending.kind == "steps"
    assert state.pending.amount == 2 and state.pending.source == "c-I-05"
    arrivals = [max(state.player(n).arrivals) for n in ("Ana", "Bruno", "Carla")]
    assert arrivals == sorted(arrivals)


def _at_student_choice():
    state = drive(new_game(4), waiting_for("track-choice"),
                  lambda s: start_choice(s) if s.pending.kind == "start-choice" else passive(s))
    assert state.pending.actor == "Duarte" and state.pending.source == "c-I-07"
    return state


def test_CHOICE_track_legal_advances_the_chosen_track():
    state = _at_student_choice()
    before = state.player("Duarte")
    assert before.influence == (0, 0, 2, 1)  # Novice purple 2, Student green 1
    assert len(legal(state)) == 4
    state = accepted(state, ev.TrackChosen("Duarte", "orange"))
    after = state.player("Duarte")
    assert after.influence == (0, 1, 2, 1)
    assert after.points == 1  # Student's +1 point
    assert state.phase == "A"


@pytest.mark.parametrize("track", ["white", "choice", "points", "Gray"])
def test_CHOICE_track_not_an_influence_track(track):
    refused(_at_student_choice(), ev.TrackChosen("Duarte", track), "CHOICE.track", track=track)
