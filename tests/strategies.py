"""Hypothesis strategies that draw whole games, and the damage done to them, choice by choice.

A game is drawn the way it is played, one drawn choice per event: a player's
decision is the legal option that choice picks (0: the first one), a table outcome
is sampled from the outcome space with the choice as its ``Random``'s seed; its
length is drawn as well. So a failing case shrinks to a short game with the first
options taken, not to one opaque seed for the whole game. (The choices are drawn
as one list: a draw per event costs Hypothesis about 0.3 ms, more than the event.)
"""

from __future__ import annotations

import os
import random
from typing import Any

from hypothesis import strategies as st

from coimbra_events.catalog import Catalog
from coimbra_events.log import GameLog
from coimbra_events.rules.core import apply, legal, start
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
    state = start(catalog, people)
    events = []
    length = draw(st.integers(0, max_events))
    for choice in draw(st.lists(st.integers(0, 2**32 - 1), min_size=length, max_size=length)):
        if state.over:
            break
        options = legal(state)
        event = options.sample(random.Random(choice)) if isinstance(options, OutcomeSpace) else options[choice % len(options)]
        events.append(event)
        state = apply(state, event)
    return GameLog.new(catalog, people, {"generator": "tests.strategies"}).with_events(events)
