"""Phase F (003 Phase F, Limits; GAPS 3, 9): investing in voyages."""

from __future__ import annotations

from functools import lru_cache

import pytest

from coimbra_events import events as ev
from coimbra_events.rules.core import legal
from coimbra_events.rules.voyages import voyage_cost

from .helpers import CAT, accepted, catalog_with, do, drive, placed, refused, waiting_for, with_player

BOARD = ("v-01", "v-02", "v-03", "v-04", "v-05", "v-06")
SPACES = [(k, BOARD[k], res, cost) for k, (res, cost) in
          enumerate([("coins", 2), ("coins", 4), ("coins", 6), ("guards", 2), ("guards", 4), ("guards", 6)])]


@lru_cache(maxsize=None)
def phase_f(cat=CAT, bruno_tile: str | None = None):
    """2 players, round 1, phase F: Bruno invests first. ``bruno_tile``: the favor tile Bruno's castle die took."""
    hands = {"Ana": [("gray-1", "lower"), ("orange-1", "lower"), ("white-1", "lower")],
             "Bruno": [("gray-2", "castle" if bruno_tile else "lower"), ("purple-1", "lower"), ("green-1", "lower")]}
    state = placed(2, hands=hands, cat=cat)
    if bruno_tile:
        state = do(state, ev.FavorTileTaken, bruno_tile)
    state = drive(state, waiting_for("voyage"))
    assert state.pending.actor == "Bruno" and state.phase == "F"
    return state


def test_voyage_spaces_resources_and_costs():
    """003: the 3 left spaces take coins, the 3 right ones guards (amounts: stand-in)."""
    assert [(s.resource, s.cost) for s in CAT.voyage_spaces] == [(r, c) for _, _, r, c in SPACES]


# --- F.voyage ---------------------------------------------------------------------------------------


def test_F_voyage_legal_puts_a_disc_on_the_card():
    state = accepted(phase_f(), ev.VoyageInvested("Bruno", "v-02"))
    assert state.voyage_discs[1] == ("Bruno",)
    assert state.player("Bruno").voyages == ("v-02",)


@pytest.mark.parametrize("voyage", ["v-07", "v-15", "nowhere"])
def test_F_voyage_not_on_the_board(voyage):
    refused(phase_f(), ev.VoyageInvested("Bruno", voyage), "F.voyage", voyage=voyage, board=BOARD)


def test_F_pass_is_always_legal():
    state = phase_f()
    assert ev.VoyagePassed("Bruno") in legal(state)
    state = accepted(state, ev.VoyagePassed("Bruno"))
    assert state.pending.actor == "Ana" and state.pending.kind == "voyage"


# --- F.cost --------------------------------------------------------------------------------------


@pytest.mark.parametrize("space, voyage, resource, cost", SPACES)
def test_F_cost_exactly_enough(space, voyage, resource, cost):
    state = with_player(phase_f(), "Bruno", **{resource: cost})
    after = accepted(state, ev.VoyageInvested("Bruno", voyage)).player("Bruno")
    assert getattr(after, resource) == 0


@pytest.mark.parametrize("space, voyage, resource, cost", SPACES)
def test_F_cost_one_short(space, voyage, resource, cost):
    other = "guards" if resource == "coins" else "coins"
    state = with_player(phase_f(), "Bruno", **{resource: cost - 1, other: 20})
    refused(state, ev.VoyageInvested("Bruno", voyage), "F.cost", voyage=voyage, space=space + 1, cost=cost,
            resource=resource, have=cost - 1)


def test_F_cost_legal_lists_only_affordable_voyages():
    state = with_player(phase_f(), "Bruno", coins=4, guards=1)
    assert {e.voyage for e in legal(state) if isinstance(e, ev.VoyageInvested)} == {"v-01", "v-02"}


# --- the 3-crown favor tile ------------------------------------------------------------------------


@pytest.mark.parametrize("space, voyage, resource, cost", SPACES)
def test_F_cost_three_crown_tile_makes_it_2_cheaper(space, voyage, resource, cost):
    state = phase_f(bruno_tile="f-3")
    assert state.player("Bruno").favor_tiles == ("f-3",)
    assert voyage_cost(CAT, state.player("Bruno"), space) == (resource, cost - 2)
    enough = with_player(state, "Bruno", **{resource: cost - 2})
    assert getattr(accepted(enough, ev.VoyageInvested("Bruno", voyage)).player("Bruno"), resource) == 0
    if cost - 2 > 0:
        short = with_player(state, "Bruno", **{resource: cost - 3})
        refused(short, ev.VoyageInvested("Bruno", voyage), "F.cost", cost=cost - 2, have=cost - 3)


def test_F_cost_other_favor_tiles_give_no_discount():
    state = with_player(phase_f(bruno_tile="f-4"), "Bruno", coins=1)
    refused(state, ev.VoyageInvested("Bruno", "v-01"), "F.cost", cost=2, have=1)


def test_F_cost_discount_never_below_0():
    """A catalog whose 3-crown tile takes 3 off: the 2-cost voyage costs 0, never pays back."""
    def bigger_discount(data):
        tile = next(t for t in data["favor_tiles"] if t["crowns"] == 3)
        tile["effects"] = [{"kind": "voyage_discount", "amount": 3}]

    cat = catalog_with(bigger_discount)
    state = with_player(phase_f(cat, bruno_tile="f-3"), "Bruno", coins=0)
    assert voyage_cost(cat, state.player("Bruno"), 0) == ("coins", 0)
    after = accepted(state, ev.VoyageInvested("Bruno", "v-01")).player("Bruno")
    assert after.coins == 0


# --- F.once and one investment per round -----------------------------------------------------------


def test_F_one_investment_per_round():
    state = do(phase_f(), ev.VoyageInvested, "v-01")
    assert state.pending.actor == "Ana"
    refused(state, ev.VoyageInvested("Bruno", "v-02"), "TURN.actor", due="Ana", actor="Bruno")


def test_F_any_number_of_players_per_voyage():
    state = do(phase_f(), ev.VoyageInvested, "v-01")
    state = accepted(state, ev.VoyageInvested("Ana", "v-01"))
    assert state.voyage_discs[0] == ("Bruno", "Ana")


def test_F_once_per_player_per_voyage():
    state = do(phase_f(), ev.VoyageInvested, "v-01")
    state = do(state, ev.VoyagePassed)  # Ana
    state = drive(state, waiting_for("voyage", "Bruno"))
    assert state.round == 2
    state = with_player(state, "Bruno", coins=20, guards=20)
    refused(state, ev.VoyageInvested("Bruno", "v-01"), "F.once", voyage="v-01", investors=("Bruno",))
    state = accepted(state, ev.VoyageInvested("Bruno", "v-02"))
    assert state.player("Bruno").voyages == ("v-01", "v-02")


def test_F_voyage_at_the_wrong_moment_is_TURN_kind():
    state = phase_f()
    refused(state, ev.IncomeEnded("Bruno"), "TURN.kind", kind="voyage")
