"""Reading a move list back (``coimbra_events.movelist``): its lines into the JSON log's document, checked as a JSON
log is, each problem on its line; leniently, as a list written by hand (no head, no numbers, names for ids)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Mapping

from coimbra_events import RULESET, log as game_log, log_reader
from coimbra_events.catalog import Catalog, CatalogError, find_catalog, resolve_catalog, standin_catalog
from coimbra_events.events import Bookmarked, GameEvent, Noted
from coimbra_events.log import GameLog, LogError, LogProblem, entry_hash
from coimbra_events.event_decoding import PayloadError, decode_event
from coimbra_events.lines import SEPARATOR, TableAsRead, needs_table, read as read_line, split
from coimbra_events.names import Names, SpokenNames
from coimbra_events.notation import NotationError, parse
from coimbra_events.state import GameState

HEAD = "Head"
DECORATIONS = ("Date", "Result")
"""Tags the writer derives from the record for people; read for their form only."""

UNKNOWN_DATE = "????-??-??"
"""The date of a record that does not say when it was played (PGN's ``????.??.??``)."""

IN_PROGRESS = "*"
"""The result of a game that is not over (as PGN writes it)."""

CORE_FIELDS = ("seq", "type", "actor", "payload", "hash")
"""The fields of an entry that its line spells; any other field is written as a ``[%key value]`` command."""

_COMMENTED = (Noted, Bookmarked)
_TAG = re.compile(r"\[([A-Za-z][A-Za-z0-9_]*) (.*)\]")
_ENTRY = re.compile(r"(\d+)\. (.*)")
_COMMANDS_START = " {[%"
_COMMAND = re.compile(r"\[%([A-Za-z_][A-Za-z0-9_]*) ")
_PLAYER = re.compile(r"(.+) \(([^\s()]+)\)")
MARKS = ("??", "?!", "?", "!")
"""The marks an annotated move list puts after an entry, as PGN's (the longest first, as the pattern tries them)."""
ANNOTATION = re.compile(r"(.*\S) (" + "|".join(map(re.escape, MARKS)) + r") \{([^{}]*)\}")
"""An entry line's annotation, after it: a mark as PGN's (``?!``, ``?``, ``??``, ``!``) and a comment in braces
(``coimbra export --format text --analysis``). For people: a line reads as written if it can, else without it."""


class _BadLine(Exception):
    """A line that does not read: what and why (its ``LogProblem`` adds the place)."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(what, why)
        self.what, self.why = what, why


looks_like = log_reader.is_move_list


@dataclass(frozen=True)
class Listing:
    """A record read, the line of each entry (of a move list), and whether a hash vouched for it (``TAKEN_AS_WRITTEN``)."""

    log: GameLog
    lines: Mapping[int, int]
    checked: bool


TAKEN_AS_WRITTEN = "no Head tag: the record is taken as written (no hash vouches that it is the one recorded)"


def read_any(data: bytes, source: str, keep: int | None = log_reader.KEPT) -> Listing:
    """A record file's bytes, a move list or a JSON log (told apart by how it begins); ``LogError`` if it does not
    read (keeping the first ``keep`` problems of a JSON log, every one with ``None``). A JSON log is always checked."""
    if log_reader.is_move_list(data):
        return read_listing(data, source)
    return Listing(log_reader.loads(data, source, keep), {}, True)


def loads(data: bytes | str, source: str = "<move list>") -> GameLog:
    """Read a move list back into the log it was written from; ``LogError`` naming each bad line."""
    return read_listing(data, source).log


def read_listing(data: bytes | str, source: str = "<move list>") -> Listing:
    """``loads``, with the line of each entry and whether a head vouched for the record."""
    if len(data) > log_reader.MAX_BYTES:
        raise LogError(source, [LogProblem(None, "too large", f"more than {log_reader.MAX_BYTES:,} bytes")])
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LogError(source, [LogProblem(0, "not UTF-8 text", str(exc))]) from None
    reader = _Reader()
    problems: list[tuple[int, LogProblem]] = []
    for number, line in enumerate(data.lstrip("\ufeff").split("\n"), 1):
        line = line.rstrip("\r \t")
        try:
            reader.line(number, line)
        except _BadLine as bad:
            problems.append((number, LogProblem(reader.seq_at(line), f"line {number}: {bad.what}", bad.why)))
    header = _header(reader.tags, problems)
    if problems:
        raise LogError(source, [p for _, p in sorted(problems, key=lambda found: found[0])])
    return Listing(_chained(header, reader, source), dict(reader.lines), HEAD in reader.tags)


class _Reader:
    """What the lines read so far hold: the tags (with their line numbers) and the entries."""

    def __init__(self) -> None:
        self.tags: dict[str, tuple[int, Any]] = {}
        self.entries: list[dict[str, Any]] = []
        self.lines: dict[int, int] = {}  # entry seq -> its line number
        self.last = 0  # the number of the last entry read
        self._known: tuple[SpokenNames, TableAsRead | None] | None = None

    def seq_at(self, line: str) -> int:
        """The entry a bad line stands for: the number it is written with, else the next (0, the header, before any)."""
        match = _ENTRY.fullmatch(line)
        return int(match.group(1)) if match else self.last + 1 if self.last else 0

    def line(self, number: int, line: str) -> None:
        """Read one line into the tags or the entries; ``_BadLine`` if it is none of the kinds."""
        if not line or line.startswith(("==", "--")):
            return  # blank, or a heading: for people
        if line.startswith("["):
            self.tag(number, line)
            return
        match, seq = _ENTRY.fullmatch(line), len(self.entries) + 1
        names, table = self.known()
        if match is None:  # a line written without its number, as by hand
            try:
                read = _read_annotated(line, seq, names, self.table(table, line))
            except _BadLine as bad:
                raise _BadLine("not a move list line", f"expected a tag '[Name value]', an entry '[N.] notation', a heading "
                               f"('== …' or '-- …') or a blank line, got {_shown(line)} ({bad.why})") from None
            self.last += len(read)
        else:
            found, expected = int(match.group(1)), self.last + 1
            self.last = found
            read = _read_annotated(match.group(2), seq, names, self.table(table, match.group(2)))
            self.last += len(read) - 1
            if found != expected:  # one gap, one problem: go on from the number found
                raise _BadLine("sequence broken", f"expected entry {expected}, found {found} (entries count from 1 without gaps)")
        self.entries += read
        self.lines.update((entry["seq"], number) for entry in read)
        if self._known is not None:
            for entry in read:
                self._known[0].saw(entry)

    def known(self) -> tuple[Names | None, TableAsRead | None]:
        """The names entries may use (as the entries so far set them), and the table they are played on (the tags
        name them, and come first)."""
        if self._known is None and not self.entries:
            self._known = _known(_header(self.tags, []))
        return (self._known[0].names, self._known[1]) if self._known else (None, None)

    def table(self, table: TableAsRead | None, line: str) -> GameState | None:
        """The table after the entries read so far, for a line that needs it (a walk naming only where it goes)."""
        if table is None or not needs_table(line):
            return None
        try:
            return table.after([decode_event(e["type"], e["actor"], e["payload"]) for e in self.entries])
        except (PayloadError, KeyError):
            return None

    def tag(self, number: int, line: str) -> None:
        name, value = _read_tag(line)
        if self.entries:
            raise _BadLine(f"tag {name}", "tags belong in the header, before the first entry")
        if name in self.tags:
            raise _BadLine(f"tag {name}", f"given twice (first on line {self.tags[name][0]})")
        self.tags[name] = (number, value)


def _read_tag(line: str) -> tuple[str, Any]:
    match = _TAG.fullmatch(line)
    if match is None:
        raise _BadLine("bad tag", f"expected '[Name value]' (e.g. [Ruleset \"…\"]), got {_shown(line)}")
    try:
        return match.group(1), _json(match.group(2))
    except ValueError as exc:
        raise _BadLine(f"tag {match.group(1)}", f"the value is not JSON (strings in double quotes): {exc}") from None


def _read_annotated(body: str, seq: int, names: Names | None, table: GameState | None) -> list[dict[str, Any]]:
    """``_read_entries`` of a line as written; where that does not read and the line ends with an annotation
    (``ANNOTATION``), of the line without it: marks and comments are for people, and the record stays the same."""
    try:
        return _read_entries(body, seq, names, table)
    except _BadLine:
        found = ANNOTATION.fullmatch(body)
        if found is None:
            raise
        return _read_entries(found.group(1), seq, names, table)


def _read_entries(body: str, seq: int, names: Names | None = None, table: GameState | None = None) -> list[dict[str, Any]]:
    """The entry objects a line spells after its ``SEQ. `` (several for one player's turn), without hashes."""
    if body.startswith(("= ", "{")):
        return [_read_body(body, seq, names)]
    actor, parts = split(body)
    parts, shared = _line_commands(parts)
    cut = [_cut_commands(part) for part in parts]
    try:
        events = read_line((f"{actor}: " if actor is not None else "") + SEPARATOR.join(t for t, _ in cut), None, names, table)
    except NotationError as exc:
        raise _BadLine("bad notation", str(exc)) from None
    extras = [extra for _, extra in cut]
    if len(events) != len(extras):
        if any(extras):
            raise _BadLine("bad entry fields", "a walk's steps carry no fields of their own: write 'step SPACE {[%…]}' "
                                               "for each, or the fields every entry of the line shares after it: '; {[%…]}'")
        extras = [{} for _ in events]
    for event in events:
        if type(event) in _COMMENTED:
            raise _BadLine(f"{event.TYPE} entry", "notes and bookmarks are written in braces")
    twice = next((name for extra in extras for name in extra if name in shared), None)
    if twice is not None:
        raise _BadLine("bad entry fields", f"field {twice!r} given twice (for the entry and for its whole line)")
    return [_entry(seq + k, event, {**shared, **extra}) for k, (event, extra) in enumerate(zip(events, extras))]


def _line_commands(parts: list[str]) -> tuple[list[str], dict[str, Any]]:
    """A line's entries, and the fields all of them share: ``…; {[%at "…"] [%by "…"]}`` after its last entry
    (written once for the line, not after each entry)."""
    last = parts[-1] if len(parts) > 1 else ""
    if last.startswith(_COMMANDS_START.strip()) and last.endswith("]}"):
        return parts[:-1], _commands(last[1:-1])
    return parts, {}


def _entry(seq: int, event: GameEvent, extra: Mapping[str, Any]) -> dict[str, Any]:
    return {"seq": seq, "type": event.TYPE, "actor": event.actor, "payload": event.payload(), **extra}


def _cut_commands(text: str) -> tuple[str, dict[str, Any]]:
    """An entry's text and the fields its ``{[%name value] …}`` gives (none without one)."""
    cut = text.rfind(_COMMANDS_START)
    if cut >= 0 and text.endswith("]}"):
        return text[:cut], _commands(text[cut + 2:-1])
    return text, {}


def _read_body(body: str, seq: int, names: Names | None = None) -> dict[str, Any]:
    """The entry object a line spells after its ``SEQ. ``: its JSON object, or a note or bookmark in braces."""
    if body.startswith("= "):
        return _json_entry(body[2:], seq)
    body, extra = _cut_commands(body)
    if not body.endswith("}"):
        raise _BadLine("unclosed comment", "a note or bookmark in braces ends with '}'")
    try:
        event = parse(body[1:-1], None, names)
    except NotationError as exc:
        raise _BadLine("bad notation", str(exc)) from None
    if type(event) not in _COMMENTED:
        raise _BadLine(f"{event.TYPE} entry", "only notes and bookmarks are written in braces")
    return _entry(seq, event, extra)


def _json_entry(text: str, seq: int) -> dict[str, Any]:
    try:
        entry = _json(text)
    except ValueError as exc:
        raise _BadLine("bad entry object", f"after '= ' comes the entry as JSON: {exc}") from None
    if type(entry) is not dict or "seq" in entry or "hash" in entry:
        raise _BadLine("bad entry object", "expected a JSON object with type, actor and payload (no seq or hash)")
    return {"seq": seq, **entry}


def _commands(text: str) -> dict[str, Any]:
    """``[%at "…"] [%by "Ana"]`` as fields; each value is JSON."""
    out: dict[str, Any] = {}
    rest = text
    decoder_error = "expected '[%name value]' commands with JSON values, e.g. [%at \"2026-11-01T20:15:00Z\"]"
    while rest:
        match = _COMMAND.match(rest)
        if match is None:
            raise _BadLine("bad entry fields", decoder_error)
        name, rest = match.group(1), rest[match.end():]
        try:  # the JSON value read once, however many ``]`` follow
            value, end = _json_at(rest)
        except ValueError:
            raise _BadLine("bad entry fields", decoder_error) from None
        rest = rest[end:]
        if not rest.startswith("]"):
            raise _BadLine("bad entry fields", decoder_error)
        if name in out or name in CORE_FIELDS:
            raise _BadLine("bad entry fields", f"field {name!r} given twice (the line itself gives seq, type, actor and payload)")
        out[name] = value
        rest = rest[1:].lstrip(" ")
    return out


def _no_key_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        keys = [k for k, _ in pairs]
        raise ValueError(f"key {next(k for k in keys if keys.count(k) > 1)!r} given twice in one object")
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(object_pairs_hook=_no_key_twice, parse_constant=_no_constant)


def _json_at(text: str) -> tuple[Any, int]:
    """The strict JSON value at the start of ``text`` (no key twice, no NaN) and where it ends;
    ``ValueError`` if there is none, or if it nests too deeply to read."""
    try:
        return _DECODER.raw_decode(text)
    except RecursionError:
        raise ValueError(f"nested more than {log_reader.MAX_DEPTH} levels") from None


def _json(text: str) -> Any:
    """``text`` as one strict JSON value (``_json_at``), nothing after it."""
    value, end = _json_at(text)
    if text[end:].strip():
        raise ValueError(f"unexpected {_shown(text[end:])} after the value")
    return value


def _header(tags: Mapping[str, tuple[int, Any]], problems: list[tuple[int, LogProblem]]) -> dict[str, Any]:
    """The log header the tags spell (decorations left out, defaults filled in); a problem for bad players."""
    header: dict[str, Any] = {}
    for name, (number, value) in tags.items():
        if name == HEAD or name in DECORATIONS:
            if type(value) is not str:
                problems.append((number, LogProblem(0, f"line {number}: tag {name}", "expected a string")))
            continue
        key = name[:1].lower() + name[1:]
        if key == "players" and type(value) is str:
            players = _players(value)
            if players is None:
                problems.append((number, LogProblem(0, f"line {number}: tag Players",
                                                    "expected \"Name (colour), Name (colour), …\" or the log's JSON list")))
            value = players
        if key == "catalog" and type(value) is str:
            value = _catalog_identity(value, number, problems)
        header[key] = value
    return {**_DEFAULTS, **({} if "catalog" in header else {"catalog": _catalog_identity(None, 0, problems)}), **header}


_DEFAULTS: Mapping[str, Any] = {"format": game_log.FORMAT, "schema": game_log.SCHEMA, "ruleset": RULESET}
"""What a header written by hand may leave out: this program's format, schema and ruleset."""


def _catalog_identity(catalog_id: str | None, number: int, problems: list[tuple[int, LogProblem]]) -> Any:
    """``[Catalog "standin-1"]`` as the identity of the catalog with that id; no tag: the stand-in, as everywhere."""
    try:
        catalog = standin_catalog() if catalog_id is None else find_catalog(catalog_id)
    except CatalogError as exc:
        problems.append((number, LogProblem(0, f"line {number}: tag Catalog", str(exc))))
        return catalog_id
    return {"id": catalog.id, "sha256": catalog.sha256}


def _known(header: Mapping[str, Any], catalog: Catalog | None = None) -> tuple[SpokenNames, TableAsRead | None] | None:
    """The names entries are written and read by and the table they are played on, when the header gives the catalog
    (or ``catalog`` is given: the log's own) and the players (without them: names, players as written, and no table);
    ``None`` without a catalog (entries are then by id)."""
    identity, players = header.get("catalog"), header.get("players")
    if catalog is None:
        if type(identity) is not dict:
            return None
        try:
            catalog = resolve_catalog(str(identity.get("id")), str(identity.get("sha256")), None)
        except CatalogError:
            return None
    if type(players) is not list or not all(type(p) is dict for p in players):
        return SpokenNames(catalog, None), None
    seated = [(str(p.get("name")), str(p.get("color"))) for p in players]
    return SpokenNames(catalog, [name for name, _ in seated]), TableAsRead(catalog, seated)


def _chained(header: dict[str, Any], reader: _Reader, source: str) -> GameLog:
    """Chain the entries, read the document as a JSON log (every check of ``log_reader.loads``), and check the head."""
    prev = _json_log(header, [], reader, source).anchor()  # the anchor, as log_reader.loads makes it
    for entry in reader.entries:
        try:
            entry["hash"] = prev = entry_hash(prev, entry)
        except TypeError:  # nested deeper than can be written: ``log_reader.loads`` names it
            entry["hash"] = prev = ""
    log = _json_log(header, reader.entries, reader, source)
    head_line, head = reader.tags.get(HEAD, (0, prev))
    if head != prev:
        raise LogError(source, [LogProblem(len(reader.entries), f"line {head_line}: head hash does not match",
                                           f"the entries hash to {prev[:16]}…, the list says {str(head)[:16]}…: "
                                           "changed, inserted or removed after it was written")])
    return log


def _json_log(header: dict[str, Any], entries: list[dict[str, Any]], reader: _Reader, source: str) -> GameLog:
    """``log_reader.loads`` of the document; its problems placed on the lines they come from."""
    try:
        return log_reader.check_document({**header, "events": entries}, source)
    except LogError as exc:
        raise LogError(source, [_placed(p, reader) for p in exc.problems], exc.count) from None


def _placed(problem: LogProblem, reader: _Reader) -> LogProblem:
    """An entry's problem on its line; a header problem on the line of the tag it names (else the first tag's)."""
    if problem.seq and problem.seq in reader.lines:
        number = reader.lines[problem.seq]
    else:
        text = f"{problem.what} {problem.why}".lower()
        named = [n for name, (n, _) in reader.tags.items() if name.lower() in text]
        number = named[0] if named else min((n for n, _ in reader.tags.values()), default=1)
    return LogProblem(problem.seq, f"line {number}: {problem.what}", problem.why)


def _shown(line: str) -> str:
    return repr(line if len(line) <= 60 else line[:57] + "...")


def _players(text: str) -> list[dict[str, str]] | None:
    """``"Ana (red), Bruno (blue)"`` as the log's player objects; ``None`` if it is not that form."""
    out = []
    for item in text.split(", "):
        match = _PLAYER.fullmatch(item)
        if match is None:
            return None
        out.append({"name": match.group(1), "color": match.group(2)})
    return out
