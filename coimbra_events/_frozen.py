"""Read-only records in the pure-Python build, at no cost per field.

Compiled with mypyc, the ``Final`` attributes of the state and event classes are
read-only slots. Interpreted, they are ordinary attributes; a Python
``__setattr__`` that refused a second assignment would be called for every field
of every record the rules build (about a hundred per event), which halved the
speed of a validated replay. Instead, each record class gets an ``__init__`` that
fills the instance's ``__dict__`` directly, as its own ``__init__`` would, and a
``__setattr__`` that always refuses. (That costs the pure-Python replay about 14 %:
an instance whose ``__dict__`` is used is read a little slower than one whose
attributes CPython keeps inline.)

Only an ``__init__`` that does nothing but store its parameters under their own
names (after an optional ``super().__init__(...)``) is replaced; any other is an
error here, so a class that starts doing more in ``__init__`` cannot silently
lose it.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any, Callable


def _refuse(record: object, name: str, value: Any) -> None:
    raise AttributeError(f"{type(record).__name__}.{name} cannot be changed: records are immutable")


def freeze_records(base: type) -> None:
    """Make ``base`` and every class later derived from it read-only (``__init__`` stores, nothing else)."""
    setattr(base, "__setattr__", _refuse)
    setattr(base, "__delattr__", _refuse)

    def init_subclass(cls: type, **kwargs: Any) -> None:
        if "__init__" in cls.__dict__:
            setattr(cls, "__init__", _storing_init(cls.__dict__["__init__"]))

    setattr(base, "__init_subclass__", classmethod(init_subclass))


def _storing_init(init: Callable[..., None]) -> Callable[..., None]:
    """An ``__init__`` with the signature of ``init`` that stores each parameter in ``self.__dict__``."""
    signature = inspect.signature(init)
    params = list(signature.parameters)[1:]
    _check_only_stores(init, params)
    defaults = {name: p.default for name, p in signature.parameters.items() if p.default is not p.empty}
    header = ", ".join(["self", *(f"{n}=_defaults[{n!r}]" if n in defaults else n for n in params)])
    body = "\n".join(f"    d[{n!r}] = {n}" for n in params) or "    pass"
    namespace: dict[str, Any] = {"_defaults": defaults}
    exec(f"def __init__({header}):\n    d = self.__dict__\n{body}\n", namespace)  # noqa: S102 (code built above from names)
    replacement: Callable[..., None] = namespace["__init__"]
    replacement.__qualname__, replacement.__doc__ = init.__qualname__, init.__doc__
    return replacement


def _check_only_stores(init: Callable[..., None], params: list[str]) -> None:
    """``TypeError`` unless ``init`` only calls ``super().__init__`` and stores each parameter as itself."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(init)))
    func = tree.body[0]
    assert isinstance(func, ast.FunctionDef)
    stored = set()
    for stmt in func.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # the docstring
        if isinstance(stmt, ast.Expr) and "super().__init__" in ast.unparse(stmt):
            continue
        target = stmt.target if isinstance(stmt, ast.AnnAssign) else stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
        value = getattr(stmt, "value", None)
        if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
                and isinstance(value, ast.Name) and value.id == target.attr):
            stored.add(target.attr)
            continue
        raise TypeError(f"{init.__qualname__} does more than store its parameters ({ast.unparse(stmt)}); "
                        "coimbra_events._frozen cannot make it read-only")
    missing = set(params) - stored - {"actor"}  # an event stores its actor in GameEvent.__init__
    if missing:
        raise TypeError(f"{init.__qualname__} does not store {sorted(missing)}")
