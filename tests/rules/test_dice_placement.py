"""Phases A and B (000/002 Phase A, B; 000 Setup 6): the roll, drafting and placing dice."""

from __future__ import annotations

from collections import Counter

import pytest

from coimbra_events import events as ev
from coimbra_events.rules.core import legal
from coimbra_events.rules.dice import insert_position
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.state import TABLE, Slot

from .helpers import CAT, accepted, dice_event, do, in_phase_b, names, place_all, refused, started


def row_of(state, location):
    """A location's row as (die, value, owner name or 'token') left to right."""
    row = state.locations[("castle", "upper", "central", "lower").index(location)]
    return [(s.die, s.value, "token" if s.is_token else state.players[s.owner].name) for s in row]


# --- the pool per player count (Setup 6) ---------------------------------------------------------


@pytest.mark.parametrize("n, size, colours", [
    (4, 13, {"gray": 3, "orange": 3, "purple": 3, "green": 3, "white": 1}),
    (3, 11, {"gray": 3, "orange": 3, "purple": 2, "green": 2, "white": 1}),
    (2, 7, {"gray": 2, "orange": 2, "purple": 1, "green": 1, "white": 1}),
])
def test_dice_pool_per_player_count(n, size, colours):
    pool = CAT.dice_for(n)
    assert len(pool) == size
    assert Counter(CAT.die_colors[d] for d in pool) == colours


# --- A.dice ---------------------------------------------------------------------------------------


def test_A_dice_the_table_rolls_in_phase_A():
    state = started(3)
    assert (state.round, state.phase, state.pending.actor, state.pending.kind) == (1, "A", TABLE, "dice")
    space = legal(state)
    assert isinstance(space, OutcomeSpace) and space.kind == "dice"


@pytest.mark.parametrize("value", [1, 6])
def test_A_dice_values_1_and_6_accepted(value):
    state = started(2)
    after = accepted(state, dice_event(state, default=value))
    assert after.phase == "B" and set(dict(after.dice).values()) == {value}
    assert sorted(after.pool) == sorted(CAT.dice_for(2))


@pytest.mark.parametrize("value", [0, 7, -1])
def test_A_dice_value_out_of_1_to_6_refused(value):
    state = started(2)
    event = dice_event(state, {"white-1": value})
    refused(state, event, "A.dice", values={"white-1": value})


@pytest.mark.parametrize("n", [2, 3])
def test_A_dice_the_removed_dice_are_not_rolled(n):
    """The 4-player pool rolled in a smaller game: refused."""
    state = started(n)
    event = ev.DiceRolled(TABLE, tuple((d, 3) for d in CAT.dice_for(4)))
    refused(state, event, "A.dice", pool=CAT.dice_for(n))


def test_A_dice_every_die_of_the_pool_is_rolled():
    state = started(3)
    missing = ev.DiceRolled(TABLE, tuple((d, 3) for d in CAT.dice_for(3) if d != "white-1"))
    pool = list(CAT.dice_for(3))
    refused(state, missing, "A.dice", rolled=sorted(set(pool) - {"white-1"}), pool=pool)
    swapped = ev.DiceRolled(TABLE, tuple((("purple-3" if d == "purple-2" else d), 3) for d in CAT.dice_for(3)))
    refused(state, swapped, "A.dice", rolled=sorted(set(pool) - {"purple-2"} | {"purple-3"}), pool=pool)
    unknown = ev.DiceRolled(TABLE, tuple((d, 3) for d in CAT.dice_for(3)) + (("black-1", 3),))
    refused(state, unknown, "A.dice", rolled=sorted(pool + ["black-1"]), pool=pool)


def test_A_dice_each_die_rolled_once():
    """'The first player rolls every die of the pool once' (002 Phase A): a die with two values is refused.
    (A JSON log cannot express this, its payload is an object; the Python API can.)"""
    state = started(2)
    twice = ev.DiceRolled(TABLE, dice_event(state).values + (("gray-1", 6),))
    refused(state, twice, "A.dice")


