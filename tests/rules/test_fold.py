"""``fast.Fold`` carries one working copy of the table from each event to the next: that must never show.

Every state it gives, and everything it tells while narrating, is what a fresh
``apply`` (``fast.narrate``) of the same event from the same state gives, whichever
states it is handed and in whatever order. A scratch fold (a playout's) gives the
same states, each until its next ``apply``, and never changes one it did not make.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coimbra_events import log as game_log, log_reader
from coimbra_events.events import DiePlaced, IncomeActivated
from coimbra_events.rules.core import apply, start
from coimbra_events.rules.fast import Fold, apply_in, narrate
from coimbra_events.rules.narration import records
from coimbra_events.rules.tx import IN_PLACE, Tx
from coimbra_events.validation import catalog_for
from tests.golden import corpus_games

GAMES = [log_reader.loads(data) for name, data in corpus_games() if not name.startswith("rec-")][::25]


def states_of(log: game_log.GameLog) -> list:
    """Every state of the game's fold, each by a fresh ``apply``."""
    states = [start(catalog_for(log), log.players)]
    for event in log.events:
        states.append(apply(states[-1], event))
    return states


SCRATCH = pytest.mark.parametrize("scratch", [False, True], ids=["fold", "scratch fold"])


@SCRATCH
@pytest.mark.parametrize("log", GAMES, ids=lambda log: log.meta.get("seed", "game"))
def test_a_carried_fold_gives_every_state_a_fresh_apply_gives(log, scratch):
    fresh = states_of(log)
    carried = Fold(scratch=scratch)
    state = fresh[0]
    for k, event in enumerate(log.events):
        state = carried.apply(state, event)
        assert state == fresh[k + 1], f"after event {k + 1}"


@pytest.mark.parametrize("log", GAMES[:4], ids=lambda log: log.meta.get("seed", "game"))
def test_a_scratch_fold_refills_one_table_and_never_touches_the_state_it_started_from(log):
    """In the compiled build, every state after the first is the first one refilled; the state handed to the
    fold, and every player of it, stay as they were (a deep look: their text)."""
    fresh = states_of(log)
    start = fresh[len(fresh) // 3]
    seen = repr(start), [repr(p) for p in start.players]
    carried = Fold(scratch=True)
    first = state = carried.apply(start, log.events[len(fresh) // 3])
    for event in log.events[len(fresh) // 3 + 1:]:
        state = carried.apply(state, event)
    assert state == fresh[-1]
    assert (repr(start), [repr(p) for p in start.players]) == seen
    assert (state is first) == IN_PLACE
    assert not any(p is q for p, q in zip(state.players, start.players))  # each player touched got a state of its own


@pytest.mark.parametrize("log", GAMES[:4], ids=lambda log: log.meta.get("seed", "game"))
def test_a_narrating_fold_tells_what_a_fresh_narration_tells_of_each_event(log):
    fresh = states_of(log)
    carried = Fold(True)
    state = fresh[0]
    for k, event in enumerate(log.events):
        start = len(carried.tape)
        state = carried.apply(state, event)
        states, tape, _ = narrate(fresh[k], [event])
        assert state == states[-1] == fresh[k + 1]
        assert records(carried.tape, start, len(carried.tape)) == records(tape, 0, len(tape)), f"event {k + 1}"


@settings(max_examples=40, deadline=None)
@given(data=st.data(), scratch=st.booleans())
def test_going_on_from_any_earlier_state_is_a_fresh_apply(data, scratch):
    """Handed a state it did not give last, the fold starts a new copy: jumping back and forth changes nothing."""
    log = data.draw(st.sampled_from(GAMES))
    fresh = states_of(log)
    carried = Fold(scratch=scratch)
    for _ in range(12):
        k = data.draw(st.integers(0, len(log.events) - 1), label="from event")
        assert carried.apply(fresh[k], log.events[k]) == fresh[k + 1]


@SCRATCH
def test_an_event_that_fails_midway_leaves_nothing_half_done(scratch):
    """``apply_in`` and a fold's ``apply`` do not check, so an event can fail after the rules changed the working copy (here an income
    taken from a die, then a track that is none). The fold then goes on from the states it is handed as if
    nothing had happened."""
    log = GAMES[0]
    fresh = states_of(log)
    k = next(k for k, e in enumerate(log.events) if isinstance(e, IncomeActivated) and k > 0)
    event = log.events[k]
    bad = IncomeActivated(event.actor, event.die, "no track")
    half, seat = Tx(fresh[k]), fresh[k].index[event.actor]
    with pytest.raises(KeyError):
        apply_in(half, bad)
    assert half.pl(seat).income_left != fresh[k].players[seat].income_left, "it failed midway, not before"

    carried = Fold(scratch=scratch)
    before = carried.apply(fresh[k - 1], log.events[k - 1])
    with pytest.raises(KeyError):
        carried.apply(before, bad)
    assert carried.apply(before, event) == fresh[k + 1]


def test_what_an_event_tells_does_not_carry_the_rule_of_the_one_before():
    """A change told before its rule is named is told under no rule, as in a fresh narration: the working copy a
    narrating fold carries (``apply_in`` on one ``Tx``) forgets the last rule of the event before."""
    log = GAMES[0]
    fresh = states_of(log)
    k = next(k for k, e in enumerate(log.events) if isinstance(e, DiePlaced) and k > 0)
    tape: list[object] = []
    carried = Tx(fresh[k], True, tape)
    apply_in(carried, log.events[k])  # a placement names its rule (B.position) as it tells the die's move
    told = records(tape, 0, len(tape))
    assert told[-1][0] and any(record[0] == "B.position" for record in told)
    start = len(tape)
    carried.tell(0, "probe", "", 0, 0)
    assert records(tape, start, len(tape))[0][0] == ""
