"""Setup (rules text 000 Setup 1-13): the table's outcomes, their checks, die tokens, crown tokens."""

from __future__ import annotations

import random

import pytest

from coimbra_events import events as ev
from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.rules.core import legal, start
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.rules.setup import SETUP_STEPS, crown_tokens
from coimbra_events.state import TABLE, Slot

from .helpers import (
    CAT,
    DEFAULT_GROUPS,
    ROWS_R1,
    accepted,
    monasteries_event,
    names,
    new_game,
    play,
    players,
    refused,
    rows_event,
    scoring_tiles_event,
    seating_event,
    start_groups_event,
    voyages_event,
    with_state,
)


def at_setup_step(n: int, kind: str):
    """A game whose table is due to provide setup outcome ``kind`` (earlier ones at their defaults)."""
    state = start(CAT, players(n))
    defaults = {
        "monasteries": monasteries_event(),
        "scoring-tiles": scoring_tiles_event(),
        "voyages": voyages_event(),
        "seating": seating_event(names(n)),
        "rows": rows_event(ROWS_R1),
    }
    for step_kind in SETUP_STEPS[: SETUP_STEPS.index(kind)]:
        state = play(state, defaults[step_kind])
    assert state.pending.actor == TABLE and state.pending.kind == kind
    return state


# --- the initial table ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_initial_state_resources_and_discs(n):
    state = start(CAT, players(n))
    assert [p.name for p in state.players] == list(names(n))
    for p in state.players:
        assert (p.coins, p.guards, p.points) == (7, 7, 0)  # setup 7: markers on space 7
        assert p.influence == (0, 0, 0, 0)  # four discs on space 0
        assert p.pilgrim is None and p.start_cards == () and p.cards == ()
    assert state.favor_available == tuple(CAT.favor_tiles)
    assert state.pending.actor == TABLE and state.pending.kind == SETUP_STEPS[0]


@pytest.mark.parametrize("bad", [players(1), players(4) + (("Eva", "white"),),
                                 (("Ana", "red"), ("Ana", "blue")), (("Ana", "red"), ("Bruno", "red")),
                                 (("table", "red"), ("Bruno", "blue"))])
def test_initial_state_refuses_impossible_tables(bad):
    with pytest.raises(ValueError):
        start(CAT, bad)


def test_die_tokens_4_players_none():
    assert start(CAT, players(4)).locations == ((), (), (), ())


@pytest.mark.parametrize("n", [2, 3])
def test_die_tokens_placed_at_game_start_with_catalog_values(n):
    """Setup 4: 3 players one token per city; 2 players two upper, two central, one lower; values: catalog."""
    state = start(CAT, players(n))
    castle, *cities = state.locations
    assert castle == ()
    tokens = CAT.die_tokens_for(n)
    for city, row in zip(("upper", "central", "lower"), cities):
        assert all(s.is_token and s.owner == -1 for s in row)
        assert [s.value for s in row] == sorted(tokens[city], reverse=True)  # cities run descending
    assert sum(len(r) for r in cities) == {3: 3, 2: 5}[n]


def test_die_tokens_2_player_stand_in_values():
    state = start(CAT, players(2))
    assert [[s.value for s in row] for row in state.locations] == [[], [3, 2], [4, 3], [5]]


def test_die_tokens_3_player_stand_in_values():
    state = start(CAT, players(3))
    assert [[s.value for s in row] for row in state.locations] == [[], [3], [4], [3]]


def test_setup_steps_come_in_rulebook_order():
    state = start(CAT, players(3))
    seen = []
    events = [monasteries_event(), scoring_tiles_event(), voyages_event(), seating_event(names(3)),
              rows_event(ROWS_R1), start_groups_event(DEFAULT_GROUPS[:3])]
    for event in events:
        seen.append(state.pending.kind)
        state = accepted(state, event)
    assert tuple(seen) == SETUP_STEPS
    assert state.phase == "start" and state.pending.kind == "start-choice"


def test_setup_outcome_out_of_turn_is_TURN_kind():
    state = start(CAT, players(2))
    refused(state, voyages_event(), "TURN.kind", kind="monasteries")


