"""Final scoring (000 Game Objective; 003 Limits; GAPS 6, 8, 9, 10, 11): tiles, end-game effects, places."""

from __future__ import annotations

from functools import lru_cache

import pytest

from coimbra_events.catalog import standin_catalog
from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.rules.scoring import final_scores, totals, track_ranking
from coimbra_events.rules.tx import Tx
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate

from .helpers import CAT, catalog_with, names, started, with_player, with_state

# default scoring tiles: gray score-1, orange score-2, purple score-3, green score-4
TILE_POINTS = {t: CAT.scoring_tiles[tile].points for t, tile in zip(TRACKS, ("score-1", "score-2", "score-3", "score-4"))}


@lru_cache(maxsize=None)
def blank(n: int = 4):
    """A started game with every player wiped clean: no cards, points, resources, influence."""
    state = started(n)
    for name in names(n):
        state = with_player(state, name, influence=(0, 0, 0, 0), arrivals=(0, 0, 0, 0), points=0,
                            points_by_source=(), start_cards=(), cards=(), coins=0, guards=0, monasteries=(),
                            voyages=(), crowns_total=0)
    return state


def scored(state):
    return {s.name: s for s in final_scores(state)}


def tile_points(state, name):
    return sum(v for _, v in scored(state)[name].influence_tiles)


def on(state, track, **spaces):
    """Put discs on ``track``; players named in order arrive in that order (earlier = lower tick)."""
    for tick, (name, space) in enumerate(spaces.items(), start=1):
        state = with_player(state, name, influence={track: space}, arrivals={track: tick})
    return state


def test_scoring_tile_sides_in_catalog():
    assert TILE_POINTS["gray"] == {"2-3": (8, 4, 0), "4": (8, 5, 2, 0)}


# --- influence scoring tiles --------------------------------------------------------------------


def test_influence_tile_ranks_by_position_4_players():
    state = on(blank(4), "orange", Ana=5, Bruno=3, Carla=9, Duarte=1)
    assert [p.name for p in track_ranking(state, "orange")] == ["Carla", "Ana", "Bruno", "Duarte"]
    assert [tile_points(state, n) for n in ("Carla", "Ana", "Bruno", "Duarte")] == [10, 6, 3, 1]  # 4-player side


def test_influence_tile_2_3_player_side():
    state = on(blank(3), "orange", Ana=5, Bruno=3, Carla=9)
    assert [tile_points(state, n) for n in ("Carla", "Ana", "Bruno")] == [10, 5, 2]


def test_influence_tile_2_players_use_the_2_3_side():
    state = on(blank(2), "purple", Ana=1, Bruno=15)
    assert (tile_points(state, "Bruno"), tile_points(state, "Ana")) == (6, 3)


def test_influence_tile_same_space_first_arrival_ahead():
    state = on(blank(4), "green", Bruno=7, Ana=7)  # Bruno arrived first
    assert [p.name for p in track_ranking(state, "green")][:2] == ["Bruno", "Ana"]
    assert (tile_points(state, "Bruno"), tile_points(state, "Ana")) == (12, 7)


def test_influence_tile_space_0_scores_nothing():
    """Orange (4 players: 10/6/3/1): only Ana has left space 0; nobody else scores, not even rank 4's point."""
    state = on(blank(4), "orange", Ana=2)
    assert [p.name for p in track_ranking(state, "orange")] == ["Ana"]
    assert {n: tile_points(state, n) for n in names(4)} == {"Ana": 10, "Bruno": 0, "Carla": 0, "Duarte": 0}


def test_influence_tile_space_1_scores_but_0_does_not():
    state = on(blank(4), "orange", Ana=2, Bruno=1, Carla=1)
    assert [tile_points(state, n) for n in names(4)] == [10, 6, 3, 0]


