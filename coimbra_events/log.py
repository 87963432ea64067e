"""The JSON game log, schema 2: canonical writing, careful reading, a hash chain.

A log is one JSON object: a header (format, schema version, ruleset, catalog id
and content hash, players, optional meta) and an ``events`` list. Each event
has a sequence number, type, actor, payload, optionally when it was entered
(``at``) and by whom (``by``), and a hash chained to the previous one (the first
to the header's hash), so any edit to a recorded log shows.

Schema 1 logs (no ``at``/``by``) are upcast when read: their header says
``"upcast_from": 1`` and their chain stays anchored on the header as schema 1
wrote it, so an old record keeps every hash it was recorded with.

Writing is canonical: one event per line, fixed key order, payload keys sorted,
so the same game always gives the same bytes and diffs read line by line.
Reading collects every problem it finds (malformed JSON, a bad header, unknown
event types, bad payloads, broken sequence or hash chain) with the event's
sequence number, and raises ``LogError`` if there is any.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Final, Mapping, Sequence

import orjson

from coimbra_events import RULESET
from coimbra_events.catalog import Catalog
from coimbra_events.events import GameEvent, PayloadError, UnknownEventType, decode_event

FORMAT = "coimbra-log"
SCHEMA = 2
"""The schema version this code writes; older versions are upcast when read."""

Stamp = tuple[str, str]
"""When an entry was entered (ISO 8601 UTC, ``2026-05-01T19:04:11Z``) and by whom; ``""`` where not known."""
NO_STAMP: Final[Stamp] = ("", "")

_AT: Final = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z")


@dataclass(frozen=True)
class LogProblem:
    """One thing wrong with a log: where (event sequence number, 0 for the header) and what."""

    seq: int
    what: str
    why: str

    def __str__(self) -> str:
        where = "header" if self.seq == 0 else f"event {self.seq}"
        return f"{where}: {self.what}: {self.why}"


class LogError(ValueError):
    """A log that cannot be read; ``problems`` lists everything found, first one in the message."""

    def __init__(self, source: str, problems: Sequence[LogProblem]) -> None:
        self.source = source
        self.problems = tuple(problems)
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__(f"{source}: {problems[0]}{more}")


@dataclass(frozen=True)
class GameLog:
    """A game as recorded: who played, with which catalog and ruleset, and every event."""

    catalog_id: str
    catalog_sha256: str
    players: tuple[tuple[str, str], ...]
    events: tuple[GameEvent, ...] = ()
    ruleset: str = RULESET
    meta: Mapping[str, Any] = field(default_factory=dict)
    stamps: tuple[Stamp, ...] = ()
    """One ``(at, by)`` per event, or none at all (no entry says when or by whom)."""
    upcast_from: int = 0
    """The older schema the record was begun under (its chain is anchored there), or 0."""

    @classmethod
    def new(cls, catalog: Catalog, players: Sequence[tuple[str, str]], meta: Mapping[str, Any] | None = None) -> "GameLog":
        """An empty log for a new game with this catalog."""
        return cls(catalog.id, catalog.sha256, tuple(players), (), RULESET, dict(meta or {}))

    def with_events(self, events: Sequence[GameEvent], stamps: Sequence[Stamp] = ()) -> "GameLog":
        """The same game with this event list (and, if given, one stamp per event)."""
        return GameLog(self.catalog_id, self.catalog_sha256, self.players, tuple(events), self.ruleset, self.meta,
                       tuple(stamps), self.upcast_from)

    def prefix(self, n: int) -> "GameLog":
        """The record's first ``n`` entries, with their stamps."""
        return self.with_events(self.events[:n], self.stamps[:n])

    def stamp(self, k: int) -> Stamp:
        """When entry ``k`` (0-based) was entered and by whom (``""`` where not recorded)."""
        return self.stamps[k] if k < len(self.stamps) else NO_STAMP

    def header(self, schema: int = SCHEMA) -> dict[str, Any]:
        """The header object, in canonical key order (as ``schema`` writes it)."""
        head: dict[str, Any] = {
            "format": FORMAT,
            "schema": schema,
            "ruleset": self.ruleset,
            "catalog": {"id": self.catalog_id, "sha256": self.catalog_sha256},
            "players": [{"name": n, "color": c} for n, c in self.players],
        }
        if self.meta:
            head["meta"] = dict(self.meta)
        if self.upcast_from and schema == SCHEMA:
            head["upcast_from"] = self.upcast_from
        return head

    def anchor(self) -> str:
        """The hash the chain starts from: the header as the schema the record was begun under wrote it."""
        return header_hash(self.header(self.upcast_from or SCHEMA))

    def hashes(self) -> list[str]:
        """The hash chain: one hash per event."""
        out = []
        prev = self.anchor()
        for seq, e in enumerate(self.events, 1):
            at, by = self.stamp(seq - 1)
            prev = event_hash(prev, seq, e.TYPE, e.actor, e.payload(), at, by)
            out.append(prev)
        return out


