"""Value semantics for the core's immutable classes: equality, hashing, a readable repr.

The state, the events, the catalog's components, a read log and a validation are
plain classes on ``Record`` with ``Final`` attributes rather than frozen
dataclasses. Compiled with mypyc (README, "Compiled rules core"), a plain class
is built in a few dozen nanoseconds and its ``Final`` attributes are read-only
slots, while a compiled frozen dataclass costs ten times as much to build; and
declaring a dataclass costs about 0.3 ms at import (Python 3.11 writes and
compiles each of its methods), which every command would pay for each class. In
plain Python (``COIMBRA_PURE=1``, or no compiler) ``coimbra_events._frozen``
makes them read-only too, so a record is immutable in both builds.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from coimbra_events import core_build


class Record:
    """Equality, hashing and a repr from the attributes a subclass names.

    ``FIELDS`` names every attribute in constructor order; ``COMPARED`` the
    ones equality, hashing and the repr look at (a state's catalog and name index
    are the game's setting, not its position). A subclass may instead override
    ``key`` and ``as_dict`` (the events derive theirs from ``KINDS``).
    """

    FIELDS: ClassVar[tuple[str, ...]] = ()
    COMPARED: ClassVar[tuple[str, ...]] = ()

    def key(self) -> tuple[Any, ...]:
        """The compared attributes, in order."""
        return tuple(getattr(self, name) for name in self.COMPARED)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self.key() == other.key()

    def __ne__(self, other: object) -> bool:
        # Not via ``self.__eq__``: compiled, that call must return a bool, never NotImplemented.
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self.key() != other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.COMPARED)
        return f"{type(self).__name__}({shown})"

    def as_dict(self) -> dict[str, Any]:
        """Every attribute by name (the fields a replacement may change)."""
        return {name: getattr(self, name) for name in self.FIELDS}


if core_build() != "compiled":
    # Compiled, the ``Final`` attributes are read-only slots already; interpreted, they would
    # not be. Set on the class here rather than written in it, so the compiled classes pay nothing.
    from coimbra_events._frozen import freeze_records

    freeze_records(Record)


R = TypeVar("R", bound=Record)


def replace(record: R, **changes: Any) -> R:
    """A copy of a record with some attributes changed (tests and tools set up positions and logs with it)."""
    fields = record.as_dict()
    unknown = set(changes) - set(fields)
    if unknown:
        raise TypeError(f"{type(record).__name__} has no field(s) {sorted(unknown)}")
    return type(record)(**{**fields, **changes})
