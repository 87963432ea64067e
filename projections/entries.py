"""What the record says about each of its entries: what kind of entry it is, and what later entries say about it.

A record is append-only, so a correction, an undo, an accepted rule break, a
note or a bookmark is an entry of its own that names an earlier one. An entry
list (the replay page's) shows both sides: the history entry, and on the entry
it names, that it was corrected, withdrawn, noted or bookmarked. Read straight
from the entries, without a fold.
"""

from __future__ import annotations

from typing import Any, Sequence

from coimbra_events.events import Bookmarked, Corrected, GameEvent, Noted, Retracted, RuleOverridden
from coimbra_events.state import TABLE

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


__all__ = ["entry_marks"]
