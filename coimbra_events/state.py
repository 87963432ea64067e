"""The immutable game state the rules core folds events into.

States hold only tuples, ints, strings and other states, so a state can be
shared, compared and kept for every step of a replay without copying. The
rules build a new state per event through ``rules.tx.Tx``, which works on
mutable drafts and freezes them once; nothing ever changes a state that has
been returned, but for one exception kept inside the compiled rules core: a
playout's scratch fold (``rules.fast.Fold(scratch=True)``) refills the states it
made itself, which no one else holds.

The classes are plain classes on ``coimbra_events.record.Record``, with ``Final``
attributes (read-only in both builds; that module says why not dataclasses).
"""

from __future__ import annotations

from typing import Final, Mapping

from coimbra_events.catalog import Catalog
from coimbra_events.catalog.effect_kinds import TRACK_INDEX
from coimbra_events.record import Record

TABLE: Final = "table"
"""The actor of random outcomes: dice rolled, cards dealt, tiles drawn."""

LOCATIONS: Final[tuple[str, ...]] = ("castle", "upper", "central", "lower")
"""The four city locations, in the order phase C evaluates them (rules text)."""
CITIES: Final[tuple[str, ...]] = LOCATIONS[1:]
LOCATION_INDEX: Final[dict[str, int]] = {location: k for k, location in enumerate(LOCATIONS)}
CITY_INDEX: Final[dict[str, int]] = {city: k for k, city in enumerate(CITIES)}
"""Each location's place in ``LOCATIONS`` and each city's in ``CITIES`` (a city row's in ``rows``)."""
CASTLE: Final = "castle"
EXTRA_DIE: Final = "extra"
"""The income source granted by the extra-die tile (GAPS decision 4)."""

# Phases of the game; rounds run A..F (rules text 002). ``Final`` lets compiled code use them as constants.
SETUP: Final = "setup"
START: Final = "start"
PHASE_A: Final = "A"
PHASE_B: Final = "B"
PHASE_C: Final = "C"
PHASE_D: Final = "D"
PHASE_E: Final = "E"
PHASE_F: Final = "F"
GAME_OVER: Final = "over"


class Pending(Record):
    """What the game waits for: who acts and what kind of input is due.

    ``kind`` names the decision (``draft``, ``retrieve``, ``steps`` ...) or, for
    the table, the random outcome (``dice``, ``rows`` ...). ``amount`` is the
    number of steps or spaces still to take, ``source`` says what granted a
    sub-decision (a card, a monastery, income), ``location`` and ``die`` name the
    die being retrieved in phase C.
    """

    FIELDS = ("actor", "kind", "amount", "source", "location", "die")
    COMPARED = FIELDS

    def __init__(self, actor: str, kind: str, amount: int = 0, source: str = "", location: str = "", die: str = "") -> None:
        self.actor: Final = actor
        self.kind: Final = kind
        self.amount: Final = amount
        self.source: Final = source
        self.location: Final = location
        self.die: Final = die


class Slot(Record):
    """One die in a city location: a player's die, or a neutral die token."""

    FIELDS = ("die", "value", "owner")
    COMPARED = FIELDS

    def __init__(self, die: str, value: int, owner: int) -> None:
        self.die: Final = die
        self.value: Final = value
        self.owner: Final = owner  # player index, or -1 for a die token

    @property
    def is_token(self) -> bool:
        return self.owner < 0


