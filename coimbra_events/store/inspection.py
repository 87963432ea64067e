"""Whether a stored game is still what was recorded, however its store was changed.

Four things make a stored game evidence:

* its **hash chain**, checked link by link as the game is read (``Game.Recorded.apply``),
  before an entry is decoded or any rule runs on it;
* its **receipts**: every save of a game also saves a ``Receipt`` (how many entries the
  game has and the head of its chain) in a stream of its own, in the same transaction.
  The latest receipt is read with the game, so cutting off the last entries, or adding
  some behind coimbra's back, shows;
* **what rows may hold**: the ``StoredTopics`` mapper resolves only this application's
  own event classes, so a changed row never makes the library import another module;
* its **snapshot**, the copy of its record and table a read starts from instead of its
  rows: each receipt vouches for the snapshot in force after its save (its version and
  ``snapshot_digest``, the sha256 of all it holds but the entries, whose head it holds),
  and a read uses the latest snapshot only if the latest receipt vouches for it. Its
  entries are checked against their hashes, up to that head, when first read.

When anything is off, ``inspect_game`` reads the game's rows one by one, the way a log
file is read (``coimbra_events.log.check_document``), and lists every problem with the
entry it is at; ``GameStore`` turns the first into ``DamagedGame`` and ``coimbra verify``
prints them all. It also holds the game's latest snapshot, and what every receipt
says of the snapshot in force, to the rows folded to that version.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable, Sequence
from uuid import UUID

import orjson
from eventsourcing.persistence import Mapper, MapperDeserialisationError, StoredEvent
from eventsourcing.utils import get_topic

from coimbra_events import RULESET
from coimbra_events.catalog import Catalog, CatalogError, find_catalog, parse_catalog
from coimbra_events.event_decoding import shown
from coimbra_events.game import Game, kept, result_of
from coimbra_events.log import FORMAT, SCHEMA, GameLog, LogError, LogProblem, event_hash
from coimbra_events.log_reader import check_document
from coimbra_events.store.errors import one_line
from coimbra_events.store.receipts import Receipt, receipt_id
from coimbra_events.store.rows import Rows
from coimbra_events.store.snapshots import SNAPSHOT_FORMAT, facts_of, restore, snapshot_digest
from coimbra_events.store.register import legacy_game_id
from coimbra_events.store.topics import ForeignTopic
from coimbra_events.state import GameState
from coimbra_events.validation import validate


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


FACTS: tuple[type, ...] = (Game.Finished, Game.Reopened, Game.Renamed, Game.Tagged, Game.Archived, Game.PutAway)
"""The rows of a game that are facts about its record, not entries of it."""


def inspect_game(rows: Rows, game_id: UUID, name: str) -> Inspection | None:
    """Every problem of a stored game, read row by row from the store's ``rows``; ``None`` if it has no such game.

    The receipts are read before and after the game's rows: if they differ, a
    writer saved in between and the result says ``raced``.
    """
    mapper = rows.mapper
    receipts_id = receipt_id(game_id)
    before = rows.of(receipts_id, desc=True, limit=1)
    stored = rows.of(game_id)
    receipts = rows.of(receipts_id)
    if [r.originator_version for r in before] != [r.originator_version for r in receipts[-1:]]:
        return Inspection(name, raced=True)
    if not stored and not receipts:
        return None
    problems: list[LogProblem] = []
    mapped: list[Any] = []
    header, catalog, first_name = _header(mapper, stored[0] if stored else None, problems, mapped)
    anchor = _anchor(header)
    entries, last_name = _entries(mapper, stored, anchor, problems, mapped, first_name)
    if last_name is not None and last_name != name:
        problems.append(LogProblem(0, "not this game", f"its rows name it {shown(last_name)}, the store's register {shown(name)}"))
    chain = _chain(anchor, entries)
    log = _check_entries(header, entries, name, problems) if header is not None else None
    legacy = first_name is not None and game_id == legacy_game_id(first_name)
    read = _check_receipts(mapper, receipts, chain, problems, optional=legacy)
    if log is not None and not problems:
        state = _check_rules(log, catalog, name, problems)
        if state is not None:
            _check_result(mapped, state, len(entries), problems)
        held = _latest_snapshot(rows, game_id, len(rows_of(entries)), problems)
        vouched_for = _vouched_for(read, problems)
        digests = _digests_at(mapped, set(vouched_for) | ({held[0]} if held else set()))
        _check_vouching(vouched_for, digests, problems)
        if held is not None and digests.get(held[0]) != held[1]:
            problems.append(LogProblem(held[2], "snapshot changed",
                                       "the game's latest snapshot does not hold what its rows give at its version"))
    return Inspection(name, tuple(sorted(problems, key=lambda p: p.seq or 0)), header, tuple(entries), tuple(chain))


def _fields(event: Any, cls: type) -> tuple[dict[str, Any], list[str]]:
    """A mapped event's fields, and what is wrong with their names (missing or unexpected)."""
    expected = {f.name for f in dataclasses.fields(cls)}
    given = dict(vars(event))
    wrong = [f"missing {shown(sorted(expected - set(given)))}"] if expected - set(given) else []
    if set(given) - expected:
        wrong.append(f"unexpected {shown(sorted(set(given) - expected))}")
    return given, wrong