@pytest.mark.parametrize("kind", SETUP_STEPS)
def test_table_outcome_space_samples_are_legal(kind):
    state = at_setup_step(4, kind)
    space = legal(state)
    assert isinstance(space, OutcomeSpace) and space.kind == kind and space.description
    for seed in range(3):
        accepted(state, space.sample(random.Random(seed)))


# --- SETUP.monasteries ------------------------------------------------------------------------


def test_SETUP_monasteries_legal():
    state = accepted(at_setup_step(4, "monasteries"), monasteries_event())
    assert len(state.monasteries) == 14
    assert dict(state.monasteries)["blue-n1"] == "m-I-01"


def _monasteries(change):
    placement = dict(monasteries_event().placement)
    change(placement)
    return ev.MonasteriesDrawn(TABLE, tuple(sorted(placement.items())))


def test_SETUP_monasteries_missing_space():
    event = _monasteries(lambda p: p.pop("red-s"))
    refused(at_setup_step(4, "monasteries"), event, "SETUP.monasteries", missing=["red-s"])


def test_SETUP_monasteries_unknown_space():
    event = _monasteries(lambda p: p.update({"road-n": "m-I-09"}))
    refused(at_setup_step(4, "monasteries"), event, "SETUP.monasteries", unknown=["road-n"])


def test_SETUP_monasteries_tile_twice():
    event = _monasteries(lambda p: p.update({"blue-n2": "m-I-01"}))
    v = refused(at_setup_step(4, "monasteries"), event, "SETUP.monasteries")
    assert sorted(v.facts["tiles"]).count("m-I-01") == 2


def test_SETUP_monasteries_wrong_pile():
    """A pile II tile on a blue (pile I) space."""
    event = _monasteries(lambda p: p.update({"blue-n1": "m-II-08"}))
    refused(at_setup_step(4, "monasteries"), event, "SETUP.monasteries", space="blue-n1", tile="m-II-08", pile="I")


# --- SETUP.scoring-tiles ------------------------------------------------------------------------


def test_SETUP_scoring_tiles_legal():
    tiles = dict(zip(TRACKS, ("score-4", "score-3", "score-2", "score-1")))
    state = accepted(at_setup_step(4, "scoring-tiles"), scoring_tiles_event(tiles))
    assert state.scoring_tiles == ("score-4", "score-3", "score-2", "score-1")


@pytest.mark.parametrize("tiles, facts", [
    ({"gray": "score-1", "orange": "score-2", "purple": "score-3"},  # a track without a tile
     {"tracks": ["gray", "orange", "purple"]}),
    ({"gray": "score-1", "orange": "score-1", "purple": "score-3", "green": "score-4"},  # a tile twice
     {"tiles": ["score-1", "score-1", "score-3", "score-4"]}),
    ({"gray": "score-1", "orange": "score-2", "purple": "score-3", "green": "score-9"},  # not in the catalog
     {"tiles": ["score-1", "score-2", "score-3", "score-9"], "catalog": sorted(CAT.scoring_tiles)}),
    ({"gray": "score-1", "orange": "score-2", "purple": "score-3", "white": "score-4"},  # no such track
     {"tracks": ["gray", "orange", "purple", "white"]}),
])
def test_SETUP_scoring_tiles_illegal(tiles, facts):
    refused(at_setup_step(4, "scoring-tiles"), scoring_tiles_event(tiles), "SETUP.scoring-tiles", **facts)


# --- SETUP.voyages ------------------------------------------------------------------------------


def test_SETUP_voyages_legal():
    drawn = ("v-15", "v-02", "v-09", "v-11", "v-01", "v-07")
    state = accepted(at_setup_step(4, "voyages"), voyages_event(drawn))
    assert state.voyages == drawn and state.voyage_discs == ((),) * 6


