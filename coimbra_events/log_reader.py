"""Reading the JSON game log: total, careful, every problem named; older schemas upcast.

Reading is total: whatever the bytes, it returns a ``GameLog`` or raises
``LogError`` listing every problem found (too large, malformed JSON, nested too
deeply, a key given twice, a bad header, unknown event types, bad payloads,
broken sequence or hash chain), each with the event's sequence number. Nothing
is hashed or decoded before it is known to be small and shallow enough.
Older schemas are upcast here (``UPCASTERS``), before anything is checked.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Final, Mapping, Sequence

import orjson

from coimbra_events.event_decoding import PayloadError, UnknownEventType, decode_event, shown
from coimbra_events.events import GameEvent
from coimbra_events.log import FORMAT, NO_STAMP, SCHEMA, Chain, GameLog, LogError, LogProblem, Stamp, event_hash

_AT: Final = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z")

MAX_BYTES: Final = 16 * 1024 * 1024
"""The largest log read (a whole game is well under 100 KB)."""
MAX_DEPTH: Final = 64
"""The deepest nesting of objects and lists read (a valid log needs 6, plus what ``meta`` holds)."""

HEADER_KEYS: Final = frozenset(("format", "schema", "ruleset", "catalog", "players", "meta", "upcast_from", "events"))
ENTRY_KEYS: Final = frozenset(("seq", "type", "actor", "payload", "hash"))
STAMP_KEYS: Final = frozenset(("at", "by"))

KEPT: Final = 1000
"""Problems a ``LogError`` keeps by default: a 16 MiB log can hold millions, all counted."""


class _Found:
    """The problems found so far: every one counted, the first ``keep`` kept (all if ``None``)."""

    def __init__(self, given: Sequence[LogProblem], keep: int | None) -> None:
        self.kept: list[LogProblem] = list(given)
        self.count = len(self.kept)
        self.keep = keep

    def append(self, problem: LogProblem) -> None:
        self.count += 1
        if self.keep is None or len(self.kept) < self.keep:
            self.kept.append(problem)

    def error(self, source: str, more: Sequence[LogProblem] = ()) -> LogError:
        """A ``LogError`` of these problems and ``more``, in order of place."""
        for problem in more:
            self.append(problem)
        return LogError(source, sorted(self.kept, key=lambda p: -1 if p.seq is None else p.seq), self.count)



def read(path: str | Path, keep: int | None = KEPT) -> GameLog:
    """Read a log file; ``LogError`` for a missing, unreadable or too large file or a bad log
    (keeping the first ``keep`` problems found, or every one with ``None``)."""
    return loads(read_bytes(path), str(path), keep)


def is_move_list(data: bytes | str) -> bool:
    """Whether a file's content is a move list (it opens with a tag, ``coimbra_events.movelist``) rather than a JSON log."""
    head = (data[:200].decode("utf-8", "replace") if isinstance(data, bytes) else data[:200]).lstrip("\ufeff \t\r\n")
    return len(head) > 1 and head[0] == "[" and head[1].isascii() and head[1].isalpha()


def read_bytes(path: str | Path) -> bytes:
    """A log file's bytes (no more than one past ``MAX_BYTES``); ``LogError`` if it cannot be read."""
    try:
        with open(path, "rb") as file:
            return file.read(MAX_BYTES + 1)
    except (OSError, ValueError) as exc:  # ValueError: a path with a NUL character
        why = getattr(exc, "strerror", None) or str(exc)
        raise LogError(str(path), [LogProblem(None, "cannot read file", why)]) from None


