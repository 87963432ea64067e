"""Phase E (003 Phase E, The white die, Phase E bonuses, Limits; GAPS 4, 5, 15): income by die colour."""

from __future__ import annotations

from functools import lru_cache

import pytest

from coimbra_events import events as ev
from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.rules import effects, income
from coimbra_events.rules.core import legal
from coimbra_events.state import EXTRA_DIE

from .helpers import CAT, accepted, catalog_with, do, drive, placed, refused, to_income, waiting_for, with_player

# The income table of rules text 003, written out: (first space, last space) -> track -> (amount, bonus points)
TABLE_003 = {
    (0, 0): {"gray": (1, 0), "orange": (1, 0), "purple": (1, 0), "green": (1, 0)},
    (1, 3): {"gray": (3, 0), "orange": (3, 0), "purple": (2, 0), "green": (3, 0)},
    (4, 6): {"gray": (5, 0), "orange": (5, 0), "purple": (3, 0), "green": (4, 0)},
    (7, 9): {"gray": (7, 0), "orange": (7, 0), "purple": (4, 0), "green": (5, 0)},
    (10, 12): {"gray": (9, 0), "orange": (9, 0), "purple": (5, 0), "green": (6, 0)},
    (13, 15): {"gray": (10, 2), "orange": (10, 2), "purple": (6, 1), "green": (8, 0)},
}
EDGES = (0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 15)
RESOURCE = {"gray": "guards", "orange": "coins", "purple": "steps", "green": "points"}
DIE_OF = {"gray": "gray-2", "orange": "orange-2", "purple": "purple-1", "green": "green-1"}


def expected(track, position):
    return next(v[track] for (lo, hi), v in TABLE_003.items() if lo <= position <= hi)


@lru_cache(maxsize=None)
def income_game(bruno: tuple[str, ...], ana: tuple[str, ...] = ("gray-1", "orange-1", "white-1"),
                bruno_cards: tuple[str, ...] = (), bruno_influence: tuple[int, ...] | None = None):
    """2 players, phase E of round 1. Bruno (flag 2, one crown more) collects first.

    ``bruno_cards`` are in his phase E zone from the start of the round (start-of-phase-E bonuses apply).
    States are immutable, so the scenario is built once per arguments.
    """
    def tweak(state):
        fields = {"cards": bruno_cards}
        if bruno_influence is not None:
            fields["influence"] = bruno_influence
        return with_player(state, "Bruno", **fields)

    return to_income(2, hands={"Ana": ana, "Bruno": bruno}, tweak=tweak)


def bruno_first(*dice, **kw):
    state = income_game(tuple(dice), **kw)
    assert state.pending.actor == "Bruno" and state.pending.kind == "income"
    return state


def ana_second(ana=("gray-1", "orange-1", "white-1"), **fields):
    state = do(income_game(("gray-2", "purple-1", "green-1"), tuple(ana)), ev.IncomeEnded)  # Bruno done
    assert state.pending.actor == "Ana" and state.pending.kind == "income"
    return with_player(state, "Ana", **fields) if fields else state


def gained(before, after, resource):
    return getattr(after, resource) - getattr(before, resource)


# --- the income table ----------------------------------------------------------------------------


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("position", range(16))
def test_income_table_matches_rules_text(track, position):
    resource, amount, bonus = income.income(CAT, track, position)
    assert resource == RESOURCE[track]
    assert (amount, bonus) == expected(track, position)


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("position", EDGES)
def test_E_track_income_at_tier_edges(track, position):
    """A die of the track's colour pays the row of its disc's space; the top row adds victory points (GAPS 5)."""
    state = with_player(bruno_first("gray-2", "purple-1", "green-1") if track != "orange"
                        else bruno_first("orange-2", "purple-1", "green-1"),
                        "Bruno", influence={track: position}, coins=5, guards=5)
    before = state.player("Bruno")
    state = accepted(state, ev.IncomeActivated("Bruno", DIE_OF[track], track))
    after = state.player("Bruno")
    amount, bonus = expected(track, position)
    if track == "purple":
        assert (state.pending.kind, state.pending.amount, state.pending.source) == ("steps", amount, "income")
        assert gained(before, after, "points") == bonus
    elif track == "green":
        assert gained(before, after, "points") == amount + bonus
    else:
        assert gained(before, after, RESOURCE[track]) == amount
        assert gained(before, after, "points") == bonus
    assert after.influence == before.influence  # income never moves the discs


def test_E_top_tier_green_is_8_points_without_bonus():
    state = with_player(bruno_first("gray-2", "purple-1", "green-1"), "Bruno", influence={"green": 13})
    before = state.player("Bruno").points
    assert do(state, ev.IncomeActivated, "green-1", "green").player("Bruno").points == before + 8


