"""What the rules carry out by themselves, as they tell it (``fast.narrate``): each consequence at its boundaries.

Each test hears a consequence told with the facts that decided it, and checks
those facts against the rule texts and the catalog (not against the narration).
The completeness of the narration (every change of the table told, nothing told
that does not happen) is the property of ``tests/test_consequences.py``.
"""

from __future__ import annotations

from coimbra_events import events as ev
from coimbra_events.rules import narration as n
from coimbra_events.rules.core import legal
from projections.naming import named

from .helpers import (
    CAT,
    DEFAULT_GROUPS,
    ROWS_R1,
    catalog_with,
    dice_event,
    drive,
    in_phase_b,
    narrated,
    new_game,
    not_narrated,
    place_all,
    placed,
    rows_event,
    started,
    waiting_for,
    with_player,
)
from .helpers import start, monasteries_event, play, players, scoring_tiles_event, seating_event, to_income, voyages_event

CARDS = CAT.characters


def _before_setup_rows():
    return play(start(CAT, players(4)), monasteries_event(), scoring_tiles_event(), voyages_event(),
                seating_event(("Ana", "Bruno", "Carla", "Duarte")))


def _last_start_choice(n_players=2):
    state = new_game(n_players)
    return drive(state, lambda s: s.pending.kind == "start-choice" and s.cursor[0] == 2 * n_players - 1)


# --- setup, start and the round ---------------------------------------------------------------------


def test_START_cards_are_used_in_player_order_once_every_start_choice_is_made():
    state = _last_start_choice(2)
    event = legal(state)[0]
    after, told = narrated(state, event, "START.cards")
    for i, pl in enumerate(after.players):  # each start card: its disc up by its influence, in the order held
        discs = [(t.ident, t.dst - t.src, t.facts["card"]) for t in told if t.who == i and t.what == n.TRACK_DISC]
        assert discs == [(CARDS[c].category, CARDS[c].influence, c) for c in pl.start_cards]
    assert [t.who for t in told] == sorted(t.who for t in told)  # Ana's cards first: she holds flag 1
    town_sergeant = [t for t in told if t.facts["card"] == "c-I-01" and t.what == n.GUARDS]
    assert [t.amount for t in town_sergeant] == [3]  # its immediate bonus, once
    assert after.phase == "A"


def test_ROUND_phases_the_roll_begins_phase_B():
    state = started(2)
    after, told = narrated(state, dice_event(state), "ROUND.phases")
    assert [(t.src, t.dst) for t in told] == [("A", "B")] and after.phase == "B"


def test_ROUND_crown_tokens_go_to_the_first_card_of_each_category_from_the_right_column():
    state = _before_setup_rows()
    _, told = narrated(state, rows_event(ROWS_R1), "ROUND.crown-tokens")
    # column 4 holds a green card in every row (upper first), column 3 purple, column 2 orange, column 1 gray
    assert {t.ident: t.dst for t in told} == {"green": n.ON_CARD + ROWS_R1["upper"][3], "purple": n.ON_CARD + ROWS_R1["upper"][2],
                                             "orange": n.ON_CARD + ROWS_R1["upper"][1], "gray": n.ON_CARD + ROWS_R1["upper"][0]}


def test_ROUND_crown_tokens_a_category_without_a_card_leaves_its_token_unused():
    by = {cat: [c for c in CAT.pile("II") if CARDS[c].category == cat] for cat in ("orange", "purple", "green")}
    rows = {"upper": by["orange"][:4], "central": by["purple"][:4], "lower": by["green"][:4]}
    _, told = narrated(_before_setup_rows(), rows_event(rows), "ROUND.crown-tokens")
    assert sorted(t.ident for t in told) == ["green", "orange", "purple"]


def _last_voyage(state):
    return drive(state, lambda s: s.pending.kind == "voyage" and s.cursor[0] == len(s.order) - 1)


