"""The seeded bots (``coimbra_events/bots.py``, compiled with the rules core): ``choose`` draws what the standard
library's general machinery draws, so a seed gives the same simulated game as it always did; ``coupled_choice``, the
playouts' pick, is as likely as ``choose``'s and the same in every process (what it does for the playouts:
``tests/test_analysis.py``)."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coimbra_events import events as ev
from coimbra_events.bots import RARE, _mix, _text, choose, coupled_choice
from coimbra_events.analysis.policy import BOTS, play_to_end
from coimbra_events.catalog import standin_catalog
from coimbra_events.rules.core import apply, legal, start
from coimbra_events.rules.fast import Fold, options
from coimbra_events.rules.options import Options
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.simulator import DEFAULT_PLAYERS
from coimbra_events.state import GameState

ROOT = Path(__file__).resolve().parent.parent


def reference_choose(rng: random.Random, options: list[ev.GameEvent]) -> ev.GameEvent:
    """The bots' pick written with ``random.choices`` and ``random.choice``, as it was first written."""
    kinds: dict[type, list[ev.GameEvent]] = {}
    for o in options:
        kinds.setdefault(type(o), []).append(o)
    kind = rng.choices(list(kinds), [RARE.get(t, 1.0) for t in kinds])[0]
    if kind is ev.AlternativeTaken:
        return max(kinds[kind], key=lambda e: e.coins + e.guards)
    return rng.choice(kinds[kind])


def decision_states_of(seed: int, players: int) -> list[GameState]:
    """The state at every decision of a simulated game."""
    state, rng, seen = start(standin_catalog(), DEFAULT_PLAYERS[:players]), random.Random(seed), []
    while not state.over:
        options = legal(state)
        if isinstance(options, OutcomeSpace):
            event = options.sample(rng)
        else:
            seen.append(state)
            event = choose(rng, options)
        state = apply(state, event)
    return seen


def decisions_of(seed: int, players: int) -> list[list[ev.GameEvent]]:
    """The option lists of every decision of a simulated game."""
    return [list(legal(state)) for state in decision_states_of(seed, players)]


@pytest.mark.property
@given(st.integers(0, 2**32), st.integers(2, 4), st.integers(0, 2**32))
def test_a_playout_s_pick_from_options_built_on_demand_is_the_pick_from_all_of_them_built(game_seed, players, key):
    """A playout's bots pick from ``fast.options``, which builds a long run of one kind (a die's placements, the
    alternative action's splits) only when asked; the pick must be the one made from the same options all built,
    as ``legal`` lists them (a run counted or ordered otherwise would pick another option)."""
    for state in decision_states_of(game_seed, players)[::3]:
        found = options(state)
        assert isinstance(found, Options)
        assert found.events() == legal(state)
        kinds = [type(o) for o in found.built]
        starts = [t for k, t in enumerate(kinds) if k == 0 or kinds[k - 1] is not t]
        assert len(starts) == len(set(starts)), "each kind's options come together (the bots count them so)"
        for k in range(8):
            assert coupled_choice(found, key + k) == coupled_choice(Options(list(legal(state))), key + k)


def reference_play_to_end(state: GameState, table: random.Random, stream: int) -> GameState:
    """What ``play_to_end`` with the bots in every seat is documented to do (docs/analysis.md, "Common random
    numbers"), written plainly: each pick keyed by where the decision falls (round, phase, who, what kind of input)
    and how many alike came before."""
    alike: dict[tuple[int, str, str, str], int] = {}
    while not state.over:
        found = options(state)
        if isinstance(found, OutcomeSpace):
            event = found.sample(table)
        else:
            where = (state.round, state.phase, state.pending.actor, state.pending.kind)
            alike[where] = alike.get(where, 0) + 1
            key = _mix(stream ^ _mix(state.round ^ _mix(_text(state.phase) ^ _mix(
                _text(state.pending.actor) ^ _text(state.pending.kind)))))
            event = coupled_choice(found, _mix(key + alike[where]))
        state = apply(state, event)
    return state


@pytest.mark.property
@given(st.integers(0, 2**32), st.integers(2, 4), st.integers(0, 2**32))
def test_a_playout_plays_the_reference_game_on_one_refilled_table_and_leaves_its_start_as_it_was(
        game_seed, players, key):
    """``play_to_end`` counts the decisions alike phase by phase (a round's phases never come back) and refills one
    table in place (``Fold(scratch=True)``, carried from one playout to the next); from every tenth decision of a
    game, its games are those of the plain reference above, which makes a new table per event, and the state each
    started from is as it was (a deep look: its text)."""
    scratch = Fold(scratch=True)
    for k, state in enumerate(decision_states_of(game_seed, players)[::10]):
        before = repr(state)
        assert play_to_end(state, random.Random(k), key + k, [BOTS] * players, scratch) == reference_play_to_end(
            state, random.Random(k), key + k)
        assert repr(state) == before


@pytest.mark.property
@given(st.integers(0, 2**32), st.integers(2, 4), st.integers(0, 2**32))
def test_a_pick_draws_what_choices_and_choice_draw(game_seed, players, pick_seed):
    for listed in decisions_of(game_seed, players)[::7]:
        ours, theirs = random.Random(pick_seed), random.Random(pick_seed)
        assert choose(ours, listed) == reference_choose(theirs, listed)
        assert ours.getstate() == theirs.getstate()  # nothing more drawn, nothing less


def decision_with_rare_kinds() -> list[ev.GameEvent]:
    """A decision of a simulated game that offers several kinds, some of them rare, and several of one kind."""
    for seed in range(50):
        for listed in decisions_of(seed, 2):
            kinds = {type(o) for o in listed}
            if len(kinds) >= 2 and kinds & {ev.IncomeEnded, ev.PilgrimStopped} and len(listed) >= len(kinds) + 2:
                return listed
    raise AssertionError("no such decision in 50 simulated games")


def expected_chances(options: list[ev.GameEvent]) -> dict[ev.GameEvent, float]:
    """``choose``'s chance of each option: a kind by its weight, then one of that kind uniformly."""
    kinds: dict[type, list[ev.GameEvent]] = {}
    for o in options:
        kinds.setdefault(type(o), []).append(o)
    total = sum(RARE.get(t, 1.0) for t in kinds)
    return {o: RARE.get(type(o), 1.0) / total / len(kinds[type(o)]) for o in options}


def test_a_coupled_pick_is_as_likely_as_a_drawn_one():
    """Over 40,000 streams each option is picked as often as ``choose`` would pick it, within 4.5 standard errors."""
    options = decision_with_rare_kinds()
    n = 40_000
    picked = Counter(coupled_choice(Options(options), stream) for stream in range(n))
    for option, chance in expected_chances(options).items():
        assert abs(picked[option] / n - chance) <= 4.5 * math.sqrt(chance * (1 - chance) / n), option


def test_a_coupled_pick_is_the_same_in_every_process():
    """Python's hash of a text changes from one process to the next; the bots' picks must not (an analysis is
    the same for the same seed)."""
    probe = ("from coimbra_events.bots import coupled_choice; from coimbra_events.rules.options import Options; "
             "from tests.test_bots import decisions_of; "
             "print([repr(coupled_choice(Options(o), s)) for s, o in enumerate(decisions_of(3, 3))])")
    runs = {subprocess.run([sys.executable, "-c", probe], env={**os.environ, "PYTHONHASHSEED": hash_seed},
                           capture_output=True, text=True, check=True, cwd=ROOT).stdout for hash_seed in ("1", "2")}
    assert len(runs) == 1
