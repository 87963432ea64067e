"""Property tests over random legal games (Hypothesis drives the simulator's seed).

The default profile plays hundreds of games per player count; CI also runs the
``thorough`` profile (thousands).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coimbra_events import log as game_log, log_reader
from coimbra_events.rules.core import apply, legal, start
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.simulator import DEFAULT_PLAYERS, next_event, simulate
from coimbra_events.validation import validate
from tests.invariants import check_invariants

pytestmark = pytest.mark.property
seeds = st.integers(min_value=0, max_value=2**32 - 1)
PLAYER_COUNTS = pytest.mark.parametrize("players", [2, 3, 4])


@PLAYER_COUNTS
@given(seed=seeds)
def test_random_legal_games_keep_every_invariant(catalog, players, seed):
    rng = random.Random(seed)
    state = start(catalog, DEFAULT_PLAYERS[:players])
    rounds_seen = set()
    while not state.over:
        event = next_event(state, rng)
        state = apply(state, event)
        check_invariants(state)
        rounds_seen.add(state.round)
    assert rounds_seen >= {1, 2, 3, 4} and state.round == 4
    assert legal(state) == []


@PLAYER_COUNTS
@given(seed=seeds)
def test_every_legal_decision_is_accepted_by_check(catalog, players, seed):
    """legal() and check() are one rulebook: every option offered is accepted."""
    from coimbra_events.rules.core import check

    rng = random.Random(seed)
    state = start(catalog, DEFAULT_PLAYERS[:players])
    while not state.over:
        options = legal(state)
        if not isinstance(options, OutcomeSpace):
            assert options, "a player is due but has no legal decision"
            for option in options:
                assert check(state, option) is None, option
        state = apply(state, next_event(state, rng))


@PLAYER_COUNTS
@given(seed=seeds)
def test_replaying_a_log_reproduces_the_simulated_final_state(catalog, players, seed):
    log, final = simulate(catalog, DEFAULT_PLAYERS[:players], seed)
    result = validate(log_reader.loads(game_log.dumps(log)))
    assert result.valid and result.state == final


@PLAYER_COUNTS
@given(seed=seeds)
def test_write_read_write_is_byte_identical(catalog, players, seed):
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:players], seed)
    data = game_log.dumps(log)
    again = log_reader.loads(data)
    assert again == log
    assert game_log.dumps(again) == data


@given(seed=seeds, players=st.sampled_from([2, 3, 4]))
def test_same_seed_gives_identical_bytes(catalog, seed, players):
    first, _ = simulate(catalog, DEFAULT_PLAYERS[:players], seed)
    second, _ = simulate(catalog, DEFAULT_PLAYERS[:players], seed)
    assert game_log.dumps(first) == game_log.dumps(second)


@given(seed=seeds, players=st.sampled_from([2, 3, 4]), cut=st.floats(min_value=0, max_value=1))
def test_replaying_any_prefix_equals_the_state_recorded_on_the_way(catalog, seed, players, cut):
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:players], seed)
    k = int(cut * len(log.events))
    states = [start(catalog, log.players)]
    for e in log.events:
        states.append(apply(states[-1], e))
    prefix = validate(log.with_events(log.events[:k]))
    assert prefix.valid and prefix.state == states[k]