def test_ROUND_end_favor_tiles_and_crown_tokens_go_back_and_the_round_turns():
    state = _last_voyage(placed(2))
    state = with_player(state, "Ana", favor_tiles=("f-3",), crown_tokens=("gray",))
    after, told = narrated(state, ev.VoyagePassed(state.pending.actor), "ROUND.end", round=1)
    assert (n.FAVOR_TILE, "f-3", n.HELD_TILES, n.CASTLE_TILES) in [(t.what, t.ident, t.src, t.dst) for t in told]
    assert (n.CROWN_TOKEN, "gray", n.HELD_TOKENS, n.SUPPLY) in [(t.what, t.ident, t.src, t.dst) for t in told]
    assert [(t.src, t.dst) for t in told if t.what == n.ROUND] == [(1, 2)] and after.round == 2


def test_ROUND_end_of_the_last_round_ends_the_game():
    state, event = _final_pass(Ana={"favor_tiles": ("f-1",)})
    _, told = narrated(state, event, "ROUND.end", deck=0)
    assert not [t for t in told if t.what == n.ROUND]
    after, gone = narrated(state, event, "GAME.over")
    assert [(t.src, t.dst) for t in gone] == [("F", "over")] and after.over


# --- phases B and C ----------------------------------------------------------------------------------


def test_B_position_a_die_of_equal_value_goes_right_in_the_castle_and_in_a_city():
    state = in_phase_b(4, {"gray-1": 3, "gray-2": 3, "orange-1": 5, "orange-2": 5})
    state = place_all(state, [("gray-1", "castle"), ("orange-1", "upper")])
    _, told = narrated(state, ev.DiePlaced(state.pending.actor, "gray-2", "castle"), "B.position", position=2)
    assert [(t.src, t.dst, t.at) for t in told] == [(n.DICE_AREA, n.LOCATION + "castle", 1)]
    _, told = narrated(state, ev.DiePlaced(state.pending.actor, "orange-2", "upper"), "B.position", position=2)


def test_B_position_die_tokens_count_as_dice_of_their_value():
    state = in_phase_b(2, {"gray-1": 3})  # 2 players: the upper city holds die tokens of values 3 and 2
    _, told = narrated(state, ev.DiePlaced(state.pending.actor, "gray-1", "upper"), "B.position", row=(3, 2), position=2)
    assert told[0].at == 1


def _hands4():
    """4 players, every die of value 3: Ana places first, so her die is the leftmost in the castle and each city."""
    dice = list(CAT.dice_for(4))
    names = ("Ana", "Bruno", "Carla", "Duarte")
    where = ("castle", "upper", "central")
    return {name: [(dice[3 * k + j], where[j]) for j in range(3)] for k, name in enumerate(names)}


def _retrieving(die, n_players=4, **kw):
    hands = _hands4() if n_players == 4 else kw.pop("hands")
    state = placed(n_players, {}, hands=hands, **kw)
    return drive(state, lambda s: s.pending.kind == "retrieve" and s.pending.die == die)


def _die_of(name, location):
    return next(d for d, where in _hands4()[name] if where == location)


def test_C_retrieve_the_activated_die_goes_to_its_owners_shutter():
    die = _die_of("Ana", "castle")
    state = _retrieving(die)
    after, told = narrated(state, ev.AlternativeTaken("Ana", 0, 0), "C.retrieve")
    assert [(t.who, t.ident, t.src, t.dst) for t in told] == [(0, die, n.LOCATION + "castle", n.SHUTTER)]
    assert die in after.player("Ana").shutter


def _buying(name="Ana", city="central"):
    return _retrieving(_die_of(name, city))


def test_C_influence_the_disc_moves_by_the_cards_influence_and_stops_at_the_top():
    card = ROWS_R1["central"][0]  # c-II-02: gray, influence 2
    state = _buying()
    k = 0  # gray is the first track
    _, told = narrated(state, ev.CardBought("Ana", card), "C.influence", influence=CARDS[card].influence)
    before = state.player("Ana").influence[k]
    assert [(t.ident, t.src, t.dst, t.amount) for t in told] == [("gray", before, before + 2, 2)]
    top = with_player(state, "Ana", influence={"gray": CAT.max_influence - 1})
    _, told = narrated(top, ev.CardBought("Ana", card), "C.influence")
    assert [(t.src, t.dst, t.amount) for t in told] == [(CAT.max_influence - 1, CAT.max_influence, 2)]