@pytest.mark.parametrize("ana_first", [True, False])
def test_influence_tile_same_space_order_follows_folded_arrivals(ana_first):
    """Ana: Watch Captain (gray 1) + Student (+1 on a track: gray) -> gray 2; Bruno: Town Sergeant -> gray 2.
    Start cards are used in player order, so the first player's disc reaches space 2 first."""
    ana_group, bruno_group = ("c-I-02", "c-I-07"), ("c-I-01", "c-I-03")
    order = ("Ana", "Bruno") if ana_first else ("Bruno", "Ana")
    groups = (ana_group, bruno_group) if ana_first else (bruno_group, ana_group)
    state = started(2, order=order, groups=groups)
    assert state.player("Ana").influence_on("gray") == state.player("Bruno").influence_on("gray") == 2
    leader = order[0]
    assert track_ranking(state, "gray")[0].name == leader
    assert tile_points(state, leader) >= 8 and dict(scored(state)[leader].influence_tiles)


# --- end-game effects ---------------------------------------------------------------------------------


def card_points(state, name):
    return dict(scored(state)[name].cards)


@pytest.mark.parametrize("cards, fields, card, points", [
    (("c-II-24",), {}, "c-II-24", 4),  # points: fixed 4
    (("c-II-21", "c-II-19", "c-III-22"), {}, "c-II-21", 3),  # 1 per green card (itself included)
    (("c-III-22", "c-II-01"), {"start_cards": ("c-I-01", "c-I-02")}, "c-III-22", 4),  # 1 per card, start cards too
    (("c-II-22", "c-II-06", "c-II-12", "c-II-18"), {}, "c-II-22", 6),  # 2 per rosette: 3 rosettes
    (("c-III-11", "c-II-06", "c-II-12", "c-II-21"), {}, "c-III-11", 4),  # rosette+quill sets: 1 (2 rosettes, 1 quill)
    (("c-II-16",), {"monasteries": ("m-I-01", "m-II-01", "m-III-01")}, "c-II-16", 3),  # 1 per monastery
    (("c-III-15",), {"monasteries": ("m-I-01", "m-II-01", "m-II-02")}, "c-III-15", 6),  # 3 per pile II monastery
    (("c-II-10",), {"voyages": ("v-01", "v-02")}, "c-II-10", 2),  # 1 per voyage
    (("c-III-03",), {"influence": {"gray": 8}}, "c-III-03", 2),  # 1 per 3 gray spaces: 8 -> 2
    (("c-III-17",), {"influence": {"purple": 15, "gray": 3}}, "c-III-17", 7),  # highest 15, per 2 -> 7
    (("c-III-24",), {"influence": (4, 5, 6, 7)}, "c-III-24", 2),  # lowest 4, per 2 -> 2
    (("c-II-06",), {"crowns_total": 9}, "c-II-06", 9),  # 1 per crown collected
])
def test_end_game_card_effect_kinds(cards, fields, card, points):
    state = with_player(blank(2), "Ana", cards=cards, **fields)
    assert card_points(state, "Ana").get(card, 0) == points


def test_end_game_cards_other_timings_score_nothing():
    state = with_player(blank(2), "Ana", cards=("c-II-19", "c-II-20", "c-II-05"), start_cards=("c-I-01", "c-I-02"))
    assert card_points(state, "Ana") == {}


def test_end_game_effect_scoring_zero_is_left_out():
    state = with_player(blank(2), "Ana", cards=("c-II-10",))  # no voyages
    assert card_points(state, "Ana") == {}


def test_end_game_monasteries_and_voyages():
    state = with_player(blank(2), "Ana", monasteries=("m-I-11", "m-II-06", "m-I-01"), voyages=("v-01", "v-02"),
                        cards=("c-II-01", "c-III-01"))
    sheet = scored(state)["Ana"]
    assert dict(sheet.monasteries) == {"m-I-11": 3, "m-II-06": 3}  # Cete 3; Leça: 1 per monastery (3)
    assert dict(sheet.voyages) == {"v-01": 5, "v-02": 4}  # Ceuta 5; Madeira 2 per gray card (2)


