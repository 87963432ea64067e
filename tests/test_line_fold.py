"""The timeline's incremental fold of a record's history gives exactly what resolving and replaying it gives."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coimbra_events import log_reader
from coimbra_events.catalog import standin_catalog
from coimbra_events.game import Game
from coimbra_events.events import HISTORY_TYPES, Corrected
from coimbra_events.history import LineFold, replay, resolve
from coimbra_events.rules.core import check, legal, start
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate
from coimbra_events.validation import catalog_for
from projections.consequences import fold as timeline_fold
from tests.golden import corpus_games

RECORDED = {name: log_reader.loads(data) for name, data in corpus_games() if name.startswith("rec-")}


def checkpoints(events) -> list[int]:
    """Every history entry and the entry after it, and every tenth entry."""
    marks = {k for k, e in enumerate(events, 1) if type(e) in HISTORY_TYPES}
    return sorted({*marks, *(k + 1 for k in marks if k < len(events)), *range(10, len(events) + 1, 10), len(events)})


@pytest.mark.parametrize("name", sorted(RECORDED)[::3])
def test_after_every_entry_the_fold_is_the_replayed_line(name):
    log = RECORDED[name]
    initial = start(catalog_for(log), log.players)
    fold, states = LineFold(initial), timeline_fold(initial, log.events).states
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
    initial = start(catalog, log.players)
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


# --- a property: records built of random history operations ------------------------------------------

BASE, _ = simulate(standin_catalog(), DEFAULT_PLAYERS[:2], 21)
OPERATIONS = st.lists(st.tuples(st.sampled_from(["play", "play", "play", "undo", "correct", "note"]),
                                st.integers(min_value=0, max_value=30)), min_size=1, max_size=60)


def operate(game: Game, op: str, k: int) -> None:
    """One step of a record's life: a legal play (the k-th option), an undo, a correction of one of the last
    plays to its k-th option (later plays may break), or a note."""
    plays = game.line.plays
    if op == "undo" and plays:
        game.undo()
    elif op == "correct" and plays:
        play = plays[-1 - k % min(len(plays), 5)]
        options = legal(game.state_before(play.seq))
        if isinstance(options, list) and options and options[k % len(options)] != play.event:
            game.correct(play.seq, options[k % len(options)])
    elif op == "note" and plays:
        game.note(plays[k % len(plays)].seq, "n")
    elif not game.over:
        options = legal(game.state)
        game.record(options.sample(random.Random(k)) if isinstance(options, OutcomeSpace) else options[k % len(options)])


@pytest.mark.property
@settings(max_examples=60)
@given(operations=OPERATIONS)
def test_random_histories_fold_as_they_replay(operations):
    """After every entry of a record made of random operations, the incremental fold equals resolve + replay."""
    game = Game.from_log("g", BASE.prefix(12))
    for op, k in operations:
        operate(game, op, k)
    initial, events = game.initial, game.events
    fold = LineFold(initial)
    for n, event in enumerate(events, 1):
        fold.push(event)
        replayed = replay(initial, resolve(events[:n]), stop_at_violation=False)
        assert fold.state == replayed.state and fold.skipped() == replayed.skipped, n
    assert game.state == fold.state