def header_hash(header: Mapping[str, Any]) -> str:
    """The chain's anchor: a hash of the canonical header."""
    return hashlib.sha256(orjson.dumps(header, option=orjson.OPT_SORT_KEYS)).hexdigest()


def event_hash(prev: str, seq: int, type_name: Any, actor: Any, payload: Any, at: Any = "", by: Any = "") -> str:
    """The hash of one event, chained to the previous hash; ``at`` and ``by`` are hashed when given.

    Any JSON values: a log is hashed as recorded, before its fields are checked.
    An entry without ``at`` and ``by`` hashes as schema 1 hashed it.
    """
    if at or by:
        body = _dumps(_stamped_body(seq, type_name, actor, payload, at, by), None, _SORT_KEYS)
    else:  # keys already in sorted order: orjson then only has the payload's keys to sort
        body = _dumps({"actor": actor, "payload": payload, "seq": seq, "type": type_name}, None, _SORT_KEYS)
    sha = _fresh_sha256()
    _update(sha, prev.encode())
    _update(sha, body)
    return _hexdigest(sha)


def _stamped_body(seq: int, type_name: Any, actor: Any, payload: Any, at: Any, by: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"actor": actor}
    if at:
        body["at"] = at
    if by:
        body["by"] = by
    body.update(payload=payload, seq=seq, type=type_name)
    return body


def entry_hash(prev: str, entry: Mapping[str, Any]) -> str:
    """The hash of one entry object as a log writes it, chained to ``prev``: every field but its ``hash``.

    For the fields a log writes this is ``event_hash`` (``at`` and ``by`` included
    when the entry has them); a reader that builds the entries of a log itself (the
    move list, ``coimbra_events.movelist``) chains them with it, whatever fields they carry.
    """
    body = _dumps({k: v for k, v in entry.items() if k != "hash"}, None, _SORT_KEYS)
    sha = _fresh_sha256()
    _update(sha, prev.encode())
    _update(sha, body)
    return _hexdigest(sha)


_dumps: Final = orjson.dumps
_SORT_KEYS: Final = orjson.OPT_SORT_KEYS
_fresh_sha256: Final = hashlib.sha256().copy
_update: Final = type(hashlib.sha256()).update
_hexdigest: Final = type(hashlib.sha256()).hexdigest
"""Bound once, as every event of every log read is hashed with these: a fresh SHA-256 is a
copy of an empty one (cheaper than looking the digest up and initialising a new one), and
calling the hash type's methods directly saves looking each up on every event (≈ 35 ns)."""