def loads(data: bytes | str, source: str = "<log>", keep: int | None = KEPT) -> GameLog:
    """Parse and check a log: size, JSON, nesting, keys, structure, event types, payloads,
    sequence and hash chain (``LogError`` keeps the first ``keep`` problems; ``None``: all)."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > MAX_BYTES:
        raise LogError(source, [LogProblem(None, "too large", f"more than {MAX_BYTES:,} bytes (a whole game is under 100,000)")])
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        if "depth limit" in str(exc):
            raise LogError(source, [_too_deep(None)]) from None
        raise LogError(source, [LogProblem(None, "malformed JSON", str(exc))]) from None
    return check_document(doc, source, _keys_given_twice(raw, doc), keep)


def check_document(doc: Any, source: str, problems: Sequence[LogProblem] = (), keep: int | None = KEPT) -> GameLog:
    """Check a parsed log (any JSON value) and return the game it records; ``LogError`` with
    ``problems`` and every one found here, in order of place, if there is any."""
    found = _Found(problems, keep)
    doc = _upcast(doc, source, found)
    head = _header(doc, source, found)
    raw_events = doc.get("events")
    if type(raw_events) is not list:
        raise found.error(source, [LogProblem(0, "bad log", "'events' must be a list")])
    events: list[GameEvent] = []
    chain: list[str] = []
    stamped: dict[int, Stamp] = {}
    prev = anchor = head.anchor()
    seq = 1
    entries: list[Any] = raw_events  # typed, so the loop below runs natively when compiled
    for k, entry in enumerate(entries, 1):
        event, prev, seq = _event(entry, k, seq, prev, found, stamped)
        if event is not None:
            events.append(event)
            chain.append(prev)
    if found.count:
        raise found.error(source)
    stamps = tuple(stamped.get(k, NO_STAMP) for k in range(1, len(events) + 1)) if stamped else ()
    read = tuple(events)
    return GameLog(head.catalog_id, head.catalog_sha256, head.players, read, head.ruleset, head.meta,
                   stamps, head.upcast_from, Chain(anchor, read, stamps, tuple(chain)))


def _too_deep(seq: int | None) -> LogProblem:
    return LogProblem(seq, "nested too deeply", f"objects and lists may nest at most {MAX_DEPTH} levels")


def _nests_deeper(value: Any, levels: int) -> bool:
    """Whether ``value`` holds objects and lists more than ``levels`` deep (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        if kind is dict or kind is list:
            if depth > levels:
                return True
            children = item.values() if kind is dict else item
            stack.extend([(child, depth + 1) for child in children])
    return False


def _keys_given_twice(raw: bytes, doc: Any) -> list[LogProblem]:
    """Every object of the log that names a key twice (a JSON reader would keep only the last).

    orjson keeps the last value silently, so this asks whether the bytes are what
    writing the parsed document gives (newlines aside): canonical logs are, and
    then no key can be there twice. Only other logs are parsed again, with the
    standard library, which shows every object's keys.
    """
    try:
        written = orjson.dumps(doc)
    except TypeError:  # nested too deeply to write back: ``check_document`` says where
        return []
    if written == raw.replace(b"\n", b""):
        return []
    twice: dict[int, list[str]] = {}

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(items)
        if len(obj) != len(items):
            keys = [key for key, _ in items]
            twice[id(obj)] = sorted({key for key in keys if keys.count(key) > 1})
        return obj

    try:
        again = json.loads(raw, object_pairs_hook=pairs)
    except (ValueError, RecursionError) as exc:
        return [LogProblem(None, "malformed JSON", str(exc))]
    if not twice:
        return []
    return [LogProblem(seq, "key given twice", f"{shown(keys)} in one object; a reader would keep only the last value")
            for seq, keys in _places(again, twice)]


def _places(doc: Any, twice: dict[int, list[str]]) -> list[tuple[int, list[str]]]:
    """Where the objects ``twice`` names are: (0 for the header or the event's number, their keys)."""
    events = doc.get("events") if type(doc) is dict else None
    out: list[tuple[int, list[str]]] = []
    stack: list[tuple[Any, int]] = [(doc, 0)]
    while stack:
        item, seq = stack.pop()
        if type(item) is dict:
            if id(item) in twice:
                out.append((seq, twice[id(item)]))
            stack.extend([(value, seq) for value in item.values()])
        elif type(item) is list:
            numbered = item is events
            stack.extend([(value, k if numbered else seq) for k, value in enumerate(item, 1)])
    return sorted(out, key=lambda place: place[0])


def _schema_1_to_2(doc: dict[str, Any]) -> dict[str, Any]:
    """A schema-1 log as schema 2: the same entries (none says when or by whom), the chain anchored as before."""
    if "upcast_from" in doc:
        raise ValueError("unknown header fields: upcast_from (a schema 1 header has none)")
    events: Any = doc.get("events")
    for k, raw in enumerate(events if type(events) is list else [], 1):
        if type(raw) is dict and ("at" in raw or "by" in raw):
            raise ValueError(f"event {k} has 'at' or 'by', which schema 1 entries do not have")
    return {**doc, "schema": 2, "upcast_from": 1}


UPCASTERS: Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _schema_1_to_2}
"""schema n -> function turning a version-n log object into version n+1 (``ValueError`` if it is not one)."""


