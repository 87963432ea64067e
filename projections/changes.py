"""The vocabulary of what happens on the table: a ``Change`` is one thing moved, or one value turned.

Every consequence of an entry (``projections.consequences``), every difference
between two tables (``projections.tabletop``) and every move of ``diff --table``
is a list of changes. A change says who it concerns, what moves, from where to
where (or from which value to which), the rule that caused it and the facts that
decided it. Its fields are structured, so a table can be put through them
(``tabletop.apply_changes``); ``to_json`` says it in the game's words, with the
catalog's names beside ids: ``{"who": "Ana", "what": "Crossbowman (c-II-02)",
"from": "central city row", "to": "discard pile", "rule": "C.token-discard", ...}``,
or, given the table it is made on, as the players' pages say it: ``"what": "Crossbowman"``,
``"what": "the gray die showing 4"``.

Things lie in places: a place is a tuple naming it (``("row", "central")``,
``("cards", "Ana")``, ``("track", "gray", 5)``), and a thing is ``(kind, label)``,
the label being what the place holds (a card id, a die, a player's name for a
disc, lion or pilgrim). Values are keyed the same way: ``("coins", "Ana")``,
``("roll", "gray-1")`` (the face a die shows), ``("face", "token-upper-1")`` (a die token's), ``("phase", "")``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from coimbra_events.catalog import Catalog
from coimbra_events.state import TABLE, GameState
from projections.board import PHASE_NAMES
from projections.naming import name_of, named
from projections.table_words import LOCATIONS, die_words, space_words

Place = tuple[Any, ...]
Key = tuple[str, str]

VALUES: frozenset[str] = frozenset({"coins", "guards", "points", "place", "roll", "face", "round", "phase", "deck"})
"""Kinds of ``Change.what`` that are values (a marker's space, a die's face); the others are things that move."""

_VALUE_WORDS = {"coins": "coin marker", "guards": "guard marker", "points": "disc on the scoring track",
                "place": "final place", "round": "round", "phase": "phase", "deck": "character deck (cards)"}

_ZONES = {"immediate": "immediate bonus zone", "phase_c": "phase C bonus zone", "phase_e": "phase E bonus zone",
          "end_game": "end-game bonus zone"}
"""Where a character card goes on its owner's board, by the timing of its bonus (rules text 000, phase C)."""

_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}

_PLACE_WORDS = {
    "row": "{} city row", "discard": "discard pile", "deck": "character deck", "group": "start group {}",
    "castle": "beside the castle", "favor tiles": "{}'s favor tiles", "crown tokens": "in front of {}",
    "dice area": "dice area", "shutter": "{}'s shutter spaces", "pile": "monastery pile {}", "map": "map space {}",
    "above": "above the {} track", "voyage space": "voyage space {}", "flag": "flag {}",
    "beside board": "beside {}'s board", "space": "map space {}",
}
"""A place in words, its argument (a city, a player, a space) filled in; the places that name a component are words of their own."""


