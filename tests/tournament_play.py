"""Playing a tournament's games to their end in a test: each game's every input drawn by the simulator's bots and
table (seeded), recorded through the application in one write, as a table entering its whole game would."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Iterable


def finish(db: Path, games: Iterable[str], seed: int = 0) -> None:
    """Play each of ``games`` (stored in ``db``) from where it stands to its final scoring."""
    from coimbra_events.rules.fast import Fold
    from coimbra_events.service import Games
    from coimbra_events.simulator import next_event

    with Games.at(db) as app:
        for k, name in enumerate(games):
            state, rng, fold, events = app.open(name).state, random.Random(seed * 1000 + k), Fold(), []
            while not state.over:
                events.append(next_event(state, rng))
                state = fold.apply(state, events[-1])
            assert type(app.record(name, events)).__name__ == "Stored"
