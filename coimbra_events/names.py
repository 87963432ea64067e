"""What a typed name means: a catalog component (or a player) from its name, its id, or the start of either.

People at the table read names off the components ("Chaplain"), not ids
(``c-II-18``). ``Names`` turns what was typed into the id the log keeps,
whatever the case and accents ("lorvao" is Lorvão), and accepts the start
of a name or id when only one component of that kind has it. A name that
fits nothing is bad input (``UnknownName``, with the closest names); it is
never guessed. Whether the component may be used *now* (a card in the row,
a voyage on the board) is for the rules to say, not for this module.

``notation.parse`` takes a ``Names`` to read names in the fields that hold
components (``FIELDS``); the log always keeps ids.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from coimbra_events.catalog import Catalog
from coimbra_events.events import MonasteriesDrawn

KIND_WORDS: Mapping[str, str] = {
    "characters": "character card",
    "favor_tiles": "favor tile",
    "monasteries": "monastery",
    "voyages": "voyage",
    "scoring_tiles": "scoring tile",
    "spaces": "map space",
    "players": "player",
}
"""Each kind of named thing, in the game's words (for messages)."""

FIELDS: Mapping[str, Mapping[str, str]] = {
    "CardBought": {"card": "characters"},
    "FavorTileTaken": {"tile": "favor_tiles"},
    "VoyageInvested": {"voyage": "voyages"},
    "MonasteriesDrawn": {"placement": "monasteries"},
    "ScoringTilesPlaced": {"tiles": "scoring_tiles"},
    "VoyagesDrawn": {"voyages": "voyages"},
    "CharacterRowsDealt": {"rows": "characters"},
    "StartGroupsDealt": {"groups": "characters"},
    "SeatingDrawn": {"order": "players"},
    "PilgrimPlaced": {"space": "spaces"},
    "PilgrimStepped": {"to": "spaces"},
}
"""Payload fields that name components (or players), by event type: the kind each holds.

For a map field the values are the names (the keys are map spaces, tracks or cities)."""

SUGGESTIONS = 3
"""Closest names offered for a name that fits nothing."""
LISTED = 6
"""Candidates listed for a start that fits several."""

_NAMED_ID = re.compile(r"(?P<name>.*?)\s*\((?P<id>[^()\s]+)\)\s*")
"""``Chaplain (c-II-18)``: a name as the tool prints it, with its id."""


class UnknownName(ValueError):
    """A typed name, id or start that fits no component of its kind, or several."""