def _upcast(doc: Any, source: str, found: _Found) -> dict[str, Any]:
    if type(doc) is not dict or doc.get("format") != FORMAT:
        raise found.error(source, [LogProblem(0, "not a coimbra log", f"expected an object with \"format\": \"{FORMAT}\"")])
    schema = doc.get("schema")
    if type(schema) is not int or schema < 1 or schema > SCHEMA:
        raise found.error(source, [LogProblem(0, "unsupported schema version",
                                              f"this coimbra reads schema 1..{SCHEMA}, the log says {shown(schema)}")])
    while schema < SCHEMA:
        try:
            doc = UPCASTERS[schema](doc)
        except ValueError as exc:
            raise found.error(source, [LogProblem(0, f"not a schema {schema} log", str(exc))]) from None
        schema += 1
    return doc


def _header(doc: dict[str, Any], source: str, found: _Found) -> GameLog:
    """Check the header; the game it describes, without events (its ``header()`` is the canonical form)."""
    problems = []
    catalog: Any = doc.get("catalog")
    if type(catalog) is not dict or set(catalog) != {"id", "sha256"} or not all(type(v) is str for v in catalog.values()):
        problems.append(LogProblem(0, "bad catalog identity", "expected exactly {\"id\": str, \"sha256\": str}"))
    if type(doc.get("ruleset")) is not str:
        problems.append(LogProblem(0, "bad ruleset", "expected a string"))
    raw_players = doc.get("players")
    players: list[tuple[str, str]] = []
    if type(raw_players) is not list or not all(
        type(p) is dict and set(p) == {"name", "color"} and type(p["name"]) is str and type(p["color"]) is str
        for p in raw_players
    ):
        problems.append(LogProblem(0, "bad players", "expected a list of exactly {\"name\": str, \"color\": str}"))
    else:
        players = [(p["name"], p["color"]) for p in raw_players]
    meta = doc.get("meta", {})
    if type(meta) is not dict:
        problems.append(LogProblem(0, "bad meta", "expected an object"))
    elif _nests_deeper(meta, MAX_DEPTH - 1):
        problems.append(_too_deep(0))
    upcast_from = doc.get("upcast_from", 0)
    if type(upcast_from) is not int or not 0 <= upcast_from < SCHEMA or "upcast_from" in doc and not upcast_from:
        problems.append(LogProblem(0, "bad upcast_from", f"expected the schema the record was begun under, 1 to {SCHEMA - 1}"))
    unknown = sorted(set(doc) - HEADER_KEYS)
    if unknown:
        problems.append(LogProblem(0, "unknown header fields", _names(unknown)))
    if problems:
        raise found.error(source, problems)
    return GameLog(catalog["id"], catalog["sha256"], tuple(players), (), doc["ruleset"], meta, (), upcast_from)


def _names(keys: list[str]) -> str:
    """Keys as a message lists them: the first few, each cut short if long or unprintable."""
    named = [key if len(key) <= 40 and key.isprintable() else shown(key) for key in keys[:8]]
    return ", ".join(named) + (f" and {len(keys) - 8} more" if len(keys) > 8 else "")


