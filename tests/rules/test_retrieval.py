"""Phase C (000 Phase C; GAPS 12, 13): retrieval order, favor tiles, buying cards, the alternative, die tokens."""

from __future__ import annotations

import pytest

from coimbra_events import events as ev
from coimbra_events.rules.core import legal
from coimbra_events.rules.retrieval import token_discard

from .helpers import CAT, accepted, do, drive, in_phase, passive, placed, refused, started, with_player

# 4 players; retrieval order: castle B A C D, upper B A D, central C D B, lower C A
HANDS4 = {
    "Ana": [("gray-1", "castle"), ("orange-1", "upper"), ("purple-1", "lower")],
    "Bruno": [("gray-2", "castle"), ("orange-2", "upper"), ("purple-2", "central")],
    "Carla": [("gray-3", "castle"), ("orange-3", "central"), ("purple-3", "lower")],
    "Duarte": [("green-1", "castle"), ("green-2", "upper"), ("white-1", "central")],
}
DICE4 = {"gray-1": 2, "gray-2": 1, "gray-3": 2, "green-1": 6, "orange-1": 5, "orange-2": 6, "green-2": 5,
         "orange-3": 4, "white-1": 4, "purple-2": 3, "purple-3": 2, "purple-1": 1}
SEQUENCE4 = [
    ("Bruno", "castle", "gray-2"), ("Ana", "castle", "gray-1"), ("Carla", "castle", "gray-3"),
    ("Duarte", "castle", "green-1"), ("Bruno", "upper", "orange-2"), ("Ana", "upper", "orange-1"),
    ("Duarte", "upper", "green-2"), ("Carla", "central", "orange-3"), ("Duarte", "central", "white-1"),
    ("Bruno", "central", "purple-2"), ("Carla", "lower", "purple-3"), ("Ana", "lower", "purple-1"),
]


def phase_c(**kw):
    return placed(4, DICE4, hands=HANDS4, **kw)


def until_die(state, die):
    """Passively retrieve dice until ``die`` is the one being retrieved."""
    return drive(state, lambda s: s.pending.kind == "retrieve" and s.pending.die == die)


def row(state, city):
    return state.rows[("upper", "central", "lower").index(city)]


# --- order of retrieval ---------------------------------------------------------------------------


def test_C_order_castle_then_upper_central_lower_left_to_right():
    state = phase_c()
    seen = []
    while state.phase == "C":
        due = state.pending
        if due.kind == "retrieve":
            seen.append((due.actor, due.location, due.die))
        state = do(state, ev.AlternativeTaken, 0, 0)
    assert seen == SEQUENCE4


def test_C_retrieved_dice_go_to_the_shutter_in_retrieval_order():
    state = drive(phase_c(), in_phase("E"))
    assert state.player("Ana").shutter == ("gray-1", "orange-1", "purple-1")
    assert state.player("Duarte").shutter == ("green-1", "green-2", "white-1")


def test_C_after_phase_C_the_locations_are_empty_and_every_row_discarded():
    state = drive(phase_c(), in_phase("E"))
    assert state.locations == ((), (), (), ())
    assert state.rows == ((), (), ())
    assert len(state.discard) == 12 and state.crowns_on_cards == ()


def test_C_out_of_turn_is_TURN_actor():
    refused(phase_c(), ev.AlternativeTaken("Ana", 2, 2), "TURN.actor", due="Bruno", actor="Ana")


# --- C.location --------------------------------------------------------------------------------------


def test_C_location_legal_castle_takes_a_tile_city_buys_a_card():
    state = accepted(phase_c(), ev.FavorTileTaken("Bruno", "f-2"))
    state = until_die(state, "orange-2")
    assert state.pending.location == "upper"
    accepted(state, ev.CardBought("Bruno", "c-II-01"))


def test_C_location_castle_die_cannot_buy_a_card():
    state = phase_c()
    refused(state, ev.CardBought("Bruno", "c-II-01"), "C.location", location="castle", die="gray-2")


def test_C_location_city_die_cannot_take_a_favor_tile():
    state = until_die(phase_c(), "orange-2")
    refused(state, ev.FavorTileTaken("Bruno", "f-1"), "C.location", location="upper", die="orange-2")


# --- C.tile ------------------------------------------------------------------------------------------


def test_C_tile_legal_take_a_favor_tile_with_its_crowns_and_bonus():
    state = phase_c()
    bruno = state.player("Bruno")
    state = accepted(state, ev.FavorTileTaken("Bruno", "f-1"))  # Royal Purse: +2 coins, +2 guards, 1 crown
    after = state.player("Bruno")
    assert after.favor_tiles == ("f-1",) and after.crowns_total == bruno.crowns_total + 1
    assert (after.coins, after.guards) == (bruno.coins + 2, bruno.guards + 2)
    assert state.favor_available == ("f-2", "f-3", "f-4")
    assert after.shutter == ("gray-2",)