def _mapped(mapper: Mapper, row: StoredEvent, classes: tuple[type, ...], seq: int, problems: list[LogProblem],
            mapped: list[Any]) -> tuple[Any, dict[str, Any]] | None:
    """A row's event and fields if it holds one of ``classes`` with exactly its fields; else its problem is noted."""
    try:
        event = mapper.to_domain_event(row)
    except ForeignTopic as exc:
        problems.append(LogProblem(seq, "unreadable stored row", str(exc)))
        return None
    except Exception as exc:  # any row a store can hold: unreadable is what it is
        cause = exc.__cause__ if isinstance(exc, MapperDeserialisationError) and exc.__cause__ else exc
        problems.append(LogProblem(seq, "unreadable stored row", f"its stored state cannot be decoded ({one_line(cause)})"))
        return None
    if type(event) not in classes:
        problems.append(LogProblem(seq, "not what the row should hold",
                                   f"a stored {type(event).__qualname__} where a {classes[0].__qualname__} should be"))
        return None
    fields, wrong = _fields(event, type(event))
    version = _version_problem(type(event), row)
    if version:
        wrong = [version]
    if not wrong and not isinstance(fields["timestamp"], datetime):
        wrong = [f"timestamp {shown(fields['timestamp'])} is not a time"]
    if not wrong and "originator_topic" in fields and fields["originator_topic"] != get_topic(Game):
        wrong = [f"it creates a {shown(fields['originator_topic'])}, not a game"]
    if not wrong and type(event) in FACTS:
        wrong = _fact_problems(fields)
    if wrong:
        problems.append(LogProblem(seq, "stored row with other fields", "; ".join(wrong)))
        return None
    mapped.append(event)
    return event, fields


def _version_problem(cls: type, row: StoredEvent) -> str:
    """What is wrong with a row's class version: one this code writes, or an older one without the fields
    its upcasting adds (``""`` if nothing)."""
    try:
        raw = orjson.loads(row.state)
    except orjson.JSONDecodeError:
        return ""  # the mapper read it, as JSON the standard library accepts: its fields are checked as mapped
    current = getattr(cls, "class_version", 1)
    version = raw.get("class_version", 1) if type(raw) is dict else 1
    if type(version) is not int or not 1 <= version <= current:
        return f"class version {shown(version)}, which no coimbra that reads it wrote"
    added: set[str] = set()
    for step in range(version, current):
        fresh: dict[str, Any] = {}
        getattr(cls, f"upcast_v{step}_v{step + 1}")(fresh)
        added |= set(fresh)
    if added & set(raw):
        return f"class version {version} with {shown(sorted(added & set(raw)))}, which that version did not have"
    return ""


def _fact_problems(fields: dict[str, Any]) -> list[str]:
    """What is wrong with the values of a fact about the record (a result, a name, tags, archived)."""
    kinds = {"result": list, "name": str, "tags": (list, tuple), "archived": bool}
    return [f"{key} {shown(fields[key])} is not what coimbra saves" for key, kind in kinds.items()
            if key in fields and not isinstance(fields[key], kind)]