def test_C_card_bonus_an_immediate_card_gives_its_bonus_once():
    immediate = next(c for c in ROWS_R1["upper"] if CARDS[c].timing == "immediate")
    state = _buying(city="upper")
    _, told = narrated(state, ev.CardBought("Ana", immediate), "C.card-bonus", card=immediate)
    gains = [(e.params["resource"], e.params["amount"]) for e in CARDS[immediate].effects if e.kind == "gain"]
    assert sorted((t.what, t.amount) for t in told if t.what in (n.COINS, n.GUARDS, n.POINTS)) == sorted(gains)


def test_C_card_bonus_a_card_without_an_immediate_bonus_gives_none_now():
    later = next(c for c in ROWS_R1["central"] if CARDS[c].timing != "immediate")
    not_narrated(_buying(), ev.CardBought("Ana", later), "C.card-bonus")


def test_C_start_bonus_fires_for_a_card_meeting_its_condition_and_not_for_another():
    # Bruno (flag 2) holds DEFAULT_GROUPS[1]: Watch Captain c-I-02, +1 guard for each gray card acquired
    assert "c-I-02" in DEFAULT_GROUPS[1]
    state = _buying("Bruno")
    gray = next(c for c in state.rows[1] if CARDS[c].category == "gray")
    _, told = narrated(state, ev.CardBought("Bruno", gray), "C.start-bonus", start_card="c-I-02",
                       condition={"category": "gray"}, card=gray)
    assert [(t.what, t.amount) for t in told] == [(n.GUARDS, 1)]
    purple = next(c for c in state.rows[1] if CARDS[c].category == "purple")
    not_narrated(state, ev.CardBought("Bruno", purple), "C.start-bonus")


def test_C_crown_token_on_a_card_bought_goes_to_the_buyer():
    state = _buying(city="upper")
    crowned = dict(state.crowns_on_cards)
    card = next(c for c in state.rows[0] if c in crowned)
    _, told = narrated(state, ev.CardBought("Ana", card), "C.crown-token", card=card, crowns=CAT.crown_token_crowns)
    assert [(t.ident, t.src, t.dst) for t in told] == [(crowned[card], n.ON_CARD + card, n.HELD_TOKENS)]
    plain = next(c for c in _buying().rows[1] if c not in crowned)
    not_narrated(_buying(), ev.CardBought("Ana", plain), "C.crown-token")


def test_C_tile_bonus_is_gained_when_the_tile_is_taken():
    state = _retrieving(_die_of("Ana", "castle"))
    gains = {e.params["resource"]: e.params["amount"] for e in CAT.favor_tiles["f-1"].effects if e.kind == "gain"}
    _, told = narrated(state, ev.FavorTileTaken("Ana", "f-1"), "C.tile-bonus", tile="f-1")
    assert {t.what: t.amount for t in told} == gains
    _, told = narrated(state, ev.FavorTileTaken("Ana", "f-1"), "C.tile", crowns=CAT.favor_tiles["f-1"].crowns)
    assert [(t.ident, t.src, t.dst) for t in told] == [("f-1", n.CASTLE_TILES, n.HELD_TILES)]


def _by_influence(*values):
    """Pile II cards with these influence values, in this order (none twice)."""
    left = list(CAT.pile("II"))
    out = []
    for v in values:
        card = next(c for c in left if CARDS[c].influence == v)
        left.remove(card)
        out.append(card)
    return out, left


