"""Decoding an event from its log form: each payload field checked by its kind, then built.

Payloads are decoded with explicit field kinds (``KINDS``), so a log with a
wrong type in a payload is refused as bad input (``PayloadError``) before any
rule runs. Compiled with the events (README, "Compiled rules core"): every
event of every log read comes through ``decode_event``.
"""

from __future__ import annotations

import reprlib
from typing import Any, Callable, Final

from mypy_extensions import mypyc_attr

from coimbra_events.events import (
    AlternativeTaken,
    Bookmarked,
    CardBought,
    CharacterRowsDealt,
    Corrected,
    DiceRolled,
    DiePlaced,
    EVENT_TYPES,
    FavorTileTaken,
    GameEvent,
    IncomeActivated,
    IncomeEnded,
    MonasteriesDrawn,
    Noted,
    PilgrimPlaced,
    PilgrimStepped,
    PilgrimStopped,
    PointsExchanged,
    Retracted,
    RuleOverridden,
    ScoringTilesPlaced,
    SeatingDrawn,
    StartGroupTaken,
    StartGroupsDealt,
    TrackChosen,
    VoyageInvested,
    VoyagePassed,
    VoyagesDrawn,
)
from coimbra_events.state import TABLE


class PayloadError(ValueError):
    """A payload that does not have the shape its event type requires."""


def _short_repr() -> reprlib.Repr:
    short = reprlib.Repr()
    short.maxlevel, short.maxlist, short.maxdict, short.maxstring, short.maxother = 3, 6, 6, 60, 60
    return short


_SHORT: Final = _short_repr()


def shown(value: Any) -> str:
    """A value as an error message quotes it: its repr, cut short (a bad value may be megabytes
    long or nested a thousand levels deep, and the message is one line)."""
    return _SHORT.repr(value)


@mypyc_attr(native_class=False)  # compiled, a native class cannot subclass KeyError
class UnknownEventType(KeyError):
    """A type name that names no event class."""


# Readers of one payload value of each field kind: check it (naming the field in the message)
# and return it in the event's form. Kinds: str, int, strs, groups, str_map, int_map, strs_map.


def _str(value: Any, name: str, entry: str = "") -> str:
    if type(value) is not str or not value:
        raise PayloadError(f"field '{_where(name, entry)}' must be a non-empty string, got {shown(value)}")
    return value


def _int(value: Any, name: str, entry: str = "") -> int:
    if type(value) is not int:
        raise PayloadError(f"field '{_where(name, entry)}' must be an integer, got {shown(value)}")
    return value


def _strs(value: Any, name: str, entry: str = "") -> tuple[str, ...]:
    if type(value) is not list:
        raise PayloadError(f"field '{_where(name, entry)}' must be a list of strings, got {shown(value)}")
    return tuple([_str(v, name, entry) for v in value])


def _groups(value: Any, name: str) -> tuple[tuple[str, ...], ...]:
    if type(value) is not list:
        raise PayloadError(f"field '{name}' must be a list of lists, got {shown(value)}")
    return tuple([_strs(v, name) for v in value])


def _where(name: str, entry: str) -> str:
    """A field's name in a message: ``name``, or ``name.entry`` for one entry of an object.

    Built only for the message, as the maps (dice rolled, rows dealt) have many entries."""
    return f"{name}.{entry}" if entry else name


def _entries(value: Any, name: str) -> dict[str, Any]:
    """An object field whose keys are all non-empty strings."""
    if type(value) is not dict:
        raise PayloadError(f"field '{name}' must be an object, got {shown(value)}")
    for key in value:
        _str(key, name)
    return value


def _str_map(value: Any, name: str) -> tuple[tuple[str, str], ...]:
    return tuple(sorted([(k, _str(v, name, k)) for k, v in _entries(value, name).items()]))


def _int_map(value: Any, name: str) -> tuple[tuple[str, int], ...]:
    return tuple(sorted([(k, _int(v, name, k)) for k, v in _entries(value, name).items()]))