def _header(
    mapper: Mapper, row: StoredEvent | None, problems: list[LogProblem], mapped: list[Any]
) -> tuple[dict[str, Any] | None, Catalog | None, str | None]:
    """The game's log header as its first stored row holds it, its catalog if it is known, and the name it was made under."""
    if row is None or row.originator_version != 1:
        problems.append(LogProblem(0, "header missing", "the game's first stored row (players, catalog, ruleset) is not there"))
        return None, None, None
    found = _mapped(mapper, row, (Game.Created,), 0, problems, mapped)
    if found is None:
        return None, None, None
    fields = found[1]
    players = fields["players"]
    if type(players) is list and all(type(p) is list and len(p) == 2 for p in players):
        players = [{"name": n, "color": c} for n, c in players]
    header: dict[str, Any] = {"format": FORMAT, "schema": SCHEMA, "ruleset": fields["ruleset"],
                              "catalog": {"id": fields["catalog_id"], "sha256": fields["catalog_sha256"]}, "players": players}
    if fields["meta"] != {}:
        header["meta"] = fields["meta"]
    if type(fields["upcast_from"]) is not int or fields["upcast_from"] != 0:  # anything but the 0 of "none": checked as a log's
        header["upcast_from"] = fields["upcast_from"]
    catalog = None
    try:  # as the fold resolves it, but without the cache: the stored copy must be the catalog it names
        data, identity = fields["catalog_data"], (fields["catalog_id"], fields["catalog_sha256"])
        catalog = parse_catalog(data) if data is not None else find_catalog(*identity)
        if (catalog.id, catalog.sha256) != identity:
            raise CatalogError(f"catalog {shown(identity[0])}", f"sha256={shown(identity[1])}", f"sha256={catalog.sha256}")
    except Exception as exc:  # whatever a stored copy holds: it is not the catalog named
        problems.append(LogProblem(0, "catalog not available", one_line(exc)))
        catalog = None
    name = fields["name"]
    wrong = [f"{key} {shown(fields[key])} is not what coimbra saves"
             for key, kind in (("name", str), ("announces", bool)) if type(fields[key]) is not kind]
    if not wrong and fields["announces"] is not _announces(row):
        wrong = ["it says whether the game announces its results otherwise than the code that saved it"]
    if wrong:
        problems.append(LogProblem(0, "stored row with other fields", "; ".join(wrong)))
    return header, catalog, name if type(name) is str else None


def _announces(row: StoredEvent) -> bool:
    """Whether the code that saved a game's first row made games that announce their results
    (every game since schema 2, whose ``Created`` rows say class version 2)."""
    try:
        return bool(orjson.loads(row.state).get("class_version", 1) >= 2)
    except (orjson.JSONDecodeError, AttributeError, TypeError):
        return False


def _entries(
    mapper: Mapper, rows: Sequence[StoredEvent], anchor: str | None, problems: list[LogProblem], mapped: list[Any],
    name: str | None,
) -> tuple[list[dict[str, Any] | None], str | None]:
    """Each entry as a log entry (seq, type, actor, payload, at and by where known, hash; ``None`` where none can
    be read), and the game's name after its renames. Every stored row is in its place, numbered without gaps.

    Where rows are missing, the next entry tells what they held: if it chains on from the entry before
    them, facts about the record only (a rename, a result); else entries, whose places are kept.
    """
    entries: list[dict[str, Any] | None] = []
    prev, due, missing = anchor, 2, 0
    for row in rows[1:] if rows and rows[0].originator_version == 1 else rows:
        if row.originator_version != due:
            missing = row.originator_version - due
            what = f"version {due}" if missing == 1 else f"versions {due} to {row.originator_version - 1}"
            problems.append(LogProblem(len(entries) + 1, "stored row missing", f"the game's stored row of {what} was deleted"))
        due = row.originator_version + 1
        found = _mapped(mapper, row, (Game.Recorded, *FACTS), len(entries) + 1, problems, mapped)
        if found is None:
            entries.append(None)
            prev, missing = None, 0
            continue
        event, fields = found
        if type(event) is Game.Renamed:
            name = fields["name"]
        if type(event) is not Game.Recorded:
            continue
        entry = {"type": fields["type"], "actor": fields["actor"], "payload": fields["payload"]}
        entry.update({key: fields[key] for key in ("at", "by") if fields[key] is not None})
        if missing and not _chains(prev, len(entries) + 1, entry, fields["hash"]):
            entries += [None] * missing
        missing = 0
        entries.append({"seq": len(entries) + 1, **entry, "hash": fields["hash"]})
        prev = fields["hash"] if type(fields["hash"]) is str else None
    return entries, name