def _token_game(upper_influences):
    """3 players, every die placed in the castle: the upper city holds only its die token, activated first."""
    upper, left = _by_influence(*upper_influences)
    rows = {"upper": upper, "central": left[:4], "lower": left[4:8]}
    hands = {name: [(d, "castle") for d in dice] for name, dice in
             {"Ana": ("gray-1", "orange-1", "purple-1"), "Bruno": ("gray-2", "orange-2", "green-1"),
              "Carla": ("gray-3", "orange-3", "white-1")}.items()}
    state = placed(3, {}, hands=hands, rows=rows)
    return drive(state, lambda s: s.pending.kind == "retrieve" and s.pending.location == "castle"
                 and s.cursor[1] == len(s.locations[0]) - 1), upper


def test_C_token_discard_takes_the_leftmost_of_the_cards_tied_on_highest_influence():
    state, upper = _token_game((2, 3, 3, 1))
    _, told = narrated(state, ev.AlternativeTaken(state.pending.actor, 0, 0), "C.token-discard", highest=3,
                       tied=(upper[1], upper[2]), leftmost_of_tie=True, discarded=upper[1])
    moves = [(t.what, t.ident, t.src, t.dst) for t in told]
    assert (n.CARD, upper[1], n.ROW + "upper", n.DISCARD) in moves
    assert (n.DIE_TOKEN, "token-upper-1", n.FACE_UP, n.FACE_DOWN) in moves
    assert not [m for m in moves if m[0] == n.CARD and m[1] == upper[2]]


def test_C_token_discard_a_single_highest_card_is_discarded_without_a_tie():
    state, upper = _token_game((1, 2, 4, 2))
    narrated(state, ev.AlternativeTaken(state.pending.actor, 0, 0), "C.token-discard", highest=4, tied=(upper[2],),
             leftmost_of_tie=False, discarded=upper[2])


def test_C_location_end_discards_the_cards_left_and_turns_the_die_tokens_face_up():
    state, upper = _token_game((2, 3, 3, 1))
    _, told = narrated(state, ev.AlternativeTaken(state.pending.actor, 0, 0), "C.location-end", location="upper")
    discarded = [t.ident for t in told if t.what == n.CARD and t.src == n.ROW + "upper"]
    assert sorted(discarded) == sorted(c for c in upper if c != upper[1])
    flipped = [(t.ident, t.src, t.dst) for t in told if t.what == n.DIE_TOKEN]
    assert ("token-upper-1", n.FACE_DOWN, n.FACE_UP) in flipped


# --- phases D and E ----------------------------------------------------------------------------------


def _last_retrieval(n_players=4, **held):
    """Phase C's last retrieval due; players hold ``held[name] = (favor tiles, crown tokens)`` this round."""
    state = drive(placed(n_players), lambda s: s.pending.kind == "retrieve" and s.cursor == (3, len(s.locations[3]) - 1))
    for name, (tiles, tokens) in held.items():
        state = with_player(state, name, favor_tiles=tuple(tiles), crown_tokens=tuple(tokens))
    return state


def test_D_order_most_crowns_first_and_players_tied_reversed():
    state = _last_retrieval(4, Ana=(("f-2",), ()), Bruno=((), ("orange",)))  # Ana 2+0, Bruno 1+1, Carla 2, Duarte 3
    after, told = narrated(state, ev.AlternativeTaken(state.pending.actor, 0, 0), "D.order",
                           ties_reversed=[["Ana", "Bruno", "Carla"]], after=["Duarte", "Carla", "Bruno", "Ana"])
    crowns = told[0].facts["crowns"]
    assert {name: c["total"] for name, c in crowns.items()} == {"Ana": 2, "Bruno": 2, "Carla": 2, "Duarte": 3}
    assert {(t.who, t.src, t.dst) for t in told} == {(0, 1, 4), (1, 2, 3), (2, 3, 2), (3, 4, 1)}


def test_D_order_an_unchanged_order_moves_no_lion():
    state = _last_retrieval(2, Ana=(("f-4",), ("gray",)))  # Ana 4+1+0 = 5, Bruno 0+1 = 1: Ana stays first
    after, told = narrated(state, ev.AlternativeTaken(state.pending.actor, 0, 0), "D.order", ties_reversed=[])
    assert [(t.who, t.src, t.dst) for t in told] == [(0, 1, 1), (1, 2, 2)] and after.order == state.order