def _strs_map(value: Any, name: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple(sorted([(k, _strs(v, name, k)) for k, v in _entries(value, name).items()]))


_READERS: Final[dict[str, Callable[[str, dict[str, Any]], GameEvent]]] = {
    "MonasteriesDrawn": lambda a, p: MonasteriesDrawn(a, _str_map(p["placement"], "placement")),
    "ScoringTilesPlaced": lambda a, p: ScoringTilesPlaced(a, _str_map(p["tiles"], "tiles")),
    "VoyagesDrawn": lambda a, p: VoyagesDrawn(a, _strs(p["voyages"], "voyages")),
    "SeatingDrawn": lambda a, p: SeatingDrawn(a, _strs(p["order"], "order")),
    "CharacterRowsDealt": lambda a, p: CharacterRowsDealt(a, _strs_map(p["rows"], "rows")),
    "StartGroupsDealt": lambda a, p: StartGroupsDealt(a, _groups(p["groups"], "groups")),
    "DiceRolled": lambda a, p: DiceRolled(a, _int_map(p["values"], "values")),
    "StartGroupTaken": lambda a, p: StartGroupTaken(a, _int(p["group"], "group")),
    "PilgrimPlaced": lambda a, p: PilgrimPlaced(a, _str(p["space"], "space")),
    "TrackChosen": lambda a, p: TrackChosen(a, _str(p["track"], "track")),
    "PilgrimStepped": lambda a, p: PilgrimStepped(a, _str(p["to"], "to")),
    "PilgrimStopped": lambda a, p: PilgrimStopped(a),
    "DiePlaced": lambda a, p: DiePlaced(a, _str(p["die"], "die"), _str(p["location"], "location")),
    "FavorTileTaken": lambda a, p: FavorTileTaken(a, _str(p["tile"], "tile")),
    "CardBought": lambda a, p: CardBought(a, _str(p["card"], "card")),
    "AlternativeTaken": lambda a, p: AlternativeTaken(a, _int(p["coins"], "coins"), _int(p["guards"], "guards")),
    "IncomeActivated": lambda a, p: IncomeActivated(a, _str(p["die"], "die"), _str(p["track"], "track")),
    "PointsExchanged": lambda a, p: PointsExchanged(a, _str(p["give"], "give"), _int(p["times"], "times")),
    "IncomeEnded": lambda a, p: IncomeEnded(a),
    "VoyageInvested": lambda a, p: VoyageInvested(a, _str(p["voyage"], "voyage")),
    "VoyagePassed": lambda a, p: VoyagePassed(a),
    "Corrected": lambda a, p: Corrected(a, _int(p["seq"], "seq")),
    "Retracted": lambda a, p: Retracted(a, _int(p["seq"], "seq")),
    "RuleOverridden": lambda a, p: RuleOverridden(a, _str(p["rule"], "rule"), _str(p["reason"], "reason")),
    "Noted": lambda a, p: Noted(a, _int(p["seq"], "seq"), _str(p["text"], "text")),
    "Bookmarked": lambda a, p: Bookmarked(a, _int(p["seq"], "seq"), _str(p["label"], "label")),
}
"""How each event type's payload is read: every field by its kind (as ``KINDS`` says, which
``tests/test_events.py`` holds it to), into a direct call of the class. Every event of every
log read comes through here, so each type has its own reader rather than a loop over its
fields and a generic call (that took twice as long)."""

_DECODING: Final[dict[str, tuple[Callable[[str, dict[str, Any]], GameEvent], bool, tuple[str, ...]]]] = {
    name: (_READERS[name], cls.RANDOM, tuple(cls.KINDS)) for name, cls in EVENT_TYPES.items()
}
"""For each type name: its reader, whether it is a random outcome, and its payload field
names, looked up once."""


def decode_event(type_name: str, actor: Any, payload: Any) -> GameEvent:
    """Build an event from its log form; ``UnknownEventType`` (a ``KeyError``) for an unknown type.

    Refuses a missing or non-string actor, a random outcome not by the table,
    and a payload with missing, unknown or mistyped fields (``PayloadError``).
    """
    try:
        read, random, fields = _DECODING[type_name]
    except KeyError:
        raise UnknownEventType(type_name) from None
    if type(actor) is not str or not actor:
        raise PayloadError(f"actor must be a non-empty string, got {shown(actor)}")
    if random and actor != TABLE:
        raise PayloadError(f"{type_name} is a random outcome; its actor must be '{TABLE}', got {shown(actor)}")
    if type(payload) is not dict:
        raise PayloadError(f"payload must be an object, got {shown(payload)}")
    try:
        if len(payload) == len(fields):  # as many fields as KINDS, each of them: exactly those
            return read(actor, payload)
    except KeyError:
        pass
    names = set(fields)
    missing = sorted(names - set(payload))
    extra = sorted(set(payload) - names)
    what = "; ".join(p for p in (missing and f"missing {shown(missing)}", extra and f"unexpected {shown(extra)}") if p)
    raise PayloadError(f"{type_name} payload: {what}")