def dumps(log: GameLog) -> bytes:
    """The canonical bytes of a log: header, then one event per line."""
    head = orjson.dumps(log.header())[:-1]
    lines = []
    for seq, (e, h) in enumerate(zip(log.events, log.hashes()), 1):
        payload = orjson.dumps(e.payload(), option=orjson.OPT_SORT_KEYS)
        at, by = log.stamp(seq - 1)
        stamp = (b',"at":%s' % orjson.dumps(at) if at else b"") + (b',"by":%s' % orjson.dumps(by) if by else b"")
        lines.append(
            b'{"seq":%d,"type":%s,"actor":%s,"payload":%s%s,"hash":"%s"}'
            % (seq, orjson.dumps(e.TYPE), orjson.dumps(e.actor), payload, stamp, h.encode())
        )
    body = b",\n".join(lines)
    return head + b',"events":[\n' + body + (b"\n" if lines else b"") + b"]}\n"


def write(path: str | Path, log: GameLog) -> None:
    """Write a log canonically (to a temporary file first, so a crash leaves no half log)."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_bytes(dumps(log))
    tmp.replace(target)


def read(path: str | Path) -> GameLog:
    """Read a log file; ``LogError`` for a missing or unreadable file or a bad log."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise LogError(str(path), [LogProblem(0, "cannot read file", exc.strerror or str(exc))]) from None
    return loads(data, str(path))


def loads(data: bytes | str, source: str = "<log>") -> GameLog:
    """Parse and check a log: structure, event types, payloads, sequence and hash chain."""
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise LogError(source, [LogProblem(0, "malformed JSON", str(exc))]) from None
    doc = _upcast(doc, source)
    head = _header(doc, source)
    raw_events = doc.get("events")
    if type(raw_events) is not list:
        raise LogError(source, [LogProblem(0, "bad log", "'events' must be a list")])
    problems: list[LogProblem] = []
    events: list[GameEvent] = []
    stamped: dict[int, Stamp] = {}
    prev = head.anchor()
    entries: list[Any] = raw_events  # typed, so the loop below runs natively when compiled
    for k, raw in enumerate(entries, 1):
        event, prev = _event(raw, k, prev, problems, stamped)
        if event is not None:
            events.append(event)
    if problems:
        raise LogError(source, problems)
    stamps = tuple(stamped.get(k, NO_STAMP) for k in range(1, len(events) + 1)) if stamped else ()
    return GameLog(head.catalog_id, head.catalog_sha256, head.players, tuple(events), head.ruleset, head.meta,
                   stamps, head.upcast_from)


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


def _upcast(doc: Any, source: str) -> dict[str, Any]:
    if type(doc) is not dict or doc.get("format") != FORMAT:
        raise LogError(source, [LogProblem(0, "not a coimbra log", f"expected an object with \"format\": \"{FORMAT}\"")])
    schema = doc.get("schema")
    if type(schema) is not int or schema < 1 or schema > SCHEMA:
        raise LogError(source, [LogProblem(0, "unsupported schema version",
                                           f"this coimbra reads schema 1..{SCHEMA}, the log says {schema!r}")])
    while schema < SCHEMA:
        try:
            doc = UPCASTERS[schema](doc)
        except ValueError as exc:
            raise LogError(source, [LogProblem(0, f"not a schema {schema} log", str(exc))]) from None
        schema += 1
    return doc


def _header(doc: dict[str, Any], source: str) -> GameLog:
    """Check the header; the game it describes, without events (its ``header()`` is the canonical form)."""
    problems = []
    catalog: Any = doc.get("catalog")
    if type(catalog) is not dict or type(catalog.get("id")) is not str or type(catalog.get("sha256")) is not str:
        problems.append(LogProblem(0, "bad catalog identity", "expected {\"id\": str, \"sha256\": str}"))
    if type(doc.get("ruleset")) is not str:
        problems.append(LogProblem(0, "bad ruleset", "expected a string"))
    raw_players = doc.get("players")
    players: list[tuple[str, str]] = []
    if type(raw_players) is not list or not all(
        type(p) is dict and type(p.get("name")) is str and type(p.get("color")) is str and set(p) == {"name", "color"}
        for p in raw_players
    ):
        problems.append(LogProblem(0, "bad players", "expected a list of {\"name\": str, \"color\": str}"))
    else:
        players = [(p["name"], p["color"]) for p in raw_players]
    meta = doc.get("meta", {})
    if type(meta) is not dict:
        problems.append(LogProblem(0, "bad meta", "expected an object"))
    upcast_from = doc.get("upcast_from", 0)
    if type(upcast_from) is not int or not 0 <= upcast_from < SCHEMA or "upcast_from" in doc and not upcast_from:
        problems.append(LogProblem(0, "bad upcast_from", f"expected the schema the record was begun under, 1 to {SCHEMA - 1}"))
    unknown = sorted(set(doc) - {"format", "schema", "ruleset", "catalog", "players", "meta", "upcast_from", "events"})
    if unknown:
        problems.append(LogProblem(0, "unknown header fields", ", ".join(unknown)))
    if problems:
        raise LogError(source, problems)
    return GameLog(catalog["id"], catalog["sha256"], tuple(players), (), doc["ruleset"], meta, (), upcast_from)