def test_total_adds_every_source():
    state = on(blank(2), "green", Ana=4)
    state = with_player(state, "Ana", points=11, points_by_source=(("income", 11),), cards=("c-II-24",),
                        voyages=("v-01",))
    sheet = scored(state)["Ana"]
    assert sheet.total == 11 + 12 + 4 + 5
    assert sum(sheet.sources().values()) == sheet.total
    assert sheet.sources()["during play"] == 11


def test_leftover_coins_and_guards_score_nothing_in_the_stand_in():
    state = with_player(blank(2), "Ana", coins=20, guards=20)
    assert scored(state)["Ana"].leftover == 0 and scored(state)["Ana"].total == 0


def test_leftover_conversion_set_by_a_catalog():
    def convert(data):
        data["final_scoring"]["leftover"] = {"coins_per_point": 3, "guards_per_point": 5}

    state = with_state(with_player(blank(2), "Ana", coins=8, guards=10), catalog=catalog_with(convert))
    assert scored(state)["Ana"].leftover == 2 + 2


# --- places ------------------------------------------------------------------------------------------


def test_most_points_wins():
    state = with_player(with_player(blank(3), "Bruno", points=10), "Carla", points=4)
    assert [(s.name, s.place) for s in final_scores(state)] == [("Bruno", 1), ("Carla", 2), ("Ana", 3)]


def test_tie_broken_by_coins_plus_guards_left():
    state = with_player(blank(3), "Ana", points=10, coins=3, guards=4)
    state = with_player(state, "Bruno", points=10, coins=8, guards=0)
    places = {s.name: s.place for s in final_scores(state)}
    assert places == {"Bruno": 1, "Ana": 2, "Carla": 3}
    assert scored(state)["Bruno"].resources_left == 8


def test_tie_on_points_and_resources_shares_the_place():
    state = with_player(blank(4), "Ana", points=10, coins=3, guards=4)
    state = with_player(state, "Bruno", points=10, coins=5, guards=2)
    state = with_player(state, "Carla", points=2)
    places = {s.name: s.place for s in final_scores(state)}
    assert places == {"Ana": 1, "Bruno": 1, "Carla": 3, "Duarte": 4}


def test_tie_break_shared_set_by_a_catalog():
    """GAPS 11: final ties are a catalog value; TIE_BREAKS allows 'shared' (no resources tie-break)."""
    def shared(data):
        data["final_scoring"]["tie_break"] = "shared"

    state = with_player(blank(3), "Ana", points=10, coins=3, guards=4)
    state = with_player(state, "Bruno", points=10, coins=8, guards=0)
    state = with_state(state, catalog=catalog_with(shared))
    assert state.catalog.tie_break == "shared"
    places = {s.name: s.place for s in final_scores(state)}
    assert places == {"Ana": 1, "Bruno": 1, "Carla": 3}


def test_points_by_source_keep_the_order_sources_first_scored_in():
    """Each source's points add up in place; a source scoring for the first time goes last."""
    state = with_player(started(2), "Ana", points=3, points_by_source=(("income", 2), ("exchange", 1)))
    tx = Tx(state)
    tx.add_points(0, 4, "income")
    tx.add_points(0, 2, "c-II-24")
    tx.add_points(0, 1, "exchange")
    ana = tx.freeze().player("Ana")
    assert ana.points_by_source == (("income", 6), ("exchange", 2), ("c-II-24", 2))
    assert ana.points == 10


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_totals_are_the_score_sheets_totals_by_seat(players, seed):
    """``totals``, what a playout ends on (and the sheets' totals), adds up the same points as the score sheets'
    sources people read, part by part."""
    _, state = simulate(standin_catalog(), DEFAULT_PLAYERS[:players], seed)
    sheets = {s.name: sum(s.sources().values()) for s in final_scores(state)}
    assert state.over
    assert totals(state) == [sheets[pl.name] for pl in state.players]