def _event(
    raw: Any, k: int, number: int, prev: str, problems: _Found, stamped: dict[int, Stamp]
) -> tuple[GameEvent | None, str, int]:
    """Decode the k-th event, due to be numbered ``number``, and check its place in the chain.

    Returns the event, the link the next one is chained to, and the number due
    next; an entry's ``at`` and ``by`` go into ``stamped`` (by position). The
    common case, a well-formed event in its place, runs straight through:
    decoding it first proves its fields shallow enough to hash. Anything else
    is looked at closely, once, by ``_entry_problems``.
    """
    if type(raw) is not dict:
        return _entry_problems(raw, k, number, prev, problems)
    at: Any = ""
    by: Any = ""
    if len(raw) != 5:
        at, by = raw.get("at", ""), raw.get("by", "")  # hashed as recorded
        if len(raw) != 5 + ("at" in raw) + ("by" in raw) or not _stamp_is_good(raw, at, by):
            return _entry_problems(raw, k, number, prev, problems)
        stamped[k] = (at, by)
    try:  # five keys (and at, by), each of these: exactly these
        seq, type_name, actor, payload, stated = raw["seq"], raw["type"], raw["actor"], raw["payload"], raw["hash"]
    except KeyError:
        return _entry_problems(raw, k, number, prev, problems)
    event: GameEvent | None = None
    try:
        if type(type_name) is str:
            event = decode_event(type_name, actor, payload)
    except (UnknownEventType, PayloadError):
        pass
    if event is not None and type(seq) is int and seq == number:
        expected = event_hash(prev, seq, type_name, actor, payload, at, by)
        if stated == expected:
            return event, expected, seq + 1
    return _entry_problems(raw, k, number, prev, problems)


def _entry_problems(raw: Any, k: int, number: int, prev: str, problems: _Found) -> tuple[GameEvent | None, str, int]:
    """Every problem of the k-th entry, the link the next entry is checked against, and its number.

    Damage is reported once, where it is: ``prev`` is ``""`` when the previous
    entry's own hash could not be read (that link is then not checked; its entry
    is already reported), a changed entry with a readable hash passes that hash
    on, and an entry numbered out of turn sets the number the next is due.
    """
    if type(raw) is not dict or not ENTRY_KEYS <= set(raw) or set(raw) - ENTRY_KEYS - STAMP_KEYS:
        problems.append(LogProblem(k, "bad event", "expected an object with seq, type, actor, payload, hash (and at, by)"))
        return None, "", number + 1
    stated = raw["hash"]
    link = stated if type(stated) is str else ""
    if _nests_deeper(raw, MAX_DEPTH - 2):  # the log object and its events list hold it
        problems.append(_too_deep(k))
        return None, link, number + 1
    seq, type_name, actor, payload = raw["seq"], raw["type"], raw["actor"], raw["payload"]
    at, by = raw.get("at", ""), raw.get("by", "")
    if "at" in raw and not _is_utc_time(at):
        problems.append(LogProblem(k, "bad at", f"expected a UTC time like 2026-05-01T19:04:11Z, found {shown(at)}"))
    if "by" in raw and (type(by) is not str or not by):
        problems.append(LogProblem(k, "bad by", f"expected who entered it (a non-empty string), found {shown(by)}"))
    if type(seq) is not int or seq != number:
        problems.append(LogProblem(k, "sequence broken", f"expected seq {number}, found {shown(seq)}"))
    if type(seq) is int:
        number = seq
    expected = event_hash(prev, number, type_name, actor, payload, at, by)
    if prev and stated != expected:
        where = "the event or the header" if k == 1 else "the event"
        problems.append(LogProblem(k, "hash chain broken",
                                   f"{where} does not match its recorded hash (changed, inserted or removed after recording)"))
    elif prev:
        link = expected
    try:
        if type(type_name) is str:
            return decode_event(type_name, actor, payload), link, number + 1
    except UnknownEventType:
        pass
    except PayloadError as exc:
        problems.append(LogProblem(k, f"bad {type_name} payload", str(exc)))
        return None, link, number + 1
    problems.append(LogProblem(k, "unknown event type", shown(type_name)))
    return None, link, number + 1


def _stamp_is_good(raw: dict[str, Any], at: Any, by: Any) -> bool:
    """Whether an entry's ``at`` is a UTC time and its ``by`` a name, where it has them."""
    return ("at" not in raw or _is_utc_time(at)) and ("by" not in raw or (type(by) is str and bool(by)))


def _is_utc_time(at: Any) -> bool:
    if type(at) is not str or not _AT.fullmatch(at):
        return False
    try:
        datetime.fromisoformat(at[:-1])
    except ValueError:
        return False
    return True
