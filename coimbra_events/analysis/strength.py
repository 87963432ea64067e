"""How strong the analysis is, measured: a player choosing by its evaluation against the seeded bots.

The table is seeded as in ``coimbra simulate`` (the same seed, the same rolls and deals as long as
the same decisions are asked of it); one seat picks the option the analysis rates best
(``evaluation.best_option``), the others are the seeded bots.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Sequence

from coimbra_events.analysis.evaluation import Settings, best_option
from coimbra_events.analysis.playouts import Result, outcome
from coimbra_events.bots import choose
from coimbra_events.catalog import Catalog
from coimbra_events.rules.core import legal, start
from coimbra_events.rules.fast import Fold
from coimbra_events.rules.outcomes import OutcomeSpace


def duel(catalog: Catalog, players: Sequence[tuple[str, str]], seed: int, seat: int, settings: Settings) -> Result:
    """A whole game on a table seeded with ``seed``: the player in ``seat`` chooses by the analysis, the rest are bots."""
    table, bots = random.Random(seed), random.Random(f"bots:{seed}")
    settings = replace(settings, seed=seed)
    state = start(catalog, players)
    fold = Fold()
    analysed = players[seat][0]
    decision = 0
    while not state.over:
        options = legal(state)
        if isinstance(options, OutcomeSpace):
            event = options.sample(table)
        elif state.pending is not None and state.pending.actor == analysed and len(options) > 1:
            decision += 1
            event = best_option(state, settings, decision)
        else:
            event = choose(bots, options)
        state = fold.apply(state, event)
    return outcome(state)
