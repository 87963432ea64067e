"""Turns and the game as a whole (002 A round; 003 End of the round; GAPS 17): TURN.*, GAME.over,
rounds, purity of ``apply``, ``legal`` against ``check``, and a meta-test that every rule id is tested."""

from __future__ import annotations

import ast
import contextlib
import pickle
import re
from functools import lru_cache
from pathlib import Path

import pytest

from coimbra_events import events as ev
from coimbra_events.rules.core import apply, check, due, fold, legal, start
from coimbra_events.rules.fast import Fold
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.state import TABLE
from coimbra_events.violations import RULES, RuleViolation

from .helpers import (
    CAT,
    accepted,
    dice_event,
    in_phase_b,
    next_rows_event,
    passive,
    players,
    refused,
    snapshot,
    started,
)


@lru_cache(maxsize=None)
def passive_game(n: int):
    """A whole game played passively: the list of (state before, event)."""
    state = started(n)
    history = []
    while not state.over:
        event = passive(state)
        history.append((state, event))
        state = apply(state, event)
    return tuple(history), state


# --- TURN.actor / TURN.kind -----------------------------------------------------------------------


def test_TURN_actor_legal_only_the_player_due():
    state = in_phase_b(3)
    assert due(state).actor == "Ana"
    accepted(state, ev.DiePlaced("Ana", "gray-1", "castle"))


@pytest.mark.parametrize("actor", ["Bruno", "Carla", "Eva", TABLE])
def test_TURN_actor_anyone_else_is_refused(actor):
    refused(in_phase_b(3), ev.DiePlaced(actor, "gray-1", "castle"), "TURN.actor", due="Ana", actor=actor, kind="draft")


def test_TURN_actor_a_player_cannot_provide_the_tables_outcome():
    state = started(2)
    refused(state, ev.DiceRolled("Ana", dice_event(state).values), "TURN.actor", due=TABLE, actor="Ana")


@pytest.mark.parametrize("event", [ev.VoyagePassed("Ana"), ev.IncomeEnded("Ana"), ev.CardBought("Ana", "c-II-01"),
                                   ev.StartGroupTaken("Ana", 1), ev.PilgrimStopped("Ana"), ev.TrackChosen("Ana", "gray")])
def test_TURN_kind_the_wrong_kind_of_input(event):
    refused(in_phase_b(3), event, "TURN.kind", kind="draft", event=event.TYPE, accepted="DiePlaced")


def test_TURN_kind_table_outcome_of_the_wrong_kind():
    """Round 2, phase A: the table deals new rows before it rolls."""
    history, _ = passive_game(2)
    state = next(s for s, _ in history if s.round == 2 and s.phase == "A")
    assert due(state).kind == "rows"
    refused(state, dice_event(state), "TURN.kind", kind="rows", event="DiceRolled")
    state = accepted(state, next_rows_event(state))
    assert due(state).kind == "dice"
    refused(state, next_rows_event(state), "TURN.kind", kind="dice")


# --- rounds and GAME.over ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_GAME_over_after_phase_F_of_round_4(n):
    history, final = passive_game(n)
    assert final.over and final.phase == "over" and final.round == 4
    assert due(final) is None and legal(final) == []
    last_state, last_event = history[-1]
    assert (last_state.round, last_state.phase) == (4, "F") and isinstance(last_event, ev.VoyagePassed)
    assert len(final.dealt - set(CAT.pile("I"))) == 48  # the character deck is empty


@pytest.mark.parametrize("event", [ev.VoyagePassed("Ana"), ev.DiceRolled(TABLE, (("gray-1", 3),)),
                                   ev.IncomeEnded("Bruno")])
def test_GAME_over_refuses_every_event(event):
    _, final = passive_game(2)
    refused(final, event, "GAME.over", round=4)


def test_GAME_over_legal_the_last_event_before_the_end():
    history, _ = passive_game(2)
    last_state, last_event = history[-1]
    assert not last_state.over
    assert accepted(last_state, last_event).over


def test_rounds_run_A_to_F_and_deal_pile_III_from_round_3():
    history, _ = passive_game(2)
    phases = []
    for state, event in history:
        if not phases or phases[-1] != (state.round, state.phase):
            phases.append((state.round, state.phase))
        if isinstance(event, ev.CharacterRowsDealt):
            cards = [c for _, row in event.rows for c in row]
            assert {CAT.characters[c].pile for c in cards} == ({"II"} if state.round <= 2 else {"III"})
    assert phases == [(r, p) for r in range(1, 5) for p in "ABCEF"]  # phase D needs no input


def test_simulated_games_end_in_round_4():
    from coimbra_events.simulator import simulate

    for n in (2, 3, 4):
        _, final = simulate(CAT, players(n), seed=n)
        assert final.over and final.round == 4


# --- purity --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 4])
def test_apply_never_mutates_its_input_and_is_deterministic(n):
    history, _ = passive_game(n)
    for state, event in history:
        before = snapshot(state)
        first = apply(state, event)
        assert snapshot(state) == before
        second = apply(state, event)
        assert first == second and snapshot(first) == snapshot(second)
        assert snapshot(state) == before