def _income(cards=(), **influence):
    """2 players at Bruno's first income of round 1 (Bruno goes first); Bruno holds ``cards`` and discs at ``influence``."""
    hands = {"Ana": ("gray-1", "orange-1", "white-1"), "Bruno": ("gray-2", "purple-1", "green-1")}

    def tweak(state):
        state = with_player(state, "Bruno", cards=tuple(cards))
        return with_player(state, "Bruno", influence=influence) if influence else state

    return to_income(2, hands=hands, tweak=tweak)


def _tier(position):
    return next(t for t in CAT.income if t.low <= position <= t.high)


def test_E_income_pays_the_tier_of_the_disc_position_at_a_tier_edge():
    for space in (_tier(3).high, _tier(3).high + 1):
        state = with_player(_income(), "Bruno", influence={"gray": space})
        base, bonus = _tier(space).rewards["gray"]
        tier = (_tier(space).low, _tier(space).high)
        _, told = narrated(state, ev.IncomeActivated("Bruno", "gray-2", "gray"), "E.income", disc_on=space, tier=tier)
        assert [(t.what, t.amount) for t in told] == [(n.GUARDS, base)] + ([(n.POINTS, bonus)] if bonus else [])


def test_E_income_on_the_green_track_pays_victory_points():
    state = with_player(_income(), "Bruno", influence={"green": 4})
    base, _ = _tier(4).rewards["green"]
    _, told = narrated(state, ev.IncomeActivated("Bruno", "green-1", "green"), "E.income", pays=base, resource="points")
    assert [(t.what, t.amount) for t in told] == [(n.POINTS, base)]


def test_E_income_the_top_tier_adds_points():
    top = CAT.income[-1]
    state = with_player(_income(), "Bruno", influence={"gray": top.low})
    _, told = narrated(state, ev.IncomeActivated("Bruno", "gray-2", "gray"), "E.income")
    assert [(t.what, t.amount) for t in told] == [(n.GUARDS, top.rewards["gray"][0]), (n.POINTS, top.rewards["gray"][1])]


def _phase_e_begins(bruno_dice, **bruno):
    """2 players, the last retrieval of round 1 due: it ends phase C, and Bruno (one flag crown more) begins phase E."""
    others = [d for d in CAT.dice_for(2) if d not in bruno_dice][:3]
    hands = {"Ana": [(d, "lower") for d in others], "Bruno": [(d, "lower") for d in bruno_dice]}
    state = drive(placed(2, {}, hands=hands), lambda s: s.pending.kind == "retrieve" and s.cursor == (3, len(s.locations[3]) - 1))
    state = with_player(state, "Bruno", **bruno)
    return state, ev.AlternativeTaken(state.pending.actor, 0, 0)


MISSIONARY = "c-III-18"
"""At the beginning of phase E: 2 guards if none of your dice is gray (the stand-in catalog)."""


def test_E_start_bonus_happens_when_the_players_phase_E_begins():
    effect = CARDS[MISSIONARY].effects[0]
    assert (effect.kind, effect.params["color"]) == ("if_no_die", "gray")
    state, event = _phase_e_begins(("orange-2", "purple-1", "green-1"), cards=(MISSIONARY,))
    _, told = narrated(state, event, "E.start-bonus", card=MISSIONARY)
    gain = effect.params["effects"][0].params
    assert [(t.who, t.what, t.amount) for t in told] == [(1, gain["resource"], gain["amount"])]


def test_E_start_bonus_a_condition_not_met_gives_nothing():
    state, event = _phase_e_begins(("gray-2", "purple-1", "green-1"), cards=(MISSIONARY,))
    not_narrated(state, event, "E.start-bonus")