def test_C_tile_already_taken():
    state = do(phase_c(), ev.FavorTileTaken, "f-4")
    refused(state, ev.FavorTileTaken("Ana", "f-4"), "C.tile", tile="f-4", available=("f-1", "f-2", "f-3"))


def test_C_tile_unknown():
    refused(phase_c(), ev.FavorTileTaken("Bruno", "f-9"), "C.tile", tile="f-9")


def test_C_tile_castle_with_more_dice_than_tiles_takes_the_alternative():
    """GAPS 13: the fifth castle die finds no tile; only the alternative action is left."""
    hands = {name: [(d, "castle") if k == 0 else (d, loc) for k, (d, loc) in enumerate(h)]
             for name, h in HANDS4.items()}
    hands["Ana"][2] = ("purple-1", "castle")
    state = placed(4, DICE4, hands=hands)
    for tile in ("f-1", "f-2", "f-3", "f-4"):
        state = do(state, ev.FavorTileTaken, tile)
    # castle: gray-2 (1, Bruno), purple-1 (1, Ana), gray-1 (2, Ana), gray-3 (2, Carla), green-1 (6, Duarte)
    assert state.pending.location == "castle" and state.pending.actor == "Duarte"
    options = legal(state)
    assert options and all(isinstance(e, ev.AlternativeTaken) for e in options)
    refused(state, ev.FavorTileTaken("Duarte", "f-1"), "C.tile", available=())
    accepted(state, ev.AlternativeTaken("Duarte", 2, 2))


# --- C.card and C.cost --------------------------------------------------------------------------------


def at_ana_upper(**fields):
    """Ana's upper die (value 5) is due; her start cards have no phase C bonus."""
    state = until_die(phase_c(), "orange-1")
    return with_player(state, "Ana", **fields) if fields else state


def test_C_card_not_in_this_citys_row():
    state = at_ana_upper()
    refused(state, ev.CardBought("Ana", "c-II-02"), "C.card", card="c-II-02", row=row(state, "upper"))


def test_C_card_already_bought():
    state = until_die(phase_c(), "orange-2")
    state = do(state, ev.CardBought, "c-II-01")  # Bruno
    assert state.pending.actor == "Ana"
    refused(state, ev.CardBought("Ana", "c-II-01"), "C.card", card="c-II-01", row=("c-II-07", "c-II-13", "c-II-19"))


@pytest.mark.parametrize("card, resource", [("c-II-01", "coins"), ("c-II-07", "guards")])
def test_C_cost_have_exactly_the_die_value(card, resource):
    """The card costs the die's value (5); holding exactly 5 is enough and leaves 0."""
    state = at_ana_upper(**{resource: 5})
    after = accepted(state, ev.CardBought("Ana", card))
    assert getattr(after.player("Ana"), resource) == 0  # neither card's bonus pays this resource


@pytest.mark.parametrize("card, resource", [("c-II-01", "coins"), ("c-II-07", "guards")])
def test_C_cost_one_short_of_the_die_value(card, resource):
    state = at_ana_upper(**{resource: 4})
    refused(state, ev.CardBought("Ana", card), "C.cost", card=card, price=5, resource=resource, have=4,
            die="orange-1")


def test_C_cost_is_paid_in_the_cards_resource_only():
    """c-II-07 costs guards: Ana with 0 coins and 5 guards can buy it, with 20 coins and 4 guards not."""
    accepted(at_ana_upper(coins=0, guards=5), ev.CardBought("Ana", "c-II-07"))
    refused(at_ana_upper(coins=20, guards=4), ev.CardBought("Ana", "c-II-07"), "C.cost", have=4)


def test_C_cost_legal_lists_only_affordable_cards():
    state = at_ana_upper(coins=5, guards=4)
    cards = {e.card for e in legal(state) if isinstance(e, ev.CardBought)}
    assert cards == {"c-II-01", "c-II-13"}  # the coin-cost cards


def test_C_card_bought_pays_gains_influence_bonus_and_crown_token():
    """Ana buys Gate Warden (gray, coins, influence 3, +2 guards) with her 5: it carries the gray crown token."""
    state = at_ana_upper(coins=6, guards=9)
    ana = state.player("Ana")
    state = accepted(state, ev.CardBought("Ana", "c-II-01"))
    after = state.player("Ana")
    assert after.coins == 1 and after.guards == 11
    assert after.influence_on("gray") == ana.influence_on("gray") + 3
    assert after.cards == ("c-II-01",)
    assert after.crown_tokens == ("gray",) and after.crowns_total == ana.crowns_total + 1
    assert "c-II-01" not in row(state, "upper")
    assert "c-II-01" not in dict(state.crowns_on_cards)
    assert after.shutter[-1] == "orange-1"