def test_A_dice_by_a_player_is_TURN_actor():
    state = started(2)
    event = ev.DiceRolled("Ana", dice_event(state).values)
    refused(state, event, "TURN.actor", due=TABLE, actor="Ana")


# --- phase B turns --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_B_turns_in_player_order_three_dice_each(n):
    state = in_phase_b(n)
    order = list(names(n))
    seen = []
    while state.phase == "B":
        seen.append(state.pending.actor)
        state = do(state, ev.DiePlaced, state.pool[0], "castle")
    assert seen == order * 3
    assert state.phase == "C"
    assert len(state.pool) == len(CAT.dice_for(n)) - 3 * n  # 1 die left over with 2 and 3 players, 1 with 4


def test_B_turns_follow_the_seating():
    state = in_phase_b(3, order=("Bruno", "Carla", "Ana"))
    assert state.pending.actor == "Bruno"
    state = do(state, ev.DiePlaced, "gray-1", "castle")
    assert state.pending.actor == "Carla"


def test_B_out_of_turn_is_TURN_actor():
    state = in_phase_b(3)
    refused(state, ev.DiePlaced("Bruno", "gray-1", "castle"), "TURN.actor", due="Ana", actor="Bruno", kind="draft")


def test_B_legal_offers_every_pool_die_in_every_location():
    state = in_phase_b(2)
    options = legal(state)
    assert len(options) == 7 * 4
    assert ev.DiePlaced("Ana", "white-1", "lower") in options


# --- B.die ------------------------------------------------------------------------------------------


def test_B_die_legal_takes_it_from_the_dice_area():
    state = in_phase_b(3)
    state = accepted(state, ev.DiePlaced("Ana", "orange-2", "upper"))
    assert "orange-2" not in state.pool
    assert row_of(state, "upper") == [("token-upper-1", 3, "token"), ("orange-2", 3, "Ana")]


def test_B_die_already_taken():
    state = do(in_phase_b(3), ev.DiePlaced, "orange-2", "upper")
    refused(state, ev.DiePlaced("Bruno", "orange-2", "castle"), "B.die", die="orange-2", dice_area=state.pool)


@pytest.mark.parametrize("die", ["purple-3", "green-3", "black-1", "white-2"])
def test_B_die_not_in_this_games_pool(die):
    state = in_phase_b(3)
    refused(state, ev.DiePlaced("Ana", die, "castle"), "B.die", die=die)


# --- B.location -------------------------------------------------------------------------------------


@pytest.mark.parametrize("location", ["castle", "upper", "central", "lower"])
def test_B_location_legal(location):
    state = accepted(in_phase_b(4), ev.DiePlaced("Ana", "gray-1", location))
    assert row_of(state, location) == [("gray-1", 3, "Ana")]


@pytest.mark.parametrize("location", ["harbour", "Castle", "city", "pilgrimage"])
def test_B_location_not_a_city_location(location):
    refused(in_phase_b(4), ev.DiePlaced("Ana", "gray-1", location), "B.location", location=location)


# --- ordering in the rows ---------------------------------------------------------------------------

VALUES = {"gray-1": 3, "gray-2": 1, "gray-3": 3, "orange-1": 6, "orange-2": 3, "orange-3": 2,
          "purple-1": 4, "purple-2": 5, "purple-3": 4, "green-1": 2, "green-2": 2, "green-3": 6, "white-1": 1}


def test_B_castle_ascending_equal_value_goes_right():
    state = in_phase_b(4, VALUES)
    state = place_all(state, [("gray-1", "castle"), ("gray-2", "castle"), ("gray-3", "castle"),
                              ("orange-1", "castle"), ("orange-2", "castle"), ("white-1", "castle")])
    assert row_of(state, "castle") == [
        ("gray-2", 1, "Bruno"), ("white-1", 1, "Bruno"),  # 1 then the later 1 to its right
        ("gray-1", 3, "Ana"), ("gray-3", 3, "Carla"), ("orange-2", 3, "Ana"),  # 3s in arrival order
        ("orange-1", 6, "Duarte"),
    ]