@pytest.mark.parametrize("drawn", [
    ("v-01", "v-02", "v-03", "v-04", "v-05"),  # five
    ("v-01", "v-02", "v-03", "v-04", "v-05", "v-06", "v-07"),  # seven
    ("v-01", "v-01", "v-03", "v-04", "v-05", "v-06"),  # one twice
    ("v-01", "v-02", "v-03", "v-04", "v-05", "v-99"),  # unknown
])
def test_SETUP_voyages_illegal(drawn):
    refused(at_setup_step(4, "voyages"), voyages_event(drawn), "SETUP.voyages", drawn=drawn)


# --- SETUP.seating --------------------------------------------------------------------------------


def test_SETUP_seating_legal_sets_flags():
    state = accepted(at_setup_step(3, "seating"), seating_event(("Carla", "Ana", "Bruno")))
    assert [p.name for p in state.in_order()] == ["Carla", "Ana", "Bruno"]


@pytest.mark.parametrize("order", [("Ana", "Bruno"), ("Ana", "Bruno", "Bruno"), ("Ana", "Bruno", "Eva"),
                                   ("Ana", "Bruno", "Carla", "Duarte")])
def test_SETUP_seating_illegal(order):
    refused(at_setup_step(3, "seating"), seating_event(order), "SETUP.seating", order=order)


# --- SETUP.rows -----------------------------------------------------------------------------------


def test_SETUP_rows_legal_from_pile_II():
    state = accepted(at_setup_step(4, "rows"), rows_event(ROWS_R1))
    assert state.rows == (ROWS_R1["upper"], ROWS_R1["central"], ROWS_R1["lower"])
    assert state.dealt == frozenset(c for r in ROWS_R1.values() for c in r)


@pytest.mark.parametrize("change, key, shows", [
    (lambda r: r.update(upper=r["upper"][:3]), "rows", "upper"),  # three cards
    (lambda r: r.update(upper=r["upper"] + ("c-II-24",)), "rows", "upper"),  # five cards
    (lambda r: r.pop("lower"), "rows", "upper"),  # a city without a row
    (lambda r: r.update(lower=("c-II-01",) + r["lower"][1:]), "cards", "c-II-01"),  # a card twice
    (lambda r: r.update(lower=("c-III-01",) + r["lower"][1:]), "cards", "c-III-01"),  # pile III while II lasts
    (lambda r: r.update(lower=("c-I-01",) + r["lower"][1:]), "cards", "c-I-01"),  # a start card
    (lambda r: r.update(lower=("c-II-99",) + r["lower"][1:]), "cards", "c-II-99"),  # no such card
])
def test_SETUP_rows_illegal(change, key, shows):
    rows = dict(ROWS_R1)
    change(rows)
    v = refused(at_setup_step(4, "rows"), rows_event(rows), "SETUP.rows")
    assert shows in v.facts[key]


def test_SETUP_rows_pile_III_once_pile_II_is_dealt():
    """Setup 9: pile II on top of pile III; once pile II is out, rows come from pile III."""
    state = with_state(at_setup_step(4, "rows"), dealt=frozenset(CAT.pile("II")))
    third = CAT.pile("III")
    accepted(state, rows_event({"upper": third[0:4], "central": third[4:8], "lower": third[8:12]}))
    refused(state, rows_event(ROWS_R1), "SETUP.rows", cards=sorted(c for r in ROWS_R1.values() for c in r))


def test_SETUP_rows_pile_II_used_up_before_pile_III():
    """With 6 cards of pile II left, all 6 must be in the rows, topped up from pile III."""
    second, third = CAT.pile("II"), CAT.pile("III")
    state = with_state(at_setup_step(4, "rows"), dealt=frozenset(second[:18]))
    left = second[18:]
    accepted(state, rows_event({"upper": left[:4], "central": left[4:] + third[:2], "lower": third[2:6]}))
    v = refused(state, rows_event({"upper": left[:4], "central": left[4:5] + third[:3], "lower": third[3:7]}),
                "SETUP.rows")
    assert v.facts["missing"] == [left[5]]


# --- SETUP.start-groups ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_SETUP_start_groups_legal_one_group_of_2_per_player(n):
    state = accepted(at_setup_step(n, "start-groups"), start_groups_event(DEFAULT_GROUPS[:n]))
    assert state.start_groups == DEFAULT_GROUPS[:n]
    assert state.phase == "start"