def test_E_per_die_pays_for_each_die_of_the_cards_colour_never_for_the_white_die():
    crossbowman = "c-II-02"  # per gray die: +1 guard
    state = _income(cards=(crossbowman,))
    _, told = narrated(state, ev.IncomeActivated("Bruno", "gray-2", "gray"), "E.per-die", card=crossbowman, color="gray")
    assert [(t.what, t.amount) for t in told] == [(n.GUARDS, 1)]
    ana = with_player(drive(state, waiting_for("income", "Ana")), "Ana", cards=(crossbowman,))
    not_narrated(ana, ev.IncomeActivated("Ana", "white-1", "gray"), "E.per-die")


def test_E_end_the_dice_go_back_to_the_dice_area():
    state = drive(_income(), lambda s: s.pending.kind == "income" and s.pending.actor == "Ana")
    after, told = narrated(state, ev.IncomeEnded("Ana"), "E.end")
    assert sorted((t.who, t.ident) for t in told) == sorted(
        (state.index[p.name], d) for p in state.players for d in p.shutter)
    assert all((t.src, t.dst) == (n.SHUTTER, n.DICE_AREA) for t in told) and after.phase == "F"


def _with_steps(state, name, amount):
    """``name`` due to take ``amount`` pilgrim steps, as a reward granting steps leaves it."""
    from coimbra_events.record import replace
    from coimbra_events.state import Pending

    due = Pending(name, "steps", amount, "test")
    return replace(state, stack=state.stack + (due,), pending=due)


def test_MONASTERY_reward_on_the_first_visit_only():
    state = started(2)
    space, monastery = next((s, m) for s, m in state.monasteries if CAT.monasteries[m].timing == "immediate")
    road = CAT.map.neighbours[space][0]
    stepping = _with_steps(with_player(state, "Ana", pilgrim=road), "Ana", 2)
    _, told = narrated(stepping, ev.PilgrimStepped("Ana", space), "MONASTERY.reward", monastery=monastery, space=space)
    assert (n.MONASTERY_DISC, monastery, n.SUPPLY, n.ON) in [(t.what, t.ident, t.src, t.dst) for t in told]
    gains = sorted((e.params["resource"], e.params["amount"]) for e in CAT.monasteries[monastery].effects
                   if e.kind == "gain" and e.params["resource"] != "steps")
    assert sorted((t.what, t.amount) for t in told if t.what in (n.COINS, n.GUARDS, n.POINTS)) == gains
    again = with_player(stepping, "Ana", monasteries=(monastery,))
    not_narrated(again, ev.PilgrimStepped("Ana", space), "MONASTERY.reward")


# --- the end of the game -----------------------------------------------------------------------------


_ROUND_4_F = None


def _final_pass(**players):
    """2 players, the last voyage decision of round 4: passing it ends the game. Players' fields as given."""
    global _ROUND_4_F
    if _ROUND_4_F is None:
        _ROUND_4_F = _last_voyage(drive(started(2), lambda s: s.round == 4 and s.phase == "F"))
    state = _ROUND_4_F
    for name, fields in players.items():
        state = with_player(state, name, **fields)
    return state, ev.VoyagePassed(state.pending.actor)


def test_END_influence_tiles_score_by_rank_the_earlier_arrival_ahead():
    state, event = _final_pass(Ana={"influence": {"gray": 6}, "arrivals": {"gray": 900}},
                               Bruno={"influence": {"gray": 6}, "arrivals": {"gray": 899}})
    _, told = narrated(state, event, "END.influence-tiles")
    gray = {t.who: t.facts["rank"] for t in told if t.facts["track"] == "gray"}
    assert gray == {1: 1, 0: 2}  # same space: Bruno arrived first
    points = CAT.scoring_tiles[state.scoring_tiles[0]].points["2-3"]
    assert {t.who: t.amount for t in told if t.facts["track"] == "gray"} == {1: points[0], 0: points[1]}


