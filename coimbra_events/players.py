"""Who played: one person behind the many spellings of a name across the club's games.

A game's header names its players as typed at the table ("Ana", "ana",
"Conceição", "Conceicao", "Ana M."). ``person_key`` makes the spellings that
differ only in case, accents or spaces one key; the ``Aliases`` aggregate holds
what a key cannot tell ("Ana M." is Ana). Aliases are events in the store like
every record, so who was who is part of the club's record, and an alias can be
withdrawn (another event) but never silently lost.
"""

from __future__ import annotations

import unicodedata
from typing import Mapping
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from coimbra_events.game import NAMESPACE

MAX_NAME = 64


class BadAlias(ValueError):
    """An alias that cannot be recorded (empty, the same person, a loop, not an alias)."""


def person_key(name: str) -> str:
    """The key of a spelling: case, accents and runs of spaces do not matter (``Conceição`` -> ``conceicao``)."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


def resolve(targets: Mapping[str, str], key: str) -> str:
    """The person a key names in an alias map (alias key -> person key), following alias after alias."""
    seen = {key}
    while key in targets:
        key = targets[key]
        if key in seen:  # never recorded (``Aliases.add`` refuses loops); kept total for any stored map
            break
        seen.add(key)
    return key


def _checked(name: str, what: str) -> str:
    shown = " ".join(name.split())
    if not person_key(shown):
        raise BadAlias(f"{what} {name!r}: a name needs at least one letter or digit")
    if len(shown) > MAX_NAME or any(unicodedata.category(ch) == "Cc" for ch in name):
        raise BadAlias(f"{what} {name!r}: at most {MAX_NAME} printable characters")
    return shown


class Aliases(Aggregate):
    """Every alias of the club: a spelling's key, the person it names and how to write that person."""

    class Created(Aggregate.Created):
        def apply(self, aliases: Aliases) -> None:
            aliases.targets = {}

    class Aliased(Aggregate.Event):
        """``alias`` (as typed) is the person ``person`` (as the league should show them)."""

        alias: str
        person: str

        def apply(self, aliases: Aliases) -> None:
            aliases.targets[person_key(self.alias)] = person_key(self.person)

    class Unaliased(Aggregate.Event):
        """``alias`` is a person of their own again."""

        alias: str

        def apply(self, aliases: Aliases) -> None:
            aliases.targets.pop(person_key(self.alias), None)

    @staticmethod
    def create_id() -> UUID:
        """One alias map per store."""
        return uuid5(NAMESPACE, "index:aliases")

    @classmethod
    def open(cls) -> Aliases:
        return cls._create(cls.Created)

    def resolve(self, key: str) -> str:
        """The person a key names, following alias after alias."""
        return resolve(self.targets, key)

    def add(self, alias: str, person: str) -> None:
        """Record that ``alias`` is ``person``; ``BadAlias`` for the same key or a loop."""
        alias, person = _checked(alias, "alias"), _checked(person, "person")
        a, p = person_key(alias), person_key(person)
        if a == p:
            raise BadAlias(f"{alias!r} and {person!r} are already the same person (case, accents and spaces do not count)")
        if self.resolve(p) == a:
            raise BadAlias(f"{person!r} is already an alias of {alias!r}; an alias of an alias would go round in a loop")
        self.trigger_event(self.Aliased, alias=alias, person=person)

    def remove(self, alias: str) -> None:
        """Make ``alias`` a person of their own again; ``BadAlias`` if it is no alias."""
        if person_key(alias) not in self.targets:
            raise BadAlias(f"{alias!r} is not an alias (coimbra player list shows the aliases)")
        self.trigger_event(self.Unaliased, alias=_checked(alias, "alias"))