@pytest.mark.parametrize("resource, start, track, position, result", [
    ("guards", 15, "gray", 13, 20),  # 15 + 10 -> 20 (5 lost), +2 points still
    ("guards", 20, "gray", 0, 20),
    ("coins", 19, "orange", 1, 20),  # 19 + 3 -> 20
    ("coins", 17, "orange", 1, 20),  # exactly 20
])
def test_E_income_capped_at_20(resource, start, track, position, result):
    state = bruno_first("gray-2", "orange-2", "green-1")
    state = with_player(state, "Bruno", influence={track: position}, **{resource: start})
    before = state.player("Bruno")
    after = do(state, ev.IncomeActivated, DIE_OF[track], track).player("Bruno")
    assert getattr(after, resource) == result
    assert after.points - before.points == expected(track, position)[1]


# --- E.die -------------------------------------------------------------------------------------


def test_E_die_each_shutter_die_once():
    state = bruno_first("gray-2", "purple-1", "green-1")
    assert state.player("Bruno").income_left == ("gray-2", "purple-1", "green-1")
    state = accepted(state, ev.IncomeActivated("Bruno", "gray-2", "gray"))
    refused(state, ev.IncomeActivated("Bruno", "gray-2", "gray"), "E.die", die="gray-2", left=("purple-1", "green-1"))


def test_E_die_not_on_this_players_shutter():
    state = bruno_first("gray-2", "purple-1", "green-1")
    refused(state, ev.IncomeActivated("Bruno", "orange-1", "orange"), "E.die", die="orange-1")
    refused(state, ev.IncomeActivated("Bruno", "orange-2", "orange"), "E.die", die="orange-2")  # still in the area


def test_E_die_no_extra_die_without_the_tile():
    state = bruno_first("gray-2", "purple-1", "green-1")
    refused(state, ev.IncomeActivated("Bruno", EXTRA_DIE, "green"), "E.die", die=EXTRA_DIE)


def test_E_dice_in_any_order_and_income_ended_forfeits_the_rest():
    state = bruno_first("gray-2", "purple-1", "green-1")
    state = accepted(state, ev.IncomeActivated("Bruno", "green-1", "green"))
    state = accepted(state, ev.IncomeEnded("Bruno"))
    assert state.pending.actor == "Ana" and state.player("Bruno").income_left == ()


def test_E_all_dice_collected_moves_on_then_shutters_are_emptied():
    state = bruno_first("gray-2", "orange-2", "green-1")
    for die, track in (("gray-2", "gray"), ("orange-2", "orange"), ("green-1", "green")):
        state = do(state, ev.IncomeActivated, die, track)
    assert state.pending.actor == "Ana"
    state = drive(state, waiting_for("voyage"))
    assert all(p.shutter == () for p in state.players)


# --- E.track and the white die -------------------------------------------------------------------


@pytest.mark.parametrize("track", ["orange", "purple", "green"])
def test_E_track_coloured_die_pays_only_its_own_track(track):
    state = bruno_first("gray-2", "purple-1", "green-1")
    refused(state, ev.IncomeActivated("Bruno", "gray-2", track), "E.track", die="gray-2", color="gray", track=track)


@pytest.mark.parametrize("track", TRACKS)
def test_E_track_white_die_pays_any_track(track):
    state = ana_second(influence={track: 7}, coins=5, guards=5)
    before = state.player("Ana")
    state = accepted(state, ev.IncomeActivated("Ana", "white-1", track))
    amount, _ = expected(track, 7)
    if track == "purple":
        assert state.pending.kind == "steps" and state.pending.amount == amount
    else:
        assert gained(before, state.player("Ana"), RESOURCE[track]) == amount


@pytest.mark.parametrize("track", ["white", "choice", "coins"])
def test_E_track_white_die_not_a_track(track):
    refused(ana_second(), ev.IncomeActivated("Ana", "white-1", track), "E.track", die="white-1", track=track)


# --- the extra-die tile (GAPS 4) --------------------------------------------------------------------


def with_extra_die(cards=()):
    """Bruno's castle die took the 2-crown favor tile (the extra-die tile) in phase C."""
    hands = {"Ana": [("gray-1", "lower"), ("orange-1", "lower"), ("white-1", "lower")],
             "Bruno": [("gray-2", "castle"), ("purple-1", "lower"), ("green-1", "lower")]}
    state = placed(2, hands=hands, tweak=lambda s: with_player(s, "Bruno", cards=tuple(cards)))
    state = do(state, ev.FavorTileTaken, "f-2")
    state = drive(state, waiting_for("income"))
    assert state.pending.actor == "Bruno"
    return state


