"""What the record says about each of its entries: what kind of entry it is, and what later entries say about it.

A record is append-only, so a correction, an undo, an accepted rule break, a
note or a bookmark is an entry of its own that names an earlier one. An entry
list (the replay page's) shows both sides: the history entry, and on the entry
it names, that it was corrected, withdrawn, noted or bookmarked. Read straight
from the entries, without a fold. ``entry_rows`` says the same in words for the
terminal replayer ("corrected by 19", "withdrawn by 59"), with whether each
entry is in the line of play now (what its "line of play only" view lists).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from coimbra_events.events import Bookmarked, Corrected, GameEvent, Noted, Retracted, RuleOverridden
from coimbra_events.history import Line, Play
from coimbra_events.state import TABLE
from coimbra_events.violations import RuleViolation

_TARGETED = {Corrected: "correction", Retracted: "retraction", Noted: "note", Bookmarked: "bookmark"}


def entry_marks(events: Sequence[GameEvent]) -> list[dict[str, Any]]:
    """One dict per entry (entry ``k`` at index ``k - 1``): its ``kind`` and what the record says about it.

    ``kind`` is ``decision``, ``outcome`` (the table's random outcomes),
    ``correction``, ``retraction``, ``override``, ``note`` or ``bookmark``; a
    history entry names its ``target`` entry. An entry's ``replaces`` (it is the
    new content of a corrected entry), ``accepted`` (rule and reason of a
    table-accepted rule break), ``corrected_by``, ``withdrawn_by``, ``notes``
    and ``bookmarks`` say the rest.
    """
    marks: list[dict[str, Any]] = []
    for seq, event in enumerate(events, 1):
        kind = _TARGETED.get(type(event))
        if kind is not None:
            mark: dict[str, Any] = {"kind": kind, "target": event.seq}
        elif type(event) is RuleOverridden:
            mark = {"kind": "override", "rule": event.rule, "reason": event.reason}
        else:
            mark = {"kind": "outcome" if event.actor == TABLE and event.RANDOM else "decision"}
        marks.append(mark)
        before = events[seq - 2] if seq > 1 else None
        if type(before) is Corrected:
            mark["replaces"] = before.seq
        elif type(before) is RuleOverridden:
            mark["accepted"] = {"rule": before.rule, "reason": before.reason}
        if kind is not None and 1 <= event.seq < seq:
            _said_about(marks[event.seq - 1], kind, seq, event)
    return marks


def _said_about(target: dict[str, Any], kind: str, seq: int, event: GameEvent) -> None:
    if kind == "correction":
        target.setdefault("corrected_by", []).append(seq + 1)  # the replacement follows the Corrected entry
    elif kind == "retraction":
        target.setdefault("withdrawn_by", []).append(seq)
    elif kind == "note":
        target.setdefault("notes", []).append({"by": seq, "text": event.text})
    else:
        target.setdefault("bookmarks", []).append({"by": seq, "label": event.label})


@dataclass(frozen=True)
class EntryRow:
    """One log entry: its number, the event, whether it is a play in force, and what the record says about it, in words."""

    seq: int
    event: GameEvent
    in_line: bool
    marks: tuple[str, ...] = ()


def entry_rows(events: Sequence[GameEvent], line: Line, skipped: Sequence[tuple[Play, RuleViolation]] = ()) -> list[EntryRow]:
    """Every entry with its marks in words (from ``entry_marks``); ``skipped``: the plays a correction made illegal."""
    in_force = {p.source for p in line.plays} - {p.source for p, _ in skipped}
    now_illegal = {p.source: v.rule for p, v in skipped}
    return [EntryRow(seq, event, seq in in_force, _words(mark) + ((f"skipped: now breaks {now_illegal[seq]}",)
                                                                  if seq in now_illegal else ()))
            for seq, (event, mark) in enumerate(zip(events, entry_marks(events)), 1)]


def _words(mark: dict[str, Any]) -> tuple[str, ...]:
    said = [f"replaces {mark['replaces']}"] if "replaces" in mark else []
    if "accepted" in mark:
        said.append(f"accepted against rule {mark['accepted']['rule']}")
    said += [f"corrected by {k}" for k in mark.get("corrected_by", ())]
    said += [f"withdrawn by {k}" for k in mark.get("withdrawn_by", ())]
    said += [f"note ({n['by']})" for n in mark.get("notes", ())]
    said += [f"bookmark ({b['by']}): {b['label']}" for b in mark.get("bookmarks", ())]
    return tuple(said)


__all__ = ["EntryRow", "entry_marks", "entry_rows"]
