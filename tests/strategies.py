"""Hypothesis strategies that draw whole games, and the damage done to them, choice by choice.

A game is drawn the way it is played: at each step, a player's decision is one of
the legal ones (``sampled_from``, which shrinks to the first) and a table outcome
is sampled with a Hypothesis-controlled ``Random`` (``randoms``, whose draws shrink
too); its length is drawn as well. So a failing case shrinks to a short game with
early, simple choices, not to an opaque seed.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import strategies as st

from coimbra_events.catalog import Catalog
from coimbra_events.log import GameLog
from coimbra_events.rules.core import apply, initial_state, legal
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.simulator import DEFAULT_PLAYERS

THOROUGH = os.environ.get("COIMBRA_HYPOTHESIS_PROFILE") == "thorough"
FUZZ_EXAMPLES = 3500 if THOROUGH else 40
"""Cases per fuzz test: CI's thorough profile runs at least 10,000 over the fuzz suite, the default a few."""

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8) | st.sampled_from(["table", "Ana", "DiePlaced", "gray-1", "castle", "", "\x1b[2J"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
"""Any JSON value a damaged log or row may hold (a log is read before it is trusted)."""


@st.composite
def games(draw: Any, catalog: Catalog, max_events: int = 400, players: tuple[int, ...] = (2, 3, 4)) -> GameLog:
    """A game of 2 to 4 players played for a drawn number of events (up to the end), every event legal."""
    people = DEFAULT_PLAYERS[: draw(st.sampled_from(players))]
    state = initial_state(catalog, people)
    events = []
    for _ in range(draw(st.integers(0, max_events))):
        if state.over:
            break
        options = legal(state)
        if isinstance(options, OutcomeSpace):
            event = options.sample(draw(st.randoms(use_true_random=False)))
        else:
            event = draw(st.sampled_from(options))
        events.append(event)
        state = apply(state, event)
    return GameLog.new(catalog, people, {"generator": "tests.strategies"}).with_events(events)
