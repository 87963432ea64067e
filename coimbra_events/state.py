"""The immutable game state the rules core folds events into.

States are frozen dataclasses holding only tuples, ints and strings, so a state
can be shared, compared and kept for every step of a replay without copying.
The rules build a new state per event through ``rules.tx.Tx``, which copies the
changed parts once; nothing ever mutates a state that has been returned.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from coimbra_events.catalog import Catalog
from coimbra_events.effect_kinds import TRACKS

TABLE = "table"
"""The actor of random outcomes: dice rolled, cards dealt, tiles drawn."""

LOCATIONS: tuple[str, ...] = ("castle", "upper", "central", "lower")
"""The four city locations, in the order phase C evaluates them (rules text)."""
CITIES: tuple[str, ...] = LOCATIONS[1:]
CASTLE = "castle"
EXTRA_DIE = "extra"
"""The income source granted by the extra-die tile (GAPS decision 4)."""

# Phases of the game; rounds run A..F (rules text 002).
SETUP, START, PHASE_A, PHASE_B, PHASE_C, PHASE_D, PHASE_E, PHASE_F, GAME_OVER = (
    "setup",
    "start",
    "A",
    "B",
    "C",
    "D",
    "E",
    "F",
    "over",
)


def build(cls: type, fields: Mapping[str, Any]) -> Any:
    """Make a frozen dataclass instance from a complete field mapping, fast.

    ``dataclasses.replace`` costs several microseconds per call and even the
    generated ``__init__`` of a frozen dataclass pays one ``object.__setattr__``
    per field; the rules make a few instances per event, so they go through
    this instead. The copy of ``fields`` becomes the instance's ``__dict__`` in
    one step, which is about twice as fast for the 26 fields of ``GameState``
    as filling the instance's own dict key by key.
    """
    return adopt(cls, dict(fields))


def adopt(cls: type, fields: dict[str, Any]) -> Any:
    """Like ``build``, but the instance takes over ``fields`` itself, saving the copy.

    For a dict made just for this instance; whoever passes it must never touch
    it again, since it now is the frozen instance's state.
    """
    obj = _new(cls)
    _set_attribute(obj, "__dict__", fields)
    return obj


_new = object.__new__
_set_attribute = object.__setattr__
"""The plain ``object`` methods, which frozen dataclasses leave usable for building."""


@dataclass(frozen=True)
class Pending:
    """What the game waits for: who acts and what kind of input is due.

    ``kind`` names the decision (``draft``, ``retrieve``, ``steps`` ...) or, for
    the table, the random outcome (``dice``, ``rows`` ...). ``amount`` is the
    number of steps or spaces still to take, ``source`` says what granted a
    sub-decision (a card, a monastery, income), ``location`` and ``die`` name the
    die being retrieved in phase C.
    """

    actor: str
    kind: str
    amount: int = 0
    source: str = ""
    location: str = ""
    die: str = ""


def make_pending(actor: str, kind: str, amount: int = 0, source: str = "", location: str = "", die: str = "") -> Pending:
    """``Pending(...)``, built at half the cost of the dataclass ``__init__``.

    The rules make one or more per event (the next input due), which made the
    generated ``__init__`` one of the larger costs of a replay.
    """
    return adopt(Pending, {"actor": actor, "kind": kind, "amount": amount, "source": source, "location": location, "die": die})


@dataclass(frozen=True)
class Slot:
    """One die in a city location: a player's die, or a neutral die token."""

    die: str
    value: int
    owner: int  # player index, or -1 for a die token

    @property
    def is_token(self) -> bool:
        return self.owner < 0


@dataclass(frozen=True)
class PlayerState:
    """One player's board: resources, tracks, cards, pilgrim, discs."""

    name: str
    color: str
    coins: int
    guards: int
    points: int
    influence: tuple[int, ...]
    arrivals: tuple[int, ...]
    pilgrim: str | None
    start_cards: tuple[str, ...]
    cards: tuple[str, ...]
    monasteries: tuple[str, ...]
    voyages: tuple[str, ...]
    shutter: tuple[str, ...]
    favor_tiles: tuple[str, ...]
    crown_tokens: tuple[str, ...]
    crowns_total: int
    income_left: tuple[str, ...]
    points_by_source: tuple[tuple[str, int], ...]
    start_choices: tuple[str, ...]

    def influence_on(self, track: str) -> int:
        """The disc's space on an influence track."""
        return self.influence[TRACKS.index(track)]

    @property
    def owned_cards(self) -> tuple[str, ...]:
        """Every character card the player owns, start cards first."""
        return self.start_cards + self.cards


@dataclass(frozen=True)
class GameState:
    """The whole table at one point of the game."""

    catalog: Catalog = field(compare=False, repr=False)
    index: Mapping[str, int] = field(compare=False, repr=False)
    players: tuple[PlayerState, ...]
    order: tuple[int, ...]
    round: int
    phase: str
    cursor: tuple[int, ...]
    monasteries: tuple[tuple[str, str], ...]
    scoring_tiles: tuple[str, ...]
    voyages: tuple[str, ...]
    voyage_discs: tuple[tuple[str, ...], ...]
    start_groups: tuple[tuple[str, ...], ...]
    start_groups_taken: tuple[str, ...]
    pilgrims_placed: tuple[str, ...]
    dealt: frozenset[str]
    rows: tuple[tuple[str, ...], ...]
    crowns_on_cards: tuple[tuple[str, str], ...]
    discard: tuple[str, ...]
    favor_available: tuple[str, ...]
    dice: tuple[tuple[str, int], ...]
    pool: tuple[str, ...]
    locations: tuple[tuple[Slot, ...], ...]
    stack: tuple[Pending, ...]
    pending: Pending | None
    tick: int

    def player(self, name: str) -> PlayerState:
        """The player with this name."""
        return self.players[self.index[name]]

    def in_order(self) -> tuple[PlayerState, ...]:
        """Players by their lion's flag, flag 1 first."""
        return tuple(self.players[i] for i in self.order)

    @property
    def over(self) -> bool:
        return self.phase == GAME_OVER

    def die_value(self, die: str) -> int:
        """The value rolled this round for a die."""
        for d, v in self.dice:
            if d == die:
                return v
        raise KeyError(die)

    def monastery_at(self, space: str) -> str | None:
        """The monastery tile lying on a map space, if any."""
        for s, m in self.monasteries:
            if s == space:
                return m
        return None
