"""Seeded simulated games: bots choose among legal decisions, a seeded table rolls and deals.

The generator is used only here, to *produce* a log: every draw becomes an event,
so replaying the log never needs it. The same seed and players always give the
same events, hence the same log bytes.
"""

from __future__ import annotations

import random
from typing import Sequence

from coimbra_events import events as ev
from coimbra_events.catalog import Catalog
from coimbra_events.events import GameEvent
from coimbra_events.log import GameLog
from coimbra_events.rules.core import apply, initial_state, legal
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.state import GameState

DEFAULT_PLAYERS: tuple[tuple[str, str], ...] = (("Ana", "red"), ("Bruno", "blue"), ("Carla", "yellow"), ("Duarte", "green"))

_RARE = {ev.IncomeEnded: 0.03, ev.PilgrimStopped: 0.1, ev.AlternativeTaken: 0.25}
"""How much less often a bot picks decisions that forfeit something, so games look played."""


def choose(rng: random.Random, options: Sequence[GameEvent]) -> GameEvent:
    """A bot's pick: first a kind of decision, then one of that kind, uniformly.

    Draws exactly what ``rng.choices(kinds, weights)`` then ``rng.choice(group)`` draw (so a seed gives the same
    game as ever), without their general-purpose work when every kind weighs the same: playouts call this for
    every decision of every game they play.
    """
    kinds: dict[type, list[GameEvent]] = {}
    for o in options:
        group = kinds.get(type(o))
        if group is None:
            kinds[type(o)] = [o]
        else:
            group.append(o)
    types = list(kinds)
    if _RARE.keys().isdisjoint(types):
        kind = types[int(rng.random() * len(types))]  # rng.choices with equal weights: bisect of [1, 2, ..] = floor
    else:
        kind = rng.choices(types, [_RARE.get(t, 1.0) for t in types])[0]
    if kind is ev.AlternativeTaken:
        return max(kinds[kind], key=lambda e: e.coins + e.guards)
    return rng.choice(kinds[kind])


def next_event(state: GameState, rng: random.Random) -> GameEvent:
    """The next event of a simulated game: a table draw or a bot decision."""
    options = legal(state)
    if isinstance(options, OutcomeSpace):
        return options.sample(rng)
    return choose(rng, options)


def simulate(catalog: Catalog, players: Sequence[tuple[str, str]], seed: int) -> tuple[GameLog, GameState]:
    """A complete game from setup to final scoring, and its final state."""
    rng = random.Random(seed)
    state = initial_state(catalog, players)
    events: list[GameEvent] = []
    while not state.over:
        event = next_event(state, rng)
        events.append(event)
        state = apply(state, event)
    log = GameLog.new(catalog, players, {"generator": "coimbra simulate", "seed": seed}).with_events(events)
    return log, state
