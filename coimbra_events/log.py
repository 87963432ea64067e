"""The JSON game log, schema 2: what a log holds, its canonical bytes, and the hash chain.

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

This module is the log's vocabulary (``GameLog``, its problems), its hashing and
its writing, which every reader and writer of a record needs. Reading and checking
a log's bytes is ``coimbra_events.log_reader``'s.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Final, Iterable, Mapping, Sequence

import orjson

from coimbra_events import RULESET
from coimbra_events.catalog import Catalog
from coimbra_events.event_decoding import decode_event
from coimbra_events.events import GameEvent
from coimbra_events.record import Record
from coimbra_events.files import write_atomically

FORMAT = "coimbra-log"
SCHEMA = 2
"""The schema version this code writes; older versions are upcast when read."""

Stamp = tuple[str, str]
"""When an entry was entered (ISO 8601 UTC, ``2026-05-01T19:04:11Z``) and by whom; ``""`` where not known."""
NO_STAMP: Final[Stamp] = ("", "")


class LogProblem(Record):
    """One thing wrong with a log: where and what.

    ``seq`` is the event's sequence number, 0 for the header, ``None`` for the
    file as a whole (unreadable, too large, not JSON).
    """

    FIELDS = ("seq", "what", "why")
    COMPARED = FIELDS

    def __init__(self, seq: int | None, what: str, why: str) -> None:
        self.seq: Final = seq
        self.what: Final = what
        self.why: Final = why

    def __str__(self) -> str:
        return self.said()

    def said(self, entry: str = "event") -> str:
        """``event 5: what: why`` (``entry 5: …`` for a stored game's, which speaks of entries)."""
        if self.seq is None:
            return f"{self.what}: {self.why}"
        where = "header" if self.seq == 0 else f"{entry} {self.seq}"
        return f"{where}: {self.what}: {self.why}"


class LogError(ValueError):
    """A log that cannot be read; ``problems`` lists what was found (the first ``log_reader.KEPT`` unless
    reading was asked to keep every one), ``count`` how many there are in all."""

    def __init__(self, source: str, problems: Sequence[LogProblem], count: int | None = None) -> None:
        self.source = source
        self.problems = tuple(problems)
        self.count = len(self.problems) if count is None else count
        more = f" (and {self.count - 1:,} more problems)" if self.count > 1 else ""
        super().__init__(f"{source}: {problems[0]}{more}")



class Chain(Record):
    """Every entry's hash, and what they were worked out from: the anchor, the entries and their stamps.

    A log kept with the chain its reader checked uses it only while it still has
    those very entries and stamps and that anchor, so a log changed since (by
    ``record.replace``, say) has its chain worked out again.
    """

    FIELDS = ("anchor", "events", "stamps", "hashes")
    COMPARED = FIELDS

    def __init__(self, anchor: str, events: tuple[GameEvent, ...], stamps: tuple[Stamp, ...], hashes: tuple[str, ...]) -> None:
        self.anchor: Final = anchor
        self.events: Final = events
        self.stamps: Final = stamps
        self.hashes: Final = hashes


class GameLog(Record):
    """A game as recorded: who played, with which catalog and ruleset, and every event.

    ``stamps`` holds one ``(at, by)`` per event, or none at all (no entry says when or
    by whom). ``upcast_from`` is the older schema the record was begun under (its chain
    is anchored there), or 0. ``checked`` is the chain as the reader worked it out
    checking the file (``loads``), so an import does not hash the record again; ``None``
    (a log built in code): worked out when asked. It is not compared.
    """

    FIELDS = ("catalog_id", "catalog_sha256", "players", "events", "ruleset", "meta", "stamps", "upcast_from", "checked")
    COMPARED = FIELDS[:-1]

    def __init__(
        self,
        catalog_id: str,
        catalog_sha256: str,
        players: tuple[tuple[str, str], ...],
        events: tuple[GameEvent, ...] = (),
        ruleset: str = RULESET,
        meta: Mapping[str, Any] | None = None,
        stamps: tuple[Stamp, ...] = (),
        upcast_from: int = 0,
        checked: Chain | None = None,
    ) -> None:
        self.catalog_id: Final = catalog_id
        self.catalog_sha256: Final = catalog_sha256
        self.players: Final = players
        self.events: Final = events
        self.ruleset: Final = ruleset
        self.meta: Final[Mapping[str, Any]] = {} if meta is None else meta
        self.stamps: Final = stamps
        self.upcast_from: Final = upcast_from
        self.checked: Final = checked

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

    def head(self) -> str:
        """The newest hash of the chain (its anchor before any event): the record's receipt."""
        hashes = self.hashes()
        return hashes[-1] if hashes else self.anchor()

    def hashes(self) -> list[str]:
        """The hash chain: one hash per event."""
        checked = self.checked
        if checked is not None and checked.events is self.events and checked.stamps is self.stamps \
                and checked.anchor == self.anchor():
            return list(checked.hashes)
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

    Any JSON values no deeper than ``log_reader.MAX_DEPTH``: a log is hashed as recorded,
    before its fields are checked. An entry without ``at`` and ``by`` hashes as
    schema 1 hashed it.
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


def chained_entries(anchor: str, entries: list[Any]) -> tuple[list[GameEvent], list[str], list[Stamp]]:
    """Entries ``[type, actor, payload, hash, at, by]`` (a stored game's snapshot holds them so), each
    checked against its hash, chained on from ``anchor``, before it is decoded: (events, hashes, stamps).

    The check a stored game's row gets (``Game.Recorded.apply``), made of the entries a snapshot
    copies: an edited entry no longer hashes to its recorded hash, and hashes worked out again no
    longer end at the head the game's receipt holds (``GameStore.get``). ``ValueError`` at the first
    that does not (the snapshot is not used, the rows are read). Here, compiled, because a snapshot
    holds every entry of the record and each read of the game checks them all.
    """
    events: list[GameEvent] = []
    hashes: list[str] = []
    stamps: list[Stamp] = []
    prev = anchor
    seq = 0
    for entry in entries:
        seq += 1
        type_name, actor, payload, chained, at, by = entry
        if chained != event_hash(prev, seq, type_name, actor, payload, at, by):
            raise ValueError(f"its entry {seq} does not match its recorded hash")
        events.append(decode_event(type_name, actor, payload))
        hashes.append(chained)
        stamps.append((at, by) if at or by else NO_STAMP)  # shared: most entries have none, and each is kept
        prev = chained
    return events, hashes, stamps


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


# --- writing -----------------------------------------------------------------------------------


def dumps(log: GameLog) -> bytes:
    """The canonical bytes of a log: header, then one event per line."""
    rows = [
        {"seq": seq, "type": e.TYPE, "actor": e.actor, "payload": e.payload(), "at": at, "by": by, "hash": h}
        for seq, (e, h, (at, by)) in enumerate(zip(log.events, log.hashes(), [log.stamp(k) for k in range(len(log.events))]), 1)
    ]
    return dumps_entries(log.header(), rows)


def dumps_entries(header: Mapping[str, Any], entries: Iterable[Mapping[str, Any]]) -> bytes:
    """Canonical bytes for a header and entries (seq, type, actor, payload, at and by where given, hash).

    ``dumps`` writes a game with the hashes it computes; a damaged stored game is
    written with the numbers and hashes it was recorded with, so the damage shows
    in the file.
    """
    head = orjson.dumps(header)[:-1]
    lines = []
    for e in entries:
        at, by = e.get("at"), e.get("by")
        stamp = (b',"at":%s' % orjson.dumps(at) if at else b"") + (b',"by":%s' % orjson.dumps(by) if by else b"")
        lines.append(
            b'{"seq":%d,"type":%s,"actor":%s,"payload":%s%s,"hash":%s}'
            % (e["seq"], orjson.dumps(e["type"]), orjson.dumps(e["actor"]), orjson.dumps(e["payload"], option=orjson.OPT_SORT_KEYS),
               stamp, orjson.dumps(e["hash"]))
        )
    body = b",\n".join(lines)
    return head + b',"events":[\n' + body + (b"\n" if lines else b"") + b"]}\n"


def write(path: str | Path, log: GameLog) -> None:
    """Write a log canonically, atomically: a reader sees the old file or the new one, never half."""
    write_atomically(path, dumps(log))
