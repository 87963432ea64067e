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
from coimbra_events.state import GameState, Pending, PlayerState, Record, Slot

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
    state = _decode(data, catalog)
    if type(state) is not GameState:
        raise StateCodecError(f"expected a GameState, found {type(state).__name__}")
    return state


def _decode(value: Any, catalog: Catalog) -> Any:
    if isinstance(value, list):
        return tuple(_decode(v, catalog) for v in value)
    if not isinstance(value, dict):
        return value
    kind = value.get("_")
    if kind == _SET:
        return frozenset(value["items"])
    cls = _RECORDS.get(kind)
    if cls is None or set(value) != {"_", *cls.COMPARED}:
        raise StateCodecError(f"not a record this code writes: {kind!r} with {sorted(value)}")
    fields = {name: _decode(value[name], catalog) for name in cls.COMPARED}
    if cls is GameState:
        fields.update(catalog=catalog, index={p.name: k for k, p in enumerate(fields["players"])})
    try:
        return cls(**fields)
    except TypeError as exc:
        raise StateCodecError(f"{kind}: {exc}") from None


def dumps(state: GameState) -> bytes:
    """The canonical JSON of a state: keys sorted, no spaces."""
    return orjson.dumps(encode(state), option=orjson.OPT_SORT_KEYS)


def digest(state: GameState) -> str:
    """The state's name: SHA-256 of its canonical JSON (first 16 hex digits are plenty to compare by)."""
    return hashlib.sha256(dumps(state)).hexdigest()
