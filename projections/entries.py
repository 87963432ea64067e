"""The record entry by entry, as a replayer lists it: what each entry is and what became of it.

A correction, a retraction and an accepted rule break are entries of their
own, and the entries they change stay in the record. ``entry_rows`` says so
on each entry: "corrected by 12" on the entry a correction replaced,
"withdrawn by 59" on an undone play, "replaces 11" on a replacement,
"accepted against rule C.cost" on a table-accepted move, and whether the
entry is in the line of play now (what the "line of play only" view lists).
Read from the record's line of play (``history.resolve``), no fold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from coimbra_events.events import HISTORY_TYPES, Bookmarked, Corrected, GameEvent, Noted, Retracted, RuleOverridden
from coimbra_events.history import Line, Play
from coimbra_events.violations import RuleViolation

_HISTORY = frozenset(HISTORY_TYPES)


@dataclass(frozen=True)
class EntryRow:
    """One log entry: its number, the event, whether it is a play in force, and what the record says about it."""

    seq: int
    event: GameEvent
    in_line: bool
    marks: tuple[str, ...] = ()

    @property
    def about_the_record(self) -> bool:
        """A correction, retraction, override, note or bookmark: an entry about other entries."""
        return type(self.event) in _HISTORY


def entry_rows(events: Sequence[GameEvent], line: Line, skipped: Sequence[tuple[Play, RuleViolation]] = ()) -> list[EntryRow]:
    """Every entry of the record with its marks; ``skipped`` are the plays a correction made illegal."""
    marks: dict[int, list[str]] = {}
    in_force = {p.source for p in line.plays} - {p.source for p, _ in skipped}

    def mark(seq: int, text: str) -> None:
        marks.setdefault(seq, []).append(text)

    origin: dict[int, int] = {}  # a replacement's entry -> the entry first recording the play
    source: dict[int, int] = {}  # the entry first recording a play -> the entry in force for it
    for seq, event in enumerate(events, 1):
        kind = type(event)
        if kind is Corrected:
            first = origin.get(event.seq, event.seq)
            for old in dict.fromkeys((first, source.get(first, first))):
                mark(old, f"corrected by {seq}")
            mark(seq + 1, f"replaces {first}")
            origin[seq + 1], source[first] = first, seq + 1
        elif kind is Retracted:
            mark(event.seq, f"withdrawn by {seq}")
        elif kind is RuleOverridden:
            mark(seq + 1, f"accepted against rule {event.rule}")
        elif kind is Noted:
            mark(event.seq, f"note ({seq})")
        elif kind is Bookmarked:
            mark(event.seq, f"bookmark ({seq}): {event.label}")
    for play, violation in skipped:
        mark(play.source, f"skipped: now breaks {violation.rule}")
    return [EntryRow(seq, event, seq in in_force, tuple(marks.get(seq, ())))
            for seq, event in enumerate(events, 1)]


__all__ = ["EntryRow", "entry_rows"]