@pytest.mark.parametrize("groups, key", [
    (DEFAULT_GROUPS[:2], "groups"),  # too few groups
    (DEFAULT_GROUPS + (("c-I-01", "c-I-02"),), "groups"),  # too many groups
    ((("c-I-01", "c-I-02", "c-I-03"), ("c-I-04", "c-I-05"), ("c-I-06", "c-I-07")), "groups"),  # a group of 3
    ((("c-I-01", "c-I-01"), ("c-I-04", "c-I-05"), ("c-I-06", "c-I-07")), "cards"),  # a card twice
    ((("c-I-01", "c-II-01"), ("c-I-04", "c-I-05"), ("c-I-06", "c-I-07")), "cards"),  # not a start card
])
def test_SETUP_start_groups_illegal(groups, key):
    shown = [list(g) for g in groups] if key == "groups" else [c for g in groups for c in g]
    refused(at_setup_step(3, "start-groups"), start_groups_event(groups), "SETUP.start-groups", **{key: shown})


# --- crown tokens (setup 12, GAPS 14) -----------------------------------------------------------


def _cat(card):
    return CAT.characters[card].category


def test_crown_tokens_scan_column_4_first_top_to_bottom():
    rows = (ROWS_R1["upper"], ROWS_R1["central"], ROWS_R1["lower"])
    placed = dict(crown_tokens(rows, CAT.characters))
    # column 4: upper c-II-19 (green) first; central/lower column 4 are green too -> no token
    # column 3: upper c-II-13 purple; column 2: upper c-II-07 orange; column 1: upper c-II-01 gray
    assert placed == {"c-II-19": "green", "c-II-13": "purple", "c-II-07": "orange", "c-II-01": "gray"}


def test_crown_tokens_top_to_bottom_inside_a_column():
    rows = (
        ("c-II-19", "c-II-20", "c-II-21", "c-II-22"),  # all green
        ("c-II-23", "c-II-24", "c-II-04", "c-II-01"),  # column 4 gray (central), column 3 gray
        ("c-II-07", "c-II-08", "c-II-09", "c-II-02"),  # column 4 gray (lower, below central)
    )
    placed = dict(crown_tokens(rows, CAT.characters))
    assert placed["c-II-22"] == "green"  # column 4, top
    assert placed["c-II-01"] == "gray"  # column 4, central before lower's c-II-02
    assert placed["c-II-09"] == "orange"  # column 3, lower (upper/central column 3 not orange)
    assert "purple" not in placed.values()  # no purple card: its token is not used
    assert len(placed) == 3


def test_crown_tokens_unused_when_category_missing_through_rows_dealt():
    """Twelve pile II cards without a green one: the green token is not used this round."""
    rows = {"upper": ("c-II-01", "c-II-02", "c-II-03", "c-II-04"),
            "central": ("c-II-07", "c-II-08", "c-II-09", "c-II-10"),
            "lower": ("c-II-13", "c-II-14", "c-II-15", "c-II-16")}
    state = accepted(at_setup_step(4, "rows"), rows_event(rows))
    placed = dict(state.crowns_on_cards)
    assert placed == {"c-II-04": "gray", "c-II-10": "orange", "c-II-16": "purple"}
    assert sorted(_cat(c) for c in placed) == sorted(placed.values())


def test_crown_tokens_through_rows_dealt_default():
    state = new_game(4)
    assert dict(state.crowns_on_cards) == {"c-II-19": "green", "c-II-13": "purple", "c-II-07": "orange",
                                           "c-II-01": "gray"}


def test_crown_tokens_one_per_category_at_most():
    rows = (ROWS_R1["upper"], ROWS_R1["central"], ROWS_R1["lower"])
    placed = crown_tokens(rows, CAT.characters)
    cats = [cat for _, cat in placed]
    assert len(cats) == len(set(cats)) <= 4


def test_token_slot_values_for_2_and_3_players_are_neutral():
    for n in (2, 3):
        for row in start(CAT, players(n)).locations:
            assert all(isinstance(s, Slot) and s.is_token for s in row)
