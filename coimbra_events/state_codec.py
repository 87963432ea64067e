"""A game state as plain JSON values, and back; and its digest.

A state is written as exactly what state equality compares (``Record.COMPARED``):
the catalog and the name index are the game's setting, given again when a state
is read back. Records are objects tagged with their class (``"_": "PlayerState"``),
tuples are lists, the set of dealt cards is a sorted list.

Two uses: the stored game's snapshot keeps its table this way (``coimbra_events.game``),
and ``digest`` names a state by the SHA-256 of its canonical JSON, the same in the
compiled and the pure-Python build, which the golden corpus pins at every phase
boundary (``fixtures/corpus``).
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

from coimbra_events.catalog import Catalog
from coimbra_events.record import Record
from coimbra_events.state import GameState, Pending, PlayerState, Slot

_RECORDS: dict[str, type[Record]] = {cls.__name__: cls for cls in (GameState, Pending, PlayerState, Slot)}
_SET = "frozenset"


class StateCodecError(ValueError):
    """Data that is not a state this code writes (another version's snapshot, say)."""


def encode(value: Any) -> Any:
    """A state (or any part of one) as JSON values."""
    if isinstance(value, Record):
        out: dict[str, Any] = {"_": type(value).__name__}
        for name in value.COMPARED:
            out[name] = encode(getattr(value, name))
        return out
    if isinstance(value, tuple):
        return [encode(v) for v in value]
    if isinstance(value, frozenset):
        return {"_": _SET, "items": sorted(value)}
    if value is None or isinstance(value, (str, int)):
        return value
    raise TypeError(f"a state holds no {type(value).__name__}: {value!r}")


def decode(data: Any, catalog: Catalog) -> GameState:
    """The state ``encode`` wrote, in this catalog; ``StateCodecError`` for anything else."""
    if type(data) is not dict or data.get("_") != "GameState" or data.keys() != _KEYS["GameState"]:
        raise StateCodecError(f"expected a GameState, found {str(data)[:80]}")
    fields = {name: _value(data[name]) for name in GameState.COMPARED}
    players = fields["players"]
    try:
        return GameState(catalog=catalog, index={p.name: k for k, p in enumerate(players)}, **fields)
    except (TypeError, AttributeError) as exc:
        raise StateCodecError(f"GameState: {exc}") from None


_KEYS: dict[str, frozenset[str]] = {name: frozenset({"_", *cls.COMPARED}) for name, cls in _RECORDS.items()}


def _value(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return tuple([_value(v) for v in value])
    if kind is not dict:
        return value
    tag = value.get("_")
    if tag == _SET:
        return frozenset(value["items"])
    cls = _RECORDS.get(tag)
    if cls is None or cls is GameState or value.keys() != _KEYS[tag]:
        raise StateCodecError(f"not a record this code writes here: {tag!r} with {sorted(value)}")
    try:
        return cls(**{name: _value(value[name]) for name in cls.COMPARED})
    except TypeError as exc:
        raise StateCodecError(f"{tag}: {exc}") from None


def dumps(state: GameState) -> bytes:
    """The canonical JSON of a state: keys sorted, no spaces."""
    return orjson.dumps(encode(state), option=orjson.OPT_SORT_KEYS)


def digest(state: GameState) -> str:
    """The state's name: SHA-256 of its canonical JSON (first 16 hex digits are plenty to compare by)."""
    return hashlib.sha256(dumps(state)).hexdigest()
