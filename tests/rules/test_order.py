"""Phase D (000 Phase D; GAPS 2, 3): the new player order by crowns, ties reversed."""

from __future__ import annotations

import pytest

from coimbra_events import events as ev
from coimbra_events.rules.income import new_order, round_crowns

from .helpers import CAT, do, drive, in_phase, names, placed, started, waiting_for, with_player


def order_names(state, order=None):
    return [state.players[i].name for i in (state.order if order is None else order)]


def holding(n=4, order=None, **held):
    """A state whose players hold ``held[name] = (favor tiles, crown token categories)`` this round."""
    state = started(n, order=order)
    for name, (tiles, tokens) in held.items():
        state = with_player(state, name, favor_tiles=tuple(tiles), crown_tokens=tuple(tokens))
    return state


def reorder(state):
    return [state.players[i].name for i in new_order(CAT, state.players, state.order)]


def test_flag_crowns_are_the_catalogs():
    assert CAT.flag_crowns == (0, 1, 2, 3)  # GAPS 2 stand-in


def test_round_crowns_sum_tokens_tiles_and_flag():
    state = holding(Ana=(("f-2", "f-4"), ("gray", "green")))
    ana = state.player("Ana")
    assert round_crowns(CAT, ana, 0) == 2 + 4 + 2 * CAT.crown_token_crowns + 0
    assert round_crowns(CAT, ana, 3) == 2 + 4 + 2 + 3


def test_D_nobody_took_crowns_flag_crowns_decide():
    """Flags 1..4 carry 0..3 crowns: with nothing else, the order turns round."""
    assert reorder(holding()) == ["Duarte", "Carla", "Bruno", "Ana"]


def test_D_most_crowns_first():
    state = holding(Ana=(("f-4",), ()), Bruno=(("f-3",), ("gray",)))  # Ana 4, Bruno 3+1+1=5, Carla 2, Duarte 3
    assert reorder(state) == ["Bruno", "Ana", "Duarte", "Carla"]


def test_D_tie_of_two_is_reversed():
    state = holding(2, Ana=(("f-1",), ()))  # Ana 0+1 = Bruno 1
    assert reorder(state) == ["Bruno", "Ana"]


def test_D_tie_of_three_is_reversed():
    state = holding(Ana=(("f-2",), ()), Bruno=((), ("orange",)))  # Ana 2, Bruno 2, Carla 2, Duarte 3
    assert reorder(state) == ["Duarte", "Carla", "Bruno", "Ana"]


def test_D_tie_between_far_apart_flags_is_reversed():
    state = holding(Ana=(("f-3",), ()))  # Ana 3 = Duarte 3 > Carla 2 > Bruno 1
    assert reorder(state) == ["Duarte", "Ana", "Carla", "Bruno"]


def test_D_tie_reversal_uses_current_flags_not_seating_names():
    state = holding(3, order=("Carla", "Ana", "Bruno"), Carla=(("f-1",), ()))  # Carla 1 = Ana 1 < Bruno 2
    assert order_names(state) == ["Carla", "Ana", "Bruno"]
    assert reorder(state) == ["Bruno", "Ana", "Carla"]


# --- through the game -----------------------------------------------------------------------------

HANDS = {
    "Ana": [("gray-1", "castle"), ("orange-1", "upper"), ("purple-1", "lower")],
    "Bruno": [("gray-2", "castle"), ("orange-2", "lower"), ("purple-2", "lower")],
    "Carla": [("gray-3", "lower"), ("orange-3", "lower"), ("purple-3", "lower")],
    "Duarte": [("green-1", "lower"), ("green-2", "lower"), ("white-1", "lower")],
}


def test_D_new_order_after_phase_C_drives_E_and_F():
    """Ana: f-3 (3 crowns) and the gray crown token (1); Bruno f-4 (4) +1 flag; Carla 2; Duarte 3."""
    state = placed(4, {"gray-1": 2, "gray-2": 1, "orange-1": 6}, hands=HANDS)
    state = do(state, ev.FavorTileTaken, "f-4")  # Bruno (1 is left of Ana's 2)
    state = do(state, ev.FavorTileTaken, "f-3")  # Ana
    state = with_player(state, "Ana", coins=6)
    state = do(state, ev.CardBought, "c-II-01")  # Ana, upper: gray crown token
    state = drive(state, waiting_for("income"))
    # Bruno 4+1 = 5, Ana 3+1+0 = 4, Duarte 3, Carla 2
    assert order_names(state) == ["Bruno", "Ana", "Duarte", "Carla"]
    assert state.pending.actor == "Bruno"
    seen = []
    while state.phase == "E":
        seen.append(state.pending.actor)
        state = do(state, ev.IncomeEnded)
    assert seen == ["Bruno", "Ana", "Duarte", "Carla"]
    assert state.pending.actor == "Bruno" and state.pending.kind == "voyage"


def test_D_crowns_of_last_round_do_not_count_next_round():
    state = placed(4, {"gray-1": 2, "gray-2": 1}, hands=HANDS)
    state = do(state, ev.FavorTileTaken, "f-4")
    state = drive(state, waiting_for("dice"))
    assert state.round == 2
    assert all(p.favor_tiles == () and p.crown_tokens == () for p in state.players)
    assert state.favor_available == tuple(CAT.favor_tiles)
    assert state.player("Bruno").crowns_total == 4  # collected over the game (end-game scoring)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_D_passive_round_reverses_the_order(n):
    state = drive(placed(n), in_phase("E"))
    assert order_names(state) == list(names(n))[::-1]
