"""The timeline's incremental fold of a record's history gives exactly what resolving and replaying it gives."""

from __future__ import annotations

import pytest

from coimbra_events import log as game_log
from coimbra_events.events import HISTORY_TYPES, Corrected
from coimbra_events.history import LineFold, replay, resolve, states_per_entry
from coimbra_events.rules.core import check, initial_state, legal
from coimbra_events.validation import catalog_for
from tests.golden import corpus_games

RECORDED = {name: game_log.loads(data) for name, data in corpus_games() if name.startswith("rec-")}


def checkpoints(events) -> list[int]:
    """Every history entry and the entry after it, and every tenth entry."""
    marks = {k for k, e in enumerate(events, 1) if type(e) in HISTORY_TYPES}
    return sorted({*marks, *(k + 1 for k in marks if k < len(events)), *range(10, len(events) + 1, 10), len(events)})


@pytest.mark.parametrize("name", sorted(RECORDED)[::3])
def test_after_every_entry_the_fold_is_the_replayed_line(name):
    log = RECORDED[name]
    initial = initial_state(catalog_for(log), log.players)
    fold, states = LineFold(initial), states_per_entry(initial, log.events)
    wanted = set(checkpoints(log.events))
    for k, event in enumerate(log.events, 1):
        fold.push(event)
        if k in wanted:
            line = resolve(log.events[:k])
            replayed = replay(initial, line, stop_at_violation=False)
            assert fold.state == replayed.state == states[k], (name, k)
            assert tuple(fold.plays) == line.plays and fold.skipped() == replayed.skipped, (name, k)


def test_a_correction_that_makes_later_plays_illegal_is_folded_as_the_replay_folds_it(catalog):
    """Plays a correction breaks are skipped and listed (and the fold says which), as ``replay`` does."""
    log = RECORDED["rec-2p-001"]
    initial = initial_state(catalog, log.players)
    events = list(log.events[:40])
    plays = resolve(events).plays
    for play in plays[5:30]:
        before = replay(initial, resolve(events[: play.source - 1]), stop_at_violation=False).state
        options = legal(before)
        others = [o for o in (options if isinstance(options, list) else []) if o != play.event and check(before, o) is None]
        for other in others:
            changed = [*events, Corrected("table", play.seq), other]
            replayed = replay(initial, resolve(changed), stop_at_violation=False)
            if replayed.skipped:
                fold = LineFold(initial)
                for event in changed:
                    fold.push(event)
                assert fold.state == replayed.state and fold.skipped() == replayed.skipped
                return
    pytest.fail("no correction in this game breaks a later play: choose another game")
