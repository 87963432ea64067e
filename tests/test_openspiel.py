"""Coimbra as an OpenSpiel game (the optional extra ``openspiel``).

The numbering and the card-by-card draws are pure and tested everywhere: every legal
option of simulated games has its number and comes back as the same event, and a deal
drawn card by card is always one the rules core accepts, with each card as likely as the
rules' own shuffle makes it. With ``pyspiel`` installed, OpenSpiel's own consistency
test for a game implementation runs on it for 2, 3 and 4 players, and OpenSpiel's
``MCTSBot`` plays a whole game to its end. Without the extra those skip, saying so,
except in CI (``$CI`` set), where they fail: CI must run them (the ``test`` extra
installs ``openspiel``).
"""

from __future__ import annotations

import contextlib
import io
import random
from collections import Counter
from pathlib import Path

import pytest

from coimbra_events.catalog import standin_catalog
from coimbra_events.openspiel import draws
from coimbra_events.openspiel.position import Position, longest
from coimbra_events.record import replace
from coimbra_events.rules.core import check, legal
from coimbra_events.simulator import DEFAULT_PLAYERS
from tests.store.conftest import in_ci

CATALOG = standin_catalog()


def pyspiel_or_skip():
    """``pyspiel`` with the game registered; a skip (a failure in CI) without the extra."""
    try:
        import pyspiel

        import coimbra_events.openspiel.game  # noqa: F401  (registers "coimbra")
    except ImportError as error:
        why = f"OpenSpiel is not installed ({error}); pip install -e \".[openspiel]\""
        if in_ci():
            pytest.fail(f"{why}: CI must run the OpenSpiel tests")
        pytest.skip(why)
    return pyspiel


def played(players: int, seed: int) -> list[Position]:
    """Every position of a game whose players and table pick uniformly among the numbered actions and pieces."""
    rng = random.Random(seed)
    position = Position.start(CATALOG, DEFAULT_PLAYERS[:players])
    seen = [position]
    while not position.over:
        if position.drawing:
            actions, chances = zip(*position.chance_outcomes())
            action = rng.choices(actions, chances)[0]
        else:
            action = rng.choice(position.legal_actions())
        position = position.after(action)
        seen.append(position)
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_option_has_a_number_that_gives_it_back(players):
    for position in played(players, seed=players):
        if position.over or position.drawing:
            continue
        options = legal(position.state)
        numbers = position.legal_actions()
        assert len(set(numbers)) == len(options)
        actor = position.state.pending.actor
        assert sorted(map(repr, options)) == sorted(repr(position.space.decision(actor, a)) for a in numbers)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_walked_action_by_action_ends_with_one_first_place_worth_one(players):
    positions = played(players, seed=10 + players)
    end = positions[-1]
    decisions = sum(1 for p in positions[:-1] if not p.drawing)
    assert end.over and decisions <= longest(CATALOG, players)
    assert sum(end.returns()) == pytest.approx(1.0)
    assert all(sum(p for _, p in position.chance_outcomes()) == pytest.approx(1.0)
               for position in positions if position.drawing)


def test_players_sharing_first_place_share_its_return():
    """Two players alike in everything the end-game scoring counts (discs off the tracks, the rest the same) tie."""
    end = played(2, seed=3)[-1]
    first, second = end.state.players
    alike = replace(first, influence=(0, 0, 0, 0), arrivals=(0, 0, 0, 0))
    tied = replace(end.state, players=(alike, replace(alike, name=second.name, color=second.color)))
    assert Position(tied, (), (), end.players, end.fold).returns() == [0.5, 0.5]
    assert end.returns() in ([1.0, 0.0], [0.0, 1.0])


def test_a_deal_drawn_card_by_card_is_one_the_rules_accept_and_each_card_as_likely_as_the_shuffle_makes_it():
    """Mid-deck, with 5 cards of pile II left: those 5 must be dealt, the other 7 come from pile III's 24."""
    state = next(p.state for p in played(2, seed=5) if p.drawing and p.state.pending.kind == "rows" and p.state.round > 1)
    pile_ii = CATALOG.pile("II")
    state = replace(state, dealt=frozenset(pile_ii[:-5]))
    rng = random.Random(7)
    dealt = Counter()
    deals = 300
    for _ in range(deals):
        drawn: tuple = ()
        while chances := draws.next_pieces(state, drawn):
            pieces, weights = zip(*chances)
            drawn += (rng.choices(pieces, weights)[0],)
        event = draws.outcome(state, drawn)
        assert check(state, event) is None
        dealt.update(card for _, row in event.rows for card in row)
    assert all(dealt[card] == deals for card in pile_ii[-5:])
    share = 7 / 24
    for card in CATALOG.pile("III"):
        assert abs(dealt[card] / deals - share) < 0.1, card


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_sim_test_passes(players):
    pyspiel = pyspiel_or_skip()
    game = pyspiel.load_game("coimbra", {"players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_mcts_bot_plays_a_whole_game_to_its_end():
    pyspiel = pyspiel_or_skip()
    import numpy as np
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("coimbra", {"players": 2})
    rng = random.Random(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, chances = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, chances)[0])
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert searched > 20
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])


def test_the_documented_example_runs():
    """docs/openspiel.md's example: load the game, play it to the end, read the returns."""
    pyspiel_or_skip()
    text = (Path(__file__).resolve().parent.parent / "docs" / "openspiel.md").read_text(encoding="utf-8")
    example = text.split("```python\n", 1)[1].split("```", 1)[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(example, "docs/openspiel.md", "exec"), {})
    returns = eval(out.getvalue())
    assert len(returns) == 3 and sum(returns) == pytest.approx(1.0)
