"""Seeded simulated games: bots choose among legal decisions, a seeded table rolls and deals.

The generator is used only here, to *produce* a log: every draw becomes an event,
so replaying the log never needs it. The same seed and players always give the
same events, hence the same log bytes.
"""

from __future__ import annotations

import random
from typing import Sequence

from coimbra_events.bots import choose
from coimbra_events.catalog import Catalog
from coimbra_events.events import GameEvent
from coimbra_events.log import GameLog
from coimbra_events.rules.core import legal, start
from coimbra_events.rules.fast import Fold
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.state import GameState

DEFAULT_PLAYERS: tuple[tuple[str, str], ...] = (("Ana", "red"), ("Bruno", "blue"), ("Carla", "yellow"), ("Duarte", "green"))


def next_event(state: GameState, rng: random.Random) -> GameEvent:
    """The next event of a simulated game: a table draw or a bot decision."""
    options = legal(state)
    if isinstance(options, OutcomeSpace):
        return options.sample(rng)
    return choose(rng, options)


def simulate(catalog: Catalog, players: Sequence[tuple[str, str]], seed: int) -> tuple[GameLog, GameState]:
    """A complete game from setup to final scoring, and its final state."""
    rng = random.Random(seed)
    state = start(catalog, players)
    events: list[GameEvent] = []
    carried = Fold()  # the events are the rules' own legal ones
    while not state.over:
        event = next_event(state, rng)
        events.append(event)
        state = carried.apply(state, event)
    log = GameLog.new(catalog, players, {"generator": "coimbra simulate", "seed": seed}).with_events(events)
    return log, state
