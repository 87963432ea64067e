"""A short text notation for every event, made for typing at the table.

One line per event: an optional ``Name:`` prefix, a verb, then the event's
fields in order::

    Ana: place gray-1 castle          table: roll gray-1=3 gray-2=5 ...
    Ana: alt 2c 1g                    table: rows central=c-II-01,c-II-02,... lower=... upper=...
    income extra green                (the player due to act, when the prefix is left out)

The notation is a second spelling of the log's payload, not a second model:
``parse`` builds the JSON payload and decodes it with
:func:`coimbra_events.event_decoding.decode_event`, and ``render`` reads
``GameEvent.payload()``. So an event that renders also parses back to an equal
event, and a typed line is refused for the same shape errors as a log entry.
Whether the event is *legal* is for the rules core to say, not for this module.
The full notation is documented in ``docs/notation.md``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from coimbra_events import events as ev
from coimbra_events.event_decoding import PayloadError, decode_event
from coimbra_events.events import GameEvent
from coimbra_events.names import Names, UnknownName
from coimbra_events.state import TABLE


class NotationError(ValueError):
    """A line that is not valid notation; the message says what was expected, on one line."""


@dataclass(frozen=True)
class Verb:
    """One verb of the notation: the event type it writes, its arguments and an example."""

    word: str
    event: type[GameEvent]
    usage: str
    example: str
    free_text: bool = False  # the last field takes the rest of the line (notes, reasons)

    @property
    def random(self) -> bool:
        """Table outcomes (dice, dealt cards, drawn tiles) are always written ``table: ...``."""
        return self.event.RANDOM


VERBS: tuple[Verb, ...] = (
    Verb("group", ev.StartGroupTaken, "group N", "Ana: group 2"),
    Verb("pilgrim", ev.PilgrimPlaced, "pilgrim SPACE", "Ana: pilgrim start-n"),
    Verb("track", ev.TrackChosen, "track TRACK", "Ana: track gray"),
    Verb("step", ev.PilgrimStepped, "step SPACE", "Ana: step blue-n1"),
    Verb("stop", ev.PilgrimStopped, "stop", "Ana: stop"),
    Verb("place", ev.DiePlaced, "place DIE LOCATION", "Ana: place gray-1 castle"),
    Verb("tile", ev.FavorTileTaken, "tile TILE", "Ana: tile f-2"),
    Verb("buy", ev.CardBought, "buy CARD", "Ana: buy c-II-05"),
    Verb("alt", ev.AlternativeTaken, "alt Nc Ng", "Ana: alt 2c 1g"),
    Verb("income", ev.IncomeActivated, "income DIE|extra TRACK", "Ana: income purple-1 purple"),
    Verb("exchange", ev.PointsExchanged, "exchange coins|guards TIMES", "Ana: exchange guards 2"),
    Verb("end", ev.IncomeEnded, "end", "Ana: end"),
    Verb("invest", ev.VoyageInvested, "invest VOYAGE", "Ana: invest v-03"),
    Verb("pass", ev.VoyagePassed, "pass", "Ana: pass"),
    Verb("monasteries", ev.MonasteriesDrawn, "monasteries SPACE=TILE ...", "table: monasteries blue-e1=m-I-06 red-n=m-III-01 ..."),
    Verb("scoring", ev.ScoringTilesPlaced, "scoring TRACK=TILE ...",
         "table: scoring gray=score-4 green=score-3 orange=score-2 purple=score-1"),
    Verb("voyages", ev.VoyagesDrawn, "voyages V,V,...", "table: voyages v-05,v-12,v-13,v-04,v-10,v-02"),
    Verb("seating", ev.SeatingDrawn, "seating NAME,NAME,...", "table: seating Bruno,Ana,Carla"),
    Verb("rows", ev.CharacterRowsDealt, "rows CITY=CARD,CARD,... ...",
         "table: rows upper=c-II-01,c-II-02,c-II-03,c-II-04 central=... lower=..."),
    Verb("groups", ev.StartGroupsDealt, "groups CARD+CARD ...", "table: groups c-I-01+c-I-02 c-I-03+c-I-04"),
    Verb("roll", ev.DiceRolled, "roll DIE=VALUE ...", "table: roll gray-1=3 gray-2=5 ..."),
    Verb("correct", ev.Corrected, "correct SEQ", "table: correct 12"),
    Verb("retract", ev.Retracted, "retract SEQ", "table: retract 57"),
    Verb("override", ev.RuleOverridden, "override RULE REASON...", "table: override C.cost the table allowed it", free_text=True),
    Verb("note", ev.Noted, "note SEQ TEXT...", "Ana: note 12 dice knocked over, re-rolled", free_text=True),
    Verb("bookmark", ev.Bookmarked, "bookmark SEQ LABEL...", "table: bookmark 40 the big castle turn", free_text=True),
)
"""Every verb, decisions first; each event type has exactly one."""

BY_WORD: dict[str, Verb] = {v.word: v for v in VERBS}
BY_TYPE: dict[str, Verb] = {v.event.TYPE: v for v in VERBS}

_HISTORY = frozenset(ev.HISTORY_TYPES)
_DECISIONS = ", ".join(v.word for v in VERBS if not v.random and v.event not in _HISTORY)
_OUTCOMES = ", ".join(v.word for v in VERBS if v.random)
_RECORD = ", ".join(v.word for v in VERBS if v.event in _HISTORY)
VERB_LIST = f"decisions: {_DECISIONS}; table outcomes: {_OUTCOMES}; about the record: {_RECORD}"

_TOKEN = re.compile(r"[^\s:,=+]+")
"""A value written as one word: no spaces and none of the notation's separators."""
_ITEM = re.compile(r"[^\s:,=+]+(?: [^\s:,=+]+)*")
"""A comma-list item may hold single inner spaces (a player called 'Ana Maria')."""
_INT = re.compile(r"-?\d+")
_AMOUNT = re.compile(r"(-?\d+)([cg])")
_ALT_UNITS = {"c": "coins", "g": "guards"}


