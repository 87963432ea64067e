"""Domain events: one immutable type per player decision and per random outcome.

Every event names its actor (a player, or ``"table"`` for random outcomes) and
carries only what was decided or observed. Everything that follows from the
rules (income amounts, crown tokens, die-token removals, scoring) is derived by
the rules core and never logged as input.

Payloads are decoded with explicit field kinds, so a log with a wrong type in a
payload is refused as bad input (``PayloadError``) before any rule runs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable, ClassVar, Mapping, TypeVar

from coimbra_events.state import TABLE


_new = object.__new__
_set_attribute = object.__setattr__
"""The plain ``object`` methods, which frozen dataclasses leave usable for building."""


def _adopt(cls: type[E], fields: dict[str, Any]) -> E:
    """A frozen dataclass instance whose fields are ``fields`` itself, without the dataclass ``__init__``.

    Every event of a log is built here when it is read; the generated
    ``__init__`` of a frozen dataclass pays one ``object.__setattr__`` per
    field, which costs more than decoding the payload. ``fields`` must be a
    dict made for this instance alone: it becomes the instance's state.
    """
    obj = _new(cls)
    _set_attribute(obj, "__dict__", fields)
    return obj


class PayloadError(ValueError):
    """A payload that does not have the shape its event type requires."""


def _str(value: Any, name: str) -> str:
    if type(value) is not str or not value:
        raise PayloadError(f"field '{name}' must be a non-empty string, got {value!r}")
    return value


def _int(value: Any, name: str) -> int:
    if type(value) is not int:
        raise PayloadError(f"field '{name}' must be an integer, got {value!r}")
    return value


def _strs(value: Any, name: str) -> tuple[str, ...]:
    if type(value) is not list:
        raise PayloadError(f"field '{name}' must be a list of strings, got {value!r}")
    return tuple(_str(v, name) for v in value)


def _groups(value: Any, name: str) -> tuple[tuple[str, ...], ...]:
    if type(value) is not list:
        raise PayloadError(f"field '{name}' must be a list of lists, got {value!r}")
    return tuple(_strs(v, name) for v in value)


def _pairs(decode: Callable[[Any, str], Any]) -> Callable[[Any, str], tuple]:
    def pairs(value: Any, name: str) -> tuple[tuple[str, Any], ...]:
        if type(value) is not dict:
            raise PayloadError(f"field '{name}' must be an object, got {value!r}")
        return tuple(sorted((_str(k, name), decode(v, f"{name}.{k}")) for k, v in value.items()))

    return pairs


_DECODERS: Mapping[str, Callable[[Any, str], Any]] = {
    "str": _str,
    "int": _int,
    "strs": _strs,
    "groups": _groups,
    "str_map": _pairs(_str),
    "int_map": _pairs(_int),
    "strs_map": _pairs(_strs),
}


@dataclass(frozen=True)
class GameEvent:
    """Base of all events: who acted. Subclasses add their payload fields."""

    actor: str

    TYPE: ClassVar[str] = ""
    KINDS: ClassVar[Mapping[str, str]] = {}
    FIELDS: ClassVar[tuple[tuple[str, Callable[[Any, str], Any]], ...]] = ()
    """Each payload field with the decoder of its kind, in ``KINDS`` order."""
    RANDOM: ClassVar[bool] = False

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

    @classmethod
    def from_payload(cls, actor: str, payload: Any) -> "GameEvent":
        """Decode a payload, refusing missing, unknown or mistyped fields.

        Every event of a log goes through here, so the field decoders are
        looked up once per class (``FIELDS``) and the instance is built without
        the dataclass ``__init__``, whose per-field ``object.__setattr__`` would
        cost more than the decoding itself.
        """
        if type(payload) is not dict:
            raise PayloadError(f"payload must be an object, got {payload!r}")
        if payload.keys() != cls.KINDS.keys():
            missing = sorted(set(cls.KINDS) - set(payload))
            extra = sorted(set(payload) - set(cls.KINDS))
            what = "; ".join(
                p for p in (missing and f"missing {missing}", extra and f"unexpected {extra}") if p
            )
            raise PayloadError(f"{cls.TYPE} payload: {what}")
        values = {"actor": actor}
        for name, decode in cls.FIELDS:
            values[name] = decode(payload[name], name)
        return _adopt(cls, values)


EVENT_TYPES: dict[str, type[GameEvent]] = {}


E = TypeVar("E", bound="GameEvent")


def _event(type_name: str, random: bool = False) -> Callable[[type[E]], type[E]]:
    """Register an event class (a frozen dataclass) under its stable type name, with its field kinds."""

    def register(cls: type[E]) -> type[E]:
        cls.TYPE = type_name
        cls.RANDOM = random
        cls.KINDS = {f.name: _KIND_OF[str(f.type)] for f in fields(cls) if f.name != "actor"}
        cls.FIELDS = tuple((name, _DECODERS[kind]) for name, kind in cls.KINDS.items())
        EVENT_TYPES[type_name] = cls
        return cls

    return register


_KIND_OF = {
    "str": "str",
    "int": "int",
    "tuple[str, ...]": "strs",
    "tuple[tuple[str, ...], ...]": "groups",
    "tuple[tuple[str, str], ...]": "str_map",
    "tuple[tuple[str, int], ...]": "int_map",
    "tuple[tuple[str, tuple[str, ...]], ...]": "strs_map",
}


# --- Random outcomes (actor: the table) -------------------------------------------------


@_event("MonasteriesDrawn", random=True)
@dataclass(frozen=True)
class MonasteriesDrawn(GameEvent):
    """Monastery tiles drawn onto the map: map space -> monastery id (setup step 2)."""

    placement: tuple[tuple[str, str], ...]


@_event("ScoringTilesPlaced", random=True)
@dataclass(frozen=True)
class ScoringTilesPlaced(GameEvent):
    """Influence scoring tiles above the four tracks: track -> tile id (setup step 3)."""

    tiles: tuple[tuple[str, str], ...]


@_event("VoyagesDrawn", random=True)
@dataclass(frozen=True)
class VoyagesDrawn(GameEvent):
    """The six voyage cards, by voyage space left to right (setup step 5)."""

    voyages: tuple[str, ...]


@_event("SeatingDrawn", random=True)
@dataclass(frozen=True)
class SeatingDrawn(GameEvent):
    """The random player order: names by flag, flag 1 first (setup step 8)."""

    order: tuple[str, ...]


@_event("CharacterRowsDealt", random=True)
@dataclass(frozen=True)
class CharacterRowsDealt(GameEvent):
    """Four character cards beside each city, left to right (setup step 11, every round)."""

    rows: tuple[tuple[str, tuple[str, ...]], ...]


@_event("StartGroupsDealt", random=True)
@dataclass(frozen=True)
class StartGroupsDealt(GameEvent):
    """The groups of start cards laid out (setup step 13)."""

    groups: tuple[tuple[str, ...], ...]


@_event("DiceRolled", random=True)
@dataclass(frozen=True)
class DiceRolled(GameEvent):
    """Phase A: the value each die of the pool shows: die id -> 1..6."""

    values: tuple[tuple[str, int], ...]


# --- Player decisions --------------------------------------------------------------------


@_event("StartGroupTaken")
@dataclass(frozen=True)
class StartGroupTaken(GameEvent):
    """Start choice a): take the two start cards of group N (1-based)."""

    group: int


@_event("PilgrimPlaced")
@dataclass(frozen=True)
class PilgrimPlaced(GameEvent):
    """Start choice b): put the pilgrim on a free start space of the map."""

    space: str


@_event("TrackChosen")
@dataclass(frozen=True)
class TrackChosen(GameEvent):
    """A reward 'on a track of your choice' goes to this track."""

    track: str


@_event("PilgrimStepped")
@dataclass(frozen=True)
class PilgrimStepped(GameEvent):
    """The pilgrim takes one step to an adjacent map space."""

    to: str


@_event("PilgrimStopped")
@dataclass(frozen=True)
class PilgrimStopped(GameEvent):
    """The pilgrim stops early; the remaining steps are forfeited."""


@_event("DiePlaced")
@dataclass(frozen=True)
class DiePlaced(GameEvent):
    """Phase B: a die drafted from the pool and placed in a city location."""

    die: str
    location: str


@_event("FavorTileTaken")
@dataclass(frozen=True)
class FavorTileTaken(GameEvent):
    """Phase C, castle: the favor tile chosen."""

    tile: str


@_event("CardBought")
@dataclass(frozen=True)
class CardBought(GameEvent):
    """Phase C, city: the character card bought from the row beside the location."""

    card: str


@_event("AlternativeTaken")
@dataclass(frozen=True)
class AlternativeTaken(GameEvent):
    """Phase C: instead of the location's action, up to 2 coins and up to 2 guards."""

    coins: int
    guards: int


