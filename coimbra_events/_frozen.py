"""Read-only records in the pure-Python build, at no cost per field.

Compiled with mypyc, the ``Final`` attributes of the record classes are
read-only slots. Interpreted, they are ordinary attributes; a Python
``__setattr__`` that refused a second assignment would be called for every field
of every record the rules build (about a hundred per event), which halved the
speed of a validated replay. Instead, each record class whose ``__init__`` does
nothing but store its parameters under their own names (after an optional
``super().__init__(...)``) gets an ``__init__`` that fills the instance's
``__dict__`` directly, and every record a ``__setattr__`` that refuses. (That
costs the pure-Python replay about 14 %: an instance whose ``__dict__`` is used
is read a little slower than one whose attributes CPython keeps inline.)

An ``__init__`` that does more (the catalog works out its lookup tables) is kept
as written and may set each attribute once while it runs; after it returns, the
record refuses a change like any other.
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
from typing import Any, Callable


_BUILDING: set[int] = set()
"""The records whose own ``__init__`` is running (by ``id``): each may set an attribute once."""


def _set_once(record: object, name: str, value: Any) -> None:
    if id(record) in _BUILDING and name not in record.__dict__:
        record.__dict__[name] = value
        return
    raise AttributeError(f"{type(record).__name__}.{name} cannot be changed: records are immutable")


def _refuse_delete(record: object, name: str) -> None:
    raise AttributeError(f"{type(record).__name__}.{name} cannot be deleted: records are immutable")


def freeze_records(base: type) -> None:
    """Make ``base`` and every class later derived from it read-only once built."""
    setattr(base, "__setattr__", _set_once)
    setattr(base, "__delattr__", _refuse_delete)

    def init_subclass(cls: type, **kwargs: Any) -> None:
        init = cls.__dict__.get("__init__")
        if init is not None:
            setattr(cls, "__init__", _storing_init(init) if _only_stores(init) else _building_init(init))

    setattr(base, "__init_subclass__", classmethod(init_subclass))


def _building_init(init: Callable[..., None]) -> Callable[..., None]:
    """``init`` itself, run with its record open to setting each attribute once."""

    @functools.wraps(init)
    def __init__(self: object, *args: Any, **kwargs: Any) -> None:
        _BUILDING.add(id(self))
        try:
            init(self, *args, **kwargs)
        finally:
            _BUILDING.discard(id(self))

    return __init__


def _storing_init(init: Callable[..., None]) -> Callable[..., None]:
    """An ``__init__`` with the signature of ``init`` that stores each parameter in ``self.__dict__``."""
    signature = inspect.signature(init)
    params = list(signature.parameters)[1:]
    defaults = {name: p.default for name, p in signature.parameters.items() if p.default is not p.empty}
    header = ", ".join(["self", *(f"{n}=_defaults[{n!r}]" if n in defaults else n for n in params)])
    body = "\n".join(f"    d[{n!r}] = {n}" for n in params) or "    pass"
    namespace: dict[str, Any] = {"_defaults": defaults}
    exec(f"def __init__({header}):\n    d = self.__dict__\n{body}\n", namespace)  # noqa: S102 (code built above from names)
    replacement: Callable[..., None] = namespace["__init__"]
    replacement.__qualname__, replacement.__doc__ = init.__qualname__, init.__doc__
    return replacement


def _only_stores(init: Callable[..., None]) -> bool:
    """Whether ``init`` only calls ``super().__init__`` and stores each of its parameters as itself."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(init)))
    func = tree.body[0]
    assert isinstance(func, ast.FunctionDef)
    stored = set()
    for stmt in func.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # the docstring
        if isinstance(stmt, ast.Expr) and "super().__init__" in ast.unparse(stmt):
            continue
        target = (stmt.target if isinstance(stmt, ast.AnnAssign)
                  else stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None)
        value = getattr(stmt, "value", None)
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
                and isinstance(value, ast.Name) and value.id == target.attr):
            return False
        stored.add(target.attr)
    params = list(inspect.signature(init).parameters)[1:]
    return set(params) - stored <= {"actor"}  # an event stores its actor in GameEvent.__init__
