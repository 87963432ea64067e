"""What every entry of a record did on the table, in order, each change with the rule that caused it.

A play is folded through ``rules.core.narrate``: the rules report each change
as they make it, with its rule id and the facts that decided it (the die
token's discard with the influence values and the tie, the income tier, the
crowns counted in phase D, the end-game scoring), so the narration is the rules'
own account, never a second derivation. History entries change the table too:
a correction or an undo puts it as the corrected line of play has it, which is
the difference of the tables before and after (``tabletop.differences``, under
``HISTORY.correction`` or ``HISTORY.undo``, with facts naming the entries); a
table-accepted rule break is narrated like any play; notes and the entries that
introduce a correction or an override change nothing.

``fold`` runs once over a record and keeps, per entry, the state after it and
what the rules told (cheap native records); ``Changes`` turns an entry's into
``Change`` objects, in the game's words, when it is first read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence, overload

from coimbra_events.events import Bookmarked, Corrected, GameEvent, Noted, Retracted, RuleOverridden
from coimbra_events.history import is_plain, replay, resolve
from coimbra_events.rules import narration as n
from coimbra_events.rules.core import check, narrate
from coimbra_events.rules.narration import Told
from coimbra_events.state import TABLE, GameState
from projections.changes import Change, Place
from projections.tabletop import differences, tabletop


@dataclass(frozen=True)
class Restated:
    """A history entry whose changes are the difference of the tables before and after it."""

    rule: str
    facts: Mapping[str, Any]


Entry = tuple[Told, ...] | Restated
"""What the fold keeps of one entry: what the rules told while it was played, or a history entry's rule."""


@dataclass(frozen=True)
class Folded:
    """A record folded once: ``states[k]`` the table after ``k`` entries, ``entries[k - 1]`` what entry ``k`` did."""

    states: tuple[GameState, ...]
    entries: tuple[Entry, ...]


def fold(initial: GameState, events: Sequence[GameEvent], start: int = 0, state: GameState | None = None) -> Folded:
    """Every entry from ``start`` on, folded once from the table after ``start`` entries (``state``).

    A plain record is only narrated (its events were checked when recorded); in
    a record with history entries a game event is checked first and skipped
    when illegal where it now stands, and where a history entry changes the
    line of play, the line is resolved and replayed once, as ``history`` reads it.
    """
    checked = not is_plain(events)
    state = initial if state is None else state
    states, entries = [state], []
    introduced = type(events[start - 1]) if start and type(events[start - 1]) in (Corrected, RuleOverridden) else None
    for k in range(start + 1, len(events) + 1):
        event = events[k - 1]
        kind = type(event)
        entry: Entry = ()
        if kind is Corrected or kind is RuleOverridden:
            introduced = kind
        elif introduced is not None or kind is Retracted:
            before, state = state, replay(initial, resolve(events[:k]), stop_at_violation=False).state
            entry = _history_entry(before, state, events, k, introduced)
            introduced = None
        elif kind is not Noted and kind is not Bookmarked and (not checked or check(state, event) is None):
            state, told = narrate(state, event)
            entry = tuple(told)
        states.append(state)
        entries.append(entry)
    return Folded(tuple(states), tuple(entries))


def _history_entry(before: GameState, after: GameState, events: Sequence[GameEvent], k: int,
                   introduced: type | None) -> Entry:
    """What a correction's replacement, an accepted rule break or an undo did (entry ``k``)."""
    event = events[k - 1]
    if introduced is RuleOverridden:
        narrated, told = narrate(before, event) if after != before else (before, [])
        if narrated == after:
            return tuple(told)
        return Restated("HISTORY.override", {"override": k - 1, "move": k, "rule": events[k - 2].rule})
    if introduced is Corrected:
        return Restated("HISTORY.correction", {"correction": k - 1, "corrects": events[k - 2].seq, "replacement": k})
    return Restated("HISTORY.undo", {"retraction": k, "withdrew": event.seq})