@_event("IncomeActivated")
@dataclass(frozen=True)
class IncomeActivated(GameEvent):
    """Phase E: one die (or the extra-die tile) collects the income of a track."""

    die: str
    track: str


@_event("PointsExchanged")
@dataclass(frozen=True)
class PointsExchanged(GameEvent):
    """Phase E: coins or guards exchanged for victory points, TIMES times."""

    give: str
    times: int


@_event("IncomeEnded")
@dataclass(frozen=True)
class IncomeEnded(GameEvent):
    """Phase E: the player is done; income not yet collected is forfeited."""


@_event("VoyageInvested")
@dataclass(frozen=True)
class VoyageInvested(GameEvent):
    """Phase F: invest in the voyage card with this id."""

    voyage: str


@_event("VoyagePassed")
@dataclass(frozen=True)
class VoyagePassed(GameEvent):
    """Phase F: no investment this round."""


def decode_event(type_name: str, actor: Any, payload: Any) -> GameEvent:
    """Build an event from its log form; ``KeyError`` for an unknown type."""
    cls = EVENT_TYPES[type_name]
    if type(actor) is not str or not actor:
        raise PayloadError(f"actor must be a non-empty string, got {actor!r}")
    if cls.RANDOM and actor != TABLE:
        raise PayloadError(f"{type_name} is a random outcome; its actor must be '{TABLE}', got {actor!r}")
    return cls.from_payload(actor, payload)