def test_E_die_extra_die_tile_adds_one_activation_on_any_track():
    state = with_extra_die()
    assert state.player("Bruno").income_left == ("gray-2", "purple-1", "green-1", EXTRA_DIE)
    options = legal(state)
    assert {e.track for e in options if isinstance(e, ev.IncomeActivated) and e.die == EXTRA_DIE} == set(TRACKS)
    state = with_player(state, "Bruno", influence={"orange": 4})
    before = state.player("Bruno")
    state = accepted(state, ev.IncomeActivated("Bruno", EXTRA_DIE, "orange"))
    assert gained(before, state.player("Bruno"), "coins") == 5
    refused(state, ev.IncomeActivated("Bruno", EXTRA_DIE, "orange"), "E.die", die=EXTRA_DIE)


def test_E_extra_die_only_in_the_round_the_tile_is_held():
    state = drive(do(with_extra_die(), ev.IncomeEnded), lambda s: s.round == 2 and s.pending.kind == "income")
    assert EXTRA_DIE not in state.player(state.pending.actor).income_left
    assert all(EXTRA_DIE not in p.income_left for p in state.players)


# --- phase E bonuses ---------------------------------------------------------------------------


def test_E_per_die_bonus_for_each_die_of_the_colour():
    """Crossbowman: +1 guard per gray die. Two gray dice: two bonuses."""
    state = bruno_first("gray-1", "gray-2", "green-1", ana=("orange-1", "orange-2", "white-1"),
                        bruno_cards=("c-II-02",))
    state = with_player(state, "Bruno", influence={"gray": 1}, guards=0)
    state = do(state, ev.IncomeActivated, "gray-1", "gray")
    assert state.player("Bruno").guards == 3 + 1
    state = do(state, ev.IncomeActivated, "gray-2", "gray")
    assert state.player("Bruno").guards == 2 * (3 + 1)


def test_E_per_die_bonus_never_counts_the_white_die():
    state = ana_second(cards=("c-II-02",), guards=0, influence={"gray": 1})
    state = do(state, ev.IncomeActivated, "white-1", "gray")
    assert state.player("Ana").guards == 3  # no Crossbowman bonus for white
    state = do(state, ev.IncomeActivated, "gray-1", "gray")
    assert state.player("Ana").guards == 3 + 3 + 1


def test_E_per_die_bonus_never_counts_the_extra_die():
    state = with_extra_die(cards=("c-II-20",))  # Scholar: +1 point per green die
    state = with_player(state, "Bruno", influence={"green": 0})
    points = state.player("Bruno").points
    state = do(state, ev.IncomeActivated, EXTRA_DIE, "green")
    assert state.player("Bruno").points == points + 1
    state = do(state, ev.IncomeActivated, "green-1", "green")
    assert state.player("Bruno").points == points + 1 + 1 + 1


def test_E_plus_one_on_a_track_comes_before_any_die():
    """Militia Captain: at the beginning of phase E, +1 on a track of choice; the better income applies."""
    state = income_game(("gray-2", "purple-1", "green-1"), bruno_cards=("c-II-03",), bruno_influence=(1, 1, 0, 3))
    assert (state.pending.actor, state.pending.kind, state.pending.source) == ("Bruno", "track-choice", "c-II-03")
    refused(state, ev.IncomeActivated("Bruno", "green-1", "green"), "TURN.kind", kind="track-choice")
    state = accepted(state, ev.TrackChosen("Bruno", "green"))
    assert state.player("Bruno").influence_on("green") == 4
    assert state.pending.kind == "income"
    points = state.player("Bruno").points
    assert do(state, ev.IncomeActivated, "green-1", "green").player("Bruno").points == points + 4


def test_E_plus_one_on_a_track_at_15_is_lost():
    """003 Limits: a disc never goes above 15; a disc that does not move keeps its place in the stack."""
    state = income_game(("gray-2", "purple-1", "green-1"), bruno_cards=("c-II-03",), bruno_influence=(1, 1, 0, 15))
    before = state.player("Bruno")
    after = accepted(state, ev.TrackChosen("Bruno", "green")).player("Bruno")
    assert after.influence == before.influence and after.arrivals == before.arrivals


def test_E_no_purple_die_bonus():
    """Friar: 2 steps at the beginning of phase E if none of your dice is purple (white is not purple)."""
    state = income_game(("gray-2", "orange-2", "green-1"), ("gray-1", "purple-1", "white-1"), ("c-II-14",))
    assert (state.pending.kind, state.pending.amount, state.pending.source) == ("steps", 2, "c-II-14")


def test_E_no_purple_die_bonus_not_with_a_purple_die():
    state = bruno_first("gray-2", "purple-1", "green-1", bruno_cards=("c-II-14",))
    assert state.pending.kind == "income"


# --- E.exchange -------------------------------------------------------------------------------------


