"""Folding a stored aggregate's events, its own classes only.

The library's default fold is slow for long streams (pitfall 7), and it would
apply whatever event a changed row holds: ``Folding`` applies an aggregate's own
event classes and refuses any other (``ForeignEvent``) before its ``apply`` runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, TypeVar

from eventsourcing.domain import Aggregate, CanInitAggregate
from eventsourcing.utils import get_topic

A = TypeVar("A", bound=Aggregate)


class ForeignEvent(TypeError):
    """A stored row of another class among an aggregate's events."""


def project(aggregate: A | None, events: Iterable[Any]) -> A | None:
    """A plain fold for ``repository.get(projector_func=...)`` (the default one is slow, pitfall 7)."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


@dataclass(frozen=True)
class Folding:
    """``project`` for the stored events of one aggregate class: its own event classes only.

    A stored row of any other class, or a created event naming another aggregate
    class (the library would import whatever module it names), can only come from
    a change to the store behind coimbra's back: ``ForeignEvent``, before its
    ``apply`` runs.
    """

    aggregate: type[Aggregate]
    events: tuple[type, ...]
    moved_from: tuple[str, ...] = ()
    """Topics the aggregate class was stored under before it moved (registered with the library's ``register_topic``)."""

    def __call__(self, aggregate: A | None, events: Iterable[Any]) -> A | None:
        topics = (get_topic(self.aggregate), *self.moved_from)
        for event in events:
            foreign_class = isinstance(event, CanInitAggregate) and vars(event).get("originator_topic") not in topics
            if type(event) not in self.events or foreign_class:
                raise ForeignEvent(f"a stored {type(event).__qualname__} among the events of a {self.aggregate.__qualname__}")
            aggregate = event.mutate(aggregate)
        return aggregate