def test_C_card_without_crown_token_gives_no_crown():
    state = at_ana_upper(guards=5)
    after = accepted(state, ev.CardBought("Ana", "c-II-07")).player("Ana")
    assert after.crown_tokens == ("orange",)  # c-II-07 carries the orange token
    state = until_die(phase_c(), "orange-3")  # Carla, central, value 4
    carla = accepted(state, ev.CardBought("Carla", "c-II-08")).player("Carla")
    assert carla.crown_tokens == () and carla.crowns_total == 0


def test_C_card_influence_capped_at_15():
    state = at_ana_upper(coins=5, influence={"gray": 14})
    assert accepted(state, ev.CardBought("Ana", "c-II-01")).player("Ana").influence_on("gray") == 15


def test_C_card_phase_E_and_end_game_cards_give_nothing_now():
    state = until_die(phase_c(), "orange-3")  # Carla, central (4): c-II-08 Banker (phase E, coins)
    carla = state.player("Carla")
    after = accepted(state, ev.CardBought("Carla", "c-II-08")).player("Carla")
    assert after.coins == carla.coins - 4 and after.guards == carla.guards and after.points == carla.points
    assert after.cards == ("c-II-08",)


def test_C_card_immediate_steps_become_a_pilgrim_decision():
    state = at_ana_upper(coins=5)
    state = accepted(state, ev.CardBought("Ana", "c-II-13"))  # Pilgrim: +2 steps
    assert (state.pending.actor, state.pending.kind, state.pending.amount, state.pending.source) == (
        "Ana", "steps", 2, "c-II-13")
    state = do(state, ev.PilgrimStopped)
    assert state.pending.kind == "retrieve" and state.pending.die == "green-2"


def test_C_start_card_phase_C_bonus_fires_for_a_matching_card():
    """Bruno's Watch Captain: gray card -> +1 guard; Moneylender: coin-cost card -> +1 coin (GAPS 12)."""
    state = until_die(phase_c(), "orange-2")  # Bruno, upper, value 6
    bruno = state.player("Bruno")
    after = accepted(state, ev.CardBought("Bruno", "c-II-01")).player("Bruno")  # gray, coins, +2 guards
    assert after.coins == bruno.coins - 6 + 1
    assert after.guards == bruno.guards + 2 + 1


def test_C_start_card_phase_C_bonus_not_for_other_cards():
    state = with_player(until_die(phase_c(), "orange-2"), "Bruno", guards=6)
    bruno = state.player("Bruno")
    after = accepted(state, ev.CardBought("Bruno", "c-II-19")).player("Bruno")  # green, guards, +3 points
    assert (after.coins, after.guards, after.points) == (bruno.coins, 0, bruno.points + 3)


# --- C.alternative ----------------------------------------------------------------------------------


@pytest.mark.parametrize("coins, guards", [(2, 2), (0, 0), (2, 0), (0, 1)])
def test_C_alternative_legal_up_to_2_coins_and_2_guards(coins, guards):
    state = phase_c()
    bruno = state.player("Bruno")
    after = accepted(state, ev.AlternativeTaken("Bruno", coins, guards)).player("Bruno")
    assert (after.coins, after.guards) == (bruno.coins + coins, bruno.guards + guards)
    assert after.shutter == ("gray-2",)


@pytest.mark.parametrize("coins, guards", [(3, 0), (0, 3), (3, 3), (-1, 0), (0, -1)])
def test_C_alternative_more_than_2_or_negative(coins, guards):
    refused(phase_c(), ev.AlternativeTaken("Bruno", coins, guards), "C.alternative", coins=coins, guards=guards)


def test_C_alternative_in_a_city_too():
    accepted(at_ana_upper(), ev.AlternativeTaken("Ana", 2, 2))


@pytest.mark.parametrize("coins, guards, expected", [((19, 20), (2, 2), (20, 20)), ((18, 17), (2, 2), (20, 19))])
def test_C_alternative_capped_at_20(coins, guards, expected):
    """003 Limits: at most 20 coins and 20 guards; the excess is lost."""
    state = with_player(phase_c(), "Bruno", coins=coins[0], guards=coins[1])
    after = accepted(state, ev.AlternativeTaken("Bruno", *guards)).player("Bruno")
    assert (after.coins, after.guards) == expected


# --- die tokens (games with fewer than 4 players) ------------------------------------------------------

