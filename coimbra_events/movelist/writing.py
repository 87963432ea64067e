"""Writing a move list (``coimbra_events.movelist``): the log's header as tags, its entries a line per player's turn,
components by name; every line read back as it is written, and written otherwise where it would not read back."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import orjson

from coimbra_events import log as game_log
from coimbra_events.catalog import Catalog
from coimbra_events.controls import first_control, json_escaped
from coimbra_events.events import GameEvent
from coimbra_events.lines import SEPARATOR, groups as grouped, render_line
from coimbra_events.log import GameLog
from coimbra_events.movelist.reading import (CORE_FIELDS, HEAD, IN_PROGRESS, MARKS, UNKNOWN_DATE, _COMMENTED, _BadLine,
                                             _known, _players, _read_entries)
from coimbra_events.names import Names
from coimbra_events.notation import NotationError, render


def dumps(log: GameLog, headings: Mapping[int, Sequence[str]] | None = None, result: str = IN_PROGRESS,
          catalog: Catalog | None = None, annotations: Mapping[int, tuple[str, str]] | None = None) -> str:
    """The move list of a log: ``headings``, the lines written before an entry, by its sequence number (the round
    and phase headings of ``projections.sections.headings``); ``result`` the ``Result`` tag (``projections.scores``).
    Components are written by name, of the log's ``catalog`` (else the shipped or installed one the log names);
    ids where a name would not read back, or where the catalog is not to be found. ``annotations``: a mark and a
    comment by sequence number (``projections.annotations``), written after the entry, which then ends its line;
    read back, they are left out (``reading.ANNOTATION``)."""
    doc = orjson.loads(game_log.dumps(log))
    entries: list[dict[str, Any]] = doc.pop("events")
    known = _known(doc, catalog)
    spoken = known[0] if known is not None else None
    lines = [_tag(_tag_name(key), _header_value(key, value)) for key, value in doc.items()]
    lines.append(_tag("Date", _date(entries)))
    lines.append(_tag("Result", result))
    lines.append(_tag(HEAD, entries[-1]["hash"] if entries else log.anchor()))
    said, marked = headings or {}, annotations or {}
    for group in grouped(log.events, lambda k: k + 1 in said or k in marked):
        for heading in said.get(group[0] + 1, ()):
            lines += ["", heading] if heading.startswith("==") else [heading]
        lines += _group_lines([entries[k] for k in group], [log.events[k] for k in group], spoken.names if spoken else None)
        if group[-1] + 1 in marked:
            lines[-1] += _annotation(*marked[group[-1] + 1])
        if spoken is not None:
            for k in group:
                spoken.saw(entries[k])
    return "\n".join(lines) + "\n"


def _annotation(mark: str, comment: str) -> str:
    """`` ?! {comment}``: a mark as PGN's and a comment in braces (braces in it made parentheses, so it stays one)."""
    assert mark in MARKS, f"not a mark: {mark!r}"
    return f" {mark} {{{comment.replace('{', '(').replace('}', ')')}}}"


def _group_lines(entries: list[dict[str, Any]], events: list[GameEvent], names: Names | None) -> list[str]:
    """The entries of one player's turn on one line (``lines.groups``), when it reads back to them (with ``names``,
    as the reader reads it); else a line each."""
    if len(entries) > 1:
        for naming in _namings(names):
            try:
                body = _grouped_body(entries, events, naming)
                if _reads_back(body, entries, names):
                    return [f"{entries[0]['seq']}. {body}"]
            except (NotationError, _BadLine):
                pass  # a value the notation cannot spell: each entry on its own line says it its own way
    return [_entry_line(entry, event, names) for entry, event in zip(entries, events)]


def _reads_back(body: str, entries: list[dict[str, Any]], names: Names | None) -> bool:
    """Whether a line's ``body`` reads back as ``entries`` (with ``names``) and holds no control character raw."""
    return first_control(body) is None and _read_entries(body, entries[0]["seq"], names) == [
        {k: v for k, v in e.items() if k != "hash"} for e in entries]


def _namings(names: Names | None) -> tuple[Names | None, ...]:
    """The names to write components by, in turn until a line reads back: the printed names, then the ids."""
    return (names, None) if names is not None else (None,)


def _grouped_body(entries: list[dict[str, Any]], events: list[GameEvent], names: Names | None) -> str:
    """``Ana: income white-1 orange; exchange coins 3``: the fields every entry shares once, after the last entry
    (``; {[%at "…"] [%by "…"]}``), and any other field of an entry as commands after it."""
    shared = {k: v for k, v in entries[0].items() if k not in CORE_FIELDS and all(k in e and e[k] == v for e in entries)}
    own = [{k: v for k, v in e.items() if k not in shared} for e in entries]
    line = SEPARATOR + "{" + _fields_text(shared) + "}" if shared else ""
    if not any(_commands_text(e) for e in own):
        return render_line(events, names) + line
    parts = [render(event, names).split(":", 1)[1].strip() + _commands_text(entry) for entry, event in zip(own, events)]
    return f"{events[0].actor}: " + SEPARATOR.join(parts) + line


def _commands_text(entry: Mapping[str, Any]) -> str:
    """`` {[%at "…"] [%by "…"]}``: the fields of an entry beyond those its notation spells; empty if none."""
    extra = _fields_text(entry)
    return " {" + extra + "}" if extra else ""


def _fields_text(entry: Mapping[str, Any]) -> str:
    """``[%at "…"] [%by "…"]``: the fields beyond those a notation spells, as commands."""
    return " ".join(f"[%{k} {_json(v)}]" for k, v in entry.items() if k not in CORE_FIELDS)


def _date(entries: Sequence[Mapping[str, Any]]) -> str:
    """The day of the first entry that says when it was entered (its ``at``), else unknown."""
    return next((e["at"][:10] for e in entries if type(e.get("at")) is str), UNKNOWN_DATE)


def _tag(name: str, value: Any) -> str:
    return f"[{name} {_json(value)}]"


def _json(value: Any) -> str:
    """``value`` as JSON with no control character raw (``controls.json_escaped``): a list is read in a terminal."""
    return json_escaped(orjson.dumps(value).decode())


def _tag_name(key: str) -> str:
    return key[:1].upper() + key[1:]


def _header_value(key: str, value: Any) -> Any:
    """``Players`` as ``"Ana (red), Bruno (blue)"`` when that reads back to the same players."""
    if key != "players":
        return value
    text = ", ".join(f"{p['name']} ({p['color']})" for p in value)
    return text if _players(text) == value else value


def _entry_line(entry: dict[str, Any], event: GameEvent, names: Names | None = None) -> str:
    """``SEQ. notation``, components by name where that reads back (with ``names``), braced for notes and bookmarks,
    with any other field as a command; the entry's JSON object where the notation cannot spell it so that it reads back,
    or would hold a control character raw (JSON escapes it, and reads back the same)."""
    for naming in _namings(names):
        try:
            body = render(event, naming)
            if type(event) in _COMMENTED:
                body = "{" + body + "}"
            body += _commands_text(entry)
            if _reads_back(body, [entry], names):
                return f"{entry['seq']}. {body}"
        except (NotationError, _BadLine):
            pass  # a value the notation cannot spell, or a line that would read as something else
    return f"{entry['seq']}. = {_json({k: v for k, v in entry.items() if k not in ('seq', 'hash')})}"
