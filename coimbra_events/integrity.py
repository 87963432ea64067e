"""Whether a stored game is still what was recorded, however its store was changed.

Three things make a stored game evidence:

* its **hash chain**, checked link by link as the game is folded (``Game.Recorded.apply``),
  before any rule runs on an entry;
* its **receipts**: every save of a game also saves a ``Receipt`` (how many entries the
  game has and the head of its chain) in a stream of its own, in the same transaction.
  The latest receipt is read with the game, so cutting off the last entries, or adding
  some behind coimbra's back, shows;
* **what rows may hold**: the ``StoredTopics`` mapper resolves only this application's
  own event classes, so a changed row never makes the library import another module.

When anything is off, ``inspect_game`` reads the game's rows one by one, the way a log
file is read (``coimbra_events.log.check_document``), and lists every problem with the
entry it is at; ``GameStore`` turns the first into ``DamagedGame`` and ``coimbra verify``
prints them all.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable, Sequence
from uuid import UUID, uuid5

from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import ApplicationRecorder, Mapper, MapperDeserialisationError, StoredEvent
from eventsourcing.utils import get_topic

from coimbra_events.catalog import Catalog, CatalogError, find_catalog, parse_catalog
from coimbra_events.events import shown
from coimbra_events.game import NAMESPACE, Game, kept
from coimbra_events.log import FORMAT, SCHEMA, GameLog, LogError, LogProblem, check_document, header_hash
from coimbra_events.validation import validate


class Receipt(DomainEvent):
    """Where a game's chain stood after one save: its number of entries and its head."""

    entries: int
    head: str


def receipt_id(name: str) -> UUID:
    """The stream of a game's receipts (one per save, numbered from 1)."""
    return uuid5(NAMESPACE, f"receipt:{name}")


def receipt_of(game: Game) -> Receipt:
    """The receipt to save with ``game``'s pending events: the next one of its stream."""
    return Receipt(
        originator_id=receipt_id(game.name), originator_version=game.receipts + 1,
        timestamp=Receipt.create_timestamp(), entries=len(game.events), head=game.head,
    )


class ForeignTopic(MapperDeserialisationError):
    """A stored row whose topic names no class of this application."""


class StoredTopics(Mapper):
    """A mapper that resolves only the topics in ``topics``, the classes the application stores.

    The library resolves a row's topic by importing the module it names; refusing
    any other topic first means a changed row can only ever be unreadable.
    """

    topics: frozenset[str] = frozenset()

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        if stored_event.topic not in self.topics:
            raise ForeignTopic(f"a stored row names {shown(stored_event.topic)}, which is no class of coimbra's")
        return super().to_domain_event(stored_event)


class DamagedGame(ValueError):
    """A stored game that is not what was recorded; ``problems`` lists everything found."""

    def __init__(self, name: str, problems: Sequence[LogProblem]) -> None:
        self.name = name
        self.problems = tuple(problems)
        first = self.problems[0]
        where = "its header" if first.seq == 0 else f"entry {first.seq}"
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__(f"stored game {name} is damaged at {where}: {first.what}: {first.why}{more}; nothing was changed")


@dataclass(frozen=True)
class Inspection:
    """What reading a stored game's rows one by one found.

    ``header`` and ``entries`` are the log as stored (``None`` where a row could
    not be read), for ``export --force``; ``chain`` is the header's hash, then
    each entry's recorded hash (``None`` where unknown). ``raced`` says another
    writer saved while the rows were read: read again.
    """

    name: str
    problems: tuple[LogProblem, ...] = ()
    header: dict[str, Any] | None = None
    entries: tuple[dict[str, Any] | None, ...] = ()
    chain: tuple[str | None, ...] = ()
    raced: bool = False


def inspect_game(recorder: ApplicationRecorder, mapper: Mapper, name: str) -> Inspection | None:
    """Every problem of a stored game, read row by row (``None`` if the store has no such game).

    The receipts are read before and after the game's rows: if they differ, a
    writer saved in between and the result says ``raced``.
    """
    game_id, receipts_id = Game.create_id(name), receipt_id(name)
    before = recorder.select_events(receipts_id, desc=True, limit=1)
    rows = recorder.select_events(game_id)
    receipts = recorder.select_events(receipts_id)
    if [r.originator_version for r in before] != [r.originator_version for r in receipts[-1:]]:
        return Inspection(name, raced=True)
    if not rows and not receipts:
        return None
    problems: list[LogProblem] = []
    header, catalog = _header(mapper, rows[0] if rows else None, name, problems)
    entries = _entries(mapper, rows[1:] if rows and rows[0].originator_version == 1 else rows, problems)
    chain = _chain(header, entries)
    log = _check_entries(header, entries, name, problems) if header is not None else None
    _check_receipts(mapper, receipts, chain, problems)
    if log is not None and not problems:
        _check_rules(log, catalog, name, problems)
    return Inspection(name, tuple(sorted(problems, key=lambda p: p.seq or 0)), header, tuple(entries), tuple(chain))


