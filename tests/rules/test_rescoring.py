"""``rescoring.Rescoring``: the totals of the tables after each option of a decision, counted again only where an
option changed what they count, are ``scoring.totals``' own, for every option of every decision of whole games (the
playout policy's greedy pick reads them: a figure off by a point would change its choices)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from coimbra_events.catalog import standin_catalog
from coimbra_events.rules.core import apply, legal, start
from coimbra_events.rules.fast import Fold
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.rules.rescoring import Rescoring
from coimbra_events.rules.scoring import totals
from coimbra_events.simulator import DEFAULT_PLAYERS


def rescored_as_totals(seed: int, players: int) -> int:
    """A game of random choices played to its end, every option of every decision scored both ways (one
    ``Rescoring`` a decision, as the pick uses it); the options compared."""
    rng, state, fold, compared = random.Random(seed), start(standin_catalog(), DEFAULT_PLAYERS[:players]), Fold(), 0
    while not state.over:
        found = legal(state)
        if isinstance(found, OutcomeSpace):
            state = apply(state, found.sample(rng))
            continue
        scores = Rescoring(state)
        for option in found:
            after = fold.apply(state, option)
            assert scores.totals(after) == totals(after), (state.round, state.phase, option)
            compared += 1
        state = apply(state, rng.choice(found))
    return compared


@settings(max_examples=6)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_every_option_of_whole_games_rescores_as_the_totals(seed: int, players: int) -> None:
    assert rescored_as_totals(seed, players) > 100