def _event(
    raw: Any, k: int, prev: str, problems: list[LogProblem], stamped: dict[int, Stamp]
) -> tuple[GameEvent | None, str]:
    """Decode the k-th event and check its place in the chain; returns the event and the next link.

    An entry's ``at`` and ``by`` go into ``stamped`` (by sequence number)."""
    if type(raw) is not dict:
        problems.append(_bad_event(k))
        return None, prev
    at: Any = ""
    by: Any = ""
    if len(raw) != 5:
        if not _stamp(raw, k, problems, stamped):
            return None, prev
        at, by = raw.get("at", ""), raw.get("by", "")  # hashed as recorded
    try:  # five keys (and at, by), each of these: exactly these
        seq, type_name, actor, payload, stated = raw["seq"], raw["type"], raw["actor"], raw["payload"], raw["hash"]
    except KeyError:
        problems.append(_bad_event(k))
        return None, prev
    if seq != k:
        problems.append(LogProblem(k, "sequence broken", f"expected seq {k}, found {seq!r}"))
    expected = event_hash(prev, k, type_name, actor, payload, at, by)
    if stated != expected:
        problems.append(LogProblem(k, "hash chain broken",
                                   "the event does not match its recorded hash (changed, inserted or removed after recording)"))
        if type(stated) is str:
            expected = stated  # keep checking the rest against the recorded chain: one edit, one problem
    try:
        if type(type_name) is str:
            return decode_event(type_name, actor, payload), expected
    except UnknownEventType:
        pass
    except PayloadError as exc:
        problems.append(LogProblem(k, f"bad {type_name} payload", str(exc)))
        return None, expected
    problems.append(LogProblem(k, "unknown event type", repr(type_name)))
    return None, expected


def _stamp(raw: dict[str, Any], k: int, problems: list[LogProblem], stamped: dict[int, Stamp]) -> bool:
    """Read an entry's ``at`` and ``by`` into ``stamped``; ``False`` (a problem noted) if it has other extra keys."""
    at, by = raw.get("at", ""), raw.get("by", "")
    if len(raw) != 5 + ("at" in raw) + ("by" in raw):
        problems.append(_bad_event(k))
        return False
    if "at" in raw and not _is_utc_time(at):
        problems.append(LogProblem(k, "bad at", f"expected a UTC time like 2026-05-01T19:04:11Z, found {at!r}"))
    if "by" in raw and (type(by) is not str or not by):
        problems.append(LogProblem(k, "bad by", f"expected who entered it (a non-empty string), found {by!r}"))
    stamped[k] = (at if type(at) is str else "", by if type(by) is str else "")
    return True


def _is_utc_time(at: Any) -> bool:
    if type(at) is not str or not _AT.fullmatch(at):
        return False
    try:
        datetime.fromisoformat(at[:-1])
    except ValueError:
        return False
    return True


def _bad_event(k: int) -> LogProblem:
    return LogProblem(k, "bad event", "expected an object with seq, type, actor, payload, hash (and at, by)")