def test_END_cards_score_their_end_game_bonus():
    from coimbra_events.rules.scoring import end_game_items

    state, _ = _final_pass()
    worth = {c: sum(i.points for i in end_game_items(state, with_player(state, "Ana", cards=(c,)).player("Ana")))
             for c in CAT.pile("II") if CARDS[c].timing == "end_game"}
    card = next(c for c, points in worth.items() if points)
    state, event = _final_pass(Ana={"cards": (card,)})
    _, told = narrated(state, event, "END.cards", card=card)
    assert [t.amount for t in told if t.who == 0] == [worth[card]]


def test_END_cards_name_what_they_counted_and_the_reason_names_it_as_printed():
    """A card scoring per card of a category names the cards it counted, how many, and the points each."""
    from cli.change_views import because
    from projections.consequences import told_changes

    card, effect = next((c, CARDS[c].effects[0]) for c in CAT.pile("III") if CARDS[c].timing == "end_game"
                        and CARDS[c].effects[0].kind == "points_per_card" and CARDS[c].effects[0].params["category"] != "any")
    category, each = effect.params["category"], effect.params["points"]
    same = [c for c in CARDS if c != card and CARDS[c].category == category][:2]
    other = next(c for c in CARDS if CARDS[c].category != category)
    state, event = _final_pass(Ana={"cards": (card, *same, other), "start_cards": ()})
    _, told = narrated(state, event, "END.cards", card=card)
    mine = next(t for t in told if t.facts["card"] == card)
    counted = (card, *same)
    assert mine.facts["counted"] == ({"per": "card", "category": category, "counted": counted, "count": 3,
                                      "points_each": each},)
    assert mine.amount == 3 * each
    change = next(c for c in told_changes([mine], state) if c.rule == "END.cards").to_json()
    names = ", ".join(named(CAT, c) for c in counted)
    assert because(change, CAT) == f"END.cards: end-game bonus of {named(CAT, card)}; 3 {category} cards × {each}: {names}"


def test_END_monasteries_score_their_end_game_condition():
    monastery = next(m for m, tile in CAT.monasteries.items() if tile.timing == "end_game"
                     and [e.kind for e in tile.effects] == ["points"])
    state, event = _final_pass(Bruno={"monasteries": (monastery,)})
    _, told = narrated(state, event, "END.monasteries", monastery=monastery)
    assert [t.amount for t in told] == [CAT.monasteries[monastery].effects[0].params["amount"]]


def test_END_voyages_score_their_task_and_a_task_worth_nothing_moves_no_disc():
    # v-01: a fixed number of points; v-02: points per gray card, and Ana holds none
    state, event = _final_pass(Ana={"voyages": ("v-01", "v-02"), "cards": (), "start_cards": ()})
    _, told = narrated(state, event, "END.voyages", voyage="v-01")
    assert [(t.who, t.source, t.amount) for t in told if t.who == 0] == [(0, "v-01", CAT.voyages["v-01"].effects[0].params["amount"])]


def test_END_leftover_scores_at_the_catalogs_rates_and_not_at_all_without_them():
    state, event = _final_pass(Ana={"coins": 9, "guards": 4})
    not_narrated(state, event, "END.leftover")
    cat = catalog_with(lambda d: d["final_scoring"]["leftover"].update(coins_per_point=3, guards_per_point=2))
    from coimbra_events.record import replace

    rated = replace(state, catalog=cat)
    _, told = narrated(rated, event, "END.leftover", coins=9, guards=4, coins_per_point=3, guards_per_point=2)
    assert [(t.who, t.amount) for t in told if t.who == 0] == [(0, 9 // 3 + 4 // 2)]


def test_END_places_most_points_first_a_tie_broken_by_resources_left():
    state, event = _final_pass(Ana={"points": 30, "points_by_source": (("income", 30),), "coins": 5, "guards": 5},
                               Bruno={"points": 30, "points_by_source": (("income", 30),), "coins": 9, "guards": 9})
    for name in ("Ana", "Bruno"):
        state = with_player(state, name, influence=(0, 0, 0, 0), cards=(), start_cards=(), monasteries=(), voyages=())
    _, told = narrated(state, event, "END.places", tie_break="resources")
    assert {t.who: t.dst for t in told} == {1: 1, 0: 2}
