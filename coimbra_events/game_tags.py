"""Tags on stored games (``coimbra tag GAME TAG``): what a club's seasons group games by.

Each game's tags are an aggregate of their own, saved apart from the game so a
tag never touches the game's record or its hash chain; every change stores the
game's whole set of tags, so a reader needs only the latest event.

(Stand-in for the tags of the games index that issue 14 brings: the league reads
tags only through ``Tags.Changed`` events, in ``projections.league``.)
"""

from __future__ import annotations

import re
from typing import Iterable
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import RecordConflictError

from coimbra_events.application import ATTEMPTS, StoreConflict
from coimbra_events.game import NAMESPACE, project

_TAG = re.compile(r"[^\W_][\w.:-]{0,39}")


class BadTag(ValueError):
    """A tag that cannot be written (spaces, punctuation, too long)."""


class Tags(Aggregate):
    """The tags of one game."""

    class Created(Aggregate.Created):
        game: str

        def apply(self, tags: Tags) -> None:
            tags.game = self.game
            tags.tags = ()

    class Changed(Aggregate.Event):
        """The game's tags are now ``tags`` (sorted, each once)."""

        game: str
        tags: tuple

        def apply(self, tags: Tags) -> None:
            tags.tags = tuple(self.tags)

    @staticmethod
    def create_id(game: str) -> UUID:
        return uuid5(NAMESPACE, f"tags:{game}")

    @classmethod
    def open(cls, game: str) -> Tags:
        return cls._create(cls.Created, id=cls.create_id(game), game=game)

    def change(self, add: Iterable[str] = (), remove: Iterable[str] = ()) -> bool:
        """Add and remove tags; ``True`` if the set changed (and must be saved)."""
        added = [check_tag(t) for t in add]
        gone = {t.casefold() for t in remove}
        now = {t.casefold(): t for t in self.tags if t.casefold() not in gone}
        for t in added:
            now.setdefault(t.casefold(), t)
        new = tuple(sorted(now.values(), key=str.casefold))
        if new == self.tags:
            return False
        self.trigger_event(self.Changed, game=self.game, tags=new)
        return True


def check_tag(tag: str) -> str:
    """A tag as stored: a word of letters, digits, ``. : - _`` (``2026-spring``, ``club:lisbon``)."""
    if not _TAG.fullmatch(tag):
        raise BadTag(f"tag {tag!r}: a word of letters, digits, '.', ':', '-' or '_', at most 40")
    return tag


def tags_of(store: Application, game: str) -> Tags:
    try:
        return store.repository.get(Tags.create_id(game), projector_func=project)
    except AggregateNotFoundError:
        return Tags.open(game)


def retag(store: Application, game: str, add: Iterable[str] = (), remove: Iterable[str] = ()) -> tuple[str, ...]:
    """Change a stored game's tags and return them; retried if another writer saved first."""
    add, remove = list(add), list(remove)
    for _ in range(ATTEMPTS):
        tags = tags_of(store, game)
        if not tags.change(add, remove):
            return tags.tags
        try:
            store.save(tags)
        except RecordConflictError:
            continue
        return tags.tags
    raise StoreConflict("the game's tags kept changing while saving; nothing was stored, try again")
