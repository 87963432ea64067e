"""What the table's use cases answer: entries recorded, an input refused, a record that moved on, or a phone's
input for a seat it does not hold.

Values, never output: a front-end (the CLI, a page on the players' phones) says
them its own way. A refusal and a conflict store nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Mapping, Sequence, TypeVar

from coimbra_events.catalog import Catalog
from coimbra_events.events import GameEvent
from coimbra_events.log import Stamp
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.state import GameState
from coimbra_events.violations import RuleViolation

if TYPE_CHECKING:
    from coimbra_events.game import Game

T = TypeVar("T")


@dataclass(frozen=True)
class Entry:
    """One stored entry: its number, its event, when and by whom it was entered, and what it changed on the table
    (the read side's changes; empty when the service was given no read side)."""

    seq: int
    event: GameEvent
    stamp: Stamp
    changes: Sequence[Any] = ()


@dataclass(frozen=True)
class Stored(Generic[T]):
    """Entries stored, all in one save, on ``game``, whose record now ends at ``head``.

    ``before`` is the table before the first of them; ``outcome`` what the use case
    says besides (the plays a correction made illegal, the play undone, the rule a
    table accepted breaking, the outcome drawn).
    """

    game: Game
    entries: tuple[Entry, ...]
    head: str
    before: GameState
    outcome: T = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Refused:
    """An input the rules refused, with the violation; nothing was stored.

    ``event`` is the input read (``None`` when nothing can be recorded at all: the
    game is over), ``text`` the input as typed, if it was; ``monasteries`` the map's monastery
    spaces (space -> monastery id), so that the refusal names a space by its monastery.
    """

    name: str
    catalog: Catalog
    violation: RuleViolation
    event: GameEvent | None = None
    text: str | None = None
    monasteries: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Conflict:
    """The record moved on since the input was made for it (another writer saved first, or the head the device
    showed is not the head); nothing was stored. ``head`` is the head it moved to, ``reason`` says which."""

    name: str
    head: str
    reason: str


@dataclass(frozen=True)
class NotYours:
    """An input or an undo the phone it came from may not make (``service.seats``: another seat's decision or
    play, or the game is over); nothing was stored. ``player``: whose seat; ``reason`` says why and what to do."""

    name: str
    player: str | None
    reason: str


Outcome = Stored[T] | Refused | Conflict | NotYours
"""What a use case that records answers (``NotYours`` only to a write that names the phone it came from)."""


@dataclass(frozen=True)
class Legal:
    """What may be entered now: the table's outcome to enter (``outcome``), or the decisions of the player due
    (``decisions``, and ``options``: each described by the read side, when the service has one)."""

    game: Game
    outcome: OutcomeSpace | None
    decisions: tuple[GameEvent, ...] = ()
    options: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Exported:
    """A game's canonical JSON log; ``damage`` when it is a damaged stored game written as stored (``force``)."""

    data: bytes
    damage: Exception | None = None