# --- History: corrections, retractions, table-accepted rule breaks, notes -----------------------
# These record what happened to the record itself. Nothing is ever deleted or rewritten: a
# correction or an override introduces the game event that follows it in the log.


@_event("Corrected")
@dataclass(frozen=True)
class Corrected(GameEvent):
    """The next log entry replaces what entry SEQ said (SEQ itself stays in the log)."""

    seq: int


@_event("Retracted")
@dataclass(frozen=True)
class Retracted(GameEvent):
    """Entry SEQ is withdrawn from the line of play (an undo when it is the latest)."""

    seq: int


@_event("RuleOverridden")
@dataclass(frozen=True)
class RuleOverridden(GameEvent):
    """The next log entry breaks RULE, and the table accepted it anyway, for REASON."""

    rule: str
    reason: str


@_event("Noted")
@dataclass(frozen=True)
class Noted(GameEvent):
    """A comment on entry SEQ: what the table said, why a ruling was made."""

    seq: int
    text: str


@_event("Bookmarked")
@dataclass(frozen=True)
class Bookmarked(GameEvent):
    """Entry SEQ marked as a named place to jump to in a replay."""

    seq: int
    label: str


HISTORY_TYPES: tuple[type[GameEvent], ...] = (Corrected, Retracted, RuleOverridden, Noted, Bookmarked)
"""Events about the record rather than the game; ``coimbra_events.history`` resolves them."""
