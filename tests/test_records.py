"""The core's records beyond state and events: the catalog and its components, a read log, a validation.

They are plain classes on ``coimbra_events.record.Record`` (no dataclass: declaring one costs
every command about 0.3 ms at start-up). Each compares by value, and none can be changed,
in the installed build and in the pure-Python one.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import os
import subprocess
import sys

import pytest

from coimbra_events import log as game_log, log_reader
from coimbra_events.catalog import parse_catalog, standin_catalog
from coimbra_events.record import replace
from coimbra_events.rules.scoring import final_scores
from coimbra_events.validation import validate
from tests.conftest import FIXTURES
from tests.test_build import PACKAGE, core_modules

GAME = FIXTURES / "games" / "standin-3p-seed2.json"

CHANGES = """
import sys
from coimbra_events import core_build, log_reader
from coimbra_events.catalog import standin_catalog
from coimbra_events.rules.scoring import final_scores
from coimbra_events.validation import validate

def records():
    catalog = standin_catalog()
    card = next(iter(catalog.characters.values()))
    result = validate(log_reader.read(sys.argv[1]))
    return [(catalog, "max_coins"), (catalog, "_income_table"), (card, "name"), (card.effects[0], "kind"),
            (catalog.map, "spaces"), (catalog.income[0], "low"), (result, "legal_events"), (result.log, "events"),
            (final_scores(result.state)[0], "total")]

def changed():
    for record, name in records():
        for change in (lambda: setattr(record, name, 99), lambda: delattr(record, name), lambda: setattr(record, "added", 1)):
            try:
                change()
            except AttributeError:
                continue
            return f"{type(record).__name__}.{name}"
    return ""

print(core_build(), changed(), sep="|")
"""


def changes_in(pure: bool) -> tuple[str, str]:
    """(the build, the first record that could be changed, lose an attribute or gain one, or "") in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k != "COIMBRA_PURE"} | ({"COIMBRA_PURE": "1"} if pure else {})
    done = subprocess.run([sys.executable, "-c", CHANGES, str(GAME)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    build, _, changed = done.stdout.strip().partition("|")
    return build, changed


@pytest.mark.parametrize("pure", [False, True], ids=["installed build", "pure Python"])
def test_no_record_can_be_changed_once_built(pure):
    build, changed = changes_in(pure)
    assert build.startswith("python") if pure else True
    assert changed == "", f"{changed} could be changed ({build})"


def test_records_compare_by_value():
    first, again = log_reader.read(GAME), log_reader.read(GAME)
    assert first == again and first is not again
    assert replace(first, checked=None) == first, "the chain the reader worked out is not part of the log"
    assert replace(first, ruleset="other") != first
    assert validate(first) == validate(again)
    assert final_scores(validate(first).state) == final_scores(validate(again).state)


def test_two_catalogs_are_equal_when_their_sha256_is():
    shipped = standin_catalog()
    parsed = parse_catalog(shipped.data)
    assert parsed == shipped and hash(parsed) == hash(shipped) and parsed is not shipped
    assert repr(shipped) == f"Catalog(id={shipped.id!r}, sha256={shipped.sha256[:12]!r}...)"
    assert parse_catalog({**shipped.data, "title": "another title"}) != shipped


def test_a_record_names_its_fields_in_its_repr():
    problem = game_log.LogProblem(3, "bad payload", "field 'die' must be a non-empty string")
    assert repr(problem) == "LogProblem(seq=3, what='bad payload', why=\"field 'die' must be a non-empty string\")"
    assert str(problem) == "event 3: bad payload: field 'die' must be a non-empty string"


@pytest.mark.parametrize("module", core_modules(PACKAGE))
def test_the_compiled_core_declares_no_dataclass(module):
    """Compiled, a dataclass is built ten times slower than a native class, and declaring it costs start-up."""
    declared = [name for name, value in inspect.getmembers(importlib.import_module(module), inspect.isclass)
                if value.__module__ == module and dataclasses.is_dataclass(value)]
    assert declared == []


def record_classes() -> list[tuple[str, ast.ClassDef]]:
    """Every class of the core's sources that names its ``FIELDS`` and spells out its ``__init__``."""
    found = []
    for module in core_modules(PACKAGE):
        source = PACKAGE.parent / (module.replace(".", "/") + ".py")
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.ClassDef) and any(isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) == "FIELDS"
                                                      for s in node.body):
                found.append((f"{module}.{node.name}", node))
    return found


@pytest.mark.parametrize("name, node", record_classes(), ids=[name for name, _ in record_classes()])
def test_a_record_names_every_parameter_of_its_init_in_fields(name, node):
    """Equality, hashing, the repr and ``replace`` read ``FIELDS``: a parameter left out would be silently ignored.

    Read as text: compiled, the classes carry no signature to inspect."""
    fields = next(ast.literal_eval(s.value) for s in node.body if isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) == "FIELDS")
    init = next(s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__")
    assert tuple(a.arg for a in init.args.args[1:]) == fields