def is_name(value: str) -> bool:
    """Whether a player name can be written in notation (words without ':', ',', '=' or '+')."""
    return bool(_ITEM.fullmatch(value))


# --- rendering -------------------------------------------------------------------------------


def render(event: GameEvent, names: Names | None = None) -> str:
    """The event as one line of notation, always with its actor (``Ana: buy c-II-05``); with ``names``,
    components by the names people read (``Ana: buy Castellan``), as ``parse`` reads them with those names.

    Raises ``NotationError`` for a value the notation cannot write (a name
    holding a comma or colon, say); the game store never creates such names.
    A name that would not read back (a separator in it) is for the caller to
    check: ``parse`` the line with the same names.
    """
    verb = BY_TYPE[event.TYPE]
    if verb.event is ev.AlternativeTaken:
        args = [f"{event.coins}c", f"{event.guards}g"]
    else:
        payload = event.payload() if names is None else names.named_payload(event.TYPE, event.payload())
        fields = list(event.KINDS.items())
        last = len(fields) - 1
        args = [
            _free_text(payload[name]) if verb.free_text and k == last
            else _render_name(kind, payload[name]) if names is not None and names.holds_names(event.TYPE, name)
            else _render_field(kind, payload[name])
            for k, (name, kind) in enumerate(fields)
        ]
    actor = _checked(event.actor, _ITEM, "an actor")
    return " ".join([f"{actor}:", verb.word, *(a for a in args if a)])


def _checked(value: str, pattern: re.Pattern[str], what: str) -> str:
    if not pattern.fullmatch(value):
        raise NotationError(f"{value!r} cannot be written as {what} in notation (no spaces, ':', ',', '=' or '+')")
    return value


def _free_text(value: str) -> str:
    if "\n" in value or value != value.strip():
        raise NotationError(f"{value!r} cannot be written in notation (one line, no leading or trailing spaces)")
    return value


def _word(value: Any) -> str:
    return str(value) if type(value) is int else _checked(value, _TOKEN, "a word")


def _items(values: list[Any], pattern: re.Pattern[str] = _TOKEN) -> str:
    return ",".join(_checked(v, pattern, "a list item") for v in values)