def test_E_exchange_needs_a_card():
    state = bruno_first("gray-2", "purple-1", "green-1")
    refused(state, ev.PointsExchanged("Bruno", "guards", 1), "E.exchange", give="guards")


def test_E_exchange_legal_as_often_as_affordable():
    """Armourer: 2 guards -> 1 point. With 4 guards: twice is fine, three times is not."""
    state = with_player(bruno_first("gray-2", "purple-1", "green-1", bruno_cards=("c-II-04",)), "Bruno", guards=4)
    points = state.player("Bruno").points
    assert {e.times for e in legal(state) if isinstance(e, ev.PointsExchanged)} == {1, 2}
    refused(state, ev.PointsExchanged("Bruno", "guards", 3), "E.exchange", times=3, rate=2, have=4)
    refused(state, ev.PointsExchanged("Bruno", "guards", 0), "E.exchange", times=0)
    refused(state, ev.PointsExchanged("Bruno", "coins", 1), "E.exchange", give="coins")
    refused(state, ev.PointsExchanged("Bruno", "points", 1), "E.exchange", give="points")
    after = accepted(state, ev.PointsExchanged("Bruno", "guards", 2)).player("Bruno")
    assert (after.guards, after.points) == (0, points + 2)


def test_E_phase_e_zone_is_the_catalogs_own():
    """The zone of a set of cards is remembered; another catalog with the same card ids gets its own, even for the
    very same tuples of cards (remembered by identity)."""
    def dearer_armourer(data: dict) -> None:
        card = next(c for c in data["characters"] if c["id"] == "c-II-04")
        card["bonus"]["effects"][0]["rate"] = 3

    variant = catalog_with(dearer_armourer)
    cards = ("c-I-01", "c-II-04")
    for _ in range(2):  # alternately, each catalog's zone each time
        assert effects.phase_e(CAT, (), cards).offers("guards") == ((2, 1),)
        assert effects.phase_e(variant, (), cards).offers("guards") == ((3, 1),)
    assert effects.phase_e(CAT, (), cards).offer_for("guards", 2, 4) == (2, 1)
    assert effects.phase_e(CAT, (), cards).offer_for("guards", 3, 4) is None
    assert effects.phase_e(CAT, (), cards).offers("points") == ()


def test_E_phase_e_zone_counts_start_cards_and_bought_cards_alike():
    """The same bought cards with other start cards make another zone: one remembered by its tuples tells them
    apart by both (a player with no cards bought holds the same empty tuple as every other)."""
    bought: tuple[str, ...] = ()
    armourer = tuple(["c-II-04"])  # built at run time: not a constant the compiler may share with another test
    for _ in range(2):
        assert effects.phase_e(CAT, armourer, bought).offers("guards") == ((2, 1),)
        assert effects.phase_e(CAT, (), bought).offers("guards") == ()
        assert effects.phase_e(CAT, (), armourer).offers("guards") == ((2, 1),)
    for k in range(20):  # more tuples than are remembered by identity: each still gets its own zone
        assert effects.phase_e(CAT, tuple(["c-I-01"] * (k % 3)), armourer).cheapest("guards") == 2
        assert effects.phase_e(CAT, tuple(["c-I-01"] * (k % 3)), bought).cheapest("guards") == 0


def test_E_exchange_at_any_time_in_phase_E_keeps_the_turn():
    state = with_player(bruno_first("gray-2", "purple-1", "green-1", bruno_cards=("c-II-04",)), "Bruno",
                        influence={"gray": 1}, guards=1)
    refused(state, ev.PointsExchanged("Bruno", "guards", 1), "E.exchange", have=1)
    state = do(state, ev.IncomeActivated, "gray-2", "gray")  # +3 guards -> 4
    state = do(state, ev.IncomeActivated, "purple-1", "purple")
    state = do(state, ev.PilgrimStopped)
    state = do(state, ev.IncomeActivated, "green-1", "green")
    assert state.pending.actor == "Bruno" and state.player("Bruno").income_left == ()  # may still exchange
    state = accepted(state, ev.PointsExchanged("Bruno", "guards", 2))
    assert state.pending.actor == "Ana"  # nothing left to do: the turn moves on


def test_E_exchange_each_card_can_be_used_when_holding_two():
    """Tax Collector (2 coins -> 1 point) and Royal Factor (3 coins -> 2 points), 2 coins: the rule text
    ('trade ... at 2 to 1, as often as you like') lets Tax Collector's owner trade the 2 coins for 1 point."""
    state = with_player(bruno_first("gray-2", "purple-1", "green-1", bruno_cards=("c-II-09", "c-III-12")),
                        "Bruno", coins=2)
    state = accepted(state, ev.PointsExchanged("Bruno", "coins", 1))
    assert state.player("Bruno").coins == 0
