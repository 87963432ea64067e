"""Components named as people read them on the table: the printed name, with the id where it helps to type it.

Logs and events keep catalog ids (``c-II-02``); everything a person reads names
the component (``Crossbowman (c-II-02)``). This module is the one place that
turns an id into those words, for every kind of named component of a catalog.
"""

from __future__ import annotations

from typing import Any, Mapping

from coimbra_events.catalog import Catalog

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


def named(catalog: Catalog, ident: str) -> str:
    """``Crossbowman (c-II-02)``: the name with the id; an id the catalog does not name stays as it is."""
    found = component(catalog, ident)
    return ident if found is None else f"{found[1]} ({ident})"


def name_of(catalog: Catalog, ident: str) -> str:
    """The printed name alone (``Crossbowman``); an id the catalog does not name stays as it is."""
    found = component(catalog, ident)
    return ident if found is None else found[1]


__all__ = ["KINDS", "component", "name_of", "named"]