def _render_field(kind: str, value: Any) -> str:
    if kind in ("str", "int"):
        return _word(value)
    if kind == "strs":
        return _items(value, _ITEM)
    if kind == "groups":
        return " ".join("+".join(_word(c) for c in group) for group in value)
    # maps: str_map, int_map, strs_map
    return " ".join(f"{_word(k)}={_items(v) if isinstance(v, list) else _word(v)}" for k, v in value.items())


def _render_name(kind: str, value: Any) -> str:
    """A field read as names (``_SPACED``): names may hold spaces, groups are parted by commas."""
    if kind == "str":
        return _free_text(value)
    if kind == "groups":
        return ", ".join("+".join(_free_text(c) for c in group) for group in value)
    if kind == "strs":
        return ",".join(_free_text(v) for v in value)
    return " ".join(f"{_word(k)}={','.join(v) if isinstance(v, list) else v}" for k, v in value.items())


# --- parsing ---------------------------------------------------------------------------------


def parse(text: str, default_actor: str | None = None, names: Names | None = None) -> GameEvent:
    """Read one line of notation into an event.

    ``default_actor`` (normally the player due to act) is used when the line
    has no ``Name:`` prefix; table outcomes are always the table's. With
    ``names`` (a game's catalog and players), components may be written by
    name, id or the start of either, in any case (``buy chaplain``), and the
    event holds their ids. Raises ``NotationError`` with a one-line message
    naming what was expected.
    """
    actor, rest = _split_actor(text)
    words = rest.split(None, 1)
    if not words:
        raise NotationError(f"empty decision; expected '[Name:] VERB ARGS' with a verb from {VERB_LIST}")
    verb = BY_WORD.get(words[0].lower())
    if verb is None:
        raise NotationError(f"unknown verb {words[0]!r}{did_you_mean(words[0], BY_WORD)}; expected {VERB_LIST}")
    actor = _actor_for(verb, actor, default_actor)
    args = words[1] if len(words) > 1 else ""
    try:
        payload = _alt_payload(args) if verb.event is ev.AlternativeTaken else _payload(verb, args, names)
        if names is not None:
            payload = names.payload(verb.event.TYPE, payload)
        return decode_event(verb.event.TYPE, actor, payload)
    except UnknownName as exc:
        raise NotationError(str(exc)) from None
    except (NotationError, PayloadError) as exc:
        raise NotationError(f"'{verb.word}' expects '{verb.usage}' (e.g. '{verb.example}'): {exc}") from None


def did_you_mean(typed: str, words: Iterable[str]) -> str:
    """`` (did you mean 'place'?)`` for a mistyped word close to one of ``words``; empty if none is close."""
    near = difflib.get_close_matches(typed.lower(), list(words), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(w) for w in near)}?)" if near else ""


def _split_actor(text: str) -> tuple[str | None, str]:
    if ":" not in text:
        return None, text.strip()
    actor, rest = text.split(":", 1)
    actor = actor.strip()
    if not actor:
        raise NotationError("nothing before ':'; expected 'Name: VERB ARGS' (or leave out 'Name:' for the player due)")
    return actor, rest.strip()


def _actor_for(verb: Verb, actor: str | None, default_actor: str | None) -> str:
    if verb.event in _HISTORY and actor is None and default_actor is None:
        return TABLE
    if verb.random:
        if actor is not None and actor.lower() != TABLE:
            raise NotationError(f"'{verb.word}' is a table outcome; write '{TABLE}: {verb.usage}', not '{actor}: ...'")
        return TABLE
    if actor is None:
        if default_actor is None:
            raise NotationError(f"who decides? write 'Name: {verb.usage}' (e.g. '{verb.example}')")
        return default_actor
    return actor