def test_apply_purity_for_every_kind_of_decision():
    """Apply each legal decision at a few states; the input is untouched every time."""
    history, _ = passive_game(3)
    kinds_seen = set()
    for state, _ in history[::5]:
        options = legal(state)
        if isinstance(options, OutcomeSpace):
            continue
        before = snapshot(state)
        for event in options[:12]:
            kinds_seen.add(type(event))
            apply(state, event)
            assert snapshot(state) == before
    assert {ev.DiePlaced, ev.AlternativeTaken, ev.VoyagePassed} <= kinds_seen


def test_fold_equals_step_by_step():
    history, final = passive_game(2)
    start = history[0][0]
    assert fold(start, [e for _, e in history]) == final


def test_an_entry_about_the_record_is_no_move_even_unchecked():
    """Only moves of the game change the table; a note (history, ``coimbra_events.history``) is not applied: ``apply``
    refuses it as no answer to the input due, and a fold that does not check refuses it by name."""
    with pytest.raises(RuleViolation, match="TURN.kind"):
        apply(started(2), ev.Noted(TABLE, 1, "a note"))
    with pytest.raises(TypeError, match="Noted is not a move of the game"):
        Fold().apply(started(2), ev.Noted("Ana", 1, "a note"))


def test_fold_stops_at_the_first_illegal_event():
    state = in_phase_b(2)
    with pytest.raises(RuleViolation) as raised:
        fold(state, [ev.DiePlaced("Ana", "gray-1", "castle"), ev.DiePlaced("Ana", "gray-2", "castle")])
    assert raised.value.rule == "TURN.actor"


def test_legal_decisions_all_pass_check():
    history, _ = passive_game(4)
    for state, _ in history[::3]:
        options = legal(state)
        if isinstance(options, OutcomeSpace):
            continue
        assert options
        for event in options:
            assert check(state, event) is None, (event, check(state, event))


def test_initial_state_is_the_same_for_the_same_players():
    assert start(CAT, players(3)) == start(CAT, players(3))


# --- RuleViolation as an exception ----------------------------------------------------------------


def test_rule_violation_carries_a_known_rule_and_to_json():
    v = check(in_phase_b(2), ev.DiePlaced("Ana", "gray-1", "harbour"))
    data = v.to_json()
    assert data["rule"] == "B.location" and data["rule_text"] == RULES["B.location"].statement_for(None)
    assert data["facts"]["location"] == "harbour"
    with pytest.raises(ValueError):
        RuleViolation("NO.such-rule", "x")


def test_rule_violation_raised_through_a_context_manager():
    @contextlib.contextmanager
    def around():
        yield

    with pytest.raises(RuleViolation):
        with around():
            apply(in_phase_b(2), ev.DiePlaced("Bruno", "gray-1", "castle"))


def test_rule_violation_pickles():
    v = check(in_phase_b(2), ev.DiePlaced("Bruno", "gray-1", "castle"))
    assert pickle.loads(pickle.dumps(v)) == v


# --- every rule id is tested ------------------------------------------------------------------------


def _test_functions(helper: str = "refused"):
    """Every test function of this package: name -> (rules it passes to ``helper`` as its third argument
    (``refused``: the rules it expects refused), whether it checks a legal event)."""
    out = {}
    for path in Path(__file__).parent.glob("test_*.py"):
        for node in ast.parse(path.read_text()).body:
            if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test_")):
                continue
            refusals, legal_checked = set(), False
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
                    if call.func.id == helper and len(call.args) >= 3 and isinstance(call.args[2], ast.Constant):
                        refusals.add(call.args[2].value)
                    legal_checked |= call.func.id == "accepted"
            out[node.name] = (refusals, legal_checked)
    return out


def _named_after(rule: str, functions: dict) -> dict:
    key = re.compile(rf"_{re.escape(re.sub(r'[.-]', '_', rule))}(_|$)")
    return {name: info for name, info in functions.items() if key.search(name)}


@pytest.mark.parametrize("rule", sorted(r for r in RULES if not r.startswith("HISTORY.") and RULES[r].consequence))
def test_every_consequence_has_a_test_named_after_it_that_hears_it_narrated(rule):
    """A consequence (a rule the core carries out by itself) is never refused: its tests hear it told."""
    named = _named_after(rule, _test_functions("narrated"))
    assert any(rule in told for told, _ in named.values()), f"no test named after {rule} has it narrated"


@pytest.mark.parametrize("rule", sorted(r for r in RULES if not r.startswith("HISTORY.") and not RULES[r].consequence))
def test_every_rule_id_has_a_legal_and_an_illegal_test_named_after_it(rule):
    """Every rule of the game (the HISTORY.* rules of the record itself are covered in tests/test_history.py)."""
    functions = _test_functions()
    key = re.compile(rf"_{re.escape(re.sub(r'[.-]', '_', rule))}(_|$)")
    named = {name: info for name, info in functions.items() if key.search(name)}
    assert any(rule in refusals for refusals, _ in functions.values()), f"no test expects {rule} refused"
    assert any(rule in refusals for refusals, _ in named.values()), f"no test named after {rule} refuses it"
    assert any(legal_checked for _, legal_checked in named.values()), f"no test named after {rule} accepts an event"
