"""The pilgrim (000 Phase E purple; GAPS 7, 8): steps to adjacent spaces, monasteries on first visit."""

from __future__ import annotations

from functools import lru_cache

from coimbra_events import events as ev
from coimbra_events.rules.core import legal

from .helpers import CAT, accepted, do, drive, new_game, passive, refused, start_choice, to_income, waiting_for, \
    with_player

# default placement: blue-e1 Santa Clara (+2 points), blue-e2 swapped for Cete (end game: 3 points)
SWAP = {"blue-e2": "m-I-11", "brown-ne": "m-II-04", "brown-nw": "m-II-01"}  # Bouro (+2 on a track of choice) NE


@lru_cache(maxsize=None)
def walking(steps_tier: int = 13):
    """2 players, phase E: Bruno (pilgrim on start-e) collects purple income at space ``steps_tier``."""
    state = to_income(2, hands={"Ana": ("gray-1", "orange-1", "white-1"), "Bruno": ("purple-1", "gray-2", "green-1")},
                      monasteries=SWAP)
    state = with_player(state, "Bruno", influence={"purple": steps_tier})
    assert state.player("Bruno").pilgrim == "start-e"
    return do(state, ev.IncomeActivated, "purple-1", "purple")


def test_PILGRIM_adjacent_legal_purple_income_is_steps_one_at_a_time():
    state = walking()
    assert (state.pending.actor, state.pending.kind, state.pending.amount) == ("Bruno", "steps", 6)
    assert set(legal(state)) == {ev.PilgrimStepped("Bruno", s) for s in CAT.map.neighbours["start-e"]} | {
        ev.PilgrimStopped("Bruno")}
    state = accepted(state, ev.PilgrimStepped("Bruno", "road-e"))
    assert state.player("Bruno").pilgrim == "road-e"
    assert state.pending.kind == "steps" and state.pending.amount == 5


def test_PILGRIM_adjacent_refused_when_not_adjacent():
    state = walking()
    refused(state, ev.PilgrimStepped("Bruno", "blue-e1"), "PILGRIM.adjacent", to="blue-e1", **{"from": "start-e"},
            adjacent=CAT.map.neighbours["start-e"])
    refused(state, ev.PilgrimStepped("Bruno", "start-e"), "PILGRIM.adjacent", to="start-e")  # standing still
    refused(state, ev.PilgrimStepped("Bruno", "atlantis"), "PILGRIM.adjacent", to="atlantis")


def test_monastery_reward_on_first_visit_only():
    state = do(walking(), ev.PilgrimStepped, "road-e")
    points = state.player("Bruno").points
    state = do(state, ev.PilgrimStepped, "blue-e1")  # Santa Clara: +2 points
    bruno = state.player("Bruno")
    assert bruno.points == points + 2 and bruno.monasteries == ("m-I-03",)
    state = do(state, ev.PilgrimStepped, "road-e")
    state = do(state, ev.PilgrimStepped, "blue-e1")  # marked already: nothing
    assert state.player("Bruno").points == points + 2 and state.player("Bruno").monasteries == ("m-I-03",)


def test_end_game_monastery_is_marked_without_reward_now():
    state = do(do(walking(), ev.PilgrimStepped, "road-e"), ev.PilgrimStepped, "blue-e2")
    bruno = state.player("Bruno")
    assert bruno.monasteries == ("m-I-11",)
    assert (bruno.coins, bruno.guards) == (walking().player("Bruno").coins, walking().player("Bruno").guards)


def test_monastery_reward_with_a_choice_comes_before_the_remaining_steps():
    state = walking()
    for space in ("road-e", "blue-e1", "cross-ne", "way-ne", "brown-ne"):
        state = do(state, ev.PilgrimStepped, space)
    assert (state.pending.kind, state.pending.amount, state.pending.source) == ("track-choice", 2, "m-II-04")
    state = do(state, ev.TrackChosen, "orange")
    assert state.pending.kind == "steps" and state.pending.amount == 1


def test_stopping_early_forfeits_the_remaining_steps():
    state = do(walking(), ev.PilgrimStepped, "road-e")
    state = accepted(state, ev.PilgrimStopped("Bruno"))
    assert state.pending.kind == "income" and state.player("Bruno").pilgrim == "road-e"


def test_last_step_ends_the_walk():
    state = do(walking(0), ev.PilgrimStepped, "start-n")  # space 0: 1 step
    assert state.pending.kind == "income" and state.player("Bruno").pilgrim == "start-n"


def test_pilgrims_may_share_a_space():
    state = do(walking(0), ev.PilgrimStepped, "start-n")
    assert state.player("Ana").pilgrim == "start-n" == state.player("Bruno").pilgrim


def test_start_card_steps_walk_from_the_start_space():
    """Duarte's Novice: 2 steps right after the start choices, from his start space start-w."""
    state = drive(new_game(4), waiting_for("steps"),
                  lambda s: start_choice(s) if s.pending.kind == "start-choice" else passive(s))
    assert state.pending.actor == "Duarte" and state.player("Duarte").pilgrim == "start-w"
    refused(state, ev.PilgrimStepped("Duarte", "road-n"), "PILGRIM.adjacent", to="road-n")
    state = accepted(state, ev.PilgrimStepped("Duarte", "road-w"))
    state = accepted(state, ev.PilgrimStepped("Duarte", "blue-w2"))  # Tibães: +1 green
    assert state.player("Duarte").monasteries == ("m-I-08",)
    assert state.player("Duarte").influence_on("green") == 2  # Student 1 + Tibães 1