def _payload(verb: Verb, args: str, names: Names | None = None) -> dict[str, Any]:
    """Positional fields take one word each; a list or map field (always last) takes the rest.

    A field read as names (``names``) may hold spaces: a name field takes the
    rest of the line, map values run up to the next ``KEY=``, and groups may
    be separated by commas (``groups Student + Tutor, Novice + Town Sergeant``).
    """
    kinds = list(verb.event.KINDS.items())
    rest = args
    payload: dict[str, Any] = {}
    for k, (name, kind) in enumerate(kinds):
        spaced = names is not None and names.holds_names(verb.event.TYPE, name)
        if (verb.free_text or spaced and kind == "str") and k == len(kinds) - 1:
            if not rest.strip():
                raise NotationError(f"missing {name.upper()}")
            payload[name] = rest.strip()
            rest = ""
        elif spaced and kind in _SPACED:
            payload[name] = _SPACED[kind](rest, name)
            rest = ""
        elif kind in ("str", "int"):
            parts = rest.split(None, 1)
            if not parts:
                raise NotationError(f"missing {name.upper()}")
            payload[name] = _int(parts[0], name) if kind == "int" else parts[0]
            rest = parts[1] if len(parts) > 1 else ""
        else:
            payload[name] = _COLLECTIONS[kind](rest, name)
            rest = ""
    if rest.strip():
        raise NotationError(f"unexpected {rest.strip()!r} at the end")
    return payload


def _int(word: str, name: str) -> int:
    if not _INT.fullmatch(word):
        raise NotationError(f"{name.upper()} must be a whole number, got {word!r}")
    return int(word)


def _list(text: str, name: str) -> list[str]:
    text = text.strip()
    return [item.strip() for item in text.split(",")] if text else []


def _groups(text: str, name: str) -> list[list[str]]:
    return [word.split("+") for word in text.split()]


def _map(value: Callable[[str, str], Any]) -> Callable[[str, str], dict[str, Any]]:
    def read(text: str, name: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for word in text.split():
            key, eq, raw = word.partition("=")
            if not eq or not key:
                raise NotationError(f"expected KEY=VALUE pairs, got {word!r}")
            if key in out:
                raise NotationError(f"{key} is given twice")
            out[key] = value(raw, f"{name}.{key}")
        return out

    return read


_KEY = re.compile(r"\s+(?=[^\s:,=+]+=)")
"""Where the next ``KEY=`` of a map begins, when values may hold spaces."""


def _spaced_map(value: Callable[[str, str], Any]) -> Callable[[str, str], dict[str, Any]]:
    read = _map(value)

    def spaced(text: str, name: str) -> dict[str, Any]:
        pairs = [p.replace(" ", "\0") for p in _KEY.split(text.strip()) if p]
        return {k: _unspace(v) for k, v in read(" ".join(pairs), name).items()}

    return spaced


def _unspace(value: Any) -> Any:
    if isinstance(value, list):
        return [_unspace(v) for v in value]
    return value.replace("\0", " ").strip() if isinstance(value, str) else value


def _spaced_groups(text: str, name: str) -> list[list[str]]:
    if not re.search(r"[,;]", text):
        return _groups(text, name)
    return [[card.strip() for card in group.split("+")] for group in re.split(r"[,;]", text) if group.strip()]


_SPACED: dict[str, Callable[[str, str], Any]] = {
    "str_map": _spaced_map(lambda raw, name: raw),
    "strs_map": _spaced_map(_list),
    "groups": _spaced_groups,
}
"""Readers of the fields that may hold names with spaces (``strs`` lists already may)."""

_COLLECTIONS: dict[str, Callable[[str, str], Any]] = {
    "strs": _list,
    "groups": _groups,
    "str_map": _map(lambda raw, name: raw),
    "int_map": _map(_int),
    "strs_map": _map(_list),
}


def _alt_payload(args: str) -> dict[str, int]:
    """``alt 2c 1g``: amounts with a unit, in any order; a unit left out counts 0."""
    out = {"coins": 0, "guards": 0}
    seen: set[str] = set()
    for word in args.split():
        match = _AMOUNT.fullmatch(word.lower())
        if not match:
            raise NotationError(f"expected amounts like '2c' (coins) or '1g' (guards), got {word!r}")
        unit = _ALT_UNITS[match.group(2)]
        if unit in seen:
            raise NotationError(f"{unit} given twice")
        seen.add(unit)
        out[unit] = int(match.group(1))
    return out