class Changes(Sequence[tuple[Change, ...]]):
    """``changes[k]``: what entry ``k`` changed on the table, in order (``changes[0]``: nothing, no entry yet).

    Each entry's changes are put in words the first time they are read, from
    what the fold kept (a ``Folded``, or a ``Timeline``); nothing is folded again.
    """

    def __init__(self, folded: Folded | Any) -> None:
        self._folded = folded
        self._made: dict[int, tuple[Change, ...]] = {}

    def __len__(self) -> int:
        return len(self._folded.states)

    @overload
    def __getitem__(self, k: int) -> tuple[Change, ...]: ...

    @overload
    def __getitem__(self, k: slice) -> Sequence[tuple[Change, ...]]: ...

    def __getitem__(self, k: int | slice) -> Any:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if not 0 <= k < len(self):
            raise IndexError(k)
        made = self._made.get(k)
        if made is None:
            made = self._made[k] = () if k == 0 else entry_changes(self._folded.states[k - 1], self._folded.states[k],
                                                                    self._folded.entries[k - 1])
        return made


def entry_changes(before: GameState, after: GameState, entry: Entry) -> tuple[Change, ...]:
    """One entry's changes: what the rules told, in words, or a history entry's difference of tables."""
    if isinstance(entry, Restated):
        return tuple(differences(tabletop(before), tabletop(after), before.catalog, entry.rule, entry.facts))
    names = [p.name for p in before.players]
    return tuple(told_change(t, names, before) for t in entry)


def entries_since(state: GameState, initial: GameState, events: Sequence[GameEvent],
                  start: int) -> list[tuple[int, tuple[Change, ...]]]:
    """What each entry after the first ``start`` did on the table, from ``state`` (the table after ``start``).

    For a command that has just stored entries: only the new ones are folded.
    """
    folded = fold(initial, events, start, state)
    return [(start + j + 1, entry_changes(folded.states[j], folded.states[j + 1], entry))
            for j, entry in enumerate(folded.entries)]


# --- what the rules told, as changes of the table ---------------------------------------------------

_SIMPLE_PLACES = {n.DECK: ("deck",), n.DISCARD: ("discard",), n.CASTLE_TILES: ("castle",), n.DICE_AREA: ("dice area",),
                  n.SUPPLY: ("supply",)}
_PLAYER_PLACES = {n.START_CARDS, n.CARDS, n.HELD_TILES, n.HELD_TOKENS, n.SHUTTER}
_PREFIXED = {n.ROW: "row", n.GROUP: "group", n.ON_CARD: "on card", n.LOCATION: "location", n.PILE: "pile", n.MAP: "map",
             n.ABOVE: "above", n.VOYAGE_SPACE: "voyage space"}


def _place(code: object, who: str) -> Place:
    """A place the rules named (``row:upper``, ``cards``) as a place of the table."""
    text = str(code)
    if text in _SIMPLE_PLACES:
        return _SIMPLE_PLACES[text]
    if text in _PLAYER_PLACES:
        return (text, who)
    prefix, _, arg = text.partition(":")
    kind = _PREFIXED[prefix + ":"]
    return (kind, int(arg)) if kind in ("group", "voyage space") else (kind, arg)


def told_change(t: Told, names: Sequence[str], state: GameState) -> Change:
    """One change the rules told, with players and places as the table names them."""
    who = names[t.who] if t.who >= 0 else TABLE
    kind: str = t.what
    src: Any = t.src
    dst: Any = t.dst
    if kind in (n.COINS, n.GUARDS, n.POINTS):
        what = (kind, who)
    elif kind == n.PLACE or kind == n.ROLL:
        what, src = (kind, who if kind == n.PLACE else t.ident), src or None
    elif kind == n.DIE_TOKEN:
        what = ("face", t.ident)
    elif kind in (n.ROUND, n.PHASE):
        what = (kind, t.ident)
    elif kind == n.TRACK_DISC:
        what, src, dst = ("disc", who), ("track", t.ident, src), ("track", t.ident, dst)
    elif kind in (n.LION, n.PILGRIM):
        spot = "flag" if kind == n.LION else "space"
        what, src, dst = (kind, who), (spot, src) if src else ("beside board", who), (spot, dst)
    elif kind in (n.MONASTERY_DISC, n.VOYAGE_DISC):
        what, src, dst = ("disc", who), ("supply", who), ("monastery" if kind == n.MONASTERY_DISC else "voyage", t.ident)
    else:
        what, src, dst = (kind, t.ident), _place(src, who), _place(dst, who)
    return Change(who, what, src, dst, t.rule, t.facts or {}, None if t.at < 0 else t.at, t.amount, t.source,
                  state.catalog)


__all__ = ["Changes", "Entry", "Folded", "Restated", "entries_since", "entry_changes", "fold", "told_change"]