def test_B_cities_descending_equal_value_goes_right():
    state = in_phase_b(4, VALUES)
    state = place_all(state, [("purple-1", "central"), ("orange-3", "central"), ("purple-3", "central"),
                              ("green-3", "central"), ("purple-2", "central"), ("green-1", "central")])
    assert row_of(state, "central") == [
        ("green-3", 6, "Duarte"), ("purple-2", 5, "Ana"),
        ("purple-1", 4, "Ana"), ("purple-3", 4, "Carla"),
        ("orange-3", 2, "Bruno"), ("green-1", 2, "Bruno"),
    ]


def test_B_a_player_may_put_several_dice_in_one_location():
    state = in_phase_b(2)
    state = place_all(state, [("gray-1", "upper"), ("gray-2", "castle"), ("orange-1", "upper"),
                              ("orange-2", "castle"), ("white-1", "upper")])
    assert [owner for _, _, owner in row_of(state, "upper") if owner != "token"] == ["Ana"] * 3


def test_B_3_player_die_tokens_count_as_neutral_dice():
    """Stand-in tokens, 3 players: upper 3, central 4, lower 3. Equal values go right of the token."""
    state = in_phase_b(3, {"gray-1": 4, "gray-2": 5, "gray-3": 3, "orange-1": 3, "orange-2": 2, "orange-3": 1})
    state = place_all(state, [("gray-1", "central"), ("gray-2", "central"), ("gray-3", "central"),
                              ("orange-1", "lower"), ("orange-2", "lower"), ("orange-3", "upper")])
    assert row_of(state, "central") == [("gray-2", 5, "Bruno"), ("token-central-1", 4, "token"),
                                        ("gray-1", 4, "Ana"), ("gray-3", 3, "Carla")]
    assert row_of(state, "lower") == [("token-lower-1", 3, "token"), ("orange-1", 3, "Ana"),
                                      ("orange-2", 2, "Bruno")]
    assert row_of(state, "upper") == [("token-upper-1", 3, "token"), ("orange-3", 1, "Carla")]


def test_B_2_player_die_tokens_count_as_neutral_dice():
    """Stand-in tokens, 2 players: upper 3 and 2, central 4 and 3, lower 5."""
    state = in_phase_b(2, {"gray-1": 3, "gray-2": 6, "orange-1": 2, "orange-2": 5, "white-1": 4})
    state = place_all(state, [("gray-1", "upper"), ("gray-2", "upper"), ("orange-1", "upper"),
                              ("orange-2", "lower"), ("white-1", "central")])
    assert row_of(state, "upper") == [("gray-2", 6, "Bruno"), ("token-upper-1", 3, "token"), ("gray-1", 3, "Ana"),
                                      ("token-upper-2", 2, "token"), ("orange-1", 2, "Ana")]
    assert row_of(state, "lower") == [("token-lower-1", 5, "token"), ("orange-2", 5, "Bruno")]
    assert row_of(state, "central") == [("token-central-1", 4, "token"), ("white-1", 4, "Ana"),
                                        ("token-central-2", 3, "token")]


def test_insert_position_unit():
    row = (Slot("a", 2, 0), Slot("b", 4, 1), Slot("c", 4, 2), Slot("d", 6, 0))
    assert [insert_position(row, "castle", v) for v in (1, 2, 3, 4, 5, 6)] == [0, 1, 1, 3, 3, 4]
    city = tuple(reversed(row))  # 6, 4, 4, 2
    assert [insert_position(city, "upper", v) for v in (6, 5, 4, 3, 2, 1)] == [1, 1, 3, 3, 4, 4]
    assert insert_position((), "lower", 3) == 0
