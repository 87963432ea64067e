"""Domain events: one immutable type per player decision and per random outcome.

Every event names its actor (a player, or ``"table"`` for random outcomes) and
carries only what was decided or observed. Everything that follows from the
rules (income amounts, crown tokens, die-token removals, scoring) is derived by
the rules core and never logged as input.

This module is the events' vocabulary: their types, fields and field kinds
(``KINDS``) and the payload each writes. Reading one back from a log, checking
every field by its kind, is ``coimbra_events.event_decoding``'s.

The events are plain classes with ``Final`` attributes, like the state, because
this module is part of the compiled rules core (README, "Compiled rules core"):
every event of a log is built once when it is read and its fields are read by
the rules, and a compiled plain class does both in a few nanoseconds. Each
class spells out its ``__init__``; ``tests/test_events.py`` keeps the
annotations of those parameters equal to the class's ``KINDS``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, Mapping, Sequence

from coimbra_events.record import Record


class GameEvent(Record):
    """Base of all events: who acted. Subclasses add their payload fields.

    ``TYPE`` is the stable name in logs; ``KINDS`` lists the payload fields, in
    ``__init__`` order, with the kind of each (``str``, ``int``, ``strs``, ``groups``,
    ``str_map``, ``int_map`` or ``strs_map``; ``event_decoding`` reads each type's fields by these).
    """

    TYPE: ClassVar[str] = ""
    KINDS: ClassVar[Mapping[str, str]] = {}
    RANDOM: ClassVar[bool] = False

    def __init__(self, actor: str) -> None:
        self.actor: Final = actor

    def key(self) -> tuple[Any, ...]:
        """The actor, then the payload field values in ``KINDS`` order."""
        return (self.actor, *[getattr(self, name) for name in self.KINDS])

    def as_dict(self) -> dict[str, Any]:
        """Every field by name: the actor, then the payload fields."""
        return {"actor": self.actor, **{name: getattr(self, name) for name in self.KINDS}}

    def payload(self) -> dict[str, Any]:
        """The JSON payload of this event (everything but the actor)."""
        out: dict[str, Any] = {}
        for name, kind in self.KINDS.items():
            value = getattr(self, name)
            if kind.endswith("map"):
                out[name] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in value}
            elif kind == "groups":
                out[name] = [list(g) for g in value]
            elif kind == "strs":
                out[name] = list(value)
            else:
                out[name] = value
        return out

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self.as_dict().items())
        return f"{type(self).__name__}({shown})"


class RandomOutcome(GameEvent):
    """An event the table observes rather than decides: its actor is always ``"table"``."""

    RANDOM = True


# --- Random outcomes (actor: the table) -------------------------------------------------


class MonasteriesDrawn(RandomOutcome):
    """Monastery tiles drawn onto the map: map space -> monastery id (setup step 2)."""

    TYPE = "MonasteriesDrawn"
    KINDS = {"placement": "str_map"}

    def __init__(self, actor: str, placement: tuple[tuple[str, str], ...]) -> None:
        super().__init__(actor)
        self.placement: Final = placement


class ScoringTilesPlaced(RandomOutcome):
    """Influence scoring tiles above the four tracks: track -> tile id (setup step 3)."""

    TYPE = "ScoringTilesPlaced"
    KINDS = {"tiles": "str_map"}

    def __init__(self, actor: str, tiles: tuple[tuple[str, str], ...]) -> None:
        super().__init__(actor)
        self.tiles: Final = tiles


class VoyagesDrawn(RandomOutcome):
    """The six voyage cards, by voyage space left to right (setup step 5)."""

    TYPE = "VoyagesDrawn"
    KINDS = {"voyages": "strs"}

    def __init__(self, actor: str, voyages: tuple[str, ...]) -> None:
        super().__init__(actor)
        self.voyages: Final = voyages


class SeatingDrawn(RandomOutcome):
    """The random player order: names by flag, flag 1 first (setup step 8)."""

    TYPE = "SeatingDrawn"
    KINDS = {"order": "strs"}

    def __init__(self, actor: str, order: tuple[str, ...]) -> None:
        super().__init__(actor)
        self.order: Final = order


class CharacterRowsDealt(RandomOutcome):
    """Four character cards beside each city, left to right (setup step 11, every round)."""

    TYPE = "CharacterRowsDealt"
    KINDS = {"rows": "strs_map"}

    def __init__(self, actor: str, rows: tuple[tuple[str, tuple[str, ...]], ...]) -> None:
        super().__init__(actor)
        self.rows: Final = rows


class StartGroupsDealt(RandomOutcome):
    """The groups of start cards laid out (setup step 13)."""

    TYPE = "StartGroupsDealt"
    KINDS = {"groups": "groups"}

    def __init__(self, actor: str, groups: tuple[tuple[str, ...], ...]) -> None:
        super().__init__(actor)
        self.groups: Final = groups


class DiceRolled(RandomOutcome):
    """Phase A: the value each die of the pool shows: die id -> 1..6."""

    TYPE = "DiceRolled"
    KINDS = {"values": "int_map"}

    def __init__(self, actor: str, values: tuple[tuple[str, int], ...]) -> None:
        super().__init__(actor)
        self.values: Final = values


# --- Player decisions --------------------------------------------------------------------


class StartGroupTaken(GameEvent):
    """Start choice a): take the two start cards of group N (1-based)."""

    TYPE = "StartGroupTaken"
    KINDS = {"group": "int"}

    def __init__(self, actor: str, group: int) -> None:
        super().__init__(actor)
        self.group: Final = group


class PilgrimPlaced(GameEvent):
    """Start choice b): put the pilgrim on a free start space of the map."""

    TYPE = "PilgrimPlaced"
    KINDS = {"space": "str"}

    def __init__(self, actor: str, space: str) -> None:
        super().__init__(actor)
        self.space: Final = space


class TrackChosen(GameEvent):
    """A reward 'on a track of your choice' goes to this track."""

    TYPE = "TrackChosen"
    KINDS = {"track": "str"}

    def __init__(self, actor: str, track: str) -> None:
        super().__init__(actor)
        self.track: Final = track


class PilgrimStepped(GameEvent):
    """The pilgrim takes one step to an adjacent map space."""

    TYPE = "PilgrimStepped"
    KINDS = {"to": "str"}

    def __init__(self, actor: str, to: str) -> None:
        super().__init__(actor)
        self.to: Final = to


class PilgrimStopped(GameEvent):
    """The pilgrim stops early; the remaining steps are forfeited."""

    TYPE = "PilgrimStopped"

class DiePlaced(GameEvent):
    """Phase B: a die drafted from the pool and placed in a city location."""

    TYPE = "DiePlaced"
    KINDS = {"die": "str", "location": "str"}

    def __init__(self, actor: str, die: str, location: str) -> None:
        super().__init__(actor)
        self.die: Final = die
        self.location: Final = location


class FavorTileTaken(GameEvent):
    """Phase C, castle: the favor tile chosen."""

    TYPE = "FavorTileTaken"
    KINDS = {"tile": "str"}

    def __init__(self, actor: str, tile: str) -> None:
        super().__init__(actor)
        self.tile: Final = tile


class CardBought(GameEvent):
    """Phase C, city: the character card bought from the row beside the location."""

    TYPE = "CardBought"
    KINDS = {"card": "str"}

    def __init__(self, actor: str, card: str) -> None:
        super().__init__(actor)
        self.card: Final = card


class AlternativeTaken(GameEvent):
    """Phase C: instead of the location's action, up to the catalog's coins and guards (its alternative action)."""

    TYPE = "AlternativeTaken"
    KINDS = {"coins": "int", "guards": "int"}

    def __init__(self, actor: str, coins: int, guards: int) -> None:
        super().__init__(actor)
        self.coins: Final = coins
        self.guards: Final = guards


class IncomeActivated(GameEvent):
    """Phase E: one die (or the extra-die tile) collects the income of a track."""

    TYPE = "IncomeActivated"
    KINDS = {"die": "str", "track": "str"}

    def __init__(self, actor: str, die: str, track: str) -> None:
        super().__init__(actor)
        self.die: Final = die
        self.track: Final = track


class PointsExchanged(GameEvent):
    """Phase E: coins or guards exchanged for victory points, TIMES times."""

    TYPE = "PointsExchanged"
    KINDS = {"give": "str", "times": "int"}

    def __init__(self, actor: str, give: str, times: int) -> None:
        super().__init__(actor)
        self.give: Final = give
        self.times: Final = times


class IncomeEnded(GameEvent):
    """Phase E: the player is done; income not yet collected is forfeited."""

    TYPE = "IncomeEnded"

class VoyageInvested(GameEvent):
    """Phase F: invest in the voyage card with this id."""

    TYPE = "VoyageInvested"
    KINDS = {"voyage": "str"}

    def __init__(self, actor: str, voyage: str) -> None:
        super().__init__(actor)
        self.voyage: Final = voyage


class VoyagePassed(GameEvent):
    """Phase F: no investment this round."""

    TYPE = "VoyagePassed"

# --- History: corrections, retractions, table-accepted rule breaks, notes -----------------------
# These record what happened to the record itself. Nothing is ever deleted or rewritten: a
# correction or an override introduces the game event that follows it in the log.


class Corrected(GameEvent):
    """The next log entry replaces what entry SEQ said (SEQ itself stays in the log)."""

    TYPE = "Corrected"
    KINDS = {"seq": "int"}

    def __init__(self, actor: str, seq: int) -> None:
        super().__init__(actor)
        self.seq: Final = seq


class Retracted(GameEvent):
    """Entry SEQ is withdrawn from the line of play (an undo when it is the latest)."""

    TYPE = "Retracted"
    KINDS = {"seq": "int"}

    def __init__(self, actor: str, seq: int) -> None:
        super().__init__(actor)
        self.seq: Final = seq


class RuleOverridden(GameEvent):
    """The next log entry breaks RULE, and the table accepted it anyway, for REASON."""

    TYPE = "RuleOverridden"
    KINDS = {"rule": "str", "reason": "str"}

    def __init__(self, actor: str, rule: str, reason: str) -> None:
        super().__init__(actor)
        self.rule: Final = rule
        self.reason: Final = reason


class Noted(GameEvent):
    """A comment on entry SEQ: what the table said, why a ruling was made."""

    TYPE = "Noted"
    KINDS = {"seq": "int", "text": "str"}

    def __init__(self, actor: str, seq: int, text: str) -> None:
        super().__init__(actor)
        self.seq: Final = seq
        self.text: Final = text


class Bookmarked(GameEvent):
    """Entry SEQ marked as a named place to jump to in a replay."""

    TYPE = "Bookmarked"
    KINDS = {"seq": "int", "label": "str"}

    def __init__(self, actor: str, seq: int, label: str) -> None:
        super().__init__(actor)
        self.seq: Final = seq
        self.label: Final = label


HISTORY_TYPES: Final[tuple[type[GameEvent], ...]] = (Corrected, Retracted, RuleOverridden, Noted, Bookmarked)
"""Events about the record rather than the game; ``coimbra_events.history`` resolves them."""

_HISTORY: Final = frozenset(HISTORY_TYPES)


def is_plain(events: Sequence[GameEvent]) -> bool:
    """Whether a record has no history entries (its line of play is the record itself)."""
    return _HISTORY.isdisjoint(map(type, events))


EVENT_TYPES: Final[dict[str, type[GameEvent]]] = {
    cls.TYPE: cls
    for cls in (
        MonasteriesDrawn, ScoringTilesPlaced, VoyagesDrawn, SeatingDrawn, CharacterRowsDealt, StartGroupsDealt,
        DiceRolled, StartGroupTaken, PilgrimPlaced, TrackChosen, PilgrimStepped, PilgrimStopped, DiePlaced,
        FavorTileTaken, CardBought, AlternativeTaken, IncomeActivated, PointsExchanged, IncomeEnded,
        VoyageInvested, VoyagePassed, Corrected, Retracted, RuleOverridden, Noted, Bookmarked,
    )
}
"""Every event class by its stable type name."""