class PlayerState(Record):
    """One player's board: resources, tracks, cards, pilgrim, discs."""

    FIELDS = (
        "name", "color", "coins", "guards", "points", "influence", "arrivals", "pilgrim", "start_cards", "cards",
        "monasteries", "voyages", "shutter", "favor_tiles", "crown_tokens", "crowns_total", "income_left",
        "points_by_source", "start_choices",
    )
    COMPARED = FIELDS

    def __init__(
        self,
        name: str,
        color: str,
        coins: int,
        guards: int,
        points: int,
        influence: tuple[int, ...],
        arrivals: tuple[int, ...],
        pilgrim: str | None,
        start_cards: tuple[str, ...],
        cards: tuple[str, ...],
        monasteries: tuple[str, ...],
        voyages: tuple[str, ...],
        shutter: tuple[str, ...],
        favor_tiles: tuple[str, ...],
        crown_tokens: tuple[str, ...],
        crowns_total: int,
        income_left: tuple[str, ...],
        points_by_source: tuple[tuple[str, int], ...],
        start_choices: tuple[str, ...],
    ) -> None:
        self.name: Final = name
        self.color: Final = color
        self.coins: Final = coins
        self.guards: Final = guards
        self.points: Final = points
        self.influence: Final = influence
        self.arrivals: Final = arrivals
        self.pilgrim: Final = pilgrim
        self.start_cards: Final = start_cards
        self.cards: Final = cards
        self.monasteries: Final = monasteries
        self.voyages: Final = voyages
        self.shutter: Final = shutter
        self.favor_tiles: Final = favor_tiles
        self.crown_tokens: Final = crown_tokens
        self.crowns_total: Final = crowns_total
        self.income_left: Final = income_left
        self.points_by_source: Final = points_by_source
        self.start_choices: Final = start_choices

    def influence_on(self, track: str) -> int:
        """The disc's space on an influence track."""
        return self.influence[TRACK_INDEX[track]]

    def holding(self, resource: str) -> int:
        """How many coins or guards the player has (the rules ask it of every card in a row and every exchange;
        a plain ``getattr`` takes the interpreter's generic way in the compiled core)."""
        if resource == "coins":
            return self.coins
        if resource == "guards":
            return self.guards
        value: int = getattr(self, resource)
        return value

    @property
    def owned_cards(self) -> tuple[str, ...]:
        """Every character card the player owns, start cards first."""
        return self.start_cards + self.cards


class GameState(Record):
    """The whole table at one point of the game."""

    FIELDS = (
        "catalog", "index", "players", "order", "round", "phase", "cursor", "monasteries", "scoring_tiles",
        "voyages", "voyage_discs", "start_groups", "start_groups_taken", "pilgrims_placed", "dealt", "rows",
        "crowns_on_cards", "discard", "favor_available", "dice", "pool", "locations", "stack", "pending", "tick",
    )
    COMPARED = FIELDS[2:]

    def __init__(
        self,
        catalog: Catalog,
        index: Mapping[str, int],
        players: tuple[PlayerState, ...],
        order: tuple[int, ...],
        round: int,
        phase: str,
        cursor: tuple[int, ...],
        monasteries: tuple[tuple[str, str], ...],
        scoring_tiles: tuple[str, ...],
        voyages: tuple[str, ...],
        voyage_discs: tuple[tuple[str, ...], ...],
        start_groups: tuple[tuple[str, ...], ...],
        start_groups_taken: tuple[str, ...],
        pilgrims_placed: tuple[str, ...],
        dealt: frozenset[str],
        rows: tuple[tuple[str, ...], ...],
        crowns_on_cards: tuple[tuple[str, str], ...],
        discard: tuple[str, ...],
        favor_available: tuple[str, ...],
        dice: tuple[tuple[str, int], ...],
        pool: tuple[str, ...],
        locations: tuple[tuple[Slot, ...], ...],
        stack: tuple[Pending, ...],
        pending: Pending | None,
        tick: int,
    ) -> None:
        self.catalog: Final = catalog
        self.index: Final = index
        self.players: Final = players
        self.order: Final = order
        self.round: Final = round
        self.phase: Final = phase
        self.cursor: Final = cursor
        self.monasteries: Final = monasteries
        self.scoring_tiles: Final = scoring_tiles
        self.voyages: Final = voyages
        self.voyage_discs: Final = voyage_discs
        self.start_groups: Final = start_groups
        self.start_groups_taken: Final = start_groups_taken
        self.pilgrims_placed: Final = pilgrims_placed
        self.dealt: Final = dealt
        self.rows: Final = rows
        self.crowns_on_cards: Final = crowns_on_cards
        self.discard: Final = discard
        self.favor_available: Final = favor_available
        self.dice: Final = dice
        self.pool: Final = pool
        self.locations: Final = locations
        self.stack: Final = stack
        self.pending: Final = pending
        self.tick: Final = tick

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
