"""What every entry of a record did on the table, in order, each change with the rule that caused it.

A play is narrated by the rules themselves (``rules.fast.narrate``): they report
each change as they make it, with its rule id and the facts that decided it (the
die token's discard with the influence values and the tie, the income tier, the
crowns counted in phase D, the end-game scoring), so the narration is the rules'
own account, never a second derivation. History entries change the table too:
a correction or an undo puts it as the corrected line of play has it, which is
the difference of the tables before and after (``tabletop.differences``, under
``HISTORY.correction`` or ``HISTORY.undo``, with facts naming the entries); a
table-accepted rule break is narrated like any play; notes and the entries that
introduce a correction or an override change nothing.

``fold`` runs once over a record and keeps every state, what kind of entry each
was, and what the rules told of each play as they applied it (compact records,
``narration.Record``: the fold narrates every play, ``fast.narrate`` or a
narrating ``history.LineFold``). ``Changes`` puts an entry's records in the
table's terms when first read; a history entry's changes are the difference of
the two tables the fold kept. Nothing is folded or narrated again on read
(bench/README.md has the figures). Which fold serves which view: the table in
``projections/__init__.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final, Mapping, Sequence, overload

from coimbra_events.events import Bookmarked, Corrected, GameEvent, Noted, Retracted, RuleOverridden, is_plain
from coimbra_events.history import LineFold
from coimbra_events.rules import narration as n
from coimbra_events.rules.fast import narrate
from coimbra_events.rules.narration import Record, Told, records, told
from coimbra_events.state import TABLE, GameState
from projections.changes import Change, Place
from projections.tabletop import differences, tabletop

PLAYED: Final = "played"
"""An entry that played its game event: its changes are the rules' narration of it."""
ACCEPTED: Final = "accepted"
"""A move the table accepted against a rule: narrated too, unless the line of play, read again, skips it."""


@dataclass(frozen=True)
class Restated:
    """A history entry whose changes are the difference of the tables before and after it."""

    rule: str
    facts: Mapping[str, Any]


Entry = str | Restated | None
"""What kind of entry the fold met: ``PLAYED``, ``ACCEPTED``, a history entry's ``Restated``, or ``None`` when the
table did not change (a note, an entry introducing a correction or an override, a play skipped as illegal)."""


@dataclass(frozen=True)
class Folded:
    """A record folded once: ``states[k]`` the table after ``k`` entries, ``entries[k - 1]`` what entry ``k`` was,
    ``told[k - 1]`` what the rules told of its play as the fold applied it (nothing for other entries)."""

    states: tuple[GameState, ...]
    entries: tuple[Entry, ...]
    events: Sequence[GameEvent]
    told: Sequence[Sequence[Record]]


class Tape(Sequence[Sequence[Record]]):
    """What a plain fold told, entry by entry, read from the one list of fields it wrote (``fast.narrate``)."""

    def __init__(self, fields: list[object], ends: list[int]) -> None:
        self._fields, self._ends = fields, ends

    def __len__(self) -> int:
        return len(self._ends) - 1

    @overload
    def __getitem__(self, k: int) -> Sequence[Record]: ...

    @overload
    def __getitem__(self, k: slice) -> Sequence[Sequence[Record]]: ...

    def __getitem__(self, k: int | slice) -> Any:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if not 0 <= k < len(self):
            raise IndexError(k)
        return records(self._fields, self._ends[k], self._ends[k + 1])


def fold(initial: GameState, events: Sequence[GameEvent]) -> Folded:
    """Every entry of a record, folded once from the table before the first."""
    return fold_since(initial, events, 0, initial)


def fold_since(initial: GameState, events: Sequence[GameEvent], start: int, state: GameState) -> Folded:
    """The entries of a record after its first ``start``, folded once (from ``state``, the table after those,
    when the record is plain).

    Every play is narrated as it is applied. Plays after ``start`` with no
    history entry among them are not checked (their events were checked when
    recorded). Otherwise the record is read by
    ``history.LineFold``, which keeps
    its line of play as it goes: a game event is checked and skipped when
    illegal where it now stands, a correction or a retraction refolds only the
    plays after the one it touches, an undo of the latest play costs nothing.
    """
    later = events[start:]
    if is_plain(later) and not (start and type(events[start - 1]) in (Corrected, RuleOverridden)):
        return _plays(state, later)  # the history before them is in ``state``
    line = LineFold(initial)
    for event in events[:start]:
        line.push(event)
    line.narrating = True
    states, entries, ends = [line.state], [], [0]
    introduced = type(events[start - 1]) if start and type(events[start - 1]) in (Corrected, RuleOverridden) else None
    for k in range(start + 1, len(events) + 1):
        event = events[k - 1]
        before = line.state
        line.push(event)
        kind = type(event)
        entry: Entry = None
        if kind is Corrected or kind is RuleOverridden:
            introduced = kind
        elif introduced is not None or kind is Retracted:
            entry = _history_entry(events, k, introduced)
            introduced = None
        elif kind is not Noted and kind is not Bookmarked and line.state is not before:
            entry = PLAYED
        states.append(line.state)
        entries.append(entry)
        ends.append(len(line.tape))
    return Folded(tuple(states), tuple(entries), later, Tape(line.tape, ends))


def _plays(state: GameState, plays: Sequence[GameEvent]) -> Folded:
    """Plays only, folded on from ``state`` (each was checked against it when it was recorded)."""
    states, fields, ends = narrate(state, plays)
    return Folded(tuple(states), (PLAYED,) * len(plays), plays, Tape(fields, ends))