def _chains(prev: str | None, seq: int, entry: dict[str, Any], stated: Any) -> bool:
    """Whether an entry's recorded hash is the one chained from ``prev`` at ``seq``."""
    if prev is None:
        return False
    try:
        return event_hash(prev, seq, entry["type"], entry["actor"], entry["payload"], entry.get("at", ""),
                          entry.get("by", "")) == stated
    except TypeError:  # nested too deeply to hash: its own problem is noted when the entries are read
        return False


def _anchor(header: dict[str, Any] | None) -> str | None:
    """The hash a stored header anchors the chain on (``None`` if the header is too odd to read)."""
    try:
        return check_document({**header, "events": []}, "").anchor() if header is not None else None
    except (LogError, TypeError):  # its own problem is noted when the entries are read
        return None


def _chain(anchor: str | None, entries: Sequence[dict[str, Any] | None]) -> list[str | None]:
    """The chain as recorded: its anchor, then each entry's stated hash (``None`` if unknown)."""
    chain: list[str | None] = [anchor]
    for entry in entries:
        stated = entry["hash"] if entry is not None else None
        chain.append(stated if type(stated) is str else None)
    return chain


Read = list[tuple[int, int, dict[str, Any]]]
"""The receipts read, each with its number, the entry it is at and its fields."""


def _check_receipts(mapper: Mapper, rows: Sequence[StoredEvent], chain: list[str | None], problems: list[LogProblem],
                    optional: bool = False) -> Read:
    """Each receipt in its place and matching the chain where it says; the last one at its end.

    ``optional``: a game from before receipts were kept may have none (from its first save since, it has them).
    """
    entries = len(chain) - 1
    if not rows:
        if not optional:
            problems.append(LogProblem(entries + 1 if entries else 0, "no receipt",
                                       "the store holds no receipt of this game's head (they were deleted)"))
        return []
    covered, due = 0, 1
    read: Read = []
    for k, row in enumerate(rows, 1):
        seq = min(covered + 1, entries) if entries else 0
        if row.originator_version != due:
            missing = f"receipt {due}" if row.originator_version == due + 1 else f"receipts {due} to {row.originator_version - 1}"
            problems.append(LogProblem(seq, "receipt missing", f"{missing} of this game's saves was deleted"))
        due = row.originator_version + 1
        found = _mapped(mapper, row, (Receipt,), seq, problems, [])
        if found is None:
            continue
        count, head = found[1]["entries"], found[1]["head"]
        if type(count) is not int or type(head) is not str or not 0 <= count:
            problems.append(LogProblem(seq, "receipt changed", f"receipt {k} says {shown(count)} entries, head {shown(head)}"))
            continue
        read.append((k, seq, found[1]))
        if count > entries:
            problems.append(LogProblem(entries + 1, "entries missing", f"the store's receipt {k} says {count} entries "
                                       f"(head {head[:12]}), the record ends at entry {entries}: its last entries were removed"))
            return read
        if count < covered:
            problems.append(LogProblem(seq, "receipt changed", f"receipt {k} says {count} entries, fewer than the one before"))
        elif chain[count] is not None and chain[count] != head:
            problems.append(LogProblem(count, "receipt does not match", f"receipt {k} says entry {count} has head {head[:12]}, "
                                       f"the record says {str(chain[count])[:12]}"))
        covered = max(covered, count)
    if covered < entries:
        problems.append(LogProblem(covered + 1, "entry without receipt",
                                   f"entries {covered + 1} to {entries} were saved without a receipt (added behind coimbra's back)"))
    return read


def _vouched_for(read: Read, problems: list[LogProblem]) -> dict[int, list[tuple[int, int, str]]]:
    """The snapshots the receipts vouch for, by version: (receipt, entry, sha256) of each that names one."""
    wanted: dict[int, list[tuple[int, int, str]]] = {}
    for k, seq, fields in read:
        version, sha256 = fields["snapshot_version"], fields["snapshot_sha256"]
        if (version, sha256) == (0, None):
            continue
        if type(version) is int and version > 0 and type(sha256) is str:
            wanted.setdefault(version, []).append((k, seq, sha256))
        else:
            problems.append(LogProblem(seq, "receipt changed",
                                       f"receipt {k} vouches for snapshot {shown(version)}, sha256 {shown(sha256)}"))
    return wanted


def _digests_at(mapped: list[Any], versions: set[int]) -> dict[int, str]:
    """``snapshot_digest`` of the game folded from its rows, at each of ``versions`` it reaches (one fold, none if
    no version is asked for). A fold that fails stops there: the rows' damage is what the other checks name."""
    digests: dict[int, str] = {}
    game: Any = None
    try:
        for event in mapped:
            if len(digests) == len(versions):
                break
            game = event.mutate(game)
            if game.version in versions:
                digests[game.version] = snapshot_digest(facts_of(game))
    except Exception:  # whatever a changed row makes the fold raise
        pass
    return digests


