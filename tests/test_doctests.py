"""The ``>>>`` examples in the rules core's and the aggregate's docstrings run, and show what the code does.

The examples are read from each module's source (``ast``), and run in the module as imported: the compiled
core (mypyc) keeps its module's docstring but not its functions', and the same examples must hold compiled
and in pure Python.
"""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

DOCUMENTED = ("coimbra_events.rules.core", "coimbra_events.game")
"""The modules whose docstrings show the game played: the rules core's verbs, the aggregate's record."""

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
ROOT = Path(__file__).resolve().parents[1]


def examples(name: str) -> list[doctest.DocTest]:
    """Every docstring of the module's source that holds examples (the module's, its classes', its functions'),
    each to run in the module's namespace."""
    module = importlib.import_module(name)
    path = ROOT / (name.replace(".", "/") + ".py")
    parser = doctest.DocTestParser()
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and (text := ast.get_docstring(node)):
            where = name if isinstance(node, ast.Module) else f"{name}.{node.name}"
            found.append(parser.get_doctest(text, dict(vars(module)), where, str(path), getattr(node, "lineno", 0)))
    return [test for test in found if test.examples]


@pytest.mark.parametrize("name", DOCUMENTED)
def test_the_examples_in_the_docstrings_hold(name):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in examples(name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0, f"{result.failed} of {result.attempted} examples failed (above)"