def _fields(event: Any, cls: type) -> tuple[dict[str, Any], list[str]]:
    """A mapped event's fields, and what is wrong with their names (missing or unexpected)."""
    expected = {f.name for f in dataclasses.fields(cls)}
    given = dict(vars(event))
    wrong = [f"missing {shown(sorted(expected - set(given)))}"] if expected - set(given) else []
    if set(given) - expected:
        wrong.append(f"unexpected {shown(sorted(set(given) - expected))}")
    return given, wrong


def _mapped(mapper: Mapper, row: StoredEvent, cls: type, seq: int, problems: list[LogProblem]) -> dict[str, Any] | None:
    """A row's fields if it holds a ``cls`` with exactly its fields; else its problem is noted."""
    try:
        event = mapper.to_domain_event(row)
    except ForeignTopic as exc:
        problems.append(LogProblem(seq, "unreadable stored row", str(exc)))
        return None
    except Exception as exc:  # any row a store can hold: unreadable is what it is
        cause = exc.__cause__ if isinstance(exc, MapperDeserialisationError) and exc.__cause__ else exc
        problems.append(LogProblem(seq, "unreadable stored row", f"its stored state cannot be decoded ({_one_line(cause)})"))
        return None
    if type(event) is not cls:
        problems.append(LogProblem(seq, "not what the row should hold",
                                   f"a stored {type(event).__qualname__} where a {cls.__qualname__} should be"))
        return None
    fields, wrong = _fields(event, cls)
    if not wrong and not isinstance(fields["timestamp"], datetime):
        wrong = [f"timestamp {shown(fields['timestamp'])} is not a time"]
    if not wrong and "originator_topic" in fields and fields["originator_topic"] != get_topic(Game):
        wrong = [f"it creates a {shown(fields['originator_topic'])}, not a game"]
    if wrong:
        problems.append(LogProblem(seq, "stored row with other fields", "; ".join(wrong)))
        return None
    return fields


def _header(
    mapper: Mapper, row: StoredEvent | None, name: str, problems: list[LogProblem]
) -> tuple[dict[str, Any] | None, Catalog | None]:
    """The game's log header as its first stored row holds it, and its catalog if it is known."""
    if row is None or row.originator_version != 1:
        problems.append(LogProblem(0, "header missing", "the game's first stored row (players, catalog, ruleset) is not there"))
        return None, None
    fields = _mapped(mapper, row, Game.Created, 0, problems)
    if fields is None:
        return None, None
    if fields["name"] != name:
        problems.append(LogProblem(0, "not this game's header", f"it names the game {shown(fields['name'])}"))
    players = fields["players"]
    if type(players) is list and all(type(p) is list and len(p) == 2 for p in players):
        players = [{"name": n, "color": c} for n, c in players]
    header: dict[str, Any] = {"format": FORMAT, "schema": SCHEMA, "ruleset": fields["ruleset"],
                              "catalog": {"id": fields["catalog_id"], "sha256": fields["catalog_sha256"]}, "players": players}
    if fields["meta"] != {}:
        header["meta"] = fields["meta"]
    catalog = None
    try:  # as the fold resolves it, but without the cache: the stored copy must be the catalog it names
        data, identity = fields["catalog_data"], (fields["catalog_id"], fields["catalog_sha256"])
        catalog = parse_catalog(data) if data is not None else find_catalog(*identity)
        if (catalog.id, catalog.sha256) != identity:
            raise CatalogError(f"catalog {shown(identity[0])}", f"sha256={shown(identity[1])}", f"sha256={catalog.sha256}")
    except Exception as exc:  # whatever a stored copy holds: it is not the catalog named
        problems.append(LogProblem(0, "catalog not available", _one_line(exc)))
        catalog = None
    return header, catalog