def fold(text: str) -> str:
    """``Lorvão`` and ``LORVAO`` alike: no accents, case folded, single spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


@dataclass(frozen=True)
class NamedComponent:
    ident: str
    name: str


class Kind:
    """The components of one kind, indexed by their folded ids and names."""

    def __init__(self, kind: str, entries: Iterable[NamedComponent]) -> None:
        self.kind = kind
        self.entries = tuple(entries)
        self._exact: dict[str, str] = {}
        for e in self.entries:
            self._exact.setdefault(fold(e.name), e.ident)
        for e in self.entries:  # an id wins over a name that happens to read the same
            self._exact[fold(e.ident)] = e.ident
        self._names: dict[str, str] = {}
        for e in self.entries:  # a component listed under several names is shown by the first
            self._names.setdefault(e.ident, e.name)

    def name(self, ident: str) -> str:
        """The name ``ident`` is shown by (the id itself if it has none)."""
        return self._names.get(ident, ident)

    def shown(self, ident: str) -> str:
        name = self._names.get(ident, ident)
        return ident if name == ident else f"{name} ({ident})"

    def resolve(self, typed: str) -> str:
        """The id ``typed`` means; ``UnknownName`` if it fits none, or several."""
        key = fold(typed)
        found = self._exact.get(key)
        if found is not None:
            return found
        named = _NAMED_ID.fullmatch(typed)
        if named is not None and fold(named.group("id")) in self._exact:
            return self._exact[fold(named.group("id"))]
        starting = list(dict.fromkeys(
            e.ident for e in self.entries if key and (fold(e.ident).startswith(key) or fold(e.name).startswith(key))))
        if len(starting) == 1:
            return starting[0]
        what = KIND_WORDS[self.kind]
        if starting:
            listed = ", ".join(self.shown(i) for i in starting[:LISTED])
            more = f" and {len(starting) - LISTED} more" if len(starting) > LISTED else ""
            raise UnknownName(f"'{typed}' could be the {what} {listed}{more}: type more of the name")
        raise UnknownName(f"no {what} is called '{typed}'{self._closest(key)}")

    def _closest(self, key: str) -> str:
        spelled = {fold(e.name): e.ident for e in self.entries} | {fold(e.ident): e.ident for e in self.entries}
        near = difflib.get_close_matches(key, list(spelled), n=SUGGESTIONS, cutoff=0.6)
        found = list(dict.fromkeys(spelled[k] for k in near))
        if not found:
            return f"; {self._all()}"
        return "; did you mean " + " or ".join(self.shown(i) for i in found) + "?"

    def _all(self) -> str:
        if self.kind == "players":
            return "the players are " + ", ".join(e.name for e in self.entries)
        return f"coimbra catalog show lists every {KIND_WORDS[self.kind]}"


def space_entries(catalog: Catalog, placement: Mapping[str, str]) -> list[NamedComponent]:
    """The map's spaces under the names people say: a monastery space by the monastery laid on it
    (``placement``: space -> monastery id), then by the name the catalog gives the space, if any."""
    monasteries = catalog.monasteries
    entries = [NamedComponent(space, monasteries[tile].name) for space, tile in placement.items() if tile in monasteries]
    spaces = catalog.map.spaces.values()
    return entries + [NamedComponent(s.id, s.name) for s in spaces if s.name] + [NamedComponent(s.id, s.id) for s in spaces]


class Names:
    """Every named thing of one game: the catalog's components, the map's spaces and the players.

    ``placement`` (map space -> monastery id, once the monastery tiles are drawn) names the
    monastery spaces by their monasteries. Without ``players`` (``None``), player names are taken as written."""

    def __init__(self, catalog: Catalog, players: Sequence[str] | None,
                 placement: Mapping[str, str] | None = None) -> None:
        self.catalog = catalog
        self.kinds: dict[str, Kind] = {
            table: Kind(table, (NamedComponent(i, item.name) for i, item in getattr(catalog, table).items()))
            for table in KIND_WORDS if table not in ("players", "spaces")
        }
        self.kinds["spaces"] = Kind("spaces", space_entries(catalog, placement or {}))
        if players is not None:
            self.kinds["players"] = Kind("players", (NamedComponent(p, p) for p in players))

    def resolve(self, kind: str, typed: str) -> str:
        """The id (or player name) ``typed`` means in a field of this kind; ``UnknownName`` if none or several.
        Without players, a player's name is taken as written."""
        if kind not in self.kinds and kind == "players":
            return typed
        return self.kinds[kind].resolve(typed.strip())

    def payload(self, event_type: str, payload: dict[str, Any]) -> dict[str, Any]:
        """The payload with every name in a component field replaced by its id (other fields as they are)."""
        return self._fields(event_type, payload, lambda kind, typed: self.resolve(kind, typed))

    def named_payload(self, event_type: str, payload: dict[str, Any]) -> dict[str, Any]:
        """The payload with every id in a component field replaced by its name (``payload`` reversed)."""
        return self._fields(event_type, payload, lambda kind, ident: self.kinds[kind].name(ident))

    def _fields(self, event_type: str, payload: dict[str, Any], turn: Callable[[str, str], str]) -> dict[str, Any]:
        """``payload`` with ``turn(kind, text)`` applied to every string of its component fields (map values,
        list items); fields of a kind this ``Names`` does not hold (players, without them) as they are."""
        fields = FIELDS.get(event_type, {})

        return {key: map_strings(value, lambda text, kind=fields[key]: turn(kind, text))
                if fields.get(key) in self.kinds else value for key, value in payload.items()}

    def holds_names(self, event_type: str, field: str) -> bool:
        """Whether a field of this event type is read as names (so it may hold spaces)."""
        return field in FIELDS.get(event_type, {})


class SpokenNames:
    """The names a record's entries are written and read by, as the entries so far set them: the catalog's
    names, the players', and a monastery space by the monastery drawn onto it (the move list's)."""

    def __init__(self, catalog: Catalog, players: Sequence[str] | None) -> None:
        self.catalog, self.players = catalog, players
        self.names = Names(catalog, players)

    def saw(self, entry: Mapping[str, Any]) -> None:
        """Take in an entry written or read: a monastery draw names the map's monastery spaces from here on."""
        if entry.get("type") == MonasteriesDrawn.TYPE and isinstance(entry.get("payload"), dict):
            placement = entry["payload"].get("placement")
            if isinstance(placement, dict):
                self.names = Names(self.catalog, self.players, {str(k): str(v) for k, v in placement.items()})


__all__ = ["FIELDS", "KIND_WORDS", "Names", "SpokenNames", "UnknownName", "fold", "space_entries"]


def map_strings(value: Any, turn: Callable[[str], Any]) -> Any:
    """``value`` (JSON-shaped: lists, dicts, scalars) with every string in it turned by ``turn``."""
    if isinstance(value, str):
        return turn(value)
    if isinstance(value, list):
        return [map_strings(v, turn) for v in value]
    if isinstance(value, dict):
        return {k: map_strings(v, turn) for k, v in value.items()}
    return value
