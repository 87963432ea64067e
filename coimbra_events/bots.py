"""The seeded bots: how ``coimbra simulate`` and the analysis's playouts choose among legal decisions.

Compiled with the rules core (setup.py's ``COMPILED``): a playout asks a bot for every decision of
the rest of a game, so the pick and the loop that plays a game to its end are on the fastest path.
The bots only choose; what is legal and what a choice does are the rules core's.
"""

from __future__ import annotations

import random
from bisect import bisect
from typing import Final, Sequence

from coimbra_events import events as ev
from coimbra_events.events import GameEvent
from coimbra_events.rules.core import Fold, legal
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.state import GameState

RARE: Final[dict[type, float]] = {ev.IncomeEnded: 0.03, ev.PilgrimStopped: 0.1, ev.AlternativeTaken: 0.25}
"""How much less often a bot picks decisions that forfeit something, so games look played."""


def choose(rng: random.Random, options: Sequence[GameEvent]) -> GameEvent:
    """A bot's pick: first a kind of decision, then one of that kind, uniformly.

    Draws exactly what ``rng.choices(kinds, weights)`` then ``rng.choice(group)`` draw (so a seed gives the same
    game as ever), without their general-purpose work: playouts call this for every decision of every game.
    """
    kinds: dict[type, list[GameEvent]] = {}
    for o in options:
        group = kinds.get(type(o))
        if group is None:
            kinds[type(o)] = [o]
        else:
            group.append(o)
    types = list(kinds)
    rare = False
    cumulative: list[float] = []
    total = 0.0
    for t in types:
        weight = RARE.get(t)
        if weight is None:
            weight = 1.0
        else:
            rare = True
        total += weight
        cumulative.append(total)
    if rare:  # rng.choices: bisect of the cumulative weights at random() * their sum
        kind = types[bisect(cumulative, rng.random() * total, 0, len(types) - 1)]
    else:  # with equal weights that bisect is the floor
        kind = types[int(rng.random() * len(types))]
    if kind is ev.AlternativeTaken:
        return _richest(kinds[kind])
    return rng.choice(kinds[kind])


def _richest(alternatives: list[GameEvent]) -> GameEvent:
    """The alternative action that gives the most coins and guards (the first of equals, as ``max`` picks)."""
    best, most = alternatives[0], -1
    for event in alternatives:
        assert isinstance(event, ev.AlternativeTaken)
        if event.coins + event.guards > most:
            best, most = event, event.coins + event.guards
    return best


def play_to_end(state: GameState, table: random.Random, bots: random.Random, fold: Fold) -> GameState:
    """The game played on from ``state`` to its end: the table draws what is possible, the bots choose."""
    while not state.over:
        options = legal(state)
        event = options.sample(table) if isinstance(options, OutcomeSpace) else choose(bots, options)
        state = fold.apply(state, event)
    return state