def _entries(mapper: Mapper, rows: Sequence[StoredEvent], problems: list[LogProblem]) -> list[dict[str, Any] | None]:
    """Each entry as a log entry (seq, type, actor, payload, hash); ``None`` where none can be read."""
    entries: list[dict[str, Any] | None] = []
    for row in rows:
        seq = row.originator_version - 1
        if seq < len(entries) + 1:
            problems.append(LogProblem(0, "stored row out of place", f"a stored row numbered {row.originator_version}"))
            continue
        if seq > len(entries) + 1:
            gap = f"entry {len(entries) + 1}" if seq == len(entries) + 2 else f"entries {len(entries) + 1} to {seq - 1}"
            problems.append(LogProblem(len(entries) + 1, "entry missing", f"the stored row of {gap} was deleted"))
            entries += [None] * (seq - 1 - len(entries))
        fields = _mapped(mapper, row, Game.Recorded, seq, problems)
        entries.append(None if fields is None else
                       {"seq": seq, "type": fields["type"], "actor": fields["actor"], "payload": fields["payload"],
                        "hash": fields["hash"]})
    return entries


def _chain(header: dict[str, Any] | None, entries: Sequence[dict[str, Any] | None]) -> list[str | None]:
    """The chain as recorded: the header's hash, then each entry's stated hash (``None`` if unknown)."""
    try:
        anchor = header_hash(header) if header is not None else None
    except TypeError:  # a header too odd to hash (its own problem is already noted)
        anchor = None
    chain: list[str | None] = [anchor]
    for entry in entries:
        stated = entry["hash"] if entry is not None else None
        chain.append(stated if type(stated) is str else None)
    return chain


def _check_receipts(mapper: Mapper, rows: Sequence[StoredEvent], chain: list[str | None], problems: list[LogProblem]) -> None:
    """Each receipt in its place and matching the chain where it says; the last one at its end."""
    entries = len(chain) - 1
    if not rows:
        problems.append(LogProblem(entries + 1 if entries else 0, "no receipt",
                                   "the store holds no receipt of this game's head (they were deleted)"))
        return
    covered, due = 0, 1
    for k, row in enumerate(rows, 1):
        seq = min(covered + 1, entries) if entries else 0
        if row.originator_version != due:
            missing = f"receipt {due}" if row.originator_version == due + 1 else f"receipts {due} to {row.originator_version - 1}"
            problems.append(LogProblem(seq, "receipt missing", f"{missing} of this game's saves was deleted"))
        due = row.originator_version + 1
        fields = _mapped(mapper, row, Receipt, seq, problems)
        if fields is None:
            continue
        count, head = fields["entries"], fields["head"]
        if type(count) is not int or type(head) is not str or not 0 <= count:
            problems.append(LogProblem(seq, "receipt changed", f"receipt {k} says {shown(count)} entries, head {shown(head)}"))
            continue
        if count > entries:
            first = entries + 1
            problems.append(LogProblem(first, "entries missing", f"the store's receipt {k} says {count} entries "
                                       f"(head {head[:12]}), the record ends at entry {entries}: its last entries were removed"))
            return
        if k > 1 and count <= covered:
            problems.append(LogProblem(seq, "receipt changed", f"receipt {k} says {count} entries, no more than the one before"))
        elif chain[count] is not None and chain[count] != head:
            problems.append(LogProblem(count, "receipt does not match", f"receipt {k} says entry {count} has head {head[:12]}, "
                                       f"the record says {str(chain[count])[:12]}"))
        covered = max(covered, count)
    if covered < entries:
        problems.append(LogProblem(covered + 1, "entry without receipt",
                                   f"entries {covered + 1} to {entries} were saved without a receipt (added behind coimbra's back)"))


def _check_entries(
    header: dict[str, Any], entries: Sequence[dict[str, Any] | None], name: str, problems: list[LogProblem]
) -> GameLog | None:
    """The stored header and entries read as a log file is read; the log if they hold."""
    reported = {p.seq for p in problems}
    try:
        return check_document({**header, "events": list(entries)}, name)
    except LogError as exc:
        problems += [p for p in exc.problems if not (p.seq in reported and p.what == "bad event")]
        return None


def _check_rules(log: GameLog, catalog: Catalog | None, name: str, problems: list[LogProblem]) -> None:
    """A record whose every link holds, folded through the rules: only a store changed behind
    coimbra's back, its hashes worked out again, can hold an entry that breaks one."""
    try:
        result = validate(log, catalog, name)
    except LogError as exc:
        problems += list(exc.problems)
        return
    if not kept(result) and result.violation is not None:
        v = result.violation
        problems.append(LogProblem(result.violation_seq, f"breaks rule {v.rule}",
                                   f"{v.reason} (yet its hash matches: the store was changed and its hashes worked out again)"))


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def rows_of(entries: Iterable[dict[str, Any] | None]) -> list[tuple[int, Any, Any, Any, Any]]:
    """The readable entries as ``coimbra_events.log.dumps_entries`` writes them."""
    return [(e["seq"], e["type"], e["actor"], e["payload"], e["hash"]) for e in entries if e is not None]
