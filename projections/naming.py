"""Components named as people read them on the table: the printed name, with the id where it helps to type it.

Logs and events keep catalog ids (``c-II-02``); everything a person reads names
the component (``Crossbowman (c-II-02)``). This module is the one place that
turns an id into those words, for every kind of named component of a catalog.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping

import orjson

from coimbra_events.catalog import Catalog
from coimbra_events.events import EVENT_TYPES, GameEvent
from coimbra_events.notation import NotationError, render

KINDS: tuple[tuple[str, str], ...] = (
    ("characters", "character card"),
    ("favor_tiles", "favor tile"),
    ("monasteries", "monastery"),
    ("voyages", "voyage"),
    ("scoring_tiles", "scoring tile"),
)
"""The catalog's named components: (the catalog's table, the kind in the game's words)."""


def component(catalog: Catalog, ident: str) -> tuple[str, str] | None:
    """``(kind, name)`` of the component with this id (a start card is a ``start card``), or ``None``."""
    for table, kind in KINDS:
        found: Mapping[str, Any] = getattr(catalog, table)
        item = found.get(ident)
        if item is not None:
            if table == "characters" and item.pile == "I":
                kind = "start card"
            return kind, item.name
    return None


def space_name(catalog: Catalog, ident: str, monasteries: Mapping[str, str] | None = None) -> str | None:
    """What people call a map space: the monastery laid on it (``monasteries``: space -> monastery id), else
    the catalog's name for it; ``None`` for a space without a name (or no space)."""
    tile = (monasteries or {}).get(ident)
    if tile is not None and tile in catalog.monasteries:
        return str(catalog.monasteries[tile].name)
    space = catalog.map.spaces.get(ident)
    return space.name if space is not None and space.name else None


def named(catalog: Catalog, ident: str, monasteries: Mapping[str, str] | None = None) -> str:
    """``Crossbowman (c-II-02)``: the name with the id; an id the catalog does not name stays as it is. A map
    space is named by the monastery on it (``monasteries``: space -> monastery id) or by the catalog."""
    found = component(catalog, ident)
    if found is None:
        space = space_name(catalog, ident, monasteries)
        return ident if space is None else f"{space} ({ident})"
    return f"{found[1]} ({ident})"


def name_of(catalog: Catalog, ident: str) -> str:
    """The printed name alone (``Crossbowman``); an id the catalog does not name stays as it is."""
    found = component(catalog, ident)
    return ident if found is None else found[1]


_WORD = re.compile(r"(?<![\w(-])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+(?![\w)-])")
"""A word shaped like a catalog id (``c-II-02``, ``f-1``), not already named (``… (c-II-02)``)."""


@lru_cache(maxsize=8)
def _ids(catalog: Catalog) -> frozenset[str]:
    named_spaces = (s.id for s in catalog.map.spaces.values() if s.name)
    return frozenset(i for table, _ in KINDS for i in getattr(catalog, table)) | frozenset(named_spaces)


def named_text(catalog: Catalog, text: str, monasteries: Mapping[str, str] | None = None) -> str:
    """A sentence with every catalog id in it named: ``card 'c-II-05' …`` → ``card 'Castellan (c-II-05)' …``,
    map spaces too (``monasteries``: space -> monastery id names a monastery space by its monastery), and every
    kind of entry in words (``IncomeActivated`` → ``income activated``).

    For what the rules and the notation write with ids (refusals, facts,
    entries); words that are not ids of this catalog stay as they are.
    """
    ids = _ids(catalog) | frozenset(monasteries or ())
    text = _TYPE.sub(lambda m: kind_words(m.group(0)), text)
    return _WORD.sub(lambda m: named(catalog, m.group(0), monasteries) if m.group(0) in ids else m.group(0), text)


def kind_words(event_type: str) -> str:
    """A kind of entry as people say it: ``StartGroupTaken`` → ``start group taken``."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", event_type).lower()


_TYPE = re.compile(r"\b(?:" + "|".join(sorted(EVENT_TYPES, key=len, reverse=True)) + r")\b")
"""The name of a kind of entry (``IncomeActivated``), as the rules' facts and refusals write it."""


def notation_text(event: GameEvent) -> str:
    """The event in notation, or in its log form if a value cannot be written in notation."""
    try:
        return render(event)
    except NotationError:
        return f"{event.actor}: {event.TYPE} {orjson.dumps(event.payload()).decode()}"


def said(catalog: Catalog, event: GameEvent, actor: bool = True, monasteries: Mapping[str, str] | None = None) -> str:
    """An entry in notation with its components named (``Ana: buy Castellan (c-II-05)``, ``Ana: step Celas
    (blue-e1)`` with the map's ``monasteries``); without the actor on request.

    What people read; the log and ``--json`` keep the notation with ids.
    """
    text = notation_text(event)
    return named_text(catalog, text if actor else text.split(": ", 1)[1], monasteries)


def value_text(catalog: Catalog | None, value: Any, monasteries: Mapping[str, str] | None = None) -> str:
    """A fact's value in words: lists joined by commas, ids named (given the catalog; map spaces by the
    ``monasteries`` on them), ``none`` for nothing, never a Python repr."""
    if value is None:
        return "none"
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(value_text(catalog, v, monasteries) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{k} {value_text(catalog, v, monasteries)}" for k, v in value.items()) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value) if catalog is None else named_text(catalog, str(value), monasteries)


__all__ = ["KINDS", "component", "name_of", "named", "named_text", "notation_text", "said", "space_name", "value_text"]