def _history_entry(events: Sequence[GameEvent], k: int, introduced: type | None) -> Entry:
    """What a correction's replacement, an accepted rule break or an undo (entry ``k``) was."""
    if introduced is RuleOverridden:
        return ACCEPTED
    if introduced is Corrected:
        return Restated("HISTORY.correction", {"correction": k - 1, "corrects": events[k - 2].seq, "replacement": k})
    return Restated("HISTORY.undo", {"retraction": k, "withdrew": events[k - 1].seq})


class Changes(Sequence[tuple[Change, ...]]):
    """``changes[k]``: what entry ``k`` changed on the table, in order (``changes[0]``: nothing, no entry yet).

    Made when first read, from what the fold kept (a ``Folded``, or a
    ``Timeline``): a play from what the rules told as the fold applied it, a
    history entry as the difference of its two tables. Nothing is folded or narrated again.
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
            f = self._folded
            made = () if k == 0 else entry_changes(f.states[k - 1], f.states[k], f.entries[k - 1], f.told[k - 1])
            if any(counts_crowns(c) for c in made):
                taken = self._crowns_taken(k)
                made = tuple(_itemized(c, taken.get(c.who, ())) if counts_crowns(c) else c for c in made)
            self._made[k] = made
        return made

    def _crowns_taken(self, k: int) -> dict[str, list[tuple[str, int]]]:
        """Every crown each player took before entry ``k``: a favor tile or a crown token, with its crowns."""
        taken: dict[str, list[tuple[str, int]]] = {}
        for j in range(1, k):
            for c in self[j]:
                if c.catalog is None or not isinstance(c.dst, tuple) or c.dst[0] not in ("favor tiles", "crown tokens"):
                    continue
                if c.what[0] == "crown token":
                    taken.setdefault(c.who, []).append((f"{c.what[1]} crown token", c.catalog.crown_token_crowns))
                elif c.what[1] in c.catalog.favor_tiles:
                    taken.setdefault(c.who, []).append((c.what[1], c.catalog.favor_tiles[c.what[1]].crowns))
        return taken


def counts_crowns(change: Change) -> bool:
    """Whether the change scores crowns at the end of the game (``Changes`` says where they came from)."""
    return any(type(c) is dict and c.get("per") == "crown" for c in change.facts.get("counted", ()))


def _itemized(change: Change, taken: Sequence[tuple[str, int]]) -> Change:
    """An end-game count of crowns with the favor tiles and crown tokens they came from (``taken``), where
    those add up to the count the rules made."""
    def item(counted: Any) -> Any:
        if type(counted) is not dict or counted.get("per") != "crown" or sum(n for _, n in taken) != counted["count"]:
            return counted
        return {**counted, "counted": tuple(f"{n} from {what}" for what, n in taken)}

    facts = {**change.facts, "counted": tuple(item(c) for c in change.facts["counted"])}
    return replace(change, facts=facts)


def entry_changes(before: GameState, after: GameState, entry: Entry, records: Sequence[Record]) -> tuple[Change, ...]:
    """One entry's changes: what the rules told of its play, or a history entry's difference of tables."""
    if entry is None or (entry == ACCEPTED and after == before):  # an accepted move the line of play skips
        return ()
    if isinstance(entry, Restated):
        return tuple(differences(tabletop(before), tabletop(after), before.catalog, entry.rule, entry.facts))
    return told_changes([told(r) for r in records], before)


def told_changes(changes: Sequence[Told], state: GameState) -> tuple[Change, ...]:
    """What the rules told about a play from ``state`` (read: ``narration.told``), as changes of the table;
    a thing the rules put back where it was (a lion that keeps its flag) is no change."""
    names = [p.name for p in state.players]
    told = (told_change(t, names, state) for t in changes)
    return tuple(c for c in told if c.is_value or c.src != c.dst)


def entries_since(state: GameState, initial: GameState, events: Sequence[GameEvent],
                  start: int) -> list[tuple[int, tuple[Change, ...]]]:
    """What each entry after the first ``start`` did on the table, from ``state`` (the table after ``start``).

    For a command that has just stored entries: only the new ones are folded.
    """
    return _numbered(Changes(fold_since(initial, events, start, state)), start)


def plays_since(state: GameState, plays: Sequence[GameEvent], start: int) -> list[tuple[int, tuple[Change, ...]]]:
    """What each of ``plays``, just stored as the entries after the first ``start``, did on the table, from
    ``state`` (the table before them).

    ``entries_since`` for a command that stored plays only (``act``), without the
    record before them: a record never ends on an entry that introduces the next
    (rule HISTORY.pair), so plays appended to it fold on from its table.
    """
    return _numbered(Changes(_plays(state, plays)), start)


def new_entries(before: GameState, game: Any, start: int,
                new: Sequence[GameEvent]) -> list[tuple[int, tuple[Change, ...]]]:
    """What each of ``new``, just stored as the entries of ``game`` after its first ``start``, did on the table
    (``before``: the table then): plays are told from ``before`` alone (``plays_since``), a record with history
    entries among them from the record (``entries_since``)."""
    if is_plain(new):
        return plays_since(before, new, start)
    return entries_since(before, game.initial, game.events, start)


def _numbered(changes: Changes, start: int) -> list[tuple[int, tuple[Change, ...]]]:
    return [(start + j, changes[j]) for j in range(1, len(changes))]


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
                  state.catalog, dict(state.monasteries))


__all__ = ["Changes", "counts_crowns", "Entry", "Folded", "PLAYED", "Restated", "Tape", "entries_since", "entry_changes",
           "new_entries", "fold", "fold_since", "told_change", "told_changes"]
