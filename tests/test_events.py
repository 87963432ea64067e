"""The event classes: registered, typed as their ``KINDS`` say, values that compare and never change."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import coimbra_events
from coimbra_events import events as ev
from coimbra_events.event_decoding import PayloadError, decode_event
from coimbra_events.events import EVENT_TYPES, GameEvent, RandomOutcome
from coimbra_events.record import replace
from coimbra_events.state import TABLE, Pending, Slot

SOURCE = Path(coimbra_events.__file__).resolve().parent / "events.py"
"""Read as text: compiled, the classes carry no annotations to inspect."""

KIND_OF_ANNOTATION = {
    "str": "str",
    "int": "int",
    "tuple[str, ...]": "strs",
    "tuple[tuple[str, ...], ...]": "groups",
    "tuple[tuple[str, str], ...]": "str_map",
    "tuple[tuple[str, int], ...]": "int_map",
    "tuple[tuple[str, tuple[str, ...]], ...]": "strs_map",
}


def _subclasses(cls: type) -> set[type]:
    return {sub for direct in cls.__subclasses__() for sub in {direct} | _subclasses(direct)}


def _class_defs() -> dict[str, ast.ClassDef]:
    return {node.name: node for node in ast.parse(SOURCE.read_text(encoding="utf-8")).body if isinstance(node, ast.ClassDef)}


def test_every_event_class_is_registered_under_its_own_name():
    concrete = {cls for cls in _subclasses(GameEvent) if cls is not RandomOutcome and cls.__module__ == ev.__name__}
    assert set(EVENT_TYPES.values()) == concrete
    assert all(name == cls.TYPE == cls.__name__ for name, cls in EVENT_TYPES.items())


def test_init_parameters_are_the_actor_then_the_kinds_in_order():
    classes = _class_defs()
    for name, cls in EVENT_TYPES.items():
        init = next((n for n in classes[name].body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        if not cls.KINDS:
            assert init is None, f"{name} has no payload, so it keeps GameEvent's __init__"
            continue
        assert init is not None, name
        params = [(a.arg, ast.unparse(a.annotation) if a.annotation else None) for a in init.args.args[1:]]
        assert params[0] == ("actor", "str"), name
        assert [(p, KIND_OF_ANNOTATION.get(t)) for p, t in params[1:]] == list(cls.KINDS.items()), name
        assert not any(hasattr(GameEvent, field) for field in cls.KINDS), f"a field of {name} hides a method"


def test_random_outcomes_are_exactly_the_table_events():
    random = {name for name, cls in EVENT_TYPES.items() if cls.RANDOM}
    assert random == {name for name, cls in EVENT_TYPES.items() if issubclass(cls, RandomOutcome)}
    assert "DiceRolled" in random and "DiePlaced" not in random
    with pytest.raises(PayloadError, match="random outcome; its actor must be 'table'"):
        decode_event("DiceRolled", "Ana", {"values": {"red-1": 3}})


def test_events_are_values():
    placed = ev.DiePlaced("Ana", "red-1", "castle")
    same = ev.DiePlaced(actor="Ana", die="red-1", location="castle")
    assert placed == same and hash(placed) == hash(same) and not placed != same
    assert placed != ev.DiePlaced("Ana", "red-2", "castle")
    assert placed != ev.IncomeActivated("Ana", "red-1", "castle")  # same fields, another decision
    assert ev.IncomeEnded("Ana") != ev.VoyagePassed("Ana")
    assert repr(placed) == "DiePlaced(actor='Ana', die='red-1', location='castle')"
    assert replace(placed, actor="Bo") == ev.DiePlaced("Bo", "red-1", "castle") and placed.actor == "Ana"
    assert replace(ev.IncomeEnded("Ana"), actor="Bo") == ev.IncomeEnded("Bo")
    with pytest.raises(TypeError, match="no field"):
        replace(placed, colour="red")
    assert Pending("Ana", "draft") != Slot("red-1", 3, 0)  # records of two classes are never equal


def test_payload_and_decoding_are_inverse_for_every_field_kind():
    examples = [
        ev.DiceRolled(TABLE, (("red-1", 3), ("white-1", 6))),
        ev.StartGroupsDealt(TABLE, (("s1", "s2"), ("s3", "s4"))),
        ev.CharacterRowsDealt(TABLE, (("central", ("c1", "c2")), ("lower", ("c3",)), ("upper", ()))),
        ev.VoyagesDrawn(TABLE, ("v1", "v2")),
        ev.AlternativeTaken("Ana", 2, 0),
        ev.PilgrimStopped("Ana"),
    ]
    for event in examples:
        assert decode_event(event.TYPE, event.actor, event.payload()) == event


# For each field kind: a payload value of that kind, and one of another shape.
GOOD_AND_BAD = {
    "str": ("x-1", 3),
    "int": (2, "2"),
    "strs": (["a", "b"], "a"),
    "groups": ([["a"], ["b", "c"]], ["a"]),
    "str_map": ({"k": "v"}, {"k": 1}),
    "int_map": ({"k": 1}, {"k": "1"}),
    "strs_map": ({"k": ["a"]}, {"k": "a"}),
}


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_each_type_reads_every_field_by_its_kind(name):
    """Each type has its own reader (for speed); it must read exactly what ``KINDS`` says."""
    cls = EVENT_TYPES[name]
    actor = TABLE if cls.RANDOM else "Ana"
    payload = {field: GOOD_AND_BAD[kind][0] for field, kind in cls.KINDS.items()}
    event = decode_event(name, actor, payload)
    assert type(event) is cls and event.actor == actor and event.payload() == payload
    for field, kind in cls.KINDS.items():
        with pytest.raises(PayloadError, match=f"field '{field}"):
            decode_event(name, actor, {**payload, field: GOOD_AND_BAD[kind][1]})
        with pytest.raises(PayloadError, match=f"missing \\['{field}'\\]"):
            decode_event(name, actor, {f: v for f, v in payload.items() if f != field})


def test_events_and_states_cannot_be_changed():
    """Read-only in the build that runs (compiled: ``Final`` slots; interpreted: ``Record.__setattr__``)."""
    placed = ev.DiePlaced("Ana", "red-1", "castle")
    pending = Pending("Ana", "draft")
    for record, name in ((placed, "actor"), (placed, "die"), (pending, "kind"), (Slot("red-1", 3, 0), "value")):
        with pytest.raises(AttributeError):
            setattr(record, name, "x")
    assert placed.die == "red-1" and pending.kind == "draft"


PURE_CHANGE = """
from coimbra_events import core_build, events
from coimbra_events.catalog import standin_catalog
from coimbra_events.rules.core import start
assert core_build().startswith("python"), core_build()
state = start(standin_catalog(), [("Ana", "red"), ("Bo", "blue")])
for record, name in ((events.DiePlaced("Ana", "red-1", "castle"), "die"), (state, "round"), (state.players[0], "coins")):
    try:
        setattr(record, name, 99)
    except AttributeError:
        continue
    raise SystemExit(f"{type(record).__name__}.{name} could be changed")
"""


def test_the_pure_python_build_is_immutable_too():
    """The other build than the one installed: records refuse a change there as well."""
    done = subprocess.run([sys.executable, "-c", PURE_CHANGE], env={**os.environ, "COIMBRA_PURE": "1"},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