def _check_vouching(vouched_for: dict[int, list[tuple[int, int, str]]], digests: dict[int, str],
                    problems: list[LogProblem]) -> None:
    """Each receipt that vouches for a snapshot vouches for the one the game's rows give at its version."""
    for version, receipts in vouched_for.items():
        digest = digests.get(version)
        why = "which the game never reached" if digest is None else "which the game's rows do not give"
        problems += [LogProblem(seq, "receipt changed", f"receipt {k} vouches for a snapshot at version {version}, {why}")
                     for k, seq, sha256 in receipts if sha256 != digest]


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


def _check_rules(log: GameLog, catalog: Catalog | None, name: str, problems: list[LogProblem]) -> GameState | None:
    """A record whose every link holds, folded through the rules: only a store changed behind
    coimbra's back, its hashes worked out again, can hold an entry that breaks one. The table
    it ends at, if every entry holds."""
    try:
        result = validate(log, catalog, name)
    except LogError as exc:
        problems += [p for p in exc.problems if p.what != "another ruleset"]  # a record of another ruleset is as recorded
        return None
    if not kept(result) and result.violation is not None:
        v = result.violation
        problems.append(LogProblem(result.violation_seq, f"breaks rule {v.rule}",
                                   f"{v.reason} (yet its hash matches: the store was changed and its hashes worked out again)"))
        return None
    return result.state


def _check_result(mapped: Sequence[Any], state: GameState, last: int, problems: list[LogProblem]) -> None:
    """A game that announces its results (every game since schema 2) says the one its record ends
    with: the games index and the league show what the stored rows say, not what a fold would."""
    created = next((e for e in mapped if type(e) is Game.Created), None)
    if created is None or vars(created).get("announces") is not True:
        return
    said: Any = None
    for event in mapped:
        if type(event) is Game.Finished:
            said = vars(event).get("result")
        elif type(event) is Game.Reopened:
            said = None
    if orjson.loads(orjson.dumps(said)) != orjson.loads(orjson.dumps(result_of(state))):
        told = "no result" if said is None else f"the result {_results(said)}"
        ends = "no end of the game" if state.over is False else f"the result {_results(result_of(state))}"
        problems.append(LogProblem(last, "result not the record's",
                                   f"the stored rows announce {told}, the record gives {ends}"))


def _results(result: Any) -> str:
    """A stored result in a few words (names and totals), however it was changed."""
    try:
        return ", ".join(f"{shown(r['name'])} {shown(r['total'])}" for r in result)
    except (TypeError, KeyError):
        return shown(result)


def _latest_snapshot(rows: Rows, game_id: UUID, entries: int, problems: list[LogProblem]) -> tuple[int, str, int] | None:
    """The game's latest snapshot, if the store would read it: its version, ``snapshot_digest`` and number of
    entries, its entries read and checked against its head. One this code wrote that cannot be read so is damage."""
    row = rows.latest_snapshot(game_id)
    if row is None:
        return None
    try:
        snapshot = rows.event(row)
        game, _ = restore(snapshot, None)  # with no rows to fall back on: its copy holds or fails
        return snapshot.originator_version, snapshot_digest(snapshot.state), len(game.events)
    except Exception:  # a snapshot this code cannot use is not used (the game is folded from its rows) ...
        if _ours(row):  # ... but one it wrote, changed since, is damage all the same
            problems.append(LogProblem(entries, "snapshot changed", "the game's latest snapshot cannot be read as coimbra wrote it"))
        return None


def _ours(row: StoredEvent) -> bool:
    """Whether a stored snapshot says it was written by this code (its format and ruleset)."""
    try:
        state = orjson.loads(row.state).get("state", {})
    except (orjson.JSONDecodeError, AttributeError):
        return True  # not even JSON: not the library's writing, so not another version's either
    return type(state) is dict and state.get("format") == SNAPSHOT_FORMAT and state.get("ruleset") == RULESET


def rows_of(entries: Iterable[dict[str, Any] | None]) -> list[dict[str, Any]]:
    """The readable entries, as ``coimbra_events.log.dumps_entries`` writes them."""
    return [e for e in entries if e is not None]