@dataclass(frozen=True)
class Change:
    """One change of the table: ``what`` moves from ``src`` to ``dst`` (places), or turns from value to value.

    ``at`` is the position a thing takes in an ordered place (a die in a
    location's row; ``None``: at the end, or on top); ``amount`` what a gain
    or payment was worth before a limit cut it; ``source`` the rules' name for
    where a resource came from. ``rule`` is ``None`` only for the moves that
    turn one game's table into another's (``diff --table``).
    """

    who: str
    what: Key
    src: Any
    dst: Any
    rule: str | None
    facts: Mapping[str, Any] = field(default_factory=dict)
    at: int | None = None
    amount: int = 0
    source: str = ""
    catalog: Catalog | None = field(default=None, compare=False, repr=False)
    monasteries: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_value(self) -> bool:
        return self.what[0] in VALUES

    def to_json(self, before: GameState | None = None) -> dict[str, Any]:
        """The change in the game's words: exactly ``who``, ``what``, ``from``, ``to``, ``rule`` and ``facts``.

        Components are named with their ids beside (the terminal's and ``--json``'s words, which a person types
        back); given ``before``, the table the change is made on, as the players' pages say it, with no ids:
        printed names alone, dice by colour and the value they show there. The facts keep their ids (for programs).
        """
        if self.is_value:
            src, dst = _value_words(self.what, self.src), _value_words(self.what, self.dst)
        else:
            src, dst = self._place_words(self.src, None, before), self._place_words(self.dst, self.at, before)
        return {"who": self.who, "what": self._what_words(before), "from": src, "to": dst, "rule": self.rule,
                "facts": plain(self.facts)}

    def _name(self, ident: str, before: GameState | None) -> str:
        if self.catalog is None:
            return ident
        return named(self.catalog, ident) if before is None else name_of(self.catalog, ident)

    def _what_words(self, before: GameState | None) -> str:
        kind, label = self.what
        if kind in _VALUE_WORDS:
            return _VALUE_WORDS[kind]
        if kind in ("roll", "die"):
            if before is None:
                return f"die {label}"
            return die_words(before, label) if kind == "die" else f"the {before.catalog.die_colors.get(label, label)} die"
        if kind in ("die token", "face"):
            return f"die token {label}" if before is None else _token_words(label)
        if kind == "crown token":
            return f"{label} crown token"
        if kind == "disc":
            track = f" on the {self.src[1]} track" if isinstance(self.src, tuple) and self.src[0] == "track" else ""
            return f"{label}'s disc{track}"
        if kind in ("lion", "pilgrim"):
            return f"{label}'s {kind}"
        return self._name(label, before)

    def _place_words(self, place: Place, at: int | None, before: GameState | None) -> str:
        kind = place[0]
        arg = place[1] if len(place) > 1 else None
        if kind in ("cards", "start cards"):
            return f"{arg}'s {self._zone()}"
        if kind in ("location", "row"):
            where = "castle" if arg == "castle" else f"{arg} city" + (" row" if kind == "row" else "")
            return where if at is None else f"{where}, {_ORDINALS.get(at + 1, f'{at + 1}th')} from the left"
        if kind == "track":
            return f"space {place[2]}"
        if kind in ("on card", "monastery", "voyage"):
            return f"on {self._name(str(arg), before)}"
        if kind == "supply":
            return "the supply" if arg is None else f"{arg}'s supply"
        if kind in ("map", "space") and self.catalog is not None:
            words = space_words(self.catalog, str(arg), self.monasteries, unnamed="")
            if before is not None:
                return words or "the map"
            return f"{words} ({arg})" if words else f"map space {arg}"
        if kind == "pile" and self.catalog is not None and self.what[1] in self.catalog.characters:
            return f"character pile {arg}"
        words = _PLACE_WORDS.get(kind)
        return " ".join(str(p) for p in place) if words is None else words.format(arg)

    def _zone(self) -> str:
        """The zone of its owner's board a character card lies in (start cards by their bonus too)."""
        if self.catalog is None or self.what[1] not in self.catalog.characters:
            return "cards"
        return _ZONES.get(self.catalog.characters[self.what[1]].timing or "", "cards")


def _token_words(token: str) -> str:
    """A die token (``token-upper-1``: the rules' id of the 1st token of the upper city) as the table sees it."""
    _, location, k = token.split("-", 2)
    return f"die token {k} of {LOCATIONS.get(location, location)}"


def _value_words(key: Key, value: Any) -> Any:
    if key[0] == "phase" and value in PHASE_NAMES:
        return PHASE_NAMES[value]
    return value


def plain(value: Any) -> Any:
    """Facts as JSON values: tuples and sets become lists, mapping keys strings."""
    if isinstance(value, (str, int)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list, set, frozenset)):
        return [plain(v) for v in value]
    return {str(k): plain(v) for k, v in value.items()} if isinstance(value, Mapping) else value


def tier_words(tier: Any) -> str:
    """A tier of the income table by its spaces: ``4-6``, or ``0`` for a tier of one space."""
    low, high = tier
    return str(low) if low == high else f"{low}-{high}"


def who_of(key_or_place: tuple[Any, ...]) -> str | None:
    """The player a value or a place belongs to, if it is a player's."""
    kind = key_or_place[0]
    if kind in PLAYER_PLACES or kind in ("coins", "guards", "points", "place") or (kind == "supply" and len(key_or_place) > 1):
        return str(key_or_place[1])
    return None


PLAYER_PLACES: frozenset[str] = frozenset({"start cards", "cards", "favor tiles", "crown tokens", "shutter", "beside board"})
"""Places that belong to one player (the second element of the place names them)."""

__all__ = ["Change", "Key", "PLAYER_PLACES", "Place", "TABLE", "VALUES", "plain", "tier_words", "who_of"]