TOKEN_ROWS = {
    "upper": ("c-II-03", "c-II-05", "c-II-11", "c-II-01"),  # influence 1, 4, 4, 3: tie -> c-II-05
    "central": ("c-II-12", "c-II-10", "c-II-17", "c-II-02"),  # 1, 2, 4, 2: c-II-17
    "lower": ("c-II-09", "c-II-15", "c-II-21", "c-II-24"),  # 1, 1, 1, 1: leftmost c-II-09
}


def test_token_discard_unit_highest_influence_leftmost_on_tie():
    chars = CAT.characters
    assert token_discard(TOKEN_ROWS["upper"], chars) == "c-II-05"
    assert token_discard(TOKEN_ROWS["central"], chars) == "c-II-17"
    assert token_discard(TOKEN_ROWS["lower"], chars) == "c-II-09"
    assert token_discard((), chars) is None


def three_player_tokens(dice, hands):
    return placed(3, dice, hands=hands, rows=TOKEN_ROWS)


def test_C_die_token_first_removes_the_highest_card_then_the_player_buys():
    """3 players, upper token 3: Ana's 2 comes after it; the token removed c-II-05 (4, leftmost of two 4s)."""
    hands = {"Ana": [("gray-1", "upper"), ("gray-2", "castle"), ("gray-3", "castle")],
             "Bruno": [("orange-1", "castle"), ("orange-2", "castle"), ("orange-3", "castle")],
             "Carla": [("purple-1", "castle"), ("purple-2", "castle"), ("green-1", "castle")]}
    state = three_player_tokens({"gray-1": 2}, hands)
    state = drive(state, lambda s: s.pending.location == "upper")
    assert row(state, "upper") == ("c-II-03", "c-II-11", "c-II-01")
    assert state.discard == ("c-II-05",)
    state = do(state, ev.CardBought, "c-II-11")
    # upper done: the rest is discarded
    assert row(state, "upper") == ()
    assert state.discard[:3] == ("c-II-05", "c-II-03", "c-II-01")


def test_C_die_token_after_a_player_removes_the_highest_remaining():
    """Central token 4: Bruno's 5 first buys c-II-17; then the token removes c-II-10 (2, left of c-II-02)."""
    hands = {"Ana": [("gray-1", "castle"), ("gray-2", "castle"), ("gray-3", "castle")],
             "Bruno": [("orange-1", "central"), ("orange-2", "castle"), ("orange-3", "castle")],
             "Carla": [("purple-1", "castle"), ("purple-2", "castle"), ("green-1", "castle")]}
    state = three_player_tokens({"orange-1": 5}, hands)
    state = drive(state, lambda s: s.pending.location == "central")
    assert row(state, "upper") == () and state.discard[:1] == ("c-II-05",)  # upper: token only, then discard
    state = with_player(state, "Bruno", coins=5)
    state = do(state, ev.CardBought, "c-II-17")
    assert state.discard[4:7] == ("c-II-10", "c-II-12", "c-II-02")  # token's card first, then the rest


def test_C_die_token_equal_value_player_goes_after_token():
    """Lower token 3 (3 players): a player's 3 is to the right, so the token removes a card first."""
    hands = {"Ana": [("gray-1", "lower"), ("gray-2", "castle"), ("gray-3", "castle")],
             "Bruno": [("orange-1", "castle"), ("orange-2", "castle"), ("orange-3", "castle")],
             "Carla": [("purple-1", "castle"), ("purple-2", "castle"), ("green-1", "castle")]}
    state = three_player_tokens({}, hands)
    state = drive(state, lambda s: s.pending.location == "lower")
    assert row(state, "lower") == ("c-II-15", "c-II-21", "c-II-24")


def test_C_die_tokens_stay_for_next_round_and_crown_tokens_go_with_discarded_cards():
    state = started(2)
    assert len(state.crowns_on_cards) == 4  # ROWS_R1: four crown tokens on the upper row
    state = drive(state, in_phase("E"))
    assert [[s.value for s in r] for r in state.locations] == [[], [3, 2], [4, 3], [5]]
    assert state.crowns_on_cards == ()
    assert all(p.crown_tokens == () for p in state.players)


def test_C_two_player_two_tokens_in_a_row_each_remove_a_card():
    hands = {"Ana": [("gray-1", "castle"), ("orange-1", "castle"), ("white-1", "castle")],
             "Bruno": [("gray-2", "castle"), ("orange-2", "castle"), ("purple-1", "castle")]}
    state = placed(2, None, hands=hands, rows=TOKEN_ROWS)
    state = drive(state, lambda s: s.phase != "C", passive)
    # upper: tokens remove c-II-05 then c-II-11 (4), then the rest; central: c-II-17 then c-II-10
    assert state.discard[:2] == ("c-II-05", "c-II-11")
    assert state.discard[4:6] == ("c-II-17", "c-II-10")
    assert state.discard[8:9] == ("c-II-09",)
    assert len(state.discard) == 12
